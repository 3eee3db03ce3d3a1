//! Test skip markers per language, matched on code tokens (never inside strings or
//! comments). A focus marker (`.only`, `fit`) counts as a skip: it silently stops every
//! other test from running.

use super::languages::Lang;
use super::line::LineCtx;
use super::tokens::{Chain, Tok};

/// JS/TS test functions whose `.skip` / `.only` / `.todo` variants disable tests.
const JS_RECEIVERS: &[&str] = &[
    "it", "test", "describe", "context", "suite", "specify", "bench",
];
/// `failing` (AVA, Jest) and `fails` (Vitest) mark an expected failure: the test passes
/// while the code is broken, as Python's `xfail` does.
pub(super) const JS_VARIANTS: &[&str] = &[
    "skip", "only", "todo", "skipIf", "runIf", "failing", "fails",
];
/// `xit(...)` style (skipped) and `fit(...)` style (focused) test functions.
const JS_PREFIXED: &[&str] = &[
    "xit",
    "xdescribe",
    "xtest",
    "xcontext",
    "xspecify",
    "fit",
    "fdescribe",
    "fcontext",
];
const FOCUS: &[&str] = &[".only", "fit", "fdescribe", "fcontext"];

/// Whether the marker focuses tests (so it skips all the others).
pub fn is_focus(label: &str) -> bool {
    FOCUS.iter().any(|f| label.ends_with(f)) || label.contains(".only")
}

/// The marker a skip label spells, for pairing a rewrite: `xit` and `it.skip`, RSpec's
/// `pending` and `skip`, JUnit's `@Ignore` and `@Disabled`, `@unittest.skip` and
/// `@pytest.mark.skip` disable the same thing the same way, so one rewritten into another
/// over the same test is the same skip. Families keep what they reach apart: one test or
/// a whole group, a declaration (always) or a statement in the body (often under an `if`),
/// conditional or not, expected failure, focus, placeholder. Labels of no family (and
/// every other guard's labels) stand for themselves.
pub fn family(label: &str) -> &str {
    const TEST: &[&str] = &["it", "test", "specify", "bench"];
    const GROUP: &[&str] = &["describe", "context", "suite"];
    match label {
        "xit"
        | "xtest"
        | "xspecify"
        | "xexample"
        | "xscenario"
        | "{ skip: ... }"
        | "pytest.mark.skip"
        | "@mark.skip"
        | "unittest.skip"
        | "@skip"
        | ":skip"
        | "skip:"
        | ":pending"
        | "pending:"
        | "@Ignore"
        | "@Disabled"
        | "@Test(enabled = false)"
        | "skip(" => "test.skip",
        "xdescribe" | "xcontext" | "xfeature" => "group.skip",
        "fit" | "{ only: ... }" => "test.only",
        "fdescribe" | "fcontext" => "group.only",
        "{ todo: ... }" => "test.todo",
        "pytest.mark.skipif" | "@mark.skipif" | "unittest.skipIf" | "@skipIf" => "test.skipif",
        "unittest.skipUnless" | "@skipUnless" => "test.skipunless",
        "pytest.mark.xfail" | "@mark.xfail" | "unittest.expectedFailure" | "@expectedFailure" => {
            "test.xfail"
        }
        "pytest.skip("
        | "pytest.importorskip("
        | "self.skipTest("
        | "raise SkipTest"
        | "skip"
        | "pending"
        | "omit"
        | "omit_if"
        | "omit_unless"
        | "pend"
        | "{ skip } context"
        | "this.skip("
        | "t.skip" => "body.skip",
        _ if JVM_ASSUME
            .iter()
            .any(|a| label.strip_suffix('(') == Some(a)) =>
        {
            "body.skip"
        }
        _ if super::skip_helpers::is_helper_label(label) => "body.skip",
        _ if [".Skip(", ".Skipf(", ".SkipNow("]
            .iter()
            .any(|s| label.ends_with(s)) =>
        {
            "body.skip"
        }
        _ => match label.split_once('.') {
            Some((head, variant)) if TEST.contains(&head) || GROUP.contains(&head) => {
                let group = GROUP.contains(&head);
                match (group, variant) {
                    (false, "skip") => "test.skip",
                    (true, "skip") => "group.skip",
                    (false, "only") => "test.only",
                    (true, "only") => "group.only",
                    (false, "todo") => "test.todo",
                    (false, "failing" | "fails") => "test.failing",
                    _ => label,
                }
            }
            _ => label,
        },
    }
}

/// The skip markers on one line, as short labels (`it.skip`, `@pytest.mark.skip`).
pub fn find(cx: &LineCtx) -> Vec<String> {
    let mut out = Vec::new();
    match cx.lang {
        Lang::Js => js(cx, &mut out),
        Lang::Python => python(cx, &mut out),
        Lang::Go => go(cx, &mut out),
        Lang::Rust => {
            rust(cx, &mut out);
            if super::doc_fences::ignores(cx.lang, cx.view) {
                out.push(super::doc_fences::LABEL.into());
            }
        }
        Lang::Java | Lang::Kotlin => jvm(cx, &mut out),
        Lang::Ruby => ruby(cx, &mut out),
        Lang::Elixir => elixir(cx, &mut out),
        Lang::CSharp => csharp(cx, &mut out),
        Lang::Php => php(cx, &mut out),
        Lang::Swift => swift(cx, &mut out),
        Lang::C => c(cx, &mut out),
        Lang::Shell | Lang::Css | Lang::Scss | Lang::Erlang | Lang::Data | Lang::Jsonc => {}
    }
    super::skip_helpers::calls(cx, cx.skip_helpers, &mut out);
    super::mark_aliases::uses(cx, cx.mark_aliases, &mut out);
    out
}

fn js(cx: &LineCtx, out: &mut Vec<String>) {
    for ch in &cx.chains {
        // In JS only a `.` makes a chain the tail of another: after `:` or `=>` it is a
        // value (`cond ? describe : describe.skip`, `() => it.skip`).
        if ch.before(&cx.toks) == Some(Tok::Punct('.')) {
            continue;
        }
        let head = ch.head();
        if cx.is_test && ch.is(&["this", "skip"]) && ch.called(&cx.toks) {
            // Mocha: `this.skip()` in a test (or a hook) stops it and reports it pending.
            out.push("this.skip(".into());
        } else if JS_RECEIVERS.contains(&head) || (cx.is_test && head == "t" && ch.called(&cx.toks))
        {
            if let Some(v) = ch.names[1..].iter().find(|n| JS_VARIANTS.contains(n)) {
                if head != "t" || ["skip", "todo"].contains(v) {
                    out.push(format!("{head}.{v}"));
                }
            }
        } else if cx.is_test
            && ch.names.len() == 1
            && JS_PREFIXED.contains(&head)
            && ch.called(&cx.toks)
        {
            out.push(head.to_string());
        } else if cx.is_test
            && ch.names.len() == 1
            && head == "skip"
            && ch.called(&cx.toks)
            && cx.tok(ch.end + 1) == Some(Tok::Str)
            && ch.before(&cx.toks) != Some(Tok::Ident("function"))
        {
            // tap's top-level `skip('reason', ...)` (`const { skip } = require('tap')`)
            // registers a skipped test; a name, not a count, is what tells it from a
            // local `skip(n)`.
            out.push("skip(".into());
        } else if cx.is_test
            && ch.names.len() == 1
            && ["skip", "only", "todo"].contains(&head)
            && matches!(
                ch.before(&cx.toks),
                Some(Tok::Punct('{')) | Some(Tok::Punct(','))
            )
        {
            let after = ch.after(&cx.toks);
            let brace = unmatched_open(cx, ch.start, '{');
            let paren = brace.and_then(|b| unmatched_open(cx, b, '('));
            let Some(paren) = paren else { continue };
            let option = chain_ending_at(cx, paren).is_some_and(is_test_call);
            if after == Some(Tok::Punct(':')) && option_is_set(cx, ch.end + 1) && option {
                // node:test options: `test('x', { skip: true }, ...)`, an object given to
                // the test function itself (not `f({ skip: g })` inside a test file).
                out.push(format!("{{ {head}: ... }}"));
            } else if matches!(after, Some(Tok::Punct(',' | '}')))
                && option
                && !cx.options_off.iter().any(|o| o == head)
            {
                // The shorthand `{ skip }` takes its value from a variable of that name
                // (`const skip = process.env.CI`): a condition, like `{ skip: cond }`,
                // unless the file declares it a constant off (`const skip = false`).
                out.push(format!("{{ {head}: ... }}"));
            } else if head == "skip"
                && matches!(after, Some(Tok::Punct(':' | ',' | '}')))
                && context_parameter(cx, paren)
            {
                // Vitest's test context: `beforeEach(({ skip }) => ...)` takes the
                // function that skips the running test.
                out.push("{ skip } context".into());
            }
        }
    }
}

/// The test options (`skip`, `todo`, `only`) a JS file declares as variables holding a
/// constant off value (`const skip = false`, `let todo = null`), every declaration of the
/// name in the file so: the shorthand `{ skip }` passes that value to the test, which then
/// skips nothing. Any other value (`const skip = process.env.CI`) is a condition.
pub fn js_options_off(lang: Lang, views: &[super::lexer::LineView]) -> Vec<String> {
    let mut off: Vec<String> = Vec::new();
    let mut on: Vec<String> = Vec::new();
    if lang != Lang::Js {
        return off;
    }
    for view in views {
        if !["skip", "todo", "only"]
            .iter()
            .any(|n| view.code.contains(n))
        {
            continue;
        }
        let cx = LineCtx::new(lang, view, true);
        for i in 0..cx.toks.len() {
            let declared = matches!(cx.ident(i), Some("const" | "let" | "var"))
                && cx.punct(i + 2, '=')
                && !cx.punct(i + 3, '=');
            let Some(name) = cx
                .ident(i + 1)
                .filter(|n| ["skip", "todo", "only"].contains(n))
            else {
                continue;
            };
            if !declared {
                continue;
            }
            let ends = |k: usize| matches!(cx.tok(k), None | Some(Tok::Punct(';' | ',')));
            let constant_off = match cx.tok(i + 3) {
                Some(Tok::Ident("false" | "null" | "undefined")) => ends(i + 4),
                Some(Tok::Punct('!')) => cx.ident(i + 4) == Some("true") && ends(i + 5),
                _ => false,
            };
            if constant_off { &mut off } else { &mut on }.push(name.to_string());
        }
    }
    off.retain(|n| !on.contains(n));
    off.dedup();
    off
}

/// Whether `text` may declare a test option as a variable (`skip =`, spacing free): a
/// cheap look before lexing a file only for [`js_options_off`].
pub fn may_declare_options(text: &str) -> bool {
    ["skip", "todo", "only"].iter().any(|name| {
        text.match_indices(name)
            .any(|(at, _)| text[at + name.len()..].trim_start().starts_with('='))
    })
}

/// A function that declares tests or takes their options: `it`, `test`, `t.test`, ...
fn is_test_call(c: &Chain) -> bool {
    JS_RECEIVERS.contains(&c.head()) || c.last() == "test"
}

/// The chain whose call opens at token `paren` (`f` in `f(`), if any.
fn chain_ending_at<'c, 'a>(cx: &'c LineCtx<'a>, paren: usize) -> Option<&'c Chain<'a>> {
    cx.chains.iter().find(|c| c.end == paren)
}

/// The parameter list opening at `paren` belongs to a callback given directly to a test
/// function or an each-test hook: `test('x', ({ skip }) =>` or `beforeEach(function ({`.
fn context_parameter(cx: &LineCtx, paren: usize) -> bool {
    const HOOKS: &[&str] = &["beforeEach", "afterEach"];
    let callback = match chain_ending_at(cx, paren) {
        None => true,
        Some(c) => c.is(&["function"]) || c.is(&["async"]),
    };
    let outer = unmatched_open(cx, paren, '(').and_then(|p| chain_ending_at(cx, p));
    callback
        && outer
            .is_some_and(|c| is_test_call(c) || (c.names.len() == 1 && HOOKS.contains(&c.head())))
}

/// The index of the bracket `want` that encloses token `at` on this line, when the
/// innermost unclosed bracket before `at` is of that kind.
fn unmatched_open(cx: &LineCtx, at: usize, want: char) -> Option<usize> {
    let mut depth = 0usize;
    for i in (0..at).rev() {
        match cx.tok(i) {
            Some(Tok::Punct(')' | ']' | '}')) => depth += 1,
            Some(Tok::Punct(c @ ('(' | '[' | '{'))) => {
                if depth == 0 {
                    return (c == want).then_some(i);
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    None
}

/// An option value that turns the option on: anything but `false`, `0`, `null`,
/// `undefined`, `nil`. A negated or bracketed condition (`!isV19plus`, `(a || b)`) is a
/// condition like any other; only `!true` is a constant off.
fn option_is_set(cx: &LineCtx, at: usize) -> bool {
    match cx.tok(at) {
        None => false,
        Some(Tok::Punct('!')) => cx.tok(at + 1) != Some(Tok::Ident("true")),
        Some(Tok::Punct('(')) => true,
        Some(Tok::Ident(v)) => !["false", "null", "undefined", "nil"].contains(&v),
        Some(Tok::Num) => true,
        Some(Tok::Str) => true,
        Some(Tok::Punct(_)) => false,
    }
}

fn python(cx: &LineCtx, out: &mut Vec<String>) {
    const MARKS: &[&str] = &["skip", "skipif", "xfail"];
    const UNITTEST: &[&str] = &["skip", "skipIf", "skipUnless", "expectedFailure"];
    for (k, ch) in cx.chains.iter().enumerate() {
        let n = &ch.names;
        let decorated = ch.before(&cx.toks) == Some(Tok::Punct('@'));
        if n.len() >= 3 && n[0] == "pytest" && n[1] == "mark" && MARKS.contains(&n[2]) {
            if n[2] == "skipif" && never_holds(cx, ch.end) {
                continue;
            }
            out.push(format!("pytest.mark.{}", n[2]));
        } else if n.len() == 2 && n[0] == "mark" && MARKS.contains(&n[1]) && decorated {
            out.push(format!("@mark.{}", n[1]));
        } else if n.len() == 2
            && n[0] == "pytest"
            && ["skip", "xfail"].contains(&n[1])
            && ch.called(&cx.toks)
        {
            out.push(format!("pytest.{}(", n[1]));
        } else if n.len() == 2 && n[0] == "pytest" && n[1] == "importorskip" && ch.called(&cx.toks)
        {
            // The runner reports the test (or, at module level, the whole module) skipped
            // when the import fails, as `pytest.skip()` does.
            out.push("pytest.importorskip(".into());
        } else if n.len() == 2 && n[0] == "unittest" && UNITTEST.contains(&n[1]) {
            out.push(format!("unittest.{}", n[1]));
        } else if n.len() == 2 && n[0] == "self" && n[1] == "skipTest" && ch.called(&cx.toks) {
            out.push("self.skipTest(".into());
        } else if n.len() == 1 && UNITTEST.contains(&n[0]) && decorated {
            out.push(format!("@{}", n[0]));
        } else if ch.last() == "SkipTest"
            && k > 0
            && cx.chains[k - 1].is(&["raise"])
            && cx.chains[k - 1].end == ch.start
        {
            out.push("raise SkipTest".into());
        }
    }
}

/// `skipif(False, ..)`: a condition written as the literal `False` never holds, so the
/// mark skips nothing (an import probe's "installed" branch binds one so that the name
/// exists on both branches). `paren` is the token after the mark's name.
fn never_holds(cx: &LineCtx, paren: usize) -> bool {
    cx.punct(paren, '(')
        && cx.ident(paren + 1) == Some("False")
        && matches!(cx.tok(paren + 2), Some(Tok::Punct(',' | ')')))
}

fn go(cx: &LineCtx, out: &mut Vec<String>) {
    if !cx.is_test {
        return;
    }
    for ch in &cx.chains {
        if ch.names.len() == 2
            && ["Skip", "Skipf", "SkipNow"].contains(&ch.last())
            && ch.called(&cx.toks)
            && ch.free(&cx.toks)
        {
            out.push(format!("{}.{}(", ch.head(), ch.last()));
        }
    }
}

fn rust(cx: &LineCtx, out: &mut Vec<String>) {
    let Some(at) = cx.attribute_start() else {
        return;
    };
    if cx.ident(at) == Some("ignore") && !cx.punct(at + 1, ':') {
        out.push("#[ignore]".into());
    } else if cx.ident(at) == Some("cfg_attr") {
        let inner = (at + 1..cx.toks.len()).any(|i| {
            cx.ident(i) == Some("ignore") && cx.punct(i - 1, ',') && !cx.punct(i + 1, ':')
        });
        if inner {
            out.push("#[cfg_attr(.., ignore)]".into());
        }
    } else if attr_macro_ignores(cx, at) {
        out.push("#[..::attr(.., ignore)]".into());
    }
}

/// `#[rustversion::attr(not(nightly), ignore)]`, `#[rustc::attr(.., ignore = "why")]`: an
/// attribute macro named `attr` (on a path) that applies its last argument when its
/// condition holds, as `cfg_attr` does; an `ignore` there is a conditional ignore.
fn attr_macro_ignores(cx: &LineCtx, at: usize) -> bool {
    let mut i = at;
    while cx.ident(i).is_some() && cx.punct(i + 1, ':') && cx.punct(i + 2, ':') {
        i += 3;
    }
    if i == at || cx.ident(i) != Some("attr") || !cx.punct(i + 1, '(') {
        return false;
    }
    // The last top-level argument of `attr(..)`.
    let mut depth = 0usize;
    let mut last_arg = i + 2;
    for j in i + 1..cx.toks.len() {
        if cx.punct(j, '(') {
            depth += 1;
        } else if cx.punct(j, ')') {
            depth -= 1;
            if depth == 0 {
                let head = cx.ident(last_arg) == Some("ignore");
                return head && (j == last_arg + 1 || cx.punct(last_arg + 1, '='));
            }
        } else if depth == 1 && cx.punct(j, ',') {
            last_arg = j + 1;
        }
    }
    false
}

/// JUnit assumptions (`Assume` in JUnit 4, `Assumptions` in JUnit 5): a failed one aborts
/// the test and the runner reports it skipped, like `pytest.skip()` or `t.Skip()` in a
/// body. `assumingThat` runs a block conditionally and skips nothing.
const JVM_ASSUME: &[&str] = &[
    "assumeTrue",
    "assumeFalse",
    "assumeThat",
    "assumeNotNull",
    "assumeNoException",
];

/// Whether the label is a JUnit assumption (`assumeTrue(`).
pub fn is_assumption(label: &str) -> bool {
    label
        .strip_suffix('(')
        .is_some_and(|n| JVM_ASSUME.contains(&n))
}

fn jvm(cx: &LineCtx, out: &mut Vec<String>) {
    let mut in_test_annotation = false;
    for ch in &cx.chains {
        let last = ch.last();
        if cx.is_test
            && JVM_ASSUME.contains(&last)
            && ch.called(&cx.toks)
            && ch.before(&cx.toks) != Some(Tok::Punct('.'))
            && (ch.names.len() == 1 || ["Assume", "Assumptions"].contains(&ch.names[0]))
            && !declares(cx, ch)
        {
            out.push(format!("{last}("));
        }
        if ch.before(&cx.toks) == Some(Tok::Punct('@')) {
            let last = ch.last();
            if last == "Ignore" || last.starts_with("Disabled") || enabled_condition(last) {
                out.push(format!("@{last}"));
            }
            in_test_annotation = last == "Test";
        } else if in_test_annotation
            && ch.is(&["enabled"])
            && ch.after(&cx.toks) == Some(Tok::Punct('='))
            && cx.ident(ch.end + 1) == Some("false")
        {
            // TestNG: `@Test(enabled = false)`.
            out.push("@Test(enabled = false)".into());
        }
    }
}

/// JUnit 5's `@Enabled*` conditions (`@EnabledOnOs`, `@EnabledForJreRange`, `@EnabledIf`,
/// `@EnabledIfSystemProperty`, `@EnabledInNativeImage`, ...): the test runs only where the
/// condition holds and is reported skipped elsewhere, as `@DisabledOnOs` turned around.
fn enabled_condition(name: &str) -> bool {
    name.strip_prefix("Enabled").is_some_and(|rest| {
        ["On", "For", "If", "In"].iter().any(|p| {
            rest.strip_prefix(p)
                .is_some_and(|r| r.is_empty() || r.starts_with(char::is_uppercase))
        })
    })
}

/// The name is declared here (`static void assumeTrue(boolean b) {`), not called: a
/// type or a modifier comes just before it.
fn declares(cx: &LineCtx, ch: &Chain) -> bool {
    ch.start > 0
        && match cx.tok(ch.start - 1) {
            Some(Tok::Ident(w)) => !["return", "new", "throw", "else", "assert"].contains(&w),
            Some(Tok::Punct('>' | ']')) => true,
            _ => false,
        }
}

/// Statements that skip the running Ruby test: RSpec's and minitest's `skip`, RSpec's
/// `pending`, and test-unit's `omit`, `omit_if(cond)`, `omit_unless(cond)` and `pend`
/// (with a block `pend` expects the block to fail, an expected failure: skipped too).
pub(super) const RUBY_BODY_SKIPS: &[&str] =
    &["skip", "pending", "omit", "omit_if", "omit_unless", "pend"];

fn ruby(cx: &LineCtx, out: &mut Vec<String>) {
    if !cx.is_test {
        return;
    }
    const X: &[&str] = &[
        "xit",
        "xdescribe",
        "xcontext",
        "xspecify",
        "xexample",
        "xscenario",
        "xfeature",
    ];
    for ch in &cx.chains {
        if ch.names.len() != 1 {
            continue;
        }
        let name = ch.head();
        let before = ch.before(&cx.toks);
        let after = ch.after(&cx.toks);
        let is_def = before == Some(Tok::Ident("def"));
        if RUBY_BODY_SKIPS.contains(&name) {
            let symbol = ch.start >= 2 && cx.punct(ch.start - 2, ',');
            let key = !cx.punct(ch.end + 1, ':') && option_is_set(cx, ch.end + 1);
            match (before, after) {
                // `it "x", :skip do` metadata symbol
                (Some(Tok::Punct(':')), _) if symbol && ruby_example_line(cx) => {
                    out.push(format!(":{name}"));
                }
                // `it "x", skip: "flaky"` metadata key
                (_, Some(Tok::Punct(':'))) if key && ruby_example_line(cx) => {
                    out.push(format!("{name}:"));
                }
                (Some(Tok::Punct(':')), _) | (_, Some(Tok::Punct(':'))) => {}
                (_, Some(Tok::Punct('?' | '!' | '=' | '.' | ',' | ')' | ']'))) => {}
                _ if is_def => {}
                // `skip` the call is a statement: it starts the line or follows `;`,
                // `{`, `|x|`, `do`, `then`, ...; elsewhere (`new(skip)`) it is a value.
                (None | Some(Tok::Punct(';' | '{' | '|')), _) => out.push(name.to_string()),
                (Some(Tok::Ident("then" | "do" | "else" | "begin" | "and" | "or")), _) => {
                    out.push(name.to_string())
                }
                _ => {}
            }
        } else if X.contains(&name) && ch.free(&cx.toks) && !is_def {
            out.push(name.to_string());
        }
    }
}

/// The line declares an example or group (`it "x", skip: true do`), so the metadata on it
/// is the test framework's, not a keyword argument of the code under test.
fn ruby_example_line(cx: &LineCtx) -> bool {
    const DECLARERS: &[&str] = &[
        "it",
        "specify",
        "example",
        "scenario",
        "test",
        "describe",
        "context",
        "feature",
        "its",
        "fit",
        "fdescribe",
        "fcontext",
    ];
    cx.chains.first().is_some_and(|c| {
        c.start == 0
            && (DECLARERS.contains(&c.last()) && (c.names.len() == 1 || c.head() == "RSpec"))
    })
}

fn elixir(cx: &LineCtx, out: &mut Vec<String>) {
    for i in 0..cx.toks.len() {
        if !cx.punct(i, '@') {
            continue;
        }
        let Some(tag) = cx.ident(i + 1) else { continue };
        if !["tag", "moduletag", "describetag"].contains(&tag) {
            continue;
        }
        let atom = cx.punct(i + 2, ':') && cx.ident(i + 3) == Some("skip");
        let keyword = cx.ident(i + 2) == Some("skip") && cx.punct(i + 3, ':');
        if atom || keyword {
            out.push(format!("@{tag} :skip"));
        }
    }
}

fn csharp(cx: &LineCtx, out: &mut Vec<String>) {
    if !cx.punct(0, '[') {
        return;
    }
    for i in 1..cx.toks.len() {
        match cx.ident(i) {
            Some("Skip") if cx.punct(i + 1, '=') && !cx.punct(i + 2, '=') => {
                out.push("Skip =".into());
            }
            Some(name @ ("Ignore" | "Explicit"))
                if (cx.punct(i - 1, '[') || cx.punct(i - 1, ','))
                    && (cx.punct(i + 1, ']') || cx.punct(i + 1, '(') || cx.punct(i + 1, ',')) =>
            {
                out.push(format!("[{name}]"));
            }
            _ => {}
        }
    }
}

fn php(cx: &LineCtx, out: &mut Vec<String>) {
    for ch in &cx.chains {
        let last = ch.last();
        if ["markTestSkipped", "markTestIncomplete"].contains(&last) && ch.called(&cx.toks) {
            out.push(format!("{last}("));
        }
        // Pest: `test('x', fn () => ...)->skip()`.
        if cx.is_test
            && ch.names.len() == 1
            && ["skip", "todo"].contains(&last)
            && ch.called(&cx.toks)
            && ch.start >= 2
            && cx.punct(ch.start - 1, '>')
            && cx.punct(ch.start - 2, '-')
        {
            out.push(format!("->{last}("));
        }
    }
    if cx.is_test {
        php_requirements(cx, out);
    }
}

/// PHPUnit's requirements (`@requires PHP 8.1` in a docblock, `#[RequiresPhpExtension('x')]`
/// as an attribute): the test or class is skipped wherever the requirement fails, as a
/// skip under a condition is. Both spellings carry one label, so a docblock requirement
/// respelt as an attribute is the same skip.
const PHP_REQUIRES: &str = "PHPUnit requirement";

fn php_requirements(cx: &LineCtx, out: &mut Vec<String>) {
    if let Some(at) = cx.attribute_start() {
        for i in at..cx.toks.len() {
            let Some(name) = cx.ident(i) else { continue };
            let listed = i == at || cx.punct(i - 1, ',') || cx.punct(i - 1, '\\');
            if name.len() > "Requires".len()
                && name.starts_with("Requires")
                && listed
                && cx.punct(i + 1, '(')
            {
                out.push(PHP_REQUIRES.into());
            }
        }
    }
    for piece in cx.comment_pieces() {
        if piece
            .strip_prefix("@requires")
            .is_some_and(|rest| rest.starts_with([' ', '\t']))
        {
            out.push(PHP_REQUIRES.into());
        }
    }
}

fn swift(cx: &LineCtx, out: &mut Vec<String>) {
    for ch in &cx.chains {
        let last = ch.last();
        if ch.names.len() == 1 && last.starts_with("XCTSkip") && ch.called(&cx.toks) {
            out.push(format!("{last}("));
        }
        // Swift Testing trait: `@Test(.disabled("flaky"))`.
        if ch.is(&["disabled"])
            && ch.called(&cx.toks)
            && ch.start >= 2
            && cx.punct(ch.start - 1, '.')
            && (cx.punct(ch.start - 2, '(') || cx.punct(ch.start - 2, ','))
        {
            out.push(".disabled(".into());
        }
    }
}

fn c(cx: &LineCtx, out: &mut Vec<String>) {
    const GTEST: &[&str] = &["TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"];
    // A macro's definition (`#define GTEST_SKIP() GTEST_SKIP_("")` in a framework's header)
    // says what the name means; it skips nothing until some test uses it.
    if defines_macro(&cx.view.code) {
        return;
    }
    let gtest = cx.ident(0).is_some_and(|m| GTEST.contains(&m)) && cx.punct(1, '(');
    if gtest
        && cx
            .toks
            .iter()
            .any(|t| matches!(t, Tok::Ident(n) if n.starts_with("DISABLED_")))
    {
        out.push("DISABLED_".into());
    }
    for ch in &cx.chains {
        if ch.is(&["GTEST_SKIP"]) && ch.called(&cx.toks) {
            out.push("GTEST_SKIP(".into());
        }
    }
}

/// Whether the line is a preprocessor `#define` (`#define X`, `#  define X`).
fn defines_macro(code: &str) -> bool {
    code.trim_start()
        .strip_prefix('#')
        .is_some_and(|rest| rest.trim_start().starts_with("define"))
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex_line;
    use super::*;

    fn found(lang: Lang, is_test: bool, line: &str) -> Vec<String> {
        let view = lex_line(&lang.syntax(), line);
        find(&LineCtx::new(lang, &view, is_test))
    }

    fn hits(lang: Lang, line: &str) -> bool {
        !found(lang, true, line).is_empty()
    }

    #[test]
    fn js_markers_are_caught() {
        for line in [
            "it.skip('works', () => {})",
            "describe.skip('suite', () => {",
            "test.skip.each([1])('x', () => {})",
            "test.concurrent.only('x', async () => {})",
            "it.only('x', () => {})",
            "it.todo('later')",
            "xit('x', () => {})",
            "xdescribe('x', () => {})",
            "fit('x', () => {})",
            "test('x', { skip: true }, () => {})",
            "test('x', { todo: 'later' }, () => {})",
            "  t.skip('not on windows')",
        ] {
            assert!(hits(Lang::Js, line), "{line}");
        }
        assert_eq!(found(Lang::Js, true, "it.only('x')"), vec!["it.only"]);
        assert!(is_focus("it.only") && is_focus("fit") && !is_focus("it.skip"));
    }

    #[test]
    fn every_js_receiver_and_variant_is_caught_and_members_are_not() {
        for recv in JS_RECEIVERS {
            for variant in JS_VARIANTS {
                let line = format!("{recv}.{variant}('x', () => {{}})");
                assert_eq!(
                    found(Lang::Js, false, &line),
                    vec![format!("{recv}.{variant}")],
                    "{line}"
                );
                let member = format!("obj.{recv}.{variant}('x')");
                assert!(!hits(Lang::Js, &member), "{member}");
                let longer = format!("{recv}.{variant}ped('x')");
                assert!(!hits(Lang::Js, &longer), "{longer}");
            }
        }
        for name in JS_PREFIXED {
            let line = format!("{name}('x', () => {{}})");
            assert_eq!(
                found(Lang::Js, true, &line),
                vec![name.to_string()],
                "{line}"
            );
            assert!(!hits(Lang::Js, &format!("obj.{name}('x')")), "{name}");
            assert!(!hits(Lang::Js, &format!("{name}s('x')")), "{name}");
            assert!(
                !hits(Lang::Js, &format!("function {name}x() {{}}")),
                "{name}"
            );
        }
        for option in ["skip", "only", "todo"] {
            assert!(
                hits(
                    Lang::Js,
                    &format!("test('x', {{ {option}: true }}, () => {{}})")
                ),
                "{option}"
            );
            assert!(
                !hits(
                    Lang::Js,
                    &format!("test('x', {{ {option}: false }}, () => {{}})")
                ),
                "{option}"
            );
            assert!(
                !hits(Lang::Js, &format!("const o = {{ {option}s: true }}")),
                "{option}"
            );
        }
        assert!(hits(Lang::Js, "t.todo('later')"));
        assert!(!hits(Lang::Js, "t.only('x')"));
        assert!(found(Lang::Js, false, "t.skip()").is_empty());
    }

    #[test]
    fn js_expected_failures_are_skips() {
        for line in [
            "test.failing('parses dates', t => {",
            "  it.failing('x', () => {})",
            "test.fails('x', () => {})",
            "test.serial.failing('x', async t => {})",
        ] {
            assert!(hits(Lang::Js, line), "{line}");
        }
        assert_eq!(
            found(Lang::Js, false, "test.failing('x', t => {})"),
            vec!["test.failing"]
        );
        for line in [
            "t.is(result.failing, 2)",
            "const failing = report.failing('x')",
            "'test.failing('",
            "// test.failing('x')",
            "expect(test.failingCount).toBe(0)",
            "t.failing('x')",
        ] {
            assert!(!hits(Lang::Js, line), "{line}");
        }
    }

    #[test]
    fn js_skips_used_as_values_are_caught() {
        for line in [
            "const d = cond ? describe : describe.skip;",
            "(process.env.CI ? it.skip : it)('needs a display', () => {})",
            "const maybe = hasDb ? test : test.skip",
            "const pick = () => it.only",
            "const table = { slow: describe.skip }",
        ] {
            assert!(hits(Lang::Js, line), "{line}");
        }
        assert_eq!(
            found(
                Lang::Js,
                false,
                "const d = cond ? describe : describe.skip;"
            ),
            vec!["describe.skip"]
        );
        for line in [
            "const s = cond ? 'describe.skip' : 'it'",
            "const d = cond ? describe : other; // describe.skip",
            "const n = cond ? reader.skip : 0",
            "const x = cond ? options.describe.skip : null",
            "const o = { skip: 10, take: 5 }",
            "const q = cond ? page.skip : page.only",
            "/* x ? describe : describe.skip */",
        ] {
            assert!(!hits(Lang::Js, line), "{line}");
        }
    }

    #[test]
    fn tap_top_level_skip_with_a_name_is_a_skip_and_other_skip_calls_are_not() {
        assert_eq!(
            found(Lang::Js, true, "    skip('requires both IPv4 and IPv6')"),
            vec!["skip("]
        );
        assert!(hits(Lang::Js, "skip(`not on ${os}`, t => {})"));
        for line in [
            "  skip(2)",
            "  skip(count)",
            "function skip ('x') {}",
            "  stream.skip('header')",
            "const skip = require('tap').skip",
        ] {
            assert!(!hits(Lang::Js, line), "{line}");
        }
        // Outside test files a `skip('x')` is some other function.
        assert!(found(Lang::Js, false, "skip('header')").is_empty());
        assert_eq!(family("skip("), "test.skip");
    }

    #[test]
    fn js_lookalikes_are_not_skips() {
        for line in [
            "skipWhitespace(input)",
            "parser.skip(3)",
            "const unskip = () => {}",
            "items.only(x)",
            "'it.skip(x)'",
            "// it.skip('x')",
            "const s = `describe.skip(`",
            "test('x', { skip: false }, () => {})",
            "profit(x)",
            "exit(1)",
        ] {
            assert!(!hits(Lang::Js, line), "{line}");
        }
        // Bare `xit(` / `fit(` only mean something inside test files.
        assert!(found(Lang::Js, false, "fit(shape)").is_empty());
    }

    #[test]
    fn python_markers_are_caught() {
        for line in [
            "@pytest.mark.skip(reason='flaky')",
            "@pytest.mark.skipif(sys.platform == 'win32', reason='x')",
            "@pytest.mark.xfail",
            "pytestmark = pytest.mark.skip",
            "    pytest.skip('later')",
            "@unittest.skip('x')",
            "@unittest.expectedFailure",
            "        self.skipTest('no db')",
            "tomllib = pytest.importorskip('tomllib', reason='3.11')",
            "pytest.importorskip('asgiref')",
            "    raise unittest.SkipTest('x')",
            "@skipIf(True, 'x')",
            "@mark.xfail",
        ] {
            assert!(hits(Lang::Python, line), "{line}");
        }
    }

    #[test]
    fn every_python_form_is_caught() {
        for mark in ["skip", "skipif", "xfail"] {
            assert!(
                hits(Lang::Python, &format!("@pytest.mark.{mark}")),
                "{mark}"
            );
            assert!(hits(Lang::Python, &format!("@mark.{mark}")), "{mark}");
            assert!(
                !hits(Lang::Python, &format!("@pytest.mark.{mark}ped")),
                "{mark}"
            );
            assert!(!hits(Lang::Python, &format!("mark.{mark}(x)")), "{mark}");
        }
        for call in ["skip", "xfail"] {
            assert!(hits(Lang::Python, &format!("pytest.{call}('x')")), "{call}");
            assert!(!hits(Lang::Python, &format!("pytest.{call}")), "{call}");
        }
        for name in ["skip", "skipIf", "skipUnless", "expectedFailure"] {
            assert!(hits(Lang::Python, &format!("@unittest.{name}")), "{name}");
            assert!(hits(Lang::Python, &format!("@{name}")), "{name}");
            assert!(!hits(Lang::Python, &format!("{name} = 1")), "{name}");
            assert!(!hits(Lang::Python, &format!("obj.{name}(1)")), "{name}");
        }
    }

    #[test]
    fn python_lookalikes_are_not_skips() {
        for line in [
            "def skip(self): pass",
            "reader.skip(4)",
            "    has_x = pytest.mark.skipif(False, reason=\"x is installed\")",
            "skip_header = True",
            "x = 'pytest.mark.skip'",
            "# @pytest.mark.skip",
            "pytest.mark.parametrize('a', [1])",
            "skipper.skipTest()",
            "x = pytest.importorskip",
            "obj.pytest.importorskip('x')",
            "s = 'pytest.importorskip(\"x\")'",
        ] {
            assert!(!hits(Lang::Python, line), "{line}");
        }
    }

    #[test]
    fn go_markers_are_caught_in_tests_only() {
        assert!(hits(Lang::Go, "\tt.Skip(\"flaky\")"));
        assert!(hits(Lang::Go, "\tt.Skipf(\"%s\", x)"));
        assert!(hits(Lang::Go, "\tb.SkipNow()"));
        assert!(found(Lang::Go, false, "\tt.Skip()").is_empty());
        assert!(!hits(Lang::Go, "\tr.SkipSpace()"));
        assert!(!hits(Lang::Go, "\t// t.Skip()"));
        assert!(!hits(Lang::Go, "\tfmt.Println(\"t.Skip()\")"));
    }

    #[test]
    fn rust_markers_are_caught() {
        assert!(hits(Lang::Rust, "#[ignore]"));
        assert!(hits(Lang::Rust, "#[ignore = \"slow\"]"));
        assert!(hits(Lang::Rust, "#[cfg_attr(windows, ignore)]"));
        assert!(hits(Lang::Rust, "#[rustc::attr(not(nightly), ignore)]"));
        assert!(hits(
            Lang::Rust,
            "#[rustversion::attr(before(1.70), ignore = \"old\")]"
        ));
        assert!(!hits(
            Lang::Rust,
            "#[rustversion::attr(not(nightly), ignore_me)]"
        ));
        assert!(!hits(Lang::Rust, "#[rustversion::attr(ignore, test)]"));
        assert!(!hits(Lang::Rust, "#[attr(not(nightly), ignore)]"));
        assert!(!hits(Lang::Rust, "#[rustversion::nightly]"));
        assert!(!hits(Lang::Rust, "fn ignore() {}"));
        assert!(!hits(Lang::Rust, "// #[ignore]"));
        assert!(!hits(Lang::Rust, "#[serde(ignore_unknown)]"));
        assert!(!hits(Lang::Rust, "let s = \"#[ignore]\";"));
    }

    #[test]
    fn junit_assumptions_in_tests_are_skips_and_their_lookalikes_are_not() {
        for line in [
            "    assumeTrue(!isWindows());",
            "    Assume.assumeTrue(\"needs JDK < 16\", javaVersion() < 16);",
            "    assumeThat(System.getenv(\"DB\"), notNullValue());",
            "    Assumptions.assumeFalse(ci)",
            "    assumeNoException(e);",
        ] {
            let name = line
                .trim()
                .split('(')
                .next()
                .unwrap()
                .rsplit('.')
                .next()
                .unwrap();
            assert_eq!(
                found(Lang::Java, true, line),
                vec![format!("{name}(")],
                "{line}"
            );
            assert_eq!(
                found(Lang::Kotlin, true, line),
                vec![format!("{name}(")],
                "{line}"
            );
            // Outside a test path it is the library's code, not a skipped test.
            assert!(found(Lang::Java, false, line).is_empty(), "{line}");
        }
        for line in [
            "import static org.junit.Assume.assumeTrue;",
            "  public static void assumeTrue(boolean b) {",
            "  static <T> void assumeThat(T actual, Matcher<T> m) {",
            "    assumingThat(ci, () -> assertEquals(2, x));",
            "    helper.assumeTrue(x);",
            "    // assumeTrue(x);",
            "    String s = \"assumeTrue(x)\";",
        ] {
            assert!(found(Lang::Java, true, line).is_empty(), "{line}");
        }
    }

    #[test]
    fn mocha_this_skip_in_a_test_is_a_skip() {
        assert_eq!(
            found(Lang::Js, true, "    if (!hasFetch) this.skip()"),
            vec!["this.skip("]
        );
        assert_eq!(found(Lang::Js, true, "  this.skip();"), vec!["this.skip("]);
        for line in [
            "  this.skip = true",
            "  const s = this.skip",
            "  other.this.skip()",
            "  this.skipWhitespace()",
        ] {
            assert!(found(Lang::Js, true, line).is_empty(), "{line}");
        }
        // Outside a test file `this.skip()` is some object's own method.
        assert!(found(Lang::Js, false, "  this.skip()").is_empty());
    }

    #[test]
    fn the_spellings_of_one_skip_are_one_family_and_other_reaches_are_not() {
        for same in [
            ["xit", "it.skip"],
            ["xit", "test.skip"],
            ["xtest", "specify.skip"],
            ["xdescribe", "describe.skip"],
            ["xcontext", "context.skip"],
            ["fit", "it.only"],
            ["fdescribe", "describe.only"],
            ["pending", "skip"],
            [":pending", "skip:"],
            ["@Ignore", "@Disabled"],
            ["@skip", "pytest.mark.skip"],
            ["@skipIf", "pytest.mark.skipif"],
            ["unittest.expectedFailure", "pytest.mark.xfail"],
            ["assumeTrue(", "assumeThat("],
            ["t.Skip(", "t.Skipf("],
            ["this.skip(", "pytest.skip("],
        ] {
            assert_eq!(family(same[0]), family(same[1]), "{same:?}");
        }
        for other in [
            // a test or a whole group
            ["it.skip", "describe.skip"],
            ["xit", "xdescribe"],
            // skipped or focused, skipped or expected to fail, skipped or a placeholder
            ["it.skip", "it.only"],
            ["pytest.mark.skip", "pytest.mark.xfail"],
            ["it.skip", "it.todo"],
            ["it.skip", "it.failing"],
            // always, or only under a condition
            ["pytest.mark.skip", "pytest.mark.skipif"],
            ["@Ignore", "@DisabledOnOs"],
            ["#[ignore]", "#[cfg_attr(.., ignore)]"],
            // a declaration, or a statement in the body (often under an `if`)
            ["xit", "this.skip("],
            ["pytest.mark.skip", "pytest.skip("],
            ["@Ignore", "assumeTrue("],
        ] {
            assert_ne!(family(other[0]), family(other[1]), "{other:?}");
        }
        // Labels of other guards stand for themselves.
        assert_eq!(family("eslint-disable"), "eslint-disable");
    }

    #[test]
    fn jvm_markers_are_caught() {
        assert!(hits(Lang::Java, "  @Disabled(\"flaky\")"));
        assert!(hits(Lang::Java, "  @Ignore"));
        assert!(hits(Lang::Java, "  @org.junit.Ignore"));
        assert!(hits(Lang::Java, "  @DisabledOnOs(OS.WINDOWS)"));
        assert!(hits(Lang::Java, "  @Test(enabled = false)"));
        assert!(hits(Lang::Kotlin, "  @Ignore"));
        assert!(!hits(Lang::Java, "  @Test(enabled = true)"));
        assert!(!hits(Lang::Java, "  boolean disabled = ignore;"));
        assert!(!hits(Lang::Java, "  String s = \"@Disabled\";"));
        assert!(!hits(Lang::Java, "  @IgnoreProperties"));
    }

    #[test]
    fn ruby_markers_are_caught() {
        for name in ["xcontext", "xspecify", "xexample", "xscenario", "xfeature"] {
            assert!(hits(Lang::Ruby, &format!("  {name} 'x' do")), "{name}");
            assert!(!hits(Lang::Ruby, &format!("  obj.{name}")), "{name}");
        }
        for line in [
            "  it 'works', pending: true do",
            "  it 'works', :pending do",
            "    skip \"flaky\"",
            "    skip",
            "  xit 'works' do",
            "  xdescribe Foo do",
            "    pending 'not yet'",
            "  it 'works', skip: 'flaky' do",
            "  it 'works', :skip do",
        ] {
            assert!(hits(Lang::Ruby, line), "{line}");
        }
        for line in [
            "    skip_before_action :x",
            "    reader.skip(2)",
            "  def skip; end",
            "    skip? ? 1 : 2",
            "    skip = true",
            "  it 'works', skip: false do",
            "    # skip",
            "    puts 'skip'",
        ] {
            assert!(!hits(Lang::Ruby, line), "{line}");
        }
        assert!(found(Lang::Ruby, false, "    skip").is_empty());
    }

    #[test]
    fn js_skip_options_count_only_on_the_test_call_itself() {
        for line in [
            "test('x', { timeout: 5, skip: 'flaky' }, () => {})",
            "  t.test('x', { skip: true }, async () => {",
            // Vitest context: the function that skips the running test.
            "    beforeEach(({ task, skip: skipTask }) => {",
            "  test('x', async ({ skip }) => {",
            "  it('x', function ({ expect, skip }) {",
            // A negated or bracketed condition is a condition.
            "t.test('new node only', { skip: !isV19plus }, t => {",
            "test('x', { skip: (isWin || isMac) }, () => {})",
        ] {
            assert!(hits(Lang::Js, line), "{line}");
        }
        assert_eq!(
            found(Lang::Js, true, "t.test('x', { skip: !isV19plus }, t => {"),
            vec!["{ skip: ... }"]
        );
        for line in [
            "test('x', { skip: !true }, () => {})",
            "  run({ skip: !isV19plus })",
        ] {
            assert!(!hits(Lang::Js, line), "{line}");
        }
        for line in [
            "    app.use('*', appendTrailingSlash({ skip: hasExtension }))",
            "    app.use('*', appendTrailingSlash({ alwaysRedirect: true, skip: hasExtension }))",
            "  test('x', () => { run({ skip: true }) })",
            "  const o = { skip: true }",
            "  items.map(({ skip }) => skip)",
        ] {
            assert!(!hits(Lang::Js, line), "{line}");
        }
    }

    #[test]
    fn js_skip_option_shorthand_is_a_condition_unless_declared_off() {
        for line in [
            "test('asJson emits events', { skip }, async (t) => {",
            "  t.test('x', { timeout: 5, todo }, () => {})",
        ] {
            assert!(hits(Lang::Js, line), "{line}");
        }
        // A callback's destructured `skip` is Vitest's context, not an option.
        assert_eq!(
            found(Lang::Js, true, "  test('x', async ({ skip }) => {"),
            vec!["{ skip } context"]
        );
        assert!(!hits(Lang::Js, "  run({ skip })"));
        let off = |text: &str| {
            let views = super::super::lexer::lex(&Lang::Js.syntax(), text, usize::MAX);
            js_options_off(Lang::Js, &views)
        };
        assert_eq!(
            off("const skip = false
let todo = !true;
"),
            ["skip", "todo"]
        );
        assert!(off("const skip = process.env.CI || false
")
        .is_empty());
        // Declared off in one place and on in another: a condition after all.
        assert!(off("let skip = false
if (ci) { var skip = true }
")
        .is_empty());
        let view = lex_line(&Lang::Js.syntax(), "test('x', { skip }, () => {})");
        let mut cx = LineCtx::new(Lang::Js, &view, true);
        let names = vec!["skip".to_string()];
        cx.options_off = &names;
        assert!(find(&cx).is_empty());
        assert!(may_declare_options("const skip = false") && !may_declare_options("skip()"));
    }

    #[test]
    fn ruby_skip_is_a_statement_and_metadata_belongs_to_an_example() {
        for line in [
            "  RSpec.describe Foo, skip: 'later' do",
            "  context 'x', :skip do",
            "  it('x') { skip }",
            "  it 'x' do; skip; end",
            "    skip unless ENV['SLOW']",
            "    skip('flaky')",
        ] {
            assert!(hits(Lang::Ruby, line), "{line}");
        }
        for line in [
            "    @pers.send(:commit_session?, req, {}, skip: true).must_equal false",
            "    sreq = Rack::MockRequest.new(skip)",
            "    foo(:bar, :skip)",
            "    run(app, skip)",
            "    skip.call(env)",
            "    [skip, count].each { |x| x }",
        ] {
            assert!(!hits(Lang::Ruby, line), "{line}");
        }
    }

    #[test]
    fn elixir_markers_are_caught() {
        assert!(hits(Lang::Elixir, "  @tag :skip"));
        assert!(hits(Lang::Elixir, "  @moduletag :skip"));
        assert!(hits(Lang::Elixir, "  @describetag :skip"));
        assert!(!hits(Lang::Elixir, "  @tag :skipped"));
        assert!(hits(Lang::Elixir, "  @tag skip: \"flaky\""));
        assert!(!hits(Lang::Elixir, "  @tag :slow"));
        assert!(!hits(Lang::Elixir, "  # @tag :skip"));
        assert!(!hits(Lang::Elixir, "  skip(list, 2)"));
    }

    #[test]
    fn csharp_markers_are_caught() {
        assert!(hits(Lang::CSharp, "[Fact(Skip = \"flaky\")]"));
        assert!(hits(Lang::CSharp, "[Theory(Skip=\"x\")]"));
        assert!(hits(Lang::CSharp, "[Ignore]"));
        assert!(hits(Lang::CSharp, "[Test, Ignore(\"later\")]"));
        assert!(hits(Lang::CSharp, "[Explicit]"));
        assert!(!hits(Lang::CSharp, "var skip = Skip == 1;"));
        assert!(!hits(Lang::CSharp, "[Fact]"));
        assert!(!hits(Lang::CSharp, "list.Ignore(x);"));
        assert!(!hits(Lang::CSharp, "[Fact(Skip == x)]"));
    }

    #[test]
    fn php_markers_are_caught() {
        assert!(hits(Lang::Php, "        $this->markTestSkipped('no db');"));
        assert!(hits(Lang::Php, "        self::markTestIncomplete();"));
        assert!(hits(Lang::Php, "test('x', fn () => 1)->skip();"));
        assert!(hits(Lang::Php, "it('x')->todo();"));
        assert!(!hits(Lang::Php, "$list->todos();"));
        assert!(!hits(Lang::Php, "        $this->markTestSkippedLater();"));
        assert!(!hits(Lang::Php, "        $reader->skip(2);"));
        assert!(!hits(Lang::Php, "        // $this->markTestSkipped();"));
        let test = |line: &str| found(Lang::Php, true, line);
        assert_eq!(test("     * @requires PHP 8.1"), [PHP_REQUIRES]);
        assert_eq!(
            test("    #[RequiresPhpExtension('mongodb')]"),
            [PHP_REQUIRES]
        );
        assert_eq!(
            test("    #[Test, \\PHPUnit\\Framework\\Attributes\\RequiresPhp('8.1')]"),
            [PHP_REQUIRES]
        );
        assert!(test("     * @requiresNothing").is_empty());
        assert!(test("    #[Requires]").is_empty());
        assert!(test("    $requires = requiresPhp('8.1');").is_empty());
        assert!(found(Lang::Php, false, "     * @requires PHP 8.1").is_empty());
    }

    #[test]
    fn swift_markers_are_caught() {
        assert!(hits(Lang::Swift, "        throw XCTSkip(\"flaky\")"));
        assert!(hits(Lang::Swift, "        try XCTSkipIf(true)"));
        assert!(hits(Lang::Swift, "        try XCTSkipUnless(ok)"));
        assert!(hits(
            Lang::Swift,
            "    @Test(.disabled(\"flaky\")) func x() {}"
        ));
        assert!(!hits(Lang::Swift, "    button.disabled(true)"));
        assert!(!hits(Lang::Swift, "    let XCTSkipper = 1"));
    }

    #[test]
    fn c_markers_are_caught() {
        assert!(hits(Lang::C, "TEST(Suite, DISABLED_Works) {"));
        assert!(hits(Lang::C, "  GTEST_SKIP() << \"x\";"));
        assert!(!hits(Lang::C, "TEST(Suite, Works) {"));
        assert!(!hits(Lang::C, "int DISABLED_x = 1;"));
        assert!(!hits(Lang::C, "#define GTEST_SKIP() GTEST_SKIP_(\"\")"));
        assert!(!hits(
            Lang::C,
            "# define TEST_DISABLED_(a, b) TEST(a, DISABLED_##b)"
        ));
    }

    #[test]
    fn other_languages_have_no_skip_markers() {
        assert!(!hits(Lang::Shell, "it.skip x"));
    }
}
