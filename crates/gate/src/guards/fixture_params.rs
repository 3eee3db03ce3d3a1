//! A pytest skip of one fixture value the change added lowers no bar.
//!
//! A fixture with `params=[..]` (often in a shared `conftest.py`) runs every test that
//! takes it once per value. A change that adds a value and keeps some existing tests from
//! that value only, `if ws_protocol_cls.__name__ == "WebSocketsSansIOProtocol":
//! pytest.skip(..)`, leaves every value that ran before running: the skipped case did not
//! exist at the comparison point (as an assumption over a JUnit parameter the change adds,
//! see [`super::new_parameter`]).
//!
//! The shape is narrow, so that a skip of a case that did run is still caught:
//! - the skip is the first statement under an `if` (or on its line) whose whole condition
//!   is an equality, `name == "text"` or `name.attr == "text"` (either side), so it picks
//!   one value; `!=`, `in`, `not` and any call are conditions of another kind;
//! - `name` is a parameter of the test function the skip stands in;
//! - a fixture of that name is declared in a Python file of the change with `params`, the
//!   change added to its decorator a line holding that text, and that file's text at the
//!   comparison point did not hold it anywhere.

use super::lexer::lex;
use super::line::indent;
use super::{FileDelta, Lang};

/// Whether the body skip `label` on line `line` (1-based) of the Python test `text` only
/// keeps a test from a fixture value that the change added in one of `deltas`.
pub fn skips_new_value(label: &str, line: u32, text: &str, deltas: &[&FileDelta]) -> bool {
    if label != "pytest.skip(" {
        return false;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let views = lex(&Lang::Python.syntax(), text, usize::MAX);
    let Some(at) = (line as usize).checked_sub(1).filter(|&i| i < lines.len()) else {
        return false;
    };
    let Some((guard, own_line)) = guarding_if(&lines, &views, at) else {
        return false;
    };
    let Some((name, value)) = equality(guard) else {
        return false;
    };
    let before = if own_line { at + 1 } else { at };
    if !test_parameter(&lines, before, &name) {
        return false;
    }
    deltas.iter().any(|d| fixture_gained(d, &name, &value))
}

/// The condition of the `if` that directly guards line `at`, and whether it is on the same
/// line: `if c: pytest.skip(..)`, or `if c:` as the nearest code line above, less indented.
fn guarding_if<'t>(
    lines: &[&'t str],
    views: &[super::lexer::LineView],
    at: usize,
) -> Option<(&'t str, bool)> {
    let own = lines[at].trim_start();
    if let Some(rest) = own.strip_prefix("if ") {
        let (cond, _) = rest.split_once(':')?;
        return Some((cond.trim(), true));
    }
    let above = (0..at)
        .rev()
        .find(|&i| !views.get(i).is_some_and(|v| v.code.trim().is_empty()))?;
    if indent(lines[above]) >= indent(lines[at]) {
        return None;
    }
    let cond = lines[above].trim().strip_prefix("if ")?.strip_suffix(':')?;
    Some((cond.trim(), false))
}

/// `name == "text"`, `name.attr == "text"` or the same turned around: the name read and
/// the text it is compared with.
fn equality(cond: &str) -> Option<(String, String)> {
    let (a, b) = cond.split_once("==")?;
    let (a, b) = (a.trim(), b.trim());
    let quoted = |s: &str| {
        let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let inner = s.strip_prefix(q)?.strip_suffix(q)?;
        (!inner.is_empty() && !inner.contains(q)).then(|| inner.to_string())
    };
    let reads = |s: &str| {
        let ok = !s.is_empty()
            && s.split('.').all(|p| {
                !p.is_empty()
                    && p.chars().all(|c| c.is_alphanumeric() || c == '_')
                    && !p.starts_with(|c: char| c.is_ascii_digit())
            });
        ok.then(|| s.split('.').next().unwrap_or(s).to_string())
    };
    match (reads(a), quoted(b), quoted(a), reads(b)) {
        (Some(n), Some(v), _, _) | (_, _, Some(v), Some(n)) => Some((n, v)),
        _ => None,
    }
}

/// Whether the function around line `before` (the nearest `def` above, less indented
/// than that line) takes `name` as a parameter.
fn test_parameter(lines: &[&str], before: usize, name: &str) -> bool {
    let depth = lines.get(before).map_or(0, |l| indent(l));
    let Some(def) = (0..before).rev().find(|&i| {
        let t = lines[i].trim_start();
        indent(lines[i]) < depth && (t.starts_with("def ") || t.starts_with("async def "))
    }) else {
        return false;
    };
    let mut signature = String::new();
    for l in &lines[def..lines.len().min(def + 20)] {
        signature.push_str(l);
        signature.push(' ');
        if l.trim_end().ends_with(':') {
            break;
        }
    }
    let Some((_, params)) = signature.split_once('(') else {
        return false;
    };
    params
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == name)
}

/// Whether `d` declares a fixture `name` with `params` whose decorator gained a line
/// holding `value`, a text its old side did not hold anywhere.
fn fixture_gained(d: &FileDelta, name: &str, value: &str) -> bool {
    if Lang::from_path(&d.path) != Some(Lang::Python) {
        return false;
    }
    let Some(text) = d.new_text.as_deref() else {
        return false;
    };
    if d.old_text.as_deref().is_some_and(|t| t.contains(value)) {
        return false;
    }
    let lines: Vec<&str> = text.split('\n').collect();
    let def = [format!("def {name}("), format!("async def {name}(")];
    let Some(at) = lines
        .iter()
        .position(|l| def.iter().any(|d| l.trim_start().starts_with(d.as_str())))
    else {
        return false;
    };
    // The decorator above the declaration, back to its `@`, at most this far.
    let Some(top) = (at.saturating_sub(60)..at)
        .rev()
        .find(|&i| lines[i].trim_start().starts_with("@pytest.fixture"))
    else {
        return false;
    };
    if !lines[top..at].iter().any(|l| l.contains("params")) {
        return false;
    }
    let span = (top + 1) as u32..=(at as u32);
    d.added_lines
        .iter()
        .any(|l| span.contains(&l.number) && l.text.contains(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_equality_reads_a_name_and_a_text() {
        assert_eq!(
            equality("ws_protocol_cls.__name__ == \"Sans\""),
            Some(("ws_protocol_cls".into(), "Sans".into()))
        );
        assert_eq!(equality("'x' == proto"), Some(("proto".into(), "x".into())));
        for cond in [
            "proto != \"x\"",
            "proto in (\"x\", \"y\")",
            "f(proto) == \"x\"",
            "sys.platform == \"win32\" or proto == \"x\"",
            "proto == other",
        ] {
            assert!(equality(cond).is_none(), "{cond}");
        }
    }
}
