//! `pytest.importorskip("m")` in place of a skip that asked whether `m` is installed.
//!
//! A test that needs an optional package used to carry `@pytest.mark.skipif(not
//! m_version)` (or an alias of it, `require_m = pytest.mark.skipif(..)`, or a version
//! check `m_version < "5"`); the change writes `pytest.importorskip("m")` into its body
//! instead. That skips exactly when `m` cannot be imported: the same condition, or a
//! narrower one than a version floor. The skip is rewritten, not new, and not made
//! unconditional.
//!
//! The old condition must read nothing but `m`: every name in it holds `m` as a `_`- or
//! `.`-separated word (`watchdog_version`, `HAS_WATCHDOG`, `watchdog`), or was assigned in
//! the old file on a line that names `"m"` in a string (`v = importlib.metadata.version(
//! "m")`); apart from those only `not`/`and`/`or`/`is`/`None`/`True`/`False`, literals and
//! comparisons. A condition that reads anything else (`sys.platform`, `os.environ`) skips
//! for another reason, and the rewrite still changes what runs.

use super::scan::Mark;

/// The module of a `importorskip("m")` call on the line, when its first argument is a
/// string literal.
pub fn imported(line: &str) -> Option<&str> {
    let at = line.find("importorskip(")?;
    let rest = line[at + "importorskip(".len()..].trim_start();
    let q = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = &rest[1..];
    let end = inner.find(q)?;
    Some(&inner[..end]).filter(|m| !m.is_empty())
}

/// The text inside the brackets that open at `s`'s first `(`, strings respected.
fn call_args(s: &str) -> Option<&str> {
    let open = s.find('(')?;
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in s[open..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The first top-level argument of an argument list.
fn first_arg(args: &str) -> &str {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in args.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => return &args[..i],
            _ => {}
        }
    }
    args
}

/// The old text from 1-based line `n` on, at most a dozen lines: where a call wrapped by a
/// formatter goes on.
fn from_line(text: &str, n: u32) -> String {
    text.lines()
        .skip((n as usize).saturating_sub(1))
        .take(12)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The condition of the conditional skip that starts at line `n` of `old` (`line` is its
/// text): of a `skipif(`/`skipIf(`/`skipUnless(` call there, or, for a bare `@alias`, of
/// the call the alias was assigned in the old file.
fn condition(line: &str, n: u32, old: &str) -> Option<String> {
    let call = |s: &str| -> Option<String> {
        let at = ["skipif(", "skipIf(", "skipUnless("]
            .iter()
            .filter_map(|k| s.find(k).map(|i| i + k.len() - 1))
            .min()?;
        let first = first_arg(call_args(&s[at..])?).trim();
        (!first.is_empty() && !first.starts_with("reason")).then(|| first.to_string())
    };
    let here = from_line(old, n);
    if line.contains("skipif(") || line.contains("skipIf(") || line.contains("skipUnless(") {
        return call(&here);
    }
    let alias = line.trim().strip_prefix('@')?.trim();
    if alias.is_empty() || !alias.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let (k, _) = old.lines().enumerate().find(|(_, l)| {
        l.strip_prefix(alias)
            .is_some_and(|r| r.trim_start().starts_with('=') && !r.trim_start().starts_with("=="))
    })?;
    call(&from_line(old, k as u32 + 1))
}

/// Whether the name reads `module` (see the module's comment).
fn reads_module(name: &str, module: &str, old: &str) -> bool {
    let m = module.to_ascii_lowercase();
    let base = name.split('.').next().unwrap_or(name);
    let words = |s: &str| {
        s.to_ascii_lowercase()
            .split(['_', '.'])
            .any(|w| w == m || m.split('.').next() == Some(w))
    };
    words(name)
        || old.lines().any(|l| {
            l.trim_start()
                .strip_prefix(base)
                .is_some_and(|r| r.trim_start().starts_with([':', '=']))
                && (l.contains(&format!("\"{module}\"")) || l.contains(&format!("'{module}'")))
        })
}

/// Whether every name of `cond` reads only `module`.
fn only_module(cond: &str, module: &str, old: &str) -> bool {
    let mut names = Vec::new();
    let mut quote: Option<char> = None;
    let mut word = String::new();
    for c in cond.chars().chain([' ']) {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => continue,
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c.is_alphanumeric() || c == '_' || c == '.' => {
                word.push(c);
                continue;
            }
            None => {}
        }
        if !word.is_empty() {
            names.push(std::mem::take(&mut word));
        }
    }
    let mut any = false;
    for n in names {
        let n = n.trim_matches('.');
        if n.is_empty() || n.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            continue;
        }
        if matches!(n, "not" | "and" | "or" | "is" | "None" | "True" | "False") {
            continue;
        }
        if !reads_module(n, module, old) {
            return false;
        }
        any = true;
    }
    any
}

/// Whether the body skip `new`, an `importorskip("m")`, takes the place of `old`, a skip
/// whose condition read only whether `m` is installed or its version (`old_text`: the file
/// `old` was in, before the change).
pub fn same_module_skip(old: &Mark, old_text: Option<&str>, new: &Mark) -> bool {
    let (Some(module), Some(before)) = (imported(new.text), old_text) else {
        return false;
    };
    condition(old.text, old.line, before).is_some_and(|c| only_module(&c, module, before))
}

/// Whether the new `importorskip("m")` at `new.line` is in a test whose declaration, in
/// the old file, carried a skip reading only `m` (as a decorator, or in the marks of one of
/// its parameters, `pytest.param("m", marks=[require_m])`): the test skipped then as it
/// skips now. `name` is the enclosing test's name.
pub fn test_skipped_on_module(new: &Mark, name: &str, old: &str) -> bool {
    let Some(module) = imported(new.text) else {
        return false;
    };
    let lines: Vec<&str> = old.lines().collect();
    let def = |l: &str| {
        let t = l.trim_start();
        let t = t.strip_prefix("async ").unwrap_or(t);
        t.strip_prefix("def ")
            .and_then(|r| r.strip_prefix(name))
            .is_some_and(|r| r.starts_with('('))
    };
    let Some(at) = lines.iter().position(|l| def(l)) else {
        return false;
    };
    // The decorators above the declaration, with their wrapped lines.
    let mut top = at;
    while top > 0 {
        let l = lines[top - 1].trim();
        if l.is_empty() || l.starts_with("def ") || l.starts_with("class ") || l.starts_with('#') {
            break;
        }
        top -= 1;
    }
    for (k, l) in lines.iter().enumerate().take(at).skip(top) {
        if l.contains("skipif(") || l.contains("skipIf(") || l.contains("skipUnless(") {
            if condition(l, k as u32 + 1, old).is_some_and(|c| only_module(&c, module, old)) {
                return true;
            }
            continue;
        }
        // A name a decorator applies or lists in `marks=`: an alias of a skip.
        let mut word = String::new();
        for c in l.chars().chain([' ']) {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                let w = std::mem::take(&mut word);
                let alias = format!("@{w}");
                if condition(&alias, 0, old).is_some_and(|c| only_module(&c, module, old)) {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(line: u32, text: &str) -> Mark<'_> {
        Mark {
            file: 0,
            line,
            label: "pytest.importorskip(".into(),
            text,
            anchor: None,
            next: None,
        }
    }

    const OLD: &str = "try:\n    watchdog_version: str = importlib.metadata.version(\"watchdog\")\nexcept PackageNotFoundError:\n    watchdog_version = \"\"\n\nrequire_watchdog = pytest.mark.skipif(\n    not watchdog_version, reason=\"watchdog not installed\"\n)\n\n\n@pytest.mark.parametrize(\n    \"reloader_type\", [\"stat\", pytest.param(\"watchdog\", marks=[require_watchdog])]\n)\ndef test_reloader(reloader_type):\n    pass\n\n\n@require_watchdog\ndef test_opened():\n    pass\n\n\n@pytest.mark.skipif(\n    watchdog_version < \"5\",\n    reason=\"new event\",\n)\ndef test_closed():\n    pass\n\n\n@pytest.mark.skipif(sys.platform == \"win32\", reason=\"x\")\ndef test_windows():\n    pass\n";

    fn old_mark(line: u32, text: &str) -> Mark<'_> {
        Mark {
            file: 0,
            line,
            label: "pytest.mark.skipif(".into(),
            text,
            anchor: Some("def x():"),
            next: None,
        }
    }

    #[test]
    fn an_importorskip_of_the_module_a_skip_read_is_the_same_skip() {
        let new = mark(3, "    pytest.importorskip(\"watchdog\")");
        assert!(same_module_skip(
            &old_mark(18, "@require_watchdog"),
            Some(OLD),
            &new
        ));
        assert!(same_module_skip(
            &old_mark(22, "@pytest.mark.skipif("),
            Some(OLD),
            &new
        ));
        assert!(test_skipped_on_module(&new, "test_reloader", OLD));
        // A skip for another reason is another skip.
        let windows = "@pytest.mark.skipif(sys.platform == \"win32\", reason=\"x\")";
        assert!(!same_module_skip(&old_mark(30, windows), Some(OLD), &new));
        assert!(!test_skipped_on_module(&new, "test_windows", OLD));
        // Another module is another condition.
        let other = mark(3, "    pytest.importorskip(\"trio\")");
        assert!(!same_module_skip(
            &old_mark(18, "@require_watchdog"),
            Some(OLD),
            &other
        ));
        assert!(!test_skipped_on_module(&other, "test_reloader", OLD));
    }

    #[test]
    fn a_test_that_had_no_module_skip_gains_a_new_one() {
        let new = mark(3, "    pytest.importorskip(\"watchdog\")");
        let old = "def test_plain():\n    pass\n";
        assert!(!test_skipped_on_module(&new, "test_plain", old));
        assert_eq!(imported("pytest.importorskip('a.b')"), Some("a.b"));
        assert_eq!(imported("pytest.importorskip(name)"), None);
    }
}
