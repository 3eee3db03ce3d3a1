//! The files a jailed shell command shares with the shells around it: the session's temp
//! dir, kept across its commands, which also holds the hand-back of the directory each
//! command ended in (`cwd.<pid of the agent's shell>`).

use std::hash::{Hash, Hasher};
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// Where [`session_tmp`] is, without creating it (the tool gate names the hand-back file
/// in it when it rewrites a command; the agent's shell and the jail share `$TMPDIR`).
pub fn session_tmp_path(agent: &str, session: &str) -> PathBuf {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    // SipHash with fixed keys: stable for one binary, which is all a per-session name needs.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (agent, session).hash(&mut h);
    let base = std::fs::canonicalize(std::env::temp_dir()).unwrap_or_else(|_| "/tmp".into());
    base.join(format!("loopgate-jail-{uid}-{:016x}", h.finish()))
}

/// The session's own temp dir, kept across its commands (background jobs outlive the
/// command that started them): `$TMPDIR/loopgate-jail-<uid>-<key>`, mode 0700, refused when
/// it exists but is not a plain directory of this user (a planted link or a shared dir).
pub fn session_tmp(agent: &str, session: &str) -> Result<PathBuf, String> {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    let dir = session_tmp_path(agent, session);
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(format!("cannot create {}: {e}", dir.display())),
    }
    let meta = std::fs::symlink_metadata(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    if !meta.is_dir() || meta.uid() != uid || meta.mode() & 0o077 != 0 {
        return Err(format!(
            "{} exists but is not a private directory of this user",
            dir.display()
        ));
    }
    Ok(dir)
}

/// Marks the last sweep of the hand-backs (its modification time).
const SWEPT: &str = "swept";
/// The sweep runs at most this often: a session leaves one hand-back per shell command, so
/// looking at every one on every command costs more the longer the session runs.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(600);

/// Remove `cwd.*` hand-back files older than an hour from `dir` (one per agent shell pid;
/// the agent's shell reads its own right after the command, so anything older is left
/// over), at most once every ten minutes.
pub fn prune_hand_backs(dir: &Path) {
    let marker = dir.join(SWEPT);
    let recent = std::fs::metadata(&marker)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age < SWEEP_EVERY);
    let stamped = std::fs::File::options()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&marker)
        .and_then(|f| f.set_modified(std::time::SystemTime::now()));
    if recent || stamped.is_err() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let hour = std::time::Duration::from_secs(3600);
    for e in entries.flatten() {
        if !e.file_name().to_string_lossy().starts_with("cwd.") {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > hour);
        if old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aged(path: &Path, secs: u64) {
        let then = std::time::SystemTime::now() - std::time::Duration::from_secs(secs);
        let f = std::fs::File::options()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .unwrap();
        f.set_modified(then).unwrap();
    }

    #[test]
    fn old_hand_backs_are_swept_at_most_every_ten_minutes() {
        let dir = tempfile::tempdir().unwrap();
        let (first, second, fresh) = (
            dir.path().join("cwd.1"),
            dir.path().join("cwd.2"),
            dir.path().join("cwd.3"),
        );
        aged(&first, 7200);
        aged(&fresh, 0);
        prune_hand_backs(dir.path());
        assert!(!first.exists() && fresh.exists());
        // Within ten minutes of that sweep, nothing is looked at.
        aged(&second, 7200);
        prune_hand_backs(dir.path());
        assert!(second.exists());
        aged(&dir.path().join(SWEPT), 601);
        prune_hand_backs(dir.path());
        assert!(!second.exists() && fresh.exists());
    }

    #[test]
    fn the_session_dir_is_private_and_stable() {
        let a = session_tmp("claude", "s-1").unwrap();
        assert_eq!(a, session_tmp("claude", "s-1").unwrap());
        assert_ne!(a, session_tmp("claude", "s-2").unwrap());
        assert_eq!(std::fs::metadata(&a).unwrap().mode() & 0o777, 0o700);
    }
}
