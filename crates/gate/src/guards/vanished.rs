//! A removed test whose checked value left the tests: one of its literals (a string of
//! three characters or more: an expected message, an expected output) is held by no test
//! file of the change any more, while the code the change touched still holds it and did
//! not drop it either.
//! Whatever new test resembles it by its frame (the same calls, the same set-up), the case
//! it checked is checked nowhere now: `"Not a valid IPv6 address."` when the IPv6 test is
//! replaced by an IP-interface test built the same way. A value the code itself lost (a
//! message reworded in the source, a format changed) is no such case: its test was
//! rewritten with the code. Nor is a value no code of the change holds: a test input or a
//! fixture's text is free to change with its test, and a message of code the change did
//! not touch cannot be told from input.

use super::account::normalise;
use super::hidden::words;
use super::languages::Lang;
use super::test_paths::TestPaths;
use super::{DeltaKind, FileDelta};

/// What the change's test files hold now, and what its other files lost.
pub struct Remains {
    /// Each line of every test file of the change as it is now, whitespace normalised.
    tests_now: Vec<String>,
    /// Each line the change removed from a file that is no test file, whitespace normalised.
    code_lost: Vec<String>,
    /// Each line of every source file of the change (code, not a test) as it is now.
    code_now: Vec<String>,
}

impl Remains {
    pub fn of(deltas: &[&FileDelta], tests: &TestPaths) -> Remains {
        let mut tests_now = Vec::new();
        let mut code_lost = Vec::new();
        let mut code_now = Vec::new();
        for d in deltas {
            let old_path = match &d.kind {
                DeltaKind::Renamed { from } => from.as_str(),
                _ => d.path.as_str(),
            };
            if tests.is_counted(&d.path) || tests.is_test(&d.path) {
                if let Some(text) = d.new_text.as_deref() {
                    tests_now.extend(text.lines().map(normalise));
                }
            }
            if !tests.is_test(old_path) {
                code_lost.extend(d.removed_lines.iter().map(|l| normalise(&l.text)));
            }
            let source = Lang::from_path(&d.path).is_some_and(|l| !l.is_data());
            if source && !tests.is_test(&d.path) {
                if let Some(text) = d.new_text.as_deref() {
                    code_now.extend(text.lines().map(normalise));
                }
            }
        }
        Remains {
            tests_now,
            code_lost,
            code_now,
        }
    }

    /// The first literal of `body` whose value no test file of the change holds now and
    /// no other file of the change lost, and the code of the change still holds: the check
    /// it made is gone.
    pub fn lost_check(&self, body: &[String]) -> Option<String> {
        words(body).into_iter().find_map(|w| {
            let inner = w.strip_prefix('"')?.strip_suffix('"')?;
            if inner.trim().chars().count() < 3 {
                return None;
            }
            let held = |lines: &[String]| lines.iter().any(|l| l.contains(inner));
            (!held(&self.tests_now) && !held(&self.code_lost) && held(&self.code_now))
                .then(|| inner.to_string())
        })
    }
}
