//! Debugging leftovers, per language, on code tokens.
//!
//! Two kinds:
//! - debugger hooks (`debugger;`, `breakpoint()`, `dbg!`, `binding.pry`, `var_dump`, ...)
//!   exist only to debug, so they are findings in every file, tests included;
//! - print-style output that is mostly debugging in library code (`console.log`,
//!   `System.out.println`, `printStackTrace()`, Go's builtin `println`) is a finding only in library and
//!   application source: not in test files, and not in files whose role is to print, the
//!   command-line scripts, benchmarks and examples ([`prints_are_output`]). In a JS test,
//!   a `console.log` of bare values, no text of its own (`console.log(ctx)`), is a dump
//!   left from looking at them, and a finding (see [`dumps_values`]).
//!
//! `console.error`, `console.warn` and `console.trace` write to stderr, the channel for
//! reporting errors (`console.trace(err)` in a catch handler), so they are not leftovers.
//!
//! Ordinary program output is never a finding: Python `print(`, Go `fmt.Println`, Rust
//! `println!`, Kotlin `println`, C# `Console.WriteLine` are how command-line programs
//! talk, and flagging them would drown the real leftovers.

use super::languages::Lang;
use super::line::{indent, LineCtx};
use super::print_probes::numbered_print;
use super::tokens::{Chain, Tok};
use std::collections::HashSet;

/// Directories whose files are programs run by hand, where printing is the point, or
/// fixtures a test runs and reads the output of.
const OUTPUT_DIRS: &[&str] = &[
    "bin",
    "script",
    "scripts",
    "bench",
    "benches",
    "benchmark",
    "benchmarks",
    "example",
    "examples",
    "fixture",
    "fixtures",
    "testdata",
];

/// Whether printing is the intended output of the file at `path`: it lies under a script,
/// benchmark, example or test-fixture directory, it starts with a `#!` line (an executable script), it
/// is a JVM program's entry point ([`jvm_program`]), or it is a Go test file with testable
/// examples (`func ExampleX()`), whose printing `go test` compares with their `// Output:`
/// comments.
pub fn prints_are_output(path: &str, text: Option<&str>) -> bool {
    let mut dirs = path.split('/').rev().skip(1);
    let go_examples = path.ends_with("_test.go")
        && text.is_some_and(|t| t.lines().any(|l| l.starts_with("func Example")));
    dirs.any(|d| OUTPUT_DIRS.contains(&d))
        || text.is_some_and(|t| t.starts_with("#!"))
        || go_examples
        || text.is_some_and(|t| jvm_program(path, t))
        || text.is_some_and(|t| python_program(path, t))
        || text.is_some_and(|t| js_program(path, t))
}

/// Whether a JavaScript/TypeScript file is a program run from the command line, not a
/// module others import: it reads its command line (`process.argv`) and exports nothing
/// (no `export`, `module.exports` or `exports.x =`). A profiling or report script run as
/// `node report.js run.cpuprofile` prints its report; a library that parses `argv` for its
/// caller exports what it offers, and keeps the rules of library code.
fn js_program(path: &str, text: &str) -> bool {
    const EXT: &[&str] = &["js", "mjs", "cjs", "ts", "mts", "cts"];
    if !path.rsplit_once('.').is_some_and(|(_, e)| EXT.contains(&e)) {
        return false;
    }
    let code = || {
        text.lines()
            .map(str::trim_start)
            .filter(|l| !l.starts_with("//") && !l.starts_with('*') && !l.starts_with("/*"))
    };
    let exports = |l: &str| {
        l.starts_with("export ")
            || l.starts_with("export{")
            || l.contains("module.exports")
            || l.starts_with("exports.")
    };
    code().any(|l| l.contains("process.argv")) && !code().any(exports)
}

/// Whether a Python file is a program: `__main__.py`, or a module that runs as one
/// (`if __name__ == "__main__":`). What it prints is what the program says.
fn python_program(path: &str, text: &str) -> bool {
    path.ends_with(".py")
        && (path.rsplit('/').next() == Some("__main__.py")
            || text.lines().any(|l| {
                l.starts_with("if __name__ ==")
                    || l.starts_with("if '__main__' ==")
                    || l.starts_with("if \"__main__\" ==")
            }))
}

/// Whether a Java or Kotlin file is a program, not library code: it declares the entry
/// point `main` (`public static void main(String[] args)`, Kotlin's top-level
/// `fun main(`), or it is a Kotlin script (`.kts`). What such a file prints is what the
/// program says to whoever runs it.
fn jvm_program(path: &str, text: &str) -> bool {
    if path.ends_with(".kts") {
        return true;
    }
    let java = path.ends_with(".java");
    let kotlin = path.ends_with(".kt");
    (java || kotlin)
        && text.lines().any(|l| {
            let l = l.trim_start();
            (java && l.contains("static void main(") && !l.starts_with("//") && !l.starts_with('*'))
                || (kotlin && l.starts_with("fun main("))
        })
}

/// Whether line `number` (1-based) of `lines` sits in a block opened by a condition or a
/// function that names debugging (`if debug {`, `if *debugLog {`, `if self.debug:`,
/// `func debugf(..) {`): output there is switched on deliberately, not left over. Blocks
/// are read by indentation, the enclosing openers being the nearest earlier lines indented
/// less.
pub fn under_debug_gate(lines: &[&str], number: usize) -> bool {
    enclosing_openers(lines, number).any(gates_on_debug)
}

/// Whether line `number` (1-based) of `lines` repeats, word for word, a line the change
/// kept (one not among `added`). A JS test's value dump that its file's untouched tests
/// already write the same way (`console.log(completion);` inside a helper that captures
/// the console and checks what was printed) follows the file's idiom; a look at a value is
/// written once, where it was needed.
pub fn repeats_a_kept_line(lines: &[&str], added: &HashSet<u32>, number: usize) -> bool {
    let Some(text) = number.checked_sub(1).and_then(|i| lines.get(i)) else {
        return false;
    };
    let text = text.trim();
    !text.is_empty()
        && lines.iter().enumerate().any(|(i, other)| {
            !added.contains(&(i as u32 + 1)) && i + 1 != number && other.trim() == text
        })
}

/// Whether a label is a JS console dump (`console.log`, not a numbered print).
pub fn is_console_dump(label: &str) -> bool {
    label.starts_with("console.") && !label.ends_with(')')
}

/// Whether line `number` (1-based) sits in a Java or Kotlin catch block that catches
/// `Throwable`, every error including those of code the library calls but does not own (a
/// user's callback). A `printStackTrace()` there is the library's last-resort report of an
/// error it must swallow, written on purpose; the leftover is the stub an IDE writes into
/// a catch of one checked exception (`catch (IOException e) { e.printStackTrace(); }`).
pub fn in_catch_of_throwable(lines: &[&str], number: usize) -> bool {
    enclosing_openers(lines, number).any(catches_throwable)
}

fn catches_throwable(opener: &str) -> bool {
    let Some((_, rest)) = opener.split_once("catch") else {
        return false;
    };
    let Some(inside) = rest.trim_start().strip_prefix('(') else {
        return false;
    };
    let clause = inside.split(')').next().unwrap_or("");
    clause
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .any(|w| w == "Throwable" || w == "java.lang.Throwable")
}

/// The lines that open the blocks around line `number` (1-based), innermost first, read by
/// indentation: each is the nearest earlier line indented less than the one before.
fn enclosing_openers<'a>(lines: &'a [&'a str], number: usize) -> impl Iterator<Item = &'a str> {
    let mut depth = number
        .checked_sub(1)
        .and_then(|i| lines.get(i))
        .map_or(0, |line| indent(line));
    let before = lines.get(..number.saturating_sub(1)).unwrap_or(&[]);
    before.iter().rev().filter_map(move |opener| {
        if depth == 0 || opener.trim().is_empty() || indent(opener) >= depth {
            return None;
        }
        depth = indent(opener);
        Some(*opener)
    })
}

/// Whether the statement holding `label` (a print found on the line whose code is `code`)
/// is guarded on the same line by a condition that names debugging: `if (debug)
/// console.log(..)`, `this.settings.debug && console.log(..)`, as a library's opt-in debug
/// mode is written (minified code holds many statements on a line: only the one the print
/// belongs to counts). A print after `&&` with no such word, or a debug word in another
/// statement of the line, is no gate.
pub fn gated_in_line(code: &str, label: &str) -> bool {
    let Some(at) = code.find(label) else {
        return false;
    };
    let before = code[..at].trim_end();
    let before = before.strip_suffix('{').unwrap_or(before).trim_end();
    let start = before.rfind([';', '{', '}']).map_or(0, |i| i + 1);
    let statement = before[start..].trim();
    let names_debug = statement
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w.to_ascii_lowercase().contains("debug"));
    let conditional =
        statement.ends_with("&&") || (statement.starts_with("if") && statement.ends_with(')'));
    names_debug && conditional
}

fn gates_on_debug(opener: &str) -> bool {
    let words: Vec<&str> = opener
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let opens = matches!(
        words.first().copied(),
        Some("if" | "elif" | "else" | "unless" | "when" | "func" | "def" | "fn" | "function")
    ) || opener.trim_start().starts_with('}');
    opens
        && words
            .iter()
            .any(|w| w.to_ascii_lowercase().contains("debug"))
}

/// The debugging leftovers on one line. `output_file`: see [`prints_are_output`].
pub fn find(cx: &LineCtx, output_file: bool) -> Vec<String> {
    let mut out = Vec::new();
    for (k, ch) in cx.chains.iter().enumerate() {
        if let Some(label) = match_chain(cx, k, ch, output_file) {
            out.push(label);
        }
    }
    out
}

/// Whether a called `printStackTrace` dumps the trace on the console: with no argument
/// (it writes to `System.err`), or given `System.out`/`System.err` itself. Given another
/// stream or writer (`e.printStackTrace(new PrintStream(buffer))`, `printStackTrace(pw)`),
/// the trace is captured, into a string, a log or a report, which is the program's work.
fn prints_to_console(cx: &LineCtx, ch: &Chain) -> bool {
    let arg = ch.end + 1;
    if cx.punct(arg, ')') {
        return true;
    }
    let console = cx.ident(arg) == Some("System")
        && cx.punct(arg + 1, '.')
        && matches!(cx.ident(arg + 2), Some("out" | "err"))
        && cx.punct(arg + 3, ')');
    // An argument that goes on past the line is unknown: the call stays a finding.
    console || cx.tok(arg).is_none()
}

/// The debuggers a Ruby `require` loads (`require 'pry'`): Ruby's `import pdb`. A
/// dependency line (`gem 'pry'`, `add_development_dependency 'byebug'`) loads nothing.
const RUBY_DEBUGGERS: &[&str] = &[
    "pry",
    "pry-byebug",
    "pry-nav",
    "byebug",
    "debug",
    "debug/open",
    "debug/open_nonstop",
    "ruby-debug",
];

/// The debugger a `require` statement at the start of the line loads, read from the
/// raw line (its string is not in the lexed code): `require 'pry'`, `require("byebug")`.
fn requires_debugger<'a>(cx: &LineCtx<'a>, ch: &Chain) -> Option<&'a str> {
    if !ch.is(&["require"]) || !ch.free(&cx.toks) {
        return None;
    }
    if !matches!(ch.before(&cx.toks), None | Some(Tok::Punct(';'))) {
        return None;
    }
    let rest = cx.raw.trim_start();
    let rest = rest
        .split(';')
        .find(|s| s.trim_start().starts_with("require"))?;
    let rest = rest.trim_start().strip_prefix("require")?;
    let rest = rest.trim_start();
    let rest = rest.strip_prefix('(').unwrap_or(rest).trim_start();
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let (name, _) = rest[1..].split_once(quote)?;
    RUBY_DEBUGGERS.contains(&name).then_some(name)
}

/// Whether a call's arguments, all on its line, are values with no text of their own
/// (`console.log(ctx)`, `console.log(res.body, err)`): a test dumping what it holds to look
/// at it, a debugging leftover. A test that prints on purpose says what it prints
/// (`console.log('skipping on windows')`, a template with its values in it).
fn dumps_values(cx: &LineCtx, ch: &Chain) -> bool {
    let open = ch.end;
    let mut depth = 0usize;
    for i in open..cx.toks.len() {
        match cx.tok(i) {
            Some(Tok::Str) => return false,
            Some(Tok::Punct('(' | '[' | '{')) => depth += 1,
            Some(Tok::Punct(')' | ']' | '}')) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i > open + 1;
                }
            }
            _ => {}
        }
    }
    // Arguments that go on past the line are not known to be text-free.
    false
}

/// Whether a call's arguments, on its line, pass a keyword (`print(x, file=sys.stderr)`,
/// `end=""`): output sent somewhere or shaped on purpose.
fn passes_keywords(cx: &LineCtx, ch: &Chain) -> bool {
    let mut depth = 0usize;
    for i in ch.end..cx.toks.len() {
        match cx.tok(i) {
            Some(Tok::Punct('(' | '[' | '{')) => depth += 1,
            Some(Tok::Punct(')' | ']' | '}')) => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return false;
                }
            }
            Some(Tok::Punct('=')) if depth == 1 => return true,
            _ => {}
        }
    }
    false
}

/// Whether a label is print-style output (as opposed to a debugger hook).
pub fn is_print_label(label: &str) -> bool {
    label.starts_with("console.")
        || label.starts_with("System.")
        || label.starts_with("println(")
        || label.starts_with("print(")
        || label == "printStackTrace()"
        || label == "NSLog("
}

/// Foundation's `NSLog(..)`, the console print of Swift and Objective-C, treated as JS's
/// `console.log`: a finding in library and application code; in a test only when it dumps
/// values, its format string holding conversions and no word of its own
/// (`NSLog("%@", progress)`, `NSLog(@"%@ %ld", a, b)`) and values with none either (no
/// string among them). A test that logs on purpose says what it logs (`NSLog("retrying
/// after %@", error)`, `NSLog("%@", "Request: \(request)")`).
fn nslog(cx: &LineCtx, ch: &Chain, code: bool, output_file: bool) -> bool {
    bare_call(cx, ch, &["NSLog"])
        && (code || (cx.is_test && !output_file && format_dumps_values(cx.raw, "NSLog(")))
}

/// Whether the call `opener` on `raw` passes a format string made of conversions alone
/// (`%@`, `%ld`, `%.2f`, with spaces and punctuation between them) and then the values.
fn format_dumps_values(raw: &str, opener: &str) -> bool {
    let Some(at) = raw.find(opener) else {
        return false;
    };
    let rest = raw[at + opener.len()..].trim_start();
    // Objective-C writes its string literals `@".."`.
    let rest = rest.strip_prefix('@').unwrap_or(rest);
    let Some(body) = rest.strip_prefix('"') else {
        return false;
    };
    let mut chars = body.chars();
    let (mut conversions, mut words) = (0, false);
    loop {
        match chars.next() {
            None => return false,
            Some('"') => break,
            // An escape (`\n`) is layout, not a word.
            Some('\\') => {
                chars.next();
            }
            Some('%') => {
                let spec: String = chars
                    .by_ref()
                    .skip_while(|c| "-+ #0123456789.*'$hlqLzjt".contains(*c))
                    .take(1)
                    .collect();
                if spec != "%" {
                    conversions += 1;
                }
            }
            Some(c) if c.is_alphanumeric() => words = true,
            Some(_) => {}
        }
    }
    // The values after it hold no text either: `NSLog("%@", "Request: \(request)")` logs a
    // message, written through the format.
    let values = chars.as_str().trim_start();
    conversions > 0 && !words && values.starts_with(',') && !values.contains('"')
}

/// A bare call of a free function: `name(`, not `x.name(` nor `def name(`.
fn bare_call(cx: &LineCtx, ch: &Chain, names: &[&str]) -> bool {
    ch.names.len() == 1
        && names.contains(&ch.head())
        && ch.called(&cx.toks)
        && ch.free(&cx.toks)
        && !matches!(
            ch.before(&cx.toks),
            Some(Tok::Ident("def" | "fn" | "func" | "function" | "fun"))
        )
}

fn ends_with(ch: &Chain, tail: &[&str]) -> bool {
    ch.names.ends_with(tail)
}

fn match_chain(cx: &LineCtx, k: usize, ch: &Chain, output_file: bool) -> Option<String> {
    let n = &ch.names;
    let called = ch.called(&cx.toks);
    let code = !cx.is_test && !output_file;
    if !output_file {
        if let Some(label) = numbered_print(cx, ch) {
            return Some(label);
        }
    }
    let label = match cx.lang {
        Lang::Js => {
            const CONSOLE: &[&str] = &["log", "debug", "dir", "table"];
            if (code || (cx.is_test && !output_file && dumps_values(cx, ch)))
                && n.len() == 2
                && n[0] == "console"
                && CONSOLE.contains(&n[1])
                && called
                && ch.free(&cx.toks)
            {
                format!("console.{}", n[1])
            } else if ch.is(&["debugger"])
                && ch.free(&cx.toks)
                && matches!(ch.after(&cx.toks), None | Some(Tok::Punct(';' | '}')))
            {
                "debugger".into()
            } else {
                return None;
            }
        }
        Lang::Python => {
            let imports_debugger = k > 0
                && cx.chains[k - 1].is(&["import"])
                && cx.chains[k - 1].end == ch.start
                && ["pdb", "ipdb", "pudb"].contains(&ch.head());
            if bare_call(cx, ch, &["breakpoint"]) {
                "breakpoint()".into()
            } else if n.len() == 2
                && ["pdb", "ipdb", "pudb"].contains(&n[0])
                && n[1] == "set_trace"
                && called
            {
                format!("{}.set_trace()", n[0])
            } else if imports_debugger {
                format!("import {}", ch.head())
            } else if code
                && bare_call(cx, ch, &["print"])
                && dumps_values(cx, ch)
                && !passes_keywords(cx, ch)
            {
                // A library module's `print(page.file.src_uri)`: a value looked at, with no
                // word of its own to say what it is for.
                "print(<value>)".into()
            } else {
                return None;
            }
        }
        Lang::Go => {
            if ch.is(&["runtime", "Breakpoint"]) && called {
                "runtime.Breakpoint()".into()
            } else if !output_file
                && n.len() == 2
                && n[0] == "spew"
                && n[1].starts_with("Dump")
                && called
            {
                format!("spew.{}", n[1])
            } else if code && bare_call(cx, ch, &["println", "print"]) {
                // Go's builtin print/println write to stderr and exist for debugging; in a
                // test file, a harness reports on stderr with them.
                format!("{}(", ch.head())
            } else {
                return None;
            }
        }
        Lang::Rust => {
            if ch.is(&["dbg"]) && ch.free(&cx.toks) && ch.after(&cx.toks) == Some(Tok::Punct('!')) {
                "dbg!".into()
            } else {
                return None;
            }
        }
        Lang::Java | Lang::Kotlin => {
            // `System.err` is the channel for notices and errors, as `console.error` is
            // in JS: a library's deliberate warning goes there, a leftover to `System.out`.
            let system_out = n.len() == 3
                && n[0] == "System"
                && n[1] == "out"
                && ["println", "print", "printf"].contains(&n[2]);
            if code && system_out && called {
                format!("System.{}.{}", n[1], n[2])
            } else if code
                && n.len() >= 2
                && ch.last() == "printStackTrace"
                && called
                && prints_to_console(cx, ch)
            {
                "printStackTrace()".into()
            } else {
                return None;
            }
        }
        Lang::Ruby => {
            if n.len() == 2 && n[0] == "binding" && ["pry", "irb", "break"].contains(&n[1]) {
                format!("binding.{}", n[1])
            } else if n.len() == 1
                && ["byebug", "debugger"].contains(&n[0])
                && ch.free(&cx.toks)
                && !matches!(ch.after(&cx.toks), Some(Tok::Punct('=' | '.' | ':')))
                && ch.before(&cx.toks) != Some(Tok::Ident("def"))
            {
                n[0].to_string()
            } else if let Some(name) = requires_debugger(cx, ch) {
                format!("require '{name}'")
            } else {
                return None;
            }
        }
        Lang::Elixir => {
            if ch.is(&["IO", "inspect"]) && called {
                "IO.inspect".into()
            } else if ch.is(&["IEx", "pry"]) {
                "IEx.pry".into()
            } else if bare_call(cx, ch, &["dbg"]) {
                "dbg(".into()
            } else {
                return None;
            }
        }
        Lang::CSharp => {
            if (ends_with(ch, &["Debugger", "Break"]) || ends_with(ch, &["Debugger", "Launch"]))
                && called
            {
                format!("Debugger.{}()", ch.last())
            } else {
                return None;
            }
        }
        Lang::Php => {
            if bare_call(cx, ch, &["var_dump", "dd", "ddd", "xdebug_break"]) {
                format!("{}(", ch.head())
            } else {
                return None;
            }
        }
        Lang::Swift => {
            if bare_call(cx, ch, &["debugPrint"]) {
                "debugPrint(".into()
            } else if nslog(cx, ch, code, output_file) {
                "NSLog(".into()
            } else {
                return None;
            }
        }
        Lang::C => {
            if bare_call(cx, ch, &["__debugbreak", "__builtin_debugtrap"]) {
                format!("{}()", ch.head())
            } else if nslog(cx, ch, code, output_file) {
                "NSLog(".into()
            } else {
                return None;
            }
        }
        Lang::Shell | Lang::Css | Lang::Scss | Lang::Erlang | Lang::Data | Lang::Jsonc => {
            return None
        }
    };
    Some(label)
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex_line;
    use super::*;

    fn found(lang: Lang, is_test: bool, line: &str) -> Vec<String> {
        let view = lex_line(&lang.syntax(), line);
        let mut cx = LineCtx::new(lang, &view, is_test);
        cx.raw = line;
        find(&cx, false)
    }

    fn hits(lang: Lang, line: &str) -> bool {
        !found(lang, false, line).is_empty()
    }

    #[test]
    fn debugger_hooks_are_caught_everywhere() {
        for (lang, line) in [
            (Lang::Js, "  debugger;"),
            (Lang::Js, "  debugger"),
            (Lang::Python, "    breakpoint()"),
            (Lang::Python, "    import pdb; pdb.set_trace()"),
            (Lang::Python, "    import ipdb"),
            (Lang::Rust, "    let x = dbg!(y);"),
            (Lang::Ruby, "    binding.pry"),
            (Lang::Ruby, "    byebug"),
            (Lang::Ruby, "    require 'pry'"),
            (Lang::Ruby, "require \"byebug\""),
            (Lang::Ruby, "  require('debug')"),
            (Lang::Ruby, "  require 'pry-byebug' # for now"),
            (Lang::Go, "\truntime.Breakpoint()"),
            (Lang::Elixir, "    |> IO.inspect(label: \"x\")"),
            (Lang::Elixir, "    require IEx; IEx.pry"),
            (Lang::CSharp, "    System.Diagnostics.Debugger.Break();"),
            (Lang::Php, "    var_dump($x);"),
            (Lang::Php, "    dd($request);"),
            (Lang::Swift, "    debugPrint(value)"),
            (Lang::C, "    __debugbreak();"),
        ] {
            assert!(!found(lang, true, line).is_empty(), "{line}");
        }
    }

    #[test]
    fn a_line_repeating_a_kept_one_follows_the_file() {
        let text = "it('a', () => {\n  console.log(x);\n});\nit('b', () => {\n  console.log(x);\n  console.log(y);\n});\n";
        let lines: Vec<&str> = text.split('\n').collect();
        let added: HashSet<u32> = [4, 5, 6, 7].into_iter().collect();
        assert!(repeats_a_kept_line(&lines, &added, 5));
        assert!(
            !repeats_a_kept_line(&lines, &added, 6),
            "only in added lines"
        );
        let all: HashSet<u32> = (1..=8).collect();
        assert!(!repeats_a_kept_line(&lines, &all, 5), "the twin is new too");
        assert!(is_console_dump("console.log"));
        assert!(!is_console_dump("console.error(<number>)"));
        assert!(!is_console_dump("debugger"));
    }

    #[test]
    fn a_catch_of_throwable_encloses_the_line() {
        let java = "try {\n  run();\n} catch (final Throwable t) {\n  t.printStackTrace();\n}\nt.printStackTrace();\n";
        let lines: Vec<&str> = java.split('\n').collect();
        assert!(in_catch_of_throwable(&lines, 4));
        assert!(!in_catch_of_throwable(&lines, 6), "after the catch closed");
        let kotlin = "try {\n    run()\n} catch (t: Throwable) {\n    t.printStackTrace()\n}\n";
        let lines: Vec<&str> = kotlin.split('\n').collect();
        assert!(in_catch_of_throwable(&lines, 4));
        for other in [
            "} catch (IOException e) {",
            "} catch (ThrowableWrapper e) {",
            "catchThrowable(() -> {",
        ] {
            let text = format!("{other}\n  e.printStackTrace();\n");
            let lines: Vec<&str> = text.split('\n').collect();
            assert!(!in_catch_of_throwable(&lines, 2), "{other}");
        }
    }

    #[test]
    fn output_switched_on_for_debugging_is_deliberate() {
        let text = "func f() {\n\tif debug {\n\t\tprint(i)\n\t\tif x {\n\t\t\tprint(x)\n\t\t}\n\t}\n\tprint(y)\n}\n\nfunc debugf(s string) {\n\tif *on {\n\t\tprintln(s)\n\t}\n}\n";
        let lines: Vec<&str> = text.split('\n').collect();
        assert!(under_debug_gate(&lines, 3));
        assert!(under_debug_gate(&lines, 5));
        assert!(!under_debug_gate(&lines, 8), "after the gate closed");
        assert!(under_debug_gate(&lines, 13), "in a debug helper");
        let py = "def f(self):\n    if self.debug:\n        print(x)\n    console.log(y)\n";
        let lines: Vec<&str> = py.split('\n').collect();
        assert!(under_debug_gate(&lines, 3));
        assert!(!under_debug_gate(&lines, 4));
        // A word merely containing the letters elsewhere does not open a gate.
        let js = "function render() {\n  const debugged = 1;\n  console.log(debugged);\n}\n";
        let lines: Vec<&str> = js.split('\n').collect();
        assert!(!under_debug_gate(&lines, 3));
    }

    #[test]
    fn a_print_guarded_on_its_line_by_a_debug_condition_is_gated() {
        let label = "console.log";
        assert!(gated_in_line(
            "this.settings.debug && window.console && console.log(\"x\", e);",
            label
        ));
        assert!(gated_in_line("  if (opts.debug) console.log(x);", label));
        assert!(gated_in_line("if (isDebug()) { console.log(x) }", label));
        assert!(gated_in_line(
            "try{a()}catch(j){this.settings.debug&&window.console&&console.log(\"e\",j);throw j}",
            label
        ));
        // No debug word in the print's own condition.
        assert!(!gated_in_line("ready && console.log(x);", label));
        assert!(!gated_in_line("debug = 1; console.log(x);", label));
        assert!(!gated_in_line("console.log(debug);", label));
        assert!(!gated_in_line("log(debugInfo); console.log(x);", label));
    }

    #[test]
    fn print_style_output_is_caught_outside_tests_only() {
        assert_eq!(
            found(Lang::Js, false, "console.log(x)"),
            vec!["console.log"]
        );
        // In a test, a message is deliberate output; bare values dumped are not.
        assert!(found(Lang::Js, true, "console.log('skipping on windows')").is_empty());
        assert!(found(Lang::Js, true, "console.log(`at ${x}`, x)").is_empty());
        assert!(found(Lang::Js, true, "console.log(").is_empty());
        assert!(found(Lang::Js, true, "console.log()").is_empty());
        assert_eq!(found(Lang::Js, true, "console.log(x)"), vec!["console.log"]);
        assert_eq!(
            found(Lang::Js, true, "  console.dir(res.body, { depth: 2 });"),
            vec!["console.dir"]
        );
        assert!(hits(Lang::Java, "System.out.println(x);"));
        assert!(hits(Lang::Java, "e.printStackTrace();"));
        assert!(hits(Lang::Java, "e.printStackTrace(System.out);"));
        assert!(hits(
            Lang::Java,
            "  e.printStackTrace(System.err); // later"
        ));
        assert!(hits(Lang::Java, "e.printStackTrace("));
        assert!(found(Lang::Java, true, "System.out.println(x);").is_empty());
        assert_eq!(
            found(Lang::Go, false, "\tprintln(\"here\")"),
            vec!["println("]
        );
        assert!(found(Lang::Go, true, "\tprintln(\"write failed\")").is_empty());
        // A notice on stderr is deliberate (mockito's Java agent says what it suppresses).
        assert!(!hits(
            Lang::Java,
            "            System.err.println(\"Suppressing static class initializer\");"
        ));
        assert!(!hits(Lang::Kotlin, "System.err.printf(\"%s\", warning)"));
    }

    #[test]
    fn printing_is_output_in_scripts_benchmarks_and_examples() {
        for path in [
            "benchmarks/fetch/bench.mts",
            "packages/core/scripts/release.js",
            "bin/cli.js",
            "examples/hello/src/Main.java",
            "bench/run.ts",
        ] {
            assert!(prints_are_output(path, None), "{path}");
        }
        for path in [
            "src/index.ts",
            "src/examples.ts",
            "lib/binary/x.js",
            "bench.ts",
        ] {
            assert!(!prints_are_output(path, None), "{path}");
        }
        let example = "package a\n\nfunc ExampleDump() {\n\tspew.Dump(x)\n\t// Output:\n}\n";
        assert!(prints_are_output("spew/example_test.go", Some(example)));
        assert!(!prints_are_output("spew/example.go", Some(example)));
        assert!(!prints_are_output(
            "spew/dump_test.go",
            Some("func TestDump(t *testing.T) {\n\tspew.Dump(x)\n}\n")
        ));
        let view = lex_line(&Lang::Go.syntax(), "\tspew.Dump(x)");
        assert!(find(&LineCtx::new(Lang::Go, &view, true), true).is_empty());
        assert_eq!(
            find(&LineCtx::new(Lang::Go, &view, true), false),
            vec!["spew.Dump"]
        );
        assert!(prints_are_output("tool.js", Some("#!/usr/bin/env node\n")));
        assert!(!prints_are_output("tool.js", Some("// #!\n")));
        // A script that reads its command line and exports nothing is a program.
        let report = "const file = process.argv[2]\nconsole.log(read(file))\n";
        assert!(prints_are_output("perf/report.mjs", Some(report)));
        let lib = "export function parse() {\n  return process.argv.slice(2)\n}\n";
        assert!(!prints_are_output("src/args.ts", Some(lib)));
        let cjs = "const argv = process.argv\nmodule.exports = { argv }\n";
        assert!(!prints_are_output("lib/args.js", Some(cjs)));
        let quoted = "// run with process.argv[2] set\nconsole.log(x)\n";
        assert!(!prints_are_output("src/x.js", Some(quoted)));
        let java_main = "package app;\n\npublic final class Main {\n  public static void main(String[] args) {\n    System.out.println(run());\n  }\n}\n";
        assert!(prints_are_output(
            "src/main/java/app/Main.java",
            Some(java_main)
        ));
        assert!(prints_are_output(
            "src/Tool.kt",
            Some("fun main(args: Array<String>) {\n  println(1)\n}\n")
        ));
        assert!(prints_are_output("build.gradle.kts", Some("plugins {}\n")));
        // A library class, one that only mentions `main` in a comment, or a method that
        // is not the entry point, is not a program.
        for text in [
            "class Lib {\n  void run() {\n    System.out.println(1);\n  }\n}\n",
            "class Lib {\n  // public static void main(String[] args) was removed\n}\n",
            "class Lib {\n  static void mainLoop(int n) {}\n}\n",
        ] {
            assert!(
                !prints_are_output("src/main/java/lib/Lib.java", Some(text)),
                "{text}"
            );
        }
        assert!(!prints_are_output(
            "src/Lib.kt",
            Some("class Lib {\n  fun mainly() = 1\n}\n")
        ));
        let view = lex_line(&Lang::Js.syntax(), "console.log(x)");
        let cx = LineCtx::new(Lang::Js, &view, false);
        assert!(find(&cx, true).is_empty());
        assert_eq!(find(&cx, false), vec!["console.log"]);
        // Debugger hooks stay findings in those files.
        let view = lex_line(&Lang::Js.syntax(), "  debugger;");
        assert_eq!(
            find(&LineCtx::new(Lang::Js, &view, false), true),
            vec!["debugger"]
        );
    }

    #[test]
    fn lookalikes_and_program_output_are_not_debug() {
        // Foundation's `NSLog` in a test: a dump of values only with a format of
        // conversions alone.
        assert_eq!(
            found(Lang::Swift, true, "    NSLog(\"%@\", progress)"),
            vec!["NSLog("]
        );
        assert_eq!(
            found(Lang::C, true, "  NSLog(@\"%@: %.2f\", a, b);"),
            vec!["NSLog("]
        );
        assert_eq!(
            found(Lang::Swift, false, "NSLog(\"ready\")"),
            vec!["NSLog("]
        );
        for line in [
            "NSLog(\"retrying after %@\", e)",
            "NSLog(\"%@\")",
            "NSLog(\"%%\", x)",
            "NSLog(\"%@\", \"Request: \\(request)\")",
            "NSLog(format, x)",
            "// NSLog(\"%@\", x)",
            "log.NSLog(\"%@\", x)",
        ] {
            assert!(found(Lang::Swift, true, line).is_empty(), "{line}");
        }
        assert!(!hits(Lang::Js, "  } catch (err) { console.trace(err) }"));
        for (lang, line) in [
            (Lang::Js, "console.error(err)"),
            (Lang::Js, "logger.console.log(x)"),
            (Lang::Js, "const s = 'debugger;'"),
            (Lang::Js, "// console.log(x)"),
            (Lang::Js, "options.debugger = true;"),
            // A Python program's message says what it prints (a bare value is a dump).
            (Lang::Python, "print(\"result:\", result)"),
            (Lang::Python, "print(result, file=sys.stderr)"),
            (Lang::Python, "def breakpoint(self): pass"),
            (Lang::Python, "obj.breakpoint()"),
            (Lang::Python, "# breakpoint()"),
            (Lang::Go, "\tfmt.Println(x)"),
            (Lang::Go, "\tw.println(x)"),
            (Lang::Go, "func println(x int) {}"),
            (Lang::Rust, "println!(\"{x}\");"),
            (Lang::Rust, "fn dbg() {}"),
            (Lang::Ruby, "debugger_enabled = true"),
            (Lang::Ruby, "config.debugger = x"),
            (Lang::Ruby, "require 'json'"),
            (Lang::Ruby, "require 'debug_helper'"),
            (Lang::Ruby, "gem 'pry', require: false"),
            (Lang::Ruby, "spec.add_development_dependency 'pry'"),
            (Lang::Ruby, "# require 'pry'"),
            (Lang::Ruby, "x = \"require 'pry'\""),
            (Lang::Kotlin, "println(x)"),
            (Lang::CSharp, "Console.WriteLine(x);"),
            (Lang::Php, "$obj->dd($x);"),
            (Lang::Php, "function dd($x) {}"),
            (Lang::Swift, "print(x)"),
            // A trace captured into a given stream or writer.
            (Lang::Java, "e.printStackTrace(new PrintStream(out));"),
            (Lang::Java, "        t.printStackTrace(writer);"),
            (Lang::Kotlin, "e.printStackTrace(PrintWriter(sw))"),
        ] {
            assert!(!hits(lang, line), "{line}");
        }
        assert!(hits(Lang::Python, "    print(page.file.src_uri)"));
    }
}
