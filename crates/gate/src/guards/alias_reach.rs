//! A pytest mark alias rewritten under a new name reaches as far as the tests the new
//! name is put on.
//!
//! `skip_if_m1 = pytest.mark.skipif(..)` rewritten in its place as `skip_non_linux =
//! pytest.mark.skipif(..)` is the same definition line to a diff, but the uses of the new
//! name are what it skips: renamed on the tests the old one was on, it is the same skip;
//! put on more tests than the old name was (its uses are new to the file, so none of them
//! is reported by itself, see [`super::mark_aliases`]), it reaches further.

use super::languages::Lang;
use super::lexer::lex;
use super::line::LineCtx;
use super::mark_aliases::applied_anywhere;

/// The name a module-level `name = pytest.mark.X..` line binds.
fn bound(line: &str) -> Option<&str> {
    if line.starts_with([' ', '\t']) {
        return None;
    }
    let (name, value) = line.split_once('=')?;
    let name = name.trim();
    let ident = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    (ident && value.trim_start().starts_with("pytest.mark.")).then_some(name)
}

/// How many lines of the Python `text` apply `name` as a mark.
fn uses(text: &str, name: &str) -> usize {
    if !text.contains(name) {
        return 0;
    }
    lex(&Lang::Python.syntax(), text, usize::MAX)
        .iter()
        .filter(|v| v.code.contains(name))
        .filter(|v| {
            applied_anywhere(&LineCtx::new(Lang::Python, v, true))
                .iter()
                .any(|n| n == name)
        })
        .count()
}

/// Whether the alias definition `new_line` (of `new_text`), the rewrite of `old_line` (of
/// `old_text`) under another name, is put on more tests than the old name was.
pub fn renamed_onto_more(old_line: &str, old_text: &str, new_line: &str, new_text: &str) -> bool {
    let (Some(old), Some(new)) = (bound(old_line), bound(new_line)) else {
        return false;
    };
    old != new && uses(new_text, new) > uses(old_text, old)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_renamed_alias_on_more_tests_reaches_further() {
        let old = "a = pytest.mark.skipif(m1, reason='x')\n\n@a\ndef test_x():\n    pass\n";
        let same = "b = pytest.mark.skipif(mac, reason='x')\n\n@b\ndef test_x():\n    pass\n";
        let more = format!("{same}\n@b\ndef test_y():\n    pass\n");
        let old_line = old.lines().next().unwrap();
        let new_line = same.lines().next().unwrap();
        assert!(!renamed_onto_more(old_line, old, new_line, same));
        assert!(renamed_onto_more(old_line, old, new_line, &more));
        // The same name: its new uses are reported where they are written.
        assert!(!renamed_onto_more(
            old_line,
            old,
            old_line,
            &more.replace("@b", "@a")
        ));
        assert!(!renamed_onto_more(
            "    a = pytest.mark.skip",
            old,
            new_line,
            &more
        ));
    }
}
