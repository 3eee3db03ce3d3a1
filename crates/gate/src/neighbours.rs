//! The edge the `deleted_tests` guard reads unchanged files through: the files of a few
//! repository directories as they are in the work tree, for a removed test that may still
//! be in a neighbour (see `guards::Near`).

use std::path::Path;

/// At most this many files are read in one call: the guard asks only when a test is left
/// unaccounted, and a copy sits next to the change or not at all.
pub const MAX_FILES: usize = 2_000;

/// `(path, text)` of the regular files directly in each of `dirs` (repository-relative,
/// `""` for the root) under `root`: no symbolic links, nothing over `max_bytes`, nothing
/// that is not UTF-8, nothing inside `.git`, and no directory that climbs out of `root`.
pub fn files_in(root: &Path, dirs: &[String], max_bytes: u64) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in dirs {
        let inside = dir
            .split('/')
            .all(|part| !matches!(part, ".." | ".git") && !part.contains('\\'));
        if !inside || dir.starts_with('/') {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            if out.len() >= MAX_FILES {
                return out;
            }
            // The entry's own type: a link is not followed.
            let regular = entry.file_type().is_ok_and(|t| t.is_file());
            let small = entry.metadata().is_ok_and(|m| m.len() <= max_bytes);
            let Some(name) = entry.file_name().to_str().map(String::from) else {
                continue;
            };
            if !(regular && small) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let path = if dir.is_empty() {
                name
            } else {
                format!("{dir}/{name}")
            };
            out.push((path, text));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_regular_text_files_of_the_directories_and_nothing_outside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("tests/sub")).unwrap();
        std::fs::write(
            root.join("tests/test_a.py"),
            "def test_a():\n    assert 1\n",
        )
        .unwrap();
        std::fs::write(root.join("tests/sub/test_b.py"), "x").unwrap();
        std::fs::write(root.join("tests/big.py"), "x".repeat(100)).unwrap();
        std::fs::write(root.join("tests/bin.dat"), [0xff, 0xfe, 0x00]).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", root.join("tests/link.py")).unwrap();
        let found = files_in(root, &["tests".into(), "../x".into(), ".git".into()], 50);
        assert_eq!(
            found,
            [(
                "tests/test_a.py".to_string(),
                "def test_a():\n    assert 1\n".to_string()
            )]
        );
    }
}
