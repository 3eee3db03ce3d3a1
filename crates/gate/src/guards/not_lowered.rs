//! Skips on added lines that lower no bar, read with the whole change in view.
//!
//! **An early exit said out loud.** A test that already stopped early under a condition
//! (`if (cond) return`, `unless $DEBUG ... next ... end`) now skips under the same
//! condition (`if (cond) this.skip()`, `skip unless $DEBUG`): it ran no more before than it
//! does now, and now the runner reports it. The condition must be the same words, and the
//! early exit must be on a line the change removed (it existed at the comparison point).
//!
//! An empty skipped test (`it.skip('later', () => {})`) is not excused: it disables no
//! assertion, but it announces a test nobody wrote, which is what a gate should show.

use super::languages::Lang;
use super::lexer::lex;
use super::line::LineCtx;
use super::skip_helpers;
use super::skips::family;
use super::Line;
use std::collections::BTreeSet;

/// Words that say how a line exits or skips, not under what condition.
const NOT_CONDITION: &[&str] = &[
    "if",
    "unless",
    "elsif",
    "then",
    "do",
    "end",
    "return",
    "next",
    "continue",
    "this",
    "skip",
    "pending",
    "omit",
    "omit_if",
    "omit_unless",
    "pend",
    "self",
    "skipTest",
    "pytest",
    "t",
    "Skip",
    "Skipf",
    "SkipNow",
];

/// Words that end a test early without failing it.
const EXITS: &[&str] = &["return", "next", "continue"];

fn words(s: &str) -> BTreeSet<&str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .collect()
}

fn condition(s: &str) -> BTreeSet<&str> {
    let mut w = words(s);
    w.retain(|x| !NOT_CONDITION.contains(x));
    w
}

/// Whether the in-body skip `label` on line `number` of `new_text` replaces an early exit
/// under the same condition on `removed` lines of the same file.
pub fn replaces_early_exit(label: &str, number: u32, new_text: &str, removed: &[Line]) -> bool {
    if family(label) != "body.skip" {
        return false;
    }
    let lines: Vec<&str> = new_text.split('\n').collect();
    let Some(own) = (number as usize).checked_sub(1).and_then(|i| lines.get(i)) else {
        return false;
    };
    // The condition on the skip's own line, else on the `if (...) {` just above it.
    let mut cond = condition(own);
    if cond.is_empty() {
        let above = lines[..number as usize - 1]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty());
        match above {
            Some(l) if words(l).contains("if") || words(l).contains("unless") => {
                cond = condition(l)
            }
            _ => return false,
        }
    }
    if cond.is_empty() {
        return false;
    }
    // A removed line with the same condition, that exits on it or within the few removed
    // lines after it (`unless $DEBUG`, a fake assertion, `next`).
    removed.iter().enumerate().any(|(k, r)| {
        condition(&r.text) == cond
            && removed[k..]
                .iter()
                .take(4)
                .take_while(|x| x.number.saturating_sub(r.number) < 4)
                .any(|x| words(&x.text).iter().any(|w| EXITS.contains(w)))
    })
}

/// Whether the in-body skip `label` on line `number` of `new_text` takes the place of a
/// removed line that announced the same skip in words (`t.Log("SKIP: no runtime.Caller")`,
/// the skip saying the same words), with an exit right after it (`return true`): the
/// test already stopped there, and only the runner was not told.
pub fn replaces_announced_skip(label: &str, number: u32, new_text: &str, removed: &[Line]) -> bool {
    if family(label) != "body.skip" && !super::skip_helpers::is_helper_label(label) {
        return false;
    }
    let lines: Vec<&str> = new_text.split('\n').collect();
    let Some(at) = (number as usize).checked_sub(1) else {
        return false;
    };
    let Some(own) = lines.get(at) else {
        return false;
    };
    let mut said = condition(own);
    if let Some(helper) = label.strip_suffix('(') {
        said.remove(helper);
    }
    if said.is_empty() {
        return false;
    }
    let exits_next = lines[at + 1..]
        .iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| words(l).iter().any(|w| EXITS.contains(w)));
    exits_next
        && removed.iter().any(|r| {
            let w = words(&r.text);
            w.contains("SKIP") && said.is_subset(&w)
        })
}

/// How many skips of `new_text` are calls the change did not touch (lines outside `added`)
/// to a function that was declared at the comparison point (`old_text`) and did not skip
/// then, but skips now. Such a function's own new skip is where the change shows (an
/// added line of its body); its unchanged callers add nothing more to the count.
pub fn unchanged_calls_of_turned_helpers(
    lang: Lang,
    old_text: &str,
    new_text: &str,
    added: &[Line],
    is_test: bool,
) -> u32 {
    let now = skip_helpers::of(lang, new_text, None, is_test);
    if now.is_empty() {
        return 0;
    }
    let before = skip_helpers::of(lang, old_text, None, is_test);
    let syntax = lang.syntax();
    let declared_before: BTreeSet<String> = lex(&syntax, old_text, usize::MAX)
        .iter()
        .filter_map(|v| skip_helpers::declared(lang, v))
        .collect();
    let turned: Vec<String> = now
        .into_iter()
        .filter(|h| !before.contains(h) && declared_before.contains(h))
        .collect();
    if turned.is_empty() {
        return 0;
    }
    let added: BTreeSet<u32> = added.iter().map(|l| l.number).collect();
    let mut calls = 0u32;
    for (i, view) in lex(&syntax, new_text, usize::MAX).iter().enumerate() {
        if added.contains(&(i as u32 + 1)) || !turned.iter().any(|h| view.code.contains(h.as_str()))
        {
            continue;
        }
        let cx = LineCtx::new(lang, view, is_test);
        let mut found = Vec::new();
        skip_helpers::calls(&cx, &turned, &mut found);
        calls = calls.saturating_add(found.len() as u32);
    }
    calls
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[(u32, &str)]) -> Vec<Line> {
        v.iter()
            .map(|(n, t)| Line {
                number: *n,
                text: t.to_string(),
            })
            .collect()
    }

    #[test]
    fn only_a_skip_under_the_condition_of_a_removed_early_exit_lowers_nothing() {
        // rack: a bacon `next` under `unless $DEBUG` became minitest's `skip unless $DEBUG`.
        let new = "  it 'merges' do\n    skip unless $DEBUG\n    warn 'x'\n";
        let removed = lines(&[
            (10, "    unless $DEBUG"),
            (11, "      1.should.equal 1 # fake assertion"),
            (12, "      next"),
            (13, "    end"),
        ]);
        assert!(replaces_early_exit("skip", 2, new, &removed));
        // express: `if (cond) return` before the test became `this.skip()` inside it.
        let new =
            "it('x', function () {\n  if (method === 'query' && old(v)) {\n    this.skip()\n  }\n";
        let removed = lines(&[(4, "  if (method === 'query' && old(v)) return")]);
        assert!(replaces_early_exit("this.skip(", 3, new, &removed));

        // Another condition, no exit removed, no condition at all, or not a body skip:
        // still a skip.
        let new = "  it 'merges' do\n    skip unless $CI\n";
        let removed = lines(&[
            (10, "    unless $DEBUG"),
            (11, "      next"),
            (12, "    end"),
        ]);
        assert!(!replaces_early_exit("skip", 2, new, &removed));
        // The same condition, but nothing exited on it: an assertion was guarded.
        let new = "  it 'merges' do\n    skip unless $DEBUG\n";
        let removed = lines(&[(10, "    expect(x).to eq 1 unless $DEBUG")]);
        assert!(!replaces_early_exit("skip", 2, new, &removed));
        // An unconditional skip has no condition to match.
        let new = "it('x', function () {\n  this.skip()\n";
        let removed = lines(&[(4, "  return")]);
        assert!(!replaces_early_exit("this.skip(", 2, new, &removed));
        // A declaration-level skip is not an early exit.
        let new = "xit('x', () => {\n";
        let removed = lines(&[(1, "if (old) return")]);
        assert!(!replaces_early_exit("xit", 1, new, &removed));
    }

    #[test]
    fn a_skip_that_was_announced_in_words_before_the_same_exit_lowers_nothing() {
        let new =
            "  case \"tinygo\":\n    skip(t, \"TinyGo lacks runtime.Caller\")\n    return true\n";
        let removed = lines(&[(5, "    t.Log(\"SKIP: TinyGo lacks runtime.Caller\")")]);
        assert!(replaces_announced_skip("skip(", 2, new, &removed));
        assert!(replaces_announced_skip(
            "t.Skip(",
            2,
            &new.replace("skip(t", "t.Skip("),
            &removed
        ));
        // Other words, no announcement, or no exit after it: still a skip.
        let other = lines(&[(5, "    t.Log(\"SKIP: no network\")")]);
        assert!(!replaces_announced_skip("skip(", 2, new, &other));
        let plain = lines(&[(5, "    t.Log(\"TinyGo lacks runtime.Caller\")")]);
        assert!(!replaces_announced_skip("skip(", 2, new, &plain));
        let no_exit = new.replace("return true", "check(t)");
        assert!(!replaces_announced_skip("skip(", 2, &no_exit, &removed));
    }
}
