//! A JUnit 3 to JUnit 4/5 port is not a new skip. JUnit 3 ran only `testX` methods, so its
//! suites disabled a test by renaming it (`disabled_testX`). A port that gives such a method
//! `@Test` and `@Ignore` together keeps it not running: no test that ran before stops.
//!
//! JUnit 3 also never ran a `testX` method that takes parameters (it runs only no-argument
//! ones), so a port giving such a method `@Test` and `@Disabled` keeps it off as well.
//!
//! The shape is narrow on purpose, so that skipping a test that did run is still caught:
//! the skip and the `@Test` are both added in this change, in the annotation block of a
//! method that could not run before: its unchanged declaration names a JUnit 3 test behind
//! a disabling prefix or takes parameters, or, when the port renamed it (`testX(int m)` to
//! `x(int m)`), a removed declaration of the same name with or without `test` did. The
//! caller also requires the file's test count to rise by at least the number of such
//! methods, since each one is a test that was not counted before.

use std::collections::HashSet;

/// Prefixes that JUnit 3 suites put before `test` to keep a method from running.
const DISABLING: &[&str] = &[
    "disabled", "disable", "ignored", "ignore", "skipped", "skip", "broken", "x", "_",
];

/// Whether the skip annotation on line `at` (1-based) of `lines` is part of such a port.
/// `added` holds the numbers of the lines this change added, `removed` the text of the
/// lines it removed from the file.
pub fn disabled_test_gets_annotations(
    lines: &[&str],
    added: &HashSet<u32>,
    removed: &[&str],
    at: u32,
) -> bool {
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
    if !test_added {
        return false;
    }
    if !is_added(decl) {
        return did_not_run(declaration);
    }
    let Some(name) = method_name(declaration) else {
        return false;
    };
    removed
        .iter()
        .filter(|old| method_name(old).is_some_and(|o| same_method(o, name)))
        .any(|old| did_not_run(old) && takes_parameters(old) == takes_parameters(declaration))
}

/// Whether JUnit 3 would not have run the method declared on `line`.
fn did_not_run(line: &str) -> bool {
    method_name(line).is_some_and(|name| {
        disabled_junit3_name(name)
            || (name.to_ascii_lowercase().starts_with("test") && takes_parameters(line))
    })
}

/// `testParses` and `parses`: a port's renaming keeps the rest of the name.
fn same_method(old: &str, new: &str) -> bool {
    let (old, new) = (old.to_ascii_lowercase(), new.to_ascii_lowercase());
    old == new || old.strip_prefix("test") == Some(new.as_str())
}

/// Whether the declaration's parameter list, opened on this line, is not empty.
fn takes_parameters(line: &str) -> bool {
    line.find('(')
        .is_some_and(|i| !line[i + 1..].trim_start().starts_with(')'))
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
        port_from(text, added, &[], at)
    }

    fn port_from(text: &str, added: &[u32], removed: &[&str], at: u32) -> bool {
        let lines: Vec<&str> = text.lines().collect();
        disabled_test_gets_annotations(&lines, &added.iter().copied().collect(), removed, at)
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

    #[test]
    fn a_junit3_test_taking_parameters_never_ran_so_its_port_is_not_a_skip() {
        // Renamed by the port: the removed declaration took the same parameters.
        let renamed = "    @Disabled // never ran\n    @Test\n    void unclosedArray(int mode) throws Exception\n    {\n";
        let old = ["    public void testUnclosedArray(int mode) throws Exception"];
        assert!(port_from(renamed, &[1, 2, 3], &old, 1));
        // Declaration kept as it was.
        let kept = "  @Test\n  @Disabled\n  public void testX(int mode) {}\n";
        assert!(port(kept, &[1, 2], 2));
    }

    #[test]
    fn a_junit3_test_without_parameters_ran_so_its_port_with_a_skip_is_one() {
        let renamed = "    @Disabled\n    @Test\n    void unclosedArray() throws Exception\n";
        let old = ["    public void testUnclosedArray() throws Exception"];
        assert!(!port_from(renamed, &[1, 2, 3], &old, 1));
        // The port dropped the parameter: the new test would run, the old one did not,
        // but the removed method was another one.
        let other = ["    public void testOther(int mode) throws Exception"];
        let with = "    @Disabled\n    @Test\n    void unclosedArray(int mode) {\n";
        assert!(!port_from(with, &[1, 2, 3], &other, 1));
        // A parameter added in the change: the old no-argument test ran.
        assert!(!port_from(with, &[1, 2, 3], &old, 1));
        // `@Test` not added in this change.
        assert!(!port_from(
            with,
            &[1, 3],
            &["  public void testUnclosedArray(int mode)"],
            1
        ));
    }
}
