//! A JavaScript test that says it skips itself and leaves: `t.pass('QuickLRU not
//! available, skipping test'); return;` in the `catch` of an optional import,
//! `console.log('skip: no docker'); return;` under an `if`. The runner reports a pass
//! with the rest of the test unrun; its ways to say "skipped" are `t.skip`, `test.skip`,
//! `this.skip()`. The words make it a skip, as a comment does for Python's announced
//! exits (see [`super::gated_return`]): without them a `return` in a block may be a case
//! with nothing more to check, and is not read.

use super::gated_return::ANNOUNCED;
use super::lexer::LineView;
use super::line::indent;

/// The label of the skip this reads as.
pub const LABEL: &str = "return announced as a skip";

/// Whether a line's text holds any of the words that announce a skip (a cheap first
/// look, before the file is read around it).
pub fn says_skip(raw: &str) -> bool {
    let said = raw.to_lowercase();
    ANNOUNCED.iter().any(|w| said.contains(w))
}

/// Whether line `at` (0-based) of a JS/TS test file, written as `raw`, is a statement
/// whose string or comment says the test is skipped (`skip`, `not available`, ...),
/// followed in the same block by a bare `return` that ends that block, with more code
/// after the block at a shallower depth (the rest of the test the `return` leaves).
pub fn skips_rest(views: &[LineView], at: usize, raw: &str) -> bool {
    let Some(view) = views.get(at) else {
        return false;
    };
    // The words are in a string or a comment, not the code (`t.skip(..)` is a marker of
    // its own).
    let code = view.code.to_lowercase();
    let said = raw.to_lowercase();
    if !ANNOUNCED
        .iter()
        .any(|w| said.contains(w) && !code.contains(w))
    {
        return false;
    }
    let depth = indent(&view.code);
    let next_code = |from: usize| {
        views
            .iter()
            .enumerate()
            .skip(from)
            .find(|(_, v)| !v.code.trim().is_empty())
    };
    let Some((ret, rv)) = next_code(at + 1) else {
        return false;
    };
    if indent(&rv.code) != depth || !matches!(rv.code.trim(), "return" | "return;") {
        return false;
    }
    // The `return` ends its block ...
    let Some((close, cv)) = next_code(ret + 1) else {
        return false;
    };
    if !cv.code.trim().starts_with('}') || indent(&cv.code) >= depth {
        return false;
    }
    // ... and the test goes on after it: the block closes alone (no `else` taking over)
    // and a statement of the enclosing body follows.
    if cv.code.trim().trim_end_matches(';') != "}" {
        return false;
    }
    let block_depth = indent(&cv.code);
    next_code(close + 1).is_some_and(|(_, v)| {
        let c = v.code.trim_start();
        indent(&v.code) == block_depth && !c.starts_with(['}', ')', ']'])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::languages::Lang;
    use crate::guards::lexer::lex;

    fn at(text: &str, line: usize) -> bool {
        let views = lex(&Lang::Js.syntax(), text, usize::MAX);
        let raw = text.split('\n').nth(line).unwrap();
        skips_rest(&views, line, raw)
    }

    const CATCH: &str = "test('x', async t => {\n\ttry {\n\t\tx = await import('y');\n\t} catch {\n\t\tt.pass('y not available, skipping test');\n\t\treturn;\n\t}\n\n\tt.is(x.f(), 1);\n});\n";

    #[test]
    fn an_announced_return_with_the_test_after_it_is_a_skip() {
        assert!(at(CATCH, 4));
    }

    #[test]
    fn unannounced_or_last_returns_are_not() {
        assert!(!at(
            &CATCH.replace("y not available, skipping test", "no y"),
            4
        ));
        let last = "test('x', async t => {\n\tif (a) {\n\t\tconsole.log('skipping');\n\t\treturn;\n\t}\n});\n";
        assert!(!at(last, 2));
        let branch = "test('x', t => {\n\tif (a) {\n\t\tconsole.log('skipping');\n\t\treturn;\n\t} else {\n\t\tt.is(1, 1);\n\t}\n\tt.is(2, 2);\n});\n";
        assert!(!at(branch, 2));
        let more = "test('x', t => {\n\tif (a) {\n\t\tconsole.log('skipping');\n\t\treturn;\n\t\tt.is(1, 1);\n\t}\n\tt.is(2, 2);\n});\n";
        assert!(!at(more, 2));
    }
}
