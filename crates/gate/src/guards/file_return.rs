//! A Ruby test file that returns at its top level: `return unless ENV['WITH_X']` as a
//! statement of the file itself, before its test classes. A top-level `return` stops
//! Ruby loading the file, so when it runs none of the tests below it are ever defined:
//! the runner neither runs nor reports them. It is how a suite is switched off per
//! environment without a skip the report would show (test-unit's `omit` in `setup`,
//! RSpec's metadata), a file-wide skip.
//!
//! Only a value-less `return` written at the file's top level (column 0: a method body,
//! a block or a `begin`/`rescue` is indented) with more code after it, bare or under an
//! `if`/`unless` modifier.

use super::languages::Lang;
use super::lexer::LineView;
use super::line::indent;

/// The label of the skip this reads as.
pub const LABEL: &str = "return at the top of a test file (its tests are never defined)";

/// Whether line `at` (0-based) of `views` is a top-level `return` of a Ruby file with
/// code after it.
pub fn ends_file_early(lang: Lang, views: &[LineView], at: usize) -> bool {
    if lang != Lang::Ruby {
        return false;
    }
    let Some(view) = views.get(at) else {
        return false;
    };
    let code = view.code.trim_end();
    if indent(code) != 0 {
        return false;
    }
    let Some(after) = code.strip_prefix("return") else {
        return false;
    };
    let tail = after.trim_start();
    let bare = tail.is_empty() || tail == ";";
    // `return if ..`, not `returned = ..` nor `return value if ..`.
    let modifier =
        after.len() > tail.len() && (tail.starts_with("if ") || tail.starts_with("unless "));
    if !(bare || modifier) {
        return false;
    }
    views[at + 1..].iter().any(|v| !v.code.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::lexer::lex;

    fn early(text: &str, at: usize) -> bool {
        let views = lex(&Lang::Ruby.syntax(), text, usize::MAX);
        ends_file_early(Lang::Ruby, &views, at)
    }

    #[test]
    fn a_top_level_return_before_the_tests_ends_the_file() {
        let rb = "return unless ENV['WITH_X']\n\nclass TestX < Test::Unit::TestCase\n  def test_a\n  end\nend\n";
        assert!(early(rb, 0));
        assert!(early("require 'x'\nreturn\nclass T; end\n", 1));
        assert!(early(
            "return if RUBY_ENGINE == 'jruby'\ndescribe 'x' do\nend\n",
            0
        ));
    }

    #[test]
    fn returns_inside_methods_values_and_last_lines_are_not() {
        // Inside a method (indented), a value returned, a name that starts with `return`.
        assert!(!early("def helper\n  return unless x\n  y\nend\n", 1));
        assert!(!early("return value if x\nfoo\n", 0));
        assert!(!early("returned = 1\nfoo\n", 0));
        // Nothing after it: no test below to leave undefined.
        assert!(!early("class T; end\nreturn unless x\n", 1));
    }
}
