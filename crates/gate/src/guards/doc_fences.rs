//! A Rust doc example is a test: rustdoc compiles and runs every code block of a doc
//! comment that is Rust. A fence whose info string says `ignore` (or `ignore-<target>`,
//! ignored on that target) keeps the example in the documentation and out of the test run,
//! so a block that ran and now opens with such a fence is a skipped test.
//!
//! Writers also open new blocks with `ignore` for sketches that were never meant to build,
//! so only a fence that took the place of one that ran is a skip; a new example written
//! ignored disabled nothing that ran.

use super::languages::Lang;
use super::lexer::LineView;
use super::Line;

/// The skip label of an ignoring fence.
pub const LABEL: &str = "```ignore";

/// The text of a doc comment's line after `///` or `//!`, or `None` for other lines.
fn doc_body(comment: &str) -> Option<&str> {
    match comment.strip_prefix('/') {
        Some(rest) if !rest.starts_with('/') => Some(rest),
        Some(_) => None,
        None => comment.strip_prefix('!'),
    }
}

/// The info string of a fence line of a doc comment (`rust,ignore` of "/// ```rust,ignore"),
/// or `None` when the line is no fence.
fn info(body: &str) -> Option<&str> {
    let t = body.trim_start();
    let fence = ["```", "~~~"].into_iter().find(|f| t.starts_with(f))?;
    Some(
        t.trim_start_matches(fence.chars().next().unwrap_or('`'))
            .trim(),
    )
}

/// The words of an info string: rustdoc splits it at commas and spaces.
fn words(info: &str) -> impl Iterator<Item = &str> {
    info.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
}

fn ignoring(info: &str) -> bool {
    words(info).any(|w| w == "ignore" || w.starts_with("ignore-"))
}

/// A block rustdoc reads as Rust and runs: no language but Rust, only rustdoc's own
/// attributes, none that ignores it.
fn runs(info: &str) -> bool {
    const RUSTDOC: &[&str] = &[
        "rust",
        "should_panic",
        "no_run",
        "compile_fail",
        "test_harness",
        "standalone_crate",
    ];
    !ignoring(info)
        && words(info)
            .all(|w| RUSTDOC.contains(&w) || w.starts_with("edition") || w.starts_with('{'))
}

/// Whether the lexed line is a doc comment's fence that ignores its example.
pub fn ignores(lang: Lang, view: &LineView) -> bool {
    if lang != Lang::Rust || !view.code.trim().is_empty() {
        return false;
    }
    let [comment] = view.comments.as_slice() else {
        return false;
    };
    doc_body(comment).and_then(info).is_some_and(ignoring)
}

/// The doc-comment body of a raw line (`/// x` or `//! x`, indented or not).
fn raw_body(line: &str) -> Option<&str> {
    doc_body(line.trim_start().strip_prefix("//")?)
}

/// Whether line `at` (0-based) of `lines` opens a block: it is a fence, and the fences of
/// its doc comment above it are closed in pairs.
fn opens(lines: &[&str], at: usize) -> bool {
    if raw_body(lines[at]).and_then(info).is_none() {
        return false;
    }
    let above = lines[..at]
        .iter()
        .rev()
        .map_while(|l| raw_body(l))
        .filter(|b| info(b).is_some())
        .count();
    above % 2 == 0
}

/// Whether the ignoring fence added at line `new` took the place of a fence that opened a
/// running example: a removed line of the old text, in the same place (`same_place(old,
/// new)`), that opened such a block.
pub fn turned_off(
    new: u32,
    removed: &[Line],
    old_text: Option<&str>,
    same_place: &dyn Fn(u32, u32) -> bool,
) -> bool {
    let Some(old_text) = old_text else {
        return false;
    };
    let lines: Vec<&str> = old_text.split('\n').collect();
    removed.iter().any(|r| {
        let at = (r.number as usize).wrapping_sub(1);
        same_place(r.number, new)
            && at < lines.len()
            && opens(&lines, at)
            && raw_body(lines[at]).and_then(info).is_some_and(runs)
    })
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex_line;
    use super::*;

    fn ignores_line(line: &str) -> bool {
        ignores(Lang::Rust, &lex_line(&Lang::Rust.syntax(), line))
    }

    #[test]
    fn ignoring_fences_of_doc_comments_are_found() {
        for line in [
            "/// ```ignore",
            "    /// ```ignore-wasm",
            "//! ```rust,ignore",
            "/// ``` ignore",
        ] {
            assert!(ignores_line(line), "{line}");
        }
        for line in [
            "/// ```",
            "/// ```rust",
            "/// ```no_run",
            "/// ```ignored_word",
            "// ```ignore",
            "//// ```ignore",
            "/// see ```ignore",
            "let s = \"```ignore\";",
        ] {
            assert!(!ignores_line(line), "{line}");
        }
    }

    #[test]
    fn only_a_fence_that_opened_a_running_example_is_turned_off() {
        let old = "/// Text.\n/// ```\n/// f();\n/// ```\n/// ```text\n/// out\n/// ```\nfn f() {}";
        let removed = |n: u32| {
            vec![Line {
                number: n,
                text: String::new(),
            }]
        };
        let anywhere = |_: u32, _: u32| true;
        assert!(turned_off(2, &removed(2), Some(old), &anywhere));
        // A closing fence, or a block that is no Rust, ran nothing.
        assert!(!turned_off(4, &removed(4), Some(old), &anywhere));
        assert!(!turned_off(5, &removed(5), Some(old), &anywhere));
        let elsewhere = |_: u32, _: u32| false;
        assert!(!turned_off(2, &removed(2), Some(old), &elsewhere));
    }
}
