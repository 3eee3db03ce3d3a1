//! The `.loopgate/` state directory: created 0700, every file written atomically
//! (temp file in the same directory, fsync, rename) so a reader in another hook process
//! sees the old file or the new one, never half of either. The directory itself is not
//! synced: after a power cut the rename may be lost, leaving the previous complete file.

mod bounded;
pub mod deadline;
mod lock;

pub use bounded::{open_append, open_regular, read_bounded, Follow};
pub use lock::Lock;

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

pub mod cleanup;
pub mod crash;

pub const DIR_NAME: &str = ".loopgate";

/// The largest state file [`read_json`] reads. loopgate's own files stay far below it (the
/// largest, a session baseline with its metadata snapshot of the write roots, is tens of
/// MiB for a very large repository); anything bigger was not written by loopgate and is
/// refused unread rather than allowed to eat a hook's memory and time.
pub const MAX_STATE_BYTES: u64 = 256 * 1024 * 1024;

/// `dir` (the state directory or one inside it), created with mode 0700 (and tightened if
/// it exists looser). A `.loopgate` directory among `dir` and its parents is made to ignore
/// itself for git, so loopgate's state never shows as untracked or lands in a commit
/// (`git add -A`) in a repository where `loopgate install` did not add it to `.gitignore`.
pub fn ensure_dir(dir: &Path) -> io::Result<()> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let meta = fs::metadata(dir)?;
    if meta.permissions().mode() & 0o077 != 0 {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    match dir
        .ancestors()
        .find(|a| a.file_name() == Some(DIR_NAME.as_ref()))
    {
        Some(state) => ignore_for_git(state),
        None => Ok(()),
    }
}

/// `<state>/.gitignore` holding `*`: the directory and everything in it, the `.gitignore`
/// included, is ignored. Written once, atomically; an existing one (ours or the user's) is
/// left alone.
fn ignore_for_git(state: &Path) -> io::Result<()> {
    let path = state.join(".gitignore");
    if fs::symlink_metadata(&path).is_ok() {
        return Ok(());
    }
    match synced_temp_in(state, b"*\n")?.persist_noclobber(&path) {
        Err(e) if e.error.kind() != io::ErrorKind::AlreadyExists => Err(e.error),
        _ => Ok(()),
    }
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
    synced_temp_in(dir, bytes)
}

fn synced_temp_in(dir: &Path, bytes: &[u8]) -> io::Result<tempfile::NamedTempFile> {
    let mut tmp = tempfile::Builder::new()
        .prefix(&cleanup::temp_prefix())
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
    atomic_write(path, &json_bytes(value)?)
}

fn json_bytes<T: serde::Serialize>(value: &T) -> io::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(io::Error::other)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// An atomic write cut in two: the content is complete and synced in a temp file beside
/// its destination, and only [`Staged::commit`] gives it the name. Dropping it instead
/// removes the temp file and leaves the old file as it was. A caller that must also write
/// something else first (and give this one its name only if that succeeded) lets both
/// syncs run at once instead of one after the other.
pub struct Staged {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
}

impl Staged {
    pub fn commit(self) -> io::Result<()> {
        self.tmp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// [`write_json`] up to, not including, the rename.
pub fn stage_json<T: serde::Serialize>(path: &Path, value: &T) -> io::Result<Staged> {
    Ok(Staged {
        tmp: synced_temp_beside(path, &json_bytes(value)?)?,
        path: path.to_path_buf(),
    })
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

/// Read and parse a state file: a regular file (never a symlink, FIFO or device) of at most
/// [`MAX_STATE_BYTES`], opened without blocking.
pub fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ReadError> {
    match read_bounded(path, MAX_STATE_BYTES, Follow::No) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| ReadError::Corrupt(e.to_string())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(ReadError::Missing),
        Err(e) => Err(ReadError::Io(e)),
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
        let mut left: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, [".gitignore", "x.json"], "no temp file left behind");
    }

    #[test]
    fn the_state_dir_ignores_itself_for_git() {
        let tmp = tempfile::tempdir().unwrap();
        let sub = tmp.path().join(".loopgate/receipts");
        ensure_dir(&sub).unwrap();
        let ignore = tmp.path().join(".loopgate/.gitignore");
        assert_eq!(fs::read(&ignore).unwrap(), b"*\n");
        // A user's own ignore file is theirs: never rewritten.
        fs::write(&ignore, b"receipts/\n").unwrap();
        ensure_dir(&sub).unwrap();
        assert_eq!(fs::read(&ignore).unwrap(), b"receipts/\n");
        // Directories that are not loopgate's state get nothing.
        let other = tmp.path().join("audit");
        ensure_dir(&other).unwrap();
        assert!(!other.join(".gitignore").exists());
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
