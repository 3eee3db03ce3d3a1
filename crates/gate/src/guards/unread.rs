//! Files the guards could not read as text: a binary, gigantic or non-UTF-8 file, a
//! submodule, a symbolic link out of the repository, a Git LFS pointer. Each is skipped
//! with a note in the receipt, so a skip added to one is never a silent pass. (Non-UTF-8
//! text is the exception: the edge reads it with invalid bytes replaced, and the note
//! says so.) (A test
//! file that held tests and became unreadable is more than a note: `deleted_tests` fails
//! it, see `deleted`.)

use super::languages::Lang;
use super::test_paths::TestPaths;
use super::PathSet;
use serde::{Deserialize, Serialize};

/// Why a file was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unread {
    /// Not UTF-8, holding a NUL byte.
    Binary,
    /// Not UTF-8 (a legacy encoding).
    NotUtf8,
    /// Over the size cap.
    TooLarge,
    /// A Git LFS pointer: the content lives elsewhere, the pointer holds no code.
    LfsPointer,
    /// A submodule (a gitlink): its files belong to another repository.
    Submodule,
    /// A symbolic link to a path outside the repository, or to nothing.
    OutsideLink,
    /// A FIFO, socket or device where a file was.
    NotAFile,
    /// A configuration file whose text does not parse: the suppressions in its settings
    /// were not read (its code-style markers, if any, were).
    Unparsable,
    /// A coverage exclusion pattern of a configuration file that loopgate's regular
    /// expressions cannot read (Python-only syntax, or past the size bounds): comments it
    /// would exclude were not read as suppressions.
    UnreadPattern,
}

/// Which version of the file could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The working tree (the version being judged).
    Now,
    /// The comparison point: the file's added lines and old counts are unknown.
    Then,
}

/// One file the guards skipped, as the receipt lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    pub path: String,
    pub why: Unread,
    pub side: Side,
    pub note: String,
}

const LFS_HEADER: &[u8] = b"version https://git-lfs.github.com/spec/v1";
/// LFS pointers are about 130 bytes; the spec caps them at 1024.
const LFS_POINTER_MAX: usize = 1024;

/// Why bytes of a file are not plain text (`None`: they are). `cap` is the size cap.
pub fn classify(bytes: &[u8], cap: u64) -> Option<Unread> {
    decode(bytes.to_vec(), cap).1
}

/// The text the guards read from a file's bytes, and why it is not plain text: UTF-8 as
/// is; another 8-bit encoding (a Latin-1 comment) with its invalid bytes replaced, since
/// every marker and test shape is ASCII; an LFS pointer as the harmless text it is.
/// Binary and oversized files give no text.
pub fn decode(bytes: Vec<u8>, cap: u64) -> (Option<String>, Option<Unread>) {
    if bytes.len() as u64 > cap {
        return (None, Some(Unread::TooLarge));
    }
    match String::from_utf8(bytes) {
        Ok(text) => {
            let lfs = is_lfs_pointer(text.as_bytes()).then_some(Unread::LfsPointer);
            (Some(text), lfs)
        }
        Err(e) => {
            let bytes = e.into_bytes();
            if bytes.contains(&0) {
                (None, Some(Unread::Binary))
            } else {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                (Some(text), Some(Unread::NotUtf8))
            }
        }
    }
}

pub fn is_lfs_pointer(bytes: &[u8]) -> bool {
    bytes.len() <= LFS_POINTER_MAX && bytes.starts_with(LFS_HEADER)
}

/// The receipt's note on one skipped file; `cap` is the size cap in bytes.
pub fn note(why: Unread, side: Side, cap: u64) -> String {
    let what = match why {
        Unread::Binary => "is binary (not UTF-8, holds NUL bytes)".to_string(),
        Unread::NotUtf8 => {
            "is not UTF-8 text: read with its invalid bytes replaced, so a marker next to them may be missed"
                .to_string()
        }
        Unread::TooLarge => format!("is larger than the {} KiB the guards read", cap / 1024),
        Unread::LfsPointer => {
            "is a Git LFS pointer: its content is stored outside the repository".to_string()
        }
        Unread::Submodule => {
            "is a submodule: its files belong to another repository and are not inspected"
                .to_string()
        }
        Unread::OutsideLink => {
            "is a symbolic link to a path outside the repository (or to nothing): it is not followed"
                .to_string()
        }
        Unread::NotAFile => "is not a regular file".to_string(),
        Unread::Unparsable => {
            "does not parse (a syntax error): the lint suppressions in its settings were not read"
                .to_string()
        }
        Unread::UnreadPattern => {
            "holds a coverage exclusion pattern that is not a regular expression loopgate reads: comments it excludes were not read as suppressions"
                .to_string()
        }
    };
    on_side(what, why, side)
}

/// A note's text for the side it is about.
fn on_side(what: String, why: Unread, side: Side) -> String {
    match side {
        Side::Now if matches!(why, Unread::NotUtf8 | Unread::Unparsable | Unread::UnreadPattern) => {
            what
        }
        Side::Now => format!("{what}; the guards skipped it"),
        Side::Then => format!(
            "{what} at the comparison point; its added lines and old test counts are unknown, so the guards compared only what they could"
        ),
    }
}

/// The notes worth a receipt line: every submodule and outward link; a file whose content
/// could not be read when the guards would have looked at it (a language they know, or a
/// test path). A binary image is no news. Excluded paths are never noted.
pub fn notes(
    unread: &[(String, Unread, Side)],
    test_globs: &[String],
    exclude: &[String],
    cap: u64,
) -> Vec<SkippedFile> {
    let tests = TestPaths::new(test_globs);
    let exclude = PathSet::new(exclude);
    let mut out: Vec<SkippedFile> = unread
        .iter()
        .filter(|(path, why, _)| {
            let always = matches!(why, Unread::Submodule | Unread::OutsideLink);
            !exclude.is_match(path)
                && (always || Lang::from_path(path).is_some() || tests.is_counted(path))
        })
        .map(|(path, why, side)| SkippedFile {
            path: path.clone(),
            why: *why,
            side: *side,
            note: note(*why, *side, cap),
        })
        .collect();
    out.sort_by(|a, b| (&a.path, a.side as u8).cmp(&(&b.path, b.side as u8)));
    out.dedup_by(|a, b| a.path == b.path && a.why == b.why);
    out
}

/// The notes on configuration files that do not parse (see `config_lint::unparsable`),
/// excluded paths aside.
pub fn unparsable_notes(found: Vec<(String, Side)>, exclude: &[String]) -> Vec<SkippedFile> {
    let exclude = PathSet::new(exclude);
    found
        .into_iter()
        .filter(|(path, _)| !exclude.is_match(path))
        .map(|(path, side)| SkippedFile {
            note: note(Unread::Unparsable, side, 0),
            path,
            why: Unread::Unparsable,
            side,
        })
        .collect()
}

/// The notes on Xcode test plans that do not parse (see `xctest_plans::unparsable`),
/// excluded paths aside: the skips they hold were not read.
pub fn unparsable_plan_notes(found: Vec<(String, Side)>, exclude: &[String]) -> Vec<SkippedFile> {
    let what = "does not parse (a syntax error): the tests it skips were not read";
    unparsable_notes(found, exclude)
        .into_iter()
        .map(|mut n| {
            n.note = on_side(what.to_string(), n.why, n.side);
            n
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LFS: &str = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n";

    #[test]
    fn bytes_are_classified() {
        assert_eq!(classify(b"def test_a(): pass\n", 1024), None);
        assert_eq!(classify(b"caf\xe9 = 1\n", 1024), Some(Unread::NotUtf8));
        assert_eq!(
            classify(b"\x89PNG\r\n\x1a\n\0\0\xff", 1024),
            Some(Unread::Binary)
        );
        assert_eq!(classify(&[b'a'; 2048], 1024), Some(Unread::TooLarge));
        assert_eq!(classify(LFS.as_bytes(), 1024), Some(Unread::LfsPointer));
        // A file that merely quotes the header further down is text.
        assert_eq!(classify(format!("# {LFS}").as_bytes(), 1024), None);
        let (text, why) = decode(b"# caf\xe9\ndef test_a(): pass\n".to_vec(), 1024);
        assert_eq!(why, Some(Unread::NotUtf8));
        assert_eq!(text.as_deref(), Some("# caf\u{fffd}\ndef test_a(): pass\n"));
        assert_eq!(decode(b"a\0\xff".to_vec(), 1024).0, None);
    }

    #[test]
    fn only_files_the_guards_would_read_are_noted() {
        let unread = vec![
            ("assets/logo.png".to_string(), Unread::Binary, Side::Now),
            ("tests/test_a.py".to_string(), Unread::NotUtf8, Side::Now),
            ("vendor/lib".to_string(), Unread::Submodule, Side::Now),
            ("data/link".to_string(), Unread::OutsideLink, Side::Now),
            ("gen/big.js".to_string(), Unread::TooLarge, Side::Then),
            ("skipme/x.py".to_string(), Unread::Binary, Side::Now),
        ];
        let got = notes(&unread, &[], &["skipme".to_string()], 1024 * 1024);
        let paths: Vec<&str> = got.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            paths,
            ["data/link", "gen/big.js", "tests/test_a.py", "vendor/lib"]
        );
        assert!(got[1].note.contains("1024 KiB") && got[1].note.contains("comparison point"));
        assert!(got[3].note.contains("submodule"));
    }
}
