//! Session baselines: what the tree looked like when a session started.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct BaselineOutcome {
    /// False when `if_missing` found one already.
    pub created: bool,
    pub path: PathBuf,
    pub session: String,
}

/// Record the baseline for `session` in the repository containing `dir`.
pub fn record(_dir: &Path, _session: &str, _if_missing: bool) -> anyhow::Result<BaselineOutcome> {
    anyhow::bail!("baselines are not built yet")
}
