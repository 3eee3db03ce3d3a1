//! Files git has been told not to look at. `git update-index --assume-unchanged` and
//! `--skip-worktree` make status and diff take a tracked file's index entry for its
//! content, so a test emptied after setting either bit reads as untouched. The tool gate
//! refuses both commands, but a script the agent writes can set them, and the index is not
//! one of the referee's read-only files. So the done gate asks git which entries carry a
//! bit and treats each as changed: the guards read it from disk and compare it themselves.

/// Whether any entry of an index file (`.git/index`, versions 2 and 3, SHA-1) carries
/// either bit, read in-process so the common answer ("none") costs no git process.
/// `None` when the file is not one this reader knows (version 4, SHA-256, damaged): the
/// caller then asks git.
pub fn index_has_hidden(index: &[u8]) -> Option<bool> {
    const HASH: usize = 20;
    const FIXED: usize = 40 + HASH + 2;
    if index.get(..4)? != b"DIRC" {
        return None;
    }
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(index.get(at..at + 4)?.try_into().ok()?))
    };
    let version = word(4)?;
    if version != 2 && version != 3 {
        return None;
    }
    let mut at = 12;
    for _ in 0..word(8)? {
        let flags = u16::from_be_bytes(index.get(at + FIXED - 2..at + FIXED)?.try_into().ok()?);
        let extended = flags & 0x4000 != 0;
        if extended && version < 3 {
            return None;
        }
        let head = FIXED + if extended { 2 } else { 0 };
        let skip_worktree = extended && index.get(at + FIXED)? & 0x40 != 0;
        if flags & 0x8000 != 0 || skip_worktree {
            return Some(true);
        }
        let name_len = match usize::from(flags & 0x0fff) {
            0x0fff => index.get(at + head..)?.iter().position(|b| *b == 0)?,
            n => n,
        };
        // The name ends in a NUL: a reader that lost its place (another hash length) stops.
        if *index.get(at + head + name_len)? != 0 {
            return None;
        }
        at += (head + name_len + 8) & !7;
    }
    (index.len() >= at + HASH).then_some(false)
}

/// Paths of `git ls-files -v -z` whose tag says git will not look at the work-tree file:
/// `S` (skip-worktree) or a lower-case letter (assume-unchanged).
pub fn parse_ls_files_v(out: &[u8]) -> Vec<String> {
    out.split(|b| *b == 0)
        .filter_map(|rec| {
            let (tag, rest) = (rec.first()?, rec.get(1..)?);
            let path = rest.strip_prefix(b" ")?;
            let hidden = *tag == b'S' || tag.is_ascii_lowercase();
            (hidden && !path.is_empty()).then(|| String::from_utf8_lossy(path).into_owned())
        })
        .collect()
}

/// The status code a hidden file gets: what git would have said had it looked. Whether
/// its content really changed is for the guards to find out.
pub fn status_code(exists_on_disk: bool) -> &'static str {
    if exists_on_disk {
        ".M"
    } else {
        ".D"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_worktree_and_assume_unchanged_are_hidden() {
        let out = b"H src/a.rs\0S tests/b.test.js\0h tests/c.test.js\0s d.txt\0? x\0";
        assert_eq!(
            parse_ls_files_v(out),
            ["tests/b.test.js", "tests/c.test.js", "d.txt"]
        );
    }

    #[test]
    fn nothing_hidden_in_an_ordinary_index() {
        assert!(parse_ls_files_v(b"H a\0H b c\0").is_empty());
        assert!(parse_ls_files_v(b"").is_empty());
    }

    /// A real index written by git, with and without each bit.
    #[test]
    fn the_index_reader_agrees_with_git() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let ok = std::process::Command::new("git")
                .args(args)
                .current_dir(dir.path())
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()
                .unwrap()
                .status
                .success();
            assert!(ok, "git {args:?}");
        };
        git(&["init", "-q"]);
        let long = "d/".repeat(150) + "f";
        std::fs::create_dir_all(dir.path().join(&long).parent().unwrap()).unwrap();
        for f in ["a", "bb", "ccc", long.as_str()] {
            std::fs::write(dir.path().join(f), f).unwrap();
        }
        git(&["add", "-A"]);
        let index = || std::fs::read(dir.path().join(".git/index")).unwrap();
        assert_eq!(index_has_hidden(&index()), Some(false));
        git(&["update-index", "--assume-unchanged", "ccc"]);
        assert_eq!(index_has_hidden(&index()), Some(true));
        git(&["update-index", "--no-assume-unchanged", "ccc"]);
        assert_eq!(index_has_hidden(&index()), Some(false));
        git(&["update-index", "--skip-worktree", &long]);
        assert_eq!(index_has_hidden(&index()), Some(true));
        git(&["update-index", "--index-version", "4"]);
        assert_eq!(index_has_hidden(&index()), None);
        assert_eq!(index_has_hidden(b"DIRC"), None);
        assert_eq!(index_has_hidden(b"not an index"), None);
    }

    #[test]
    fn a_missing_hidden_file_reads_as_deleted() {
        assert_eq!(status_code(true), ".M");
        assert_eq!(status_code(false), ".D");
    }
}
