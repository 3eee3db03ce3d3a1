//! The skip written in the body of a skip helper the change brings. A new function whose
//! body skips the running test (`func skip(t *testing.T, msg string) { t.Skip(msg) }`, a
//! private `callbackIsCalledSequentially()` opening with `assumeTrue(..)`) skips no test
//! by being declared: the tests that call it skip, and each such call is reported where
//! it is written (see [`super::skip_helpers`]). Reporting the skip in its body too would
//! count one skip twice, so the body's skip is not a new skip of its own when the change
//! also calls the helper. A helper the change never calls (passed by reference, or not
//! used yet) keeps its body's skip: nothing else shows it. A helper that was declared at
//! the comparison point and only now skips is the other way round: its unchanged callers
//! add nothing, and the skip in its body is where the change shows (see
//! [`super::not_lowered::unchanged_calls_of_turned_helpers`]).

use super::languages::Lang;
use super::lexer::lex;
use super::skip_helpers::{declared, enclosing, of_views};

/// The name of the skip helper whose body holds line `number` (1-based) of `new_text`,
/// when `old_text` (none for a file the change adds) declared no function of that name.
pub fn new_helper_around(
    lang: Lang,
    new_text: &str,
    old_text: Option<&str>,
    number: u32,
    is_test: bool,
) -> Option<String> {
    let at = (number as usize).checked_sub(1)?;
    let views = lex(&lang.syntax(), new_text, usize::MAX);
    if at >= views.len() {
        return None;
    }
    let (name, decl) = enclosing(lang, &views, at)?;
    // A skip on the declaration line itself is a one-line helper's body only when the
    // line holds more than the declaration (`def skip_it(): pytest.skip()`).
    if decl == at && !views[at].code.contains(['{', ':', '=']) {
        return None;
    }
    if !of_views(lang, &views, is_test).contains(&name) {
        return None;
    }
    let before = old_text.map_or_else(Vec::new, |t| lex(&lang.syntax(), t, usize::MAX));
    let was_declared = before
        .iter()
        .any(|v| declared(lang, v).as_deref() == Some(name.as_str()));
    (!was_declared).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GO: &str = "package x\n\nimport \"testing\"\n\nfunc skip(t *testing.T, msg string) {\n\tt.Skip(msg)\n}\n\nfunc TestA(t *testing.T) {\n\tskip(t, \"no\")\n\tt.Skip(\"x\")\n}\n";

    #[test]
    fn a_skip_in_a_new_helper_names_it() {
        assert_eq!(
            new_helper_around(Lang::Go, GO, None, 6, true).as_deref(),
            Some("skip")
        );
        assert_eq!(
            new_helper_around(Lang::Go, GO, Some("package x\n"), 6, true).as_deref(),
            Some("skip")
        );
    }

    #[test]
    fn a_skip_in_a_test_or_an_old_helper_is_not_in_a_new_helper() {
        assert_eq!(new_helper_around(Lang::Go, GO, None, 11, true), None);
        assert_eq!(new_helper_around(Lang::Go, GO, Some(GO), 6, true), None);
        assert_eq!(new_helper_around(Lang::Go, GO, None, 6, false), None);
    }
}
