//! A skipped test moved under a new name. Tests reorganised into other files are often
//! renamed on the way (`startsWith_should_work_with_infinite_streams` in one class,
//! `should_support_infinite_streams` in another), so its skip sits over a declaration the
//! old side never had, and pairing skips by declaration reads it as new. The body tells:
//! a test the change adds whose body says what the body of a test it removed said, under
//! the same skip line, is that test moved, still skipped.

use super::account::compact;
use super::languages::Lang;
use super::scan::{declaration, Mark};
use super::test_moves::bodies_at;
use super::FileDelta;

/// Whether the skip `m` (a line of its own over a declaration) sits over a test the change
/// declares on an added line, whose body (its lines that say something, whitespace and
/// comments aside; at least one) is the body of a test of some file of the change whose
/// declaration the change removed and which carried a removed skip line of the same text.
pub fn moved_under_new_name(m: &Mark, visible: &[&FileDelta]) -> bool {
    let (Some(anchor), Some(d)) = (m.anchor, visible.get(m.file)) else {
        return false;
    };
    let (Some(lang), Some(new)) = (Lang::from_path(&d.path), d.new_text.as_deref()) else {
        return false;
    };
    let added = |n: usize| d.added_lines.iter().any(|l| l.number as usize == n);
    let Some(body) = body_under(new, lang, m.line, anchor, &added) else {
        return false;
    };
    let skip = compact(m.text);
    visible.iter().any(|e| {
        let Some(old) = e.old_text.as_deref() else {
            return false;
        };
        let old_lang = Lang::from_path(&e.path).unwrap_or(lang);
        let all: Vec<&str> = old.split('\n').collect();
        let removed = |n: usize| e.removed_lines.iter().any(|l| l.number as usize == n);
        e.removed_lines
            .iter()
            .filter(|r| compact(&r.text) == skip)
            .any(|r| {
                declaration(&r.text, &all, r.number as usize).is_some_and(|was| {
                    body_under(old, old_lang, r.number, was, &removed).as_ref() == Some(&body)
                })
            })
    })
}

/// The saying lines of the body of the test declared by `anchor` at or after line `line`
/// (1-based) of `text`, when that declaration's line is one `changed` holds.
fn body_under(
    text: &str,
    lang: Lang,
    line: u32,
    anchor: &str,
    changed: &dyn Fn(usize) -> bool,
) -> Option<Vec<String>> {
    let all: Vec<&str> = text.split('\n').collect();
    let from = (line as usize).saturating_sub(1);
    let at = (from..all.len().min(from + super::scan::ANNOTATION_LINES))
        .find(|&i| all[i].contains(anchor.trim()))?;
    if !changed(at + 1) {
        return None;
    }
    let body = bodies_at(text, lang, &[at]).pop()?;
    (!body.is_empty()).then_some(body)
}
