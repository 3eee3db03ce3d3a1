//! The jail as a bash loadable builtin (`builtin/loopgate_jail.rs`, built by `build.rs`).
//!
//! `loopgate jail-shell` confines a process and then starts a second bash for the command:
//! two program starts on every agent shell command. The builtin confines a subshell of the
//! agent's own shell in place, with the steps planned here from the same plans
//! (`mounts::PreparedMounts`, `confine::raw_rules`), so the command costs a fork. Where the
//! shell cannot load it, the rewrite falls back to `jail-shell`.

use crate::confine::RawRules;
use crate::mounts::PreparedMounts;
use std::io::Write;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

/// The builtin's name: `enable -f LIBRARY loopgate_jail`, then `builtin loopgate_jail STEP...`.
pub const NAME: &str = "loopgate_jail";

/// The shared library, when this build has one (Linux with glibc).
pub fn library() -> Option<&'static [u8]> {
    #[cfg(loopgate_builtin)]
    {
        Some(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/libloopgate_jail.so"
        )))
    }
    #[cfg(not(loopgate_builtin))]
    {
        None
    }
}

/// The library's file in `dir`, written there (whole, by rename) unless it already holds
/// these bytes: named by their hash, so binaries of different versions never share one.
pub fn install(dir: &Path) -> std::io::Result<PathBuf> {
    let bytes = library().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "this build has no bash builtin",
        )
    })?;
    let hash = blake3::hash(bytes).to_hex();
    let path = dir.join(format!("loopgate-jail-{}.so", &hash.as_str()[..16]));
    // Compared whole (a few kilobytes): a damaged file is written again, not loaded. Only a
    // regular file of the right size is read (a FIFO planted there would block the hook);
    // anything else at that name is replaced by the rename below.
    let regular = std::fs::symlink_metadata(&path)
        .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64);
    if regular && std::fs::read(&path).is_ok_and(|b| b == bytes) {
        return Ok(path);
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(path)
}

/// The builtin's steps for one command: the namespace set-up when there is one, then the
/// Landlock rules, then (with a namespace) the holder that takes its teardown off the
/// command's exit. `None` when a path cannot be carried as a shell word (not UTF-8).
pub fn steps(mounts: Option<&PreparedMounts>, rules: &RawRules) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let namespaced = mounts.is_some_and(|m| !m.is_empty());
    if let Some(m) = mounts.filter(|m| !m.is_empty()) {
        out.extend(m.builtin_steps()?);
    }
    if rules.scoped != 0 {
        out.push(format!("scope={}", rules.scoped));
    }
    out.push(format!("landlock={}", rules.handled));
    for (path, access) in &rules.rules {
        out.push(format!("rw={access}:{}", path.to_str()?));
    }
    out.push("restrict".into());
    if namespaced {
        out.push("holder".into());
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_is_written_once_and_rewritten_when_damaged() {
        let Some(bytes) = library() else { return };
        let dir = tempfile::tempdir().unwrap();
        let lib = dir.path().join("lib");
        let path = install(&lib).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&lib).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        std::fs::write(&path, b"not a library").unwrap();
        assert_eq!(install(&lib).unwrap(), path);
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        // A FIFO in its place is replaced, not read (reading it would block).
        std::fs::remove_file(&path).unwrap();
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(install(&lib).unwrap(), path);
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
    }

    #[test]
    fn steps_order_the_namespace_before_landlock_and_the_holder_last() {
        let rules = RawRules {
            handled: 7,
            rules: vec![(PathBuf::from("/r"), 7), (PathBuf::from("/dev/null"), 2)],
            scoped: 0,
        };
        assert_eq!(
            steps(None, &rules).unwrap(),
            ["landlock=7", "rw=7:/r", "rw=2:/dev/null", "restrict"]
        );
        let scoped = RawRules {
            scoped: 3,
            ..rules.clone()
        };
        assert_eq!(
            steps(None, &scoped).unwrap(),
            [
                "scope=3",
                "landlock=7",
                "rw=7:/r",
                "rw=2:/dev/null",
                "restrict"
            ]
        );
        let mounts = crate::mounts::prepare(&crate::mounts::MountPlan {
            network: crate::mounts::NetMode::Loopback,
            ..Default::default()
        })
        .unwrap();
        let got = steps(Some(&mounts), &rules).unwrap();
        assert!(got[0].starts_with("unshare="), "{got:?}");
        let at = |s: &str| got.iter().position(|w| w == s).unwrap();
        assert!(at("slave") < at("cwd") && at("cwd") < at("lo") && at("lo") < at("landlock=7"));
        assert_eq!(got.last().map(String::as_str), Some("holder"));
    }
}
