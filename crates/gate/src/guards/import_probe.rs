//! A pytest skip for a missing optional module, written two ways. The old way imports the
//! module in a `try`, binds the name to `None` in its `except ImportError:` branch and
//! skips on `skipif(X is None, reason="..")`. The new way writes the skip itself in that
//! branch (`pytestmark = pytest.mark.skip(reason="..")`, or an alias bound there to
//! `pytest.mark.skipif(True, ..)`): it skips exactly when the import failed, the condition
//! the old mark read. With the same reason and no more tests under it, it is the old skip
//! rewritten, not a new one.

use std::collections::HashSet;

use super::Line;

/// How far a mark's call is followed over the lines after it, to its closing bracket.
const CALL_LINES: usize = 12;

/// Whether the added skip mark on line `line` (1-based) of `new` restates skips the change
/// removed from the same file (`old`, whose removed lines are `removed`): it stands in the
/// `except ImportError:` (or `ModuleNotFoundError`) branch of a module-level `try`, skips
/// unconditionally there (`skip(..)`, `skipif(True, ..)`), and a removed
/// `skipif(X is None, ..)` (or `not X`) over a name `X` that the `try` imports and the old
/// file set to `None` gives the same reason. A module-wide `pytestmark` stands only for a
/// removed `pytestmark`; an alias (`name = ..`) only when the new file applies it no more
/// often than such marks were removed.
pub fn restates_removed(label: &str, line: u32, new: &str, old: &str, removed: &[Line]) -> bool {
    if !matches!(label, "pytest.mark.skip" | "pytest.mark.skipif") {
        return false;
    }
    let lines: Vec<&str> = new.split('\n').collect();
    let at = (line as usize).saturating_sub(1);
    let Some(own) = lines.get(at) else {
        return false;
    };
    let Some(call) = mark_call(&lines, at) else {
        return false;
    };
    let unconditional = match call.kind {
        "skip" => call.condition.is_none(),
        _ => call.condition.as_deref() == Some("True"),
    };
    let Some(reason) = call.reason.filter(|_| unconditional) else {
        return false;
    };
    let Some(imported) = probed_names(&lines, at) else {
        return false;
    };
    let target = own.trim().split('=').next().unwrap_or("").trim();
    let module_wide = target == "pytestmark";
    if !module_wide && !is_name(target) {
        return false;
    }
    let old_lines: Vec<&str> = old.split('\n').collect();
    let nulled = |x: &str| {
        let assignment = format!("{x} = None");
        old_lines.iter().any(|l| {
            let t = l.trim();
            t == assignment || t.starts_with(&format!("{assignment} "))
        })
    };
    let mut matching = 0;
    for r in removed {
        let i = (r.number as usize).saturating_sub(1);
        let Some(was) = mark_call(&old_lines, i).filter(|c| c.kind == "skipif") else {
            continue;
        };
        let probed = was
            .condition
            .as_deref()
            .and_then(missing_name)
            .is_some_and(|x| imported.contains(x) && nulled(x));
        let reach = !module_wide || r.text.trim_start().starts_with("pytestmark");
        if probed && reach && was.reason.as_deref() == Some(reason.as_str()) {
            matching += 1;
        }
    }
    if matching == 0 {
        return false;
    }
    module_wide || uses(&lines, target) <= matching
}

/// A `pytest.mark.skip(..)` / `.skipif(..)` call as read from its arguments.
struct MarkCall {
    kind: &'static str,
    /// The first positional argument of `skipif`, trimmed.
    condition: Option<String>,
    /// The text of the `reason=` string (or of `skip`'s first positional string).
    reason: Option<String>,
}

/// The mark call that starts on line `at` of `lines`, its arguments followed to the
/// closing bracket.
fn mark_call(lines: &[&str], at: usize) -> Option<MarkCall> {
    let own = lines.get(at)?;
    let (kind, start) = ["skipif", "skip"].iter().find_map(|k| {
        let pat = format!("mark.{k}(");
        own.find(&pat).map(|i| (*k, i + pat.len()))
    })?;
    let mut args = String::new();
    let mut depth = 1usize;
    let mut quote: Option<char> = None;
    'outer: for (n, l) in lines.iter().skip(at).take(CALL_LINES).enumerate() {
        let text = if n == 0 { &l[start..] } else { l };
        for c in text.chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '"' | '\'' => quote = Some(c),
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break 'outer;
                        }
                    }
                    _ => {}
                },
            }
            args.push(c);
        }
        args.push(' ');
    }
    if depth != 0 {
        return None;
    }
    let parts = split_top(&args);
    let mut positional = parts.iter().filter(|p| !is_keyword(p));
    let keyword_reason = parts
        .iter()
        .find_map(|p| p.strip_prefix("reason").map(str::trim_start))
        .and_then(|r| r.strip_prefix('='))
        .and_then(|r| literal(r.trim()));
    let (condition, reason) = if kind == "skipif" {
        (positional.next().map(|c| c.to_string()), keyword_reason)
    } else {
        let first = positional.next().and_then(|p| literal(p));
        (None, keyword_reason.or(first))
    };
    Some(MarkCall {
        kind,
        condition,
        reason,
    })
}

/// The arguments of a call at its own depth, trimmed.
fn split_top(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for c in args.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => {
                    out.push(current.trim().to_string());
                    current.clear();
                    continue;
                }
                _ => {}
            },
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        out.push(current.trim().to_string());
    }
    out
}

fn is_keyword(arg: &str) -> bool {
    let name = arg.split('=').next().unwrap_or("").trim();
    arg.contains('=') && is_name(name) && !arg[name.len()..].trim_start().starts_with("==")
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The text of a plain string literal (`"x"`, `'x'`), nothing after it.
fn literal(s: &str) -> Option<String> {
    let q = s.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let inner = s.strip_prefix(q)?.strip_suffix(q)?;
    (!inner.contains(q)).then(|| inner.to_string())
}

/// The name a condition says is missing: `X is None` or `not X`.
fn missing_name(condition: &str) -> Option<&str> {
    let c = condition.trim();
    let name = c
        .strip_suffix("is None")
        .map(str::trim_end)
        .or_else(|| c.strip_prefix("not ").map(str::trim_start))?;
    is_name(name).then_some(name)
}

/// The names bound by the imports of the module-level `try` whose `except ImportError:`
/// (or `ModuleNotFoundError`) branch holds line `at`; `None` when the line is not in such
/// a branch.
fn probed_names(lines: &[&str], at: usize) -> Option<HashSet<String>> {
    let own_indent = indent(lines[at]);
    if own_indent == 0 {
        return None;
    }
    let except = (0..at)
        .rev()
        .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]) < own_indent)?;
    let head = lines[except];
    let catches = ["ImportError", "ModuleNotFoundError"]
        .iter()
        .any(|e| head.contains(e));
    if indent(head) != 0 || !head.trim_start().starts_with("except") || !catches {
        return None;
    }
    let try_at = (0..except)
        .rev()
        .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]) == 0)?;
    if lines[try_at].trim() != "try:" {
        return None;
    }
    let mut names = HashSet::new();
    for l in &lines[try_at + 1..except] {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("import ") {
            for part in rest.split(',') {
                let words: Vec<&str> = part.split_whitespace().collect();
                match words[..] {
                    [module] => names.extend(module.split('.').next().map(String::from)),
                    [_, "as", local] => {
                        names.insert(local.to_string());
                    }
                    _ => {}
                }
            }
        } else if let Some((_, rest)) = t
            .strip_prefix("from ")
            .and_then(|r| r.split_once(" import "))
        {
            for part in rest.trim_matches(|c| c == '(' || c == ')').split(',') {
                let words: Vec<&str> = part.split_whitespace().collect();
                match words[..] {
                    [name] => {
                        names.insert(name.to_string());
                    }
                    [_, "as", local] => {
                        names.insert(local.to_string());
                    }
                    _ => {}
                }
            }
        }
    }
    Some(names)
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// How many lines of the file apply `name` (name it as a whole word, other than binding it).
fn uses(lines: &[&str], name: &str) -> usize {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    lines
        .iter()
        .filter(|l| {
            let t = l.trim_start();
            let binds = t.strip_prefix(name).is_some_and(|r| {
                r.trim_start().starts_with('=') && !r.trim_start().starts_with("==")
            });
            !binds
                && l.match_indices(name)
                    .any(|(i, _)| !l[..i].ends_with(word) && !l[i + name.len()..].starts_with(word))
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "import pytest\n\ntry:\n    from pkg.fast import Fast\nexcept ImportError:  # pragma: nocover\n    Fast = None\n\n\n@pytest.mark.skipif(Fast is None, reason=\"fast is not installed\")\ndef test_a():\n    pass\n\n\n@pytest.mark.skipif(Fast is None, reason=\"fast is not installed\")\ndef test_b():\n    pass\n";

    fn removed(numbers: &[u32]) -> Vec<Line> {
        let lines: Vec<&str> = OLD.split('\n').collect();
        numbers
            .iter()
            .map(|n| Line {
                number: *n,
                text: lines[*n as usize - 1].to_string(),
            })
            .collect()
    }

    const NEW: &str = "import pytest\n\ntry:\n    from pkg.fast import Fast\n\n    skip_no_fast = pytest.mark.skipif(False, reason=\"fast is installed\")\nexcept ModuleNotFoundError:\n    skip_no_fast = pytest.mark.skipif(True, reason=\"fast is not installed\")\n\n\n@skip_no_fast\ndef test_a():\n    pass\n\n\n@skip_no_fast\ndef test_b():\n    pass\n";

    #[test]
    fn an_alias_bound_in_the_except_branch_restates_the_removed_marks() {
        assert!(restates_removed(
            "pytest.mark.skipif",
            8,
            NEW,
            OLD,
            &removed(&[6, 9, 14])
        ));
    }

    #[test]
    fn another_reason_or_more_uses_is_a_new_skip() {
        let other = NEW.replace("\"fast is not installed\"", "\"flaky\"");
        assert!(!restates_removed(
            "pytest.mark.skipif",
            8,
            &other,
            OLD,
            &removed(&[6, 9, 14])
        ));
        let more = format!("{NEW}\n\n@skip_no_fast\ndef test_c():\n    pass\n");
        assert!(!restates_removed(
            "pytest.mark.skipif",
            8,
            &more,
            OLD,
            &removed(&[6, 9, 14])
        ));
    }

    #[test]
    fn outside_an_import_branch_it_is_a_new_skip() {
        let plain = "import pytest\n\nskip_no_fast = pytest.mark.skipif(True, reason=\"fast is not installed\")\n";
        assert!(!restates_removed(
            "pytest.mark.skipif",
            3,
            plain,
            OLD,
            &removed(&[9, 14])
        ));
    }

    #[test]
    fn a_module_mark_stands_only_for_a_removed_module_mark() {
        let old = "try:\n    import ws\nexcept ImportError:\n    ws = None\n\npytestmark = pytest.mark.skipif(\n    ws is None, reason=\"needs ws\"\n)\n";
        let new = "try:\n    import ws.client\nexcept ImportError:\n    pytestmark = pytest.mark.skip(reason=\"needs ws\")\n";
        let gone = |old: &str, n: &[u32]| -> Vec<Line> {
            let lines: Vec<&str> = old.split('\n').collect();
            n.iter()
                .map(|n| Line {
                    number: *n,
                    text: lines[*n as usize - 1].to_string(),
                })
                .collect()
        };
        assert!(restates_removed(
            "pytest.mark.skip",
            4,
            new,
            old,
            &gone(old, &[4, 6, 7, 8])
        ));
        let on_a_test = old.replace("pytestmark = pytest", "@pytest");
        assert!(!restates_removed(
            "pytest.mark.skip",
            4,
            new,
            &on_a_test,
            &gone(&on_a_test, &[4, 6, 7, 8])
        ));
    }
}
