//! Where many writes land, resolved together. [`resolve_links`] canonicalizes each path
//! and then each missing ancestor on its own: glibc's `realpath` reads every component
//! with a `readlink`, so a 6 MB `apply_patch` naming 170,000 files under one new directory
//! cost about ten system calls per file, most of the hook's deadline on a loaded machine.
//! [`Landings`] walks each path down from `/` instead and remembers every directory it
//! met, so a directory shared by many paths is looked at once and a path below a missing
//! directory costs no system call at all. Anything unusual on the way (a symlink that does
//! not resolve, a name near `PATH_MAX`) is handed to [`resolve_links`] whole, so both give
//! the same answer for every path.

use crate::{resolve_links, Landing};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

/// Longer paths go to `realpath` itself: it refuses a path of `PATH_MAX` (4096) bytes
/// or more, resolved or not, and this walk must refuse exactly the same ones.
const SHORT_ENOUGH: usize = 4000;

/// What a directory already walked through turned out to be.
#[derive(Debug, Clone)]
enum Seen {
    /// It exists; its canonical path.
    Real(PathBuf),
    /// It does not exist (or cannot be looked into): a write below it lands below this
    /// path, its parent's canonical path and its own name.
    Missing(PathBuf),
}

/// Resolves paths (absolute, normalized) as [`resolve_links`] does, sharing the work on
/// the directories they have in common. Only for paths resolved at one moment: what it
/// remembers is the file system as it was when first asked.
#[derive(Debug, Default)]
pub struct Landings {
    seen: HashMap<PathBuf, Seen>,
}

impl Landings {
    pub fn new() -> Landings {
        Landings::default()
    }

    pub fn resolve(&mut self, path: &Path) -> Landing {
        self.beside_a_sibling(path)
            .or_else(|| self.walk(path))
            .unwrap_or_else(|| resolve_links(path))
    }

    /// The usual case, a file in a directory already walked to: one look-up, not one per
    /// ancestor. (A remembered directory's ancestors were all walked through as real
    /// ones, so the full walk would reach it and use the same entry.)
    fn beside_a_sibling(&self, path: &Path) -> Option<Landing> {
        let (parent, name) = (path.parent()?, path.file_name()?);
        match self.seen.get(parent)? {
            Seen::Missing(landing) => Some(Landing::Real(landing.join(name))),
            Seen::Real(real) => match look(real, name, path)? {
                Seen::Real(p) | Seen::Missing(p) => Some(Landing::Real(p)),
            },
        }
    }

    /// `None`: the path needs the exact, slower walk of [`resolve_links`].
    fn walk(&mut self, path: &Path) -> Option<Landing> {
        let names = normal_names(path)?;
        let mut prefix = PathBuf::from("/");
        let mut real = PathBuf::from("/");
        for (i, name) in names.iter().enumerate() {
            prefix.push(name);
            let last = i + 1 == names.len();
            let seen = match self.seen.get(&prefix) {
                Some(seen) => seen.clone(),
                None => {
                    let seen = look(&real, name, &prefix)?;
                    // A path's own last name is rarely asked for again; remembering every
                    // file of a large patch would only cost memory.
                    if !last {
                        self.seen.insert(prefix.clone(), seen.clone());
                    }
                    seen
                }
            };
            match seen {
                Seen::Real(r) => real = r,
                Seen::Missing(mut landing) => {
                    // Nothing below a missing directory exists either.
                    landing.extend(&names[i + 1..]);
                    return Some(Landing::Real(landing));
                }
            }
        }
        Some(Landing::Real(real))
    }
}

/// The names of an absolute path without `.` or `..`; `None` for any other path.
fn normal_names(path: &Path) -> Option<Vec<&OsStr>> {
    let mut components = path.components();
    if components.next() != Some(Component::RootDir) {
        return None;
    }
    components
        .map(|c| match c {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect()
}

/// What `name` is inside the directory whose canonical path is `real` (reached as
/// `prefix`). `None` when only `realpath` can say: a link that does not resolve (the
/// exact walk names the link), or a path too long to be sure of.
fn look(real: &Path, name: &OsStr, prefix: &Path) -> Option<Seen> {
    let candidate = real.join(name);
    if candidate.as_os_str().len() >= SHORT_ENOUGH || prefix.as_os_str().len() >= SHORT_ENOUGH {
        return None;
    }
    match std::fs::symlink_metadata(&candidate) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(&candidate).ok().map(Seen::Real)
        }
        // Neither `.` nor `..` nor a link: the name is its own canonical form.
        Ok(_) => Some(Seen::Real(candidate)),
        // Not there, not a directory, or not searchable: `realpath` fails here and on
        // everything below, and no link is involved, so the write lands at this spelling.
        Err(_) => Some(Seen::Missing(candidate)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every path below, resolved by both walks, in one order and then again (what is
    /// remembered must not change an answer).
    fn same_as_resolve_links(paths: &[PathBuf]) {
        let mut landings = Landings::new();
        for round in 0..2 {
            for p in paths {
                assert_eq!(
                    landings.resolve(p),
                    resolve_links(p),
                    "{} (round {round})",
                    p.display()
                );
            }
        }
    }

    #[test]
    fn shared_walk_lands_where_each_path_does() {
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        let fs = |rel: &str| real.join(rel);
        std::fs::create_dir_all(fs("a/b")).unwrap();
        std::fs::write(fs("a/file"), "x").unwrap();
        std::os::unix::fs::symlink("/etc", fs("etc-link")).unwrap();
        std::os::unix::fs::symlink("a/b", fs("rel-link")).unwrap();
        std::os::unix::fs::symlink(fs("nowhere"), fs("dangling")).unwrap();
        std::os::unix::fs::symlink("loop2", fs("loop1")).unwrap();
        std::os::unix::fs::symlink("loop1", fs("loop2")).unwrap();
        std::os::unix::fs::symlink(fs("a/file"), fs("file-link")).unwrap();
        let long = format!("a/{}/x", "d".repeat(5000));
        let paths: Vec<PathBuf> = [
            "a",
            "a/b",
            "a/b/new.txt",
            "a/new/deeper/x.txt",
            "a/new/other.txt",
            "a/file",
            "a/file/below",
            "etc-link/passwd",
            "etc-link/nothing/here",
            "rel-link/c.txt",
            "rel-link",
            "dangling",
            "dangling/below",
            "loop1/x",
            "file-link",
            "file-link/x",
            &long,
        ]
        .iter()
        .map(|r| fs(r))
        .chain([PathBuf::from("/"), PathBuf::from("/etc/passwd")])
        .collect();
        same_as_resolve_links(&paths);
    }

    #[test]
    fn paths_it_cannot_walk_go_to_the_exact_walk() {
        same_as_resolve_links(&[
            PathBuf::from("relative/x"),
            PathBuf::from("/tmp/../etc"),
            PathBuf::from("/tmp/./x"),
        ]);
    }
}
