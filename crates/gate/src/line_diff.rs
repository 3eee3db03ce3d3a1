//! The lines a change added to a file: a Myers line diff, the same answer as
//! `similar::TextDiff::diff_lines` gives, at a fraction of its cost on the usual edit (a
//! few lines changed in a long file). `TextDiff` splits lines char by char and hashes every
//! line into a table before diffing; here lines are split on bytes and compared as they
//! are, and Myers' own prefix and suffix trimming skips the unchanged bulk with memcmp.

use similar::{Algorithm, DiffOp};
use std::time::{Duration, Instant};

/// A pathological pair gets a coarser diff rather than an unbounded one.
const TIMEOUT: Duration = Duration::from_millis(200);

/// Lines with their 1-based numbers, without their line ending.
pub type Numbered = Vec<(u32, String)>;

/// Lines of `new` that are not in `old`, numbered in `new` (1-based), without their line
/// ending.
pub fn added_lines(old: &str, new: &str) -> Numbered {
    changes(old, new).0
}

/// One diff, both sides: the lines `new` added (numbered in `new`) and the lines it
/// removed from `old` (numbered in `old`).
pub fn changes(old: &str, new: &str) -> (Numbered, Numbered) {
    let (old_lines, new_lines) = (lines(old), lines(new));
    let ops = similar::capture_diff_deadline(
        Algorithm::Myers,
        &old_lines[..],
        0..old_lines.len(),
        &new_lines[..],
        0..new_lines.len(),
        Some(Instant::now() + TIMEOUT),
    );
    let (mut added, mut removed) = (Vec::new(), Vec::new());
    let take = |out: &mut Numbered, side: &[&str], start: usize, len: usize| {
        for (i, line) in side[start..start + len].iter().enumerate() {
            let number = (start + i) as u32 + 1;
            out.push((number, line.trim_end_matches(['\n', '\r']).to_string()));
        }
    };
    for op in ops {
        match op {
            DiffOp::Insert {
                new_index, new_len, ..
            } => take(&mut added, &new_lines, new_index, new_len),
            DiffOp::Delete {
                old_index, old_len, ..
            } => take(&mut removed, &old_lines, old_index, old_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                take(&mut removed, &old_lines, old_index, old_len);
                take(&mut added, &new_lines, new_index, new_len);
            }
            DiffOp::Equal { .. } => {}
        }
    }
    removed.sort_unstable_by_key(|(n, _)| *n);
    (added, removed)
}

/// The text cut after each `\n`, `\r\n` or lone `\r`, endings kept (how `similar` splits
/// lines). Both bytes are ASCII, so every cut is a char boundary.
fn lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    if !bytes.contains(&b'\r') {
        // The usual text: std's search for one byte is much faster than a byte loop.
        return text.split_inclusive('\n').collect();
    }
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&text[start..=i]);
                start = i + 1;
            }
            b'\r' => {
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                out.push(&text[start..=i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        out.push(&text[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use similar::DiffableStr;

    /// What the gate used before: `TextDiff` over the two texts.
    fn reference(old: &str, new: &str) -> Vec<(u32, String)> {
        reference_sides(old, new).0
    }

    fn reference_sides(old: &str, new: &str) -> (Numbered, Numbered) {
        let diff = similar::TextDiff::configure()
            .algorithm(Algorithm::Myers)
            .timeout(TIMEOUT)
            .diff_lines(old, new);
        let side = |tag: similar::ChangeTag| -> Numbered {
            let mut out: Numbered = diff
                .iter_all_changes()
                .filter(|c| c.tag() == tag)
                .filter_map(|c| {
                    let i = match tag {
                        similar::ChangeTag::Delete => c.old_index(),
                        _ => c.new_index(),
                    }?;
                    Some((
                        i as u32 + 1,
                        c.value().trim_end_matches(['\n', '\r']).to_string(),
                    ))
                })
                .collect();
            out.sort_unstable_by_key(|(n, _)| *n);
            out
        };
        (
            side(similar::ChangeTag::Insert),
            side(similar::ChangeTag::Delete),
        )
    }

    #[test]
    fn splits_lines_like_similar() {
        for text in [
            "",
            "a",
            "a\n",
            "a\nb\n\nc",
            "\n\n",
            "a\r\nb\rc\n\nd",
            "\r\r\n\n",
            "é\rü\n",
        ] {
            assert_eq!(lines(text), text.tokenize_lines(), "{text:?}");
        }
    }

    #[test]
    fn a_line_added_among_repeats_is_placed_where_textdiff_places_it() {
        let old = "a\na\nb\n";
        let new = "a\na\na\nb\n";
        assert_eq!(added_lines(old, new), reference(old, new));
        // Long enough that TextDiff takes its hashing path (over 100 lines).
        let old: String = (0..300).map(|i| format!("line {}\n", i % 7)).collect();
        let new = format!("{}x\n{}", &old[..600], &old[600..]);
        assert_eq!(added_lines(&old, &new), reference(&old, &new));
    }

    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof!["[ab]{0,2}", Just(String::new()), Just("}".to_string())],
            0..120,
        )
        .prop_flat_map(|ls| {
            let n = ls.len();
            (
                Just(ls),
                proptest::collection::vec(prop_oneof!["\n", "\r\n", "\r"], n),
            )
        })
        .prop_map(|(ls, ends)| {
            ls.iter()
                .zip(ends)
                .map(|(l, e)| format!("{l}{e}"))
                .collect()
        })
    }

    proptest! {
        #[test]
        fn the_same_lines_as_textdiff(
            old in text(),
            new in text(),
            cut in any::<bool>(),
            unix in any::<bool>(),
        ) {
            // Sometimes an edit near the end of a shared text, as most edits are.
            let new = if cut { format!("{old}{new}") } else { new };
            // Sometimes `\n` endings only, as most files have.
            let (old, new) = if unix {
                (old.replace('\r', ""), new.replace('\r', ""))
            } else {
                (old, new)
            };
            prop_assert_eq!(added_lines(&old, &new), reference(&old, &new));
            prop_assert_eq!(changes(&old, &new), reference_sides(&old, &new));
        }
    }
}
