//! Which test a skip written in a body belongs to. A body skip (`skip 'no CPU count'`,
//! `t.Skip(..)`, `pytest.skip(..)`) skips the test whose body holds it, so one removed from
//! a test and one added to another test of the file are a skip gone with its test and a
//! new skip, not one skip rewritten: the pairing reads them as one only when they sit in
//! the same test, by name, or in a test renamed and rewritten from the other (the old name
//! gone, the new one not there before, most of the old body's lines still in the new one).

use super::languages::Lang;
use super::lexer::LineView;
use super::scan::Mark;
use super::skip_helpers::{declared, enclosing, is_test_fn};
use super::test_moves::{bodies_at, rewritten};

/// The test whose body holds line `at` (0-based): its name and line, when the function
/// around the line is a test by its language's rule.
fn owner(lang: Lang, views: &[LineView], at: usize) -> Option<(String, usize)> {
    if at >= views.len() {
        return None;
    }
    let (name, decl) = enclosing(lang, views, at)?;
    is_test_fn(lang, &name, views, decl).then_some((name, decl))
}

/// Whether `text` (lexed as `views`) declares a function of this name.
fn declares(lang: Lang, views: &[LineView], name: &str) -> bool {
    views
        .iter()
        .any(|v| v.code.contains(name) && declared(lang, v).as_deref() == Some(name))
}

/// The two sides of one file, for reading where its body skips sit.
pub struct Sides<'a> {
    pub lang: Lang,
    pub old_text: &'a str,
    pub old: &'a [LineView],
    pub new_text: &'a str,
    pub new: &'a [LineView],
}

/// Whether the body skips `old` (removed) and `new` (added) of one file sit in two
/// different tests, neither of which is the other renamed and rewritten: then they are a
/// skip that left with its test and a new one, not one skip rewritten. Unknown (a skip
/// outside any test, a declaration skip) is not different.
pub fn in_another_test(old: &Mark, new: &Mark, sides: &Sides) -> bool {
    if old.anchor.is_some() || new.anchor.is_some() {
        return false;
    }
    let at = |m: &Mark| (m.line as usize).saturating_sub(1);
    let (Some((was, was_at)), Some((now, now_at))) = (
        owner(sides.lang, sides.old, at(old)),
        owner(sides.lang, sides.new, at(new)),
    ) else {
        return false;
    };
    if was == now {
        return false;
    }
    let renamed = !declares(sides.lang, sides.new, &was) && !declares(sides.lang, sides.old, &now);
    if !renamed {
        return true;
    }
    let before = bodies_at(sides.old_text, sides.lang, &[was_at]);
    let after = bodies_at(sides.new_text, sides.lang, &[now_at]);
    !rewritten(&before[0], &after[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::lexer::lex;

    fn mark(line: u32, text: &'static str) -> Mark<'static> {
        Mark {
            file: 0,
            line,
            label: "skip".into(),
            text,
            anchor: None,
            next: None,
        }
    }

    fn another(old_text: &str, old_line: u32, new_text: &str, new_line: u32) -> bool {
        let syntax = Lang::Ruby.syntax();
        let (old, new) = (
            lex(&syntax, old_text, usize::MAX),
            lex(&syntax, new_text, usize::MAX),
        );
        let sides = Sides {
            lang: Lang::Ruby,
            old_text,
            old: &old,
            new_text,
            new: &new,
        };
        in_another_test(&mark(old_line, "skip"), &mark(new_line, "skip"), &sides)
    }

    const OLD: &str = "class T\n  def test_which\n    run\n  rescue E\n    skip 'no which'\n  end\n\n  def test_other\n    go\n  end\nend\n";

    #[test]
    fn a_skip_in_a_new_test_is_not_the_skip_of_a_removed_one() {
        let new = "class T\n  def test_count\n    n = count\n    skip 'no count' if n.nil?\n    assert n\n  end\n\n  def test_other\n    go\n  end\nend\n";
        assert!(another(OLD, 5, new, 4));
        // Onto a test that was there before: another test.
        let onto = "class T\n  def test_which\n    run\n  end\n\n  def test_other\n    skip 'no which'\n    go\n  end\nend\n";
        assert!(another(OLD, 5, onto, 7));
    }

    #[test]
    fn a_skip_in_the_same_test_or_its_rewrite_under_a_new_name_pairs() {
        let same = "class T\n  def test_which\n    run\n  rescue E\n    skip 'which is missing'\n  end\nend\n";
        assert!(!another(OLD, 5, same, 5));
        let old = "class T\n  def test_which\n    a = run\n    assert a\n    skip 'no which' unless a\n    assert_equal 1, a\n  end\nend\n";
        let renamed = "class T\n  def test_which_found\n    a = run\n    assert a\n    skip 'which missing' unless a\n    assert_equal 1, a\n  end\nend\n";
        assert!(!another(old, 5, renamed, 5));
    }
}
