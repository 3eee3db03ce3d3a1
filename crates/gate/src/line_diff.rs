//! The lines a change added to a file: a Myers line diff, the same answer as
//! `similar::TextDiff::diff_lines` gives, at a fraction of its cost on the usual edit (a
//! few lines changed in a long file). `TextDiff` splits lines char by char and hashes every
//! line into a table before diffing; here lines are split on bytes and compared as they
//! are, and Myers' own prefix and suffix trimming skips the unchanged bulk with memcmp.

use similar::{Algorithm, DiffOp};
use std::time::{Duration, Instant};

/// A pathological pair gets a coarser diff rather than an unbounded one.
const TIMEOUT: Duration = Duration::from_millis(200);

/// Lines of `new` that are not in `old`, numbered in `new` (1-based), without their line
/// ending.
pub fn added_lines(old: &str, new: &str) -> Vec<(u32, String)> {
    let (old_lines, new_lines) = (lines(old), lines(new));
    let ops = similar::capture_diff_deadline(
        Algorithm::Myers,
        &old_lines[..],
        0..old_lines.len(),
        &new_lines[..],
        0..new_lines.len(),
        Some(Instant::now() + TIMEOUT),
    );
    let mut added = Vec::new();
    for op in ops {
        let (start, len) = match op {
            DiffOp::Insert {
                new_index, new_len, ..
            }
            | DiffOp::Replace {
                new_index, new_len, ..
            } => (new_index, new_len),
            DiffOp::Equal { .. } | DiffOp::Delete { .. } => continue,
        };
        for (i, line) in new_lines[start..start + len].iter().enumerate() {
            let number = (start + i) as u32 + 1;
            added.push((number, line.trim_end_matches(['\n', '\r']).to_string()));
        }
    }
    added
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
        let diff = similar::TextDiff::configure()
            .algorithm(Algorithm::Myers)
            .timeout(TIMEOUT)
            .diff_lines(old, new);
        diff.iter_all_changes()
            .filter(|c| c.tag() == similar::ChangeTag::Insert)
            .filter_map(|c| {
                let number = c.new_index()? as u32 + 1;
                Some((number, c.value().trim_end_matches(['\n', '\r']).to_string()))
            })
            .collect()
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
        }
    }
}
