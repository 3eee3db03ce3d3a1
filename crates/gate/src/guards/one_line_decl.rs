//! A test declared on the line of its attributes: `@Test void parses() {`, `#[test] fn
//! parses() {`, `[Fact] public void Parses() {`. The attribute decorates what follows it
//! on its own line, so that line names the test; the line below is its first statement.

/// Whether `line` (an attribute line, whitespace-normalised) goes on past its attributes
/// with a declaration of its own: code with a parameter list, not a comment.
pub fn names_itself(line: &str) -> bool {
    let mut rest = line.trim();
    loop {
        let after = if let Some(r) = rest.strip_prefix("#[").or_else(|| rest.strip_prefix('[')) {
            closing(r, '[', ']')
        } else if let Some(r) = rest.strip_prefix('@') {
            let end = r
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(r.len());
            let r = &r[end..];
            match r.trim_start().strip_prefix('(') {
                Some(args) => closing(args, '(', ')'),
                None => Some(r),
            }
        } else {
            break;
        };
        match after {
            Some(r) => rest = r.trim_start(),
            None => return false,
        }
    }
    !rest.is_empty() && !rest.starts_with("//") && !rest.starts_with("/*") && rest.contains('(')
}

/// The text after the bracket that closes one already opened (`open` seen), nesting
/// counted; `None` when it does not close on this line.
fn closing(text: &str, open: char, close: char) -> Option<&str> {
    let mut depth = 1usize;
    for (i, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(&text[i + c.len_utf8()..]);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::names_itself;

    #[test]
    fn a_declaration_after_its_attributes_names_the_test() {
        assert!(names_itself("@Test void parses() {"));
        assert!(names_itself(
            "@Test(expected = X.class) public void parses() {"
        ));
        assert!(names_itself("#[test] fn parses() {"));
        assert!(names_itself("[Fact] public void Parses()"));
        assert!(!names_itself("@Test"));
        assert!(!names_itself("#[test]"));
        assert!(!names_itself(
            "@ParameterizedTest @ValueSource(strings = {\"a\", \"b\"})"
        ));
        assert!(!names_itself("@Test // see parses()"));
        assert!(!names_itself("#[test_case(1, \"a\""));
    }
}
