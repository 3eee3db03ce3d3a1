//! Rust doc tests are compiled code written inside doc comments. A line of a doc-test
//! block that starts with `# ` is hidden from the rendered documentation but still
//! compiled, and it is there only to make the example build: `/// # #![allow(deprecated)]`
//! silences a lint for the test as surely as the attribute in the file's own code.
//!
//! Only hidden lines are read as code. They mean nothing outside a code block (rustdoc
//! would render them as headings), so no tracking of fences is needed; a visible line of
//! an example is what the documentation shows its reader, and may show an attribute.

use super::languages::Lang;
use super::lexer::{lex_line, LineView};

/// The code of a hidden doc-test line (`/// # let x = 1;`, `//! # #[allow(unused)]`), lexed
/// as Rust; `None` for any other line.
pub fn hidden_code(lang: Lang, view: &LineView) -> Option<LineView> {
    if lang != Lang::Rust || !view.code.trim().is_empty() {
        return None;
    }
    let [comment] = view.comments.as_slice() else {
        return None;
    };
    // `///` and `//!` are doc comments; `////` is an ordinary comment.
    let body = match comment.strip_prefix('/') {
        Some(rest) if !rest.starts_with('/') => rest,
        Some(_) => return None,
        None => comment.strip_prefix('!')?,
    };
    let code = body.trim_start().strip_prefix("# ")?;
    Some(lex_line(&Lang::Rust.syntax(), code))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(line: &str) -> Option<String> {
        let view = lex_line(&Lang::Rust.syntax(), line);
        hidden_code(Lang::Rust, &view).map(|v| v.code.trim().to_string())
    }

    #[test]
    fn hidden_lines_of_doc_comments_are_code() {
        assert_eq!(
            code("/// # #![allow(deprecated)]").as_deref(),
            Some("#![allow(deprecated)]")
        );
        assert_eq!(
            code("    //! # #[allow(unused)]").as_deref(),
            Some("#[allow(unused)]")
        );
    }

    #[test]
    fn other_comments_are_not() {
        for line in [
            "/// #[allow(unused)] is shown to the reader",
            "// # #[allow(unused)]",
            "//// # #[allow(unused)]",
            "/// ## Heading",
            "let x = 1; /// # #[allow(unused)]",
        ] {
            assert_eq!(code(line), None, "{line}");
        }
    }
}
