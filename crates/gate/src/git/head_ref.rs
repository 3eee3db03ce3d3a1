//! HEAD's commit id read from the ref files themselves, so the usual repository needs no
//! `git rev-parse` process (on a busy machine its start costs more than the work state's
//! whole comparison of a small tree). Only the plain layouts are read: HEAD naming a
//! branch (`ref: refs/heads/NAME`) stored loose or in `packed-refs`, or a detached HEAD.
//! Anything else (a reftable store, a symbolic ref past HEAD, a link, an odd name or
//! line, no such branch yet) is `None`, and the caller asks git, so the answer never
//! depends on which of the two gave it.

use std::path::Path;

const HEX_LEN: usize = 40;

/// The commit id HEAD resolves to, as `git rev-parse --verify HEAD` prints it (without
/// the newline), or `None` to ask git. `git_dir` holds this work tree's HEAD, `common_dir`
/// the branches (they differ in a linked worktree).
pub fn head_id(git_dir: &Path, common_dir: &Path) -> Option<String> {
    let head = read_plain(&git_dir.join("HEAD"))?;
    let line = head.strip_suffix(b"\n")?;
    let Some(name) = line.strip_prefix(b"ref: ") else {
        return object_id(line);
    };
    let name = std::str::from_utf8(name).ok()?;
    if !plain_branch(name) {
        return None;
    }
    match std::fs::symlink_metadata(common_dir.join(name)) {
        Ok(meta) if meta.is_file() => {
            return object_id(read_plain(&common_dir.join(name))?.strip_suffix(b"\n")?);
        }
        // A directory, link or other file in its place: git's reading of it is git's.
        Ok(_) => return None,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(_) => return None,
    }
    packed(&read_plain(&common_dir.join("packed-refs"))?, name)
}

/// A branch name whose loose file is `common_dir/NAME` on every git: `refs/heads/` and
/// components of the characters git allows everywhere, none hidden, none a lock file.
fn plain_branch(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("refs/heads/") else {
        return false;
    };
    !rest.is_empty()
        && rest.split('/').all(|part| {
            !part.is_empty()
                && !part.starts_with('.')
                && !part.ends_with(".lock")
                && !part.contains("..")
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        })
}

/// 40 lower-case hex digits, exactly.
fn object_id(text: &[u8]) -> Option<String> {
    (text.len() == HEX_LEN && text.iter().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .then(|| String::from_utf8_lossy(text).into_owned())
}

/// `name`'s id in a `packed-refs` file whose every line is plain: the header comment,
/// `<id> <name>`, or a peeled `^<id>`.
fn packed(file: &[u8], name: &str) -> Option<String> {
    let body = file.strip_suffix(b"\n")?;
    let mut found = None;
    for line in body.split(|b| *b == b'\n') {
        if line.starts_with(b"#") {
            continue;
        }
        if let Some(peeled) = line.strip_prefix(b"^") {
            object_id(peeled)?;
            continue;
        }
        let (id, refname) = (line.get(..HEX_LEN)?, line.get(HEX_LEN..)?);
        let refname = refname.strip_prefix(b" ")?;
        let id = object_id(id)?;
        if refname == name.as_bytes() {
            if found.is_some() {
                return None;
            }
            found = Some(id);
        }
    }
    found
}

/// A regular file's bytes (not through a link), at most 1 MiB for HEAD and a loose ref,
/// at most 64 MiB for `packed-refs`.
fn read_plain(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > 64 << 20 {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(64 << 20).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::test_git as git;

    fn rev_parse(dir: &Path) -> String {
        String::from_utf8(git(dir, &["rev-parse", "--verify", "-q", "HEAD"]))
            .unwrap()
            .trim()
            .to_string()
    }

    fn ours(dir: &Path) -> Option<String> {
        let repo = crate::git::Repo::discover(dir).unwrap();
        head_id(&repo.git_dir, &repo.common_dir)
    }

    #[test]
    fn loose_packed_detached_and_worktree_heads_agree_with_git() {
        let tmp = tempfile::tempdir().unwrap();
        let main = tmp.path().join("main");
        std::fs::create_dir_all(&main).unwrap();
        git(&main, &["init", "-q", "-b", "topic/one"]);
        assert_eq!(ours(&main), None, "no commit yet: git is asked");
        std::fs::write(main.join("a"), "a\n").unwrap();
        git(&main, &["add", "-A"]);
        git(&main, &["commit", "-qm", "a"]);
        assert_eq!(ours(&main), Some(rev_parse(&main)), "loose");
        git(&main, &["pack-refs", "--all"]);
        assert!(!main.join(".git/refs/heads/topic/one").exists());
        assert_eq!(ours(&main), Some(rev_parse(&main)), "packed");
        std::fs::write(main.join("a"), "b\n").unwrap();
        git(&main, &["commit", "-qam", "b"]);
        assert_eq!(ours(&main), Some(rev_parse(&main)), "loose over packed");
        git(&main, &["worktree", "add", "-q", "-b", "side", "../wt"]);
        let wt = tmp.path().join("wt");
        assert_eq!(ours(&wt), Some(rev_parse(&wt)), "linked worktree");
        git(&main, &["checkout", "-q", "--detach", "HEAD~1"]);
        assert_eq!(ours(&main), Some(rev_parse(&main)), "detached");
    }

    #[test]
    fn odd_heads_are_left_to_git() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        git(dir, &["init", "-q", "-b", "main"]);
        std::fs::write(dir.join("a"), "a\n").unwrap();
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-qm", "a"]);
        let head = dir.join(".git/HEAD");
        for text in [
            "ref: refs/heads/.invalid\n",
            "ref: refs/heads/main",
            "ref: refs/remotes/origin/main\n",
            "ref: refs/heads/a..b\n",
            "ref: refs/heads/main.lock\n",
            "ref: refs/heads/missing\n",
            "ref:  refs/heads/main\n",
            "ABCDEF0123456789ABCDEF0123456789ABCDEF01\n",
        ] {
            std::fs::write(&head, text).unwrap();
            assert_eq!(ours(dir), None, "{text:?}");
        }
        // A branch whose loose file is a symbolic ref of its own.
        std::fs::write(&head, "ref: refs/heads/alias\n").unwrap();
        std::fs::write(dir.join(".git/refs/heads/alias"), "ref: refs/heads/main\n").unwrap();
        assert_eq!(ours(dir), None);
        assert_eq!(
            packed(
                b"# pack-refs with: peeled\nzz refs/heads/main\n",
                "refs/heads/main"
            ),
            None
        );
    }
}
