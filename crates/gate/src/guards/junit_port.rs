//! A JUnit 3 to JUnit 4/5 port is not a new skip. JUnit 3 ran only `testX` methods, so its
//! suites disabled a test by renaming it (`disabled_testX`). A port that gives such a method
//! `@Test` and `@Ignore` together keeps it not running: no test that ran before stops.
//!
//! The shape is narrow on purpose, so that skipping a test that did run is still caught:
//! the skip and the `@Test` are both added in this change, in the annotation block of a
//! method whose declaration line is unchanged and whose name is a JUnit 3 test name behind
//! a disabling prefix. The caller also requires the file's test count to rise by at least
//! the number of such methods, since each one is a test that was not counted before.

use std::collections::HashSet;

/// Prefixes that JUnit 3 suites put before `test` to keep a method from running.
const DISABLING: &[&str] = &[
    "disabled", "disable", "ignored", "ignore", "skipped", "skip", "broken", "x", "_",
];

/// Whether the skip annotation on line `at` (1-based) of `lines` is part of such a port.
/// `added` holds the numbers of the lines this change added.
pub fn disabled_test_gets_annotations(lines: &[&str], added: &HashSet<u32>, at: u32) -> bool {
    let Some(start) = (at as usize).checked_sub(1).filter(|i| *i < lines.len()) else {
        return false;
    };
    let is_added = |i: usize| added.contains(&(i as u32 + 1));
    let in_block = |l: &str| {
        let t = l.trim();
        t.is_empty() || t.starts_with('@') || t.starts_with("//")
    };
    let mut first = start;
    while first > 0 && in_block(lines[first - 1]) {
        first -= 1;
    }
    let mut decl = start + 1;
    while decl < lines.len() && in_block(lines[decl]) {
        decl += 1;
    }
    let Some(declaration) = lines.get(decl) else {
        return false;
    };
    let test_added = (first..decl).any(|i| is_added(i) && has_test_annotation(lines[i]));
    test_added && !is_added(decl) && method_name(declaration).is_some_and(disabled_junit3_name)
}

/// `@Test`, `@Test(...)`, `@org.junit.Test` on the line.
fn has_test_annotation(line: &str) -> bool {
    line.split('@').skip(1).any(|a| {
        let name: String = a
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        name.rsplit('.').next() == Some("Test")
    })
}

/// The identifier right before the first `(` of a method declaration.
fn method_name(line: &str) -> Option<&str> {
    let head = line[..line.find('(')?].trim_end();
    let at = head
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .map_or(0, |i| i + 1);
    Some(&head[at..]).filter(|n| !n.is_empty())
}

/// `disabled_testParses`, `xtestParses`, `_testParses`: not run by JUnit 3, named as a
/// test that was switched off.
fn disabled_junit3_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("test") {
        return false;
    }
    DISABLING.iter().any(|p| {
        lower
            .strip_prefix(p)
            .map(|r| r.trim_start_matches('_'))
            .is_some_and(|r| r.starts_with("test"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(text: &str, added: &[u32], at: u32) -> bool {
        let lines: Vec<&str> = text.lines().collect();
        disabled_test_gets_annotations(&lines, &added.iter().copied().collect(), at)
    }

    const PORTED: &str = "  @Test\n  @Ignore\n  public void disabled_testParses() {\n  }\n";

    #[test]
    fn a_renamed_off_junit3_test_getting_test_and_ignore_is_a_port() {
        assert!(port(PORTED, &[1, 2], 2));
        assert!(port(
            "  @Test @Disabled(\"x\")\n  // why\n  public void disable_testX() {}\n",
            &[1],
            1
        ));
        assert!(port(
            "  @org.junit.Test\n  @Ignore\n  void _testX() {}\n",
            &[1, 2],
            2
        ));
    }

    #[test]
    fn skipping_a_test_that_ran_is_not_a_port() {
        // The method ran before: JUnit 3 name, or `@Test` already there.
        let junit3 = "  @Test\n  @Ignore\n  public void testParses() {\n  }\n";
        assert!(!port(junit3, &[1, 2], 2));
        assert!(!port(PORTED, &[2], 2));
        // The declaration itself changed (renamed in this change).
        assert!(!port(PORTED, &[1, 2, 3], 2));
        // A name that does not say the test was switched off.
        let plain = "  @Test\n  @Ignore\n  public void parsesDates() {\n  }\n";
        assert!(!port(plain, &[1, 2], 2));
        // Annotation on the declaration line, or no declaration at all.
        assert!(!port(
            "  @Test @Ignore public void disabled_testX() {}\n",
            &[1],
            1
        ));
        assert!(!port("  @Test\n  @Ignore\n", &[1, 2], 2));
        assert!(!port(PORTED, &[1, 2], 9));
    }
}
