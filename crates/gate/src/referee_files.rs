//! The referee's files held read-only for a confined child (a check, `loopgate exec
//! --confine`, a whole agent under `loopgate run --confine`). Landlock only grants writes, so
//! inside a writable repository it cannot keep `loopgate.toml` or `.git/hooks`; a private
//! mount namespace can (`sandbox::mounts`), where the kernel lets an unprivileged user have
//! one. Where it does not, the files stay writable and the caller must say so.

use sandbox::mounts::{self, MountPlan, NetMode, NsAvailability, PreparedMounts};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// Which of the referee's files to hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// All of them: loopgate's state (`.loopgate/`, the user state dir), the config, the
    /// agents' hook settings, `.git/hooks` and `.git/config`.
    All,
    /// All but loopgate's state: for a whole-agent jail, whose own hooks write the audit,
    /// the ledger and their session pins from inside it.
    ExceptState,
}

/// What a child gets.
#[derive(Debug, Clone)]
pub enum RefereeFiles {
    /// A private mount namespace holds these read-only (the list may be empty when none of
    /// the files lies inside a writable path: Landlock keeps them then).
    ReadOnly(Arc<PreparedMounts>),
    /// No mount namespace can be had here: the files stay writable.
    Writable { reason: String },
}

/// Plan the read-only referee files of the repository at `root` for a child that may write
/// `writable` (the Landlock write rules). With [`Scope::All`] the state dir is created first:
/// a missing one could be created by the child and trusted afterwards.
pub fn read_only(root: &Path, scope: Scope, writable: &[PathBuf]) -> anyhow::Result<RefereeFiles> {
    read_only_with(root, scope, writable, Vec::new())
}

/// The same, with `extra` paths held read-only as well (an agent's own settings).
pub fn read_only_with(
    root: &Path,
    scope: Scope,
    writable: &[PathBuf],
    extra: Vec<PathBuf>,
) -> anyhow::Result<RefereeFiles> {
    if let NsAvailability::Missing { reason } = mounts::namespaces_available() {
        return Ok(RefereeFiles::Writable { reason });
    }
    if scope == Scope::All {
        state::ensure_dir(&state::state_dir(root))?;
    }
    let mut read_only = paths(root, scope);
    read_only.extend(extra);
    let prepared = mounts::prepare(&MountPlan {
        read_only,
        writable: writable.to_vec(),
        hidden: Vec::new(),
        network: NetMode::Host,
        writable_inside: Vec::new(),
        private_tmp: None,
    })?;
    Ok(RefereeFiles::ReadOnly(Arc::new(prepared)))
}

/// The referee's files of the repository at `root` in `scope`, existing or not.
pub fn paths(root: &Path, scope: Scope) -> Vec<PathBuf> {
    match scope {
        Scope::All => {
            let mut paths = mounts::referee_paths(root);
            paths.extend(state::user_state_dir());
            paths
        }
        Scope::ExceptState => mounts::referee_config_paths(root),
    }
}

impl RefereeFiles {
    /// Make `cmd` start with these files read-only. Register it BEFORE Landlock's hook: a
    /// Landlock-confined process may not mount.
    pub fn apply(&self, cmd: &mut Command) {
        if let RefereeFiles::ReadOnly(prepared) = self {
            mounts::apply(cmd, Arc::clone(prepared));
        }
    }

    /// One clause for stderr and receipts; paths inside `root` are shown relative to it.
    pub fn describe(&self, root: &Path) -> String {
        match self {
            RefereeFiles::ReadOnly(p) if p.read_only.is_empty() => {
                "none of the referee's files lies inside the write roots".into()
            }
            RefereeFiles::ReadOnly(p) => {
                let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
                let shown: Vec<String> = p
                    .read_only
                    .iter()
                    .map(|path| match path.strip_prefix(&root) {
                        Ok(rel) => rel.display().to_string(),
                        Err(_) => path.display().to_string(),
                    })
                    .collect();
                format!("the referee's files are read-only: {}", shown.join(", "))
            }
            RefereeFiles::Writable { reason } => {
                format!("the referee's files stayed writable (no mount namespace: {reason})")
            }
        }
    }
}
