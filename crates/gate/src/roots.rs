//! The one definition of the write roots in effect, used by every seat: the tool gate, the
//! done gate's escape detection, the jail of checks, `exec --confine` and `run --confine`.

use crate::config::Config;
use std::path::{Path, PathBuf};

/// `$HOME` when set and non-empty.
pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// The configured write roots resolved against the repository `root` (`~` expanded,
/// symlinked roots resolved once), plus the system temp dirs (`$TMPDIR` and `/tmp`) when
/// `temp_writable`. Sorted and deduplicated. An empty list means nothing is writable.
pub fn write_roots(config: &Config, root: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut roots = sandbox::resolve_roots(&config.sandbox.write_roots, root, home);
    if config.sandbox.temp_writable {
        roots.extend(sandbox::system_temp_dirs());
    }
    // A root that resolves to the file-system root (`/..`, `/proc/self/root`, `../` enough
    // times) would make everything writable: it is dropped, so the set only narrows.
    roots.retain(|r| r.parent().is_some());
    roots.sort();
    roots.dedup();
    roots
}
