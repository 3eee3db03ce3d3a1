//! The `.loopgate/` state directory: created 0700, every file written atomically
//! (temp file in the same directory, fsync, rename) so a reader in another hook process
//! sees the old file or the new one, never half of either. The directory itself is not
//! synced: after a power cut the rename may be lost, leaving the previous complete file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub mod cleanup;
pub mod crash;

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
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    ensure_dir(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(&cleanup::temp_prefix())
        .permissions(fs::Permissions::from_mode(0o600))
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
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

pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ReadError> {
    match fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| ReadError::Corrupt(e.to_string())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(ReadError::Missing),
        Err(e) => Err(ReadError::Io(e)),
    }
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
