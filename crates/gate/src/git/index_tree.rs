//! Whether the index stages nothing: the tree its entries make has HEAD's tree id. Usually
//! nothing is staged, and then no `git diff-index --cached` process is needed to list
//! what is. The tree is computed from the entries themselves, never taken from the
//! index's cache-tree extension (the index is a file the agent can write), so an equal id
//! means equal content; any entry a tree cannot hold as git writes it (an unresolved
//! merge, `git add -N`, an unusual mode or name, an unsorted index) is `None`, and the
//! caller asks git.

use super::hidden::IndexEntry;
use gix_hash::ObjectId;

const HASH: gix_hash::Kind = gix_hash::Kind::Sha1;

/// The id of the tree the index's entries make, as `git write-tree` would write it.
pub fn tree_id(entries: &[IndexEntry]) -> Option<ObjectId> {
    let mut previous: Option<&[u8]> = None;
    for e in entries {
        let path = e.path.as_bytes();
        if e.stage != 0 || e.intent_to_add || e.raw.is_some() || mode_text(e.mode).is_none() {
            return None;
        }
        if path
            .split(|b| *b == b'/')
            .any(|part| part.is_empty() || part == b"." || part == b"..")
        {
            return None;
        }
        // Strictly increasing: no duplicate, in the order git keeps.
        if previous.is_some_and(|p| p >= path) {
            return None;
        }
        previous = Some(path);
    }
    let all: Vec<&IndexEntry> = entries.iter().collect();
    tree_of(&all, 0)
}

/// The mode as a tree writes it, for the modes an index entry may carry.
fn mode_text(mode: u32) -> Option<&'static [u8]> {
    match mode {
        0o100644 => Some(b"100644"),
        0o100755 => Some(b"100755"),
        0o120000 => Some(b"120000"),
        0o160000 => Some(b"160000"),
        _ => None,
    }
}

/// The tree of `entries`, every path of which starts with the same directory prefix of
/// `skip` bytes (slash included).
fn tree_of(entries: &[&IndexEntry], skip: usize) -> Option<ObjectId> {
    // (name, is a directory, mode, id)
    let mut items: Vec<(&[u8], bool, &[u8], ObjectId)> = Vec::new();
    let mut i = 0;
    while i < entries.len() {
        let rest = &entries[i].path.as_bytes()[skip..];
        match rest.iter().position(|b| *b == b'/') {
            None => {
                let e = entries[i];
                items.push((rest, false, mode_text(e.mode)?, ObjectId::Sha1(e.oid)));
                i += 1;
            }
            Some(slash) => {
                let dir = &rest[..=slash];
                // Sorted paths keep a directory's entries together.
                let end = i + entries[i..]
                    .iter()
                    .take_while(|e| e.path.as_bytes()[skip..].starts_with(dir))
                    .count();
                let id = tree_of(&entries[i..end], skip + dir.len())?;
                items.push((&rest[..slash], true, b"40000", id));
                i = end;
            }
        }
    }
    // git orders a tree's entries by name, a directory's name read with a slash after it.
    items.sort_by(|a, b| tree_order(a.0, a.1).cmp(tree_order(b.0, b.1)));
    let mut names: Vec<&[u8]> = items.iter().map(|item| item.0).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        // A file and a directory of the same name: no tree git writes.
        return None;
    }
    let mut body = Vec::with_capacity(items.len() * 48);
    for (name, _, mode, id) in &items {
        body.extend_from_slice(mode);
        body.push(b' ');
        body.extend_from_slice(name);
        body.push(0);
        body.extend_from_slice(id.as_bytes());
    }
    gix_object::compute_hash(HASH, gix_object::Kind::Tree, &body).ok()
}

/// A tree entry's sort key: its name, then a slash for a directory.
fn tree_order(name: &[u8], dir: bool) -> impl Iterator<Item = u8> + '_ {
    name.iter().copied().chain(dir.then_some(b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::hidden::read_index;
    use crate::git::test_git as git;
    use std::path::Path;

    fn ours(dir: &Path) -> Option<String> {
        let index = std::fs::read(dir.join(".git/index")).unwrap();
        tree_id(&read_index(&index).unwrap()).map(|id| id.to_string())
    }

    fn write_tree(dir: &Path) -> String {
        String::from_utf8(git(dir, &["write-tree"]))
            .unwrap()
            .trim()
            .to_string()
    }

    /// Names that sort differently as paths and as tree entries (`a-b`, `a.b`, `a/`,
    /// `a0`), nested directories, a symlink, an executable, a submodule entry.
    #[test]
    fn the_tree_is_the_one_git_writes() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        git(dir, &["init", "-q", "-b", "main"]);
        assert_eq!(
            tree_id(&[]).map(|id| id.to_string()).as_deref(),
            Some(crate::git::EMPTY_TREE),
            "empty"
        );
        for f in ["a-b", "a.b", "a/x", "a/y/z", "a0", "b", "c/d/e/f", "é/ü"] {
            let path = dir.join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, format!("{f}\n")).unwrap();
        }
        std::os::unix::fs::symlink("b", dir.join("link")).unwrap();
        git(dir, &["add", "-A"]);
        git(dir, &["update-index", "--chmod=+x", "b"]);
        let sub = format!("160000,{},vendor", "1".repeat(40));
        git(dir, &["update-index", "--add", "--cacheinfo", &sub]);
        assert_eq!(ours(dir), Some(write_tree(dir)));
    }

    /// What no tree holds as the index says it is left to git.
    #[test]
    fn an_index_a_tree_cannot_hold_is_left_to_git() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        git(dir, &["init", "-q", "-b", "main"]);
        std::fs::write(dir.join("a"), "a\n").unwrap();
        git(dir, &["add", "-A"]);
        std::fs::write(dir.join("n"), "n\n").unwrap();
        git(dir, &["add", "-N", "n"]);
        assert_eq!(ours(dir), None, "intent to add");
        let index = std::fs::read(dir.join(".git/index")).unwrap();
        let mut entries = read_index(&index).unwrap();
        entries.retain(|e| !e.intent_to_add);
        assert!(tree_id(&entries).is_some());
        let mut twice = entries.clone();
        twice.push(entries[0].clone());
        assert_eq!(tree_id(&twice), None, "a duplicate");
        let mut conflicted = entries.clone();
        conflicted[0].stage = 2;
        assert_eq!(tree_id(&conflicted), None, "an unresolved merge");
        let mut odd = entries.clone();
        odd[0].mode = 0o100664;
        assert_eq!(tree_id(&odd), None, "a mode git never writes");
        let mut clash = entries.clone();
        for path in ["a-b", "a/b"] {
            let mut more = entries[0].clone();
            more.path = path.into();
            clash.push(more);
        }
        assert_eq!(tree_id(&clash), None, "a file and a directory of one name");
    }
}
