//! `// @ts-expect-error` as a type test's assertion inside an ordinary test file.
//!
//! Test runners that type-check their tests (Vitest's `typecheck`, a `tsc` pass over the
//! test tree) fail when a `@ts-expect-error` has no error under it, so a test can state
//! "this call must not type-check" by writing the call under the directive and nothing
//! else. Such a statement does nothing at run time: a call whose value is dropped, or a
//! `_`-named declaration nobody reads, with no runtime check after it. A directive over
//! code that runs for its effect (an assignment, `delete`, `await`, an argument given to
//! `expect(..)`, a call whose effect the next statement checks) lets ill-typed input reach
//! the code under test, and stays a suppression. So does a call that answers or drives the
//! code under test from inside a fake: a callback the fake was handed (`callback(null, ..)`
//! in a mock `dnsLookup(host, options, callback)`), or a method of an object the test
//! constructed with `new` (`stream.end('ok')` on a `new PassThrough()`): the call is the
//! test's input, not a statement written for its type error.

use super::lexer::LineView;

/// Words that start a statement but are not the callee of a bare call.
const KEYWORDS: &[&str] = &[
    "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default",
    "delete", "do", "else", "export", "finally", "for", "function", "if", "import", "let", "new",
    "return", "super", "switch", "throw", "try", "typeof", "var", "void", "while", "with", "yield",
];

/// Callees that check something at run time (Jest/Vitest `expect`, node's and chai's
/// `assert`, ava and tap's `t.`, should.js).
fn runtime_check(head: &str) -> bool {
    matches!(head, "expect" | "t" | "should" | "it" | "test" | "describe")
        || head.starts_with("assert")
}

/// Whether the comment-only line `at` (0-based) of a test file's lexed `views`, holding
/// `@ts-expect-error`, asserts that the statement under it does not type-check (see the
/// module's doc): the statement is a bare call or an unused `_`-named declaration at
/// statement level of a function body, a test's callback (or the directive sits among the
/// arguments of such a call), not a runtime check itself, and the statement after it is no
/// runtime check either. Statements at the top of the module set the file up and run at
/// load: never read as assertions.
pub fn asserts_type_error(views: &[LineView], at: usize) -> bool {
    if views.get(at).is_none_or(|v| !v.code.trim().is_empty()) {
        return false;
    }
    let Some(depths) = depths_before(views, at) else {
        return false;
    };
    let open = &depths.open;
    // The innermost block (function body, `{ .. }` after `)` or `=>`) around the line; none
    // at the top of the module, whose statements set the file up and run at load.
    let Some(k) = open.iter().rposition(|o| o.block) else {
        return false;
    };
    let start = if k + 1 == open.len() {
        next_code(views, at + 1)
    } else {
        // Among the arguments of a statement that opened on an earlier line.
        let first = open[k + 1];
        (depths.at_start[first.line] == k + 1).then_some(first.line)
    };
    let Some(start) = start else {
        return false;
    };
    if start > at {
        // At statement level: the line before must end a statement, not continue one
        // (`const x =` then the directive over its value).
        let before = (0..at)
            .rev()
            .map(|i| views[i].code.trim())
            .find(|c| !c.is_empty());
        if before.is_some_and(|c| c.ends_with(|ch: char| "=+-*/%?:,.([&|<>!^~".contains(ch))) {
            return false;
        }
    }
    let first = views[start].code.trim();
    let inert = bare_call(first) || unused_underscore(views, first);
    if !inert || drives_a_fake(views, &depths.open, at, first) {
        return false;
    }
    let Some(end) = statement_end(views, start) else {
        return false;
    };
    match next_code(views, end + 1).map(|i| views[i].code.trim()) {
        None => true,
        Some(next) if next.starts_with(['}', ')', ']']) => true,
        Some(next) => {
            let next = next.strip_prefix("await ").unwrap_or(next).trim_start();
            !runtime_check(head(next))
        }
    }
}

/// The functions of the type-assertion libraries, checked by the compiler alone:
/// `expect-type`'s (and Vitest's) `expectTypeOf`, tsd's (and tsd-lite's) `expectType`,
/// `expectNotType`, `expectAssignable`, `expectNotAssignable`, `expectError`.
const TYPE_ASSERTIONS: &[&str] = &[
    "expectTypeOf",
    "expectType",
    "expectNotType",
    "expectAssignable",
    "expectNotAssignable",
    "expectError",
];

/// Whether a test file is a type-test module under a name the runners do not know
/// (`extend.types.ts`): it imports a type-assertion function ([`TYPE_ASSERTIONS`]) and
/// declares no test a runner runs (no statement opens with `test`, `it` or `describe`).
/// Nothing in it checks anything at run time; the compiler checks it, so its
/// `@ts-expect-error`s are its assertions, as in a `*.test-d.ts` file.
pub fn type_test_module(views: &[LineView]) -> bool {
    let mut importing = false;
    let mut imports = false;
    for v in views {
        let code = v.code.trim();
        if code.starts_with("import ") || code.starts_with("import{") {
            importing = true;
        }
        if importing || code.contains("require(") {
            imports |= code
                .split(|c: char| !ident_char(c))
                .any(|w| TYPE_ASSERTIONS.contains(&w));
        }
        if importing && (code.contains(" from ") || code.ends_with(';') || code.contains("from\""))
        {
            importing = false;
        }
    }
    imports
        && !views.iter().any(|v| {
            let code = v.code.trim_start();
            matches!(head(code), "test" | "it" | "describe")
                && code[head(code).len()..]
                    .trim_start()
                    .starts_with(['(', '.'])
        })
}

/// Whether the bare call `first` answers or drives the code under test (see the module's
/// doc): its callee is a parameter of the innermost function around it, when that function
/// is not a test's own callback (a fake's callback being called), or its receiver is a name
/// the file bound to `new ..` before line `at` (an object the test built, being driven).
fn drives_a_fake(views: &[LineView], open: &[Open], at: usize, first: &str) -> bool {
    let name = head(first);
    let rest = first[name.len()..].trim_start();
    if rest.starts_with('.') || rest.starts_with("?.") {
        return views[..at].iter().any(|v| constructed(&v.code, name));
    }
    innermost_function(views, open)
        .is_some_and(|(params, test_callback)| !test_callback && params.iter().any(|p| p == name))
}

/// Whether `code` binds `name` to a new object (`const s = new PassThrough()`, also with a
/// type or an `as` cast after it).
fn constructed(code: &str, name: &str) -> bool {
    let code = code.trim();
    let Some(rest) = ["const ", "let ", "var "]
        .iter()
        .find_map(|k| code.strip_prefix(k))
    else {
        return false;
    };
    let Some(rest) = rest.trim_start().strip_prefix(name) else {
        return false;
    };
    if rest.starts_with(ident_char) {
        return false;
    }
    rest.split_once('=')
        .is_some_and(|(ty, value)| !ty.contains('(') && value.trim_start().starts_with("new "))
}

/// The parameters of the innermost function whose body is open around a line, and whether
/// that function is a test's callback (an argument of `test(..)`, `it(..)`, ..); `None`
/// when no function body is open or its parameters are not on its first line.
fn innermost_function(views: &[LineView], open: &[Open]) -> Option<(Vec<String>, bool)> {
    for o in open.iter().rev().filter(|o| o.block) {
        let line = &views[o.line].code;
        let before: String = line.chars().take(o.col).collect();
        let before = before.trim_end();
        let arrow = before.strip_suffix("=>").map(str::trim_end);
        let sig = arrow.unwrap_or(before);
        let params = if let Some(inner) = sig.strip_suffix(')') {
            let chars: Vec<char> = inner.chars().collect();
            let mut depth = 0i32;
            let mut from = None;
            for i in (0..chars.len()).rev() {
                match chars[i] {
                    ')' => depth += 1,
                    '(' if depth == 0 => {
                        from = Some(i);
                        break;
                    }
                    '(' => depth -= 1,
                    _ => {}
                }
            }
            let from = from?;
            let callee: String = chars[..from].iter().collect();
            let word = callee
                .trim_end()
                .rsplit(|c: char| !ident_char(c))
                .next()
                .unwrap_or("");
            if ["if", "for", "while", "switch", "catch", "with"].contains(&word) {
                continue;
            }
            let list: String = chars[from + 1..].iter().collect();
            list.split(',')
                .map(|p| head(p.trim().trim_start_matches("...")).to_string())
                .filter(|p| !p.is_empty())
                .collect()
        } else if arrow.is_some() {
            let name = sig.rsplit(|c: char| !ident_char(c)).next().unwrap_or("");
            vec![name.to_string()]
        } else {
            continue;
        };
        return Some((params, runtime_check(head(line.trim_start()))));
    }
    None
}

#[derive(Clone, Copy)]
struct Open {
    line: usize,
    /// The column (in characters) of the bracket.
    col: usize,
    /// A block's `{` (after `)`, `=>`, `;`, `{`, `}`, `else`, `try`, `finally`, `do` or at
    /// the top), not an object literal's.
    block: bool,
}

struct Depths {
    /// The brackets still open where line `at` starts.
    open: Vec<Open>,
    /// How many brackets are open where each line up to `at` starts.
    at_start: Vec<usize>,
}

/// The brackets open before line `at`, from the start of the file; `None` when a closer
/// has no opener (the file is not read as code we understand).
fn depths_before(views: &[LineView], at: usize) -> Option<Depths> {
    let mut open: Vec<Open> = Vec::new();
    let mut at_start = Vec::with_capacity(at + 1);
    let mut last = ' ';
    let mut word = String::new();
    for (i, view) in views.iter().enumerate().take(at) {
        at_start.push(open.len());
        for (col, c) in view.code.chars().enumerate() {
            match c {
                '(' | '[' => open.push(Open {
                    line: i,
                    col,
                    block: false,
                }),
                '{' => {
                    let block = matches!(last, ' ' | ')' | '>' | ';' | '{' | '}')
                        || ["else", "try", "finally", "do"].contains(&word.as_str());
                    open.push(Open {
                        line: i,
                        col,
                        block,
                    });
                }
                ')' | ']' | '}' => {
                    open.pop()?;
                }
                _ => {}
            }
            if c.is_alphanumeric() || c == '_' || c == '$' {
                if !(last.is_alphanumeric() || last == '_' || last == '$') {
                    word.clear();
                }
                word.push(c);
            }
            if !c.is_whitespace() {
                last = c;
            }
        }
    }
    at_start.push(open.len());
    Some(Depths { open, at_start })
}

/// The first line from `from` that holds code.
fn next_code(views: &[LineView], from: usize) -> Option<usize> {
    (from..views.len()).find(|&i| !views[i].code.trim().is_empty())
}

/// The last line of the statement that starts on line `start`: where its brackets have
/// closed and neither that line nor the next continues it (`.then(..)` on the next line).
fn statement_end(views: &[LineView], start: usize) -> Option<usize> {
    let mut depth = 0i64;
    for (i, view) in views.iter().enumerate().skip(start) {
        for c in view.code.chars() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
            if depth < 0 {
                // The statement's enclosing block closed on this line.
                return Some(i);
            }
        }
        let code = view.code.trim_end();
        let continues = code.ends_with(|ch: char| "=+-*/%?:,.([{&|<!^~".contains(ch));
        let chained = next_code(views, i + 1)
            .is_some_and(|n| views[n].code.trim_start().starts_with(['.', '?']));
        if depth == 0 && !code.trim().is_empty() && !continues && !chained {
            return Some(i);
        }
    }
    None
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The identifier a statement starts with.
fn head(code: &str) -> &str {
    let end = code.find(|c: char| !ident_char(c)).unwrap_or(code.len());
    &code[..end]
}

/// Whether `line` (a statement's first line) is a call whose value is dropped: a callee
/// path (`z.string().apply`, `z.toZod<T>()`) followed by arguments, with nothing after
/// the call but the end of the statement. Not a keyword, not a runtime check.
fn bare_call(line: &str) -> bool {
    let name = head(line);
    if name.is_empty()
        || name.starts_with(|c: char| c.is_ascii_digit())
        || KEYWORDS.contains(&name)
        || runtime_check(name)
    {
        return false;
    }
    let chars: Vec<char> = line.chars().collect();
    let mut i = name.chars().count();
    let mut called = false;
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        match chars.get(i) {
            None => return called,
            Some(';') => return called && chars[i + 1..].iter().all(|c| c.is_whitespace()),
            Some('!') => i += 1,
            Some(&c) if c == '.' || (c == '?' && chars.get(i + 1) == Some(&'.')) => {
                i += if c == '?' { 2 } else { 1 };
                let from = i;
                while chars.get(i).is_some_and(|c| ident_char(*c) || *c == '#') {
                    i += 1;
                }
                if i == from {
                    return false;
                }
            }
            Some('<') => match close(&chars, i, '<', '>') {
                Some(j) => i = j + 1,
                None => return false,
            },
            Some('(') => {
                called = true;
                match close(&chars, i, '(', ')') {
                    Some(j) => i = j + 1,
                    // The arguments go on over the next lines.
                    None => return true,
                }
            }
            Some('[') => match close(&chars, i, '[', ']') {
                Some(j) => i = j + 1,
                None => return false,
            },
            Some(_) => return false,
        }
    }
}

/// The index of the bracket that closes the one opened at `from`, on this line.
fn close(chars: &[char], from: usize, open: char, shut: char) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &c) in chars.iter().enumerate().skip(from) {
        if c == open {
            depth += 1;
        } else if c == shut && !(shut == '>' && i > 0 && chars[i - 1] == '=') {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Whether `line` declares a `_`-named binding (`const _bad: Schema = value;`) that the
/// file never reads: the declaration exists only for the type check of its value.
fn unused_underscore(views: &[LineView], line: &str) -> bool {
    let Some(rest) = ["const ", "let ", "var "]
        .iter()
        .find_map(|k| line.strip_prefix(k))
    else {
        return false;
    };
    let name = head(rest.trim_start());
    if !name.starts_with('_') {
        return false;
    }
    let uses: usize = views.iter().map(|v| words(&v.code, name)).sum();
    uses == 1
}

/// How many times `name` occurs in `code` as a whole word.
fn words(code: &str, name: &str) -> usize {
    code.match_indices(name)
        .filter(|(i, _)| {
            let before = code[..*i].chars().next_back();
            let after = code[i + name.len()..].chars().next();
            !before.is_some_and(|c| ident_char(c) || c == '.') && !after.is_some_and(ident_char)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::languages::Lang;
    use crate::guards::lexer::lex;

    fn check(src: &str) -> bool {
        let views = lex(&Lang::Js.syntax(), src, usize::MAX);
        let at = src
            .lines()
            .position(|l| l.contains("@ts-expect-error"))
            .unwrap();
        asserts_type_error(&views, at)
    }

    #[test]
    fn a_dropped_call_with_no_runtime_check_after_it_is_an_assertion() {
        assert!(check(
            "test(\"a\", () => {\n  // @ts-expect-error wrong arg\n  z.string().apply(f, \"3\");\n});\n"
        ));
        assert!(check(
            "it('x', () => {\n  // @ts-expect-error\n  z.toZod<{ a: number; b: string }>()(viaAnd)\n  const s = 1\n})\n"
        ));
        // Among the arguments of such a call.
        assert!(check(
            "test(\"a\", () => {\n  z.toZod<C>()(\n    // @ts-expect-error\n    z.object({\n      id: z.string(),\n    })\n  );\n});\n"
        ));
        assert!(check(
            "test(\"a\", () => {\n  // @ts-expect-error\n  const _s: Std = schema;\n});\n"
        ));
        // A test's own parameter called, a method of an object made by a factory.
        assert!(check(
            "test('a', async (t, server, got) => {\n  // @ts-expect-error\n  got('', {bad: 1});\n});\n"
        ));
        assert!(check(
            "test('a', () => {\n  const s = z.string();\n  // @ts-expect-error\n  s.min('3');\n});\n"
        ));
    }

    #[test]
    fn a_test_file_that_only_asserts_types_is_a_type_test_module() {
        let module = |src: &str| type_test_module(&lex(&Lang::Js.syntax(), src, usize::MAX));
        assert!(module(
            "import {expectTypeOf} from 'expect-type';\n// @ts-expect-error\nconst o: Options = {url: 1};\nexpectTypeOf(f()).toEqualTypeOf<string>();\n"
        ));
        // A test a runner runs; no type-assertion library.
        assert!(!module(
            "import {expectTypeOf} from 'expect-type';\ntest('a', () => {\n  expectTypeOf(f()).toEqualTypeOf<string>();\n});\n"
        ));
        assert!(!module(
            "import {helper} from './helper';\n// @ts-expect-error\nconst o: Options = {url: 1};\n"
        ));
    }

    #[test]
    fn code_run_for_its_effect_stays_a_suppression() {
        for src in [
            // Its effect is checked next.
            "it('x', () => {\n  // @ts-expect-error\n  client.search.$ws({ q: 1 })\n\n  expect(mock).toHaveBeenCalled()\n})\n",
            "it('x', async () => {\n  // @ts-expect-error\n  run(1);\n  await expect(p).resolves.toBe(1);\n})\n",
            // Assignments, delete, await, checks.
            "it('x', () => {\n  // @ts-expect-error\n  server.send = vi.fn()\n})\n",
            "it('x', () => {\n  // @ts-expect-error\n  delete URL.canParse;\n})\n",
            "it('x', async () => {\n  // @ts-expect-error\n  await ky.get(url, {bad: 1});\n})\n",
            "it('x', () => {\n  // @ts-expect-error\n  expect(() => f(1)).toThrow();\n})\n",
            "it('x', () => {\n  expect(() =>\n    // @ts-expect-error\n    z.merge(a, b)\n  ).toThrow();\n})\n",
            "it('x', async () => {\n  const r = await ky(url, {\n    // @ts-expect-error\n    searchParams: {a: undefined},\n  });\n})\n",
            // A `_` name that is read, a value returned by an arrow.
            "it('x', () => {\n  // @ts-expect-error\n  const _s: S = schema;\n  use(_s);\n})\n",
            "const f = () =>\n  // @ts-expect-error\n  g(1);\n",
            // At the top of the module.
            "// @ts-expect-error\naxios.get(1);\n",
            // A fake answering the callback it was handed, or driving an object the test built.
            "it('x', async () => {\n  await got({\n    lookup(host, options, callback) {\n      if (options.all) {\n        // @ts-expect-error\n        callback(null, '127.0.0.1', 4);\n      }\n    },\n  });\n})\n",
            "it('x', () => {\n  const m = new PassThrough() as unknown as Message;\n  setImmediate(() => {\n    // @ts-expect-error\n    m.end('ok');\n  });\n})\n",
        ] {
            assert!(!check(src), "{src}");
        }
    }
}
