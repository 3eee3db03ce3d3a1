//! Accounting for a change as a whole: which of the markers on added lines are new.
//!
//! Judging line by line reports every marker on an added line, so a refactor that moves
//! an existing suppression, or a test module split in two, reads as a lowered bar. Here
//! the markers the change added are set against the ones it removed, across all its files:
//!
//! 1. **Moved**: an added marker with the same label on the same line text (whitespace
//!    aside) as a removed one is the same marker in a new place; a match that also kept
//!    the code under it is taken first, then one in the same file, then one in any other
//!    file of the change. A skip on a line of its
//!    own (a decorator, an attribute) must also sit over the same next line: moved to
//!    another test, it skips something else. Before identical text is paired across
//!    files, a marker reworded over the same code in its own file is taken as rewritten
//!    (see [`rewritten_over_same_code`]).
//! 2. **Rewritten**: what is left is paired per file and label (the spellings of one skip,
//!    `xit` and `it.skip`, `pending` and `skip`, `@Ignore` and `@Disabled`, count as one
//!    label: see [`family`]; skips only over the same
//!    next line; suppressions only where the new line took the old one's place, between
//!    the same unchanged lines, so a suppression dropped in one place and another written
//!    over other code elsewhere in the file are a removal and a new one): first the pairs that share words beyond the marker's own, most shared
//!    first (`#[allow(a)]` with the `#[allow(a, b)]` it became), then, except for TODOs,
//!    the rest in line order. A pair is the same marker with new text, not a new one,
//!    unless the new text [widened](super::widen) it. A TODO sharing no words with the
//!    removed one is another TODO.
//! 3. **New**: everything else. A change that removes one skip and adds two adds one.

use super::carried;
use super::commented_tests;
use super::into_body;
use super::jvm_fixtures::{self, Outline};
use super::languages::Lang;
use super::lexer::{lex, LineView};
use super::module_wide;
use super::named_tests;
use super::new_parameter;
use super::not_lowered;
use super::rewrapped;
use super::scan::{self, labels, snippet, Kind, Mark, Marks};
use super::test_paths::TestPaths;
use super::{expect_lints, lint, skip_helpers, skip_owner, skips, todos};
use super::{DeltaKind, FileDelta, Finding, Line, TestCounts};
use std::collections::{BTreeMap, HashMap, HashSet};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    New,
    /// The same marker, moved here from the file with this delta index.
    Moved {
        from: usize,
    },
    /// The same marker with new text that does not reach further.
    Rewritten,
    /// An existing marker rewritten to reach further; `was` is its old line.
    Widened {
        was: String,
    },
    /// A new skip that disables nothing that ran: see [`not_lowered_skips`].
    NotLowered,
    /// A suppression that takes over part of a file-wide one the change removed: see
    /// [`narrowed_from_file_wide`].
    Narrowed,
}

/// One label for the spellings of one marker: of a skip ([`skips::family`]: `xit` and
/// `it.skip`) and of unfinished work ([`todos::family`]: `TODO` and `FIXME`).
fn family(label: &str) -> &str {
    expect_lints::family(todos::family(skips::family(label)))
}

/// The line as a move keeps it: trimmed, inner runs of whitespace as one space.
pub fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The line with no whitespace at all: `//TODO` respaced to `// TODO` is the same marker.
pub(crate) fn compact(text: &str) -> String {
    text.split_whitespace().collect()
}

/// How many words two markers' lines share beyond the words of their label (`allow` of
/// `#[allow(`, `TODO`): a rewrite keeps some of what it said.
fn shared_words(old: &Mark, new: &Mark) -> usize {
    let words = |s: &str| -> std::collections::BTreeSet<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let label = words(&old.label);
    let (o, n) = (words(old.text), words(new.text));
    o.intersection(&n).filter(|w| !label.contains(*w)).count()
}

/// A declaration as far as its body: `void f() {}` written on one line and `void f() {`
/// opening a body over several declare the same test. A function declared with `def` is
/// its name: parameters given type hints, or wrapped over lines, declare the same test.
fn declared(anchor: &str) -> &str {
    let head = anchor.split('{').next().unwrap_or(anchor).trim_end();
    let t = head.trim_start();
    if t.starts_with("def ") || t.starts_with("async def ") {
        if let Some(i) = head.find('(') {
            return head[..i].trim_end();
        }
    }
    head
}

/// How many words the code under two markers shares (see [`Mark::next`]).
fn shared_next_words(old: &Mark, new: &Mark) -> usize {
    let words = |s: Option<&str>| -> std::collections::BTreeSet<String> {
        s.unwrap_or("")
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    words(old.next).intersection(&words(new.next)).count()
}

/// How many leading directories two paths share.
pub fn shared_dirs(a: &str, b: &str) -> usize {
    let dirs = |p: &str| -> Vec<String> {
        let mut v: Vec<String> = p.split('/').map(str::to_string).collect();
        v.pop();
        v
    };
    dirs(a)
        .iter()
        .zip(dirs(b).iter())
        .take_while(|(x, y)| x == y)
        .count()
}

/// What a moved marker keeps: its line and, for a skip on a line of its own, the line
/// after it (both normalised).
type Key = (String, Option<String>);

/// A verdict for each of `added` (same order). `same_place(old, new)`: whether `new` sits
/// where `old` was (see [`Places`]). `widened(old, new)` says whether `new`,
/// a rewrite of `old` (same file, same label), reaches further than it did.
/// `near(removed, added)`: how close the files of two markers are (directories their paths
/// share), or `None` when one may not have moved to the other (see [`left_with_its_file`]).
/// `renamed(old, new, strict)`: whether two skips over different declarations are over one
/// test renamed where it stood (see [`renamed_in_place`]); such a pair is a rewrite too.
/// Asked first with `strict` on, then off for what is left. `loose`:
/// pair rewrites that share no words too (in line order), for markers whose text is not
/// what they say (a suppression's reach is its rules, which `widened` reads).
#[cfg(test)]
pub fn account(
    added: &[Mark],
    removed: &[Mark],
    widened: &dyn Fn(&Mark, &Mark) -> bool,
    same_place: &dyn Fn(&Mark, &Mark) -> bool,
    renamed: &dyn Fn(&Mark, &Mark, bool) -> bool,
    near: &dyn Fn(&Mark, &Mark) -> Option<usize>,
    loose: bool,
) -> Vec<Verdict> {
    account_with_used(added, removed, widened, same_place, renamed, near, loose).0
}

/// Pairs of (score, tie-break score, added index, removed index), taken best first: an
/// added marker still new takes a removed one not yet used, as moved from its file.
pub(crate) fn take_best_moves(
    mut pairs: Vec<(usize, usize, usize, usize)>,
    removed: &[Mark],
    used: &mut [bool],
    verdicts: &mut [Verdict],
) {
    pairs.sort_by(|x, y| {
        y.0.cmp(&x.0)
            .then(y.1.cmp(&x.1))
            .then(x.2.cmp(&y.2))
            .then(x.3.cmp(&y.3))
    });
    for (_, _, j, i) in pairs {
        if used[i] || verdicts[j] != Verdict::New {
            continue;
        }
        used[i] = true;
        verdicts[j] = Verdict::Moved {
            from: removed[i].file,
        };
    }
}

/// [`account`], and which removed markers it paired with an added one.
pub fn account_with_used(
    added: &[Mark],
    removed: &[Mark],
    widened: &dyn Fn(&Mark, &Mark) -> bool,
    same_place: &dyn Fn(&Mark, &Mark) -> bool,
    renamed: &dyn Fn(&Mark, &Mark, bool) -> bool,
    near: &dyn Fn(&Mark, &Mark) -> Option<usize>,
    loose: bool,
) -> (Vec<Verdict>, Vec<bool>) {
    let mut verdicts = vec![Verdict::New; added.len()];
    let mut used = vec![false; removed.len()];
    if removed.is_empty() {
        return (verdicts, used);
    }
    let key = |m: &Mark| (compact(m.text), m.anchor.map(|a| compact(declared(a))));
    let mut by_key: HashMap<(&str, Key), Vec<usize>> = HashMap::new();
    for (i, r) in removed.iter().enumerate() {
        by_key
            .entry((r.label.as_str(), key(r)))
            .or_default()
            .push(i);
    }
    let keys: Vec<(&str, (String, Option<String>))> =
        added.iter().map(|a| (a.label.as_str(), key(a))).collect();
    // 1. Moves: one that kept the code under it first (so a file that moved its markers
    // out and added new ones of the same text elsewhere keeps the new ones new); then
    // within the file, so a move inside one file never borrows another file's removal;
    // then across files.
    let next = |m: &Mark| m.next.map(compact);
    for (same_file, same_next) in [(true, true), (false, true), (true, false), (false, false)] {
        if loose && !same_file && !same_next {
            rewritten_over_same_code(added, removed, &mut used, &mut verdicts, widened);
        }
        // Every pairing this pass allows, best first: when the code under the markers
        // changed as they moved, the removal from the nearest file (by directory), then
        // the one whose code shares the most words, is the one that moved here; ties in
        // line order. So `src/` keeps its own removals when `dist/` adds the same line.
        let mut pairs: Vec<(usize, usize, usize, usize)> = Vec::new();
        for (j, a) in added.iter().enumerate() {
            if verdicts[j] != Verdict::New || (same_next && a.next.is_none()) {
                continue;
            }
            let Some(candidates) = by_key.get(&keys[j]) else {
                continue;
            };
            for &i in candidates {
                let r = &removed[i];
                if !used[i]
                    && (!same_file || r.file == a.file)
                    && (!same_next || next(r) == next(a))
                {
                    let Some(close) = near(r, a) else {
                        continue;
                    };
                    let shared = if same_next {
                        0
                    } else {
                        shared_next_words(r, a)
                    };
                    pairs.push((close, shared, j, i));
                }
            }
        }
        take_best_moves(pairs, removed, &mut used, &mut verdicts);
    }
    // 2. Rewrites: per file and label (and anchor); the spellings of one skip are one
    // label here (`xit` rewritten as `it.skip`, see [`family`]). A pair sharing words beyond the
    // marker's own is taken first (the most shared first), so `#[allow(a)]` pairs with
    // the `#[allow(a, b)]` it became, not with a new `#[allow(b)]` above it. What is left
    // pairs in line order, unless `loose` is off: a TODO with other words is another TODO.
    let anchor = |m: &Mark| m.anchor.map(|a| normalise(declared(a)));
    let rewrite = |i: usize, j: usize| {
        if widened(&removed[i], &added[j]) {
            Verdict::Widened {
                was: removed[i].text.to_string(),
            }
        } else {
            Verdict::Rewritten
        }
    };
    // (file, label's family, anchor) -> (left-over removed, left-over added)
    type Group = (Vec<usize>, Vec<usize>);
    let mut groups: BTreeMap<(usize, &str, Option<String>), Group> = BTreeMap::new();
    for (i, r) in removed.iter().enumerate().filter(|(i, _)| !used[*i]) {
        groups
            .entry((r.file, family(&r.label), anchor(r)))
            .or_default()
            .0
            .push(i);
    }
    for (j, a) in added.iter().enumerate() {
        if verdicts[j] != Verdict::New {
            continue;
        }
        if let Some(group) = groups.get_mut(&(a.file, family(&a.label), anchor(a))) {
            group.1.push(j);
        }
    }
    for (rs, mut adds) in groups.into_values() {
        let mut rs = rs;
        rs.sort_by_key(|&i| removed[i].line);
        adds.sort_by_key(|&j| added[j].line);
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut scored: Vec<(usize, usize, usize)> = Vec::new();
        for (ri, &i) in rs.iter().enumerate() {
            for (aj, &j) in adds.iter().enumerate() {
                if !same_place(&removed[i], &added[j]) {
                    continue;
                }
                let shared = shared_words(&removed[i], &added[j]);
                if shared > 0 {
                    scored.push((shared, ri, aj));
                }
            }
        }
        // Most shared first; ties in line order.
        scored.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
        let (mut r_taken, mut a_taken) = (vec![false; rs.len()], vec![false; adds.len()]);
        for (_, ri, aj) in scored {
            if !r_taken[ri] && !a_taken[aj] {
                r_taken[ri] = true;
                a_taken[aj] = true;
                pairs.push((rs[ri], adds[aj]));
            }
        }
        // A code call that stands for unfinished work (`todo!()`, Kotlin's `TODO()`) says
        // nothing in its line's words: one re-wrapped by a formatter (`= TODO(` became
        // `TODO(` on a line of its own) is the same call, so it pairs in line order too.
        let calls = rs
            .first()
            .is_some_and(|&i| todos::is_call(&removed[i].label));
        if loose || calls {
            for (ri, &i) in rs.iter().enumerate() {
                if r_taken[ri] {
                    continue;
                }
                let free = (0..adds.len())
                    .find(|&aj| !a_taken[aj] && same_place(&removed[i], &added[adds[aj]]));
                if let Some(aj) = free {
                    r_taken[ri] = true;
                    a_taken[aj] = true;
                    pairs.push((i, adds[aj]));
                }
            }
        }
        for (i, j) in pairs {
            used[i] = true;
            verdicts[j] = rewrite(i, j);
        }
    }
    // 3. A skip over a test renamed where it stood: the skip line and the declaration were
    // both rewritten in place, and neither declaration is found on the other side.
    // Or a skip taken off a test's declaration and written into its body (`renamed` says
    // which, see [`super::into_body`]). Those in their place first, then the looser pairs
    // `renamed` allows once nothing in place is left (skip lines the diff kept).
    for strict in [true, false] {
        for (j, a) in added.iter().enumerate() {
            if verdicts[j] != Verdict::New {
                continue;
            }
            let hit = (0..removed.len()).find(|&i| {
                let r = &removed[i];
                !used[i]
                    && r.file == a.file
                    && r.anchor.is_some()
                    && (a.anchor.is_none() || family(&r.label) == family(&a.label))
                    && renamed(r, a, strict)
            });
            if let Some(i) = hit {
                used[i] = true;
                verdicts[j] = rewrite(i, j);
            }
        }
    }
    (verdicts, used)
}

/// Before identical text is paired across files: a removed marker and an added one of the
/// same label in the same file, over the same code (the same next line, one that names
/// something and is no other annotation or attribute), sharing words beyond the label, are
/// one marker rewritten (a reason comment added, `// caller closes/` corrected), wherever
/// the code went in the file. Else the removal could be spent on an identical new line in
/// another file, reporting the rewrite and hiding the new one.
fn rewritten_over_same_code(
    added: &[Mark],
    removed: &[Mark],
    used: &mut [bool],
    verdicts: &mut [Verdict],
    widened: &dyn Fn(&Mark, &Mark) -> bool,
) {
    let code = |m: &Mark| {
        m.next
            .filter(|n| !n.trim_start().starts_with(['@', '#']) && !name_words(n).is_empty())
            .map(compact)
    };
    for (j, a) in added.iter().enumerate() {
        let Some(under) = code(a).filter(|_| verdicts[j] == Verdict::New) else {
            continue;
        };
        let found = removed.iter().enumerate().find(|(i, r)| {
            !used[*i]
                && r.file == a.file
                && family(&r.label) == family(&a.label)
                && r.anchor.map(declared).map(normalise) == a.anchor.map(declared).map(normalise)
                && code(r).as_deref() == Some(under.as_str())
                && shared_words(r, a) > 0
        });
        if let Some((i, r)) = found {
            used[i] = true;
            verdicts[j] = if widened(r, a) {
                Verdict::Widened {
                    was: r.text.to_string(),
                }
            } else {
                Verdict::Rewritten
            };
        }
    }
}

/// Whether two skips in one place over different declarations are one skip over a test
/// renamed there (`disabled_testX` back to `testX`): the old declaration is gone from the
/// new text and the new one was not in the old text. Were either still there, the skip
/// would have left one test for another (which stays a new skip). Both texts must be
/// known.
pub fn renamed_in_place(
    old: &Mark,
    new: &Mark,
    old_text: Option<&str>,
    new_text: Option<&str>,
) -> bool {
    let (Some(was), Some(now), Some(old_text), Some(new_text)) =
        (old.anchor, new.anchor, old_text, new_text)
    else {
        return false;
    };
    let holds = |text: &str, line: &str| {
        let line = normalise(line);
        text.lines().any(|l| normalise(l) == line)
    };
    normalise(was) != normalise(now) && !holds(new_text, was) && !holds(old_text, now)
}

/// Whether a Rust inner attribute on the first line of an item's body (`mod m {` then
/// `#![allow(x)]`) became the outer attribute on that item (`#[allow(x)]` then `mod m {`),
/// or the other way: the same item either way, so the same place.
pub fn hoisted(old: &Mark, new: &Mark, old_text: Option<&str>, new_text: Option<&str>) -> bool {
    let inner = |m: &Mark| m.text.trim_start().starts_with("#![");
    let outer = |m: &Mark| m.text.trim_start().starts_with("#[");
    // The last non-blank line before line `n` (1-based) of `text`.
    let before = |text: Option<&str>, n: u32| -> Option<String> {
        let lines: Vec<&str> = text?.split('\n').collect();
        lines
            .get(..(n as usize).saturating_sub(1))?
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| normalise(l))
    };
    let opens = |m: &Mark, text: Option<&str>, n: u32| {
        let holder = before(text, n);
        holder.is_some() && m.next.map(normalise) == holder
    };
    (inner(old) && outer(new) && opens(new, old_text, old.line))
        || (outer(old) && inner(new) && opens(old, new_text, new.line))
}

fn never_renamed(_: &Mark, _: &Mark, _: bool) -> bool {
    false
}

/// Where a file's changed lines sit among its unchanged ones. Unchanged lines are the same
/// in the old and the new text, so a removed line and an added line took the same place
/// when as many unchanged lines come before each.
pub struct Places {
    removed: Vec<u32>,
    added: Vec<u32>,
}

impl Places {
    pub fn of(d: &FileDelta) -> Self {
        let numbers = |lines: &[super::Line]| {
            let mut v: Vec<u32> = lines.iter().map(|l| l.number).collect();
            v.sort_unstable();
            v
        };
        Places {
            removed: numbers(&d.removed_lines),
            added: numbers(&d.added_lines),
        }
    }

    /// Whether removed line `old` and added line `new` sit between the same unchanged lines.
    pub fn same(&self, old: u32, new: u32) -> bool {
        let before = |changed: &[u32], n: u32| n as usize - changed.partition_point(|&c| c < n);
        before(&self.removed, old) == before(&self.added, new)
    }
}

/// [`Places`] counting only the unchanged lines that hold something: a diff matches blank
/// lines wherever one falls, so a block rewritten around a blank line it kept (a variable
/// renamed in a statement, the statements around it rewritten, an empty line between them
/// left alone) is still one place. Both texts must be known.
pub struct CodePlaces {
    /// For each line (1-based, index `n - 1`), how many unchanged non-blank lines come
    /// before it; old text and new text.
    old: Vec<u32>,
    new: Vec<u32>,
}

impl CodePlaces {
    pub fn of(d: &FileDelta) -> Option<Self> {
        let before = |text: &str, changed: &[super::Line]| -> Vec<u32> {
            let changed: std::collections::HashSet<u32> =
                changed.iter().map(|l| l.number).collect();
            let mut seen = 0u32;
            let mut out = Vec::new();
            for (i, line) in text.split('\n').enumerate() {
                out.push(seen);
                let number = i as u32 + 1;
                if !changed.contains(&number) && !line.trim().is_empty() {
                    seen += 1;
                }
            }
            out
        };
        Some(CodePlaces {
            old: before(d.old_text.as_deref()?, &d.removed_lines),
            new: before(d.new_text.as_deref()?, &d.added_lines),
        })
    }

    /// Whether removed line `old` and added line `new` sit between the same unchanged
    /// lines that hold something.
    pub fn same(&self, old: u32, new: u32) -> bool {
        let at = |v: &[u32], n: u32| (n as usize).checked_sub(1).and_then(|i| v.get(i).copied());
        matches!((at(&self.old, old), at(&self.new, new)), (Some(a), Some(b)) if a == b)
    }
}

/// A line's tokens: names (and numbers) whole, every other character alone, spacing
/// dropped.
fn tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while let Some(c) = rest.chars().next() {
        let len = if c.is_alphanumeric() || c == '_' {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        } else {
            c.len_utf8()
        };
        out.push(&rest[..len]);
        rest = rest[len..].trim_start();
    }
    out
}

/// Whether line `new` is line `old` with one name or dotted path before its comment
/// replaced by another that shares a word with it, and nothing else changed but spacing:
/// a statement carried into an extracted helper with its variable renamed
/// (`activeRequest.end(..)` -> `request.end(..)`), an import whose module moved
/// (`from click.testing import X` -> `from ._click.testing import X`).
pub fn one_path_replaced(old: &str, new: &str) -> bool {
    let (a, b) = (tokens(old), tokens(new));
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let (was, now) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    // Names joined by dots (`._click.testing`), never two names side by side
    // (`testing import Result`: more of the statement than a path).
    let path = |p: &[&str]| {
        let name = |t: &&str| t.starts_with(|c: char| c.is_alphabetic() || c == '_');
        !p.is_empty()
            && p.iter().all(|t| *t == "." || name(t))
            && p.iter().any(name)
            && !p.windows(2).any(|w| name(&w[0]) && name(&w[1]))
    };
    // The part replaced must be code: before any comment opens.
    let in_comment = a[..prefix]
        .windows(2)
        .any(|w| w[0] == "/" && (w[1] == "/" || w[1] == "*"))
        || a[..prefix].contains(&"#");
    path(was)
        && path(now)
        && !in_comment
        && name_words(&was.join(" "))
            .intersection(&name_words(&now.join(" ")))
            .any(|w| !w.is_empty())
}

/// Whether line `new` is line `old` with one identifier renamed (`if not_mapped:` ->
/// `if unmapped:`, everywhere it occurs on the line) and nothing else changed but spacing.
pub fn one_name_renamed(old: &str, new: &str) -> bool {
    let is_name = |t: &str| t.starts_with(|c: char| c.is_alphabetic() || c == '_');
    let (a, b) = (tokens(old), tokens(new));
    if a.len() != b.len() {
        return false;
    }
    let mut rename: Option<(&str, &str)> = None;
    for (x, y) in a.iter().zip(&b) {
        if x == y {
            continue;
        }
        if !is_name(x) || !is_name(y) || rename.is_some_and(|r| r != (*x, *y)) {
            return false;
        }
        rename = Some((x, y));
    }
    // The new name must not have been on the line already: then two names became one.
    rename.is_some_and(|(_, to)| !a.contains(&to))
}

/// Per-file marker counts for a finding's message: before and after, when known.
pub type Totals<'f> = dyn Fn(usize) -> (Option<u32>, Option<u32>) + 'f;

/// One finding per added line holding a reported marker, saying how the file's count of
/// such markers moved and where moved-in markers came from.
pub fn findings(
    kind: Kind,
    deltas: &[&FileDelta],
    added: &[Mark],
    verdicts: &[Verdict],
    totals: &Totals,
) -> Vec<Finding> {
    // (file, line) -> new labels, widened (label, was), text
    type Acc<'m> = (Vec<String>, Vec<(String, String)>, &'m str);
    let mut lines: BTreeMap<(usize, u32), Acc> = BTreeMap::new();
    let mut moved_in: BTreeMap<usize, BTreeMap<usize, u32>> = BTreeMap::new();
    for (m, v) in added.iter().zip(verdicts) {
        match v {
            Verdict::New => lines
                .entry((m.file, m.line))
                .or_insert_with(|| (Vec::new(), Vec::new(), m.text))
                .0
                .push(m.label.clone()),
            Verdict::Widened { was } => lines
                .entry((m.file, m.line))
                .or_insert_with(|| (Vec::new(), Vec::new(), m.text))
                .1
                .push((m.label.clone(), was.clone())),
            Verdict::Moved { from } if *from != m.file => {
                *moved_in
                    .entry(m.file)
                    .or_default()
                    .entry(*from)
                    .or_default() += 1;
            }
            _ => {}
        }
    }
    let mut context: BTreeMap<usize, String> = BTreeMap::new();
    let mut out = Vec::with_capacity(lines.len());
    for ((file, number), (new, wider, text)) in lines {
        let d = deltas[file];
        let tail = context
            .entry(file)
            .or_insert_with(|| counts_note(kind, d, totals(file), moved_in.get(&file), deltas))
            .clone();
        let message = if new.is_empty() {
            let was = &wider[0].1;
            let labels_found: Vec<String> = wider.iter().map(|w| w.0.clone()).collect();
            let grew = super::grown_condition::grew(
                &wider[0].0,
                was,
                d.old_text.as_deref(),
                &wider[0].0,
                text,
                d.new_text.as_deref(),
            );
            let what = match kind {
                Kind::Skips if grew => {
                    "an existing conditional skip was widened: its condition kept every case it skipped and gained another"
                }
                // `importorskip` skips only when its module is missing.
                Kind::Skips if super::module_skips::imported(text).is_some() => {
                    "an existing conditional skip was rewritten to skip under another condition (its module missing)"
                }
                Kind::Skips => "an existing conditional skip was made unconditional",
                _ => "an existing suppression was widened to cover more",
            };
            format!(
                "{what} ({}): it was `{}`; put the narrower form back and fix what the wider one hides{tail}",
                labels(&labels_found),
                snippet(was)
            )
        } else {
            format!("{} ({}){tail}", kind.message(&new), labels(&new))
        };
        out.push(Finding {
            path: d.path.clone(),
            line: Some(number),
            snippet: snippet(text),
            message,
        });
    }
    out
}

/// `; skips in `tests/a.py`: 2 -> 3 (1 moved from `tests/b.py`)`
fn counts_note(
    kind: Kind,
    d: &FileDelta,
    (before, after): (Option<u32>, Option<u32>),
    moved_in: Option<&BTreeMap<usize, u32>>,
    deltas: &[&FileDelta],
) -> String {
    let counts = match (before, after) {
        (Some(b), Some(a)) => format!("{b} -> {a}"),
        (None, Some(a)) => format!("now {a}"),
        (Some(b), None) => format!("{b} before"),
        (None, None) => return String::new(),
    };
    let moved = match moved_in {
        Some(from) if !from.is_empty() => {
            let parts: Vec<String> = from
                .iter()
                .map(|(f, n)| format!("{n} moved from `{}`", deltas[*f].path))
                .collect();
            format!(" ({})", parts.join(", "))
        }
        _ => String::new(),
    };
    format!("; {} in `{}`: {counts}{moved}", kind.noun(), d.shown_path())
}

/// What reading the removed lines needs beyond the change: the pytest skip marks each file
/// applied by name at the comparison point, and the repository's coverage pragmas.
#[derive(Clone, Copy)]
pub struct OldSide<'r> {
    pub aliases: &'r [Vec<super::mark_aliases::Alias>],
    pub coverage: &'r super::coverage_pragmas::CoveragePragmas,
    /// What RuboCop's configuration excluded (see [`narrowed_from_rubocop_config`]).
    pub rubocop: &'r super::rubocop_excluded::Excluded,
}

/// Set the markers the change added against the ones it removed, across all its files
/// (see [`account`]), and report the ones that are new or widened. The removed side is only
/// read for a guard that found something added.
pub fn marker_findings(
    visible: &[&FileDelta],
    added: &Marks,
    kept: &[(Vec<Line>, Vec<Line>)],
    enabled: scan::Enabled,
    tests: &TestPaths,
    new_counts: &[Option<TestCounts>],
    old_side: OldSide,
) -> scan::MarkerFindings {
    let OldSide {
        aliases: old_aliases,
        coverage,
        rubocop,
    } = old_side;
    let old_path = |d: &FileDelta| match &d.kind {
        DeltaKind::Renamed { from } => from.clone(),
        _ => d.path.clone(),
    };
    let need = scan::Enabled {
        skips: enabled.skips && !added.skips.is_empty(),
        lint: enabled.lint && !added.lint.is_empty(),
        todos: enabled.todos && !added.todos.is_empty(),
        debug: enabled.debug && !added.debug.is_empty(),
    };
    let mut removed = Marks::default();
    if need.any() {
        let paths: Vec<String> = visible.iter().map(|d| old_path(d)).collect();
        let packages = if need.skips {
            skip_helpers::go_packages(
                visible
                    .iter()
                    .zip(&paths)
                    .filter_map(|(d, p)| Some((p.as_str(), d.old_text.as_deref()?))),
            )
        } else {
            BTreeMap::new()
        };
        let change_helpers =
            if need.skips {
                skip_helpers::in_change(visible.iter().zip(&paths).filter_map(|(d, p)| {
                    Some((p.as_str(), d.old_text.as_deref()?, tests.is_test(p)))
                }))
            } else {
                Vec::new()
            };
        for (i, d) in visible.iter().enumerate() {
            let from = &paths[i];
            if let (Some(lang), false) = (Lang::from_path(from), d.removed_lines.is_empty()) {
                let side = scan::FileLines {
                    file: i,
                    path: from,
                    lines: &d.removed_lines,
                    text: d.old_text.as_deref(),
                    test_rise: None,
                    removed: &[],
                    shared_helpers: packages
                        .get(skip_helpers::package_of(from))
                        .map_or(&[], Vec::as_slice),
                    change_helpers: &change_helpers,
                    mark_aliases: old_aliases.get(i).map_or(&[], Vec::as_slice),
                    coverage,
                };
                scan::scan(&side, lang, tests.is_test(from), need, None, &mut removed);
            }
            // Skip lines the diff kept over another declaration: removed from the old one.
            let gone = &kept.get(i).map_or(&[][..], |k| &k.0[..]);
            if let (Some(lang), true, false) = (Lang::from_path(from), need.skips, gone.is_empty())
            {
                let side = scan::FileLines {
                    file: i,
                    path: from,
                    lines: gone,
                    text: d.old_text.as_deref(),
                    test_rise: None,
                    removed: &[],
                    shared_helpers: packages
                        .get(skip_helpers::package_of(from))
                        .map_or(&[], Vec::as_slice),
                    change_helpers: &change_helpers,
                    mark_aliases: old_aliases.get(i).map_or(&[], Vec::as_slice),
                    coverage,
                };
                scan::scan(
                    &side,
                    lang,
                    tests.is_test(from),
                    scan::Enabled::SKIPS_ONLY,
                    None,
                    &mut removed,
                );
            }
        }
    }
    let places: Vec<Places> = visible.iter().map(|d| Places::of(d)).collect();
    let code_places: Vec<std::cell::OnceCell<Option<CodePlaces>>> =
        visible.iter().map(|_| std::cell::OnceCell::new()).collect();
    // A suppression's text is its rules: one written elsewhere in the file over other code
    // is another suppression, so only one in the old one's place is its rewrite. A line
    // that only renamed a name is the same statement even where the diff kept blank lines
    // between the two (see [`CodePlaces`]): in a large rewrite, blank lines are all that
    // tells one place from another, so other lines must keep them apart. A skip is tied to
    // its test by its anchor, and a TODO by its words, wherever they went.
    let in_place = |old: &Mark, new: &Mark| {
        let d = visible[old.file];
        let code_same = || {
            code_places[old.file]
                .get_or_init(|| CodePlaces::of(d))
                .as_ref()
                .is_some_and(|p| p.same(old.line, new.line))
        };
        // A suppression at the end of its statement goes with it wherever it went in
        // the file, a name of the statement replaced on the way (see [`one_path_replaced`]).
        let carried =
            || old.next.is_none() && new.next.is_none() && one_path_replaced(old.text, new.text);
        old.file == new.file
            && (places[old.file].same(old.line, new.line)
                || (one_name_renamed(old.text, new.text) && code_same())
                || hoisted(old, new, d.old_text.as_deref(), d.new_text.as_deref())
                || carried())
    };
    let anywhere = |_: &Mark, _: &Mark| true;
    // Each file's new text lexed whole, read only when a skip may have moved into a body.
    type Lexed = std::cell::OnceCell<Option<(Lang, Vec<LineView>)>>;
    let new_views: Vec<Lexed> = visible.iter().map(|_| std::cell::OnceCell::new()).collect();
    let body_of = |file: usize| {
        new_views[file]
            .get_or_init(|| {
                let d = visible[file];
                let lang = Lang::from_path(&d.path)?;
                Some((
                    lang,
                    lex(&lang.syntax(), d.new_text.as_deref()?, usize::MAX),
                ))
            })
            .as_ref()
    };
    // The old text lexed whole, read only when two body skips of a file may pair.
    let old_views: Vec<std::cell::OnceCell<Option<Vec<LineView>>>> =
        visible.iter().map(|_| std::cell::OnceCell::new()).collect();
    // A skip goes with its test wherever it went, but not from one test onto another (a
    // body skip of a removed test does not stand for one in a new test either).
    let with_its_test = |old: &Mark, new: &Mark| {
        let d = visible[old.file];
        if named_tests::on_another_test(old, new, d.old_text.as_deref(), d.new_text.as_deref()) {
            return false;
        }
        if old.anchor.is_some() || new.anchor.is_some() || old.file != new.file {
            return true;
        }
        let (Some((lang, new_lexed)), Some(old_text), Some(new_text)) = (
            body_of(new.file),
            d.old_text.as_deref(),
            d.new_text.as_deref(),
        ) else {
            return true;
        };
        let Some(old_lexed) = old_views[old.file]
            .get_or_init(|| Some(lex(&lang.syntax(), old_text, usize::MAX)))
            .as_ref()
        else {
            return true;
        };
        let sides = skip_owner::Sides {
            lang: *lang,
            old_text,
            old: old_lexed,
            new_text,
            new: new_lexed,
        };
        !skip_owner::in_another_test(old, new, &sides)
    };
    // Skip lines the diff kept over another declaration (see [`super::kept_skips`]): old
    // and new line numbers per file.
    let kept_at: Vec<(HashSet<u32>, HashSet<u32>)> = kept
        .iter()
        .map(|(gone, put)| {
            let numbers = |v: &[Line]| v.iter().map(|l| l.number).collect();
            (numbers(gone), numbers(put))
        })
        .collect();
    let both_kept = |old: &Mark, new: &Mark| {
        kept_at.get(old.file).is_some_and(|(gone, put)| {
            old.file == new.file && gone.contains(&old.line) && put.contains(&new.line)
        })
    };
    let renamed = |old: &Mark, new: &Mark, strict: bool| {
        let d = visible[new.file];
        if new.anchor.is_none() {
            return strict
                && old.file == new.file
                && body_of(new.file)
                    .is_some_and(|(lang, v)| into_body::moved_into_body(old, new, *lang, v));
        }
        // A diff keeps identical skip lines in whatever order it likes: among the skip
        // lines it kept, a test renamed is told by its declarations, not by which kept line
        // now sits over it.
        let place = if strict {
            places[old.file].same(old.line, new.line)
        } else {
            both_kept(old, new)
        };
        old.file == new.file
            && place
            && renamed_in_place(old, new, d.old_text.as_deref(), d.new_text.as_deref())
    };
    let mut out = scan::MarkerFindings::default();
    for kind in Kind::ALL.into_iter().filter(|k| need.has(*k)) {
        let lang_of = |file: usize| Lang::from_path(&visible[file].path);
        let widened = |old: &Mark, new: &Mark| {
            lang_of(new.file).is_some_and(|lang| {
                if kind == Kind::Skips && old.anchor.is_some() && new.anchor.is_none() {
                    let old_text = visible[old.file].old_text.as_deref();
                    !super::module_skips::same_module_skip(old, old_text, new)
                        && body_of(new.file).is_some_and(|(lang, v)| {
                            into_body::widened_into_body(old, new, *lang, v)
                        })
                } else if kind == Kind::Skips {
                    let renamed_alias = || {
                        let (Some(before), Some(now)) = (
                            visible[old.file].old_text.as_deref(),
                            visible[new.file].new_text.as_deref(),
                        ) else {
                            return false;
                        };
                        lang == Lang::Python
                            && super::alias_reach::renamed_onto_more(
                                old.text, before, new.text, now,
                            )
                    };
                    super::widen::skip_widened(&old.label, old.text, &new.label, new.text)
                        || renamed_alias()
                        || super::grown_condition::grew(
                            &old.label,
                            old.text,
                            visible[old.file].old_text.as_deref(),
                            &new.label,
                            new.text,
                            visible[new.file].new_text.as_deref(),
                        )
                        || super::cfg_ignore::widened(
                            old,
                            visible[old.file].old_text.as_deref(),
                            new,
                            visible[new.file].new_text.as_deref(),
                        )
                } else {
                    expect_lints::widened(lang, &old.label, old.text, &new.label, new.text)
                        .unwrap_or_else(|| {
                            super::widen::widened(kind, lang, &new.label, old.text, new.text)
                        })
                }
            })
        };
        let near = |r: &Mark, a: &Mark| {
            let gone_with_file = kind == Kind::Lint
                && r.file != a.file
                && (left_with_its_file(visible[r.file], r, a)
                    || file_wide_between_kept_files(visible[r.file], visible[a.file], a));
            // Into another file, a suppression goes with its code (see [`carried`]).
            let other_code =
                kind == Kind::Lint && r.file != a.file && !carried::may_have_moved(r, a);
            (!gone_with_file && !other_code)
                .then(|| shared_dirs(&old_path(visible[r.file]), &visible[a.file].path))
        };
        let (mut verdicts, mut used) = account_with_used(
            added.of(kind),
            removed.of(kind),
            &widened,
            match kind {
                Kind::Lint => &in_place,
                Kind::Skips => &with_its_test,
                _ => &anywhere,
            },
            if kind == Kind::Skips {
                &renamed
            } else {
                &never_renamed
            },
            &near,
            kind != Kind::Todos,
        );
        if kind == Kind::Skips {
            let is_test = |file: usize| tests.is_test(&visible[file].path);
            module_wide::gathered(
                visible,
                added.of(kind),
                removed.of(kind),
                &is_test,
                &mut verdicts,
            );
            not_lowered_skips(visible, added.of(kind), &mut verdicts);
        }
        if kind == Kind::Lint {
            let (a, r) = (added.of(kind), removed.of(kind));
            carried::carried_across_files(visible, a, r, &mut used, &mut verdicts);
            carried::gathered_into_module(visible, a, r, &mut used, &mut verdicts);
            narrowed_from_file_wide(visible, added.of(kind), removed.of(kind), &mut verdicts);
            narrowed_from_pyright_file_rules(visible, added.of(kind), &mut verdicts);
            attributes_respelt_as_pragmas(&places, added.of(kind), removed.of(kind), &mut verdicts);
            narrowed_from_cargo(visible, added.of(kind), &mut verdicts);
            narrowed_from_eslint_config(visible, added.of(kind), &mut verdicts);
            narrowed_from_rubocop_config(visible, added.of(kind), rubocop, &mut verdicts);
            for (m, v) in added.of(kind).iter().zip(verdicts.iter_mut()) {
                if *v == Verdict::New
                    && super::eslint_narrowed::narrowed(m, visible[m.file], removed.of(kind))
                {
                    *v = Verdict::Narrowed;
                }
            }
            narrowed_from_bare_nolint(
                visible,
                &places,
                added.of(kind),
                removed.of(kind),
                &mut verdicts,
            );
            rewrapped_entries(added.of(kind), removed.of(kind), &mut verdicts);
            rewrapped_statements(visible, added.of(kind), removed.of(kind), &mut verdicts);
            split_file_headers(visible, added.of(kind), &mut verdicts);
        }
        let totals = |file: usize| {
            let d = visible[file];
            let from = old_path(d);
            let skips = kind == Kind::Skips;
            let after = new_counts[file]
                .filter(|_| skips)
                .map(|c| c.skips)
                .or_else(|| {
                    let lang = Lang::from_path(&d.path)?;
                    Some(scan::total(
                        kind,
                        lang,
                        &d.path,
                        d.new_text.as_deref()?,
                        tests.is_test(&d.path),
                    ))
                });
            let before = match d.kind {
                DeltaKind::Added => Some(0),
                _ => d.old_counts.filter(|_| skips).map(|c| c.skips).or_else(|| {
                    let lang = Lang::from_path(&from)?;
                    Some(scan::total(
                        kind,
                        lang,
                        &from,
                        d.old_text.as_deref()?,
                        tests.is_test(&from),
                    ))
                }),
            };
            (before, after)
        };
        *out.of_mut(kind) = findings(kind, visible, added.of(kind), &verdicts, &totals);
    }
    out
}

/// Whether `added` is a file-wide suppression (`@file:Suppress(..)`, `/* eslint-disable */`)
/// in a file that existed before, and `from`, another file that lost one, still exists
/// (kept or renamed): such a suppression covers the whole of its file, so one that left a
/// file still there and one written into another existing file silence different code.
/// Only a file the change deleted, or one it added (a file split, code moved out), can
/// hand a file-wide suppression on.
fn file_wide_between_kept_files(from: &FileDelta, to: &FileDelta, added: &Mark) -> bool {
    let kept = |d: &FileDelta| matches!(d.kind, DeltaKind::Modified | DeltaKind::Renamed { .. });
    kept(from)
        && kept(to)
        && Lang::from_path(&to.path)
            .is_some_and(|lang| super::widen::file_wide(lang, &added.label, added.text))
}

/// Whether the suppression `removed`, of a file the change deleted, went with that file
/// rather than to `added` in another file: both sit over code (a declaration, a
/// statement) and that code shares no word of a name (`ClassWithPrivateFinalFields` and
/// `ClassWithPrivateMembers` share `private`; `class BinaryTSFactory` and `byte[]
/// decode(String input)` share nothing). A file deleted takes its code with it; code it
/// held that another file of the change now holds keeps some of its names, so a
/// suppression over unrelated code is another suppression.
fn left_with_its_file(from: &FileDelta, removed: &Mark, added: &Mark) -> bool {
    if !matches!(from.kind, DeltaKind::Deleted) {
        return false;
    }
    let (Some(was), Some(now)) = (removed.next, added.next) else {
        return false;
    };
    name_words(was).is_disjoint(&name_words(now))
}

/// The words of the names on a line, lower case: identifiers split where a word starts
/// (`parseJSONValue` -> `parse`, `json`, `value`; `max_len` -> `max`, `len`), without
/// numbers and the keywords that only open a declaration ([`DECLARATION_WORDS`]).
pub(crate) fn name_words(line: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for ident in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        if DECLARATION_WORDS.contains(&ident) {
            continue;
        }
        let chars: Vec<char> = ident.chars().collect();
        let mut word = String::new();
        for (k, &c) in chars.iter().enumerate() {
            let prev = k.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(k + 1).copied();
            let starts = c.is_uppercase()
                && (prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
                    || (prev.is_some_and(char::is_uppercase)
                        && next.is_some_and(char::is_lowercase)));
            if c == '_' || starts {
                out.insert(std::mem::take(&mut word));
            }
            if c != '_' {
                word.extend(c.to_lowercase());
            }
        }
        out.insert(word);
    }
    out.retain(|w| w.starts_with(char::is_alphabetic) && !DECLARATION_WORDS.contains(&w.as_str()));
    out
}

/// Words that name no code: modifiers and the keywords that open a declaration.
pub(crate) const DECLARATION_WORDS: &[&str] = &[
    "public",
    "private",
    "protected",
    "internal",
    "static",
    "final",
    "abstract",
    "sealed",
    "open",
    "override",
    "synchronized",
    "native",
    "transient",
    "volatile",
    "default",
    "class",
    "interface",
    "enum",
    "record",
    "object",
    "struct",
    "trait",
    "impl",
    "fn",
    "fun",
    "def",
    "function",
    "const",
    "let",
    "var",
    "val",
    "void",
    "pub",
    "mod",
    "type",
    "async",
    "export",
    "new",
    "return",
    "extends",
    "implements",
    "throws",
];

/// An entry of a multi-line suppression list (see [`lint::open_lists`]) whose rules the
/// change removed from a suppression elsewhere (a one-line `#![allow(a, b)]` wrapped over
/// lines, an entry moved to another list) silences nothing that was not silenced before.
fn rewrapped_entries(added: &[Mark], removed: &[Mark], verdicts: &mut [Verdict]) {
    let named = |rule: &str, text: &str| {
        text.split(|c: char| !(c.is_alphanumeric() || "_:.-/".contains(c)))
            .any(|w| w == rule)
    };
    for (a, v) in added.iter().zip(verdicts.iter_mut()) {
        if *v != Verdict::New || !lint::is_list_entry(&a.label) {
            continue;
        }
        // An entry of a file-wide list takes its rule from a file-wide suppression only.
        let wide = |t: &str| t.contains("#![") || t.contains("@file:");
        let reach = |m: &Mark| !wide(&a.label) || wide(&m.label) || wide(m.text);
        let rules = lint::list_entries(a.text);
        if rules
            .iter()
            .all(|r| removed.iter().any(|m| reach(m) && named(r, m.text)))
        {
            *v = Verdict::Rewritten;
        }
    }
}

/// A suppression whose statement the change only re-wrapped (see [`rewrapped`]): the same
/// marker on the same code, each removed one taken once, so a second copy is still new.
fn rewrapped_statements(
    visible: &[&FileDelta],
    added: &[Mark],
    removed: &[Mark],
    verdicts: &mut [Verdict],
) {
    let mut used = vec![false; removed.len()];
    // Each removed marker's statement, read once.
    let mut was: HashMap<usize, Option<String>> = HashMap::new();
    let mut sides: HashMap<usize, Option<(rewrapped::Side, rewrapped::Side)>> = HashMap::new();
    for (a, v) in added.iter().zip(verdicts.iter_mut()) {
        if *v != Verdict::New {
            continue;
        }
        let d = visible[a.file];
        let pair = sides.entry(a.file).or_insert_with(|| {
            let lang = Lang::from_path(&d.path)?;
            Some((
                rewrapped::Side::of(lang, d.old_text.as_deref()?),
                rewrapped::Side::of(lang, d.new_text.as_deref()?),
            ))
        });
        let Some((old, new)) = pair.as_ref() else {
            continue;
        };
        let Some(now) = new.essence_at(a.line).filter(|e| !e.is_empty()) else {
            continue;
        };
        let found = removed.iter().enumerate().find(|(i, r)| {
            !used[*i]
                && r.file == a.file
                && r.label == a.label
                && was
                    .entry(*i)
                    .or_insert_with(|| old.essence_at(r.line))
                    .as_deref()
                    == Some(now.as_str())
        });
        if let Some((i, _)) = found {
            used[i] = true;
            *v = Verdict::Rewritten;
        }
    }
}

/// A file the change deleted (or renamed) and split into new ones beside it
/// (`plugin.test.js` into `plugin.1.test.js` .. `plugin.4.test.js`: same directory, same
/// first name segment) carries its file-wide suppressions into each part: the copy of such
/// a line in a new part covers code it covered before, so it moved.
fn split_file_headers(visible: &[&FileDelta], added: &[Mark], verdicts: &mut [Verdict]) {
    let stem = |path: &str| -> (String, String) {
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        (
            dir.to_string(),
            name.split('.').next().unwrap_or("").to_string(),
        )
    };
    for (a, v) in added.iter().zip(verdicts.iter_mut()) {
        let d = visible[a.file];
        let Some(lang) = Lang::from_path(&d.path) else {
            continue;
        };
        if *v != Verdict::New
            || matches!(d.kind, DeltaKind::Modified | DeltaKind::Deleted)
            || stem(&d.path).1.is_empty()
            || !super::widen::file_wide(lang, &a.label, a.text)
        {
            continue;
        }
        let line = compact(a.text);
        let source = visible.iter().enumerate().find(|(_, o)| {
            let gone = match &o.kind {
                DeltaKind::Deleted => Some(o.path.as_str()),
                DeltaKind::Renamed { from } => Some(from.as_str()),
                _ => None,
            };
            gone.is_some_and(|g| stem(g) == stem(&d.path))
                && o.old_text
                    .as_deref()
                    .is_some_and(|t| t.split('\n').any(|l| compact(l) == line))
        });
        if let Some((from, _)) = source {
            *v = Verdict::Moved { from };
        }
    }
}

/// A file-wide suppression the change removed from a file (`#![allow(warnings)]` at the top
/// of it, not moved or rewritten there) and replaced by narrower ones over items or lines,
/// each within what it covered (see [`super::widen::within_file_wide`]): the file silences
/// less than it did, so those are [`Verdict::Narrowed`]. A file-wide one still in the file
/// leaves what is added to it new.
fn narrowed_from_file_wide(
    visible: &[&FileDelta],
    added: &[Mark],
    removed: &[Mark],
    verdicts: &mut [Verdict],
) {
    for (m, v) in added.iter().zip(verdicts.iter_mut()) {
        if *v != Verdict::New {
            continue;
        }
        let d = visible[m.file];
        let (Some(lang), Some(now)) = (Lang::from_path(&d.path), d.new_text.as_deref()) else {
            continue;
        };
        let gone = |r: &Mark| {
            let was = normalise(r.text);
            !now.lines().any(|l| normalise(l) == was)
        };
        let covered = removed.iter().any(|r| {
            r.file == m.file
                && r.label == m.label
                // At the top level of the file: an indented one is inside some item.
                && !r.text.starts_with(char::is_whitespace)
                && gone(r)
                && super::widen::within_file_wide(lang, &m.label, r.text, m.text)
        });
        if covered {
            *v = Verdict::Narrowed;
        }
    }
}

/// A C# `#pragma warning disable ID` added where the change removed a suppression attribute
/// of the same check (see [`super::pragma_respelt`]), each removed attribute taken once:
/// the same warning silenced on the same code, [`Verdict::Rewritten`].
fn attributes_respelt_as_pragmas(
    places: &[Places],
    added: &[Mark],
    removed: &[Mark],
    verdicts: &mut [Verdict],
) {
    let mut used = vec![false; removed.len()];
    for (a, v) in added.iter().zip(verdicts.iter_mut()) {
        if *v != Verdict::New || !a.text.trim_start().starts_with("#pragma warning disable") {
            continue;
        }
        let found = removed.iter().enumerate().find(|(i, r)| {
            !used[*i]
                && r.file == a.file
                && r.label == "[SuppressMessage]"
                && places[a.file].same(r.line, a.line)
                && super::pragma_respelt::same_check(r.text, a.text)
        });
        if let Some((i, _)) = found {
            used[i] = true;
            *v = Verdict::Rewritten;
        }
    }
}

/// A `# pyright: ignore[rule]` added to a Python file from which the change removed a
/// top-level `# pyright: rule=false` (see [`super::pyright_file_rules`]): the rule was off
/// for the whole file and is now off for that line only ([`Verdict::Narrowed`]).
fn narrowed_from_pyright_file_rules(
    visible: &[&FileDelta],
    added: &[Mark],
    verdicts: &mut [Verdict],
) {
    let mut off: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (m, v) in added.iter().zip(verdicts.iter_mut()) {
        if *v != Verdict::New || !m.text.contains("pyright: ignore[") {
            continue;
        }
        let d = visible[m.file];
        let rules = off.entry(m.file).or_insert_with(|| {
            let removed: Vec<&str> = d.removed_lines.iter().map(|l| l.text.as_str()).collect();
            super::pyright_file_rules::rules_removed(&removed, d.new_text.as_deref().unwrap_or(""))
        });
        if super::pyright_file_rules::ignore_within(m.text, rules) {
            *v = Verdict::Narrowed;
        }
    }
}

/// A suppression on an item or a line (`#[allow(clippy::x)]`, `#[expect(x)]`) each of whose
/// lints the change took out of the `[lints]` table of a `Cargo.toml` at or above the file
/// (`x = "allow"` removed): the lint was off for the whole crate and is now off for that
/// item only, so the crate silences less than it did ([`Verdict::Narrowed`]).
fn narrowed_from_cargo(visible: &[&FileDelta], added: &[Mark], verdicts: &mut [Verdict]) {
    let crates: Vec<(&str, Vec<String>)> = visible
        .iter()
        .filter_map(|d| {
            let dir = d.path.strip_suffix("Cargo.toml")?;
            (dir.is_empty() || dir.ends_with('/'))
                .then(|| (dir, super::config_lint::cargo_allows_removed(d)))
        })
        .filter(|(_, gone)| !gone.is_empty())
        .collect();
    if crates.is_empty() {
        return;
    }
    for (m, v) in added.iter().zip(verdicts.iter_mut()) {
        let path = &visible[m.file].path;
        if *v != Verdict::New || Lang::from_path(path) != Some(Lang::Rust) {
            continue;
        }
        let Some(rules) = super::widen::item_rules(Lang::Rust, &m.label, m.text) else {
            continue;
        };
        let crate_wide = |rule: &String| {
            let rule = rule.replace('-', "_");
            crates
                .iter()
                .any(|(dir, gone)| path.starts_with(dir) && gone.contains(&rule))
        };
        if rules.iter().all(crate_wide) {
            *v = Verdict::Narrowed;
        }
    }
}

/// An `eslint-disable-line` / `eslint-disable-next-line` each of whose rules (for one that
/// grew, each rule it gained) an ESLint configuration at or above the file stopped turning
/// off in the change (`"rule": "off"` removed, and not written into another configuration
/// file of the change): the rule was off for every file and is now off on that line only,
/// so the project silences less than it did ([`Verdict::Narrowed`]), as for a Cargo
/// `allow` moved onto one item.
fn narrowed_from_eslint_config(visible: &[&FileDelta], added: &[Mark], verdicts: &mut [Verdict]) {
    let configs = super::config_lint::eslint_offs_removed(visible);
    if configs.is_empty() {
        return;
    }
    for (m, v) in added.iter().zip(verdicts.iter_mut()) {
        let path = &visible[m.file].path;
        if Lang::from_path(path) != Some(Lang::Js) {
            continue;
        }
        let had = match &*v {
            Verdict::New => Vec::new(),
            Verdict::Widened { was } => {
                super::widen::item_rules(Lang::Js, &m.label, was).unwrap_or_default()
            }
            _ => continue,
        };
        let Some(rules) = super::widen::item_rules(Lang::Js, &m.label, m.text) else {
            continue;
        };
        let gained: Vec<String> = rules
            .iter()
            .filter(|r| !had.contains(r))
            .map(|r| super::config_lint::eslint_rule(r))
            .collect();
        let project_wide = |rule: &String| {
            configs.iter().any(|(dir, gone)| {
                (dir.is_empty() || path.starts_with(&format!("{dir}/"))) && gone.contains(rule)
            })
        };
        if !gained.is_empty() && gained.iter().all(project_wide) {
            *v = Verdict::Narrowed;
        }
    }
}

/// An inline `# rubocop:disable Cop` on code each named cop did not read at the comparison
/// point (see [`super::rubocop_excluded`]): in a file the configuration excluded from the
/// cop, which is [`Verdict::Narrowed`] (an exclusion the change removed now holds for that
/// line only; one still there already kept the cop off it), or on a line moved, word for
/// word, out of such a file of the change ([`Verdict::Moved`]: the same code, silenced for
/// the same cop, as it was).
fn narrowed_from_rubocop_config(
    visible: &[&FileDelta],
    added: &[Mark],
    excluded: &super::rubocop_excluded::Excluded,
    verdicts: &mut [Verdict],
) {
    if excluded.is_empty() {
        return;
    }
    let old_path = |d: &FileDelta| match &d.kind {
        DeltaKind::Renamed { from } => from.clone(),
        DeltaKind::Added => String::new(),
        _ => d.path.clone(),
    };
    for (m, v) in added.iter().zip(verdicts.iter_mut()) {
        if *v != Verdict::New || Lang::from_path(&visible[m.file].path) != Some(Lang::Ruby) {
            continue;
        }
        let Some((cops, code)) = super::rubocop_excluded::disabled_cops(m.text) else {
            continue;
        };
        let off_in =
            |path: &str| !path.is_empty() && cops.iter().all(|c| excluded.excludes(c, path));
        if off_in(&old_path(visible[m.file])) {
            *v = Verdict::Narrowed;
            continue;
        }
        // A directive on a line of its own covers what follows: only a line with code can
        // be followed back to where it was.
        if code.is_empty() {
            continue;
        }
        let code = normalise(code);
        let from = visible.iter().position(|d| {
            off_in(&old_path(d)) && d.removed_lines.iter().any(|l| normalise(&l.text) == code)
        });
        if let Some(from) = from {
            *v = Verdict::Moved { from };
        }
    }
}

/// A Go `//lint:ignore CHECK reason` (staticcheck's directive: one check) written where the
/// change removed a bare `//nolint` (every linter), on the same statement or the line above
/// it: one check silenced where all were, so [`Verdict::Narrowed`], as a `//nolint:name`
/// replacing a bare `//nolint` is. Each removed `//nolint` narrows one directive, and only
/// when no `//nolint` was written back in its place.
fn narrowed_from_bare_nolint(
    visible: &[&FileDelta],
    places: &[Places],
    added: &[Mark],
    removed: &[Mark],
    verdicts: &mut [Verdict],
) {
    const NOLINT: &str = "nolint";
    let go = |file: usize| Lang::from_path(&visible[file].path) == Some(Lang::Go);
    let mut used = vec![false; removed.len()];
    for (j, a) in added.iter().enumerate() {
        if verdicts[j] != Verdict::New
            || a.label != "lint:ignore"
            || !go(a.file)
            || super::widen::item_rules(Lang::Go, &a.label, a.text).map(|r| r.len()) != Some(1)
        {
            continue;
        }
        let here = |r: &Mark| r.file == a.file && places[a.file].same(r.line, a.line);
        let kept = |r: &Mark| {
            added.iter().any(|o| {
                o.label == NOLINT && o.file == r.file && places[r.file].same(r.line, o.line)
            })
        };
        let found = removed.iter().enumerate().find(|(i, r)| {
            !used[*i]
                && r.label == NOLINT
                && here(r)
                && super::widen::bare(Lang::Go, NOLINT, r.text)
                && !kept(r)
        });
        if let Some((i, _)) = found {
            used[i] = true;
            verdicts[j] = Verdict::Narrowed;
        }
    }
}

/// Turn the new skips that disable nothing that ran into [`Verdict::NotLowered`]: an early
/// exit said out loud ([`not_lowered`]), a skip inside a JVM class that is the input of a
/// test ([`jvm_fixtures`]), an assumption over a parameter the change added
/// ([`new_parameter`]), a skip on a test that stood commented out ([`commented_tests`]).
fn not_lowered_skips(visible: &[&FileDelta], added: &[Mark], verdicts: &mut [Verdict]) {
    let jvm = |file: usize| {
        Lang::from_path(&visible[file].path).filter(|l| matches!(l, Lang::Java | Lang::Kotlin))
    };
    // Outlines of the change's JVM files, read only when a new JVM skip needs them.
    let mut outlines: Option<Vec<Option<Outline>>> = None;
    // The tests each file held only in comments, read when a new skip of it needs them.
    let mut commented: HashMap<usize, Option<commented_tests::CommentedOut>> = HashMap::new();
    for (m, v) in added.iter().zip(verdicts.iter_mut()) {
        if *v != Verdict::New {
            continue;
        }
        let d = visible[m.file];
        let exit = d.new_text.as_deref().is_some_and(|t| {
            not_lowered::replaces_early_exit(&m.label, m.line, t, &d.removed_lines)
                || not_lowered::replaces_announced_skip(&m.label, m.line, t, &d.removed_lines)
        });
        let parameter = match (jvm(m.file), d.new_text.as_deref(), d.old_text.as_deref()) {
            (Some(lang), Some(new), Some(old)) => {
                new_parameter::assumes_new_parameter(&m.label, m.line, lang, new, old)
            }
            // A test class the change adds: every parameter of it is new.
            (Some(lang), Some(new), None) if matches!(d.kind, DeltaKind::Added) => {
                new_parameter::assumes_new_parameter(&m.label, m.line, lang, new, "")
            }
            _ => false,
        };
        let fixture = jvm(m.file).is_some() && {
            let all = outlines.get_or_insert_with(|| {
                visible
                    .iter()
                    .enumerate()
                    .map(|(i, d)| Some(Outline::of(jvm(i)?, d.new_text.as_deref()?)))
                    .collect()
            });
            all[m.file].as_ref().is_some_and(|own| {
                let others: Vec<&Outline> = all
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != m.file)
                    .filter_map(|(_, o)| o.as_ref())
                    .collect();
                let added = |n: u32| d.added_lines.iter().any(|l| l.number == n);
                jvm_fixtures::in_fixture(own, &others, m.line, &added)
            })
        };
        // A skip on a test brought back from a comment: it was off before too.
        let revived = commented
            .entry(m.file)
            .or_insert_with(|| {
                let lang = Lang::from_path(&d.path)?;
                Some(commented_tests::CommentedOut::of(
                    lang,
                    d.old_text.as_deref()?,
                ))
            })
            .as_ref()
            .is_some_and(|c| c.holds(m.anchor.unwrap_or(m.text)));
        // A test file the change adds as the input of a test (see
        // [`super::framework_fixtures`]).
        let data = matches!(d.kind, DeltaKind::Added)
            && super::framework_fixtures::is_fixture(d, visible, &Default::default());
        // A Go call spelt like a skip that skips no test (see [`super::go_skips`]).
        let no_test = Lang::from_path(&d.path) == Some(Lang::Go)
            && d.new_text
                .as_deref()
                .is_some_and(|t| super::go_skips::skips_no_test(&m.label, m.line, t));
        // A pytest skip of one fixture value the change added (see
        // [`super::fixture_params`]).
        let new_value = Lang::from_path(&d.path) == Some(Lang::Python)
            && d.new_text.as_deref().is_some_and(|t| {
                super::fixture_params::skips_new_value(&m.label, m.line, t, visible)
            });
        // An `importorskip` in a test whose declaration skipped on the same module (see
        // [`super::module_skips`]).
        let module = super::module_skips::imported(m.text).is_some()
            && Lang::from_path(&d.path) == Some(Lang::Python)
            && match (d.new_text.as_deref(), d.old_text.as_deref()) {
                (Some(new), Some(old)) => {
                    let views = super::lexer::lex(&Lang::Python.syntax(), new, usize::MAX);
                    let at = (m.line as usize).saturating_sub(1);
                    at < views.len()
                        && super::skip_helpers::enclosing(Lang::Python, &views, at).is_some_and(
                            |(name, _)| super::module_skips::test_skipped_on_module(m, &name, old),
                        )
                }
                _ => false,
            };
        // A doc example written ignored, not one that ran turned off (see
        // [`super::doc_fences`]).
        let sketch = m.label == super::doc_fences::LABEL && {
            let places = Places::of(d);
            !super::doc_fences::turned_off(
                m.line,
                &d.removed_lines,
                d.old_text.as_deref(),
                &|o, n| places.same(o, n),
            )
        };
        // A skip taken out of a setup hook into fewer tests (see [`super::setup_skips`]).
        let from_setup = match (d.old_text.as_deref(), d.new_text.as_deref(), &d.old_counts) {
            (Some(old), Some(new), Some(counts)) => {
                super::setup_skips::narrowed(m.text, old, new, counts.tests)
            }
            _ => false,
        };
        // A skipped test moved under a new name (see [`super::moved_renamed`]).
        let renamed_move =
            m.anchor.is_some() && super::moved_renamed::moved_under_new_name(m, visible);
        // An assumption in a test of the assumption API (see [`super::assumption_tests`]).
        let subject = super::assumption_tests::under_test(&m.label, &d.path);
        // A pytest skip for a missing module rewritten into the import's `except` branch
        // (see [`super::import_probe`]).
        let probe = Lang::from_path(&d.path) == Some(Lang::Python)
            && match (d.new_text.as_deref(), d.old_text.as_deref()) {
                (Some(new), Some(old)) => super::import_probe::restates_removed(
                    &m.label,
                    m.line,
                    new,
                    old,
                    &d.removed_lines,
                ),
                _ => false,
            };
        // An ignored Rust test its own file runs in a child process (see [`super::self_run`]).
        let entry = m.label == "#[ignore]"
            && Lang::from_path(&d.path) == Some(Lang::Rust)
            && d.new_text
                .as_deref()
                .is_some_and(|t| super::self_run::runs_itself(m.anchor, t));
        if exit
            || parameter
            || fixture
            || revived
            || no_test
            || new_value
            || data
            || module
            || sketch
            || from_setup
            || entry
            || probe
            || subject
            || renamed_move
        {
            *v = Verdict::NotLowered;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(file: usize, line: u32, label: &str, text: &'static str) -> Mark<'static> {
        Mark {
            file,
            line,
            label: label.into(),
            text,
            anchor: None,
            next: None,
        }
    }

    fn over(m: Mark<'static>, anchor: &'static str) -> Mark<'static> {
        Mark {
            anchor: Some(anchor),
            ..m
        }
    }

    #[test]
    fn a_skip_moved_onto_another_test_is_new() {
        let skip = "@pytest.mark.skip(reason='slow')";
        let added = [
            over(mark(0, 9, "pytest.mark.skip", skip), "def test_fast():"),
            over(mark(1, 3, "pytest.mark.skip", skip), "  def   test_slow():"),
        ];
        let removed = [over(
            mark(0, 2, "pytest.mark.skip", skip),
            "def test_slow():",
        )];
        // The one over test_slow moved (to another file, re-indented); the one over
        // test_fast is new, and is no rewrite of anything either.
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::New, Verdict::Moved { from: 0 }]
        );
        let removed = [over(
            mark(0, 2, "pytest.mark.skip", skip),
            "def test_slow():",
        )];
        let added = [over(
            mark(0, 2, "pytest.mark.skip", "@pytest.mark.skip(reason='x')"),
            "def test_fast():",
        )];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::New]
        );
    }

    fn never(_: &Mark, _: &Mark) -> bool {
        false
    }

    #[test]
    fn the_words_of_names_are_split_where_a_word_starts() {
        let words = |line: &str| {
            let mut v: Vec<String> = name_words(line).into_iter().collect();
            v.sort();
            v
        };
        assert_eq!(
            words("public abstract class BinaryTSFactory extends Base64Variant"),
            ["base64", "binary", "factory", "ts", "variant"]
        );
        assert_eq!(
            words("  private static int max_len_2;"),
            ["int", "len", "max"]
        );
        assert!(name_words("public byte[] decode(String input)")
            .is_disjoint(&name_words("public abstract class BinaryTSFactory")));
    }

    fn same_dir(_: &Mark, _: &Mark) -> Option<usize> {
        Some(0)
    }

    fn anywhere(_: &Mark, _: &Mark) -> bool {
        true
    }

    #[test]
    fn a_marker_written_elsewhere_in_its_file_is_no_rewrite() {
        // Old lines 1..=10, line 3 `// TODO a` removed; new text adds `// TODO b` at
        // line 3 (its place) or at line 9 (after six unchanged lines).
        let old_text = "k\nk\n// TODO a\nk\nk\nk\nk\nk\nk\nk";
        let d = |added: u32| FileDelta {
            path: "a.py".into(),
            kind: super::super::DeltaKind::Modified,
            added_lines: vec![super::super::Line {
                number: added,
                text: "# noqa: b".into(),
            }],
            removed_lines: vec![super::super::Line {
                number: 3,
                text: "# noqa: a".into(),
            }],
            old_text: Some(old_text.into()),
            old_counts: None,
            new_text: None,
        };
        assert!(Places::of(&d(3)).same(3, 3));
        assert!(!Places::of(&d(9)).same(3, 9));
        let places = Places::of(&d(9));
        let here = |o: &Mark, n: &Mark| places.same(o.line, n.line);
        let added = [mark(0, 9, "noqa", "x = 2  # noqa: b")];
        let removed = [mark(0, 3, "noqa", "x = 1  # noqa: a")];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &here,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::New]
        );
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::Rewritten]
        );
    }

    #[test]
    fn a_line_with_one_name_renamed_is_told_from_other_edits() {
        for (old, new) in [
            (
                "    if not_mapped:  # pragma: no cover",
                "    if unmapped_exceptions:  # pragma: no cover",
            ),
            ("x = f(x)  # noqa: E501", "y = f(y)  # noqa: E501"),
            ("x=f(x) # noqa", "  y = f( y )  # noqa"),
            // A rule renamed in the suppression itself: whether that reaches further is
            // for `widened` to judge, as for any rewrite.
            ("x = 1  # noqa: E501", "x = 1  # noqa: F401"),
        ] {
            assert!(one_name_renamed(old, new), "{old} -> {new}");
        }
        for (old, new) in [
            // Other statements.
            (
                "        except AttributeError:  # pragma: no cover",
                "        if hasattr(ssl, \"VERIFY_X509_STRICT\"):  # pragma: nocover",
            ),
            (
                "if a:  # pragma: no cover",
                "if a and b:  # pragma: no cover",
            ),
            // Two names renamed, a name and a number, or two names merged into one.
            ("x = f(y)  # noqa", "a = g(y)  # noqa"),
            ("x = f(1)  # noqa", "x = f(2)  # noqa"),
            ("x = f(y)  # noqa", "x = f(x)  # noqa"),
            // Unchanged is a move, not a rename.
            ("x = 1  # noqa", "x = 1  # noqa"),
        ] {
            assert!(!one_name_renamed(old, new), "{old} -> {new}");
        }
    }

    #[test]
    fn a_statement_with_one_path_replaced_is_told_from_other_edits() {
        for (old, new) in [
            (
                "\t\t\tactiveRequest.end((error?: Error | null) => { // eslint-disable-line x",
                "\t\trequest.end((error?: Error | null) => { // eslint-disable-line x",
            ),
            (
                "from click.testing import CliRunner as ClickCliRunner  # noqa",
                "from ._click.testing import CliRunner as ClickCliRunner  # noqa",
            ),
        ] {
            assert!(one_path_replaced(old, new), "{old} -> {new}");
        }
        for (old, new) in [
            // Names that share no word, a rule changed in the comment, other code.
            ("x = f(1)  # noqa", "y = f(1)  # noqa"),
            ("x = f(1)  # noqa: E501", "x = f(1)  # noqa: E502"),
            (
                "x = f(1) // eslint-disable-line no-a-b",
                "x = f(1) // eslint-disable-line no-a-c",
            ),
            ("x = parse(a)  # noqa", "x = parse(a, b)  # noqa"),
            ("x = 1  # noqa", "x = 1  # noqa"),
            // Another name imported from the moved module.
            (
                "from click.testing import CliRunner as ClickCliRunner  # noqa",
                "from ._click.testing import Result  # noqa",
            ),
        ] {
            assert!(!one_path_replaced(old, new), "{old} -> {new}");
        }
    }

    #[test]
    fn blank_lines_the_diff_kept_do_not_make_another_place() {
        // `a = 1` and its `if a:  # pragma` rewritten as `b = 2` and `if b:  # pragma`;
        // the diff kept the blank lines between them (old 3 and 5, new 2 and 4).
        let line = |number: u32, text: &str| super::super::Line {
            number,
            text: text.into(),
        };
        let d = |added: Vec<super::super::Line>, new_text: &str| FileDelta {
            path: "a.py".into(),
            kind: super::super::DeltaKind::Modified,
            added_lines: added,
            removed_lines: vec![
                line(2, "    a = 1"),
                line(4, "    if a:  # pragma: no cover"),
            ],
            old_text: Some(
                "def f():\n    a = 1\n\n    if a:  # pragma: no cover\n\ndef g():\n".into(),
            ),
            old_counts: None,
            new_text: Some(new_text.into()),
        };
        let rewritten = d(
            vec![
                line(3, "    b = 2"),
                line(5, "    if b:  # pragma: no cover"),
            ],
            "def f():\n\n    b = 2\n\n    if b:  # pragma: no cover\ndef g():\n",
        );
        assert!(!Places::of(&rewritten).same(4, 5));
        assert!(CodePlaces::of(&rewritten).unwrap().same(4, 5));
        // Past an unchanged line of code (`def g():`), it is another place.
        let elsewhere = d(
            vec![
                line(3, "    b = 2"),
                line(6, "    if b:  # pragma: no cover"),
            ],
            "def f():\n\n    b = 2\n\ndef g():\n    if b:  # pragma: no cover\n",
        );
        assert!(!CodePlaces::of(&elsewhere).unwrap().same(4, 6));
        // Without both texts there is no telling.
        let unknown = FileDelta {
            old_text: None,
            ..rewritten
        };
        assert!(CodePlaces::of(&unknown).is_none());
    }

    proptest::proptest! {
        /// However markers are moved or rewritten, each removed one covers at most one
        /// added one: a change that adds n more than it removes reports at least n.
        #[test]
        fn a_move_never_hides_a_real_new_marker(
            added in proptest::collection::vec((0usize..3, 0u32..6, 0usize..3, 0usize..3), 0..12),
            removed in proptest::collection::vec((0usize..3, 0u32..6, 0usize..3, 0usize..3), 0..12),
            wide in proptest::bool::ANY,
        ) {
            const LABELS: [&str; 3] = ["it.skip", "noqa", "TODO"];
            const TEXTS: [&str; 3] = ["a", "  a ", "b"];
            let marks = |v: &[(usize, u32, usize, usize)]| -> Vec<Mark<'static>> {
                v.iter()
                    .map(|&(f, l, k, t)| mark(f, l, LABELS[k], TEXTS[t]))
                    .collect()
            };
            let (a, r) = (marks(&added), marks(&removed));
            let widened = |_: &Mark, _: &Mark| wide;
            let verdicts = account(&a, &r, &widened, &anywhere, &never_renamed, &same_dir, true);
            let reported = verdicts
                .iter()
                .filter(|v| matches!(v, Verdict::New | Verdict::Widened { .. }))
                .count();
            proptest::prop_assert!(reported + r.len() >= a.len());
            for (m, v) in a.iter().zip(&verdicts) {
                if let Verdict::Moved { from } = v {
                    proptest::prop_assert!(r.iter().any(|x| x.file == *from
                        && x.label == m.label
                        && normalise(x.text) == normalise(m.text)));
                }
            }
        }
    }

    #[test]
    fn a_skip_respelt_over_the_same_test_is_a_rewrite_and_another_reach_is_new() {
        // `xit` -> `it.skip` (mocha to jest), `pending` -> `skip` (RSpec 3), `@Ignore` ->
        // `@Disabled` (JUnit 5): the same skip in the same file.
        let added = [
            mark(0, 4, "it.skip", "  it.skip('parses dates', () => {"),
            mark(1, 9, "skip", "    skip 'needs a server'"),
            over(
                mark(2, 7, "@Disabled", "  @Disabled(\"flaky\")"),
                "void parses() {",
            ),
        ];
        let removed = [
            mark(0, 4, "xit", "  xit('parses dates', () => {"),
            mark(1, 9, "pending", "    pending 'needs a server'"),
            over(
                mark(2, 7, "@Ignore", "  @Ignore(\"flaky\")"),
                "void parses() {",
            ),
        ];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::Rewritten; 3]
        );
        // A skipped test turned into a skipped group, a skip into a focus, or a skip put
        // over another test: each is new.
        let added = [
            mark(0, 4, "describe.skip", "  describe.skip('dates', () => {"),
            mark(1, 9, "it.only", "  it.only('parses', () => {"),
            over(
                mark(2, 7, "@Disabled", "  @Disabled(\"flaky\")"),
                "void formats() {",
            ),
        ];
        let removed = [
            mark(0, 4, "xit", "  xit('dates', () => {"),
            mark(1, 9, "xit", "  xit('parses', () => {"),
            over(
                mark(2, 7, "@Ignore", "  @Ignore(\"flaky\")"),
                "void parses() {",
            ),
        ];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::New; 3]
        );
    }

    #[test]
    fn a_skip_over_a_test_renamed_in_place_is_a_rewrite() {
        let old_text = "class T {\n  @Test\n  @Ignore\n  public void disabled_testOctal() {\n  }\n  @Test\n  public void testHex() {\n  }\n}\n";
        let renamed_text = "class T {\n  @Test\n  @Ignore(\"to be decided\")\n  public void testOctal() {\n  }\n  @Test\n  public void testHex() {\n  }\n}\n";
        let old = over(
            mark(0, 3, "@Ignore", "  @Ignore"),
            "public void disabled_testOctal() {",
        );
        let new = over(
            mark(0, 3, "@Ignore", "  @Ignore(\"to be decided\")"),
            "public void testOctal() {",
        );
        assert!(renamed_in_place(
            &old,
            &new,
            Some(old_text),
            Some(renamed_text)
        ));
        let place = |o: &Mark, n: &Mark, _: bool| {
            renamed_in_place(o, n, Some(old_text), Some(renamed_text))
        };
        assert_eq!(
            account(
                std::slice::from_ref(&new),
                std::slice::from_ref(&old),
                &never,
                &anywhere,
                &place,
                &same_dir,
                true
            ),
            vec![Verdict::Rewritten]
        );
        // Not a rename: the skip left testOctal (still there, now running) for testHex,
        // which was there before.
        let moved_text = "class T {\n  @Test\n  public void disabled_testOctal() {\n  }\n  @Test\n  @Ignore(\"to be decided\")\n  public void testHex() {\n  }\n}\n";
        let onto_hex = over(
            mark(0, 6, "@Ignore", "  @Ignore(\"to be decided\")"),
            "public void testHex() {",
        );
        assert!(!renamed_in_place(
            &old,
            &onto_hex,
            Some(old_text),
            Some(moved_text)
        ));
        // Without both texts nothing is known to be a rename.
        assert!(!renamed_in_place(&old, &new, None, Some(renamed_text)));
    }

    #[test]
    fn a_skip_over_a_one_line_test_expanded_by_a_formatter_is_the_same_skip() {
        // `@Ignore @Test public void ignored() {}` became `@Ignore` / `@Test` /
        // `public void ignored() {` / `}`: the skip line and its declaration's line both
        // changed, the test did not.
        let removed = [over(
            mark(
                0,
                12,
                "@Ignore",
                "\t\t@Ignore @Test public void ignored() {}",
            ),
            "public void ignored() {}",
        )];
        let added = [over(
            mark(0, 30, "@Ignore", "        @Ignore"),
            "public void ignored() {",
        )];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::Rewritten]
        );
        // Another test's declaration is another test.
        let added = [over(
            mark(0, 30, "@Ignore", "        @Ignore"),
            "public void valid() {",
        )];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::New]
        );
    }

    #[test]
    fn nothing_removed_means_everything_added_is_new() {
        let added = [mark(0, 3, "it.skip", "it.skip('a')")];
        assert_eq!(
            account(
                &added,
                &[],
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::New]
        );
    }

    #[test]
    fn a_marker_moved_within_a_file_or_across_files_is_not_new() {
        let added = [
            mark(0, 9, "noqa", "    import os  # noqa"),
            mark(1, 2, "it.skip", "it.skip('b', () => {})"),
        ];
        let removed = [
            mark(0, 1, "noqa", "import os # noqa"),
            mark(2, 5, "it.skip", "  it.skip('b', () => {})"),
        ];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::Moved { from: 0 }, Verdict::Moved { from: 2 }]
        );
    }

    #[test]
    fn one_removed_and_two_added_leaves_one_new() {
        let added = [
            mark(0, 1, "it.skip", "it.skip('a')"),
            mark(1, 1, "it.skip", "it.skip('a')"),
        ];
        let removed = [mark(0, 4, "it.skip", "it.skip('a')")];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::Moved { from: 0 }, Verdict::New]
        );
    }

    #[test]
    fn a_move_inside_a_file_is_preferred_to_one_across_files() {
        // File 1 moved its own skip within itself: that is where it came from, and file 0's
        // removal stays free for any other file that took it.
        let added = [mark(1, 8, "it.skip", "it.skip('a')")];
        let removed = [
            mark(0, 1, "it.skip", "it.skip('a')"),
            mark(1, 1, "it.skip", "it.skip('a')"),
        ];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::Moved { from: 1 }]
        );
    }

    #[test]
    fn rewrites_pair_per_file_and_label_and_can_widen() {
        let added = [
            mark(0, 2, "eslint-disable", "// eslint-disable-next-line b"),
            mark(0, 7, "eslint-disable", "// eslint-disable-next-line c, d"),
            mark(1, 2, "eslint-disable", "// eslint-disable-next-line e"),
            mark(0, 9, "noqa", "x  # noqa"),
        ];
        let removed = [
            mark(0, 2, "eslint-disable", "// eslint-disable-next-line a"),
            mark(0, 6, "eslint-disable", "// eslint-disable-next-line c"),
        ];
        let wider =
            |old: &Mark, new: &Mark| new.text.matches(',').count() > old.text.matches(',').count();
        assert_eq!(
            account(
                &added,
                &removed,
                &wider,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![
                Verdict::Rewritten,
                Verdict::Widened {
                    was: "// eslint-disable-next-line c".into()
                },
                // Another file's rewrite does not borrow this file's removal.
                Verdict::New,
                // Another label is another kind of marker.
                Verdict::New,
            ]
        );
    }

    #[test]
    fn a_rewrite_pairs_with_the_line_that_kept_its_words() {
        // `dead_code` became `dead_code, deprecated` below a new `#[allow(deprecated)]`:
        // in line order the old one would pair with the new one and hide the widening.
        let added = [
            mark(0, 10, "#[allow(", "    #[allow(deprecated)]"),
            mark(0, 30, "#[allow(", "    #[allow(dead_code, deprecated)]"),
        ];
        let removed = [mark(0, 30, "#[allow(", "    #[allow(dead_code)]")];
        let wider =
            |old: &Mark, new: &Mark| new.text.matches(',').count() > old.text.matches(',').count();
        assert_eq!(
            account(
                &added,
                &removed,
                &wider,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![
                Verdict::New,
                Verdict::Widened {
                    was: "    #[allow(dead_code)]".into()
                }
            ]
        );
    }

    #[test]
    fn the_marker_that_kept_its_code_is_the_one_that_moved() {
        // File 0 moved its suppression (with the code under it) to file 1 and added one of
        // the same text over new code: that one is new, not a move within file 0.
        let line = "// eslint-disable-next-line no-explicit-any";
        let with = |m: Mark<'static>, next: &'static str| Mark {
            next: Some(next),
            ..m
        };
        let added = [
            with(mark(0, 3, "eslint-disable", line), "const fresh = x as any"),
            with(mark(1, 9, "eslint-disable", line), "  const old = y as any"),
        ];
        let removed = [with(
            mark(0, 40, "eslint-disable", line),
            "const old = y as any",
        )];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                true
            ),
            vec![Verdict::New, Verdict::Moved { from: 0 }]
        );
    }

    #[test]
    fn a_todo_with_other_words_is_another_todo() {
        let removed = [mark(
            0,
            72,
            "TODO",
            "// TODO(ann): forbid null for primitives",
        )];
        let added = [mark(
            0,
            155,
            "TODO",
            "// TODO: adjust once a narrower type is thrown",
        )];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                false
            ),
            vec![Verdict::New]
        );
        let added = [mark(
            0,
            70,
            "TODO",
            "// TODO(ann): forbid null for primitives?",
        )];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                false
            ),
            vec![Verdict::Rewritten]
        );
    }

    #[test]
    fn a_todo_reworded_as_a_fixme_where_it_stood_is_the_same_work() {
        let removed = [mark(
            0,
            74,
            "TODO",
            "    # TODO: remove MULTIPART_LIMIT, it is not documented and was introduced by error.",
        )];
        let added = [mark(
            0,
            74,
            "FIXME",
            "    # FIXME: MULTIPART_LIMIT was introduced by mistake and it will be removed in 1.7.0",
        )];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                false
            ),
            vec![Verdict::Rewritten]
        );
        // A FIXME about something else is other work.
        let added = [mark(
            0,
            74,
            "FIXME",
            "    # FIXME: the parser leaks file handles",
        )];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                false
            ),
            vec![Verdict::New]
        );
    }

    #[test]
    fn a_marker_respaced_inside_its_line_moved() {
        // `// TODO` respaced to `//TODO` in its own file is that file's marker, so the
        // `// TODO` of a new file is new, not the one moved there.
        let added = [
            mark(0, 13, "TODO", "//TODO"),
            mark(1, 13, "TODO", "// TODO"),
        ];
        let removed = [mark(0, 20, "TODO", "\t// TODO")];
        assert_eq!(
            account(
                &added,
                &removed,
                &never,
                &anywhere,
                &never_renamed,
                &same_dir,
                false
            ),
            vec![Verdict::Moved { from: 0 }, Verdict::New]
        );
    }
}
