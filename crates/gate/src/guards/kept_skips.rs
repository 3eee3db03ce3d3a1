//! A skip line the diff kept while the declaration under it changed.
//!
//! A line diff matches identical lines wherever it can. Rewrite a run of tests that are
//! all `@Disabled` (one renamed, two inserted among them, one dropped) and it keeps the
//! old `@Disabled` lines in place over other tests, and shows as added the ones over
//! tests that were already disabled a few lines away. Judged by the diff's lines, the
//! new skips would be reported on tests that were skipped before, and the tests that are
//! newly skipped would sit under unchanged lines. So a kept skip line whose declaration
//! changed is read as what it is: the skip removed from the old declaration and a skip
//! put on the new one. The accounting then pairs each skip with the one over the same
//! declaration, wherever the diff put it.

use super::account::normalise;
use super::scan::{declaration, ANNOTATION_LINES};
use super::{FileDelta, Line};

/// The kept lines of `d` that may be a skip on a line of its own (an annotation, an
/// attribute, a decorator) and whose declaration is not the one it was over: as lines of
/// the old text (the removed side) and of the new text (the added side). Empty unless
/// both texts are known and the diff's lines fit them.
pub fn reanchored(d: &FileDelta) -> (Vec<Line>, Vec<Line>) {
    let none = (Vec::new(), Vec::new());
    let (Some(old), Some(new)) = (d.old_text.as_deref(), d.new_text.as_deref()) else {
        return none;
    };
    if (d.added_lines.is_empty() && d.removed_lines.is_empty())
        || super::Lang::from_path(&d.path).is_none()
    {
        return none;
    }
    let (old_lines, new_lines): (Vec<&str>, Vec<&str>) =
        (old.split('\n').collect(), new.split('\n').collect());
    let numbers = |lines: &[Line]| {
        let mut v: Vec<usize> = lines.iter().map(|l| l.number as usize).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (removed, added) = (numbers(&d.removed_lines), numbers(&d.added_lines));
    let kept = |all: &[&str], changed: &[usize]| -> Vec<usize> {
        (1..=all.len())
            .filter(|n| changed.binary_search(n).is_err())
            .collect()
    };
    let (old_kept, new_kept) = (kept(&old_lines, &removed), kept(&new_lines, &added));
    let strip = |s: &str| s.strip_suffix('\r').unwrap_or(s).to_string();
    // A changed line within reach below: only then can the declaration differ.
    let changed_below = |changed: &[usize], n: usize| {
        let at = changed.partition_point(|&c| c <= n);
        changed.get(at).is_some_and(|&c| c - n <= ANNOTATION_LINES)
    };
    let decl = |own: &str, all: &[&str], n: usize| {
        declaration(own, all, n).map(|a| normalise(a.split('{').next().unwrap_or(a)))
    };
    let (mut gone, mut put) = (Vec::new(), Vec::new());
    if old_kept.len() != new_kept.len() {
        return none;
    }
    for (&o, &n) in old_kept.iter().zip(&new_kept) {
        let (was, now) = (old_lines[o - 1], new_lines[n - 1]);
        if strip(was) != strip(now) {
            // The diff's lines do not fit the texts (lines left out as already dirty).
            return none;
        }
        if !now.trim_start().starts_with(['@', '#', '['])
            || !(changed_below(&removed, o) || changed_below(&added, n))
        {
            continue;
        }
        let (before, after) = (decl(was, &old_lines, o), decl(now, &new_lines, n));
        if before.is_some() && after.is_some() && before != after {
            gone.push(Line {
                number: o as u32,
                text: strip(was),
            });
            put.push(Line {
                number: n as u32,
                text: strip(now),
            });
        }
    }
    (gone, put)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::DeltaKind;

    /// `old` and `new` with the diff given as the numbers of the removed and added lines.
    fn delta(old: &str, new: &str, removed: &[u32], added: &[u32]) -> FileDelta {
        let pick = |text: &str, numbers: &[u32]| {
            let all: Vec<&str> = text.split('\n').collect();
            numbers
                .iter()
                .map(|&n| Line {
                    number: n,
                    text: all[n as usize - 1].into(),
                })
                .collect()
        };
        FileDelta {
            path: "T.java".into(),
            kind: DeltaKind::Modified,
            added_lines: pick(new, added),
            removed_lines: pick(old, removed),
            old_text: Some(old.into()),
            old_counts: None,
            new_text: Some(new.into()),
        }
    }

    const OLD: &str = "class T {\n    @Disabled\n    void a() {}\n}";
    /// A test inserted over `a`, both disabled.
    const NEW: &str =
        "class T {\n    @Disabled\n    void b() {}\n\n    @Disabled\n    void a() {}\n}";

    #[test]
    fn a_kept_skip_over_another_declaration_is_removed_there_and_put_here() {
        // The diff kept line 2 over `b` and added `a`'s `@Disabled` (line 5).
        let (gone, put) = reanchored(&delta(OLD, NEW, &[], &[3, 4, 5]));
        let numbers = |v: &[Line]| v.iter().map(|l| l.number).collect::<Vec<_>>();
        assert_eq!((numbers(&gone), numbers(&put)), (vec![2], vec![2]));
        assert_eq!(put[0].text, "    @Disabled");
    }

    #[test]
    fn a_kept_skip_over_the_same_declaration_or_text_left_unknown_is_nothing() {
        // The diff that added `b` whole keeps line 2 over `a`, where it was.
        assert_eq!(
            reanchored(&delta(OLD, NEW, &[], &[2, 3, 4])),
            (vec![], vec![])
        );
        let mut d = delta(OLD, NEW, &[], &[3, 4, 5]);
        d.old_text = None;
        assert_eq!(reanchored(&d), (vec![], vec![]));
        // Lines that do not fit the texts (some left out as already dirty): nothing.
        assert_eq!(reanchored(&delta(OLD, NEW, &[], &[3, 4])), (vec![], vec![]));
    }
}
