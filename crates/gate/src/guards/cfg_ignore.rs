//! Rust's conditional ignore, `#[cfg_attr(COND, ignore)]`, read whole however it is
//! wrapped. rustfmt writes a long one over several lines (`#[cfg_attr(` / `any(` / .. /
//! `ignore` / `)]`), and its first line alone says nothing of `ignore`: the attribute is
//! joined before it is read. Its condition is then a skip condition like `skipif(A)`'s: one
//! rewritten as `any(..)` of every alternative it had and more ignores the test everywhere
//! it did and somewhere more, so the rewrite widened the skip.

use super::scan::Mark;

/// The attribute that opens on line `at` (0-based) of `lines` and closes on a later one,
/// joined into one line; `None` when the line opens no attribute, or it closes on its own
/// line or not within [`super::scan::ANNOTATION_LINES`] lines.
pub fn joined(lines: &[&str], at: usize) -> Option<String> {
    let first = lines.get(at)?.trim();
    if !first.starts_with("#[") {
        return None;
    }
    let mut depth = 0i32;
    let mut out = String::new();
    for (n, line) in lines[at..]
        .iter()
        .take(super::scan::ANNOTATION_LINES)
        .enumerate()
    {
        let code = line.split("//").next().unwrap_or("").trim();
        depth += depth_change(code);
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(code);
        if depth <= 0 {
            return (n > 0).then_some(out);
        }
    }
    None
}

/// How many more opening brackets than closing ones `code` holds, outside strings.
fn depth_change(code: &str) -> i32 {
    let mut depth = 0;
    let mut in_str = false;
    let mut escaped = false;
    for c in code.chars() {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The arguments of the outermost `(..)` after `head` in `s`, split at top-level commas,
/// whitespace removed.
fn arguments(s: &str, head: &str) -> Option<Vec<String>> {
    let compact: String = s.split_whitespace().collect();
    let start = compact.find(head)? + head.len();
    let rest = compact[start..].strip_prefix('(')?;
    let (mut depth, mut args, mut cur) = (0i32, Vec::new(), String::new());
    for c in rest.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' if depth == 0 => {
                if !cur.is_empty() {
                    args.push(cur);
                }
                return Some(args);
            }
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                args.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    None
}

/// The alternatives under which `cfg_attr(COND, .., ignore)` ignores: the arguments of an
/// `any(..)` condition, else the condition itself.
fn alternatives(attribute: &str) -> Option<Vec<String>> {
    let args = arguments(attribute, "cfg_attr")?;
    let ignores = args[1..]
        .iter()
        .any(|a| a == "ignore" || a.starts_with("ignore="));
    if !ignores {
        return None;
    }
    let cond = args.first()?;
    match cond.strip_prefix("any") {
        Some(_) => arguments(cond, "any"),
        None => Some(vec![cond.clone()]),
    }
}

/// The attribute on line `number` (1-based) of `text`, joined when it is wrapped; the line
/// as it is when the text is not known.
fn attribute_at(line: &str, number: u32, text: Option<&str>) -> String {
    let joined = text.and_then(|t| {
        let lines: Vec<&str> = t.split('\n').collect();
        joined(&lines, (number as usize).checked_sub(1)?)
    });
    joined.unwrap_or_else(|| line.to_string())
}

/// Whether the conditional ignore on line `new_number` of `new_text` (a rewrite of the one
/// on line `old_number` of `old_text`) ignores under every alternative it did and more.
pub fn grew(old: (&str, u32, Option<&str>), new: (&str, u32, Option<&str>)) -> bool {
    let (Some(was), Some(now)) = (
        alternatives(&attribute_at(old.0, old.1, old.2)),
        alternatives(&attribute_at(new.0, new.1, new.2)),
    ) else {
        return false;
    };
    !was.is_empty() && was.len() < now.len() && was.iter().all(|a| now.contains(a))
}

/// The skip label of a conditional ignore (see `skips`).
const LABEL: &str = "#[cfg_attr(.., ignore)]";

/// Whether `new`, a skip paired as the rewrite of `old`, is a conditional ignore whose
/// condition [grew]; `old_text` and `new_text` are the texts they are numbered in.
pub fn widened(old: &Mark, old_text: Option<&str>, new: &Mark, new_text: Option<&str>) -> bool {
    old.label == LABEL
        && new.label == LABEL
        && grew(
            (old.text, old.line, old_text),
            (new.text, new.line, new_text),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRAPPED: &str = "#[test]\n#[cfg_attr(\n    any(\n        not(target_pointer_width = \"64\"),\n        target_os = \"emscripten\",\n    ),\n    ignore\n)]\nfn f() {}";

    #[test]
    fn a_wrapped_attribute_is_joined_and_a_closed_one_is_not() {
        let lines: Vec<&str> = WRAPPED.split('\n').collect();
        let j = joined(&lines, 1).unwrap();
        assert!(j.starts_with("#[cfg_attr( any("), "{j}");
        assert!(j.ends_with("ignore )]"), "{j}");
        assert_eq!(joined(&lines, 0), None);
        assert_eq!(joined(&lines, 8), None);
        assert_eq!(joined(&["#[cfg_attr(x,", "fn f() {"], 0), None);
    }

    #[test]
    fn a_condition_that_kept_its_alternatives_and_gained_one_grew() {
        let one = "#[cfg_attr(not(target_pointer_width = \"64\"), ignore)]";
        assert!(grew((one, 1, None), ("#[cfg_attr(", 2, Some(WRAPPED))));
        assert!(grew(
            ("#[cfg_attr(any(a, b), ignore)]", 1, None),
            ("#[cfg_attr(any(b, a, c), ignore = \"why\")]", 1, None)
        ));
        // Narrower, reworded, or no ignore at all: not grown.
        assert!(!grew(("#[cfg_attr(", 2, Some(WRAPPED)), (one, 1, None)));
        assert!(!grew(
            ("#[cfg_attr(a, ignore)]", 1, None),
            ("#[cfg_attr(any(not(a), b), ignore)]", 1, None)
        ));
        assert!(!grew(
            ("#[cfg_attr(a, should_panic)]", 1, None),
            ("#[cfg_attr(any(a, b), should_panic)]", 1, None)
        ));
    }
}
