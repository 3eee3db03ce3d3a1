//! A skip taken off a test's declaration and written into that test's body: `@pytest.mark.
//! xfail(cond)` over `test_start_tls` becomes `if cond: pytest.xfail()` inside it when
//! the test is parameterized and only one case still fails, `@Disabled` becomes an
//! `assumeTrue(...)`. The same test is skipped the same way, so the skip is rewritten,
//! not new; it is widened when the declaration skipped under a condition and the body
//! now skips every time.

use super::languages::Lang;
use super::lexer::{lex_line, LineView};
use super::line::{indent, LineCtx};
use super::scan::Mark;
use super::skip_helpers::{declared, enclosing};
use super::{skips, widen};

/// Whether `new`, a skip in a body (no anchor), is `old`, a skip on a declaration,
/// moved into the body of the test it was over. `views` is the new text lexed whole.
pub fn moved_into_body(old: &Mark, new: &Mark, lang: Lang, views: &[LineView]) -> bool {
    let Some(over) = old.anchor else {
        return false;
    };
    if new.anchor.is_some() || !same_kind(&old.label, &new.label) {
        return false;
    }
    let Some(test) = declared(lang, &lex_line(&lang.syntax(), over)) else {
        return false;
    };
    let at = (new.line as usize).saturating_sub(1);
    at < views.len() && enclosing(lang, views, at).is_some_and(|(name, _)| name == test)
}

/// Whether the body skip `new` that replaced the declaration skip `old` (see
/// [`moved_into_body`]) skips where `old` did not: `old` had a condition and `new` has
/// none.
pub fn widened_into_body(old: &Mark, new: &Mark, lang: Lang, views: &[LineView]) -> bool {
    let old_conditional = widen::conditional_skip(&old.label, old.text)
        || matches!(skips::family(&old.label), "test.skipif" | "test.skipunless");
    old_conditional && !under_condition(new, lang, views)
}

/// Both skip the test, or both expect it to fail; a focus or a placeholder is neither.
fn same_kind(old: &str, new: &str) -> bool {
    let expects_failure = |l: &str| {
        l.contains("xfail") || l.contains("expectedFailure") || skips::family(l) == "test.failing"
    };
    let other =
        |l: &str| skips::is_focus(l) || matches!(skips::family(l), "test.todo" | "group.skip");
    !other(old) && !other(new) && expects_failure(old) == expects_failure(new)
}

/// Whether the body skip `new` runs only under a condition: it has one of its own (an
/// assumption, a conditional skip, `skip if x` on one line), or an `if`, `else` or `case`
/// encloses it within its function.
fn under_condition(new: &Mark, lang: Lang, views: &[LineView]) -> bool {
    if skips::is_assumption(&new.label) || widen::conditional_skip(&new.label, new.text) {
        return true;
    }
    let at = (new.line as usize).saturating_sub(1);
    let Some(view) = views.get(at) else {
        return false;
    };
    let branch = |v: &LineView| {
        let cx = LineCtx::new(lang, v, true);
        cx.toks.iter().any(|t| {
            matches!(
                t,
                super::tokens::Tok::Ident(
                    "if" | "elif" | "else" | "unless" | "case" | "when" | "switch"
                )
            )
        })
    };
    if branch(view) {
        return true;
    }
    let Some((_, decl)) = enclosing(lang, views, at) else {
        return false;
    };
    let mut depth = indent(&view.code);
    for v in views[decl + 1..at].iter().rev() {
        if v.code.trim().is_empty() || indent(&v.code) >= depth {
            continue;
        }
        if branch(v) {
            return true;
        }
        depth = indent(&v.code);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::lexer::lex;

    fn mark<'a>(line: u32, label: &str, text: &'a str, anchor: Option<&'a str>) -> Mark<'a> {
        Mark {
            file: 0,
            line,
            label: label.into(),
            text,
            anchor,
            next: None,
        }
    }

    const NEW: &str = "import sys\n\n@pytest.mark.parametrize('backend', [a, b])\nasync def test_start_tls(server, backend):\n    \"\"\"Docs.\"\"\"\n    if backend is a and sys.version_info < (3, 7):\n        pytest.xfail(reason='needs 3.7')\n\n    run(backend)\n\ndef test_other():\n    pytest.xfail(reason='later')\n";

    fn views(text: &str) -> Vec<LineView> {
        lex(&Lang::Python.syntax(), text, usize::MAX)
    }

    #[test]
    fn an_xfail_moved_from_the_decorator_into_its_tests_body_is_the_same_one() {
        let v = views(NEW);
        let old = mark(
            6,
            "pytest.mark.xfail",
            "@pytest.mark.xfail(",
            Some("async def test_start_tls(server):"),
        );
        let new = mark(
            7,
            "pytest.xfail(",
            "        pytest.xfail(reason='needs 3.7')",
            None,
        );
        assert!(moved_into_body(&old, &new, Lang::Python, &v));
        // Still under a condition: not widened.
        assert!(!widened_into_body(&old, &new, Lang::Python, &v));
        // Into another test's body, it is a new skip there.
        let other = mark(
            12,
            "pytest.xfail(",
            "    pytest.xfail(reason='later')",
            None,
        );
        assert!(!moved_into_body(&old, &other, Lang::Python, &v));
        // A skip is no expected failure.
        let skip = mark(
            7,
            "pytest.skip(",
            "        pytest.skip(reason='needs 3.7')",
            None,
        );
        assert!(!moved_into_body(&old, &skip, Lang::Python, &v));
    }

    #[test]
    fn a_conditional_declaration_skip_that_became_unconditional_in_the_body_widened() {
        let text = "def test_fork():\n    pytest.skip('no fork')\n    fork()\n";
        let v = views(text);
        let old = mark(
            1,
            "pytest.mark.skipif",
            "@pytest.mark.skipif(sys.platform == 'win32', reason='no fork')",
            Some("def test_fork():"),
        );
        let new = mark(2, "pytest.skip(", "    pytest.skip('no fork')", None);
        assert!(moved_into_body(&old, &new, Lang::Python, &v));
        assert!(widened_into_body(&old, &new, Lang::Python, &v));
        // An unconditional one stays as wide as it was.
        let always = mark(
            1,
            "pytest.mark.skip",
            "@pytest.mark.skip",
            Some("def test_fork():"),
        );
        assert!(!widened_into_body(&always, &new, Lang::Python, &v));
    }

    #[test]
    fn a_junit_disabled_test_that_assumes_in_its_body_instead() {
        let text = "class T {\n    @Test\n    public void reads() {\n        assumeTrue(isUnix());\n    }\n}\n";
        let v = lex(&Lang::Java.syntax(), text, usize::MAX);
        let old = mark(
            3,
            "@Disabled",
            "    @Disabled",
            Some("public void reads() {"),
        );
        let new = mark(4, "assumeTrue(", "        assumeTrue(isUnix());", None);
        assert!(moved_into_body(&old, &new, Lang::Java, &v));
        assert!(!widened_into_body(&old, &new, Lang::Java, &v));
    }
}
