//! A Rust test that leaves early under a condition: `let Some(x) = probe() else { return };`
//! or `if !has_tool() { return; }` at the top of a `#[test]` function, with more of the
//! test after it. When the condition holds the test reports a pass with none of its checks
//! run, which is a skip the test report never shows (the runner has `#[ignore]` and
//! `cfg_attr(.., ignore)` for saying so).
//!
//! Read only where a static reading is sure the exit leaves the whole test: a `#[test]`
//! function runs one case (no parameters, no table), and a statement at its top level is
//! not inside a loop or a closure. Bodies run once per case (a test macro's body, a
//! parameterized `#[rstest]`, a helper) are not read: there a `return` can mean "nothing
//! to check for this case".

use super::languages::Lang;
use super::lexer::LineView;
use super::line::indent;

/// The label of the skip this reads as.
pub const LABEL: &str = "return under a condition at the top of a test";

/// How far a statement's opening line is followed to the `{` of its guarded block
/// (`let Some(x) = f(` wrapped by rustfmt, then `) else {`).
const OPENER_LINES: usize = 12;

/// Longer than any spelling of a bare exit (`return Ok::<(), _>(());` with spaces).
const EXIT_CHARS: usize = 40;

/// Whether line `at` (0-based) of `views` opens a conditional exit of a Rust test: a `let
/// .. else` or an `if` at the top level of a `#[test]` function's body, whose block holds
/// only a bare `return` (or `return Ok(())`), with more of the test after the statement.
pub fn skips_rest(lang: Lang, views: &[LineView], at: usize) -> bool {
    if lang == Lang::Python {
        return announced_python_exit(views, at);
    }
    if lang != Lang::Rust {
        return false;
    }
    let Some(view) = views.get(at) else {
        return false;
    };
    let code = view.code.trim();
    if !(code.starts_with("let ") || code.starts_with("if ")) {
        return false;
    }
    let depth = indent(&view.code);
    let Some(after) = exit_block_end(views, at, depth) else {
        return false;
    };
    let more = views[after + 1..]
        .iter()
        .map(|v| v.code.trim())
        .find(|c| !c.is_empty());
    let more = more.is_some_and(|c| !c.starts_with(['}', ')']) && !c.starts_with("else"));
    more && in_test_fn_top_level(views, at, depth)
}

/// The index of the last line of the statement opened at `at` when its block holds only a
/// bare return and nothing else follows the block (`else` of an `if`).
fn exit_block_end(views: &[LineView], at: usize, depth: usize) -> Option<usize> {
    let one_line = views[at].code.trim();
    if one_line.ends_with('}') || one_line.ends_with("};") {
        let body = one_line.trim_end_matches(';').strip_suffix('}')?;
        let (_, inner) = body.rsplit_once('{')?;
        return is_bare_return(inner).then_some(at);
    }
    // The line that opens the block: the first at the statement's depth that ends with
    // `{`; a statement that ends first (`;`) guards nothing.
    let mut opener = None;
    for (i, v) in views.iter().enumerate().skip(at).take(OPENER_LINES) {
        let c = v.code.trim_end();
        if c.trim().is_empty() {
            continue;
        }
        if i > at && indent(c) < depth {
            return None;
        }
        if i == at || indent(c) == depth {
            if c.ends_with('{') {
                opener = Some(i);
                break;
            }
            if c.ends_with(';') {
                return None;
            }
        }
    }
    let opener = opener?;
    let mut body = String::new();
    for (i, v) in views.iter().enumerate().skip(opener + 1) {
        let c = v.code.trim();
        if c.is_empty() {
            continue;
        }
        if indent(&v.code) <= depth {
            return (matches!(c, "}" | "};") && is_bare_return(&body)).then_some(i);
        }
        body.push_str(c);
        body.push(' ');
        // More than an exit: no need to read the rest of a long block.
        if body.len() > EXIT_CHARS {
            return None;
        }
    }
    None
}

fn is_bare_return(inner: &str) -> bool {
    let s: String = inner.split_whitespace().collect();
    matches!(
        s.trim_end_matches(';'),
        "return" | "returnOk(())" | "returnOk::<(),_>(())"
    )
}

/// Whether a statement at line `at`, indented `depth`, sits directly in the body of a
/// function marked `#[test]` (or an async runtime's `#[tokio::test]`, any attribute whose
/// path ends in `test`).
fn in_test_fn_top_level(views: &[LineView], at: usize, depth: usize) -> bool {
    let Some(decl) = (0..at)
        .rev()
        .find(|&j| !views[j].code.trim().is_empty() && indent(&views[j].code) < depth)
    else {
        return false;
    };
    let code = views[decl].code.trim();
    let declares_fn = code
        .split_whitespace()
        .take_while(|w| *w != "fn")
        .all(|w| matches!(w, "pub" | "async" | "unsafe" | "const" | "extern"))
        && code.split_whitespace().any(|w| w == "fn");
    if !declares_fn || !code.ends_with('{') {
        return false;
    }
    // The attributes over the declaration, comments and doc comments between them aside.
    for v in views[..decl].iter().rev() {
        let c = v.code.trim();
        if c.is_empty() {
            if v.comments.is_empty() {
                break;
            }
            continue;
        }
        let Some(attr) = c.strip_prefix("#[") else {
            break;
        };
        let path = attr
            .split(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == ':'))
            .next()
            .unwrap_or("");
        if path.rsplit("::").next() == Some("test") {
            return true;
        }
    }
    false
}

/// What a comment says when the `return` under it stands for a skip: the test is meant
/// for some machines only (`# Only test on suitable Unix platforms`, `# skip: no git`).
pub(super) const ANNOUNCED: &[&str] = &[
    "skip",
    "only test",
    "only run",
    "only on ",
    "not supported",
    "unsupported",
    "not available",
    "unavailable",
    "not installed",
    "cannot run",
    "can't run",
    "does not work on",
    "doesn't work on",
];

/// Whether line `at` of a Python test file opens `if cond:` whose block is a bare `return`
/// (or `if cond: return` on one line), with no `elif`/`else`, inside a test that runs one
/// case (`def test...` with no `parametrize` over it), more of the test after it, and a
/// comment of the skip vocabulary on the `if`, on the `return` or just above the `if`.
/// pytest has `pytest.skip()` for saying so; a `return` passes the test unchecked, and
/// the comment says that is what it is for. Unlike Rust's top-level rule, an exit inside
/// a loop counts: a Python `return` leaves the whole test wherever it stands, and the
/// comment, not the position, tells it from a case with nothing left to check.
fn announced_python_exit(views: &[LineView], at: usize) -> bool {
    let Some(view) = views.get(at) else {
        return false;
    };
    let code = view.code.trim();
    if !code.starts_with("if ") {
        return false;
    }
    let depth = indent(&view.code);
    let compact: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut said: Vec<&str> = view.comments.iter().map(String::as_str).collect();
    let last = if compact.ends_with(": return") {
        at
    } else if compact.ends_with(':') {
        // The block: the deeper lines after the `if`, which must be one bare `return`.
        let mut block = Vec::new();
        for (i, v) in views.iter().enumerate().skip(at + 1) {
            if v.code.trim().is_empty() {
                continue;
            }
            if indent(&v.code) <= depth {
                break;
            }
            block.push(i);
            if block.len() > 1 {
                return false;
            }
        }
        let [only] = block[..] else {
            return false;
        };
        if views[only].code.trim() != "return" {
            return false;
        }
        said.extend(views[only].comments.iter().map(String::as_str));
        only
    } else {
        return false;
    };
    // Comment lines right above the `if`.
    for v in views[..at].iter().rev() {
        if !v.code.trim().is_empty() || v.comments.is_empty() {
            break;
        }
        said.extend(v.comments.iter().map(String::as_str));
    }
    let announced = said.iter().any(|c| {
        let c = c.to_lowercase();
        ANNOUNCED.iter().any(|w| c.contains(w))
    });
    if !announced {
        return false;
    }
    // The test it leaves, and more of that test after the exit (not an `elif`/`else`).
    let Some(def) = nearest_def(views, at, depth) else {
        return false;
    };
    if !one_case_python_test(views, def) {
        return false;
    }
    let def_depth = indent(&views[def].code);
    let more = views[last + 1..]
        .iter()
        .find(|v| !v.code.trim().is_empty())
        .is_some_and(|v| {
            let c = v.code.trim_start();
            indent(&v.code) > def_depth
                && !(indent(&v.code) == depth && (c.starts_with("elif") || c.starts_with("else")))
        });
    more
}

/// The nearest `def` that encloses line `at` (indented `depth`): a nested function's
/// `return` leaves that function, not the test.
fn nearest_def(views: &[LineView], at: usize, depth: usize) -> Option<usize> {
    let mut depth = depth;
    for j in (0..at).rev() {
        let code = &views[j].code;
        let c = code.trim();
        if c.is_empty() || indent(code) >= depth {
            continue;
        }
        if c.starts_with("def ")
            || c.starts_with("async def ")
            || c.starts_with("class ")
            || c.starts_with("lambda")
        {
            return Some(j);
        }
        depth = indent(code);
    }
    None
}

/// Whether line `def` declares a pytest test that runs once: `def test...(` (also async),
/// with no `parametrize` mark among the decorators over it.
fn one_case_python_test(views: &[LineView], def: usize) -> bool {
    let c = views[def].code.trim();
    let name = c.strip_prefix("async ").unwrap_or(c);
    if !name
        .strip_prefix("def ")
        .is_some_and(|n| n.trim_start().starts_with("test"))
    {
        return false;
    }
    for v in views[..def].iter().rev() {
        let c = v.code.trim();
        if c.is_empty() {
            if v.comments.is_empty() {
                break;
            }
            continue;
        }
        if !c.starts_with('@') && !c.starts_with(')') && !c.ends_with(',') && !c.ends_with('(') {
            break;
        }
        if c.contains("parametrize") {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::lexer::lex;

    fn gated(text: &str, at: usize) -> bool {
        let views = lex(&Lang::Rust.syntax(), text, usize::MAX);
        skips_rest(Lang::Rust, &views, at)
    }

    #[test]
    fn a_test_that_returns_when_a_probe_fails_skips_its_checks() {
        let let_else = "#[test]\nfn t() {\n    let Some(x) = probe() else {\n        return;\n    };\n    assert_eq!(x, 1);\n}\n";
        assert!(gated(let_else, 2));
        let one_line = "#[test]\n#[cfg(unix)]\nfn t() {\n    let Ok(b) = which(\"bash\") else { return };\n    assert!(run(b));\n}\n";
        assert!(gated(one_line, 3));
        let if_return = "/// Needs bash.\n#[tokio::test]\nasync fn t() -> Result<(), E> {\n    if !has_bash() {\n        return Ok(());\n    }\n    check()?;\n    Ok(())\n}\n";
        assert!(gated(if_return, 3));
        let wrapped = "#[test]\nfn t() {\n    let Some(x) = probe(\n        a,\n    ) else {\n        return;\n    };\n    assert!(x);\n}\n";
        assert!(gated(wrapped, 2));
    }

    fn py(text: &str, at: usize) -> bool {
        let views = lex(&Lang::Python.syntax(), text, usize::MAX);
        skips_rest(Lang::Python, &views, at)
    }

    #[test]
    fn a_python_test_that_returns_under_an_announced_condition_skips() {
        let looped = "def test_pipe() -> None:\n    for cmd in cmds:\n        check = run(cmd).returncode\n        if check != 0:\n            return  # Only test on suitable Unix platforms\n    assert pipe() == 0\n";
        assert!(py(looped, 3));
        let one_line = "class TestX:\n    def test_git(self, tmp_path):\n        # skip when git is missing\n        if shutil.which('git') is None: return\n        assert run(tmp_path)\n";
        assert!(py(one_line, 3));
    }

    #[test]
    fn a_python_return_unannounced_or_in_a_case_or_helper_is_not_read() {
        // No comment says it is a skip.
        let plain = "def test_x():\n    if not HAVE_X:\n        return\n    assert f() == 1\n";
        assert!(!py(plain, 1));
        // A parameterized test runs once per case.
        let cases = "@pytest.mark.parametrize('n', [0, 1])\ndef test_x(n):\n    if n == 0:\n        return  # skip the empty case\n    assert f(n)\n";
        assert!(!py(cases, 2));
        // A nested helper's return leaves the helper.
        let helper = "def test_x():\n    def probe():\n        if missing():\n            return  # skip\n        go()\n    probe()\n";
        assert!(!py(helper, 2));
        // Nothing after it, or an `else` branch.
        let last = "def test_x():\n    check()\n    if done():\n        return  # skip\n";
        assert!(!py(last, 2));
        let branch = "def test_x():\n    if a():\n        return  # skip\n    else:\n        b()\n";
        assert!(!py(branch, 1));
        // Not a test.
        let plain_fn = "def probe():\n    if missing():\n        return  # skip\n    go()\n";
        assert!(!py(plain_fn, 1));
    }

    #[test]
    fn exits_that_fail_or_end_the_test_or_leave_a_helper_are_not_skips() {
        // The else fails the test.
        let panics = "#[test]\nfn t() {\n    let Some(x) = probe() else {\n        panic!(\"no probe\");\n    };\n    assert!(x);\n}\n";
        assert!(!gated(panics, 2));
        // Nothing after it.
        let last = "#[test]\nfn t() {\n    check();\n    if done() {\n        return;\n    }\n}\n";
        assert!(!gated(last, 3));
        // An if with an else is a branch, not an exit in front of the rest.
        let branch = "#[test]\nfn t() {\n    if a() {\n        return;\n    } else {\n        b();\n    }\n    c();\n}\n";
        assert!(!gated(branch, 2));
        // A helper, not a test.
        let helper = "fn probe() -> Option<u8> {\n    let Some(x) = f() else {\n        return None;\n    };\n    if x == 0 {\n        return;\n    }\n    Some(x)\n}\n";
        assert!(!gated(helper, 4));
        // Inside a loop of a test: the exit is for one item.
        let looped = "#[test]\nfn t() {\n    for c in cases() {\n        if c.skip {\n            return;\n        }\n        check(c);\n    }\n}\n";
        assert!(!gated(looped, 3));
        // A parameterized test runs once per case.
        let cases = "#[rstest]\n#[case(1)]\nfn t(#[case] n: u8) {\n    if n == 0 {\n        return;\n    }\n    check(n);\n}\n";
        assert!(!gated(cases, 3));
    }
}
