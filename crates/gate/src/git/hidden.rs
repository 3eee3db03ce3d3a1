//! Files git has been told not to look at. `git update-index --assume-unchanged` and
//! `--skip-worktree` make status and diff take a tracked file's index entry for its
//! content, so a test emptied after setting either bit reads as untouched. The tool gate
//! refuses both commands, but a script the agent writes can set them, and the index is not
//! one of the referee's read-only files. So the done gate reads the index itself and
//! treats each flagged entry as changed: the guards read it from disk and compare it
//! themselves. The same reader checks git's stat cache at nanosecond precision and hashes
//! the files it does not vouch for (see [`stat_vouches`]).

/// One entry of the index, as far as the referee needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    pub path: String,
    /// The path's own bytes when they are not UTF-8: `path` is then their lossy reading,
    /// which names another file (or none).
    pub raw: Option<Vec<u8>>,
    /// The stat data git recorded (seconds, nanoseconds), truncated to 32 bits as git does.
    pub ctime: (u32, u32),
    pub mtime: (u32, u32),
    pub ino: u32,
    pub mode: u32,
    pub size: u32,
    pub oid: [u8; 20],
    /// Assume-unchanged or skip-worktree: git will not look at the file at all.
    pub hidden: bool,
    /// 0, or 1 to 3 for the sides of an unresolved merge.
    pub stage: u8,
    /// `git add -N`: a path staged with no content yet.
    pub intent_to_add: bool,
}

/// The stat data of the file on disk, in the index's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiskStat {
    pub ctime: (u32, u32),
    pub mtime: (u32, u32),
    pub ino: u32,
    pub size: u32,
}

/// Whether the recorded stat data vouches for the file: every field equal, nanoseconds
/// included. git itself compares whole seconds only (and with `core.checkStat=minimal`
/// or `core.trustctime=false`, not even ctime), so a same-size edit made in the second
/// the index was refreshed, its mtime put back, reads as clean to git; its ctime
/// nanoseconds still differ, and ctime cannot be put back.
pub fn stat_vouches(entry: &IndexEntry, disk: &DiskStat) -> bool {
    entry.ctime == disk.ctime
        && entry.mtime == disk.mtime
        && entry.ino == disk.ino
        && entry.size == disk.size
}

/// The entries of an index file (`.git/index`, versions 2 to 4, SHA-1). `None` when the
/// file is not one this reader knows (SHA-256, a sparse or split index, damaged): the caller then
/// asks git.
pub fn read_index(index: &[u8]) -> Option<Vec<IndexEntry>> {
    const HASH: usize = 20;
    const FIXED: usize = 40 + HASH + 2;
    if index.get(..4)? != b"DIRC" {
        return None;
    }
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(index.get(at..at + 4)?.try_into().ok()?))
    };
    let version = word(4)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = word(8)? as usize;
    let mut entries = Vec::with_capacity(count.min(index.len() / FIXED));
    let mut previous: Vec<u8> = Vec::new();
    let mut at = 12;
    for _ in 0..count {
        let flags = u16::from_be_bytes(index.get(at + FIXED - 2..at + FIXED)?.try_into().ok()?);
        let extended = flags & 0x4000 != 0;
        if extended && version < 3 {
            return None;
        }
        let head = FIXED + if extended { 2 } else { 0 };
        let extra = if extended { *index.get(at + FIXED)? } else { 0 };
        let skip_worktree = extra & 0x40 != 0;
        let name_at = at + head;
        let (path, next) = if version == 4 {
            let (strip, used) = varint(index.get(name_at..)?)?;
            let suffix_at = name_at + used;
            let suffix_len = index.get(suffix_at..)?.iter().position(|b| *b == 0)?;
            let keep = previous.len().checked_sub(strip)?;
            let mut path = previous[..keep].to_vec();
            path.extend_from_slice(&index[suffix_at..suffix_at + suffix_len]);
            (path, suffix_at + suffix_len + 1)
        } else {
            let name_len = match usize::from(flags & 0x0fff) {
                0x0fff => index.get(name_at..)?.iter().position(|b| *b == 0)?,
                n => n,
            };
            // The name ends in a NUL: a reader that lost its place (another hash length)
            // stops here.
            if *index.get(name_at + name_len)? != 0 {
                return None;
            }
            let path = index[name_at..name_at + name_len].to_vec();
            (path, at + ((head + name_len + 8) & !7))
        };
        let mode = word(at + 24)?;
        // A sparse index folds a skipped directory into one entry; git lists its files.
        if mode & 0o170000 == 0o040000 {
            return None;
        }
        let raw = std::str::from_utf8(&path).is_err().then(|| path.clone());
        entries.push(IndexEntry {
            path: String::from_utf8_lossy(&path).into_owned(),
            raw,
            ctime: (word(at)?, word(at + 4)?),
            mtime: (word(at + 8)?, word(at + 12)?),
            ino: word(at + 20)?,
            mode,
            size: word(at + 36)?,
            oid: index.get(at + 40..at + 40 + HASH)?.try_into().ok()?,
            hidden: flags & 0x8000 != 0 || skip_worktree,
            stage: ((flags >> 12) & 3) as u8,
            intent_to_add: extra & 0x20 != 0,
        });
        previous = path;
        at = next;
    }
    let end = index.len().checked_sub(HASH)?;
    // A split index lists only what changed since its shared index: not every entry.
    while at + 8 <= end {
        if index.get(at..at + 4)? == b"link" {
            return None;
        }
        at = at.checked_add(8 + word(at + 4)? as usize)?;
    }
    (at == end).then_some(entries)
}

/// git's offset encoding of the v4 prefix length: returns the value and the bytes used.
fn varint(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut used = 0;
    let mut byte = *bytes.get(used)?;
    let mut value = usize::from(byte & 0x7f);
    while byte & 0x80 != 0 {
        used += 1;
        byte = *bytes.get(used)?;
        value = value.checked_add(1)?.checked_shl(7)? | usize::from(byte & 0x7f);
    }
    Some((value, used + 1))
}

/// Paths of `git ls-files -v -z` whose tag says git will not look at the work-tree file:
/// `S` (skip-worktree) or a lower-case letter (assume-unchanged). `Err` holds the first
/// such path that is not UTF-8: it cannot be named to the guards.
pub fn parse_ls_files_v(out: &[u8]) -> Result<Vec<String>, Vec<u8>> {
    out.split(|b| *b == 0)
        .filter_map(|rec| {
            let (tag, rest) = (rec.first()?, rec.get(1..)?);
            let path = rest.strip_prefix(b" ")?;
            let hidden = *tag == b'S' || tag.is_ascii_lowercase();
            (hidden && !path.is_empty()).then(|| {
                std::str::from_utf8(path)
                    .map(str::to_string)
                    .map_err(|_| path.to_vec())
            })
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
            parse_ls_files_v(out).unwrap(),
            ["tests/b.test.js", "tests/c.test.js", "d.txt"]
        );
    }

    /// A flagged path that is not UTF-8 is given back as bytes, not as its lossy reading;
    /// an unflagged one is no concern of this list.
    #[test]
    fn a_flagged_name_that_is_not_utf8_is_an_error() {
        let out = b"H ok\xff\0S t\xff.js\0h u\xfe.js\0";
        assert_eq!(parse_ls_files_v(out), Err(b"t\xff.js".to_vec()));
        assert_eq!(parse_ls_files_v(b"H ok\xff\0S fine\0").unwrap(), ["fine"]);
    }

    #[test]
    fn nothing_hidden_in_an_ordinary_index() {
        assert!(parse_ls_files_v(b"H a\0H b c\0").unwrap().is_empty());
        assert!(parse_ls_files_v(b"").unwrap().is_empty());
    }

    /// A real index written by git, with and without each bit, in each version.
    #[test]
    fn the_index_reader_agrees_with_git() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git")
                .args(args)
                .current_dir(dir.path())
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()
                .unwrap();
            assert!(out.status.success(), "git {args:?}");
            String::from_utf8(out.stdout).unwrap()
        };
        git(&["init", "-q"]);
        let long = "d/".repeat(150) + "f";
        std::fs::create_dir_all(dir.path().join(&long).parent().unwrap()).unwrap();
        for f in ["a", "bb", "ccc", "d/e", long.as_str()] {
            std::fs::write(dir.path().join(f), f).unwrap();
        }
        git(&["add", "-A"]);
        let index = || read_index(&std::fs::read(dir.path().join(".git/index")).unwrap());
        let hidden = || -> Vec<String> {
            let entries = index().expect("readable");
            entries
                .into_iter()
                .filter(|e| e.hidden)
                .map(|e| e.path)
                .collect()
        };
        let paths: Vec<String> = index().unwrap().into_iter().map(|e| e.path).collect();
        assert_eq!(paths, git(&["ls-files"]).lines().collect::<Vec<_>>());
        let oid = index().unwrap()[0].oid;
        let want = git(&["rev-parse", ":a"]);
        let got: String = oid.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, want.trim());
        assert!(hidden().is_empty());
        git(&["update-index", "--assume-unchanged", "ccc"]);
        assert_eq!(hidden(), ["ccc"]);
        git(&["update-index", "--no-assume-unchanged", "ccc"]);
        git(&["update-index", "--skip-worktree", &long]);
        assert_eq!(hidden(), vec![long.as_str()]);
        git(&["update-index", "--index-version", "4"]);
        assert_eq!(hidden(), vec![long.as_str()]);
        let paths: Vec<String> = index().unwrap().into_iter().map(|e| e.path).collect();
        assert_eq!(paths, git(&["ls-files"]).lines().collect::<Vec<_>>());
        assert_eq!(read_index(b"DIRC"), None);
        assert_eq!(read_index(b"not an index"), None);
    }

    #[test]
    fn every_stat_field_must_match() {
        let entry = IndexEntry {
            path: "t".into(),
            raw: None,
            ctime: (10, 5),
            mtime: (9, 1),
            ino: 7,
            mode: 0o100644,
            size: 35,
            oid: [0; 20],
            hidden: false,
            stage: 0,
            intent_to_add: false,
        };
        let disk = DiskStat {
            ctime: (10, 5),
            mtime: (9, 1),
            ino: 7,
            size: 35,
        };
        assert!(stat_vouches(&entry, &disk));
        // Same second, other nanoseconds: git's own compare would call it clean.
        let later = DiskStat {
            ctime: (10, 6),
            ..disk
        };
        assert!(!stat_vouches(&entry, &later));
    }

    #[test]
    fn a_missing_hidden_file_reads_as_deleted() {
        assert_eq!(status_code(true), ".M");
        assert_eq!(status_code(false), ".D");
    }
}
