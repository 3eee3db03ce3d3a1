//! Unfinished-work markers: `TODO`, `FIXME`, `HACK` as whole upper-case words in comments
//! (a `TODO` inside a string is data, `todo` in prose is not a marker), `XXX` only where it
//! is shaped as a marker, and Rust's `todo!()` macro in code.
//!
//! Casing is the author's habit, not the meaning: a comment that opens with the word in
//! another case and goes straight on to an owner or a colon (`# todo(ana): drop this`,
//! `// Fixme: racy`) is shaped as the marker, not as prose, and is one too
//! ([`opens_as_marker`]). Lower case anywhere else (`the todo list`) stays prose.
//!
//! `XXX` is also the usual placeholder (`/PREFIX/XXX`, `XXX-XXXX`, "replace XXX with your
//! key"), so it counts only at the start of a comment (`// XXX broken`) or followed by `:`,
//! `(` or `!` (`XXX: later`, `XXX(ana)`).
//!
//! Erlang writes the marker as a documentation tag too: EDoc's `%% @todo ..` is a TODO.
//!
//! Kotlin's standard-library `TODO()` / `TODO("why")` is the language's own
//! not-implemented body (it throws `NotImplementedError`), so a call of it in product code
//! is unfinished work as `todo!()` is in Rust. In a test file it is not: tests that are
//! only compiled use it as a placeholder body that never runs.

use super::languages::Lang;
use super::line::LineCtx;
use super::tokens::{has_word, Tok};

const WORDS: &[&str] = &["TODO", "FIXME", "XXX", "HACK"];

pub fn find(cx: &LineCtx) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for comment in &cx.view.comments {
        for word in WORDS {
            let here = if *word == "XXX" {
                xxx_marker(comment)
            } else {
                has_word(comment, word)
            };
            if here && !out.iter().any(|o| o == word) {
                out.push(word.to_string());
            }
        }
        if let Some(word) = opens_as_marker(comment) {
            if !out.iter().any(|o| o == word) {
                out.push(word.to_string());
            }
        }
        if cx.lang == Lang::Erlang && edoc_todo(comment) && !out.iter().any(|o| o == "TODO") {
            out.push("TODO".into());
        }
    }
    if cx.lang == Lang::Rust {
        let macro_call = cx.chains.iter().any(|ch| {
            ch.is(&["todo"])
                && ch.free(&cx.toks)
                && ch.after(&cx.toks) == Some(Tok::Punct('!'))
                && cx.punct(ch.end + 1, '(')
        });
        if macro_call {
            out.push("todo!(".into());
        }
    }
    if cx.lang == Lang::Kotlin && !cx.is_test && kotlin_todo_call(cx) {
        out.push("TODO(".into());
    }
    out
}

/// A call of Kotlin's `TODO(..)`: the bare name called, not a member (`x.TODO()`), not a
/// declaration of a function of that name (`fun TODO(`), not a reference (`::TODO`).
fn kotlin_todo_call(cx: &LineCtx) -> bool {
    cx.chains.iter().any(|ch| {
        ch.is(&["TODO"])
            && ch.free(&cx.toks)
            && ch.called(&cx.toks)
            && ch.before(&cx.toks) != Some(Tok::Ident("fun"))
    })
}

/// Whether a label is a call in code that fails when reached (Rust's `todo!()`, Kotlin's
/// `TODO()`), not a note in a comment.
pub fn is_call(label: &str) -> bool {
    matches!(label, "todo!(" | "TODO(")
}

/// The words of unfinished work as one label: a `TODO` reworded where it stood as a
/// `FIXME` (or `XXX`, `HACK`) is the same work left, not new work. Rust's `todo!()` and
/// Kotlin's `TODO()` are code that fails, not notes, and stay apart; any other label is
/// its own.
pub fn family(label: &str) -> &str {
    match label {
        "FIXME" | "XXX" | "HACK" => "TODO",
        other => other,
    }
}

/// The marker a comment opens with in any case, `TODO` or `FIXME`, when the word is
/// followed at once by `(` (an owner) or `:`: `todo(ana):`, `Fixme: racy`. The comment's
/// own leaders (`*`, `/`, `#`, `!`, `-`, `;`, `%`) and spaces before it are skipped.
fn opens_as_marker(comment: &str) -> Option<&'static str> {
    let rest = comment.trim_start_matches(|c: char| c.is_whitespace() || "*/!#-;%".contains(c));
    let end = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    let (word, after) = rest.split_at(end);
    if !after.starts_with([':', '(']) {
        return None;
    }
    ["TODO", "FIXME"]
        .into_iter()
        .find(|w| word.eq_ignore_ascii_case(w))
}

/// EDoc's `@todo` tag (`%% @todo handle chunked bodies`): a note the documentation tool
/// lists as work left, which is what a `TODO` comment is. A tag opens its comment line.
fn edoc_todo(comment: &str) -> bool {
    let rest = comment.trim_start_matches(|c: char| c.is_whitespace() || c == '%');
    rest.strip_prefix("@todo")
        .is_some_and(|after| after.is_empty() || after.starts_with(char::is_whitespace))
}

/// `XXX` as a marker: first in the comment, or followed by `:`, `(` or `!`.
fn xxx_marker(comment: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    comment.match_indices("XXX").any(|(at, _)| {
        let before = &comment[..at];
        let after = comment[at + 3..].chars().next();
        if before.chars().next_back().is_some_and(word) || after.is_some_and(word) {
            return false;
        }
        let leads = before
            .trim_start_matches(|c: char| c.is_whitespace() || "*/!#-;".contains(c))
            .is_empty();
        leads || matches!(after, Some(':' | '(' | '!'))
    })
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex_line;
    use super::*;

    fn found(lang: Lang, line: &str) -> Vec<String> {
        let view = lex_line(&lang.syntax(), line);
        find(&LineCtx::new(lang, &view, false))
    }

    #[test]
    fn markers_in_comments_are_caught() {
        assert_eq!(found(Lang::Erlang, "%% @todo Drop this."), vec!["TODO"]);
        assert_eq!(found(Lang::Erlang, "f() -> ok. % @todo"), vec!["TODO"]);
        assert_eq!(found(Lang::Erlang, "%% todo: later"), vec!["TODO"]);
        assert!(found(Lang::Erlang, "%% see the @todo list").is_empty());
        assert!(found(Lang::Erlang, "%% @todos are listed").is_empty());
        assert_eq!(found(Lang::Scss, "a: b; // TODO: v6"), vec!["TODO"]);
        assert_eq!(found(Lang::Css, "/* FIXME */ a { }"), vec!["FIXME"]);
        assert_eq!(found(Lang::Js, "x(); // TODO: handle errors"), vec!["TODO"]);
        assert_eq!(found(Lang::Python, "# FIXME(ana) later"), vec!["FIXME"]);
        assert_eq!(found(Lang::Go, "/* XXX broken */"), vec!["XXX"]);
        assert_eq!(found(Lang::Js, "f(); // note XXX: racy"), vec!["XXX"]);
        assert_eq!(
            found(Lang::Python, "# see below. XXX(ana) racy"),
            vec!["XXX"]
        );
        assert_eq!(found(Lang::Rust, "/// XXX"), vec!["XXX"]);
        assert_eq!(found(Lang::Ruby, "x # HACK"), vec!["HACK"]);
        assert_eq!(found(Lang::Rust, "    todo!()"), vec!["todo!("]);
        assert_eq!(
            found(Lang::Kotlin, "  override fun f(): Int = TODO(\"later\")"),
            vec!["TODO("]
        );
        assert_eq!(found(Lang::Kotlin, "    TODO()"), vec!["TODO("]);
        assert_eq!(
            found(Lang::Rust, "/// TODO and FIXME"),
            vec!["TODO", "FIXME"]
        );
    }

    #[test]
    fn a_comment_opening_with_the_marker_in_another_case_is_one() {
        for (lang, line, word) in [
            (
                Lang::Ruby,
                "    # todo(guilherme): remove this once rigid mode is done",
                "TODO",
            ),
            (Lang::Js, "  // todo: hook name validation?", "TODO"),
            (Lang::Python, "x = 1  # ToDo: add test", "TODO"),
            (Lang::Java, "  /* Fixme: racy */", "FIXME"),
            (Lang::Rust, "/// todo(ana): docs", "TODO"),
        ] {
            assert_eq!(found(lang, line), vec![word], "{line}");
        }
        // Written both ways, one marker.
        assert_eq!(found(Lang::Js, "// TODO: todo: twice"), vec!["TODO"]);
    }

    #[test]
    fn kotlin_todo_in_a_test_file_is_a_placeholder() {
        let view = lex_line(&Lang::Kotlin.syntax(), "  fun f(): Int = TODO()");
        assert!(find(&LineCtx::new(Lang::Kotlin, &view, true)).is_empty());
        let view = lex_line(&Lang::Kotlin.syntax(), "  val out = \"\"\"TODO()\"\"\"");
        assert!(find(&LineCtx::new(Lang::Kotlin, &view, false)).is_empty());
    }

    #[test]
    fn the_words_of_unfinished_work_are_one_family() {
        for word in ["TODO", "FIXME", "XXX", "HACK"] {
            assert_eq!(family(word), "TODO");
        }
        assert_eq!(family("todo!("), "todo!(");
        assert_eq!(family("it.skip"), "it.skip");
    }

    #[test]
    fn lookalikes_are_not_todos() {
        for (lang, line) in [
            (Lang::Js, "const TODO = 'TODO';"),
            (Lang::Js, "// see the todo list"),
            (Lang::Js, "// TODOS are tracked elsewhere"),
            (Lang::Python, "todo_items = fetch()  # items"),
            (Lang::Rust, "let s = \"TODO\";"),
            (Lang::Rust, "fn todo() {}"),
            (Lang::Rust, "list.todo!()"),
            (Lang::Go, "// XXXL sizes"),
            (
                Lang::Go,
                "// (e.g., /PREFIX/XXX should resolve to /prefix/xxx)",
            ),
            (Lang::Js, "// phone numbers look like XXX-XXXX"),
            (Lang::Python, "# replace XXX with your key"),
            (Lang::Kotlin, "val s = \"TODO\""),
            (Lang::Kotlin, "fun TODO(reason: String) = Unit"),
            (Lang::Kotlin, "plan.TODO()"),
            (Lang::Kotlin, "val f = ::TODO"),
            (
                Lang::Java,
                "throw new UnsupportedOperationException(\"TODO\");",
            ),
            (Lang::Go, "ctx := context.TODO()"),
            // Another case is the marker only opening the comment, straight on to `:`/`(`.
            (Lang::Js, "// todo list: one item per line"),
            (Lang::Js, "// the fixme: tag is rare"),
            (Lang::Ruby, "# todos: an array of hashes"),
            (Lang::Python, "# Todo items (see below) are cached"),
            (Lang::Js, "const todo = load(); // todo"),
        ] {
            assert!(found(lang, line).is_empty(), "{line}");
        }
    }
}
