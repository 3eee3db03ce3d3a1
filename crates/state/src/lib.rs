//! The `.loopgate/` state directory: created 0700, every file written atomically
//! (temp file in the same directory, fsync, rename) so a reader in another hook process
//! sees the old file or the new one, never half of either. The directory itself is not
//! synced: after a power cut the rename may be lost, leaving the previous complete file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub const DIR_NAME: &str = ".loopgate";

/// `<repo_root>/.loopgate`, created with mode 0700 (and tightened if it exists looser).
pub fn ensure_dir(dir: &Path) -> io::Result<()> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let meta = fs::metadata(dir)?;
    if meta.permissions().mode() & 0o077 != 0 {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

pub fn state_dir(repo_root: &Path) -> PathBuf {
    repo_root.join(DIR_NAME)
}

/// Write `bytes` to `path` atomically with mode 0600.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    synced_temp_beside(path, bytes)?
        .persist(path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// A 0600 temp file in `path`'s directory holding `bytes`, synced to disk.
fn synced_temp_beside(path: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    ensure_dir(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .permissions(fs::Permissions::from_mode(0o600))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// Write `bytes` to `path` only if `path` does not exist yet, atomically: the content is
/// complete and synced before the name appears. `AlreadyExists` when another writer won.
pub fn create_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    synced_temp_beside(path, bytes)?
        .persist_noclobber(path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// Serialize `value` as pretty JSON and write it atomically.
pub fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> io::Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
    bytes.push(b'\n');
    atomic_write(path, &bytes)
}

/// Why a state file could not be read. `Missing` is normal; `Corrupt` must never pass silently.
#[derive(Debug)]
pub enum ReadError {
    Missing,
    Io(io::Error),
    Corrupt(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Missing => write!(f, "missing"),
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Corrupt(e) => write!(f, "corrupt: {e}"),
        }
    }
}

/// State files larger than this are refused unread.
pub const MAX_STATE_BYTES: u64 = 64 * 1024 * 1024;

pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ReadError> {
    let bytes = read_bounded(path, MAX_STATE_BYTES)?;
    serde_json::from_slice(&bytes).map_err(|e| ReadError::Corrupt(e.to_string()))
}

/// Read a whole regular file of at most `max` bytes. Opened without blocking, so a FIFO,
/// a device or a socket planted in its place is refused instead of hanging the reader.
pub fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let file = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(ReadError::Missing),
        Err(e) => return Err(ReadError::Io(e)),
    };
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.file_type().is_file() {
        return Err(ReadError::Corrupt(format!(
            "{} is not a regular file ({})",
            path.display(),
            kind_of(&meta.file_type())
        )));
    }
    if meta.len() > max {
        return Err(ReadError::Corrupt(format!(
            "{} is {} bytes, over the {max}-byte limit",
            path.display(),
            meta.len()
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::Corrupt(format!(
            "{} grew past the {max}-byte limit while being read",
            path.display()
        )));
    }
    Ok(bytes)
}

fn kind_of(t: &fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else {
        "not a file"
    }
}

/// loopgate's per-user state, outside every repository: `$LOOPGATE_STATE_HOME`, else
/// `$XDG_STATE_HOME/loopgate`, else `~/.local/state/loopgate`. Session pins live here, so a
/// tool call's working directory can never choose which repository judges it.
pub fn user_state_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var("LOOPGATE_STATE_HOME") {
        return Some(dir);
    }
    if let Some(dir) = var("XDG_STATE_HOME").filter(|d| d.is_absolute()) {
        return Some(dir.join("loopgate"));
    }
    var("HOME").map(|h| h.join(".local/state/loopgate"))
}

/// An exclusive advisory lock held for the guard's lifetime (read-modify-write of a state
/// file by concurrent hook processes goes through one of these).
pub struct Lock {
    file: File,
}

impl Lock {
    pub fn acquire(path: &Path) -> io::Result<Lock> {
        if let Some(dir) = path.parent() {
            ensure_dir(dir)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .mode(0o600)
            .open(path)?;
        fs4::fs_std::FileExt::lock_exclusive(&file)?;
        Ok(Lock { file })
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs4::fs_std::FileExt::unlock(&self.file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_sets_modes() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(".loopgate");
        let file = dir.join("x.json");
        write_json(&file, &serde_json::json!({"a": 1})).unwrap();
        write_json(&file, &serde_json::json!({"a": 2})).unwrap();
        let v: serde_json::Value = read_json(&file).unwrap();
        assert_eq!(v["a"], 2);
        assert_eq!(
            fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
            0o700
        );
        assert_eq!(
            fs::metadata(&file).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let leftovers: Vec<_> = fs::read_dir(&dir).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file left behind");
    }

    #[test]
    fn corrupt_and_missing_are_distinct() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("s.json");
        assert!(matches!(
            read_json::<serde_json::Value>(&file),
            Err(ReadError::Missing)
        ));
        fs::write(&file, b"{not json").unwrap();
        assert!(matches!(
            read_json::<serde_json::Value>(&file),
            Err(ReadError::Corrupt(_))
        ));
    }

    #[test]
    fn loose_dir_is_tightened() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("d");
        fs::create_dir(&dir).unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        ensure_dir(&dir).unwrap();
        assert_eq!(
            fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
            0o700
        );
    }
}
