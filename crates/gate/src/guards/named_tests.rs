//! A skip written on a test's own declaration line (`test.failing('a', ..)`, `xit 'a' do`)
//! belongs to the test that line names. Two such skips on tests of different names are
//! one skip removed from a test and another put on a second test, not one skip rewritten,
//! when either test is declared on both sides of the change: the test the skip came off
//! still runs, and the one it went onto ran before without it.

use super::scan::Mark;
use super::skips::family;

/// The quoted name a declaration line gives its test (quotes included), when the line
/// opens with a call or statement (`test.failing(`, `it `) whose first argument is a
/// string literal.
pub fn test_name(line: &str) -> Option<&str> {
    let start = line.find(['\'', '"', '`'])?;
    let head = line[..start].trim_start();
    let plain = |c: char| c.is_alphanumeric() || "_.$ \t".contains(c);
    if head.is_empty() || !head.ends_with(['(', ' ']) {
        return None;
    }
    let callee = head.trim_end().trim_end_matches('(').trim_end();
    if callee.is_empty() || !callee.chars().all(plain) {
        return None;
    }
    let quote = line[start..].chars().next()?;
    let mut escaped = false;
    for (i, c) in line[start + 1..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            _ if c == quote => return Some(&line[start..start + 1 + i + 1]),
            _ => {}
        }
    }
    None
}

/// Whether `text` declares a test of this quoted name on some line.
fn declares(text: &str, name: &str) -> bool {
    text.contains(name) && text.split('\n').any(|l| test_name(l) == Some(name))
}

/// Whether the declaration skips `old` (removed) and `new` (added) sit on two different
/// tests, either of which is declared on both sides: then they are not one skip
/// rewritten. A test renamed under its skip (neither name on the other side) still pairs.
pub fn on_another_test(
    old: &Mark,
    new: &Mark,
    old_text: Option<&str>,
    new_text: Option<&str>,
) -> bool {
    if old.anchor.is_some() || new.anchor.is_some() || family(&old.label) == "body.skip" {
        return false;
    }
    let (Some(was), Some(now)) = (test_name(old.text), test_name(new.text)) else {
        return false;
    };
    was != now
        && (new_text.is_some_and(|t| declares(t, was))
            || old_text.is_some_and(|t| declares(t, now)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(label: &str, text: &'static str) -> Mark<'static> {
        Mark {
            file: 0,
            line: 1,
            label: label.into(),
            text,
            anchor: None,
            next: None,
        }
    }

    #[test]
    fn a_declaration_line_names_its_test() {
        assert_eq!(test_name("test.failing('a b', async t => {"), Some("'a b'"));
        assert_eq!(test_name("  xit \"it's\" do"), Some("\"it's\""));
        assert_eq!(test_name("it.skip(`x \\` y`, () => {"), Some("`x \\` y`"));
        assert_eq!(test_name("const x = f('a')"), None);
        assert_eq!(test_name("pytest.skip('reason')"), Some("'reason'"));
        assert_eq!(test_name("'a'"), None);
    }

    #[test]
    fn a_skip_swapped_between_two_tests_is_not_one_skip_rewritten() {
        let old = mark("test.failing", "test.failing('b', t => {");
        let new = mark("test.failing", "test.failing('a', t => {");
        let before = "test('a', t => {\n});\ntest.failing('b', t => {\n});\n";
        let after = "test.failing('a', t => {\n});\ntest('b', t => {\n});\n";
        assert!(on_another_test(&old, &new, Some(before), Some(after)));
        // Renamed under its skip: neither name is on the other side.
        let renamed = "test.failing('a', t => {\n});\n";
        let was = "test.failing('b', t => {\n});\n";
        assert!(!on_another_test(&old, &new, Some(was), Some(renamed)));
        // Body skips name a reason, not a test.
        let old = mark("pytest.skip(", "pytest.skip('b')");
        let new = mark("pytest.skip(", "pytest.skip('a')");
        assert!(!on_another_test(&old, &new, Some(before), Some(after)));
    }
}
