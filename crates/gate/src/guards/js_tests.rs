//! The JavaScript tests a whole file declares, where one line cannot tell: which bare
//! names a test runner's import gives the file (tap's `skip('x', fn)` declares a skipped
//! test), and which test calls are suites of subtests rather than tests.
//!
//! One program model for subtests, whatever the spelling: a test call whose callback runs
//! subtests through its own parameter (tap and node:test `t.test(..)`, or tap's
//! destructured `({ test }) => { test(..) }`) groups them, as `describe(..)` does. It is
//! counted by its subtests, each one test, and not as one more. So porting
//! `test('suite', ({ test }) => { test('a', ..) })` to `describe('suite', () => {
//! test('a', ..) })` keeps the count, and so does folding `t.test` subtests into top-level
//! tests.

use super::languages::Lang;
use super::lexer::LineView;
use super::line::LineCtx;
use super::tokens::{tokenize, Tok};

/// The runners whose imported `skip`, `todo` and `only` declare a test.
const RUNNERS: &[&str] = &["tap", "node:test"];
/// The runner functions that declare a test when called with its name (`skip('x', fn)`).
const DECLARING: &[&str] = &["skip", "todo", "only"];

/// How many tests each line (0-based) declares beyond what [`super::tests_count`] reads on
/// the line alone: +1 for a runner's bare `skip('x', ..)` (also `todo`, `only`) and for a
/// `t.test('x', ..)` subtest, -1 for a test call that is a suite of subtests. `line_tests`
/// gives, per line, the token indices of the `(` of each test call counted there.
pub fn adjustments(
    views: &[LineView],
    raw: &str,
    is_test: bool,
    line_tests: impl Fn(&LineCtx) -> Vec<usize>,
) -> Vec<i32> {
    let mut adjust = vec![0i32; views.len()];
    if !is_test {
        return adjust;
    }
    let runner_names = runner_names(views, raw);
    let aliases = conditional_aliases(views);
    // Subtests are spelt `test`; with no runner names either there is nothing to adjust.
    if runner_names.is_empty()
        && aliases.is_empty()
        && !views.iter().any(|v| v.code.contains("test"))
    {
        return adjust;
    }

    let mut toks: Vec<Tok> = Vec::new();
    let mut line_of: Vec<usize> = Vec::new();
    let mut calls: Vec<usize> = Vec::new();
    for (at, view) in views.iter().enumerate() {
        if view.code.trim().is_empty() {
            continue;
        }
        let cx = LineCtx::new(Lang::Js, view, is_test);
        let base = toks.len();
        calls.extend(line_tests(&cx).into_iter().map(|i| base + i));
        for ch in &cx.chains {
            let bare_call = ch.names.len() == 1
                && ch.free(&cx.toks)
                && ch.called(&cx.toks)
                && ch.before(&cx.toks) != Some(Tok::Ident("function"));
            // A runner's bare `skip('x', ..)` declares a test when given a name; a call of
            // a conditional alias does as a call of `test` itself does.
            let declares = bare_call
                && ((runner_names.iter().any(|n| n == ch.head())
                    && cx.tok(ch.end + 1) == Some(Tok::Str))
                    || aliases.iter().any(|n| n == ch.head()));
            if declares {
                adjust[at] += 1;
                calls.push(base + ch.end);
            }
        }
        line_of.extend(std::iter::repeat_n(at, cx.toks.len()));
        toks.extend_from_slice(&cx.toks);
    }
    let closing = matching(&toks);
    let mut seen: Vec<bool> = vec![false; toks.len()];
    let mut counted: Vec<bool> = vec![false; toks.len()];
    while let Some(open) = calls.pop() {
        if std::mem::replace(&mut seen[open], true) {
            continue;
        }
        let Some(close) = closing[open] else { continue };
        let Some((param, body)) = callback(&toks, &closing, open, close) else {
            continue;
        };
        let subtests = subtest_calls(&toks, &param, body);
        if subtests.is_empty() {
            continue;
        }
        adjust[line_of[open]] -= 1;
        for sub in subtests {
            // `t.test(` is read on no line alone; a destructured `test(` already is.
            if matches!(param, Param::Named(_)) && !std::mem::replace(&mut counted[sub], true) {
                adjust[line_of[sub]] += 1;
            }
            calls.push(sub);
        }
    }
    adjust
}

/// The callback's first parameter, as far as subtests go.
enum Param<'a> {
    /// `t => ..`, `async (t) => ..`, `function (t) {`: subtests are `t.test(..)`.
    Named(&'a str),
    /// `({ test, end }) => ..`: subtests are calls of the local name given to `test`.
    Destructured(&'a str),
}

/// The last function given directly to the call whose arguments run from `open` to
/// `close`: its first parameter and its body's token range.
fn callback<'a>(
    toks: &[Tok<'a>],
    closing: &[Option<usize>],
    open: usize,
    close: usize,
) -> Option<(Param<'a>, (usize, usize))> {
    let mut found = None;
    let mut i = open + 1;
    while i < close {
        match toks[i] {
            Tok::Punct('(' | '[' | '{') => {
                let end = closing[i]?;
                if toks.get(end + 1) == Some(&Tok::Punct('='))
                    && toks.get(end + 2) == Some(&Tok::Punct('>'))
                {
                    found = arrow(toks, closing, i, end + 3, close).or(found);
                    i = end + 3;
                    continue;
                }
                i = end + 1;
                continue;
            }
            Tok::Ident("function") => {
                let params = (i + 1..close).find(|&k| toks[k] == Tok::Punct('('))?;
                let params_end = closing[params]?;
                if toks.get(params_end + 1) == Some(&Tok::Punct('{')) {
                    let body_end = closing[params_end + 1]?;
                    if let Some(p) = first_param(toks, closing, params, params_end) {
                        found = Some((p, (params_end + 1, body_end)));
                    }
                    i = body_end + 1;
                    continue;
                }
                i = params_end + 1;
                continue;
            }
            Tok::Ident(name)
                if toks.get(i + 1) == Some(&Tok::Punct('='))
                    && toks.get(i + 2) == Some(&Tok::Punct('>'))
                    && !matches!(toks.get(i.wrapping_sub(1)), Some(Tok::Punct('.'))) =>
            {
                if let Some((_, body)) = arrow_body(toks, closing, i + 3, close) {
                    found = Some((Param::Named(name), body));
                    i = body.1 + 1;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// An arrow function whose parameter list is the group `params` and whose body starts at
/// `from`.
fn arrow<'a>(
    toks: &[Tok<'a>],
    closing: &[Option<usize>],
    params: usize,
    from: usize,
    close: usize,
) -> Option<(Param<'a>, (usize, usize))> {
    if toks[params] != Tok::Punct('(') {
        return None;
    }
    let param = first_param(toks, closing, params, closing[params]?)?;
    let ((), body) = arrow_body(toks, closing, from, close)?;
    Some((param, body))
}

/// The body of an arrow function starting at `from`: a block, or an expression running to
/// the call's closing `)` at `close`.
fn arrow_body(
    toks: &[Tok],
    closing: &[Option<usize>],
    from: usize,
    close: usize,
) -> Option<((), (usize, usize))> {
    match toks.get(from) {
        Some(Tok::Punct('{')) => Some(((), (from, closing[from]?))),
        Some(_) => Some(((), (from, close))),
        None => None,
    }
}

/// The first parameter in the group from `open` to `close`.
fn first_param<'a>(
    toks: &[Tok<'a>],
    closing: &[Option<usize>],
    open: usize,
    close: usize,
) -> Option<Param<'a>> {
    match toks.get(open + 1)? {
        Tok::Ident(name) if open + 1 < close => Some(Param::Named(name)),
        Tok::Punct('{') => {
            let end = closing[open + 1]?;
            let mut depth = 0usize;
            for k in open + 2..end {
                match toks[k] {
                    Tok::Punct('(' | '[' | '{') => depth += 1,
                    Tok::Punct(')' | ']' | '}') => depth = depth.saturating_sub(1),
                    Tok::Ident("test") if depth == 0 => {
                        let prev = toks[k - 1];
                        if !matches!(prev, Tok::Punct('{' | ',')) {
                            continue;
                        }
                        return match (toks.get(k + 1), toks.get(k + 2)) {
                            (Some(Tok::Punct(':')), Some(Tok::Ident(local))) => {
                                Some(Param::Destructured(local))
                            }
                            _ => Some(Param::Destructured("test")),
                        };
                    }
                    _ => {}
                }
            }
            None
        }
        _ => None,
    }
}

/// The `(` of each subtest call in the body `(from, to)`: `t.test(` for a named
/// parameter `t`, `test(` (or its local name) for a destructured one.
fn subtest_calls(toks: &[Tok], param: &Param, (from, to): (usize, usize)) -> Vec<usize> {
    let free = |k: usize| !matches!(toks.get(k.wrapping_sub(1)), Some(Tok::Punct('.')));
    (from..to)
        .filter_map(|k| match *param {
            Param::Named(t) => (toks[k] == Tok::Ident(t)
                && free(k)
                && toks.get(k + 1) == Some(&Tok::Punct('.'))
                && toks.get(k + 2) == Some(&Tok::Ident("test"))
                && toks.get(k + 3) == Some(&Tok::Punct('(')))
            .then_some(k + 3),
            Param::Destructured(local) => (toks[k] == Tok::Ident(local)
                && free(k)
                && toks.get(k + 1) == Some(&Tok::Punct('(')))
            .then_some(k + 1),
        })
        .collect()
}

/// The index of the bracket closing each opening one, over the whole file.
fn matching(toks: &[Tok]) -> Vec<Option<usize>> {
    let mut out = vec![None; toks.len()];
    let mut open: Vec<(char, usize)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Punct(c @ ('(' | '[' | '{')) => open.push((*c, i)),
            Tok::Punct(c @ (')' | ']' | '}')) => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                // A stray closer (a regex or template the lexer took as code) closes only
                // its own kind.
                if let Some(pos) = open.iter().rposition(|(o, _)| *o == want) {
                    out[open[pos].1] = Some(i);
                    open.truncate(pos);
                }
            }
            _ => {}
        }
    }
    out
}

/// The local names bound to a test function chosen by a condition, `const testOrSkip =
/// process.platform === 'win32' ? test.skip : test;` (both branches test functions, see
/// [`super::tests_count::js_test_function`]): each call of such a name declares one test,
/// as the inline `(cond ? test.skip : test)('x', ..)` does. The skip it may make is the
/// `test.skip` written in the conditional, found on that line like any other.
fn conditional_aliases(views: &[LineView]) -> Vec<String> {
    let mut out = Vec::new();
    for view in views {
        if !view.code.contains('?') {
            continue;
        }
        let cx = LineCtx::new(Lang::Js, view, true);
        if !matches!(cx.ident(0), Some("const" | "let" | "var")) || !cx.punct(2, '=') {
            continue;
        }
        let Some(name) = cx.ident(1) else { continue };
        let ends_statement =
            |at: usize| at == cx.toks.len() || (cx.punct(at, ';') && at + 1 == cx.toks.len());
        let chosen = cx.chains.iter().any(|second| {
            second.before(&cx.toks) == Some(Tok::Punct(':'))
                && ends_statement(second.end)
                && super::tests_count::js_test_function(second)
                && cx.chains.iter().any(|first| {
                    first.before(&cx.toks) == Some(Tok::Punct('?'))
                        && first.end + 1 == second.start
                        && super::tests_count::js_test_function(first)
                })
        });
        if chosen {
            out.push(name.to_string());
        }
    }
    out
}

/// The local names a runner's import gives `skip`, `todo` and `only`: `const { test, skip
/// } = require('tap')`, `import { skip as pending } from 'node:test'`, `const skip =
/// require('tap').skip`. The module is read from the raw line (the code view has no
/// string contents); a destructuring list may open lines above it.
fn runner_names(views: &[LineView], raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = raw.split('\n').collect();
    for (at, line) in lines.iter().enumerate().take(views.len()) {
        let from_runner = RUNNERS.iter().any(|r| {
            ['\'', '"', '`']
                .iter()
                .any(|q| line.contains(&format!("{q}{r}{q}")))
        });
        if !from_runner {
            continue;
        }
        let cx = LineCtx::new(Lang::Js, &views[at], true);
        // `const skip = require('tap').skip`
        if matches!(cx.ident(0), Some("const" | "let" | "var"))
            && cx.punct(2, '=')
            && cx.tok(cx.toks.len().saturating_sub(2)) == Some(Tok::Punct('.'))
        {
            if let (Some(local), Some(name)) = (cx.ident(1), cx.toks.last()) {
                if matches!(name, Tok::Ident(n) if DECLARING.contains(n)) {
                    out.push(local.to_string());
                }
            }
        }
        // The list: tokens from the nearest `{` at or above this line to its `}`.
        let mut list: Vec<Tok> = Vec::new();
        for back in (at.saturating_sub(20)..=at).rev() {
            let toks = tokenize(Lang::Js, &views[back].code);
            let open = toks.iter().rposition(|t| *t == Tok::Punct('{'));
            let mut part: Vec<Tok> = match open {
                Some(o) => toks[o..].to_vec(),
                None => toks.clone(),
            };
            part.append(&mut list);
            list = part;
            if open.is_some() || back < at && toks.contains(&Tok::Punct(';')) {
                break;
            }
        }
        if list.first() != Some(&Tok::Punct('{')) {
            continue;
        }
        let Some(end) = list.iter().position(|t| *t == Tok::Punct('}')) else {
            continue;
        };
        for k in 1..end {
            let Tok::Ident(name) = list[k] else { continue };
            if !DECLARING.contains(&name) || !matches!(list[k - 1], Tok::Punct('{' | ',')) {
                continue;
            }
            let local = match (list.get(k + 1), list.get(k + 2)) {
                (Some(Tok::Punct(':')), Some(Tok::Ident(l))) => l,
                (Some(Tok::Ident("as")), Some(Tok::Ident(l))) => l,
                _ => name,
            };
            out.push(local.to_string());
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::super::tests_count::count;
    use super::*;

    fn tests(text: &str) -> u32 {
        count(Lang::Js, text, true).tests
    }

    #[test]
    fn a_tap_suite_counts_by_its_subtests() {
        let destructured = "const { test } = require('tap')\ntest('suite', ({ test, end }) => {\n  test('a', async ({ equal }) => {\n    equal(1, 1)\n  })\n  test('b', async () => {})\n  end()\n})\n";
        let described = "const { describe, test } = require('node:test')\ndescribe('suite', () => {\n  test('a', async () => {\n    assert.equal(1, 1)\n  })\n  test('b', async () => {})\n})\n";
        let named = "const tap = require('tap')\ntest('suite', async t => {\n  t.test('a', async t => {\n    t.equal(1, 1)\n  })\n  await t.test('b', function (t) {\n    t.end()\n  })\n})\n";
        assert_eq!(tests(destructured), 2);
        assert_eq!(tests(described), 2);
        assert_eq!(tests(named), 2);
        // Nested suites: only the leaves are tests.
        let nested = "test('a', (t) => {\n  t.test('b', (t) => {\n    t.test('c', (t) => { t.end() })\n    t.test('d', (t) => { t.end() })\n  })\n})\n";
        assert_eq!(tests(nested), 2);
    }

    #[test]
    fn a_test_without_subtests_is_one_test() {
        for text in [
            "test('a', async ({ equal, test: other }) => {\n  equal(1, 1)\n})\n",
            "test('a', async (t) => {\n  t.equal(x.test('y'), true)\n  t.end()\n})\n",
            "it('a', function () {\n  expect(/x/.test(s)).toBe(true)\n})\n",
            "test('a', async () => {\n  await t.test('b')\n})\n",
        ] {
            assert_eq!(tests(text), 1, "{text}");
        }
    }

    #[test]
    fn a_call_of_a_conditional_test_alias_declares_a_test() {
        let alias = "const testOrSkip = (process.platform === 'win32') ? test.skip : test;\ndescribe('x', () => {\n  testOrSkip('a', () => {});\n  test('b', () => {});\n});\n";
        assert_eq!(tests(alias), 2);
        let it = "const itOnUnix = isWin ? it.skip : it\nitOnUnix('a', function () {})\n";
        assert_eq!(tests(it), 1);
        // Wrapped, its name on the next line, as a formatter leaves a long call.
        let wrapped =
            "const t = ci ? test.skip : test;\nt(\n  'a long name',\n  async () => {},\n);\n";
        assert_eq!(tests(wrapped), 1);
        // A group alias declares no test; nor does a conditional with one branch no test
        // function.
        let group = "const d = isWin ? describe.skip : describe;\nd('g', () => {});\n";
        assert_eq!(tests(group), 0);
        let other = "const run = fast ? test : helper;\nrun('a', () => {});\n";
        assert_eq!(tests(other), 0);
    }

    #[test]
    fn a_runner_bare_skip_declares_a_test() {
        let text = "const { test, skip } = require('tap')\ntest('a', async () => {})\nskip('b', async () => {})\n";
        assert_eq!(count(Lang::Js, text, true).tests, 2);
        let multi =
            "import {\n  test,\n  todo as later,\n} from 'node:test'\nlater('b', () => {})\n";
        assert_eq!(tests(multi), 1);
        let member = "const skip = require('tap').skip\nskip('b', t => t.end())\n";
        assert_eq!(tests(member), 1);
        // A skip of another module, or one called without a name, declares nothing.
        let local = "const { skip } = require('./helper')\nskip('header')\n";
        assert_eq!(tests(local), 0);
        let count_arg = "const { test, skip } = require('tap')\nskip(2)\n";
        assert_eq!(tests(count_arg), 0);
    }
}
