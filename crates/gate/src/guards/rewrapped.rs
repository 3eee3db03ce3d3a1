//! A statement re-wrapped by a formatter: the same code split or joined over other lines,
//! parentheses added around it (black wraps a long comparison in `( .. )`), a trailing
//! comma added, with the same suppression comment on one of its lines. A line diff shows
//! the old lines removed and new ones added, and may keep a lone `)` of one as a line of
//! the other, so the marker's old and new lines need not sit between the same unchanged
//! lines. Read as whole statements, nothing changed: the marker is not new.

use super::languages::Lang;
use super::lexer::{lex, LineView};

/// How far a statement is followed from its marker's line, each way: past that, the
/// brackets likely enclose a whole module (`define(function () { .. })`), not a statement.
const REACH: usize = 40;

/// How deep in brackets each line starts, from the lexed code (strings and comments
/// aside), with one more entry for the end of the text; `None` when a bracket closes that
/// never opened.
fn depths(views: &[LineView]) -> Option<Vec<i64>> {
    let mut out = Vec::with_capacity(views.len() + 1);
    let mut depth = 0i64;
    for v in views {
        out.push(depth);
        for c in v.code.chars() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
        }
        if depth < 0 {
            return None;
        }
    }
    out.push(depth);
    Some(out)
}

/// The lines (0-based, inclusive) of the bracket-balanced statement that holds line
/// `line` (1-based), given the depth each line starts at.
fn statement(depth_before: &[i64], line: u32) -> Option<(usize, usize)> {
    let at = (line as usize).checked_sub(1)?;
    let lines = depth_before.len().checked_sub(1)?;
    if at >= lines {
        return None;
    }
    let mut start = at;
    while depth_before[start] != 0 {
        if start == 0 || at - start >= REACH {
            return None;
        }
        start -= 1;
    }
    let mut end = at;
    while depth_before[end + 1] != 0 {
        if end + 1 >= lines || end - at >= REACH {
            return None;
        }
        end += 1;
    }
    Some((start, end))
}

/// The statement's text as a formatter cannot change it: no whitespace, no trailing comma
/// before a closing bracket, no parentheses.
fn essence(lines: &[&str]) -> String {
    let joined: String = lines
        .iter()
        .flat_map(|l| l.chars())
        .filter(|c| !c.is_whitespace())
        .collect();
    let mut out = String::with_capacity(joined.len());
    let chars: Vec<char> = joined.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ',' && matches!(chars.get(i + 1), Some(')' | ']' | '}')) {
            continue;
        }
        if c == '(' || c == ')' {
            continue;
        }
        out.push(c);
    }
    out
}

/// One side of a file, lexed once.
pub struct Side<'t> {
    lines: Vec<&'t str>,
    depths: Option<Vec<i64>>,
}

impl<'t> Side<'t> {
    pub fn of(lang: Lang, text: &'t str) -> Side<'t> {
        Side {
            lines: text.split('\n').collect(),
            depths: depths(&lex(&lang.syntax(), text, usize::MAX)),
        }
    }

    /// The statement holding `line` (1-based) as a formatter cannot change it; `None` when
    /// no balanced statement within reach holds it.
    pub fn essence_at(&self, line: u32) -> Option<String> {
        let (start, end) = statement(self.depths.as_deref()?, line)?;
        Some(essence(self.lines.get(start..=end)?))
    }
}

/// Whether the statement holding `new_line` of the new side is the one that held
/// `old_line` of the old side, only re-wrapped.
#[cfg(test)]
fn same_statement(old: &Side, old_line: u32, new: &Side, new_line: u32) -> bool {
    match (old.essence_at(old_line), new.essence_at(new_line)) {
        (Some(a), Some(b)) => !a.is_empty() && a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "def f():\n    assert repr(\n        g(a, b)\n    ) == \"x\".format(  # noqa: B950\n        \"foo\"\n    )\n";
    const NEW: &str = "def f():\n    assert (\n        repr(\n            g(a, b)\n        )\n        == \"x\".format(  # noqa: B950\n            \"foo\",\n        )\n    )\n";

    #[test]
    fn a_statement_wrapped_in_parentheses_is_the_same() {
        let old = Side::of(Lang::Python, OLD);
        let new = Side::of(Lang::Python, NEW);
        assert!(same_statement(&old, 4, &new, 6));
    }

    #[test]
    fn another_statement_is_not() {
        let old = Side::of(Lang::Python, OLD);
        let other = NEW.replace("g(a, b)", "g(a, c)");
        let new = Side::of(Lang::Python, &other);
        assert!(!same_statement(&old, 4, &new, 6));
        // Unbalanced text: no statement is known.
        let broken = Side::of(Lang::Python, "x = (\n  y  # noqa\n");
        assert!(!same_statement(&broken, 2, &broken, 2));
    }
}
