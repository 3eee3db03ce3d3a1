//! Suppressions carried into another file with the code they sit on.
//!
//! A refactor that moves code between files takes its suppressions along, and often edits
//! the code on the way (a receiver dropped, a variable bound, an attribute renamed). Two
//! things must hold for an added suppression to be a removed one moved:
//!
//! - the suppression itself is the same: the same directive with the same rules
//!   (`# type: ignore`, `@Suppress("X")`), whatever code the line holds beside it;
//! - the code it sits on shares a name with the code the removed one sat on: the words of
//!   the suppression (its rules) and language keywords do not count, since any code under
//!   `no-explicit-any` holds `any`. A suppression over code that shares nothing with the
//!   removed one's is a new one over new code, even when the change removed one of the
//!   same text elsewhere.
//!
//! And an inner attribute over a new file (`#![allow(unused)]`) stands for the outer ones
//! (`#[allow(unused)]`) removed from the items that moved into that file.

use super::account::{
    compact, name_words, shared_dirs, take_best_moves, Verdict, DECLARATION_WORDS,
};
use super::scan::Mark;
use super::{DeltaKind, FileDelta};
use std::collections::HashSet;

/// Words that name no code of the repository: keywords and literals that any statement
/// may hold.
const KEYWORDS: &[&str] = &[
    "as",
    "is",
    "in",
    "not",
    "and",
    "or",
    "if",
    "else",
    "elif",
    "for",
    "while",
    "do",
    "return",
    "import",
    "from",
    "new",
    "this",
    "self",
    "true",
    "false",
    "none",
    "null",
    "nil",
    "await",
    "async",
    "yield",
    "throw",
    "raise",
    "try",
    "catch",
    "except",
    "with",
    "then",
    "end",
    "type",
    "typeof",
    "keyof",
    "void",
    "undefined",
    "super",
    "elsif",
    "unless",
    "when",
    "case",
    "switch",
    "match",
    "loop",
    "finally",
    "rescue",
    "ensure",
    "pass",
    "break",
    "continue",
];

/// The names of `code` that may tie it to other code: neither keywords (whole words: the
/// `with` of `ClassWithFields` stays) nor words of the suppression `marker` itself.
fn code_names(code: &str, marker: &str) -> HashSet<String> {
    let own = name_words(marker);
    let names: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !KEYWORDS.contains(&w.to_lowercase().as_str()))
        .collect();
    let mut out = name_words(&names.join(" "));
    out.retain(|w| !own.contains(w));
    out
}

/// The keyword a statement opens with (`except`, `def`, `elif`, `val`), if any.
fn opening_keyword(code: &str) -> Option<String> {
    let first: String = code
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (KEYWORDS.contains(&first.as_str()) || DECLARATION_WORDS.contains(&first.as_str()))
        .then_some(first)
}

/// Whether the code a suppression sat on (`was`) and the code an added one sits on (`now`)
/// are one statement edited: the same kind of statement (the same opening keyword, or
/// none) sharing a name, or one holding the other whole (an expression bound to a name).
fn same_statement(was: &str, was_marker: &str, now: &str, marker: &str) -> usize {
    let (a, b) = (compact(was), compact(now));
    let held = !a.is_empty() && !b.is_empty() && (a.contains(&b) || b.contains(&a));
    let shared = code_names(was, was_marker)
        .intersection(&code_names(now, marker))
        .count();
    if held || (opening_keyword(was) == opening_keyword(now) && shared > 0) {
        shared.max(1)
    } else {
        0
    }
}

/// How many names the code under two own-line suppressions shares (see [`code_names`]).
pub fn shared_code_under(removed: &Mark, added: &Mark) -> usize {
    let (Some(was), Some(now)) = (removed.next, added.next) else {
        return 0;
    };
    code_names(was, removed.text)
        .intersection(&code_names(now, added.text))
        .count()
}

/// Whether a suppression of the same text as `removed` may have moved from another file to
/// `added`: one on a line of code carries that code; an own-line one must sit over the code
/// that was under `removed`, or code sharing a name with it.
pub fn may_have_moved(removed: &Mark, added: &Mark) -> bool {
    if split(&added.label, added.text).is_some() {
        return true;
    }
    match (removed.next, added.next) {
        (Some(was), Some(now)) => {
            compact(was) == compact(now) || shared_code_under(removed, added) > 0
        }
        _ => true,
    }
}

/// A line holding a suppression and code, split in two: the suppression (the annotation
/// or attribute with its arguments, or the comment from its directive to the end of the
/// line) and the code around it. `None` when the line holds no code, or the label is not
/// written on it.
pub fn split(label: &str, text: &str) -> Option<(String, String)> {
    // A comment directive written with an `@` (`// @ts-expect-error reason`) is no
    // annotation: the comment runs to the end of the line.
    let in_comment = text
        .find(label)
        .is_some_and(|at| text[..at].trim_end().ends_with(['/', '*', '#']));
    let (start, end) = if label.starts_with('@') && !in_comment {
        let at = text.find(label)?;
        (at, close_of(text, at + label.len(), '(', ')'))
    } else if label.starts_with("#[") {
        let at = text.find("#[").or_else(|| text.find("#!["))?;
        (at, close_of(text, at, '[', ']'))
    } else {
        let at = text.to_lowercase().find(&label.to_lowercase())?;
        (at, text.len())
    };
    let marker = text[start..end].to_string();
    let code = format!("{} {}", &text[..start], &text[end..]);
    // What opens the comment holding a directive is no code.
    let code = code.trim_end_matches([' ', '\t', '#', '/', '*', '-', ';']);
    (!name_words(code).is_empty()).then(|| (marker, code.to_string()))
}

/// The end (exclusive) of the bracketed group that opens at or after `from`, or `from`
/// when no such group opens there.
fn close_of(text: &str, from: usize, open: char, close: char) -> usize {
    let rest = &text[from..];
    let Some(first) = rest.find(|c: char| !c.is_whitespace()) else {
        return from;
    };
    if !rest[first..].starts_with(open) && !rest[first..].starts_with('#') {
        return from;
    }
    let mut depth = 0;
    for (i, c) in rest.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return from + i + c.len_utf8();
            }
        }
    }
    text.len()
}

/// Whether the code a removed suppression sat on is still a line of its file: the
/// suppression was taken off code that stayed, not moved with it.
fn stayed(d: &FileDelta, code: &str) -> bool {
    let code = compact(code);
    !code.is_empty()
        && d.new_text
            .as_deref()
            .is_some_and(|t| t.split('\n').any(|l| compact(l).starts_with(&code)))
}

/// Added suppressions still new that sit on a line of code, against removed ones left
/// over from another file: the same suppression (see [`split`]) on code sharing a name
/// with the removed one's, in the same statement edited (see [`same_statement`]), is that
/// one, moved, unless the removed one's code is still in its file. Best pair first: most names shared, then the
/// nearest file.
pub fn carried_across_files(
    visible: &[&FileDelta],
    added: &[Mark],
    removed: &[Mark],
    used: &mut [bool],
    verdicts: &mut [Verdict],
) {
    let parts = |m: &Mark| split(&m.label, m.text);
    let removed_parts: Vec<Option<(String, String)>> = removed.iter().map(parts).collect();
    let mut pairs: Vec<(usize, usize, usize, usize)> = Vec::new();
    for (j, a) in added.iter().enumerate() {
        if verdicts[j] != Verdict::New {
            continue;
        }
        let Some((marker, code)) = parts(a) else {
            continue;
        };
        for (i, r) in removed.iter().enumerate() {
            let Some((was_marker, was_code)) = &removed_parts[i] else {
                continue;
            };
            if used[i] || r.file == a.file || r.label != a.label {
                continue;
            }
            if compact(was_marker) != compact(&marker) {
                continue;
            }
            let shared = same_statement(was_code, was_marker, &code, &marker);
            if shared > 0 && !stayed(visible[r.file], was_code) {
                let close = shared_dirs(&visible[r.file].path, &visible[a.file].path);
                pairs.push((shared, close, j, i));
            }
        }
    }
    take_best_moves(pairs, removed, used, verdicts);
}

/// An inner attribute (`#![allow(unused)]`) in a file the change adds, standing for outer
/// ones of the same lints (`#[allow(unused)]`) removed from items that moved into that
/// file: each removed one's item line is an added line of the new file. Those removed ones
/// are spent on it; one whose item went elsewhere is not.
pub fn gathered_into_module(
    visible: &[&FileDelta],
    added: &[Mark],
    removed: &[Mark],
    used: &mut [bool],
    verdicts: &mut [Verdict],
) {
    for (j, a) in added.iter().enumerate() {
        let d = visible[a.file];
        if verdicts[j] != Verdict::New
            || !matches!(d.kind, DeltaKind::Added)
            || !a.text.trim_start().starts_with("#![")
        {
            continue;
        }
        let outer = compact(&a.text.replacen("#![", "#[", 1));
        let lines: HashSet<String> = d.added_lines.iter().map(|l| compact(&l.text)).collect();
        let mut from = None;
        for (i, r) in removed.iter().enumerate() {
            let item_moved_here = r.next.is_some_and(|n| lines.contains(&compact(n)));
            if !used[i] && r.label == a.label && compact(r.text) == outer && item_moved_here {
                used[i] = true;
                from.get_or_insert(r.file);
            }
        }
        if let Some(from) = from {
            verdicts[j] = Verdict::Moved { from };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_splits_into_its_suppression_and_its_code() {
        let trimmed = |p: Option<(String, String)>| p.map(|(m, c)| (m, c.trim().to_string()));
        assert_eq!(
            trimmed(split("type: ignore", "    f.x = True  # type: ignore")),
            Some(("type: ignore".into(), "f.x = True".into()))
        );
        assert_eq!(
            trimmed(split(
                "@Suppress",
                "  @Suppress(\"A\") val p = \"$name\\$default($rest\""
            )),
            Some((
                "@Suppress(\"A\")".into(),
                "val p = \"$name\\$default($rest\"".into()
            ))
        );
        assert_eq!(split("noqa", "# noqa: E501"), None);
        assert_eq!(split("@SuppressWarnings", "@SuppressWarnings(\"x\")"), None);
        // A comment directive spelled with an `@` holds no code: its reason is comment.
        assert_eq!(
            split(
                "@ts-expect-error",
                "\t\t// @ts-expect-error {baseUrl: boolean} isn't officially supported"
            ),
            None
        );
    }

    #[test]
    fn keywords_and_the_rules_suppressed_tie_no_code() {
        let marker = "// eslint-disable-next-line @typescript-eslint/no-explicit-any";
        assert!(code_names("x as any", marker) == HashSet::from(["x".to_string()]));
        assert!(code_names("return null", marker).is_empty());
    }
}
