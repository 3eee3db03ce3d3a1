//! What the chain alone cannot see: lines removed from the end of the log or the start of a
//! generation, a generation deleted whole, an emptied file. The anchor (and any receipt
//! that recorded it) says where the log stood; this compares that with what the walk found.

use crate::anchor::{self, Anchor, Found};
use crate::chain::BreakKind;
use crate::files;
use crate::Break;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// A line someone else saw: a receipt records the anchor's seq and hash when it is sealed,
/// so the log must still hold that line, with that hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    pub seq: u64,
    pub hash: String,
    /// Who saw it, for the message (e.g. the receipt's path).
    pub source: String,
}

/// The log as verify opened it, under the lock.
pub struct Snapshot {
    pub anchor: Found,
    /// An earlier damaged anchor kept aside by a writer.
    pub damaged_aside: bool,
    /// Every generation, oldest first, the current file last, each opened.
    pub files: Vec<(PathBuf, File)>,
}

/// What the chain walk found (only when the chain itself is intact).
pub struct Walked {
    pub last_seq: Option<u64>,
    pub lines: u64,
    /// The first seq of each file, in `Snapshot::files` order (`None` for an empty file).
    pub firsts: Vec<Option<u64>>,
    pub current_lines: u64,
    /// Bytes of the current file, when it exists.
    pub current_len: Option<u64>,
    /// The hash the walk saw at each seq the anchor or a witness names.
    pub hashes: BTreeMap<u64, Option<String>>,
}

fn brk(file: PathBuf, line: u64, kind: BreakKind, detail: String) -> Option<Break> {
    Some(Break {
        file,
        line,
        kind,
        detail,
    })
}

/// The first thing the anchor or a witness says is missing or different, if any.
pub fn check(dir: &Path, snap: &Snapshot, walked: &Walked, witnesses: &[Witness]) -> Option<Break> {
    let anchor_path = anchor::path(dir);
    if snap.damaged_aside {
        return brk(
            anchor::damaged_path(dir),
            1,
            BreakKind::Anchor,
            format!(
                "a damaged anchor was found by a writer and kept aside here: the end of the log before it could not be vouched for; compare it with the log, then delete {} to accept",
                anchor::DAMAGED_NAME
            ),
        );
    }
    let anchor = match &snap.anchor {
        Found::Damaged(why) => {
            return brk(
                anchor_path,
                1,
                BreakKind::Anchor,
                format!("the anchor is damaged: {why}; the end of the log cannot be vouched for"),
            )
        }
        Found::Missing if walked.lines > 0 => {
            return brk(
                anchor_path,
                1,
                BreakKind::Anchor,
                "the anchor is missing: nothing vouches for the end of the log (a log written before anchors existed gains one at its next append)".into(),
            )
        }
        Found::Missing => None,
        Found::Valid(a) => Some(a),
    };
    if let Some(a) = anchor {
        if let Some(b) = against_anchor(dir, snap, walked, a) {
            return Some(b);
        }
    }
    against_witnesses(dir, walked, witnesses)
}

fn current(dir: &Path) -> PathBuf {
    dir.join(files::CURRENT)
}

fn against_anchor(dir: &Path, snap: &Snapshot, walked: &Walked, a: &Anchor) -> Option<Break> {
    let end_line = walked.current_lines + 1;
    let last = walked.last_seq.unwrap_or(0);
    if a.seq > last {
        let detail = match walked.last_seq {
            Some(t) => format!(
                "the log ends at seq {t}, but the anchor records seq {}: {} line(s) missing from its end (seq {}..={})",
                a.seq,
                a.seq - t,
                t + 1,
                a.seq
            ),
            None => format!(
                "the log holds no line, but the anchor records seq {}: every line up to it is missing",
                a.seq
            ),
        };
        return brk(current(dir), end_line, BreakKind::Deleted, detail);
    }
    if let Some(Some(seen)) = walked.hashes.get(&a.seq) {
        if *seen != a.hash {
            return brk(
                current(dir),
                end_line,
                BreakKind::Edited,
                format!(
                    "the line with seq {} does not have the hash the anchor records: it was replaced",
                    a.seq
                ),
            );
        }
    }
    let present: Vec<&PathBuf> = snap.files.iter().map(|(p, _)| p).collect();
    for n in 1..=a.rotated {
        let generation = files::generation(dir, n);
        if !present.contains(&&generation) {
            return brk(
                generation,
                1,
                BreakKind::Deleted,
                format!(
                    "this generation is missing: the anchor records {} rotated generation(s)",
                    a.rotated
                ),
            );
        }
    }
    let current_file = current(dir);
    let current_at = present.iter().position(|p| **p == current_file);
    if a.len > 0 && current_at.is_none() {
        return brk(
            current_file,
            1,
            BreakKind::Deleted,
            format!(
                "the current generation is missing: the anchor records {} byte(s) in it",
                a.len
            ),
        );
    }
    if let Some(i) = current_at {
        if a.first_seq > 0 {
            match walked.firsts.get(i).copied().flatten() {
                Some(first) if first != a.first_seq => {
                    return brk(
                        current_file,
                        1,
                        BreakKind::Deleted,
                        format!(
                            "this generation starts at seq {first}, but the anchor records that it starts at seq {}{}",
                            a.first_seq,
                            if first > a.first_seq {
                                format!(": {} line(s) missing from its start", first - a.first_seq)
                            } else {
                                String::new()
                            }
                        ),
                    )
                }
                None if a.len > 0 => {
                    return brk(
                        current_file,
                        1,
                        BreakKind::Deleted,
                        format!(
                            "this generation is empty, but the anchor records {} byte(s) in it starting at seq {}",
                            a.len, a.first_seq
                        ),
                    )
                }
                _ => {}
            }
        }
    }
    if let (Some((oldest, _)), Some(Some(first))) = (snap.files.first(), walked.firsts.first()) {
        if a.oldest_seq > 0 && *first != a.oldest_seq {
            return brk(
                oldest.clone(),
                1,
                BreakKind::Deleted,
                format!(
                    "the oldest kept generation starts at seq {first}, but the anchor records seq {}: lines were removed from its start",
                    a.oldest_seq
                ),
            );
        }
    }
    if let Some(len) = walked.current_len {
        if len < a.len {
            return brk(
                current_file,
                end_line,
                BreakKind::Truncated,
                format!(
                    "this generation holds {len} byte(s), fewer than the {} the anchor records",
                    a.len
                ),
            );
        }
    }
    None
}

fn against_witnesses(dir: &Path, walked: &Walked, witnesses: &[Witness]) -> Option<Break> {
    let last = walked.last_seq.unwrap_or(0);
    let oldest = walked.firsts.iter().flatten().next().copied().unwrap_or(0);
    for w in witnesses {
        if w.seq > last {
            return brk(
                current(dir),
                walked.current_lines + 1,
                BreakKind::Deleted,
                format!(
                    "{} saw the log reach seq {}, but it ends at seq {last}: {} line(s) missing from its end",
                    w.source,
                    w.seq,
                    w.seq - last
                ),
            );
        }
        // Older than the oldest kept generation: rotated away, nothing to compare.
        if w.seq < oldest {
            continue;
        }
        if let Some(Some(seen)) = walked.hashes.get(&w.seq) {
            if *seen != w.hash {
                return brk(
                    current(dir),
                    walked.current_lines + 1,
                    BreakKind::Edited,
                    format!(
                        "{} recorded seq {} with another hash: that line was replaced",
                        w.source, w.seq
                    ),
                );
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walked(last: u64, firsts: Vec<Option<u64>>, hashes: &[(u64, &str)]) -> Walked {
        Walked {
            last_seq: Some(last),
            lines: last,
            firsts,
            current_lines: 2,
            current_len: Some(1000),
            hashes: hashes
                .iter()
                .map(|(s, h)| (*s, Some(h.to_string())))
                .collect(),
        }
    }

    fn snap(dir: &Path, anchor: Found, names: &[&str]) -> (tempfile::TempDir, Snapshot) {
        let tmp = tempfile::tempdir().unwrap();
        let files = names
            .iter()
            .map(|n| {
                let p = tmp.path().join(n);
                std::fs::write(&p, "").unwrap();
                (dir.join(n), File::open(p).unwrap())
            })
            .collect();
        (
            tmp,
            Snapshot {
                anchor,
                damaged_aside: false,
                files,
            },
        )
    }

    fn anchor(seq: u64, first_seq: u64, rotated: u32, oldest_seq: u64) -> Anchor {
        Anchor {
            seq,
            hash: "h".into(),
            len: 1000,
            first_seq,
            rotated,
            oldest_seq,
            ..Anchor::empty()
        }
    }

    #[test]
    fn a_log_that_reaches_its_anchor_passes() {
        let dir = Path::new("/s");
        let (_t, s) = snap(
            dir,
            Found::Valid(anchor(5, 4, 1, 1)),
            &["audit.1.ndjson", "audit.ndjson"],
        );
        let w = walked(5, vec![Some(1), Some(4)], &[(5, "h")]);
        assert_eq!(check(dir, &s, &w, &[]), None);
    }

    #[test]
    fn lines_missing_from_the_end_are_counted() {
        let dir = Path::new("/s");
        let (_t, s) = snap(dir, Found::Valid(anchor(5, 1, 0, 1)), &["audit.ndjson"]);
        let b = check(dir, &s, &walked(3, vec![Some(1)], &[]), &[]).unwrap();
        assert_eq!(b.kind, BreakKind::Deleted);
        assert_eq!(b.line, 3);
        assert!(
            b.detail.contains("ends at seq 3")
                && b.detail.contains("2 line(s) missing from its end"),
            "{}",
            b.detail
        );
    }

    #[test]
    fn a_missing_generation_is_named() {
        let dir = Path::new("/s");
        let (_t, s) = snap(
            dir,
            Found::Valid(anchor(9, 7, 2, 1)),
            &["audit.2.ndjson", "audit.ndjson"],
        );
        let b = check(
            dir,
            &s,
            &walked(9, vec![Some(1), Some(7)], &[(9, "h")]),
            &[],
        )
        .unwrap();
        assert_eq!(b.file, dir.join("audit.1.ndjson"));
        assert!(b.detail.contains("2 rotated generation(s)"), "{}", b.detail);
    }

    #[test]
    fn a_damaged_or_missing_anchor_is_reported() {
        let dir = Path::new("/s");
        let (_t, s) = snap(dir, Found::Damaged("torn".into()), &["audit.ndjson"]);
        let b = check(dir, &s, &walked(3, vec![Some(1)], &[]), &[]).unwrap();
        assert_eq!(b.kind, BreakKind::Anchor);
        assert!(b.detail.contains("torn"));
        let (_t, s) = snap(dir, Found::Missing, &["audit.ndjson"]);
        let b = check(dir, &s, &walked(3, vec![Some(1)], &[]), &[]).unwrap();
        assert!(b.detail.contains("the anchor is missing"), "{}", b.detail);
    }

    #[test]
    fn witnesses_must_find_their_line() {
        let dir = Path::new("/s");
        let (_t, s) = snap(dir, Found::Valid(anchor(4, 1, 0, 1)), &["audit.ndjson"]);
        let w = walked(4, vec![Some(1)], &[(2, "good"), (4, "h")]);
        let ahead = Witness {
            seq: 6,
            hash: "x".into(),
            source: "receipt r".into(),
        };
        let b = check(dir, &s, &w, &[ahead]).unwrap();
        assert!(
            b.detail.contains("receipt r saw the log reach seq 6"),
            "{}",
            b.detail
        );
        let replaced = Witness {
            seq: 2,
            hash: "bad".into(),
            source: "receipt r".into(),
        };
        assert_eq!(
            check(dir, &s, &w, &[replaced]).unwrap().kind,
            BreakKind::Edited
        );
        let fine = Witness {
            seq: 2,
            hash: "good".into(),
            source: "receipt r".into(),
        };
        assert_eq!(check(dir, &s, &w, &[fine]), None);
    }
}
