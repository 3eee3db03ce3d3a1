//! Tests that stood commented out: `// #[bench]` / `// fn http1_empty(b: &mut Bencher) {`,
//! `# def test_x():`, `// it('x', () => {`. Counting reads code only, so such a test was no
//! test at the comparison point (`deleted_tests` reads commenting one out as removing it).
//! The same holds the other way for a skip: a test brought back from a comment with a
//! skip on it was off before and is off now, so that skip lowers nothing.

use super::languages::Lang;
use super::lexer::{lex, lex_line, LineView};
use super::line::LineCtx;
use super::named_tests::test_name;
use super::skip_helpers::declared;
use super::tests_count::tests_on_line;
use std::collections::HashSet;

/// What names a test on its declaration line: a function's name (`fn x(`, `def test_x(`,
/// `void testX(`), or the quoted first argument of a test call (`it('x', ..)`).
fn test_key(lang: Lang, view: &LineView, raw: &str) -> Option<String> {
    let cx = LineCtx::new(lang, view, true);
    if tests_on_line(&cx) > 0 {
        if let Some(name) = test_name(raw) {
            return Some(name.trim_matches(['\'', '"', '`']).to_string());
        }
    }
    if lang == Lang::Rust {
        let at = (0..cx.toks.len()).find(|&i| cx.ident(i) == Some("fn"))?;
        let name = cx.ident(at + 1)?;
        return (cx.punct(at + 2, '(') || cx.punct(at + 2, '<')).then(|| name.to_string());
    }
    declared(lang, view)
}

/// The tests a file's text declares only inside comments: each comment line read as code
/// of the file's language, less the names its code declares.
pub struct CommentedOut {
    lang: Lang,
    names: HashSet<String>,
}

impl CommentedOut {
    pub fn of(lang: Lang, old_text: &str) -> Self {
        let views = lex(&lang.syntax(), old_text, usize::MAX);
        let (mut commented, mut code) = (HashSet::new(), HashSet::new());
        let raw: Vec<&str> = old_text.split('\n').collect();
        for (at, view) in views.iter().enumerate() {
            if !view.code.trim().is_empty() {
                if let Some(k) = test_key(lang, view, raw.get(at).copied().unwrap_or("")) {
                    code.insert(k);
                }
            }
            for piece in &view.comments {
                // `// // nested` and doc comments (`/// fn`) read as what follows the marks.
                let piece = piece.trim_start_matches(['/', '#', '*', '!', ' ', '\t']);
                if piece.is_empty() {
                    continue;
                }
                let inner = lex_line(&lang.syntax(), piece);
                if let Some(k) = test_key(lang, &inner, piece) {
                    commented.insert(k);
                }
            }
        }
        commented.retain(|k| !code.contains(k));
        Self {
            lang,
            names: commented,
        }
    }

    /// Whether the test declared on `line` (a declaration of the new text: the line a skip
    /// sits over, or the skip's own line for `it.skip('x', ..)`) stood commented out.
    pub fn holds(&self, line: &str) -> bool {
        if self.names.is_empty() {
            return false;
        }
        let view = lex_line(&self.lang.syntax(), line);
        test_key(self.lang, &view, line).is_some_and(|k| self.names.contains(&k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_declared_only_in_a_comment_stood_commented_out() {
        let old = "extern crate test;\n\n// #[bench]\n// fn http1_empty(b: &mut test::Bencher) {\n//     opts().bench(b)\n// }\n\n#[bench]\nfn kept(b: &mut test::Bencher) {}\n";
        let c = CommentedOut::of(Lang::Rust, old);
        assert!(c.holds("fn http1_empty(b: &mut test::Bencher) {"));
        // Declared in code too (a note that mentions it): it ran.
        assert!(!c.holds("fn kept(b: &mut test::Bencher) {"));
        assert!(!c.holds("fn other(b: &mut test::Bencher) {"));
        let py = "# def test_x():\n#     assert f()\n\ndef test_y():\n    pass\n";
        let c = CommentedOut::of(Lang::Python, py);
        assert!(c.holds("def test_x():"));
        assert!(!c.holds("def test_y():"));
        let js = "// it('parses', () => {\n//   expect(1).toBe(1)\n// })\nit('runs', () => {})\n";
        let c = CommentedOut::of(Lang::Js, js);
        assert!(c.holds("it.skip('parses', () => {"));
        assert!(!c.holds("it.skip('runs', () => {"));
        // A body skip names a reason, not a test.
        assert!(!c.holds("this.skip('parses')"));
    }
}
