//! Following renames: pairing deleted paths with added ones by content.
//!
//! git's own rename detection depends on the repository's and the user's config
//! (`diff.renames`, `status.renames`, `diff.renameLimit`, even `copies`), and a config is
//! something the judged agent can write. So loopgate asks git for additions and deletions
//! only and pairs them here, the same way everywhere:
//!
//! 1. identical content (same hash) pairs first;
//! 2. then text files whose lines overlap: a pair qualifies when the lines the two share
//!    (as a multiset, blank lines ignored, a trailing `\r` ignored) are at least
//!    [`MIN_SIMILARITY_PERCENT`] of the longer file's lines. A qualifying pair with the
//!    same file name goes first (a moved directory keeps its file names even when content
//!    also moved between its files), then the best score; among equal scores the pair
//!    whose file names differ least (variants written beside each other, `t_py39.py` and
//!    `t_an_py39.py`, for `t.py` and `t_an.py`); then path order, so the answer is
//!    deterministic.
//!
//! Cost is bounded: files over [`MAX_COMPARE_BYTES`] or holding a NUL byte (binary) only
//! pair exactly, and the line comparisons stop after [`MAX_COMPARE_WORK`] lines compared in
//! total (same-name pairs are tried first). Anything left unpaired stays a deletion plus an
//! addition, which the guards judge more strictly, never less.

use std::collections::HashMap;

/// Shared lines, as a share of the longer file's lines, for two files to be a rename.
pub const MIN_SIMILARITY_PERCENT: usize = 50;
/// Larger files pair only when identical.
pub const MAX_COMPARE_BYTES: usize = 512 * 1024;
/// Total lines walked by line comparisons before giving up on the remaining pairs.
pub const MAX_COMPARE_WORK: usize = 20_000_000;

/// One side of a possible rename: a deleted path (its old content) or an added path (its
/// new content).
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    pub path: &'a str,
    /// The whole content, when it could be read.
    pub bytes: Option<&'a [u8]>,
    /// A hash of the content, when it is known better than by the bytes (a file recorded
    /// by hash in a session baseline): exact pairing uses it, line similarity the bytes.
    /// Compared with [`content_hash`] of the other side.
    pub hash: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    pub from: String,
    pub to: String,
    /// Shared lines in percent; 100 for identical content.
    pub similarity: u8,
}

/// The hash [`Side::hash`] is compared with: BLAKE3, hex (what session baselines record).
pub fn content_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Pair `deleted` with `added`; each path appears in at most one rename.
pub fn pair(deleted: &[Side], added: &[Side]) -> Vec<Rename> {
    let mut out = Vec::new();
    if deleted.is_empty() || added.is_empty() {
        return out;
    }
    // A recorded hash is the truth about that side's content; the bytes may be older
    // (the commit's, under a file that was dirty at baseline time). An empty file says
    // nothing about where it came from.
    let empty = content_hash(b"");
    let key = |s: &Side| -> Option<String> {
        match (s.hash, s.bytes) {
            (Some(h), _) => Some(h.to_string()),
            (None, Some(b)) => Some(content_hash(b)),
            (None, None) => None,
        }
        .filter(|k| *k != empty)
    };
    let mut used_from = vec![false; deleted.len()];
    let mut used_to = vec![false; added.len()];

    // 1. Exact: by hash; among equal candidates, the same file name, then path order.
    let mut by_hash: HashMap<String, Vec<usize>> = HashMap::new();
    for (j, a) in added.iter().enumerate() {
        if let Some(k) = key(a) {
            by_hash.entry(k).or_default().push(j);
        }
    }
    let mut order: Vec<usize> = (0..deleted.len()).collect();
    order.sort_by(|&x, &y| deleted[x].path.cmp(deleted[y].path));
    for i in order {
        let Some(k) = key(&deleted[i]) else { continue };
        let Some(js) = by_hash.get(&k) else { continue };
        let best = js
            .iter()
            .copied()
            .filter(|&j| !used_to[j])
            .min_by(|&x, &y| {
                let same = |j: usize| base_name(added[j].path) != base_name(deleted[i].path);
                (same(x), added[x].path).cmp(&(same(y), added[y].path))
            });
        if let Some(j) = best {
            used_from[i] = true;
            used_to[j] = true;
            out.push(Rename {
                from: deleted[i].path.to_string(),
                to: added[j].path.to_string(),
                similarity: 100,
            });
        }
    }

    // 2. Similar: line multisets of the remaining text files.
    let lines_of = |s: &Side| s.bytes.and_then(comparable_lines);
    let from_lines: Vec<Option<Vec<u64>>> = deleted
        .iter()
        .enumerate()
        .map(|(i, s)| (!used_from[i]).then(|| lines_of(s)).flatten())
        .collect();
    let to_lines: Vec<Option<Vec<u64>>> = added
        .iter()
        .enumerate()
        .map(|(j, s)| (!used_to[j]).then(|| lines_of(s)).flatten())
        .collect();
    let mut tries: Vec<(bool, usize, usize)> = Vec::new();
    for (i, f) in from_lines.iter().enumerate() {
        for (j, t) in to_lines.iter().enumerate() {
            if let (Some(f), Some(t)) = (f, t) {
                let (short, long) = (f.len().min(t.len()), f.len().max(t.len()));
                // Shared lines cannot exceed the shorter file: skip pairs that cannot reach.
                if short * 100 >= MIN_SIMILARITY_PERCENT * long {
                    let same = base_name(deleted[i].path) == base_name(added[j].path);
                    tries.push((!same, i, j));
                }
            }
        }
    }
    tries.sort_by(|a, b| {
        (a.0, deleted[a.1].path, added[a.2].path).cmp(&(b.0, deleted[b.1].path, added[b.2].path))
    });
    let mut work = 0usize;
    let mut scored: Vec<(usize, bool, usize, usize)> = Vec::new();
    for (other_name, i, j) in tries {
        let (f, t) = (
            from_lines[i].as_ref().expect("tried"),
            to_lines[j].as_ref().expect("tried"),
        );
        work += f.len() + t.len();
        if work > MAX_COMPARE_WORK {
            break;
        }
        let shared = shared_count(f, t);
        let long = f.len().max(t.len());
        if shared * 100 >= MIN_SIMILARITY_PERCENT * long {
            scored.push((shared * 100 / long, other_name, i, j));
        }
    }
    // Equal shares (variants of one file added beside each other, `t_py39.py` and
    // `t_an_py39.py`, each as like `t.py` as the other): the names that differ least.
    let names_apart = |i: usize, j: usize| name_distance(deleted[i].path, added[j].path);
    scored.sort_by(|a, b| {
        (
            a.1,
            std::cmp::Reverse(a.0),
            names_apart(a.2, a.3),
            deleted[a.2].path,
            added[a.3].path,
        )
            .cmp(&(
                b.1,
                std::cmp::Reverse(b.0),
                names_apart(b.2, b.3),
                deleted[b.2].path,
                added[b.3].path,
            ))
    });
    for (score, _, i, j) in scored {
        if used_from[i] || used_to[j] {
            continue;
        }
        used_from[i] = true;
        used_to[j] = true;
        out.push(Rename {
            from: deleted[i].path.to_string(),
            to: added[j].path.to_string(),
            // 100 is kept for identical content.
            similarity: score.min(99) as u8,
        });
    }
    out.sort_by(|a, b| a.to.cmp(&b.to));
    out
}

/// How many characters must be deleted from one file name and inserted to make the other
/// (`t_an.py` is 5 from `t_an_py39.py`, 6 from `t_py39.py`): their lengths less twice their
/// longest common subsequence.
fn name_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (
        base_name(a).chars().collect(),
        base_name(b).chars().collect(),
    );
    let mut row = vec![0usize; b.len() + 1];
    for &x in &a {
        let mut diagonal = 0;
        for (k, &y) in b.iter().enumerate() {
            let above = row[k + 1];
            row[k + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[k])
            };
            diagonal = above;
        }
    }
    a.len() + b.len() - 2 * row[b.len()]
}

/// The sorted hashes of a text's non-blank lines; `None` for binary or oversized content
/// or a text with no such line.
fn comparable_lines(bytes: &[u8]) -> Option<Vec<u64>> {
    if bytes.len() > MAX_COMPARE_BYTES || bytes.contains(&0) {
        return None;
    }
    let mut lines: Vec<u64> = bytes
        .split(|b| *b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .map(fnv1a)
        .collect();
    if lines.is_empty() {
        return None;
    }
    lines.sort_unstable();
    Some(lines)
}

/// A fixed, fast line hash (FNV-1a): stable across runs and platforms.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Size of the multiset intersection of two sorted lists.
fn shared_count(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn side<'a>(path: &'a str, text: &'a str) -> Side<'a> {
        Side {
            path,
            bytes: Some(text.as_bytes()),
            hash: None,
        }
    }

    fn pairs(renames: &[Rename]) -> Vec<(&str, &str, u8)> {
        renames
            .iter()
            .map(|r| (r.from.as_str(), r.to.as_str(), r.similarity))
            .collect()
    }

    const A: &str = "test('a', () => {});\ntest.skip('b', () => {});\ntest('c', () => {});\n";
    const B: &str = "def test_x():\n    pass\n\ndef test_y():\n    assert f()\n";

    #[test]
    fn identical_content_pairs_first_and_prefers_the_same_name() {
        let deleted = [side("old/a.test.js", A), side("old/b.py", B)];
        let added = [
            side("new/copy.test.js", A),
            side("new/a.test.js", A),
            side("new/b.py", B),
        ];
        assert_eq!(
            pairs(&pair(&deleted, &added)),
            vec![
                ("old/a.test.js", "new/a.test.js", 100),
                ("old/b.py", "new/b.py", 100)
            ]
        );
    }

    #[test]
    fn equal_shares_pair_the_names_that_differ_least() {
        // Both old files share as many lines with both new ones; each new name extends
        // one old name.
        let (plain, annotated) = ("import a\nx = 1\ny = 2\n", "import a\nx = 1\ny = 2\nz\n");
        let now = "import a\nx = 1\ny = 2\nw\n";
        let deleted = [side("d/t2.py", plain), side("d/t2_an.py", annotated)];
        let added = [side("d/t2_an_py39.py", now), side("d/t2_py39.py", now)];
        assert_eq!(
            pairs(&pair(&deleted, &added)),
            vec![
                ("d/t2_an.py", "d/t2_an_py39.py", 75),
                ("d/t2.py", "d/t2_py39.py", 75)
            ]
        );
        assert_eq!(name_distance("d/t2_an.py", "t2_an_py39.py"), 5);
        assert_eq!(name_distance("t2_an.py", "t2_py39.py"), 6);
    }

    #[test]
    fn a_recorded_hash_pairs_with_matching_bytes() {
        let h = content_hash(A.as_bytes());
        let deleted = [Side {
            path: "was.test.js",
            bytes: None,
            hash: Some(&h),
        }];
        let added = [side("is.test.js", A)];
        assert_eq!(
            pairs(&pair(&deleted, &added)),
            vec![("was.test.js", "is.test.js", 100)]
        );
    }

    #[test]
    fn similar_text_pairs_at_the_threshold_and_not_below() {
        // 4 lines, 2 shared: exactly 50%.
        let old = "one\ntwo\nthree\nfour\n";
        let half = "one\ntwo\nfive\nsix\n";
        let less = "one\nfive\nsix\nseven\n";
        assert_eq!(
            pairs(&pair(&[side("a.txt", old)], &[side("b.txt", half)])),
            vec![("a.txt", "b.txt", 50)]
        );
        assert!(pair(&[side("a.txt", old)], &[side("b.txt", less)]).is_empty());
        // A dropped test keeps the file recognisable.
        let dropped = "test('a', () => {});\ntest('c', () => {});\n";
        assert_eq!(
            pairs(&pair(
                &[side("t/a.test.js", A)],
                &[side("u/a.test.js", dropped)]
            )),
            vec![("t/a.test.js", "u/a.test.js", 66)]
        );
    }

    #[test]
    fn best_score_wins_and_each_path_pairs_once() {
        let old = "a\nb\nc\nd\n";
        let deleted = [side("x", old)];
        let added = [side("y", "a\nb\nc\nz\n"), side("z", "a\nb\nq\nz\n")];
        assert_eq!(pairs(&pair(&deleted, &added)), vec![("x", "y", 75)]);
    }

    #[test]
    fn the_same_file_name_wins_over_a_better_score_elsewhere() {
        // A directory moved while a block moved from one of its files to the other: the
        // bigger file is more like the other's new text, yet each file is its own rename.
        let old_a = "a1\na2\na3\nb1\nb2\nshared\n";
        let old_b = "b1\nb2\nshared\nb3\n";
        let new_a = "a1\na2\na3\nshared\n";
        let new_b = "b1\nb2\nshared\nb3\na3\na2\n";
        let got = pair(
            &[side("old/a.py", old_a), side("old/b.py", old_b)],
            &[side("new/a.py", new_a), side("new/b.py", new_b)],
        );
        let names: Vec<(&str, &str)> = got
            .iter()
            .map(|r| (r.from.as_str(), r.to.as_str()))
            .collect();
        assert_eq!(
            names,
            vec![("old/a.py", "new/a.py"), ("old/b.py", "new/b.py")]
        );
    }

    #[test]
    fn empty_binary_blank_and_huge_files_pair_only_exactly() {
        assert!(pair(&[side("a", "")], &[side("b", "")]).is_empty());
        assert!(pair(&[side("a", "\n \n")], &[side("b", "\n\n")]).is_empty());
        let bin_old = "x\0y\nsame\n";
        let bin_new = "x\0z\nsame\n";
        assert!(pair(&[side("a", bin_old)], &[side("b", bin_new)]).is_empty());
        let big = "line\n".repeat(MAX_COMPARE_BYTES / 5 + 1);
        let big2 = format!("{big}extra\n");
        assert!(pair(&[side("a", &big)], &[side("b", &big2)]).is_empty());
        assert_eq!(pair(&[side("a", &big)], &[side("b", &big)]).len(), 1);
        assert_eq!(pair(&[side("a", bin_old)], &[side("b", bin_old)]).len(), 1);
    }

    #[test]
    fn unreadable_sides_stay_unpaired() {
        let none = Side {
            path: "gone",
            bytes: None,
            hash: None,
        };
        assert!(pair(&[none], &[side("b", A)]).is_empty());
        assert!(pair(&[], &[side("b", A)]).is_empty());
    }

    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec("[a-c]{0,3}", 0..8).prop_map(|ls| ls.join("\n"))
    }

    proptest! {
        #[test]
        fn pairs_are_one_to_one_real_and_above_threshold(
            old in proptest::collection::vec(text(), 0..6),
            new in proptest::collection::vec(text(), 0..6),
        ) {
            let dn: Vec<String> = (0..old.len()).map(|i| format!("d{i}")).collect();
            let an: Vec<String> = (0..new.len()).map(|i| format!("a{i}")).collect();
            let deleted: Vec<Side> = old.iter().zip(&dn).map(|(t, p)| side(p, t)).collect();
            let added: Vec<Side> = new.iter().zip(&an).map(|(t, p)| side(p, t)).collect();
            let got = pair(&deleted, &added);
            let mut froms: Vec<&str> = got.iter().map(|r| r.from.as_str()).collect();
            let mut tos: Vec<&str> = got.iter().map(|r| r.to.as_str()).collect();
            froms.sort();
            froms.dedup();
            tos.sort();
            tos.dedup();
            prop_assert_eq!(froms.len(), got.len());
            prop_assert_eq!(tos.len(), got.len());
            for r in &got {
                let i: usize = r.from[1..].parse().unwrap();
                let j: usize = r.to[1..].parse().unwrap();
                prop_assert!(r.similarity as usize >= MIN_SIMILARITY_PERCENT);
                if r.similarity == 100 {
                    prop_assert!(!old[i].is_empty());
                } else {
                    prop_assert!(old[i] != new[j]);
                }
            }
            // Deterministic, and the same whatever order the sides come in.
            let mut rev_d = deleted.clone();
            rev_d.reverse();
            let mut rev_a = added.clone();
            rev_a.reverse();
            prop_assert_eq!(pair(&rev_d, &rev_a), got);
        }

        #[test]
        fn an_identical_file_always_pairs(t in "[a-z]{1,5}(\n[a-z]{0,5}){0,6}") {
            let got = pair(&[side("old/x.rs", &t)], &[side("new/x.rs", &t)]);
            prop_assert_eq!(pairs(&got), vec![("old/x.rs", "new/x.rs", 100)]);
        }
    }
}
