//! A test annotation and the declaration it decorates may share a line (`@Test public
//! void headerParam() {`, `#[test] fn parses() {`, `[Fact] public void Adds()`). That line
//! names the test: the next line is its first statement (`class Example {`), and reading
//! it as the naming line would give every such test of a file one name and an empty body.

use super::hidden::closing;

/// What follows the annotations at the start of `line` (whitespace-normalised): `@Name`,
/// `@a.b.Name(args)`, `#[attr(..)]`, `[Attr(..)]`, as many as there are, arguments
/// followed over nested brackets. `None` when the line does not open with one, or one is
/// not closed on the line.
fn past_annotations(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    let mut seen = false;
    loop {
        let after = if let Some(r) = rest.strip_prefix("#[").or_else(|| rest.strip_prefix('[')) {
            closing(r, '[', ']')?
        } else if let Some(r) = rest.strip_prefix('@') {
            let end = r
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(r.len());
            if end == 0 {
                return None;
            }
            let r = &r[end..];
            match r.trim_start().strip_prefix('(') {
                Some(args) => closing(args, '(', ')')?,
                None => r,
            }
        } else if seen {
            return Some(rest);
        } else {
            return None;
        };
        seen = true;
        rest = after.trim_start();
    }
}

/// The declaration on `line` past the annotations it opens with, when there is one: code,
/// not the end of the line or a comment. A JUnit 3 `public void testX() {` given `@Test`
/// on its line is still declared by `public void testX() {`.
pub fn declaration_past_annotations(line: &str) -> Option<&str> {
    past_annotations(line)
        .filter(|rest| !rest.is_empty() && !rest.starts_with(['/', '#']) && *rest != "{")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declaration_after_its_annotations_on_one_line_is_named_there() {
        assert_eq!(
            declaration_past_annotations("@Test public void testX() {"),
            Some("public void testX() {")
        );
        for line in [
            "@Test public void headerParam() {",
            "@Test(expected = IOException.class) public void fails() throws Exception {",
            "@org.junit.Test void x() {",
            "#[test] fn parses() {",
            "#[test] #[should_panic(expected = \"x\")] fn panics() {",
            "[Fact] public void Adds()",
            "@ParameterizedTest @ValueSource(ints = {1, 2}) void each(int n) {",
        ] {
            assert!(declaration_past_annotations(line).is_some(), "{line}");
        }
        for line in [
            "@Test",
            "#[test]",
            "[Fact]",
            "@Test // flaky on CI",
            "@pytest.mark.slow  # network",
            "@ParameterizedTest @ValueSource(ints = {1, 2})",
            "@Test(timeout = 10",
            "it('x', () => {",
            "public void x() {",
        ] {
            assert!(declaration_past_annotations(line).is_none(), "{line}");
        }
    }
}
