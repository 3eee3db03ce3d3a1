//! What a test that left its file looks like, to tell a moved or restructured test from a
//! deleted one: its declaration, its body, whether it asserted anything at all, and which
//! shared runner files a test file calls.
//!
//! A test is read by layout, the same in every language this crate knows: the body is the
//! block of lines indented deeper than the line that declares it (Python, Ruby, Go, Java,
//! JavaScript and Rust are all written that way), ending at the first line back at the
//! declaration's indentation (`}`, `})`, `end`, or the next declaration).

use super::account::normalise;
use super::inline_annotations::declaration_past_annotations;
use super::js_tests;
use super::languages::Lang;
use super::lexer::{lex, LineView};
use super::line::{indent, LineCtx};
use super::rust_tests::TestMacros;
use super::scan::views;
use super::tests_count::{
    go_example, go_example_runs, js_test_calls, junit3_method, junit3_suite, tests_on_line,
    tests_on_line_with,
};
use super::Line;

/// One test declared on a changed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// The declaration line, whitespace aside; for an attribute (`#[test]`, `@Test`), with
    /// the line it decorates.
    pub key: String,
    /// The line that names the test (for an attribute, the line it decorates) with no
    /// whitespace at all: a JUnit 3 `public void testX()` given `@Test` as it moves, or a
    /// declaration a formatter respaced (`it 'x'do`, `def test_x( a ):`), is the same test.
    pub sig: String,
    /// The body's lines that say something (not blank, not comments, not a lone closing
    /// bracket), normalised.
    pub body: Vec<String>,
    /// It ran nothing: a placeholder (a pending test with no callback, `it('later')`, or a
    /// skipped one with an empty block) or a test switched off where it is declared
    /// (`xit`, `@Ignore`, `@pytest.mark.skip`). Removing it loses no assertion that ran.
    pub empty: bool,
}

/// The bodies of tests this long are not read further: a move keeps their first lines.
const BODY_MAX: usize = 400;

/// Each test declared on `lines` of a file whose whole text is `text`, one entry per test.
pub fn declared(lines: &[Line], text: Option<&str>, lang: Lang, is_test: bool) -> Vec<Declared> {
    declared_with(lines, text, lang, is_test, &TestMacros::default())
}

/// [`declared`], with the JVM test annotations the change declares (`macros`): a test of a
/// composed annotation that moves is seen leaving and arriving.
pub fn declared_with(
    lines: &[Line],
    text: Option<&str>,
    lang: Lang,
    is_test: bool,
    macros: &TestMacros,
) -> Vec<Declared> {
    let Some(text) = text else {
        return Vec::new();
    };
    let all: Vec<&str> = text.split('\n').collect();
    let lexed = lex(&lang.syntax(), text, usize::MAX);
    let junit3 = junit3_suite(lang, &lexed, is_test);
    // Suites of subtests and tests declared by a runner's bare `skip(..)`, read over the
    // whole file (see [`js_tests`]), as the count reads them.
    let js_adjust = match lang {
        Lang::Js => js_tests::adjustments(&lexed, text, is_test, js_test_calls),
        _ => Vec::new(),
    };
    let mut out = Vec::new();
    for (line, view) in views(lines, Some(text), lang, Some(lexed.clone())) {
        if view.code.trim().is_empty() {
            continue;
        }
        let Some(mut sig) = (line.number as usize).checked_sub(1) else {
            continue;
        };
        let cx = LineCtx::new(lang, &view, is_test);
        let mut n = tests_on_line_with(&cx, macros);
        if n == 0 && junit3 && !annotated(lang, &lexed, sig, is_test) {
            n = junit3_method(&cx);
        }
        if let Some(&delta) = js_adjust.get(sig) {
            n = (i64::from(n) + i64::from(delta)).max(0) as u32;
        }
        if n == 0 {
            continue;
        }
        let declared_at = sig;
        let mut key = normalise(&line.text);
        let mut named = key.clone();
        // An attribute names no test: the line it decorates does, past other attributes
        // (`#[test]` then `#[should_panic]`, `@Test` then `@Ignore`); on this line, what
        // follows them (`@Test public void x() {` is named by `public void x() {`).
        if let Some(decl) = declaration_past_annotations(&key).filter(|_| attribute(&key)) {
            named = decl.to_string();
        } else if attribute(&key) {
            let decorated = (sig + 1..all.len())
                .find(|&i| !all[i].trim().is_empty() && !attribute(all[i].trim_start()));
            if let Some(next) = decorated {
                named = normalise(all[next]);
                key.push_str(" / ");
                key.push_str(&named);
                sig = next;
            }
        }
        let body = body_of(&all, &lexed, sig);
        let empty = empty_test(lang, &lexed, sig)
            || bare(lang, &lexed, sig)
            || disabled(lang, &all, declared_at, sig)
            || skips_first(lang, &all, &lexed, sig, is_test)
            || (lang == Lang::Go && go_example(&cx) > 0 && !go_example_runs(&lexed, declared_at));
        let test = Declared {
            key,
            sig: named.split_whitespace().collect(),
            body,
            empty,
        };
        out.extend(std::iter::repeat_n(test, n as usize));
    }
    out
}

/// Whether the test declared from line `from` to its naming line `sig` is switched off
/// where it is declared, with no condition: a JUnit `@Ignore`/`@Disabled`, a Python
/// `@pytest.mark.skip`/`@unittest.skip` among its attributes (those above it and those
/// between), or a JavaScript/Ruby declaration by a skipping name (`it.skip`, `xit`,
/// tap's `skip(..)`, `xspecify`, ...). It ran nothing at the comparison point, so removing it stops nothing
/// that ran (disabling it was the lowered bar, reported when it happened).
fn disabled(lang: Lang, all: &[&str], from: usize, sig: usize) -> bool {
    let off = |line: &str| {
        let at = line.trim_start();
        let name: String = at
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '@' | '.' | '_'))
            .collect();
        match lang {
            Lang::Java | Lang::Kotlin => matches!(
                name.as_str(),
                "@Ignore" | "@Disabled" | "@org.junit.Ignore" | "@org.junit.jupiter.api.Disabled"
            ),
            Lang::Python => matches!(
                name.as_str(),
                "@pytest.mark.skip" | "@unittest.skip" | "@skip"
            ),
            // A bare `skip(` here declared a test: tap's or node:test's `skip('x', ..)`.
            Lang::Js => {
                name.ends_with(".skip")
                    || name == "skip"
                    || matches!(name.split('.').next(), Some("xit" | "xtest" | "xdescribe"))
            }
            Lang::Ruby => matches!(
                name.as_str(),
                "xit" | "xspecify" | "xexample" | "xscenario" | "xdescribe" | "xcontext"
            ),
            _ => false,
        }
    };
    let above = (0..from)
        .rev()
        .take_while(|&i| attribute(all[i].trim_start()))
        .any(|i| off(all[i]));
    above || (from..=sig).filter_map(|i| all.get(i)).any(|l| off(l))
}

/// Whether the first statement of the body of the test whose signature is line `sig` is
/// an unconditional skip: Ruby's `skip`/`pending` (test-unit's `omit`/`pend`), Python's `pytest.skip(...)`/
/// `self.skipTest(...)`, JavaScript's `this.skip()`, Go's `t.Skip(...)`/`t.SkipNow()`.
/// Such a test is switched off where it is declared as surely as `xit`: nothing of it
/// ran. A skip under a condition (an `if`/`unless` before or after it on that line, or an
/// `if` block around it) is not this: the test ran where the condition did not hold.
fn skips_first(lang: Lang, all: &[&str], lexed: &[LineView], sig: usize, is_test: bool) -> bool {
    let Some(head) = all.get(sig) else {
        return false;
    };
    let depth = indent(head);
    let Some(first) = (sig + 1..all.len().min(lexed.len()))
        .find(|&i| !lexed[i].code.trim().is_empty())
        .filter(|&i| indent(all[i]) > depth)
    else {
        return false;
    };
    let cx = LineCtx::new(lang, &lexed[first], is_test);
    if (0..cx.toks.len()).any(|i| matches!(cx.ident(i), Some("if" | "unless"))) {
        return false;
    }
    let Some(ch) = cx.chains.first().filter(|ch| ch.start == 0) else {
        return false;
    };
    match lang {
        // A statement, not a variable of that name assigned (`skip = ...`).
        Lang::Ruby => {
            ch.names.len() == 1
                && super::skips::RUBY_BODY_SKIPS.contains(&ch.head())
                && !cx.punct(ch.end, '=')
        }
        Lang::Python => {
            (ch.is(&["pytest", "skip"]) || ch.is(&["self", "skipTest"])) && ch.called(&cx.toks)
        }
        Lang::Js => ch.is(&["this", "skip"]) && ch.called(&cx.toks),
        Lang::Go => {
            ch.names.len() == 2
                && matches!(ch.last(), "Skip" | "Skipf" | "SkipNow")
                && ch.called(&cx.toks)
        }
        _ => false,
    }
}

/// Whether a line opens with an attribute or annotation (`#[test]`, `@Test`, `[Fact]`).
fn attribute(line: &str) -> bool {
    line.starts_with("#[") || line.starts_with('@') || line.starts_with('[')
}

/// Whether the code line before line `at` (0-based) declares a test by an annotation
/// (`@Test`): the method it decorates is that test, not a second one by its name.
fn annotated(lang: Lang, lexed: &[LineView], at: usize, is_test: bool) -> bool {
    (0..at)
        .rev()
        .find(|&i| lexed.get(i).is_some_and(|v| !v.code.trim().is_empty()))
        .is_some_and(|i| tests_on_line(&LineCtx::new(lang, &lexed[i], is_test)) > 0)
}

/// The saying lines of the body of the test whose signature is line `sig` (0-based).
fn body_of(all: &[&str], lexed: &[LineView], sig: usize) -> Vec<String> {
    let Some(head) = all.get(sig) else {
        return Vec::new();
    };
    let depth = indent(head);
    let mut body = Vec::new();
    for (i, raw) in all.iter().enumerate().skip(sig + 1).take(BODY_MAX) {
        if raw.trim().is_empty() {
            continue;
        }
        if indent(raw) <= depth {
            break;
        }
        let code = lexed.get(i).map_or(*raw, |v| v.code.as_str()).trim();
        // Comments and lone brackets say nothing.
        if code.chars().any(char::is_alphanumeric) {
            body.push(normalise(raw));
        }
    }
    body
}

/// The saying lines of the bodies of the functions declared on lines `at` (0-based) of
/// `text`, read as a test's body is: what a test demoted to a plain function kept.
pub fn bodies_at(text: &str, lang: Lang, at: &[usize]) -> Vec<Vec<String>> {
    let all: Vec<&str> = text.split('\n').collect();
    let lexed = lex(&lang.syntax(), text, usize::MAX);
    at.iter().map(|&i| body_of(&all, &lexed, i)).collect()
}

/// Line `i`'s code with no whitespace at all (empty past the end).
fn compact(lexed: &[LineView], i: usize) -> String {
    lexed
        .get(i)
        .map_or(String::new(), |v| v.code.split_whitespace().collect())
}

/// The first line after `sig` that holds code, compacted.
fn next_code(lexed: &[LineView], sig: usize) -> String {
    (sig + 1..lexed.len())
        .map(|i| compact(lexed, i))
        .find(|c| !c.is_empty())
        .unwrap_or_default()
}

/// Whether the test declared on line `sig` is a placeholder that never ran an assertion,
/// read from the code (strings as `"`, comments gone) so that layout alone never makes a
/// test look empty. In JavaScript and Ruby: a pending test with no callback at all
/// (`it('later')`, `it "later"`), or a skipped one (`it.skip`, `xit`, `xspecify`, ...)
/// whose block is empty (`() => {}`, `{` then `}`, `do` then `end`). An empty test that
/// runs is kept as a test: it still checks that its setup does not throw.
fn empty_test(lang: Lang, lexed: &[LineView], sig: usize) -> bool {
    if !matches!(lang, Lang::Js | Lang::Ruby) {
        return false;
    }
    let line = compact(lexed, sig);
    let tail = line.trim_end_matches(';');
    if tail.ends_with('"') || tail.ends_with("\")") {
        return true;
    }
    let head: String = line
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.'))
        .collect();
    let skipped = head.ends_with(".skip")
        || matches!(
            head.split('.').next(),
            Some("xit" | "xtest" | "xspecify" | "xexample" | "xscenario")
        );
    let next = || next_code(lexed, sig);
    skipped
        && (tail.ends_with("{}")
            || tail.ends_with("{})")
            || (tail.ends_with('{') && next().starts_with('}'))
            || (tail.ends_with("do") && next() == "end"))
}

/// Whether the Go or Rust test whose signature is line `sig` has no statement at all
/// between its braces (`func TestName(t *testing.T) {}`, an editor's template left in):
/// those languages run nothing around a single test (no `beforeEach`, no fixture), so it
/// checked nothing. Read from the code, so a body of comments alone is as empty.
fn bare(lang: Lang, lexed: &[LineView], sig: usize) -> bool {
    if !matches!(lang, Lang::Go | Lang::Rust) {
        return false;
    }
    let line = compact(lexed, sig);
    let next = || next_code(lexed, sig);
    line.ends_with("{}") || (line.ends_with('{') && next().starts_with('}'))
}

/// Take out of `old` and `new` the tests that are one test before and after the change,
/// by the line that names them: first those whose body is also the same, then the rest in
/// order. Several tests may share a name in one file (a method of each of several nested
/// fixture classes): the one whose body stayed is the one kept. The pairs, `(old, new)`.
pub fn same_tests(old: &mut Vec<Declared>, new: &mut Vec<Declared>) -> Vec<(Declared, Declared)> {
    let mut pairs = Vec::new();
    for exact in [true, false] {
        let mut i = 0;
        while i < old.len() {
            let o = &old[i];
            let hit = new
                .iter()
                .position(|n| n.sig == o.sig && (!exact || n.body == o.body));
            match hit {
                Some(j) => pairs.push((old.remove(i), new.remove(j))),
                None => i += 1,
            }
        }
    }
    pairs
}

/// Whether the test with body `new` is `old` rewritten: more than half of `old`'s saying
/// lines, and at least two, are lines of `new` (each line of `new` used once). A real
/// deletion leaves its assertions nowhere; a test that shares only boilerplate with
/// another (a runner set up, an exit code checked) is not its rewrite.
pub fn rewritten(old: &[String], new: &[String]) -> bool {
    if old.len() < 2 {
        return false;
    }
    let mut left: Vec<&String> = new.iter().collect();
    let mut kept = 0;
    for line in old {
        if let Some(at) = left.iter().position(|l| *l == line) {
            left.swap_remove(at);
            kept += 1;
        }
    }
    kept >= 2 && kept * 2 > old.len()
}

/// What a test file is about: its name without extensions and without the test runner's
/// affixes (`test_`, `_test`, `_spec`, `Test`, `Tests`, `IT`, `.test`, `.spec`). A file
/// named for its directory's entry point (`index.test.ts`, `mod.rs`, `__init__.py`) is
/// about its directory. `OSGiTest.java` is about `OSGi`, `OSGiManifestIT.java` about
/// `OSGiManifest`, `content_for_test.rb` and `content_for_spec.rb` about `content_for`.
pub fn subject(path: &str) -> Option<&str> {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    // The name without its extension and a dotted runner affix, and nothing more: in
    // `help.wrap.test.js` the dots name the thing tested (`help.wrap`, not `help`), so
    // `help.boxWrap.test.js` is about something else.
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let stem = [".test-d", ".test", ".spec", ".tests", ".specs"]
        .iter()
        .find_map(|a| stem.strip_suffix(a))
        .unwrap_or(stem);
    if matches!(stem, "index" | "mod" | "main" | "lib" | "__init__" | "init") {
        let parent = dir.rsplit('/').next().filter(|d| !d.is_empty())?;
        return Some(parent);
    }
    // `Test`, `Tests` and `IT` end a camel-case word; `EXIT` is no integration test.
    let camel = |rest: &str| rest.chars().next_back().is_some_and(|c| !c.is_uppercase());
    let mut s = stem;
    for suffix in [
        "_tests", "_test", "_spec", "-test", "-spec", "Tests", "Test", "IT", "Spec",
    ] {
        if let Some(rest) = stem.strip_suffix(suffix) {
            if suffix.starts_with(['_', '-']) || camel(rest) {
                s = rest;
                break;
            }
        }
    }
    if s == stem {
        for prefix in ["test_", "test-", "Test"] {
            if let Some(rest) = stem.strip_prefix(prefix) {
                if prefix != "Test" || rest.starts_with(char::is_uppercase) {
                    s = rest;
                    break;
                }
            }
        }
    }
    (!s.is_empty()).then_some(s)
}

/// Whether the test file `new`, added by a change that deleted the test file `old`, is
/// `old` written anew under another name: both about the same thing (one subject is the
/// other, or the other continued by a new word: `OSGi` and `OSGiManifest`, not `User` and
/// `Username`) and in the same directory or in sibling ones (`test/` and `spec/`,
/// `regression/` and `integration/`).
pub fn replaces(new: &str, old: &str) -> bool {
    let (Some(a), Some(b)) = (subject(new), subject(old)) else {
        return false;
    };
    let continues = |long: &str, short: &str| {
        long.strip_prefix(short).is_some_and(|rest| {
            rest.is_empty()
                || rest.starts_with(['_', '-', '.'])
                || (rest.starts_with(char::is_uppercase)
                    && short.chars().next_back().is_some_and(|c| !c.is_uppercase()))
        })
    };
    let depth = |p: &str| p.matches('/').count();
    let shared = super::account::shared_dirs(new, old);
    (continues(a, b) || continues(b, a))
        && shared + 1 >= depth(new)
        && shared + 1 >= depth(old)
        && Lang::from_path(new) == Lang::from_path(old)
}

/// Whether the test file `new`, added by a change that deleted the test file `old`, is
/// `old` moved to another part of the tree (into a module split out, under a renamed
/// root) and rewritten there: the very same file name, in a directory of the same name.
/// A file named only by its directory (`index.test.js`, `mod.rs`, `__init__.py`) names
/// no subject of its own, so the directory above that must match too.
pub fn moved_across(new: &str, old: &str) -> bool {
    let tail = |p: &str| -> Vec<String> {
        let parts: Vec<&str> = p.split('/').collect();
        let keep = if subject(p).is_some_and(|s| {
            let dir = p.rsplit('/').nth(1).unwrap_or("");
            s == dir
        }) {
            3
        } else {
            2
        };
        parts
            .iter()
            .rev()
            .take(keep)
            .map(|s| s.to_string())
            .collect()
    };
    let (a, b) = (tail(new), tail(old));
    new != old && a.len() == b.len() && a.len() >= 2 && a == b && subject(old).is_some()
}

/// Whether the file at `importer`, whose text holds `lines`, loads the file at `runner`:
/// a quoted relative path that resolves to it (`import { runTest } from '../common.test'`,
/// `require_relative 'shared'`), or a Python relative import (`from .common import run`).
pub fn imports<'a>(importer: &str, lines: impl IntoIterator<Item = &'a str>, runner: &str) -> bool {
    let dir = importer.rsplit_once('/').map_or("", |(d, _)| d);
    let stem = runner
        .rsplit_once('/')
        .map_or(runner, |(_, f)| f)
        .split('.')
        .next()
        .unwrap_or("");
    if stem.is_empty() {
        return false;
    }
    let target = |spec: &str| -> bool {
        let Some(path) = resolve(dir, spec) else {
            return false;
        };
        // Written with its extension, or without it: `../common` names `common.ts`, not
        // `common.case.test.ts`.
        path == runner
            || runner
                .strip_prefix(path.as_str())
                .is_some_and(|rest| rest.starts_with('.') && !rest[1..].contains(['/', '.']))
    };
    lines.into_iter().any(|line| {
        line.contains(stem)
            && (quoted(line).any(|spec| loads_by_path(line, spec) && target(spec))
                || python_relative(line).is_some_and(|s| target(&s)))
    })
}

/// Whether the quoted `spec` on `line` names a file by its path: one written relative to
/// the importer (`./common`, `../common.case.test`), or any spec of a Ruby load
/// (`require_relative 'shared'`). A bare word elsewhere is a package (`import x from
/// 'common'`) or no path at all: a test's title or an argument (`describe('command', ..)`
/// beside `command.test.js` loads nothing).
fn loads_by_path(line: &str, spec: &str) -> bool {
    if spec.starts_with("./") || spec.starts_with("../") {
        return true;
    }
    let code = line.trim_start();
    [
        "require_relative ",
        "require_relative(",
        "require ",
        "load ",
    ]
    .iter()
    .any(|w| code.starts_with(w))
}

/// The contents of the quoted strings on a line.
fn quoted(line: &str) -> impl Iterator<Item = &str> {
    let mut rest = line;
    std::iter::from_fn(move || {
        let start = rest.find(['\'', '"', '`'])?;
        let q = rest.as_bytes()[start] as char;
        let after = &rest[start + 1..];
        let end = after.find(q)?;
        rest = &after[end + 1..];
        Some(&after[..end])
    })
}

/// `from .common import x` as `./common`, `from ..pkg.mod import x` as `../pkg/mod`.
fn python_relative(line: &str) -> Option<String> {
    let module = line
        .trim_start()
        .strip_prefix("from ")?
        .split_whitespace()
        .next()?;
    let dots = module.len() - module.trim_start_matches('.').len();
    if dots == 0 {
        return None;
    }
    let name = module[dots..].replace('.', "/");
    let up = if dots == 1 {
        "./".to_string()
    } else {
        "../".repeat(dots - 1)
    };
    Some(format!("{up}{name}"))
}

/// `spec` read from directory `dir` as a repository path, when it is relative.
fn resolve(dir: &str, spec: &str) -> Option<String> {
    if spec.is_empty() || spec.contains(char::is_whitespace) || spec.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in spec.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tests_in(path: &str, text: &str) -> Vec<Declared> {
        let lang = Lang::from_path(path).unwrap();
        declared(&Line::all_of(text), Some(text), lang, true)
    }

    #[test]
    fn a_body_is_the_block_under_its_declaration() {
        let text = "def test_a(runner):\n    # why\n    result = runner.invoke(cli)\n\n    assert result.exit_code == 0\n\n\ndef test_b():\n    pass\n";
        let found = tests_in("tests/test_x.py", text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].key, "def test_a(runner):");
        assert_eq!(
            found[0].body,
            [
                "result = runner.invoke(cli)",
                "assert result.exit_code == 0"
            ]
        );
        assert!(!found[0].empty);
        let java =
            "class T {\n  @Test\n  public void adds() {\n    assertEquals(2, add(1, 1));\n  }\n}\n";
        let found = tests_in("src/test/java/T.java", java);
        assert_eq!(found[0].key, "@Test / public void adds() {");
        assert_eq!(found[0].body, ["assertEquals(2, add(1, 1));"]);
    }

    #[test]
    fn a_test_whose_first_statement_skips_ran_nothing() {
        let empty = |path: &str, text: &str| -> Vec<bool> {
            tests_in(path, text).iter().map(|t| t.empty).collect()
        };
        let ruby = "it 'a' do\n  skip\n  assert x\nend\nit 'b' do\n  skip 'why' if jruby?\n  assert x\nend\nit 'c' do\n  assert x\n  skip\nend\nit 'd' do\n  skip_this = 1\nend\nit 'e' do\n  skip = slow?\n  assert x\nend\n";
        assert_eq!(
            empty("test/a_test.rb", ruby),
            [true, false, false, false, false]
        );
        let python = "def test_a():\n    pytest.skip('no')\n    assert 1\n\ndef test_b(self):\n    if sys.platform == 'win32':\n        self.skipTest('no')\n    assert 1\n\ndef test_c(self):\n    self.skipTest('no')\n";
        assert_eq!(empty("tests/test_a.py", python), [true, false, true]);
        let js = "it('a', function () {\n  this.skip();\n  expect(1);\n});\nit('b', function () {\n  if (win) this.skip();\n  expect(1);\n});\n";
        assert_eq!(empty("test/a.test.js", js), [true, false]);
        let go = "func TestA(t *testing.T) {\n\tt.Skip(\"flaky\")\n\tcheck(t)\n}\n\nfunc TestB(t *testing.T) {\n\tif testing.Short() {\n\t\tt.SkipNow()\n\t}\n\tcheck(t)\n}\n";
        assert_eq!(empty("pkg/a_test.go", go), [true, false]);
    }

    #[test]
    fn an_empty_go_or_rust_test_ran_nothing() {
        let empty = |path: &str, text: &str| -> Vec<bool> {
            tests_in(path, text).iter().map(|t| t.empty).collect()
        };
        let go = "func TestA(t *testing.T) {}\n\nfunc TestB(t *testing.T) {\n\t// later\n}\n\nfunc TestC(t *testing.T) {\n\tcheck(t)\n}\n\nfunc TestD(t *testing.T) { check(t) }\n";
        assert_eq!(empty("pkg/a_test.go", go), [true, true, false, false]);
        let rust =
            "#[test]\nfn a() {}\n\n#[test]\nfn b() {\n}\n\n#[test]\nfn c() { check(S {}) }\n";
        assert_eq!(empty("tests/a.rs", rust), [true, true, false]);
    }

    #[test]
    fn a_go_example_without_output_ran_nothing() {
        let go = "func ExampleA() {\n\tfmt.Println(1)\n\t// Output: 1\n}\n\nfunc ExampleB() {\n\tfmt.Println(1)\n}\n";
        let found = tests_in("pkg/example_test.go", go);
        assert_eq!(
            found.iter().map(|t| t.empty).collect::<Vec<_>>(),
            [false, true]
        );
    }

    #[test]
    fn a_test_is_named_by_the_line_its_attributes_decorate() {
        let java = "class T {\n  @Test\n  @Ignore(\"flaky\")\n  public void adds() {\n    assertEquals(2, add(1, 1));\n  }\n}\n";
        let found = tests_in("src/test/java/T.java", java);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].key, "@Test / public void adds() {");
        assert_eq!(found[0].sig, "publicvoidadds(){");
        assert_eq!(found[0].body, ["assertEquals(2, add(1, 1));"]);
        let rust = "#[test]\n#[should_panic]\nfn overflows() {\n    add(u8::MAX, 1);\n}\n";
        assert_eq!(tests_in("src/lib.rs", rust)[0].sig, "fnoverflows(){");
        let py = "def test_a():\n    assert 1\n";
        assert_eq!(tests_in("tests/test_a.py", py)[0].sig, "deftest_a():");
    }

    #[test]
    fn junit3_methods_are_tests_once_each() {
        let junit3 = "public class ParserTest extends TestCase {\n  public void testParses() {\n    assertTrue(parse(\"a\"));\n  }\n  @Test\n  public void testAnnotated() {\n    assertTrue(true);\n  }\n  public void helper() {\n  }\n}\n";
        let sigs: Vec<String> = tests_in("src/test/java/ParserTest.java", junit3)
            .into_iter()
            .map(|t| t.sig)
            .collect();
        assert_eq!(
            sigs,
            ["publicvoidtestParses(){", "publicvoidtestAnnotated(){"]
        );
        // Outside a `TestCase` subclass, a method named test... is no test.
        let plain = junit3.replace(" extends TestCase", "");
        assert_eq!(tests_in("src/test/java/ParserTest.java", &plain).len(), 1);
    }

    #[test]
    fn junit3_methods_of_a_suite_base_subclass_are_declared_tests() {
        let junit3 = "public class ParserTest extends BaseTest {\n  public void testParses() {\n    assertTrue(parse(\"a\"));\n  }\n  public void testMode(int mode) {\n  }\n}\n";
        let sigs: Vec<String> = tests_in("src/test/java/ParserTest.java", junit3)
            .into_iter()
            .map(|t| t.sig)
            .collect();
        assert_eq!(sigs, ["publicvoidtestParses(){"]);
    }

    #[test]
    fn placeholders_are_pending_tests_and_skipped_empty_ones() {
        let js = "it.skip('only exports runners.', () => {})\nit('later')\nxit('soon', () => {\n})\nit('one line', () => expect(f()).toBe(1))\nit('block', () => {\n  expect(f()).toBe(1)\n})\ntest('smoke', () => {})\nit.skip('flaky', () => {\n  expect(f()).toBe(1)\n})\n";
        let empty: Vec<bool> = tests_in("a.test.js", js).iter().map(|t| t.empty).collect();
        assert_eq!(empty, [true, true, true, false, false, false, true]);
        // Layout alone never empties a test: unindented, the block still holds code.
        let flat = "it('block', () => {\nexpect(f()).toBe(1)\n})\n";
        assert!(!tests_in("a.test.js", flat)[0].empty);
        let rb =
            "it \"is pending\"\nxit \"later\" do\nend\nit \"works\" do\n  expect(1).to eq 1\nend\n";
        let empty: Vec<bool> = tests_in("spec/a_spec.rb", rb)
            .iter()
            .map(|t| t.empty)
            .collect();
        assert_eq!(empty, [true, true, false]);
        let py = "def test_a():\n    pass\n";
        assert!(!tests_in("tests/test_a.py", py)[0].empty);
    }

    #[test]
    fn a_test_switched_off_where_it_is_declared_ran_nothing_but_a_conditional_skip_did() {
        let py = "@pytest.mark.skip(reason='x')\ndef test_a():\n    assert f()\n\n@pytest.mark.skipif(WIN, reason='x')\ndef test_b():\n    assert f()\n\n@unittest.skip('later')\ndef test_c(self):\n    assert f()\n";
        let off: Vec<bool> = tests_in("tests/test_a.py", py)
            .iter()
            .map(|t| t.empty)
            .collect();
        assert_eq!(off, [true, false, true]);
        let java = "  @Ignore(\"flaky\")\n  @Test\n  public void a() {\n    assertTrue(f());\n  }\n  @Test\n  @Disabled\n  void b() {\n    assertTrue(f());\n  }\n  @Test\n  void c() {\n    assumeTrue(WIN);\n  }\n";
        let off: Vec<bool> = tests_in("src/test/java/ATest.java", java)
            .iter()
            .map(|t| t.empty)
            .collect();
        assert_eq!(off, [true, true, false]);
        let rb = "xspecify \"old\" do\n  get_it '/'\n  should.be.ok\nend\nspecify \"new\" do\n  get_it '/'\nend\n";
        let off: Vec<bool> = tests_in("spec/a_spec.rb", rb)
            .iter()
            .map(|t| t.empty)
            .collect();
        assert_eq!(off, [true, false]);
    }

    #[test]
    fn a_rewrite_keeps_most_of_the_body_and_boilerplate_is_not_enough() {
        let lines = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
        let old = lines("runner = CliRunner()\nresult = runner.invoke(hello, input=\"Peter\")\nassert result.exit_code == 0\nassert result.output == \"Peter\"");
        let new = lines("runner = CliRunner()\nresult = runner.invoke(hello, input=\"Peter\")\nassert result.exit_code == 0\nassert \"Peter\" in result.output");
        assert!(rewritten(&old, &new));
        let other = lines("runner = CliRunner()\nresult = runner.invoke(bye)\nassert result.exit_code == 0\nassert result.output == \"bye\"");
        assert!(!rewritten(&old, &other), "only half kept: boilerplate");
        assert!(!rewritten(&lines("assert x"), &lines("assert x")));
    }

    #[test]
    fn a_test_file_is_about_its_name_without_the_runners_affixes() {
        for (path, about) in [
            ("gson/src/test/java/OSGiTest.java", Some("OSGi")),
            (
                "gson/src/test/java/OSGiManifestIT.java",
                Some("OSGiManifest"),
            ),
            ("src/FooTests.cs", Some("Foo")),
            ("src/TestClassTest.java", Some("TestClass")),
            ("src/test/java/TestParser.java", Some("Parser")),
            ("src/test/java/EXIT.java", Some("EXIT")),
            ("tests/test_utils.py", Some("utils")),
            ("test/content_for_test.rb", Some("content_for")),
            ("spec/content_for_spec.rb", Some("content_for")),
            ("src/router.test.ts", Some("router")),
            ("tests/help.wrap.test.js", Some("help.wrap")),
            ("typings/index.test-d.ts", Some("typings")),
            ("src/helper/css/index.test.tsx", Some("css")),
            ("index.test.ts", None),
            ("tests/test_.py", None),
        ] {
            assert_eq!(subject(path), about, "{path}");
        }
    }

    #[test]
    fn a_replacement_is_about_the_same_thing_nearby() {
        assert!(replaces(
            "gson/src/test/java/integration/OSGiManifestIT.java",
            "gson/src/test/java/regression/OSGiTest.java"
        ));
        assert!(replaces(
            "contrib/spec/content_for_spec.rb",
            "contrib/test/content_for_test.rb"
        ));
        assert!(replaces("tests/test_utils.py", "tests/test_utils_extra.py"));
        assert!(replaces("tests/help.test.js", "tests/help.wrap.test.js"));
        assert!(!replaces(
            "tests/help.boxWrap.test.js",
            "tests/help.wrap.test.js"
        ));
        assert!(!replaces(
            "src/test/UsernameTest.java",
            "src/test/UserTest.java"
        ));
        assert!(!replaces(
            "src/test/HTTPServerTest.java",
            "src/test/HTTPTest.java"
        ));
        assert!(!replaces(
            "src/test/OrderTest.java",
            "src/test/UserTest.java"
        ));
        assert!(!replaces("a/x/y/OSGiTest.java", "b/x/y/OSGiTest.java"));
        assert!(!replaces("tests/test_utils.rb", "tests/test_utils.py"));
    }

    #[test]
    fn a_file_moved_across_the_tree_keeps_its_name_and_its_directory_name() {
        assert!(moved_across(
            "tests/it/src/test/java/org/x/api/ThenTest.java",
            "core/src/test/java/org/x/api/ThenTest.java"
        ));
        assert!(moved_across(
            "packages/core/lib/router/index.test.js",
            "lib/router/index.test.js"
        ));
        assert!(!moved_across(
            "tests/it/src/test/java/org/x/spi/ThenTest.java",
            "core/src/test/java/org/x/api/ThenTest.java"
        ));
        assert!(!moved_across(
            "src/server/router/index.test.js",
            "src/client/router/index.test.js"
        ));
        assert!(!moved_across("a/ThenTest.java", "a/ThenTest.java"));
        assert!(!moved_across("b/ThenTest.java", "ThenTest.java"));
    }

    #[test]
    fn a_runner_is_known_by_a_relative_path_that_resolves_to_it() {
        let runner = "src/router/common.case.test.ts";
        let importer = "src/router/trie-router/router.test.ts";
        assert!(imports(
            importer,
            ["import { runTest } from '../common.case.test'"],
            runner
        ));
        assert!(imports(
            "src/router/x.test.ts",
            ["import { runTest } from \"./common.case.test.ts\""],
            runner
        ));
        // Another directory's file of the same name, and a package of that name.
        assert!(!imports(
            importer,
            ["import { runTest } from './common.case.test'"],
            runner
        ));
        assert!(!imports(importer, ["import common from 'common'"], runner));
        assert!(!imports(
            importer,
            ["import { helper } from '../common'"],
            runner
        ));
        assert!(!imports(importer, ["// see common.case.test.ts"], runner));
        // A bare word beside a file of that name is a title or an argument, not a path.
        assert!(!imports(
            "test/yargs.mjs",
            ["  describe('command', () => {"],
            "test/command.mjs"
        ));
        assert!(!imports(
            "test/yargs.mjs",
            [".command('cmd', 'command', (y) => y)"],
            "test/command.mjs"
        ));
        assert!(imports(
            "test/yargs.mjs",
            ["import './command.mjs';"],
            "test/command.mjs"
        ));
        assert!(imports(
            "tests/unit/test_a.py",
            ["from .shared import run_all"],
            "tests/unit/shared.py"
        ));
        assert!(imports(
            "tests/unit/test_a.py",
            ["from ..shared import run_all"],
            "tests/shared.py"
        ));
        assert!(imports(
            "test/a_test.rb",
            ["require_relative 'shared_examples'"],
            "test/shared_examples.rb"
        ));
    }
}
