//! A bare `return` written into a test file in front of more code of the same block: the
//! code after it never runs, so the checks it held are switched off as surely as by a
//! skip marker, and nothing in the test report says so. Only the unconditional shape is
//! read: a `return` under a condition (`if not HAVE_X: return`) is an environment gate that
//! a static reading cannot tell from a case that has nothing more to check.

use super::languages::Lang;
use super::lexer::LineView;
use super::line::indent;

/// The label of the skip this reads as.
pub const LABEL: &str = "return (the code after it never runs)";

/// Whether line `at` (0-based) of `views` is a bare `return` followed, in the same block,
/// by another statement: the next line with code is as indented as the `return` and does
/// not close or continue an enclosing construct.
pub fn leaves_dead_code(lang: Lang, views: &[LineView], at: usize) -> bool {
    if !reads(lang) {
        return false;
    }
    let Some(view) = views.get(at) else {
        return false;
    };
    if !matches!(view.code.trim(), "return" | "return;") {
        return false;
    }
    let depth = indent(&view.code);
    let Some(next) = views[at + 1..]
        .iter()
        .map(|v| v.code.as_str())
        .find(|c| !c.trim().is_empty())
    else {
        return false;
    };
    let first = next.trim_start();
    indent(next) == depth && !continues_block(first)
}

/// The languages whose bare `return` ends a test early (Ruby's blocks `next` instead, and
/// Java refuses to compile code after a `return`).
fn reads(lang: Lang) -> bool {
    matches!(
        lang,
        Lang::Python | Lang::Js | Lang::Go | Lang::Rust | Lang::Kotlin | Lang::Swift
    )
}

/// A line that belongs to the construct around the `return` rather than after it: a
/// closer, or a branch label written at the statement's depth.
fn continues_block(first: &str) -> bool {
    first.starts_with(['}', ')', ']'])
        || [
            "case ", "case\t", "default:", "default ", "else", "elif ", "except", "finally",
        ]
        .iter()
        .any(|k| first.starts_with(k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::lexer::lex;

    fn dead(lang: Lang, text: &str, at: usize) -> bool {
        let views = lex(&lang.syntax(), text, usize::MAX);
        leaves_dead_code(lang, &views, at)
    }

    #[test]
    fn a_return_before_more_of_its_block_leaves_dead_code() {
        let py = "def test_x():\n    return\n    assert f() == 1\n";
        assert!(dead(Lang::Python, py, 1));
        let js = "it('x', () => {\n  return;\n  expect(f()).toBe(1);\n});\n";
        assert!(dead(Lang::Js, js, 1));
        let go = "func TestX(t *testing.T) {\n\treturn\n\tif f() != 1 {\n\t\tt.Fatal()\n\t}\n}\n";
        assert!(dead(Lang::Go, go, 1));
        // A comment between them does not hide the code after it.
        let rs = "#[test]\nfn x() {\n    return;\n    // later\n    assert_eq!(f(), 1);\n}\n";
        assert!(dead(Lang::Rust, rs, 2));
    }

    #[test]
    fn a_return_that_ends_its_block_is_not_dead_code() {
        let py = "def test_x():\n    if not HAVE_X:\n        return\n    assert f() == 1\n";
        assert!(!dead(Lang::Python, py, 2));
        let js = "it('x', () => {\n  if (skip) {\n    return;\n  }\n  expect(f()).toBe(1);\n});\n";
        assert!(!dead(Lang::Js, js, 2));
        let go = "switch x {\ncase 1:\n\treturn\ncase 2:\n\tf()\n}\n";
        assert!(!dead(Lang::Go, go, 2));
        let py_else = "def t():\n    if a:\n        return\n    else:\n        f()\n";
        assert!(!dead(Lang::Python, py_else, 2));
        // A value is returned, not an early exit (a promise, a fixture's result).
        let js_value = "it('x', () => {\n  return request(app)\n    .get('/');\n});\n";
        assert!(!dead(Lang::Js, js_value, 1));
        // The last line of a file.
        assert!(!dead(Lang::Python, "def t():\n    return", 1));
    }

    #[test]
    fn java_and_ruby_are_not_read() {
        let java = "void t() {\n    return;\n    f();\n}\n";
        assert!(!dead(Lang::Java, java, 1));
        let rb = "it 'x' do\n  return\n  f\nend\n";
        assert!(!dead(Lang::Ruby, rb, 1));
    }
}
