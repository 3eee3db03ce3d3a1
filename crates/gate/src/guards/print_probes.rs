//! Numbered prints: `console.error(4)`, `print(2)`, `puts 1`.
//!
//! A print whose only argument is a number says nothing to whoever reads it, except how
//! far the run got: the probes one scatters through code to follow it (`1`, `2`, `3` at
//! each step) and forgets. No program's output, no test's diagnostic and no error report
//! is a bare number, so such a print is a debugging leftover in any file, tests included,
//! whatever channel it writes to (stderr too). Files whose role is to print (scripts,
//! examples, fixtures a test runs: see [`super::debug::prints_are_output`]) are left alone:
//! there a number can be the output.

use super::languages::Lang;
use super::line::LineCtx;
use super::tokens::{Chain, Tok};

/// The print calls of each language that may carry a probe, as name chains.
fn prints(lang: Lang) -> &'static [&'static [&'static str]] {
    match lang {
        Lang::Js => &[
            &["console", "log"],
            &["console", "error"],
            &["console", "warn"],
            &["console", "info"],
            &["console", "debug"],
            &["console", "trace"],
        ],
        Lang::Python | Lang::Swift => &[&["print"]],
        Lang::Go => &[
            &["println"],
            &["print"],
            &["fmt", "Println"],
            &["fmt", "Print"],
        ],
        Lang::Java => &[
            &["System", "out", "println"],
            &["System", "out", "print"],
            &["System", "err", "println"],
            &["System", "err", "print"],
        ],
        Lang::Kotlin => &[
            &["println"],
            &["print"],
            &["System", "out", "println"],
            &["System", "err", "println"],
        ],
        Lang::Ruby => &[&["puts"], &["p"], &["pp"], &["print"]],
        Lang::CSharp => &[&["Console", "WriteLine"], &["Console", "Write"]],
        _ => &[],
    }
}

/// The label of a numbered print at chain `ch`, if it is one: the print called with one
/// number and nothing else (`console.error(4)`; Ruby's `puts 1` needs no parentheses).
pub fn numbered_print(cx: &LineCtx, ch: &Chain) -> Option<String> {
    if !is_print(cx, ch) {
        return None;
    }
    let at = ch.end;
    let in_parens = cx.punct(at, '(') && cx.tok(at + 1) == Some(Tok::Num) && cx.punct(at + 2, ')');
    let ruby_bare = cx.lang == Lang::Ruby
        && cx.tok(at) == Some(Tok::Num)
        && matches!(cx.tok(at + 1), None | Some(Tok::Punct(';')));
    (in_parens || ruby_bare).then(|| format!("{}(<number>)", ch.names.join(".")))
}

/// Whether chain `ch` is one of the language's print calls, called on its own (not a
/// method of something else, not a declaration of a function called `print`).
pub fn is_print(cx: &LineCtx, ch: &Chain) -> bool {
    // The body of an arrow function (`() => console.error(4)`) is free, though `>` ends it.
    let arrow_body = ch.start >= 2 && cx.punct(ch.start - 1, '>') && cx.punct(ch.start - 2, '=');
    prints(cx.lang).iter().any(|p| ch.is(p))
        && (ch.free(&cx.toks) || arrow_body)
        && !matches!(
            ch.before(&cx.toks),
            Some(Tok::Ident("def" | "fn" | "func" | "function" | "fun"))
        )
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex_line;
    use super::*;

    fn probe(lang: Lang, line: &str) -> Option<String> {
        let view = lex_line(&lang.syntax(), line);
        let cx = LineCtx::new(lang, &view, true);
        cx.chains.iter().find_map(|ch| numbered_print(&cx, ch))
    }

    #[test]
    fn a_print_of_a_bare_number_is_a_probe() {
        for (lang, line, label) in [
            (
                Lang::Js,
                "  .then(() => console.error(4)),",
                "console.error(<number>)",
            ),
            (Lang::Js, "console.log(1);", "console.log(<number>)"),
            (Lang::Python, "    print(2)", "print(<number>)"),
            (Lang::Go, "\tprintln(3)", "println(<number>)"),
            (Lang::Go, "\tfmt.Println(3)", "fmt.Println(<number>)"),
            (
                Lang::Java,
                "System.out.println(1);",
                "System.out.println(<number>)",
            ),
            (Lang::Kotlin, "    println(5)", "println(<number>)"),
            (Lang::Ruby, "    puts 1", "puts(<number>)"),
            (Lang::Ruby, "    p(2)", "p(<number>)"),
            (
                Lang::CSharp,
                "Console.WriteLine(7);",
                "Console.WriteLine(<number>)",
            ),
        ] {
            assert_eq!(probe(lang, line).as_deref(), Some(label), "{line}");
        }
    }

    #[test]
    fn a_print_that_says_something_is_not() {
        for (lang, line) in [
            (Lang::Js, "console.error(4, err)"),
            (Lang::Js, "console.log('4')"),
            (Lang::Js, "console.log(count)"),
            (Lang::Js, "console.log(1 + x)"),
            (Lang::Js, "logger.console.log(1)"),
            (Lang::Js, "assert.equal(sum(1), 1)"),
            (Lang::Python, "print(n)"),
            (Lang::Python, "self.print(1)"),
            (Lang::Python, "def print(1)"),
            (Lang::Go, "\tw.println(1)"),
            (Lang::Ruby, "    puts 1 + count"),
            (Lang::Ruby, "    puts \"1\""),
            (Lang::Ruby, "    x.p 1"),
            (Lang::Rust, "println!(\"1\");"),
            (Lang::Php, "echo 1;"),
        ] {
            assert_eq!(probe(lang, line), None, "{line}");
        }
    }
}
