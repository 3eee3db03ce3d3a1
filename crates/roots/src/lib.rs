//! The single definition of "inside the write roots" (the `roots` crate: `policy` and
//! `sandbox` both use it).
//!
//! Everything here is lexical and pure except the two edge functions that read the file
//! system, [`resolve_links`] and [`resolve_roots`]: symlinked roots are resolved once, at the edge,
//! by [`resolve_roots`]; the decision functions never touch the file system.

use std::path::{Component, Path, PathBuf};

mod landings;
pub use landings::Landings;

/// Make `path` absolute against `cwd`, expand a leading `~` to `home`, and fold `.`, `..`
/// and repeated or trailing slashes. `..` never climbs above `/`.
pub fn normalize(path: &Path, cwd: &Path, home: Option<&Path>) -> PathBuf {
    let expanded: PathBuf = match (path.strip_prefix("~"), home) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => path.to_path_buf(),
    };
    let joined = if expanded.is_absolute() {
        expanded
    } else {
        cwd.join(expanded)
    };
    let mut out = PathBuf::from("/");
    for component in joined.components() {
        match component {
            Component::RootDir | Component::Prefix(_) | Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
        }
    }
    out
}

/// Where a write to `path` (absolute, normalized) really lands, following symlinks the way
/// the kernel will: the deepest existing ancestor is canonicalized and the rest appended.
/// This one reads the file system (it is the edge both the tool gate's file-write check
/// and agent-mode shell vetting call); everything else in this module is lexical.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landing {
    /// The real path (equal to `path` when no symlink is involved).
    Real(PathBuf),
    /// `path` or an ancestor is a symlink whose target does not exist: where the write
    /// lands is decided by whoever creates the target first.
    Dangling(PathBuf),
}

pub fn resolve_links(path: &Path) -> Landing {
    let mut existing = path;
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        match std::fs::canonicalize(existing) {
            Ok(real) => {
                let mut out = real;
                for part in rest.iter().rev() {
                    out.push(part);
                }
                return Landing::Real(out);
            }
            Err(_) => {
                if std::fs::symlink_metadata(existing).is_ok_and(|m| m.file_type().is_symlink()) {
                    return Landing::Dangling(existing.to_path_buf());
                }
            }
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => return Landing::Real(path.to_path_buf()),
        }
    }
}

/// True when `path` (absolute, normalized) is one of `roots` or below one, compared by
/// whole components so `/a/bc` is not inside `/a/b`.
pub fn is_inside(path: &Path, roots: &[PathBuf]) -> bool {
    roots.iter().any(|root| path.starts_with(root))
}

/// The changed paths that lie outside every write root: normalized, deduplicated, sorted.
/// Closed by default: with no roots, every path violates. Relative paths are taken from `/`.
pub fn write_root_violations(changed_paths: &[PathBuf], write_roots: &[PathBuf]) -> Vec<PathBuf> {
    let root = Path::new("/");
    let roots: Vec<PathBuf> = write_roots
        .iter()
        .map(|r| normalize(r, root, None))
        .collect();
    let mut out: Vec<PathBuf> = changed_paths
        .iter()
        .map(|p| normalize(p, root, None))
        .filter(|p| !is_inside(p, &roots))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Resolve configured roots once at the edge: relative to `base`, `~` expanded, and
/// symlinks resolved when the root exists (a root that does not exist yet stays lexical).
pub fn resolve_roots(roots: &[String], base: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = roots
        .iter()
        .map(|r| {
            let lexical = normalize(Path::new(r), base, home);
            std::fs::canonicalize(&lexical).unwrap_or(lexical)
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Whether `name` (one path part) is named by `pattern`, a part of a `[sandbox] deny_read`
/// entry: `*` matches any run of characters, everything else matches itself, and a part
/// with `*` never names a template meant to be committed (`.env.example`, `x.sample`,
/// `x.template`, `x.dist`). The jail (what it hides) and the tool gate (what it asks
/// about sending) read secret paths through this one function.
pub fn deny_read_name(pattern: &str, name: &str) -> bool {
    if !pattern.contains('*') {
        return pattern == name;
    }
    let template = [".example", ".sample", ".template", ".dist"]
        .iter()
        .any(|t| name.ends_with(t));
    !template && wildcard(pattern, name)
}

fn wildcard(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            let Some(rest) = name.strip_prefix(head) else {
                return false;
            };
            (0..=rest.len())
                .filter(|i| rest.is_char_boundary(*i))
                .any(|i| wildcard(tail, &rest[i..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn a_deny_read_part_matches_by_wildcard_and_never_names_a_template() {
        assert!(deny_read_name(".env.*", ".env.local"));
        assert!(deny_read_name("id_*", "id_ed25519"));
        assert!(!deny_read_name(".env.*", ".env.example"));
        assert!(!deny_read_name("id_*", "known_hosts"));
        assert!(deny_read_name(".env", ".env") && !deny_read_name(".env", ".env.local"));
    }

    #[test]
    fn links_are_followed_and_dangling_ones_reported() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::os::unix::fs::symlink("/etc", real.join("etc-link")).unwrap();
        std::os::unix::fs::symlink(real.join("nowhere"), real.join("dangling")).unwrap();
        assert_eq!(
            resolve_links(&real.join("etc-link/passwd")),
            Landing::Real(p("/etc/passwd"))
        );
        assert_eq!(
            resolve_links(&real.join("new/file")),
            Landing::Real(real.join("new/file"))
        );
        assert_eq!(
            resolve_links(&real.join("dangling")),
            Landing::Dangling(real.join("dangling"))
        );
    }

    #[test]
    fn normalize_folds_dots_slashes_and_home() {
        let cwd = p("/repo/sub");
        assert_eq!(normalize(&p("../x//y/./"), &cwd, None), p("/repo/x/y"));
        assert_eq!(normalize(&p("/../../etc"), &cwd, None), p("/etc"));
        assert_eq!(
            normalize(&p("~/.bashrc"), &cwd, Some(&p("/home/u"))),
            p("/home/u/.bashrc")
        );
        assert_eq!(normalize(&p("~"), &cwd, Some(&p("/home/u"))), p("/home/u"));
    }

    #[test]
    fn sibling_with_root_as_prefix_is_outside() {
        let v = write_root_violations(&[p("/a/bc/file"), p("/a/b/file")], &[p("/a/b/")]);
        assert_eq!(v, vec![p("/a/bc/file")]);
    }

    #[test]
    fn closed_by_default_and_deduplicated() {
        let v = write_root_violations(&[p("/x/2"), p("/x/1"), p("/x//1")], &[]);
        assert_eq!(v, vec![p("/x/1"), p("/x/2")]);
    }

    #[test]
    fn dotdot_escapes_are_caught() {
        let v = write_root_violations(&[p("/repo/../etc/passwd")], &[p("/repo")]);
        assert_eq!(v, vec![p("/etc/passwd")]);
    }

    #[test]
    fn the_root_itself_is_inside() {
        assert!(write_root_violations(&[p("/repo")], &[p("/repo")]).is_empty());
    }
}
