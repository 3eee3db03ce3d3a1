//! A skip condition rewritten so that it keeps every case it skipped and adds another:
//! `skipif(A)` -> `skipif(A or B)`, `{ skip: !!process.env.A }` -> `{ skip }` over `const
//! skip = process.env.A || process.env.B`. The test is now skipped everywhere it was and
//! somewhere more, so the rewrite widened the skip.
//!
//! Only conditions under which a test is skipped are read (`skipif`, `skipIf`, `xfail`,
//! `XCTSkipIf`, node:test's `skip` and `todo` options); for those a new alternative joined
//! by `or` / `||` can only skip more. An alternative compares by its text, spacing and a
//! leading `!!` (a cast to boolean) aside; an old alternative reworded is no longer found,
//! so the rewrite is taken as a refactor, as before.

use super::widen::{condition, top_level, SKIP_WHEN_TRUE};

/// The label of a node:test option skip (see `skips`).
const OPTION_LABELS: &[&str] = &["{ skip: ... }", "{ todo: ... }"];

/// Whether skip `new` (label `new_label`, on a line of `new_text`), a rewrite of `old`
/// (on a line of `old_text`), skips under every condition it did and more.
pub fn grew(
    old_label: &str,
    old: &str,
    old_text: Option<&str>,
    new_label: &str,
    new: &str,
    new_text: Option<&str>,
) -> bool {
    if old_label != new_label {
        return false;
    }
    let (Some(was), Some(now)) = (
        skip_condition(old_label, old, old_text),
        skip_condition(new_label, new, new_text),
    ) else {
        return false;
    };
    let (was, now) = (alternatives(&was), alternatives(&now));
    !was.is_empty() && was.len() < now.len() && was.iter().all(|a| now.contains(a))
}

/// The condition under which the skip on `line` skips: the first argument of a
/// skip-when-true call, or the value of a test's `skip`/`todo` option, read through the
/// variable the shorthand `{ skip }` names when the file declares it once.
fn skip_condition(label: &str, line: &str, text: Option<&str>) -> Option<String> {
    if OPTION_LABELS.contains(&label) {
        let name = if label.contains("skip") {
            "skip"
        } else {
            "todo"
        };
        return match option_value(line, name)? {
            Value::Given(v) => Some(v),
            Value::Shorthand => declared_once(text?, name),
        };
    }
    let bare = label
        .trim_start_matches('@')
        .trim_end_matches('(')
        .rsplit('.')
        .next()
        .unwrap_or("");
    if !SKIP_WHEN_TRUE.contains(&bare) {
        return None;
    }
    condition(line, bare)
}

enum Value {
    Given(String),
    Shorthand,
}

/// The value of option `name` in an object literal on the line: `{ skip: cond }` or the
/// shorthand `{ skip }`.
fn option_value(line: &str, name: &str) -> Option<Value> {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    for (at, _) in line.match_indices(name) {
        if line[..at].chars().next_back().is_some_and(word) {
            continue;
        }
        let before = line[..at].trim_end();
        if !(before.ends_with('{') || before.ends_with(',')) {
            continue;
        }
        let rest = line[at + name.len()..].trim_start();
        if rest.starts_with([',', '}']) {
            return Some(Value::Shorthand);
        }
        let Some(value) = rest.strip_prefix(':') else {
            continue;
        };
        // Up to the end of the option: a comma or the object's `}` at its own depth.
        let first = top_level(value).into_iter().next()?;
        let mut depth = 0i32;
        let mut end = first.len();
        for (i, c) in first.char_indices() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => {
                    end = i;
                    break;
                }
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
        }
        let v = first[..end].trim();
        return (!v.is_empty()).then(|| Value::Given(v.to_string()));
    }
    None
}

/// The value of the only declaration of `name` in `text` (`const skip = a || b`), when it
/// is written whole on its line.
fn declared_once(text: &str, name: &str) -> Option<String> {
    let mut found = None;
    for line in text.lines() {
        let t = line.trim();
        let Some(rest) = ["const ", "let ", "var "]
            .iter()
            .find_map(|k| t.strip_prefix(k))
        else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix(name) else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        if value.starts_with('=') || found.is_some() {
            return None;
        }
        let value = value.trim().trim_end_matches(';').trim();
        // A value that goes on past its line is not read.
        let open = value.matches(['(', '[', '{']).count() != value.matches([')', ']', '}']).count();
        if value.is_empty() || open || value.ends_with("||") || value.ends_with("&&") {
            return None;
        }
        found = Some(value.to_string());
    }
    found
}

/// The alternatives of a condition, `a || b` / `a or b` at its top level, each without
/// spacing or a leading `!!`.
fn alternatives(cond: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in split_or(cond) {
        let t: String = part.split_whitespace().collect();
        let t = t.trim_start_matches("!!").to_string();
        if !t.is_empty() && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// `cond` split at `||` and the word `or` outside brackets and strings.
fn split_or(cond: &str) -> Vec<&str> {
    let bytes = cond.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0usize, 0usize);
    let mut quote: Option<u8> = None;
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' | b'`' => quote = Some(b),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                b'|' if depth == 0 && bytes.get(i + 1) == Some(&b'|') => {
                    out.push(&cond[start..i]);
                    i += 2;
                    start = i;
                    continue;
                }
                b'o' if depth == 0
                    && bytes.get(i + 1) == Some(&b'r')
                    && (i == 0 || !word(bytes[i - 1]))
                    && !bytes.get(i + 2).copied().is_some_and(word) =>
                {
                    out.push(&cond[start..i]);
                    i += 2;
                    start = i;
                    continue;
                }
                _ => {}
            },
        }
        i += 1;
    }
    out.push(&cond[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPT: &str = "{ skip: ... }";

    #[test]
    fn an_alternative_added_to_a_skip_condition_widens_it() {
        let old = "test('pkg', { skip: !!process.env.PNPM_CI }, async (t) => {";
        let new = "test('pkg', { skip }, async (t) => {";
        let text = "const skip = process.env.PNPM_CI || process.env.CITGM\n";
        assert!(grew(OPT, old, None, OPT, new, Some(text)));
        let given = "test('pkg', { skip: process.env.A || process.env.B }, () => {";
        assert!(grew(
            OPT,
            old.replace("PNPM_CI", "A").as_str(),
            None,
            OPT,
            given,
            None
        ));
        let label = "pytest.mark.skipif";
        let py_old = "@pytest.mark.skipif(IS_PYPY, reason='x')";
        let py_new = "@pytest.mark.skipif(IS_PYPY or sys.platform == 'win32', reason='x')";
        assert!(grew(label, py_old, None, label, py_new, None));
    }

    #[test]
    fn a_condition_refactored_narrowed_or_unread_does_not_widen() {
        let old = "test('pkg', { skip: !!process.env.PNPM_CI }, async (t) => {";
        let new = "test('pkg', { skip }, async (t) => {";
        // The same condition moved into a variable.
        assert!(!grew(
            OPT,
            old,
            None,
            OPT,
            new,
            Some("const skip = !!process.env.PNPM_CI\n")
        ));
        // Reworded: not known to hold the old case.
        assert!(!grew(
            OPT,
            old,
            None,
            OPT,
            new,
            Some("const skip = isCi()\n")
        ));
        // Declared twice, or over lines: not read.
        let twice = "const skip = process.env.PNPM_CI || x\nlet skip = y\n";
        assert!(!grew(OPT, old, None, OPT, new, Some(twice)));
        let wrapped = "const skip = process.env.PNPM_CI ||\n  process.env.CITGM\n";
        assert!(!grew(OPT, old, None, OPT, new, Some(wrapped)));
        // An alternative taken away narrows.
        let label = "pytest.mark.skipif";
        let wide = "@pytest.mark.skipif(A or B, reason='x')";
        assert!(!grew(
            label,
            wide,
            None,
            label,
            "@pytest.mark.skipif(A, reason='x')",
            None
        ));
        // A skip that runs when true: more alternatives run it more often.
        let unless = "unittest.skipUnless";
        let a = "@unittest.skipUnless(HAS_A, 'x')";
        let ab = "@unittest.skipUnless(HAS_A or HAS_B, 'x')";
        assert!(!grew(unless, a, None, unless, ab, None));
        // `or` inside a word or a string is no alternative.
        assert_eq!(split_or("orbit or 'a or b'"), vec!["orbit ", " 'a or b'"]);
    }
}
