//! `deleted_tests`: a test file deleted, renamed out of the test paths, or holding fewer
//! tests than at the comparison point. Renames are followed: a renamed file is compared
//! with the counts of its old path, so a rename that keeps its tests is fine.
//!
//! Counts are compared per file, for test paths and for every Rust file (Rust keeps unit
//! tests inline under `#[cfg(test)]`). Moving tests from one file to another therefore
//! shows as a drop in the file they left.

use super::languages::Lang;
use super::test_paths::TestPaths;
use super::{DeltaKind, FileDelta, Finding, TestCounts};

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
        Some(c) => format!("{} test{}", c.tests, if c.tests == 1 { "" } else { "s" }),
        None => "its tests".into(),
    }
}

/// `new_counts[i]` is `count_tests` of `deltas[i]`'s current text when it was computed.
pub fn deleted_tests(
    deltas: &[&FileDelta],
    new_counts: &[Option<TestCounts>],
    tests: &TestPaths,
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (d, new) in deltas.iter().zip(new_counts) {
        match &d.kind {
            DeltaKind::Added => {}
            DeltaKind::Deleted => {
                if had_tests(&d.path, d.old_counts, tests) {
                    out.push(Finding {
                        path: d.path.clone(),
                        line: None,
                        snippet: format!("{} deleted ({})", d.path, how_many(d.old_counts)),
                        message: format!(
                            "test file `{}` was deleted with {}: restore it; removing tests needs a human's approval",
                            d.path,
                            how_many(d.old_counts)
                        ),
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
                if let Some(f) = count_drop(d, *new, tests) {
                    out.push(f);
                }
            }
        }
    }
    out
}

fn count_drop(d: &FileDelta, new: Option<TestCounts>, tests: &TestPaths) -> Option<Finding> {
    let old = d.old_counts.filter(|c| c.tests > 0)?;
    if !tests.is_counted(&d.path) {
        return None;
    }
    if d.new_text.is_none() {
        return Some(Finding {
            path: d.path.clone(),
            line: None,
            snippet: format!("{}: {} tests, now unreadable", d.shown_path(), old.tests),
            message: format!(
                "`{}` had {} and can no longer be read as text (binary, too large, or a link out of the repository: see the receipt's skipped files), so its tests cannot be counted: restore it",
                d.shown_path(),
                how_many(Some(old))
            ),
        });
    }
    let now = new?;
    (now.tests < old.tests).then(|| Finding {
        path: d.path.clone(),
        line: None,
        snippet: format!("{}: tests {} -> {}", d.shown_path(), old.tests, now.tests),
        message: format!(
            "tests in `{}` dropped from {} to {}: restore the removed or commented-out tests",
            d.shown_path(),
            old.tests,
            now.tests
        ),
    })
}
