//! ESLint disables narrowed to lines: a rule turned off for a block or for the whole file
//! is now turned off only on the lines that need it.
//!
//! - `/* eslint-disable no-global-assign */ .. /* eslint-enable */` around a test body
//!   becomes `// eslint-disable-line no-global-assign` on the two assignments inside it;
//! - `/* eslint no-unused-vars: off */`, an inline configuration comment that turns the
//!   rule off for the rest of the file wherever it stands, becomes `/*
//!   eslint-disable-next-line no-unused-vars */` over the one line.
//!
//! stylelint's directives have the same three reaches and are read the same way in a
//! stylesheet (`/* stylelint-disable a */ .. /* stylelint-enable */` becoming `//
//! stylelint-disable-line a`); it has no inline configuration comment.
//!
//! The file silences less than it did. A line-level disable is taken as narrowed when the
//! change removed, from the same file, such a block or file-scope comment that names every
//! rule it names (a bare block names all), that comment's text is in the file fewer times
//! than before, and, for a block, the code the new disable sits on (its own line, or the
//! next one for `-next-line`) was inside the old block: between the removed `eslint-disable`
//! and the first `eslint-enable` after it (or the end of the file). A rule the old one did
//! not name, or a line it did not cover, is a new suppression.

use super::languages::Lang;
use super::scan::Mark;
use super::FileDelta;

/// The linter whose disable directives a file of `lang` holds: ESLint in JS, stylelint in
/// stylesheets.
fn linter(lang: Option<Lang>) -> Option<&'static str> {
    match lang? {
        Lang::Js => Some("eslint"),
        Lang::Css | Lang::Scss => Some("stylelint"),
        _ => None,
    }
}

/// The rules of a line-level `eslint-disable-line` / `eslint-disable-next-line` (of
/// `tool`), and whether it is the `-next-line` form; `None` for any other directive or a
/// bare one.
fn line_disable(tool: &str, text: &str) -> Option<(Vec<String>, bool)> {
    let next_line = format!("{tool}-disable-next-line");
    let this_line = format!("{tool}-disable-line");
    let (at, next) = match find_directive(text, &next_line) {
        Some(at) => (at + next_line.len(), true),
        None => (find_directive(text, &this_line)? + this_line.len(), false),
    };
    let rules = rule_list(&text[at..]);
    (!rules.is_empty()).then_some((rules, next))
}

/// The rules listed after a directive, up to `--` (a reason) or the comment's end.
fn rule_list(rest: &str) -> Vec<String> {
    let rest = rest.split("*/").next().unwrap_or(rest);
    let rest = rest.split("--").next().unwrap_or(rest);
    rest.split([',', ' ', '\t'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect()
}

/// Where `directive` starts in `text` as a word of its own: `eslint-disable` is not the end
/// of `stylelint-disable`.
fn find_directive(text: &str, directive: &str) -> Option<usize> {
    text.match_indices(directive).map(|(at, _)| at).find(|&at| {
        !text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

/// The rules of a block `eslint-disable` (of `tool`) on the line (`Some(empty)`: bare,
/// every rule).
fn block_disable(tool: &str, text: &str) -> Option<Vec<String>> {
    let directive = format!("{tool}-disable");
    let at = find_directive(text, &directive)? + directive.len();
    let rest = &text[at..];
    if !rest.starts_with([' ', '\t', '*']) && !rest.is_empty() {
        return None;
    }
    Some(rule_list(rest))
}

/// The rules an ESLint inline configuration comment on the line turns off.
fn config_off(tool: &str, text: &str) -> Vec<String> {
    if tool != "eslint" {
        return Vec::new();
    }
    let Some(at) = text.find("/*") else {
        return Vec::new();
    };
    super::lint::eslint_rules_off(&text[at + 2..])
}

/// Code on a line with its comments and whitespace aside.
fn code(line: &str) -> String {
    let line = line.split("//").next().unwrap_or(line);
    let line = line.split("/*").next().unwrap_or(line);
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether the added line-level disable `m` takes over part of a block or file-scope
/// disable the change removed from its file (see the module's comment).
pub fn narrowed(m: &Mark, d: &FileDelta, removed: &[Mark]) -> bool {
    let Some(tool) = linter(Lang::from_path(&d.path)) else {
        return false;
    };
    let (Some((rules, next)), Some(old), Some(now)) = (
        line_disable(tool, m.text),
        d.old_text.as_deref(),
        d.new_text.as_deref(),
    ) else {
        return false;
    };
    let new_lines: Vec<&str> = now.lines().collect();
    let under = if next {
        new_lines
            .iter()
            .skip(m.line as usize)
            .find(|l| !l.trim().is_empty())
            .map(|l| code(l))
    } else {
        Some(code(m.text))
    };
    let Some(under) = under.filter(|c| !c.is_empty()) else {
        return false;
    };
    let old_lines: Vec<&str> = old.lines().collect();
    let fewer = |t: &str| {
        let t = t.trim();
        let count = |ls: &[&str]| ls.iter().filter(|l| l.trim() == t).count();
        count(&new_lines) < count(&old_lines)
    };
    let names_all = |wide: &[String]| rules.iter().all(|r| wide.contains(r));
    removed.iter().any(|r| {
        if r.file != m.file || !fewer(r.text) {
            return false;
        }
        let off = config_off(tool, r.text);
        if !off.is_empty() {
            return names_all(&off);
        }
        if line_disable(tool, r.text).is_some() {
            return false;
        }
        let Some(wide) = block_disable(tool, r.text) else {
            return false;
        };
        if !wide.is_empty() && !names_all(&wide) {
            return false;
        }
        let start = r.line as usize;
        let end = old_lines
            .iter()
            .enumerate()
            .skip(start)
            .find(|(_, l)| find_directive(l, &format!("{tool}-enable")).is_some())
            .map_or(old_lines.len(), |(k, _)| k);
        old_lines
            .get(start..end)
            .is_some_and(|block| block.iter().any(|l| code(l) == under))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::DeltaKind;

    fn mark(line: u32, text: &str) -> Mark<'_> {
        Mark {
            file: 0,
            line,
            label: "eslint-disable".into(),
            text,
            anchor: None,
            next: None,
        }
    }

    fn delta(old: &str, new: &str) -> FileDelta {
        FileDelta {
            path: "test/a.spec.js".into(),
            kind: DeltaKind::Modified,
            added_lines: vec![],
            removed_lines: vec![],
            old_text: Some(old.into()),
            old_counts: None,
            new_text: Some(new.into()),
        }
    }

    const OLD: &str = "it('a', function () {\n  /* eslint-disable no-global-assign */\n  process = false;\n  run();\n  process = real;\n  /* eslint-enable no-global-assign */\n});\nother = 1;\n";
    const NEW: &str = "it('a', function () {\n  process = false; // eslint-disable-line no-global-assign\n  run();\n  process = real; // eslint-disable-line no-global-assign\n});\nother = 1; // eslint-disable-line no-global-assign\n";

    #[test]
    fn a_block_replaced_by_line_disables_inside_it_is_narrowed() {
        let d = delta(OLD, NEW);
        let gone = [mark(2, "  /* eslint-disable no-global-assign */")];
        let lines: Vec<&str> = NEW.lines().collect();
        assert!(narrowed(&mark(2, lines[1]), &d, &gone));
        assert!(narrowed(&mark(4, lines[3]), &d, &gone));
        // A line the block did not cover.
        assert!(!narrowed(&mark(6, lines[5]), &d, &gone));
        // Another rule than the block named.
        let other = "  process = false; // eslint-disable-line no-undef";
        assert!(!narrowed(&mark(2, other), &d, &gone));
        // The block still in the file: nothing narrowed.
        let kept = delta(OLD, &format!("{OLD}{NEW}"));
        assert!(!narrowed(&mark(2, lines[1]), &kept, &gone));
    }

    #[test]
    fn a_file_scope_rule_off_replaced_by_next_line_disables_is_narrowed() {
        let old = "function f() {\n  /* eslint no-unused-vars: off */\n  var a = 1;\n}\n";
        let new =
            "function f() {\n  /* eslint-disable-next-line no-unused-vars */\n  var a = 1;\n}\n";
        let d = delta(old, new);
        let gone = [mark(2, "  /* eslint no-unused-vars: off */")];
        let added = "  /* eslint-disable-next-line no-unused-vars */";
        assert!(narrowed(&mark(2, added), &d, &gone));
        let wider = "  /* eslint-disable-next-line no-unused-vars, no-undef */";
        assert!(!narrowed(&mark(2, wider), &d, &gone));
    }
}
