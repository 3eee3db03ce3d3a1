//! A removed test whose checked value left the tests: one of its literals (a string of
//! three characters or more: an expected message, an expected output) is held by no test
//! file of the change any more, while the code the change touched did not drop it either.
//! Whatever new test resembles it by its frame (the same calls, the same set-up), the case
//! it checked is checked nowhere now: `"Not a valid IPv6 address."` when the IPv6 test is
//! replaced by an IP-interface test built the same way. A value the code itself lost (a
//! message reworded in the source, a format changed) is no such case: its test was
//! rewritten with the code.

use super::account::normalise;
use super::hidden::words;
use super::test_paths::TestPaths;
use super::{DeltaKind, FileDelta};

/// What the change's test files hold now, and what its other files lost.
pub struct Remains {
    /// Each line of every test file of the change as it is now, whitespace normalised.
    tests_now: Vec<String>,
    /// Each line the change removed from a file that is no test file, whitespace normalised.
    code_lost: Vec<String>,
}

impl Remains {
    pub fn of(deltas: &[&FileDelta], tests: &TestPaths) -> Remains {
        let mut tests_now = Vec::new();
        let mut code_lost = Vec::new();
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
        }
        Remains {
            tests_now,
            code_lost,
        }
    }

    /// The first literal of `body` whose value no test file of the change holds now and
    /// no other file of the change lost: the check it made is gone.
    pub fn lost_check(&self, body: &[String]) -> Option<String> {
        words(body).into_iter().find_map(|w| {
            let inner = w.strip_prefix('"')?.strip_suffix('"')?;
            if inner.trim().chars().count() < 3 {
                return None;
            }
            let held = |lines: &[String]| lines.iter().any(|l| l.contains(inner));
            (!held(&self.tests_now) && !held(&self.code_lost)).then(|| inner.to_string())
        })
    }
}
