//! The files a jailed shell command shares with the shells around it: the session's temp
//! dir (kept across its commands) and the hand-back of the directory it ended in.

use std::hash::{Hash, Hasher};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The session's own temp dir, kept across its commands (background jobs outlive the
/// command that started them): `$TMPDIR/loopgate-jail-<uid>-<key>`, mode 0700, refused when
/// it exists but is not a plain directory of this user (a planted link or a shared dir).
pub fn session_tmp(agent: &str, session: &str) -> Result<PathBuf, String> {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    // SipHash with fixed keys: stable for one binary, which is all a per-session name needs.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (agent, session).hash(&mut h);
    let base = std::fs::canonicalize(std::env::temp_dir()).unwrap_or_else(|_| "/tmp".into());
    let dir = base.join(format!("loopgate-jail-{uid}-{:016x}", h.finish()));
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

/// Remove hand-back files older than an hour from `dir` (one per shell pid; the outer
/// shell reads its own right after the command, so anything older is left over).
pub fn prune_hand_backs(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let hour = std::time::Duration::from_secs(3600);
    for e in entries.flatten() {
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

/// Pass the directory the inner shell wrote to `inner` on to the outer shell through `out`
/// (a file in loopgate's own state dir). Only an existing directory is passed; a link
/// planted at `out` is never followed.
pub fn hand_back_cwd(inner: &Path, out: &Path) {
    let Ok(text) = std::fs::read_to_string(inner) else {
        return;
    };
    let dir = text.strip_suffix('\n').unwrap_or(&text);
    if dir.is_empty() || dir.contains('\n') || !Path::new(dir).is_dir() {
        return;
    }
    if let Some(parent) = out.parent() {
        if state::ensure_dir(parent).is_err() {
            return;
        }
    }
    let _ = std::fs::remove_file(out);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(out);
    if let Ok(mut f) = file {
        let _ = writeln!(f, "{dir}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_link_at_the_hand_back_file_is_not_followed() {
        let d = tempfile::tempdir().unwrap();
        let inner = d.path().join("inner");
        std::fs::write(&inner, format!("{}\n", d.path().display())).unwrap();
        let victim = d.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let out = d.path().join("out");
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        hand_back_cwd(&inner, &out);
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            format!("{}\n", d.path().display())
        );
    }

    #[test]
    fn the_session_dir_is_private_and_stable() {
        let a = session_tmp("claude", "s-1").unwrap();
        assert_eq!(a, session_tmp("claude", "s-1").unwrap());
        assert_ne!(a, session_tmp("claude", "s-2").unwrap());
        assert_eq!(std::fs::metadata(&a).unwrap().mode() & 0o777, 0o700);
    }
}
