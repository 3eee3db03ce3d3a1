//! The lines a change added to a file: a Myers line diff, as short as the one
//! `similar::TextDiff::diff_lines` gives, at a fraction of its cost on the usual edit (a
//! few lines changed in a long file). `TextDiff` splits lines char by char and hashes every
//! line into a table before diffing; here lines are split on bytes and compared as they
//! are, and Myers' own prefix and suffix trimming skips the unchanged bulk with memcmp.
//!
//! **Which of two identical lines was added.** A block inserted next to lines that repeat
//! its own edges (a method with `@Override` inserted over another method with
//! `@Override`, a test with `// nolint: dupl` over another such test) can be placed at
//! several offsets, all equally short. Myers picks one by its search order, often the one
//! that counts the old method's annotation as added and the new one's as unchanged, so a
//! finding would point at a line nobody touched. Of those placements, a block that ends
//! with a blank line is taken (the last such), as `git diff` shows it: code is separated by
//! blank lines, so the block is then whole units, each annotation with its code. Where no
//! placement ends with a blank line, Myers' own stays.

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
    // How many of the unchanged lines before the next block the last one slid down over:
    // blocks slide over unchanged lines only, never into each other.
    let mut taken = 0usize;
    for (k, op) in ops.iter().enumerate() {
        // How many unchanged lines lie just before and just after this op.
        let equal_len = |i: Option<usize>| match i.and_then(|i| ops.get(i)) {
            Some(DiffOp::Equal { len, .. }) => *len,
            _ => 0,
        };
        let before = equal_len(k.checked_sub(1)).saturating_sub(taken);
        let after = equal_len(Some(k + 1));
        match *op {
            DiffOp::Insert {
                new_index, new_len, ..
            } => {
                let (lo, hi) = (
                    new_index.saturating_sub(before),
                    new_index + new_len + after,
                );
                let start = placed(&new_lines, new_index, new_len, lo, hi);
                take(&mut added, &new_lines, start, new_len);
                taken = start.saturating_sub(new_index);
            }
            DiffOp::Delete {
                old_index, old_len, ..
            } => {
                let (lo, hi) = (
                    old_index.saturating_sub(before),
                    old_index + old_len + after,
                );
                let start = placed(&old_lines, old_index, old_len, lo, hi);
                take(&mut removed, &old_lines, start, old_len);
                taken = start.saturating_sub(old_index);
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                take(&mut removed, &old_lines, old_index, old_len);
                take(&mut added, &new_lines, new_index, new_len);
                taken = 0;
            }
            DiffOp::Equal { .. } => {}
        }
    }
    removed.sort_unstable_by_key(|(n, _)| *n);
    (added, removed)
}

/// Where the block of `len` lines of `side` that Myers put at `start` is shown: it may
/// slide over the unchanged lines in `lo..hi` around it while the line it leaves behind
/// equals the one it takes in. The last placement that ends with a blank line, else
/// `start` (see the module's notes).
fn placed(side: &[&str], start: usize, len: usize, lo: usize, hi: usize) -> usize {
    if len == 0 {
        return start;
    }
    let hi = hi.min(side.len());
    let mut top = start;
    while top > lo && side[top - 1] == side[top + len - 1] {
        top -= 1;
    }
    let mut bottom = start;
    while bottom + len < hi && side[bottom] == side[bottom + len] {
        bottom += 1;
    }
    (top..=bottom)
        .rev()
        .find(|&s| side[s + len - 1].trim().is_empty())
        .unwrap_or(start)
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
            let (added, removed) = changes(&old, &new);
            let (ref_added, ref_removed) = reference_sides(&old, &new);
            // As short as TextDiff's, and a diff: what both texts keep is the same.
            prop_assert_eq!(added.len(), ref_added.len());
            prop_assert_eq!(removed.len(), ref_removed.len());
            let kept = |text: &str, changed: &Numbered| -> Vec<String> {
                let gone: std::collections::HashSet<u32> = changed.iter().map(|c| c.0).collect();
                lines(text)
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !gone.contains(&(*i as u32 + 1)))
                    .map(|(_, l)| l.trim_end_matches(['\n', '\r']).to_string())
                    .collect()
            };
            prop_assert_eq!(kept(&old, &removed), kept(&new, &added));
            // Blocks are only moved to end at a blank line: without one, TextDiff's answer.
            let blank = |t: &str| lines(t).iter().any(|l| l.trim().is_empty());
            if !blank(&old) && !blank(&new) {
                prop_assert_eq!(added, ref_added);
                prop_assert_eq!(removed, ref_removed);
            }
            prop_assert_eq!(added_lines(&old, &new), changes(&old, &new).0);
        }
    }

    #[test]
    fn a_block_inserted_over_its_twin_is_the_one_with_its_code() {
        // A test with `// nolint: dupl` inserted over another test that has it: Myers
        // counts the old test's marker as added and the new one's as kept.
        let old = "}\n\n// nolint: dupl\nfunc TestOld() {\n}\n";
        let new =
            "}\n\n// nolint: dupl\nfunc TestNew() {\n}\n\n// nolint: dupl\nfunc TestOld() {\n}\n";
        let want: Numbered = [
            (3, "// nolint: dupl"),
            (4, "func TestNew() {"),
            (5, "}"),
            (6, ""),
        ]
        .iter()
        .map(|(n, t)| (*n, t.to_string()))
        .collect();
        assert_eq!(added_lines(old, new), want);
        // Removed the same way: the block that goes is the one with the test removed.
        assert_eq!(changes(new, old).1, want);
        // Two annotations over a method inserted over another annotated method.
        let old = "  }\n\n  @Override\n  @SuppressWarnings(\"unchecked\")\n  T old() {\n  }\n}\n";
        let new = "  }\n\n  @Override\n  @SuppressWarnings(\"unchecked\")\n  T fresh() {\n  }\n\n  @Override\n  @SuppressWarnings(\"unchecked\")\n  T old() {\n  }\n}\n";
        let numbers: Vec<u32> = added_lines(old, new).iter().map(|l| l.0).collect();
        assert_eq!(numbers, vec![3, 4, 5, 6, 7]);
        // No placement ends with a blank line: Myers' own stays.
        let old = "@x\nf\n";
        let new = "@x\ng\n@x\nf\n";
        assert_eq!(added_lines(old, new), reference(old, new));
    }
}
