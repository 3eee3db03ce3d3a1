//! Per-test skips gathered into one skip of the whole module: Python's `pytestmark`.
//!
//! `@pytest.mark.skipif(not HAS_X, ...)` over each test of a module, replaced by
//! `pytestmark = pytest.mark.skipif(not HAS_X, ...)`, skips the same tests the same way:
//! the skip moved. It is new only where it reaches further: a module that now holds a
//! test none of those skips was over skips a test that ran.

use super::account::{normalise, Verdict};
use super::languages::Lang;
use super::lexer::{lex, lex_line};
use super::line::{indent, LineCtx};
use super::scan::Mark;
use super::skip_helpers::declared;
use super::tests_count::tests_on_line;
use super::{skips, widen, FileDelta};
use std::collections::BTreeSet;

/// Turn the new skips inside a module's `pytestmark` that take over per-test skips the
/// change removed from the same file (same kind, see [`skips::family`]), over every test
/// the module now holds, into rewrites of them ([`Verdict::Widened`] if one lost its
/// condition). Each removed skip goes to the module mark whose call shares the most
/// words with its own; a module mark that got none stays new. `is_test(file)`: whether
/// the file is a test file.
pub fn gathered(
    visible: &[&FileDelta],
    added: &[Mark],
    removed: &[Mark],
    is_test: &dyn Fn(usize) -> bool,
    verdicts: &mut [Verdict],
) {
    let module: Vec<usize> = (0..added.len())
        .filter(|&j| verdicts[j] == Verdict::New && in_pytestmark(visible, &added[j]))
        .collect();
    if module.is_empty() {
        return;
    }
    // For each module mark: the removed per-test skips it takes over.
    let mut taken: Vec<Vec<usize>> = vec![Vec::new(); module.len()];
    for (i, r) in removed.iter().enumerate() {
        let d = visible[r.file];
        let (Some(anchor), Some(old), Some(new)) =
            (r.anchor, d.old_text.as_deref(), d.new_text.as_deref())
        else {
            continue;
        };
        // Still over some test: not gathered.
        let text = normalise(r.text);
        if anchor.is_empty() || new.lines().any(|l| normalise(l) == text) {
            continue;
        }
        let said = words(&call(old, r.line));
        let best = module
            .iter()
            .enumerate()
            .filter(|(_, &j)| {
                let a = &added[j];
                a.file == r.file && skips::family(&a.label) == skips::family(&r.label)
            })
            .map(|(k, &j)| {
                let a = &added[j];
                let shared = words(&call(new, a.line)).intersection(&said).count();
                (shared, std::cmp::Reverse(k))
            })
            .max();
        if let Some((_, std::cmp::Reverse(k))) = best {
            taken[k].push(i);
        }
    }
    for (k, &j) in module.iter().enumerate() {
        let a = &added[j];
        let d = visible[a.file];
        let (Some(old), Some(new)) = (d.old_text.as_deref(), d.new_text.as_deref()) else {
            continue;
        };
        if taken[k].is_empty() {
            continue;
        }
        let lang = Lang::Python;
        let covered: BTreeSet<String> = taken[k]
            .iter()
            .filter_map(|&i| declared(lang, &lex_line(&lang.syntax(), removed[i].anchor?)))
            .collect();
        let now = tests_of(new, is_test(a.file));
        if now.is_empty() || !now.is_subset(&covered) {
            continue;
        }
        let was_wider = taken[k].iter().any(|&i| {
            let r = &removed[i];
            widen::skip_widened(&r.label, &call(old, r.line), &a.label, &call(new, a.line))
        });
        verdicts[j] = if was_wider {
            Verdict::Widened {
                was: removed[taken[k][0]].text.to_string(),
            }
        } else {
            Verdict::Rewritten
        };
    }
}

/// Whether the skip `m` is inside a module-level `pytestmark = ...` of a Python file: the
/// statement its line belongs to starts at the left margin with that name.
fn in_pytestmark(visible: &[&FileDelta], m: &Mark) -> bool {
    let d = visible[m.file];
    if Lang::from_path(&d.path) != Some(Lang::Python) {
        return false;
    }
    let Some(text) = d.new_text.as_deref() else {
        return false;
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let Some(upto) = (m.line as usize)
        .checked_sub(1)
        .and_then(|at| lines.get(..=at))
    else {
        return false;
    };
    let start = upto
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty() && indent(l) == 0);
    start.is_some_and(|l| {
        l.strip_prefix("pytestmark")
            .is_some_and(|rest| rest.trim_start().starts_with(['=', ':']))
    })
}

/// The call that starts on line `n` (1-based) of `text`, over as many lines as its
/// brackets stay open (at most [`CALL_LINES`]), as one line.
fn call(text: &str, n: u32) -> String {
    let mut out = String::new();
    let mut depth = 0i32;
    for line in text
        .split('\n')
        .skip((n as usize).saturating_sub(1))
        .take(CALL_LINES)
    {
        out.push_str(line.trim());
        out.push(' ');
        depth += line.matches(['(', '[', '{']).count() as i32;
        depth -= line.matches([')', ']', '}']).count() as i32;
        if depth <= 0 {
            break;
        }
    }
    out.trim_end().to_string()
}

const CALL_LINES: usize = 20;

/// The words of a call, lower case, without the words of a skip's own spelling.
fn words(s: &str) -> BTreeSet<String> {
    const OWN: &[&str] = &[
        "pytest",
        "mark",
        "skip",
        "skipif",
        "xfail",
        "reason",
        "pytestmark",
    ];
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !OWN.contains(&w.as_str()))
        .collect()
}

/// The names of the tests a Python module declares.
fn tests_of(text: &str, is_test: bool) -> BTreeSet<String> {
    let lang = Lang::Python;
    lex(&lang.syntax(), text, usize::MAX)
        .iter()
        .filter(|v| tests_on_line(&LineCtx::new(lang, v, is_test)) > 0)
        .filter_map(|v| declared(lang, v))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_read_over_its_lines() {
        let text =
            "x = 1\n    pytest.mark.skipif(\n        not HAS_X, reason=\"needs x\"\n    ),\n]\n";
        assert_eq!(
            call(text, 2),
            "pytest.mark.skipif( not HAS_X, reason=\"needs x\" ),"
        );
        assert_eq!(
            words(&call(text, 2)),
            ["has_x", "needs", "not", "x"]
                .map(String::from)
                .into_iter()
                .collect()
        );
    }

    #[test]
    fn a_modules_tests_are_named() {
        let text = "import pytest\n\ndef helper():\n    pass\n\ndef test_a():\n    pass\n\nclass TestB:\n    def test_c(self):\n        pass\n";
        assert_eq!(
            tests_of(text, true),
            ["test_a", "test_c"].map(String::from).into_iter().collect()
        );
    }
}
