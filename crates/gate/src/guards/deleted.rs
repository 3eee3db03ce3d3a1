//! `deleted_tests`: a test file deleted, renamed out of the test paths, or holding fewer
//! tests than at the comparison point. Renames are followed: a renamed file is compared
//! with the counts of its old path, so a rename that keeps its tests is fine.
//!
//! Counts are compared per file, for test paths and for every Rust file (Rust keeps unit
//! tests inline under `#[cfg(test)]`), then accounted across the change: a test that left
//! one file for another file of the same change (a test module split in two) moved, it
//! was not deleted. A test is known by its declaration line (`def test_x(`,
//! `it('adds', ...)`, `func TestX(`; for an attribute such as `#[test]` or `@Test`, with
//! the line after it), whitespace aside. A dropped test is netted only against the same
//! declaration added in another file whose own count rose by at least as much, so
//! deleting one test and writing another elsewhere is still a deletion, and a file's
//! removed lines must be known (they are not for a file already dirty at baseline time).

use super::account::normalise;
use super::languages::Lang;
use super::line::LineCtx;
use super::rust_tests::TestMacros;
use super::scan::views;
use super::test_paths::TestPaths;
use super::tests_count::{count_with, tests_on_line};
use super::{DeltaKind, FileDelta, Finding, Line, TestCounts};
use std::collections::BTreeMap;

/// Whether the old file held tests; unknown counts of a test path in a known language
/// count as yes (fail closed), a helper with zero tests as no.
fn had_tests(path: &str, old: Option<TestCounts>, tests: &TestPaths) -> bool {
    match old {
        Some(c) => c.tests > 0,
        None => tests.is_test(path) && Lang::from_path(path).is_some(),
    }
}

fn how_many(old: Option<TestCounts>) -> String {
    match old {
        Some(c) => plural(c.tests),
        None => "its tests".into(),
    }
}

fn plural(n: u32) -> String {
    format!("{n} test{}", if n == 1 { "" } else { "s" })
}

/// A file that holds fewer tests than before, before the change is accounted.
struct Drop {
    at: usize,
    /// Tests lost; `None`: a deleted test file whose count is unknown.
    lost: Option<u32>,
    now: u32,
}

/// `new_counts[i]` is `count_tests` of `deltas[i]`'s current text when it was computed.
pub fn deleted_tests(
    deltas: &[&FileDelta],
    new_counts: &[Option<TestCounts>],
    tests: &TestPaths,
    macros: &TestMacros,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut drops = Vec::new();
    for (at, (d, new)) in deltas.iter().zip(new_counts).enumerate() {
        match &d.kind {
            DeltaKind::Added => {}
            DeltaKind::Deleted => {
                if had_tests(&d.path, d.old_counts, tests) {
                    drops.push(Drop {
                        at,
                        lost: d.old_counts.map(|c| c.tests),
                        now: 0,
                    });
                }
            }
            DeltaKind::Renamed { from }
                if tests.is_test(from)
                    && !tests.is_test(&d.path)
                    && Lang::from_path(&d.path) != Some(Lang::Rust) =>
            {
                if had_tests(from, d.old_counts, tests) {
                    out.push(Finding {
                        path: d.path.clone(),
                        line: None,
                        snippet: format!("{from} -> {}", d.path),
                        message: format!(
                            "test file `{from}` was renamed to `{}`, which no test file pattern matches, so {} no longer run: rename it back to a test path",
                            d.path,
                            how_many(d.old_counts)
                        ),
                    });
                }
            }
            DeltaKind::Modified | DeltaKind::Renamed { .. } => {
                let Some(old) = d.old_counts.filter(|c| c.tests > 0) else {
                    continue;
                };
                if !tests.is_counted(&d.path) {
                    continue;
                }
                if d.new_text.is_none() {
                    out.push(unreadable(d, old));
                    continue;
                }
                if let Some(now) = new {
                    if now.tests < old.tests {
                        drops.push(Drop {
                            at,
                            lost: Some(old.tests - now.tests),
                            now: now.tests,
                        });
                    }
                }
            }
        }
    }
    if drops.is_empty() {
        return out;
    }
    let moved = moved_out(deltas, new_counts, tests, macros, &drops);
    for drop in &drops {
        let d = deltas[drop.at];
        let to: BTreeMap<usize, u32> =
            moved
                .iter()
                .filter(|m| m.0 == drop.at)
                .fold(BTreeMap::new(), |mut acc, m| {
                    *acc.entry(m.1).or_default() += 1;
                    acc
                });
        let gone: u32 = to.values().sum();
        let lost = drop.lost.map(|l| l.saturating_sub(gone));
        if lost == Some(0) {
            continue;
        }
        let moved_note = if to.is_empty() {
            String::new()
        } else {
            let places: Vec<String> = to
                .iter()
                .map(|(j, n)| format!("{n} moved to `{}`", deltas[*j].path))
                .collect();
            format!(" ({})", places.join(", "))
        };
        out.push(match &d.kind {
            DeltaKind::Deleted => Finding {
                path: d.path.clone(),
                line: None,
                snippet: format!("{} deleted ({})", d.path, how_many(d.old_counts)),
                message: format!(
                    "test file `{}` was deleted with {}{moved_note}: restore it; removing tests needs a human's approval",
                    d.path,
                    how_many(d.old_counts)
                ),
            },
            _ => {
                let old = d.old_counts.map_or(0, |c| c.tests);
                Finding {
                    path: d.path.clone(),
                    line: None,
                    snippet: format!("{}: tests {} -> {}", d.shown_path(), old, drop.now),
                    message: format!(
                        "tests in `{}` dropped from {} to {}{moved_note}: restore the removed or commented-out tests",
                        d.shown_path(),
                        old,
                        drop.now
                    ),
                }
            }
        });
    }
    out
}

fn unreadable(d: &FileDelta, old: TestCounts) -> Finding {
    Finding {
        path: d.path.clone(),
        line: None,
        snippet: format!("{}: {} tests, now unreadable", d.shown_path(), old.tests),
        message: format!(
            "`{}` had {} and can no longer be read as text (binary, too large, or a link out of the repository: see the receipt's skipped files), so its tests cannot be counted: restore it",
            d.shown_path(),
            how_many(Some(old))
        ),
    }
}

/// Tests that left a dropping file for another file of the change: `(from, to)` per test.
fn moved_out(
    deltas: &[&FileDelta],
    new_counts: &[Option<TestCounts>],
    tests: &TestPaths,
    macros: &TestMacros,
    drops: &[Drop],
) -> Vec<(usize, usize)> {
    let builtin = TestPaths::default();
    // Files whose test count rose, with the declarations they added and room for as many
    // arrivals as they gained.
    let mut gains: Vec<(usize, u32, Vec<String>)> = Vec::new();
    for (j, d) in deltas.iter().enumerate() {
        let Some(lang) = Lang::from_path(&d.path) else {
            continue;
        };
        if !tests.is_counted(&d.path) {
            continue;
        }
        let is_test = builtin.is_test(&d.path);
        let gained = match (&d.kind, new_counts[j], d.old_counts) {
            (DeltaKind::Deleted, _, _) => continue,
            (DeltaKind::Added, _, _) => d
                .new_text
                .as_deref()
                .map_or(0, |t| count_with(lang, t, is_test, macros).tests),
            (_, Some(now), Some(old)) => now.tests.saturating_sub(old.tests),
            _ => 0,
        };
        if gained > 0 {
            let keys = declarations(&d.added_lines, d.new_text.as_deref(), lang, is_test);
            gains.push((j, gained, keys));
        }
    }
    let mut out = Vec::new();
    if gains.is_empty() {
        return out;
    }
    for drop in drops {
        let d = deltas[drop.at];
        let old_path = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            _ => d.path.as_str(),
        };
        let Some(lang) = Lang::from_path(old_path) else {
            continue;
        };
        let mut room = drop.lost.unwrap_or(0);
        let keys = declarations(
            &d.removed_lines,
            d.old_text.as_deref(),
            lang,
            builtin.is_test(old_path),
        );
        for key in keys {
            if room == 0 {
                break;
            }
            let hit = gains
                .iter_mut()
                .find(|(j, left, added)| *j != drop.at && *left > 0 && added.contains(&key));
            if let Some((j, left, added)) = hit {
                let k = added.iter().position(|k| *k == key).expect("found above");
                added.swap_remove(k);
                *left -= 1;
                room -= 1;
                out.push((drop.at, *j));
            }
        }
    }
    out
}

/// The declaration of each test declared on `lines` (of a file whose whole text is
/// `text`), one entry per test.
fn declarations(lines: &[Line], text: Option<&str>, lang: Lang, is_test: bool) -> Vec<String> {
    let Some(text) = text else {
        return Vec::new();
    };
    let all: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (line, view) in views(lines, Some(text), lang, None) {
        if view.code.trim().is_empty() {
            continue;
        }
        let n = tests_on_line(&LineCtx::new(lang, &view, is_test));
        if n == 0 {
            continue;
        }
        let mut key = normalise(&line.text);
        // An attribute names no test: the line it decorates does.
        if key.starts_with(['#', '@', '[']) {
            let next = all
                .iter()
                .skip(line.number as usize)
                .find(|l| !l.trim().is_empty());
            if let Some(next) = next {
                key.push_str(" / ");
                key.push_str(&normalise(next));
            }
        }
        out.extend(std::iter::repeat_n(key, n as usize));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::count_tests;

    fn lines_of(text: &str) -> Vec<Line> {
        text.lines()
            .enumerate()
            .map(|(i, l)| Line {
                number: i as u32 + 1,
                text: l.into(),
            })
            .collect()
    }

    fn delta(path: &str, kind: DeltaKind, old: Option<&str>, new: Option<&str>) -> FileDelta {
        let (added, removed) = match (old, new) {
            (Some(o), Some(n)) => {
                let (a, r) = crate::comparison::line_changes(o, n);
                let f = |v: Vec<(u32, String)>| {
                    v.into_iter()
                        .map(|(number, text)| Line { number, text })
                        .collect()
                };
                (f(a), f(r))
            }
            (None, Some(n)) => (lines_of(n), Vec::new()),
            (Some(o), None) => (Vec::new(), lines_of(o)),
            (None, None) => (Vec::new(), Vec::new()),
        };
        FileDelta {
            path: path.into(),
            kind,
            added_lines: added,
            removed_lines: removed,
            old_counts: old.map(|o| count_tests(path, o)),
            old_text: old.map(String::from),
            new_text: new.map(String::from),
        }
    }

    fn run(deltas: &[FileDelta]) -> Vec<Finding> {
        let refs: Vec<&FileDelta> = deltas.iter().collect();
        let counts: Vec<Option<TestCounts>> = deltas
            .iter()
            .map(|d| {
                let new = d.new_text.as_deref()?;
                d.old_counts?;
                Some(count_tests(&d.path, new))
            })
            .collect();
        deleted_tests(
            &refs,
            &counts,
            &TestPaths::default(),
            &TestMacros::default(),
        )
    }

    const AB: &str = "def test_a():\n    assert 1\n\ndef test_b():\n    assert 2\n";
    const A: &str = "def test_a():\n    assert 1\n";
    const B: &str = "def test_b():\n    assert 2\n";

    #[test]
    fn a_test_moved_to_another_file_of_the_change_is_not_deleted() {
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A)),
            delta("tests/test_b.py", DeltaKind::Added, None, Some(B)),
        ]);
        assert!(found.is_empty(), "{found:#?}");
        // A whole file split in two, neither half like enough to be its rename.
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Deleted, Some(AB), None),
            delta("tests/test_a.py", DeltaKind::Added, None, Some(A)),
            delta("tests/test_b.py", DeltaKind::Added, None, Some(B)),
        ]);
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn a_test_deleted_while_another_is_written_elsewhere_is_still_deleted() {
        let other = "def test_trivial():\n    assert True\n";
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A)),
            delta("tests/test_c.py", DeltaKind::Added, None, Some(other)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("dropped from 2 to 1"),
            "{found:#?}"
        );
    }

    #[test]
    fn a_move_into_a_file_that_lost_as_many_is_no_cover() {
        // test_b moved into test_cd.py, which dropped test_d: the change lost a test.
        let cd = "def test_c():\n    pass\n\ndef test_d():\n    pass\n";
        let cb = "def test_c():\n    pass\n\ndef test_b():\n    assert 2\n";
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A)),
            delta("tests/test_cd.py", DeltaKind::Modified, Some(cd), Some(cb)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].path, "tests/test_ab.py");
    }

    #[test]
    fn part_moved_part_deleted_reports_the_rest_and_where_the_others_went() {
        let abc = format!("{AB}\ndef test_c():\n    pass\n");
        let found = run(&[
            delta("tests/test_abc.py", DeltaKind::Deleted, Some(&abc), None),
            delta("tests/test_a.py", DeltaKind::Added, None, Some(A)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0]
                .message
                .contains("deleted with 3 tests (1 moved to `tests/test_a.py`)"),
            "{found:#?}"
        );
    }

    #[test]
    fn attribute_declared_tests_are_known_by_the_line_they_decorate() {
        let old = "#[test]\nfn keeps() {}\n\n#[test]\nfn important() {}\n";
        let kept = "#[test]\nfn keeps() {}\n";
        let moved = "#[test]\nfn important() {}\n";
        let other = "#[test]\nfn trivial() {}\n";
        assert!(run(&[
            delta("src/a.rs", DeltaKind::Modified, Some(old), Some(kept)),
            delta("src/b.rs", DeltaKind::Added, None, Some(moved)),
        ])
        .is_empty());
        assert_eq!(
            run(&[
                delta("src/a.rs", DeltaKind::Modified, Some(old), Some(kept)),
                delta("src/b.rs", DeltaKind::Added, None, Some(other)),
            ])
            .len(),
            1
        );
    }

    #[test]
    fn unknown_removed_lines_net_nothing() {
        let mut a = delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A));
        a.removed_lines.clear();
        a.old_text = None;
        let found = run(&[a, delta("tests/test_b.py", DeltaKind::Added, None, Some(B))]);
        assert_eq!(found.len(), 1, "{found:#?}");
    }
}
