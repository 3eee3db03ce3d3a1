//! Reading `commit:path` straight from the object store, so a run needs no `git cat-file`
//! process: on a busy machine starting one costs more than the whole read. The store is
//! read with gitoxide's object database (`gix-odb`: loose objects, packs, both kinds of
//! delta, alternates). Only the plain case is answered here: a full SHA-1 commit or tree
//! id and a plain path. Anything else (an object not found, a damaged store, an odd path,
//! an object past [`MAX_OBJECT_BYTES`]) is [`Lookup::Unsure`], and the caller asks
//! `git cat-file` as before, so the answer never depends on which of the two gave it.

use gix_hash::ObjectId;
use gix_object::{CommitRefIter, Find, Kind, TreeRefIter};
use std::path::{Path, PathBuf};

/// Larger objects are left to `git cat-file` (the guards read at most 1 MiB of text).
const MAX_OBJECT_BYTES: usize = 16 * 1024 * 1024;
const HASH: gix_hash::Kind = gix_hash::Kind::Sha1;

/// What the object store says about one `commit:path`.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A file (or symlink) there, with its bytes.
    Blob(Vec<u8>),
    /// Nothing there, or a directory or submodule: what `git cat-file` reads as missing.
    Absent,
    /// Not answered here; ask git.
    Unsure,
}

/// One repository's object directory, opened at the first lookup.
pub struct Store {
    dir: PathBuf,
    odb: Option<Option<gix_odb::Handle>>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("dir", &self.dir).finish()
    }
}

impl Store {
    pub fn new(objects_dir: &Path) -> Store {
        Store {
            dir: objects_dir.to_path_buf(),
            odb: None,
        }
    }

    /// The file at `path` in `commit` (a commit or tree id).
    pub fn lookup(&mut self, commit: &str, path: &str) -> Lookup {
        self.try_lookup(commit, path).unwrap_or(Lookup::Unsure)
    }

    /// The store, opened at the first call. Every lookup reads the commit and the trees
    /// on its path again, and a packed object is often a chain of deltas: what was decoded
    /// once is kept for the run (see [`super::decoded`]).
    fn odb(&mut self) -> Option<&gix_odb::Handle> {
        let dir = &self.dir;
        self.odb
            .get_or_insert_with(|| {
                gix_odb::at(dir, HASH).ok().map(|mut odb| {
                    odb.set_pack_cache(|| Box::<super::decoded::Entries>::default());
                    odb.set_object_cache(|| Box::<super::decoded::Objects>::default());
                    odb
                })
            })
            .as_ref()
    }

    /// The tree id of `commit` (a full SHA-1 commit id), when the store holds that commit.
    pub fn tree_of_commit(&mut self, commit: &str) -> Option<ObjectId> {
        if commit.len() != HASH.len_in_hex() {
            return None;
        }
        let id = ObjectId::from_hex(commit.as_bytes()).ok()?;
        let odb = self.odb()?;
        let mut buf = Vec::new();
        let data = odb.try_find(&id, &mut buf).ok()??;
        (data.kind == Kind::Commit)
            .then(|| CommitRefIter::from_bytes(data.data, HASH).tree_id().ok())
            .flatten()
    }

    fn try_lookup(&mut self, commit: &str, path: &str) -> Option<Lookup> {
        // git reads `./`, `../` and empty components its own way: leave those to it.
        let parts: Vec<&str> = path.split('/').collect();
        if parts
            .iter()
            .any(|p| p.is_empty() || *p == "." || *p == "..")
        {
            return None;
        }
        // git knows the empty tree without storing it.
        if commit == super::EMPTY_TREE {
            return Some(Lookup::Absent);
        }
        if commit.len() != HASH.len_in_hex() {
            return None;
        }
        let start = ObjectId::from_hex(commit.as_bytes()).ok()?;
        let odb = self.odb()?;
        let mut buf = Vec::new();
        let data = odb.try_find(&start, &mut buf).ok()??;
        let root = match data.kind {
            Kind::Commit => CommitRefIter::from_bytes(data.data, HASH).tree_id().ok()?,
            Kind::Tree => start,
            _ => return None,
        };
        let mut tree = Vec::new();
        let data = odb.try_find(&root, &mut tree).ok()??;
        if data.kind != Kind::Tree {
            return None;
        }
        let mut scratch = Vec::new();
        let entry = TreeRefIter::from_bytes(&tree, HASH)
            .lookup_entry(odb, &mut scratch, parts.iter().map(|p| p.as_bytes()))
            .ok()?;
        let Some(entry) = entry.filter(|e| e.mode.is_blob_or_symlink()) else {
            // Missing, a directory, or a submodule's commit.
            return Some(Lookup::Absent);
        };
        let mut blob = Vec::new();
        let data = odb.try_find(&entry.oid, &mut blob).ok()??;
        (data.kind == Kind::Blob && data.data.len() <= MAX_OBJECT_BYTES)
            .then(|| Lookup::Blob(data.data.to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_ids_and_paths_are_left_to_git() {
        let mut store = Store::new(Path::new("/nonexistent"));
        assert_eq!(store.lookup("HEAD", "a"), Lookup::Unsure);
        assert_eq!(store.lookup(&"0".repeat(64), "a"), Lookup::Unsure);
        assert_eq!(store.lookup(&"0".repeat(40), "a//b"), Lookup::Unsure);
        assert_eq!(store.lookup(&"0".repeat(40), "./a"), Lookup::Unsure);
        assert_eq!(store.lookup(&"0".repeat(40), "a"), Lookup::Unsure);
    }
}

/// Against git itself, on real repositories: loose objects, packs with offset deltas and
/// packs with id deltas.
#[cfg(test)]
mod against_git {
    use super::*;

    use super::super::test_git as git;

    /// A history in which one file grows by a line per commit (so a repack stores most
    /// versions as deltas), with a directory, a symlink and a submodule entry.
    fn history(dir: &Path) -> Vec<String> {
        git(dir, &["init", "-q"]);
        std::fs::create_dir_all(dir.join("src/deep")).unwrap();
        std::os::unix::fs::symlink("src/lib.rs", dir.join("link")).unwrap();
        let mut commits = Vec::new();
        let mut text = String::new();
        for i in 0..30 {
            text.push_str(&format!(
                "fn f{i}() {{ /* a line long enough to be worth a delta */ }}\n"
            ));
            std::fs::write(dir.join("src/lib.rs"), &text).unwrap();
            std::fs::write(dir.join("src/deep/x.txt"), format!("{i}\n")).unwrap();
            git(dir, &["add", "-A"]);
            if i == 0 {
                let sub = format!("160000,{},vendor", "1".repeat(40));
                git(dir, &["update-index", "--add", "--cacheinfo", &sub]);
            }
            git(dir, &["commit", "-q", "-m", &format!("c{i}")]);
            commits.push(
                String::from_utf8(git(dir, &["rev-parse", "HEAD"]))
                    .unwrap()
                    .trim()
                    .to_string(),
            );
        }
        commits
    }

    fn same_as_git(dir: &Path, commits: &[String]) {
        let mut store = Store::new(&dir.join(".git/objects"));
        for commit in commits {
            for path in ["src/lib.rs", "src/deep/x.txt", "link"] {
                let want = git(dir, &["cat-file", "blob", &format!("{commit}:{path}")]);
                assert_eq!(
                    store.lookup(commit, path),
                    Lookup::Blob(want),
                    "{commit}:{path}"
                );
            }
            for path in [
                "src",
                "src/deep",
                "vendor",
                "gone.rs",
                "src/lib.rs/x",
                "vendor/x",
                "link/x",
            ] {
                assert_eq!(
                    store.lookup(commit, path),
                    Lookup::Absent,
                    "{commit}:{path}"
                );
            }
        }
        // The commit's tree id works like the commit.
        let tree = String::from_utf8(git(
            dir,
            &["rev-parse", &format!("{}^{{tree}}", commits[3])],
        ))
        .unwrap();
        let want = git(
            dir,
            &["cat-file", "blob", &format!("{}:src/lib.rs", commits[3])],
        );
        assert_eq!(store.lookup(tree.trim(), "src/lib.rs"), Lookup::Blob(want));
    }

    #[test]
    fn loose_objects_read_as_git_reads_them() {
        let tmp = tempfile::tempdir().unwrap();
        let commits = history(tmp.path());
        same_as_git(tmp.path(), &commits);
    }

    #[test]
    fn packed_objects_with_offset_deltas_read_as_git_reads_them() {
        let tmp = tempfile::tempdir().unwrap();
        let commits = history(tmp.path());
        git(tmp.path(), &["repack", "-adq", "--depth=50", "--window=50"]);
        assert!(
            git(tmp.path(), &["verify-pack", "-v", &pack_idx(tmp.path())])
                .windows(6)
                .any(|w| w == b"chain "),
            "the pack holds deltas"
        );
        same_as_git(tmp.path(), &commits);
    }

    #[test]
    fn packed_objects_with_id_deltas_read_as_git_reads_them() {
        let tmp = tempfile::tempdir().unwrap();
        let commits = history(tmp.path());
        git(
            tmp.path(),
            &[
                "-c",
                "repack.useDeltaBaseOffset=false",
                "repack",
                "-adq",
                "--depth=50",
            ],
        );
        same_as_git(tmp.path(), &commits);
    }

    #[test]
    fn a_damaged_or_foreign_store_is_left_to_git() {
        let tmp = tempfile::tempdir().unwrap();
        let commits = history(tmp.path());
        let head = commits.last().unwrap();
        // The blob's loose file cut short: not answered here.
        let blob = String::from_utf8(git(
            tmp.path(),
            &["rev-parse", &format!("{head}:src/lib.rs")],
        ))
        .unwrap();
        let file = tmp
            .path()
            .join(".git/objects")
            .join(&blob[..2])
            .join(&blob.trim()[2..]);
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
        let mut store = Store::new(&tmp.path().join(".git/objects"));
        assert_eq!(store.lookup(head, "src/lib.rs"), Lookup::Unsure);
        // An object that is not in this store (an alternate's, say): not answered here.
        assert_eq!(store.lookup(&"ab".repeat(20), "src/lib.rs"), Lookup::Unsure);
        // The empty tree holds nothing, stored or not.
        assert_eq!(
            store.lookup(crate::git::EMPTY_TREE, "src/lib.rs"),
            Lookup::Absent
        );
    }

    fn pack_idx(dir: &Path) -> String {
        let packs = dir.join(".git/objects/pack");
        let idx = std::fs::read_dir(&packs)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "idx"))
            .unwrap();
        idx.display().to_string()
    }
}
