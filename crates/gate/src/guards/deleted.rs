//! `deleted_tests`: a test file deleted, renamed out of the test paths, or holding fewer
//! tests than at the comparison point. Renames are followed: a renamed file is compared
//! with the counts of its old path, so a rename that keeps its tests is fine.
//!
//! Counts are compared per file, for test paths and for every Rust file (Rust keeps unit
//! tests inline under `#[cfg(test)]`), then accounted across the change: a test that left
//! one file for another file of the same change (a test module split in two) moved, it
//! was not deleted. A test is known by the line that names it (`def test_x(`,
//! `it('adds', ...)`, `func TestX(`; for an attribute such as `#[test]` or `@Test`, the
//! line it decorates, so a JUnit 3 `public void testX()` given `@Test` as it moves is the
//! same test), whitespace aside. Which tests left a file is read from its tests before
//! and after, not from the diff's lines (a line diff may keep one test's `#[test]` as
//! another's). A dropped test is netted only against the same
//! declaration added in another file whose own count rose by at least as much, so
//! deleting one test and writing another elsewhere is still a deletion, and a file's
//! removed lines must be known (they are not for a file already dirty at baseline time).
//! A test that kept its declaration in a file whose count fell moved there too, and that
//! file owes one more (its count hides one of its own losses). Every test is placed by
//! its declaration, across all files, before any is placed by a likeness.
//!
//! A test also did not leave when each of these says it is still run (see
//! [`super::test_moves`] for how a test is read): a test another file gained bears its
//! name, its declaration rewrapped; its body mostly reappears in one test
//! another file gained (renamed as it moved); its statements now live in a test that was
//! there before and grew with the change (merged into it, see [`super::merged`]); the
//! file now loads a runner file of the change whose tests rose (those run in every file
//! that loads it); it is still declared, as a plain function a test of its file calls;
//! it ran nothing (an empty Go or Rust test, a
//! placeholder, pending or skipped and empty, or a test switched off where it is
//! declared: `xit`, `@Ignore`, `@pytest.mark.skip`); or the very same test, declaration
//! and body, is in an unchanged neighbour or in a file the change only respaced (a copy
//! made earlier, the original removed now).
//! A deleted test file whose tests were written anew in a test file the change adds
//! about the same thing (`OSGiTest` as `OSGiManifestIT`, `test/x_test.rb` as
//! `spec/x_spec.rb`) is replaced, for as many tests as the new file holds beyond those
//! that arrived from elsewhere: the rename git misses because no body survived.
//! Last, a test nothing else accounts for that a new test of another file holds by the
//! words of its body (every word of its own, three quarters of all) was renamed and
//! reworded as it moved (see [`super::hidden::carrier`]). Then a test whose own values
//! are rows of a table-driven or parameterised test the change wrote was folded into it
//! (see [`super::folded`]).

use super::folded;
use super::go_twins;
use super::harness;
use super::hidden::{arrivals, carrier, hidden, test_name, Before, Carrier, Reach, Share, Steady};
use super::languages::Lang;
use super::merged;
use super::moved_along;
use super::named_subject;
use super::parametrised::parameterised_away;
use super::rust_tests::TestMacros;
use super::test_moves::{
    bodies_at, declared, declared_with, imports, moved_across, replaces, rewritten, same_tests,
    Declared,
};
use super::test_paths::TestPaths;
use super::tests_count::count_with;
use super::twins;
use super::unwalked::unwalked;
use super::{DeltaKind, FileDelta, Finding, Line, TestCounts};
use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

/// Whether the old file held tests; unknown counts of a test path in a known language
/// count as yes (fail closed), a helper with zero tests as no.
fn had_tests(path: &str, old: Option<TestCounts>, tests: &TestPaths) -> bool {
    match old {
        Some(c) => c.tests > 0,
        None => tests.is_test(path) && Lang::from_path(path).is_some_and(|l| !l.is_data()),
    }
}

fn how_many(old: Option<TestCounts>) -> String {
    match old {
        Some(c) => plural(c.tests),
        None => "its tests".into(),
    }
}

fn plural(n: u32) -> String {
    format!("{n} test{}", if n == 1 { "" } else { "s" })
}

/// A file that holds fewer tests than before, before the change is accounted.
struct Drop {
    at: usize,
    /// Tests lost; `None`: a deleted test file whose count is unknown.
    lost: Option<u32>,
    now: u32,
}

/// `new_counts[i]` is `count_tests` of `deltas[i]`'s current text when it was computed.
/// `near(dirs)` gives the path and text of the files in those directories (repository
/// paths) as they are now; it is asked at most once, only when a test is left unaccounted.
pub fn deleted_tests(
    deltas: &[&FileDelta],
    new_counts: &[Option<TestCounts>],
    tests: &TestPaths,
    macros: &TestMacros,
    near: &Near,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut drops = Vec::new();
    let mut steady = Vec::new();
    let bare = Harnessless::of(deltas, new_counts, near);
    for (at, (d, new)) in deltas.iter().zip(new_counts).enumerate() {
        match &d.kind {
            DeltaKind::Added => {}
            // The input of a test of the change, not a test of the suite.
            _ if super::framework_fixtures::is_fixture(d, deltas, tests) => {}
            DeltaKind::Deleted => {
                if had_tests(&d.path, d.old_counts, tests) {
                    drops.push(Drop {
                        at,
                        lost: d.old_counts.map(|c| bare.then(d, c.tests)),
                        now: 0,
                    });
                }
            }
            DeltaKind::Renamed { from }
                if tests.is_test(from)
                    && (!tests.is_test(&d.path) || (unwalked(&d.path) && !unwalked(from)))
                    && Lang::from_path(&d.path) != Some(Lang::Rust) =>
            {
                if had_tests(from, d.old_counts, tests) {
                    // Moved out of the runner's reach, the tests that stopped running are
                    // those of the file that ran: the finding stands where they were.
                    let (unrun, at) = if tests.is_test(&d.path) {
                        ("in a directory its test runner never walks", from)
                    } else {
                        ("which no test file pattern matches", &d.path)
                    };
                    out.push(Finding {
                        path: at.clone(),
                        line: None,
                        snippet: format!("{from} -> {}", d.path),
                        message: format!(
                            "test file `{from}` was renamed to `{}`, {unrun}, so {} no longer run: rename it back to a test path",
                            d.path,
                            how_many(d.old_counts)
                        ),
                    });
                }
            }
            DeltaKind::Modified | DeltaKind::Renamed { .. } => {
                let Some(old) = d.old_counts.filter(|c| c.tests > 0) else {
                    continue;
                };
                if !tests.is_counted(&d.path) {
                    continue;
                }
                if d.new_text.is_none() {
                    out.push(unreadable(d, old));
                    continue;
                }
                if let Some(now) = new {
                    let (was, now) = (bare.then(d, old.tests), bare.now(d, now.tests));
                    if now < was {
                        drops.push(Drop {
                            at,
                            lost: Some(was - now),
                            now,
                        });
                    } else if now > was && !bare.holds(d) {
                        steady.push(Steady { at, was, now });
                    }
                }
            }
        }
    }
    out.extend(hidden(deltas, &steady, tests, macros));
    if drops.is_empty() {
        return out;
    }
    let mut accounted = moved_out(deltas, new_counts, tests, macros, &drops);
    still_there(deltas, tests, near, &drops, &mut accounted);
    for (drop, acc) in drops.iter().zip(&accounted) {
        let d = deltas[drop.at];
        let lost = drop.lost.map(|l| acc.owed(l));
        if lost == Some(0) {
            continue;
        }
        if matches!(d.kind, DeltaKind::Deleted)
            && parameterised_away(deltas, drop.at, &old_tests(d, tests, macros), tests, macros)
        {
            continue;
        }
        let mut to: BTreeMap<usize, u32> = BTreeMap::new();
        for j in &acc.moved {
            *to.entry(*j).or_default() += 1;
        }
        let mut places: Vec<String> = Vec::new();
        if acc.arrived > 0 {
            places.push(format!(
                "{} more arrived by name from other files, hiding as many removed here",
                acc.arrived
            ));
        }
        places.extend(
            to.iter()
                .map(|(j, n)| format!("{n} moved to `{}`", deltas[*j].path)),
        );
        let mut into: BTreeMap<(usize, &str), u32> = BTreeMap::new();
        for (j, name) in &acc.merged {
            *into.entry((*j, name)).or_default() += 1;
        }
        places
            .extend(into.iter().map(|((j, name), n)| {
                format!("{n} merged into `{name}` in `{}`", deltas[*j].path)
            }));
        let mut rewritten_into: BTreeMap<(usize, &str), u32> = BTreeMap::new();
        for (j, name) in &acc.carried {
            *rewritten_into.entry((*j, name)).or_default() += 1;
        }
        places.extend(rewritten_into.iter().map(|((j, name), n)| {
            format!(
                "{n} rewritten as `{name}` in `{}`, which holds {} words",
                deltas[*j].path,
                if *n == 1 { "its" } else { "their" }
            )
        }));
        places.extend(acc.twins.iter().map(|(j, name)| {
            format!(
                "1 made one with its twin `{name}` in `{}`, renamed to its name there",
                deltas[*j].path
            )
        }));
        places.extend(acc.tables.iter().map(|(j, name, n)| {
            format!(
                "{n} folded into the table `{name}` in `{}`",
                deltas[*j].path
            )
        }));
        if !acc.tables.is_empty() {
            let names: Vec<String> = acc.left.iter().map(folded::shown).collect();
            if !names.is_empty() {
                places.push(format!("not among its rows: `{}`", names.join("`, `")));
            }
        }
        places.extend(
            acc.runners
                .iter()
                .map(|(j, n)| format!("{n} run through `{}`, which it loads", deltas[*j].path)),
        );
        if acc.empty > 0 {
            let s = if acc.empty == 1 { "" } else { "s" };
            places.push(format!(
                "{} that ran nothing (placeholder{s} or switched off)",
                acc.empty
            ));
        }
        if acc.called > 0 {
            places.push(format!(
                "{} still run by a test of the file that calls {}",
                acc.called,
                if acc.called == 1 { "it" } else { "them" }
            ));
        }
        let mut kept: BTreeMap<&str, u32> = BTreeMap::new();
        for path in &acc.kept {
            *kept.entry(path).or_default() += 1;
        }
        places.extend(
            kept.iter()
                .map(|(path, n)| format!("{n} still in `{path}`")),
        );
        if let Some((j, n)) = acc.replaced_by {
            places.push(format!(
                "{n} written anew in `{}`, which replaces it",
                deltas[j].path
            ));
        }
        let moved_note = if places.is_empty() {
            String::new()
        } else {
            format!(" ({})", places.join(", "))
        };
        out.push(match &d.kind {
            DeltaKind::Deleted => Finding {
                path: d.path.clone(),
                line: None,
                snippet: format!("{} deleted ({})", d.path, how_many(d.old_counts)),
                message: format!(
                    "test file `{}` was deleted with {}{moved_note}: restore it; removing tests needs a human's approval",
                    d.path,
                    how_many(d.old_counts)
                ),
            },
            _ => {
                let old = drop.now + drop.lost.unwrap_or(0);
                Finding {
                    path: d.path.clone(),
                    line: None,
                    snippet: format!("{}: tests {} -> {}", d.shown_path(), old, drop.now),
                    message: format!(
                        "tests in `{}` dropped from {} to {}{moved_note}: restore the removed or commented-out tests",
                        d.shown_path(),
                        old,
                        drop.now
                    ),
                }
            }
        });
    }
    out
}

/// The Rust integration test files that are `harness = false` targets of their Cargo
/// manifest, before and after the change (see [`super::harness`]): each counts as one test,
/// its `main`, when it declares one. A manifest the change touched is read at each side;
/// another, as it is now, through `near`, only when a Rust file under `tests/` lost some.
#[derive(Default)]
struct Harnessless {
    then: BTreeSet<String>,
    now: BTreeSet<String>,
}

impl Harnessless {
    fn of(deltas: &[&FileDelta], new_counts: &[Option<TestCounts>], near: &Near) -> Harnessless {
        let mut manifests: BTreeSet<String> = BTreeSet::new();
        for (d, new) in deltas.iter().zip(new_counts) {
            // A manifest the change did not touch reads the same at both sides: it can
            // only lower a count that fell already.
            let fell = match (d.old_counts, new) {
                (Some(old), Some(new)) => new.tests < old.tests,
                (Some(old), None) => old.tests > 0,
                _ => false,
            };
            let held = d.old_counts.is_some_and(|c| c.tests > 0);
            if !held || Lang::from_path(&d.path) != Some(Lang::Rust) {
                continue;
            }
            let from = match &d.kind {
                DeltaKind::Renamed { from } => Some(from.as_str()),
                _ => None,
            };
            for m in [Some(d.path.as_str()), from]
                .into_iter()
                .flatten()
                .filter_map(harness::manifest_of)
            {
                if fell || deltas.iter().any(|d| d.path == m) {
                    manifests.insert(m);
                }
            }
        }
        let mut out = Harnessless::default();
        let mut unread: BTreeSet<String> = BTreeSet::new();
        for m in &manifests {
            match deltas.iter().find(|d| &d.path == m) {
                Some(d) => {
                    let side = |text: &Option<String>| {
                        text.as_deref()
                            .map(|t| harness::targets(m, t))
                            .unwrap_or_default()
                    };
                    out.then.extend(side(&d.old_text));
                    out.now.extend(side(&d.new_text));
                }
                None => {
                    unread.insert(m.clone());
                }
            }
        }
        if unread.is_empty() {
            return out;
        }
        let dirs: BTreeSet<String> = unread
            .iter()
            .map(|m| m.rsplit_once('/').map_or("", |(dir, _)| dir).to_string())
            .collect();
        for (path, text) in near(&dirs.into_iter().collect::<Vec<_>>()) {
            if unread.contains(&path) {
                let found = harness::targets(&path, &text);
                out.then.extend(found.iter().cloned());
                out.now.extend(found);
            }
        }
        out
    }

    /// The count of `d`'s file at the comparison point, `counted` its declared tests.
    fn then(&self, d: &FileDelta, counted: u32) -> u32 {
        let path = match &d.kind {
            DeltaKind::Renamed { from } => from,
            _ => &d.path,
        };
        match d.old_text.as_deref() {
            Some(text) if self.then.contains(path) && harness::has_main(text) => 1,
            _ => counted,
        }
    }

    /// Whether `d`'s file is a target without a harness at either side: its count is its
    /// `main`, not the tests it declares.
    fn holds(&self, d: &FileDelta) -> bool {
        let from = match &d.kind {
            DeltaKind::Renamed { from } => from,
            _ => &d.path,
        };
        self.then.contains(from) || self.now.contains(&d.path)
    }

    /// The count of `d`'s file now, `counted` its declared tests.
    fn now(&self, d: &FileDelta, counted: u32) -> u32 {
        match d.new_text.as_deref() {
            Some(text) if self.now.contains(&d.path) && harness::has_main(text) => 1,
            _ => counted,
        }
    }
}

fn unreadable(d: &FileDelta, old: TestCounts) -> Finding {
    Finding {
        path: d.path.clone(),
        line: None,
        snippet: format!("{}: {} tests, now unreadable", d.shown_path(), old.tests),
        message: format!(
            "`{}` had {} and can no longer be read as text (binary, too large, or a link out of the repository: see the receipt's skipped files), so its tests cannot be counted: restore it",
            d.shown_path(),
            how_many(Some(old))
        ),
    }
}

/// How the tests a file lost are accounted for.
#[derive(Default)]
struct Accounted {
    /// Tests moved to the file with this delta index (the same declaration, or a body
    /// that kept most of its lines).
    moved: Vec<usize>,
    /// Tests merged into a test the change kept and grew (its file's delta index, its
    /// name): see [`super::merged`].
    merged: Vec<(usize, String)>,
    /// Tests renamed and reworded as they moved: a new test of another file holds them by
    /// the words of their bodies (its file's delta index, its name); see
    /// [`super::hidden::carrier`].
    carried: Vec<(usize, String)>,
    /// Tests made one with a twin of another file, renamed to their name there (its
    /// file's delta index, its name): see [`super::twins`].
    twins: Vec<(usize, String)>,
    /// Tests folded into a table that the count does not already show: see
    /// [`super::folded`].
    folded: u32,
    /// The tables tests were folded into (file's delta index, name, how many it carries).
    tables: Vec<(usize, String, u32)>,
    /// Placeholders removed (pending, or skipped and empty): nothing ran in them.
    empty: u32,
    /// Tests demoted to plain functions that a test of their file calls: they still run.
    called: u32,
    /// Tests that arrived by name from another file of the change: the count, which fell,
    /// hides as many of this file's own losses.
    arrived: u32,
    /// New tests that call demoted ones: each stands in the count for what it calls, not
    /// as a test of its own.
    vehicles: u32,
    /// Shared runner files of the change this file now loads, with how many tests each
    /// gained: those tests run as part of this file.
    runners: Vec<(usize, u32)>,
    /// Unchanged files that still hold the very same test (a copy made earlier, whose
    /// original this change removed).
    kept: Vec<String>,
    /// A test file of the change that replaces this deleted one (see
    /// [`super::test_moves::replaces`]), with how many of its tests stand for this file's.
    replaced_by: Option<(usize, u32)>,
    /// Removed tests none of the above accounts for.
    left: Vec<Declared>,
}

impl Accounted {
    /// How many of `lost` (the fall of the count) and of the tests that arrived are not
    /// accounted for.
    fn owed(&self, lost: u32) -> u32 {
        (lost + self.arrived + self.vehicles).saturating_sub(self.total())
    }

    fn total(&self) -> u32 {
        let runs: u32 = self.runners.iter().map(|r| r.1).sum();
        let replaced = self.replaced_by.map_or(0, |r| r.1);
        self.moved.len() as u32
            + self.merged.len() as u32
            + self.carried.len() as u32
            + self.twins.len() as u32
            + self.folded
            + self.empty
            + self.called
            + runs
            + self.kept.len() as u32
            + replaced
    }
}

/// The files of some directories as they are now: `(path, text)`.
pub type Near<'a> = dyn Fn(&[String]) -> Vec<(String, String)> + 'a;

/// A removed test whose declaration and body are still, line for line, in an unchanged
/// test file next to the change was a copy: the test is still there. The files read are
/// those of the directories the change touched.
fn still_there(
    deltas: &[&FileDelta],
    tests: &TestPaths,
    near: &Near,
    drops: &[Drop],
    accounted: &mut [Accounted],
) {
    let open = |drop: &Drop, acc: &Accounted| {
        drop.lost.is_some_and(|l| acc.owed(l) > 0) && acc.left.iter().any(|t| !t.body.is_empty())
    };
    if !drops.iter().zip(accounted.iter()).any(|(d, a)| open(d, a)) {
        return;
    }
    let mut changed: BTreeSet<&str> = BTreeSet::new();
    for d in deltas {
        changed.insert(&d.path);
        if let DeltaKind::Renamed { from } = &d.kind {
            changed.insert(from);
        }
    }
    let dirs: BTreeSet<String> = changed
        .iter()
        .map(|p| p.rsplit_once('/').map_or("", |(dir, _)| dir).to_string())
        .collect();
    let builtin = TestPaths::default();
    let mut copies: Vec<(String, Declared)> = Vec::new();
    // The Go files copies were read from, with their texts (see [`go_twins`]).
    let mut go_texts: BTreeMap<String, String> = BTreeMap::new();
    for (path, text) in near(&dirs.into_iter().collect::<Vec<_>>()) {
        if changed.contains(path.as_str()) || !tests.is_counted(&path) {
            continue;
        }
        let Some(lang) = Lang::from_path(&path) else {
            continue;
        };
        if lang == Lang::Go {
            go_texts.insert(path.clone(), text.clone());
        }
        for t in declared(
            &Line::all_of(&text),
            Some(&text),
            lang,
            builtin.is_test(&path),
        ) {
            copies.push((path.clone(), t));
        }
    }
    copies.extend(respaced_in_change(deltas, tests));
    for d in deltas {
        if let (true, Some(text)) = (d.path.ends_with(".go"), d.old_text.as_deref()) {
            go_texts.insert(d.path.clone(), text.to_string());
        }
    }
    for (drop, acc) in drops.iter().zip(accounted.iter_mut()) {
        if !open(drop, acc) {
            continue;
        }
        let d = deltas[drop.at];
        let from = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            _ => d.path.as_str(),
        };
        // A same-named test of the dropped file's own Go package was another build's.
        let twin = |copy: &str| {
            let (Some(old), Some(other)) = (d.old_text.as_deref(), go_texts.get(copy)) else {
                return false;
            };
            go_twins::one_package((from, old), (copy, other))
        };
        let mut room = acc.owed(drop.lost.unwrap_or(0));
        for t in std::mem::take(&mut acc.left) {
            let hit = copies.iter().position(|(p, c)| {
                !t.body.is_empty() && c.key == t.key && c.body == t.body && !twin(p)
            });
            match hit {
                Some(i) if room > 0 => {
                    acc.kept.push(copies.swap_remove(i).0);
                    room -= 1;
                }
                _ => acc.left.push(t),
            }
        }
    }
}

/// The tests of the files of the change that it only respaced (the same lines, blank
/// lines and whitespace aside, such as a final newline added or dropped): such a file is
/// as unchanged as a neighbour the change did not touch, and a copy of a removed test in
/// it is still there.
fn respaced_in_change(deltas: &[&FileDelta], tests: &TestPaths) -> Vec<(String, Declared)> {
    let builtin = TestPaths::default();
    let code = |text: &str| -> Vec<String> {
        text.lines()
            .map(super::account::normalise)
            .filter(|l| !l.is_empty())
            .collect()
    };
    let mut out = Vec::new();
    for d in deltas {
        if !matches!(d.kind, DeltaKind::Modified | DeltaKind::Renamed { .. }) {
            continue;
        }
        let (Some(old), Some(new)) = (d.old_text.as_deref(), d.new_text.as_deref()) else {
            continue;
        };
        let Some(lang) = Lang::from_path(&d.path) else {
            continue;
        };
        if !tests.is_counted(&d.path) || code(old) != code(new) {
            continue;
        }
        for t in declared(
            &Line::all_of(new),
            Some(new),
            lang,
            builtin.is_test(&d.path),
        ) {
            out.push((d.path.clone(), t));
        }
    }
    out
}

/// A file whose test count rose: room for as many arrivals as it gained.
struct Gain {
    at: usize,
    room: u32,
    /// Tests it gained that are not empty: what a loading file runs more.
    runs: u32,
    tests: Vec<Declared>,
    /// The tests of it that a removed test moved into: (the removed test's file's delta
    /// index, the gained test's naming line). A table one of them became already stands
    /// for that one (see [`folds`]).
    landed: Vec<(usize, String)>,
}

/// Per drop (same order), where its tests went.
fn moved_out(
    deltas: &[&FileDelta],
    new_counts: &[Option<TestCounts>],
    tests: &TestPaths,
    macros: &TestMacros,
    drops: &[Drop],
) -> Vec<Accounted> {
    let builtin = TestPaths::default();
    let mut gains: Vec<Gain> = Vec::new();
    for (j, d) in deltas.iter().enumerate() {
        let Some(lang) = Lang::from_path(&d.path) else {
            continue;
        };
        if !tests.is_counted(&d.path) {
            continue;
        }
        let is_test = builtin.is_test(&d.path);
        let gained = match (&d.kind, new_counts[j], d.old_counts) {
            (DeltaKind::Deleted, _, _) => continue,
            (DeltaKind::Added, _, _) => d
                .new_text
                .as_deref()
                .map_or(0, |t| count_with(lang, t, is_test, macros).tests),
            (_, Some(now), Some(old)) => now.tests.saturating_sub(old.tests),
            _ => 0,
        };
        if gained > 0 {
            let added = turnover(d, &builtin, macros).1;
            let empty = added.iter().filter(|t| t.empty).count() as u32;
            gains.push(Gain {
                at: j,
                room: gained,
                runs: gained.saturating_sub(empty),
                tests: added,
                landed: Vec::new(),
            });
        }
    }
    // Runner files a dropping file loads run their tests there: every test they gained
    // counts for each file that loads them. Their tests run where they are loaded, so they
    // are no destination for a test that left a file which does not load them.
    let loads: Vec<Vec<usize>> = drops
        .iter()
        .map(|drop| {
            let d = deltas[drop.at];
            let Some(text) = d.new_text.as_deref() else {
                return Vec::new();
            };
            gains
                .iter()
                .enumerate()
                .filter(|(_, g)| {
                    g.at != drop.at && imports(&d.path, text.lines(), &deltas[g.at].path)
                })
                .map(|(k, _)| k)
                .collect()
        })
        .collect();
    let runners: Vec<usize> = loads.iter().flatten().copied().collect();
    // The same declaration elsewhere first, for every file of the change, before any test
    // is placed by a likeness: a test that kept its name in another file is that test, and
    // a lookalike of another file's test must not take its place.
    let mut out: Vec<Accounted> = drops.iter().map(|_| Accounted::default()).collect();
    let mut turns: Vec<(Vec<Declared>, Vec<Declared>)> = drops
        .iter()
        .map(|drop| match drop.lost {
            Some(_) => turnover(deltas[drop.at], &builtin, macros),
            None => (Vec::new(), Vec::new()),
        })
        .collect();
    // A test that kept its name in another file of the change whose count fell moved
    // there: that file's count hides one more of its own losses, which it now owes.
    for i in 0..turns.len() {
        let mut gone = std::mem::take(&mut turns[i].0);
        gone.retain(|t| {
            let to = (0..turns.len()).filter(|&j| j != i).find_map(|j| {
                turns[j]
                    .1
                    .iter()
                    .position(|s| s.sig == t.sig)
                    .map(|k| (j, k))
            });
            let Some((j, k)) = to else {
                return true;
            };
            turns[j].1.swap_remove(k);
            out[j].arrived += 1;
            out[i].moved.push(drops[j].at);
            false
        });
        turns[i].0 = gone;
    }
    let mut open: Vec<(u32, Vec<Declared>)> = Vec::with_capacity(drops.len());
    let mut paired: Vec<BTreeSet<String>> = Vec::with_capacity(drops.len());
    for ((drop, acc), (mut gone, stayed)) in drops.iter().zip(out.iter_mut()).zip(turns) {
        let Some(lost) = drop.lost else {
            open.push((0, Vec::new()));
            paired.push(BTreeSet::new());
            continue;
        };
        // A test rewritten inside its own file did not leave it.
        paired.push(pair_off(&mut gone, stayed));
        let mut room = acc.owed(lost);
        let mut left = Vec::new();
        for t in gone {
            if room > 0 {
                if let Some(k) = arrival(&mut gains, drop.at, &runners, |g| g.sig == t.sig) {
                    acc.moved.push(gains[k].at);
                    room -= 1;
                    continue;
                }
            }
            left.push(t);
        }
        open.push((room, left));
    }
    // Then empty tests, tests still run by a test of their file, rewritten bodies.
    let mut receivers: Option<merged::Receivers> = None;
    for ((((drop, loads), acc), (mut room, left)), paired) in drops
        .iter()
        .zip(loads)
        .zip(out.iter_mut())
        .zip(open)
        .zip(paired)
    {
        if drop.lost.is_none() {
            continue;
        }
        let d = deltas[drop.at];
        let mut now: Option<Vec<(Declared, bool)>> = None;
        let mut fresh: Option<Vec<(String, Vec<String>)>> = None;
        let mut used = BTreeSet::new();
        let mut rest = Vec::new();
        for t in left {
            if room > 0 && t.empty {
                acc.empty += 1;
                room -= 1;
                continue;
            }
            let callers = now.get_or_insert_with(|| callers(d, &builtin, &paired));
            let fresh = fresh.get_or_insert_with(|| new_functions(d, &builtin));
            match demoted_and_called(&t, d, callers, fresh) {
                // A new caller stands for the first test it runs.
                Some(c) if callers[c].1 && used.insert(c) => acc.vehicles += 1,
                Some(_) if room > 0 => room -= 1,
                _ => {
                    rest.push(t);
                    continue;
                }
            }
            acc.called += 1;
        }
        let mut unplaced = Vec::new();
        for t in rest {
            // By its name, its declaration rewrapped (`def test_x(app, client)` as `def
            // test_x(app: Flask, client: FlaskClient)`), then by a body that kept most lines.
            let hit = match room {
                0 => None,
                _ => arrival(&mut gains, drop.at, &runners, |g| {
                    test_name(g) == test_name(&t)
                })
                .or_else(|| {
                    arrival(&mut gains, drop.at, &runners, |g| {
                        rewritten(&t.body, &g.body)
                    })
                }),
            };
            match hit {
                Some(k) => {
                    acc.moved.push(gains[k].at);
                    room -= 1;
                }
                None => unplaced.push(t),
            }
        }
        // Then merged into a test that was there and grew with the change.
        let file = d.old_text.as_deref().unwrap_or("");
        for t in unplaced {
            if room > 0 && !t.body.is_empty() {
                let into = receivers.get_or_insert_with(|| merged::receivers(deltas, tests));
                if let Some(r) = into.carrier(&t, file) {
                    acc.merged.push((r.at, r.name.clone()));
                    room -= 1;
                    continue;
                }
            }
            acc.left.push(t);
        }
        for k in loads {
            if room == 0 {
                break;
            }
            let n = gains[k].runs.min(room);
            if n > 0 {
                acc.runners.push((gains[k].at, n));
                room -= n;
            }
        }
    }
    // Last, once every test that kept its declaration or body has found its place.
    for (drop, acc) in drops.iter().zip(out.iter_mut()) {
        let room = drop.lost.map_or(0, |l| acc.owed(l));
        if matches!(deltas[drop.at].kind, DeltaKind::Deleted) && room > 0 {
            replacement(deltas, &mut gains, drop.at, &runners, acc, room);
        }
    }
    let olds = OldTests::new(deltas, macros, drops);
    carried(&olds, &mut gains, &runners, drops, &mut out);
    folds(deltas, tests, macros, &olds, &mut gains, drops, &mut out);
    twins(deltas, tests, macros, &olds, drops, &mut out);
    moved_with_subject(deltas, macros, &olds, &mut gains, &runners, drops, &mut out);
    by_subject(deltas, &olds, &mut gains, &runners, drops, &mut out);
    out
}

/// The tests each dropping file held at the comparison point (by drop, in the order of
/// `drops`), read once, when a pass first asks: the last passes each judge the tests a file
/// has left against all it held.
struct OldTests<'a, 'b> {
    deltas: &'a [&'b FileDelta],
    macros: &'a TestMacros,
    drops: &'a [Drop],
    read: Vec<OnceCell<Vec<Declared>>>,
}

impl<'a, 'b> OldTests<'a, 'b> {
    fn new(deltas: &'a [&'b FileDelta], macros: &'a TestMacros, drops: &'a [Drop]) -> Self {
        OldTests {
            deltas,
            macros,
            drops,
            read: drops.iter().map(|_| OnceCell::new()).collect(),
        }
    }

    /// The tests the file of the `n`th drop held.
    fn of(&self, n: usize) -> &[Declared] {
        self.read[n].get_or_init(|| {
            old_tests(
                self.deltas[self.drops[n].at],
                &TestPaths::default(),
                self.macros,
            )
        })
    }
}

/// Last, a test left of a file named for one subject that a new test of another file,
/// named for that subject, holds by what tied it to it (see [`super::named_subject`]).
/// Each such test takes one of its file's room, as a move does.
fn by_subject(
    deltas: &[&FileDelta],
    olds: &OldTests,
    gains: &mut [Gain],
    runners: &[usize],
    drops: &[Drop],
    accounted: &mut [Accounted],
) {
    let mut unique: Option<Vec<BTreeSet<String>>> = None;
    let mut taken: BTreeSet<(usize, usize)> = BTreeSet::new();
    for (n, (drop, acc)) in drops.iter().zip(accounted.iter_mut()).enumerate() {
        let mut room = drop.lost.map_or(0, |l| acc.owed(l));
        if room == 0 || acc.left.iter().all(|t| t.body.is_empty()) {
            continue;
        }
        let slots: Vec<(usize, usize)> = gains
            .iter()
            .enumerate()
            .flat_map(|(k, g)| (0..g.tests.len()).map(move |i| (k, i)))
            .collect();
        let unique = unique.get_or_insert_with(|| {
            let all: Vec<(&str, &Declared)> = slots
                .iter()
                .map(|&(k, i)| (deltas[gains[k].at].path.as_str(), &gains[k].tests[i]))
                .collect();
            named_subject::unique_words(&all)
        });
        // Only a file the change took away is one whose subject went to a wider file: a
        // kept file still holds its subject, and a test it lost went nowhere by its name.
        let d = deltas[drop.at];
        let old_path = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            DeltaKind::Deleted => d.path.as_str(),
            _ => continue,
        };
        let before = olds.of(n);
        let old = d.old_text.as_deref().unwrap_or("");
        for t in std::mem::take(&mut acc.left) {
            let open: Vec<usize> = (0..slots.len())
                .filter(|&n| {
                    let (k, _) = slots[n];
                    room > 0
                        && gains[k].at != drop.at
                        && gains[k].room > 0
                        && !runners.contains(&k)
                        && !taken.contains(&slots[n])
                })
                .collect();
            let list: Vec<named_subject::Candidate> = open
                .iter()
                .map(|&n| {
                    let (k, i) = slots[n];
                    named_subject::Candidate {
                        path: deltas[gains[k].at].path.as_str(),
                        test: &gains[k].tests[i],
                        unique: unique[n].clone(),
                    }
                })
                .collect();
            let fixture = named_subject::fixture_words(old, before, &t);
            match named_subject::carrier_by_subject(&t, &fixture, old_path, &list) {
                Some(h) => {
                    let (k, i) = slots[open[h]];
                    acc.carried
                        .push((gains[k].at, folded::shown(&gains[k].tests[i])));
                    taken.insert((k, i));
                    gains[k].room -= 1;
                    room -= 1;
                }
                None => acc.left.push(t),
            }
        }
    }
}

/// Last, a test left that moved to another file with its subject and was rewritten there
/// (see [`super::moved_along`]). The most constrained test is placed first, so that a
/// test only one new test can carry is not left without it.
fn moved_with_subject(
    deltas: &[&FileDelta],
    macros: &TestMacros,
    olds: &OldTests,
    gains: &mut [Gain],
    runners: &[usize],
    drops: &[Drop],
    accounted: &mut [Accounted],
) {
    for (n, (drop, acc)) in drops.iter().zip(accounted.iter_mut()).enumerate() {
        let mut room = drop.lost.map_or(0, |l| acc.owed(l));
        if room == 0 || acc.left.iter().all(|t| t.body.is_empty()) {
            continue;
        }
        let ev = moved_along::Evidence {
            imports_left: moved_along::imports_left(deltas[drop.at]),
            imports_gained: deltas
                .iter()
                .map(|d| moved_along::imports_gained(d))
                .collect(),
            siblings_in: acc
                .moved
                .iter()
                .copied()
                .chain(acc.carried.iter().map(|c| c.0))
                .chain(acc.merged.iter().map(|m| m.0))
                .collect(),
        };
        let tallied = Before::new(olds.of(n));
        // Every test of each file after the change, those that moved there by name among
        // them: what the new test's neighbours use is no sign of where it came from.
        let after: Vec<Vec<Declared>> = deltas
            .iter()
            .map(|d| new_tests(d, &TestPaths::default(), macros))
            .collect();
        let fits = |t: &Declared, gains: &[Gain]| -> Vec<(usize, usize)> {
            let own: BTreeSet<String> = tallied
                .own_by(t, Share::Words)
                .into_iter()
                .filter(|w| w.starts_with('"'))
                .collect();
            let mut out = Vec::new();
            for (k, g) in gains.iter().enumerate() {
                if g.at == drop.at || g.room == 0 || runners.contains(&k) {
                    continue;
                }
                let path = &deltas[g.at].path;
                let peers = &after[g.at];
                for (i, c) in g.tests.iter().enumerate() {
                    if !c.empty && moved_along::carries(t, &own, c, peers, path, g.at, &ev) {
                        out.push((k, i));
                    }
                }
            }
            out
        };
        let mut left: Vec<(usize, Declared)> = std::mem::take(&mut acc.left)
            .into_iter()
            .map(|t| (fits(&t, gains).len(), t))
            .collect();
        left.sort_by_key(|(n, _)| *n);
        for (_, t) in left {
            let hit = match room {
                0 => None,
                _ => fits(&t, gains).into_iter().next(),
            };
            let Some((k, i)) = hit else {
                acc.left.push(t);
                continue;
            };
            let c = gains[k].tests.remove(i);
            gains[k].room -= 1;
            acc.carried.push((gains[k].at, folded::shown(&c)));
            room -= 1;
        }
    }
}

/// Last of all, a test left that moved by its name into a file whose own test of the same
/// check was renamed to it there: two twins made one (see [`super::twins`]).
fn twins(
    deltas: &[&FileDelta],
    tests: &TestPaths,
    macros: &TestMacros,
    olds: &OldTests,
    drops: &[Drop],
    accounted: &mut [Accounted],
) {
    let builtin = TestPaths::default();
    let mut renamed: Option<Vec<twins::Renamed>> = None;
    let mut used: Vec<usize> = Vec::new();
    for (n, (drop, acc)) in drops.iter().zip(accounted.iter_mut()).enumerate() {
        let mut room = drop.lost.map_or(0, |l| acc.owed(l));
        if room == 0 || acc.left.is_empty() {
            continue;
        }
        let renamed = renamed.get_or_insert_with(|| {
            let mut out = Vec::new();
            for (j, d) in deltas.iter().enumerate() {
                if matches!(d.kind, DeltaKind::Deleted | DeltaKind::Added)
                    || !tests.is_counted(&d.path)
                {
                    continue;
                }
                let (gone, arrived) = turnover(d, &builtin, macros);
                out.extend(twins::renamed_in(j, &gone, &arrived));
            }
            out
        });
        if renamed.is_empty() {
            return;
        }
        let tallied = Before::new(olds.of(n));
        for t in std::mem::take(&mut acc.left) {
            let hit = match room {
                0 => None,
                _ => twins::twin_of(&t, &tallied, drop.at, renamed, &used),
            };
            match hit {
                Some(k) => {
                    used.push(k);
                    acc.twins
                        .push((renamed[k].at, folded::shown(&renamed[k].test)));
                    room -= 1;
                }
                None => acc.left.push(t),
            }
        }
    }
}

/// Last, the tests left that are rows of a table the change wrote (see [`super::folded`]).
/// A new table stands in the count for one of the tests it folds: in its own file the
/// fall already says so, in another file it takes one of that file's room, as a move does.
fn folds(
    deltas: &[&FileDelta],
    tests: &TestPaths,
    macros: &TestMacros,
    olds: &OldTests,
    gains: &mut [Gain],
    drops: &[Drop],
    accounted: &mut [Accounted],
) {
    let builtin = TestPaths::default();
    let mut tables: Option<Vec<folded::Table>> = None;
    for (n, (drop, acc)) in drops.iter().zip(accounted.iter_mut()).enumerate() {
        let mut room = drop.lost.map_or(0, |l| acc.owed(l));
        if room == 0 || acc.left.iter().all(|t| t.body.is_empty()) {
            continue;
        }
        let tables = tables.get_or_insert_with(|| folded::tables(deltas, tests, macros));
        if tables.is_empty() {
            return;
        }
        let d = deltas[drop.at];
        let (gone, stayed) = turnover(d, &builtin, macros);
        let stands = pair_off(&mut gone.clone(), stayed);
        let tallied = Before::new(olds.of(n));
        let mut order: Vec<usize> = (0..tables.len()).collect();
        order.sort_by_key(|&k| tables[k].at != drop.at);
        let mut by: BTreeMap<usize, u32> = BTreeMap::new();
        let mut rest = Vec::new();
        for t in std::mem::take(&mut acc.left) {
            let hit = (!t.body.is_empty())
                .then(|| {
                    let own = tallied.own_by(&t, Share::Parts);
                    order.iter().copied().find(|&k| {
                        let table = &tables[k];
                        folded::carries(&t, &own, table, table.at == drop.at)
                    })
                })
                .flatten();
            match hit {
                Some(k) => *by.entry(k).or_default() += 1,
                None => rest.push(t),
            }
        }
        for (k, mut n) in by {
            let table = &tables[k];
            acc.tables.push((table.at, table.name.clone(), n));
            if table.new && !(table.at == drop.at && stands.contains(&table.sig)) {
                // A table that a test of this file already moved into by its name or
                // body stands for that test, which it folds too: it takes no more room.
                let landed = gains
                    .iter()
                    .any(|g| g.at == table.at && g.landed.contains(&(drop.at, table.sig.clone())));
                let slot = gains.iter_mut().find(|g| {
                    g.at == table.at
                        && g.at != drop.at
                        && g.room > 0
                        && g.tests.iter().any(|t| t.sig == table.sig)
                });
                match slot {
                    Some(g) => {
                        g.room -= 1;
                        if let Some(i) = g.tests.iter().position(|t| t.sig == table.sig) {
                            g.tests.remove(i);
                        }
                    }
                    None if landed => {}
                    None => n -= 1,
                }
            }
            let n = n.min(room);
            room -= n;
            acc.folded += n;
        }
        acc.left = rest;
    }
}

/// The tests of `d`'s file as it is now, that run (not empty): what may call a test
/// demoted to a plain function; each with whether it is new (no test of that name was
/// there before, and none it stands for already: `paired`, the rewrites of removed tests).
pub(super) fn callers(
    d: &FileDelta,
    builtin: &TestPaths,
    paired: &BTreeSet<String>,
) -> Vec<(Declared, bool)> {
    let (Some(text), Some(lang)) = (d.new_text.as_deref(), Lang::from_path(&d.path)) else {
        return Vec::new();
    };
    let old_path = match &d.kind {
        DeltaKind::Renamed { from } => from.as_str(),
        _ => d.path.as_str(),
    };
    let before: BTreeSet<String> = match (d.old_text.as_deref(), Lang::from_path(old_path)) {
        (Some(old), Some(old_lang)) => declared(
            &Line::all_of(old),
            Some(old),
            old_lang,
            builtin.is_test(old_path),
        )
        .into_iter()
        .map(|t| t.sig)
        .collect(),
        _ => BTreeSet::new(),
    };
    declared(
        &Line::all_of(text),
        Some(text),
        lang,
        builtin.is_test(&d.path),
    )
    .into_iter()
    .filter(|t| !t.empty)
    .map(|t| {
        let new = !before.contains(&t.sig) && !paired.contains(&t.sig);
        (t, new)
    })
    .collect()
}

/// The name a declaration line gives, `line` whitespace-normalised: the word before its
/// first `(`, after keywords or a type, with a body opened after it (`fn reload() {`,
/// `public void reload() {`, `def reload(self):`). A test declared by a call
/// (`it('x', ...)`) or a statement (`Reader r = new Reader("a");`) names none.
fn declared_name(line: &str) -> Option<&str> {
    let (head, _) = line.split_once('(')?;
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let head = head.trim_end();
    let name = head.rsplit(|c: char| !word(c)).next().unwrap_or("");
    let before = head[..head.len() - name.len()].trim();
    let declares = before.ends_with(word)
        && before.chars().all(|c| {
            word(c) || c.is_whitespace() || matches!(c, '<' | '>' | '[' | ']' | ',' | '?')
        })
        && line.trim_end().ends_with(['{', ':']);
    (!name.is_empty() && declares).then_some(name)
}

/// Whether `line` calls the function `name`.
fn calls(line: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    line.match_indices(name).any(|(at, _)| {
        !line[..at].ends_with(word) && line[at + name.len()..].trim_start().starts_with('(')
    })
}

/// The plain functions the change declared anew in `d`'s file (no line of the old text
/// declares them, whitespace aside; no test either): each name with its body. A test
/// demoted under a new name is one of them.
pub(super) fn new_functions(d: &FileDelta, builtin: &TestPaths) -> Vec<(String, Vec<String>)> {
    let (Some(text), Some(lang)) = (d.new_text.as_deref(), Lang::from_path(&d.path)) else {
        return Vec::new();
    };
    let compact = |l: &str| l.split_whitespace().collect::<String>();
    let old: BTreeSet<String> = d
        .old_text
        .as_deref()
        .unwrap_or("")
        .lines()
        .map(compact)
        .collect();
    let tests: BTreeSet<String> = declared(
        &Line::all_of(text),
        Some(text),
        lang,
        builtin.is_test(&d.path),
    )
    .into_iter()
    .map(|t| t.sig)
    .collect();
    let mut at = Vec::new();
    let mut names = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let sig = compact(line);
        if old.contains(&sig) || tests.contains(&sig) {
            continue;
        }
        if let Some(name) = declared_name(&super::account::normalise(line)) {
            at.push(i);
            names.push(name.to_string());
        }
    }
    names.into_iter().zip(bodies_at(text, lang, &at)).collect()
}

/// Whether the removed test `t` still runs as a plain function of its file (its `#[test]`
/// or `@Test` moved away) that a test of the file calls by name: still declared word for
/// word, or declared anew under another name (`fn line_numbers()` as `fn
/// test_line_numbers(state: &State)`) with its body: more than half of `t`'s saying lines,
/// and at least two, are in that function and the test that calls it (a wrapper such as a
/// `#[cfg(..)]` block may move to the caller), at least two of them in the function
/// itself. The index of the caller.
pub(super) fn demoted_and_called(
    t: &Declared,
    d: &FileDelta,
    callers: &[(Declared, bool)],
    fresh: &[(String, Vec<String>)],
) -> Option<usize> {
    let text = d.new_text.as_deref()?;
    let named = t.key.rsplit(" / ").next().unwrap_or(&t.key);
    let name = declared_name(named)?;
    let still = text
        .lines()
        .any(|l| l.split_whitespace().collect::<String>() == t.sig);
    if still {
        return callers
            .iter()
            .position(|(c, _)| c.body.iter().any(|l| calls(l, name)));
    }
    fresh.iter().find_map(|(name, body)| {
        let own = t.body.iter().filter(|l| body.contains(l)).count();
        if own < 2 {
            return None;
        }
        callers.iter().position(|(c, _)| {
            let both: Vec<String> = body.iter().chain(&c.body).cloned().collect();
            c.body.iter().any(|l| calls(l, name)) && rewritten(&t.body, &both)
        })
    })
}

/// Last, a removed test nothing else accounts for that a new test of another file, whose
/// count rose, holds by the words of its body (see [`super::hidden::carrier`]): renamed and
/// reworded as it moved. Each such test takes one of its file's room, as a move does.
fn carried(
    olds: &OldTests,
    gains: &mut [Gain],
    runners: &[usize],
    drops: &[Drop],
    accounted: &mut [Accounted],
) {
    for (n, (drop, acc)) in drops.iter().zip(accounted.iter_mut()).enumerate() {
        let mut room = drop.lost.map_or(0, |l| acc.owed(l));
        if room == 0 || acc.left.iter().all(|t| t.body.is_empty()) {
            continue;
        }
        // The new tests of the other gaining files, each with its gain and place there.
        let mut slots: Vec<(usize, usize)> = Vec::new();
        let mut added: Vec<(usize, Declared)> = Vec::new();
        for (k, g) in gains.iter().enumerate() {
            if g.at == drop.at || g.room == 0 || runners.contains(&k) {
                continue;
            }
            for (i, t) in g.tests.iter().enumerate() {
                slots.push((k, i));
                added.push((g.at, t.clone()));
            }
        }
        if added.is_empty() {
            continue;
        }
        let mut list = arrivals(&added);
        let tallied = Before::new(olds.of(n));
        let mut taken: Vec<(usize, usize)> = Vec::new();
        for t in std::mem::take(&mut acc.left) {
            let hit = match room {
                0 => None,
                _ => carrier(&t, &tallied, &list, Reach::Moved { from: drop.at }),
            };
            let Some(h) = hit else {
                acc.left.push(t);
                continue;
            };
            let (k, i) = slots[h];
            acc.carried.push((list[h].at, list[h].name.clone()));
            room -= 1;
            taken.push((k, i));
            gains[k].room -= 1;
            // That test is taken, and a file with no room left takes no more.
            let full = gains[k].room == 0;
            let kept: Vec<((usize, usize), Carrier)> = std::mem::take(&mut slots)
                .into_iter()
                .zip(std::mem::take(&mut list))
                .enumerate()
                .filter(|(n, (slot, _))| *n != h && !(full && slot.0 == k))
                .map(|(_, pair)| pair)
                .collect();
            (slots, list) = kept.into_iter().unzip();
        }
        // Each carrier stands for one removed test: it is no destination any more.
        taken.sort_unstable_by(|a, b| b.cmp(a));
        for (k, i) in taken {
            gains[k].tests.remove(i);
        }
    }
}

/// The tests of `d`'s file at the comparison point.
fn old_tests(d: &FileDelta, builtin: &TestPaths, macros: &TestMacros) -> Vec<Declared> {
    let old_path = match &d.kind {
        DeltaKind::Renamed { from } => from.as_str(),
        _ => d.path.as_str(),
    };
    match (d.old_text.as_deref(), Lang::from_path(old_path)) {
        (Some(old), Some(lang)) => declared_with(
            &Line::all_of(old),
            Some(old),
            lang,
            builtin.is_test(old_path),
            macros,
        ),
        _ => Vec::new(),
    }
}

/// The tests of `d`'s file after the change.
fn new_tests(d: &FileDelta, builtin: &TestPaths, macros: &TestMacros) -> Vec<Declared> {
    match (d.new_text.as_deref(), Lang::from_path(&d.path)) {
        (Some(new), Some(lang)) => declared_with(
            &Line::all_of(new),
            Some(new),
            lang,
            builtin.is_test(&d.path),
            macros,
        ),
        _ => Vec::new(),
    }
}

/// A deleted test file whose tests were written anew in a test file the change adds about
/// the same thing (`OSGiTest` replaced by `OSGiManifestIT`, `test/x_test.rb` by
/// `spec/x_spec.rb`), or the same file moved into another part of the tree (see
/// [`super::test_moves::moved_across`]): the rename git misses because no body survived. As when a file's
/// tests are rewritten in place, the count is what is held: the new file's tests, beyond
/// those that arrived from elsewhere, stand for the tests this file lost.
fn replacement(
    deltas: &[&FileDelta],
    gains: &mut [Gain],
    from: usize,
    runners: &[usize],
    acc: &mut Accounted,
    room: u32,
) {
    let old = &deltas[from].path;
    for (k, g) in gains.iter_mut().enumerate() {
        let new = deltas[g.at];
        if g.at == from
            || g.room == 0
            || runners.contains(&k)
            || !matches!(new.kind, DeltaKind::Added)
            || !(replaces(&new.path, old) || moved_across(&new.path, old))
        {
            continue;
        }
        // Counted, not declared: a test the count knows but no declaration shows (one of a
        // `quickcheck!` block) is replaced as much as any.
        let n = g.room.min(room);
        g.room -= n;
        g.tests.truncate(g.tests.len().saturating_sub(n as usize));
        acc.left.drain(..acc.left.len().min(n as usize));
        acc.replaced_by = Some((g.at, n));
        return;
    }
}

/// The tests that left the file of `d` and the tests that arrived in it. When both texts
/// are known, they are the tests of the old text without a same-declared one in the new
/// text, and the other way round: a diff that keeps one test's `#[test]` or `@Test` line
/// as context for another's (the lines are alike) would show the removed test with no
/// declaration of its own, and the kept one as removed. Otherwise, the tests declared on
/// the removed and added lines; with no removed line known, none left.
pub(super) fn turnover(
    d: &FileDelta,
    builtin: &TestPaths,
    macros: &TestMacros,
) -> (Vec<Declared>, Vec<Declared>) {
    let old_path = match &d.kind {
        DeltaKind::Renamed { from } => from.as_str(),
        _ => d.path.as_str(),
    };
    let tests = |lines: &[Line], text: Option<&str>, path: &str| match Lang::from_path(path) {
        Some(lang) => declared_with(lines, text, lang, builtin.is_test(path), macros),
        None => Vec::new(),
    };
    let (Some(old), Some(new)) = (d.old_text.as_deref(), d.new_text.as_deref()) else {
        return (
            tests(&d.removed_lines, d.old_text.as_deref(), old_path),
            tests(&d.added_lines, d.new_text.as_deref(), &d.path),
        );
    };
    let mut gone = Vec::new();
    let mut arrived = Vec::new();
    if !d.removed_lines.is_empty() || !d.added_lines.is_empty() {
        gone = tests(&Line::all_of(old), Some(old), old_path);
        arrived = tests(&Line::all_of(new), Some(new), &d.path);
    }
    same_tests(&mut gone, &mut arrived);
    // Nothing removed, nothing left; nothing added, nothing arrived.
    if d.removed_lines.is_empty() {
        gone.clear();
    }
    if d.added_lines.is_empty() {
        arrived.clear();
    }
    (gone, arrived)
}

/// Take the first test of a gaining file (other than `from` and the runners) that `fits`,
/// using one of that file's room; the index of the gain.
fn arrival(
    gains: &mut [Gain],
    from: usize,
    runners: &[usize],
    fits: impl Fn(&Declared) -> bool,
) -> Option<usize> {
    for (k, g) in gains.iter_mut().enumerate() {
        if g.at == from || g.room == 0 || runners.contains(&k) {
            continue;
        }
        if let Some(i) = g.tests.iter().position(&fits) {
            let t = g.tests.swap_remove(i);
            g.landed.push((from, t.sig));
            g.room -= 1;
            return Some(k);
        }
    }
    None
}

/// Drop from `gone` each test that pairs with one of `stayed` (each used once): first by
/// declaration, then by a rewritten body. The declarations of the tests of `stayed` so
/// used: each stands for a removed test already.
fn pair_off(gone: &mut Vec<Declared>, mut stayed: Vec<Declared>) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    // By likeness, tests that ran are paired first: a removed test switched off where it
    // was declared (`skip('x', ..)`, `it.skip`) whose body resembles a kept test's must not
    // take that test's place, leaving the kept test's old declaration to look deleted.
    for (exact, empty) in [(true, None), (false, Some(false)), (false, Some(true))] {
        gone.retain(|t| {
            if empty.is_some_and(|e| e != t.empty) {
                return true;
            }
            let hit = stayed.iter().position(|s| {
                if exact {
                    t.sig == s.sig
                } else {
                    rewritten(&t.body, &s.body)
                }
            });
            match hit {
                Some(i) => {
                    used.insert(stayed.swap_remove(i).sig);
                    false
                }
                None => true,
            }
        });
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::count_tests;

    fn delta(path: &str, kind: DeltaKind, old: Option<&str>, new: Option<&str>) -> FileDelta {
        let (added, removed) = match (old, new) {
            (Some(o), Some(n)) => {
                let (a, r) = crate::comparison::line_changes(o, n);
                let f = |v: Vec<(u32, String)>| {
                    v.into_iter()
                        .map(|(number, text)| Line { number, text })
                        .collect()
                };
                (f(a), f(r))
            }
            (None, Some(n)) => (Line::all_of(n), Vec::new()),
            (Some(o), None) => (Vec::new(), Line::all_of(o)),
            (None, None) => (Vec::new(), Vec::new()),
        };
        FileDelta {
            path: path.into(),
            kind,
            added_lines: added,
            removed_lines: removed,
            old_counts: old.map(|o| count_tests(path, o)),
            old_text: old.map(String::from),
            new_text: new.map(String::from),
        }
    }

    fn run(deltas: &[FileDelta]) -> Vec<Finding> {
        run_near(deltas, &[])
    }

    fn run_near(deltas: &[FileDelta], files: &[(&str, &str)]) -> Vec<Finding> {
        let near = |dirs: &[String]| -> Vec<(String, String)> {
            files
                .iter()
                .filter(|(p, _)| {
                    dirs.iter()
                        .any(|d| p.rsplit_once('/').map(|x| x.0) == Some(d))
                })
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect()
        };
        let refs: Vec<&FileDelta> = deltas.iter().collect();
        let counts: Vec<Option<TestCounts>> = deltas
            .iter()
            .map(|d| {
                let new = d.new_text.as_deref()?;
                d.old_counts?;
                Some(count_tests(&d.path, new))
            })
            .collect();
        deleted_tests(
            &refs,
            &counts,
            &TestPaths::default(),
            &TestMacros::default(),
            &near,
        )
    }

    const AB: &str = "def test_a():\n    assert 1\n\ndef test_b():\n    assert 2\n";
    const A: &str = "def test_a():\n    assert 1\n";
    const B: &str = "def test_b():\n    assert 2\n";

    #[test]
    fn a_test_moved_to_another_file_of_the_change_is_not_deleted() {
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A)),
            delta("tests/test_b.py", DeltaKind::Added, None, Some(B)),
        ]);
        assert!(found.is_empty(), "{found:#?}");
        // A whole file split in two, neither half like enough to be its rename.
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Deleted, Some(AB), None),
            delta("tests/test_a.py", DeltaKind::Added, None, Some(A)),
            delta("tests/test_b.py", DeltaKind::Added, None, Some(B)),
        ]);
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn a_test_deleted_while_another_is_written_elsewhere_is_still_deleted() {
        let other = "def test_trivial():\n    assert True\n";
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A)),
            delta("tests/test_c.py", DeltaKind::Added, None, Some(other)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("dropped from 2 to 1"),
            "{found:#?}"
        );
    }

    #[test]
    fn a_move_into_a_file_that_lost_as_many_is_no_cover() {
        // test_b moved into test_cd.py, which dropped test_d: the change lost a test.
        let cd = "def test_c():\n    pass\n\ndef test_d():\n    pass\n";
        let cb = "def test_c():\n    pass\n\ndef test_b():\n    assert 2\n";
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A)),
            delta("tests/test_cd.py", DeltaKind::Modified, Some(cd), Some(cb)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].path, "tests/test_ab.py");
    }

    #[test]
    fn part_moved_part_deleted_reports_the_rest_and_where_the_others_went() {
        let abc = format!("{AB}\ndef test_c():\n    pass\n");
        let found = run(&[
            delta("tests/test_abc.py", DeltaKind::Deleted, Some(&abc), None),
            delta("tests/test_a.py", DeltaKind::Added, None, Some(A)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0]
                .message
                .contains("deleted with 3 tests (1 moved to `tests/test_a.py`)"),
            "{found:#?}"
        );
    }

    #[test]
    fn attribute_declared_tests_are_known_by_the_line_they_decorate() {
        // Bodies that run something: an empty Rust test checked nothing (see `bare`).
        let old = "#[test]\nfn keeps() {\n    assert!(a());\n}\n\n#[test]\nfn important() {\n    assert!(b());\n}\n";
        let kept = "#[test]\nfn keeps() {\n    assert!(a());\n}\n";
        let moved = "#[test]\nfn important() {\n    assert!(b());\n}\n";
        let other = "#[test]\nfn trivial() {\n    assert!(c());\n}\n";
        assert!(run(&[
            delta("src/a.rs", DeltaKind::Modified, Some(old), Some(kept)),
            delta("src/b.rs", DeltaKind::Added, None, Some(moved)),
        ])
        .is_empty());
        assert_eq!(
            run(&[
                delta("src/a.rs", DeltaKind::Modified, Some(old), Some(kept)),
                delta("src/b.rs", DeltaKind::Added, None, Some(other)),
            ])
            .len(),
            1
        );
    }

    const LOGGER: &str = "def test_runner_logger():\n    logger = logging.getLogger(__name__)\n    runner = CliRunner()\n    result = runner.invoke(hello, input=\"Peter\")\n    assert result.exit_code == 0\n    assert result.output == \"Your name: Peter\\n\"\n";

    #[test]
    fn a_test_renamed_as_it_moved_is_known_by_its_body() {
        // Renamed and its last assertion loosened: four of its five lines went with it.
        let moved = "def test_invoke_with_logger_and_prompt():\n    logger = logging.getLogger(__name__)\n    runner = CliRunner()\n    result = runner.invoke(hello, input=\"Peter\")\n    assert result.exit_code == 0\n    assert \"Your name:\" in result.output\n";
        let found = run(&[
            delta(
                "tests/test_logging.py",
                DeltaKind::Deleted,
                Some(LOGGER),
                None,
            ),
            delta("tests/test_streams.py", DeltaKind::Added, None, Some(moved)),
        ]);
        assert!(found.is_empty(), "{found:#?}");
        // The same within one file: renamed in place, and another test deleted.
        let two = format!("{LOGGER}\n{B}");
        let found = run(&[delta(
            "tests/test_logging.py",
            DeltaKind::Modified,
            Some(&two),
            Some(moved),
        )]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("dropped from 2 to 1"),
            "{found:#?}"
        );
    }

    #[test]
    fn a_new_test_that_shares_only_boilerplate_is_no_cover() {
        let other = "def test_exit_code():\n    runner = CliRunner()\n    result = runner.invoke(bye)\n    assert result.exit_code == 0\n    assert result.output == \"bye\\n\"\n";
        let found = run(&[
            delta(
                "tests/test_logging.py",
                DeltaKind::Deleted,
                Some(LOGGER),
                None,
            ),
            delta("tests/test_streams.py", DeltaKind::Added, None, Some(other)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("deleted with 1 test:"),
            "{found:#?}"
        );
    }

    const ROUTER: &str = "import { Router } from './router'\n\ndescribe('match', () => {\n  it('finds /hello', () => {\n    expect(new Router().match('/hello')).toBe(1)\n  })\n  it('finds /bye', () => {\n    expect(new Router().match('/bye')).toBe(2)\n  })\n})\n";
    const CALLER: &str = "import { runTest } from '../common.case.test'\nimport { Router } from './router'\n\nrunTest({ newRouter: () => new Router() })\n";
    const RUNNER: &str = "export const runTest = ({ newRouter }) => {\n  describe('match', () => {\n    it('finds /hello', () => {\n      expect(newRouter().match('/hello')).toBe(1)\n    })\n    it('finds /bye', () => {\n      expect(newRouter().match('/bye')).toBe(2)\n    })\n  })\n}\n";

    #[test]
    fn tests_moved_into_a_shared_runner_run_in_every_file_that_loads_it() {
        let found = run(&[
            delta(
                "src/router/a/router.test.ts",
                DeltaKind::Modified,
                Some(ROUTER),
                Some(CALLER),
            ),
            delta(
                "src/router/b/router.test.ts",
                DeltaKind::Modified,
                Some(ROUTER),
                Some(CALLER),
            ),
            delta(
                "src/router/common.case.test.ts",
                DeltaKind::Added,
                None,
                Some(RUNNER),
            ),
        ]);
        assert!(found.is_empty(), "{found:#?}");
    }

    #[test]
    fn a_runner_the_file_does_not_load_or_that_runs_fewer_is_no_cover() {
        // The runner is written, but this file no longer runs anything.
        let alone = "import { Router } from './router'\n";
        let found = run(&[
            delta(
                "src/router/a/router.test.ts",
                DeltaKind::Modified,
                Some(ROUTER),
                Some(alone),
            ),
            delta(
                "src/router/b/router.test.ts",
                DeltaKind::Modified,
                Some(ROUTER),
                Some(CALLER),
            ),
            delta(
                "src/router/common.case.test.ts",
                DeltaKind::Added,
                None,
                Some(RUNNER),
            ),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(found[0].path, "src/router/a/router.test.ts");
        // The runner holds one of the two tests: one is lost.
        let one = RUNNER.replace("    it('finds /bye', () => {\n      expect(newRouter().match('/bye')).toBe(2)\n    })\n", "");
        let found = run(&[
            delta(
                "src/router/a/router.test.ts",
                DeltaKind::Modified,
                Some(ROUTER),
                Some(CALLER),
            ),
            delta(
                "src/router/common.case.test.ts",
                DeltaKind::Added,
                None,
                Some(&one),
            ),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("dropped from 2 to 0 (1 run through `src/router/common.case.test.ts`, which it loads)"),
            "{found:#?}"
        );
    }

    #[test]
    fn an_empty_test_removed_loses_nothing_but_a_one_line_test_is_a_test() {
        let with = "it.skip('this file only exports test runners.', () => {})\n\nexport const run = () => {}\n";
        let without = "export const run = () => {}\n";
        assert!(run(&[delta(
            "src/common.test.ts",
            DeltaKind::Modified,
            Some(with),
            Some(without)
        )])
        .is_empty());
        let one_line =
            "it('adds', () => expect(add(1, 1)).toBe(2))\n\nexport const run = () => {}\n";
        let found = run(&[delta(
            "src/common.test.ts",
            DeltaKind::Modified,
            Some(one_line),
            Some(without),
        )]);
        assert_eq!(found.len(), 1, "{found:#?}");
    }

    #[test]
    fn a_removed_copy_of_a_test_still_in_a_neighbour_is_not_deleted() {
        // test_b was copied to test_b.py by an earlier change; this one drops the original.
        let change = [delta(
            "tests/test_ab.py",
            DeltaKind::Modified,
            Some(AB),
            Some(A),
        )];
        assert!(run_near(&change, &[("tests/test_b.py", B)]).is_empty());
        // Only a neighbour: the same test further away is not looked for.
        assert_eq!(run_near(&change, &[("other/test_b.py", B)]).len(), 1);
    }

    #[test]
    fn a_neighbour_with_the_same_name_but_another_body_does_not_cover() {
        let change = [delta(
            "tests/test_ab.py",
            DeltaKind::Modified,
            Some(AB),
            Some(A),
        )];
        let other = "def test_b():\n    assert 3\n";
        let found = run_near(&change, &[("tests/test_b.py", other)]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("dropped from 2 to 1:"),
            "{found:#?}"
        );
        // A file of the change is read from the change, never as a neighbour.
        let found = run_near(
            &[
                delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A)),
                delta("tests/test_b.py", DeltaKind::Deleted, Some(B), None),
            ],
            &[("tests/test_b.py", B)],
        );
        assert_eq!(found.len(), 2, "{found:#?}");
    }

    const OSGI_OLD: &str = "public class OSGiTest {\n  @Test\n  public void testAnnotationsPackage() throws Exception {\n    Manifest mf = findManifest(\"gson\");\n    assertThat(mf.imports()).doesNotContain(\"annotations\");\n  }\n\n  @Test\n  public void testSunMisc() throws Exception {\n    Manifest mf = findManifest(\"gson\");\n    assertThat(mf.imports()).contains(\"sun.misc\");\n  }\n}\n";
    const OSGI_NEW: &str = "public class OSGiManifestIT {\n  @Test\n  public void testBundle() {\n    assertThat(attribute(\"Bundle-Name\")).isEqualTo(\"Gson\");\n  }\n\n  @Test\n  public void testImports() {\n    assertThat(imports()).containsExactly(\"sun.misc\");\n  }\n\n  @Test\n  public void testExports() {\n    assertThat(exports()).hasSize(4);\n  }\n}\n";
    const TEST_DIR: &str = "gson/src/test/java/com/google/gson";

    #[test]
    fn a_deleted_test_file_written_anew_under_a_longer_name_is_replaced_not_deleted() {
        // No body survived, so git sees no rename; the new file is about the same thing.
        let found = run(&[
            delta(
                &format!("{TEST_DIR}/regression/OSGiTest.java"),
                DeltaKind::Deleted,
                Some(OSGI_OLD),
                None,
            ),
            delta(
                &format!("{TEST_DIR}/integration/OSGiManifestIT.java"),
                DeltaKind::Added,
                None,
                Some(OSGI_NEW),
            ),
        ]);
        assert!(found.is_empty(), "{found:#?}");
        // Ported to the other runner's layout: `test/x_test.rb` as `spec/x_spec.rb`.
        let minitest = "describe 'content_for' do\n  it 'renders a block' do\n    assert_equal 'foo', body\n  end\nend\n";
        let rspec = "describe Sinatra::ContentFor do\n  it 'renders the block for its key' do\n    expect(body).to eq 'foo'\n  end\nend\n";
        assert!(run(&[
            delta(
                "contrib/test/content_for_test.rb",
                DeltaKind::Deleted,
                Some(minitest),
                None
            ),
            delta(
                "contrib/spec/content_for_spec.rb",
                DeltaKind::Added,
                None,
                Some(rspec)
            ),
        ])
        .is_empty());
    }

    #[test]
    fn a_replacement_holds_only_as_many_as_it_has_and_only_for_its_own_subject() {
        let one = "public class OSGiManifestIT {\n  @Test\n  public void testBundle() {\n    assertThat(attribute(\"Bundle-Name\")).isEqualTo(\"Gson\");\n  }\n}\n";
        let found = run(&[
            delta(
                &format!("{TEST_DIR}/OSGiTest.java"),
                DeltaKind::Deleted,
                Some(OSGI_OLD),
                None,
            ),
            delta(
                &format!("{TEST_DIR}/OSGiManifestIT.java"),
                DeltaKind::Added,
                None,
                Some(one),
            ),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains(&format!(
                "deleted with 2 tests (1 written anew in `{TEST_DIR}/OSGiManifestIT.java`, which replaces it)"
            )),
            "{found:#?}"
        );
        // Another subject (`Username` is not `User` continued), a far directory, or a file
        // that still exists: a deletion beside an unrelated new test file.
        for (old, new) in [
            ("src/test/UserTest.java", "src/test/UsernameTest.java"),
            ("src/test/UserTest.java", "src/test/OrderTest.java"),
            (
                "core/src/test/java/OSGiTest.java",
                "tools/src/test/java/OSGiManifestIT.java",
            ),
        ] {
            let found = run(&[
                delta(old, DeltaKind::Deleted, Some(OSGI_OLD), None),
                delta(new, DeltaKind::Added, None, Some(OSGI_NEW)),
            ]);
            assert_eq!(found.len(), 1, "{old} -> {new}: {found:#?}");
        }
        let kept_one = "public class OSGiTest {\n  @Test\n  public void testSunMisc() throws Exception {\n    Manifest mf = findManifest(\"gson\");\n    assertThat(mf.imports()).contains(\"sun.misc\");\n  }\n}\n";
        let found = run(&[
            delta(
                &format!("{TEST_DIR}/OSGiTest.java"),
                DeltaKind::Modified,
                Some(OSGI_OLD),
                Some(kept_one),
            ),
            delta(
                &format!("{TEST_DIR}/OSGiManifestIT.java"),
                DeltaKind::Added,
                None,
                Some(OSGI_NEW),
            ),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("dropped from 2 to 1:"),
            "{found:#?}"
        );
    }

    #[test]
    fn a_moved_test_is_known_when_the_diff_kept_its_attribute_for_another_test() {
        let old = "#[test]\nfn moved() {\n    assert_eq!(f(), 1);\n}\n\n#[test]\nfn kept() {\n    assert_eq!(g(), 2);\n}\n";
        let new = "#[test]\nfn kept() {\n    assert_eq!(g(), 2);\n}\n";
        let moved = "#[test]\nfn moved() {\n    assert_eq!(f(), 1);\n}\n";
        // The two `#[test]` lines are alike: the diff keeps the first as the kept test's,
        // and removes `moved`'s name, body and the second `#[test]`.
        let mut a = delta("src/a.rs", DeltaKind::Modified, Some(old), Some(new));
        a.added_lines.clear();
        a.removed_lines = Line::all_of(old)
            .into_iter()
            .filter(|l| (2..=6).contains(&l.number))
            .collect();
        let b = || delta("src/b.rs", DeltaKind::Added, None, Some(moved));
        let found = run(&[a.clone(), b()]);
        assert!(found.is_empty(), "{found:#?}");
        // Without the copy in b.rs, `moved` is deleted, and no alignment hides it.
        let other = "#[test]\nfn other() {\n    assert!(h());\n}\n";
        let found = run(&[a, delta("src/b.rs", DeltaKind::Added, None, Some(other))]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("dropped from 2 to 1:"),
            "{found:#?}"
        );
    }

    const JUNIT3: &str = "public class ArrayTest extends TestCase {\n  public void testAddsStrings() {\n    JsonArray a = new JsonArray();\n    a.add(\"x\");\n    assertEquals(1, a.size());\n  }\n\n  public void testAddsNulls() {\n    JsonArray a = new JsonArray();\n    a.add((String) null);\n    assertEquals(1, a.size());\n  }\n}\n";

    #[test]
    fn junit3_tests_given_test_annotations_as_they_move_are_not_deleted() {
        let junit4 = "public class JsonArrayTest {\n  @Test\n  public void testAddsStrings() {\n    JsonArray a = new JsonArray();\n    a.add(\"x\");\n    assertThat(a).hasSize(1);\n  }\n\n  @Test\n  public void testAddsNulls() {\n    JsonArray a = new JsonArray();\n    assertThat(a.size()).isEqualTo(0);\n  }\n}\n";
        let found = run(&[
            delta(
                "src/test/java/functional/ArrayTest.java",
                DeltaKind::Deleted,
                Some(JUNIT3),
                None,
            ),
            delta(
                "src/test/java/JsonArrayTest.java",
                DeltaKind::Added,
                None,
                Some(junit4),
            ),
        ]);
        assert!(found.is_empty(), "{found:#?}");
        // Other tests written in JUnit 4 are no cover for the JUnit 3 ones deleted.
        let other = "public class JsonArrayTest {\n  @Test\n  public void testRemoves() {\n    assertThat(new JsonArray().remove(0)).isNull();\n  }\n\n  @Test\n  public void testClears() {\n    assertThat(new JsonArray().isEmpty()).isTrue();\n  }\n}\n";
        let found = run(&[
            delta(
                "src/test/java/functional/ArrayTest.java",
                DeltaKind::Deleted,
                Some(JUNIT3),
                None,
            ),
            delta(
                "src/test/java/JsonArrayTest.java",
                DeltaKind::Added,
                None,
                Some(other),
            ),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("was deleted with 2 tests:"),
            "{found:#?}"
        );
    }

    #[test]
    fn a_test_respaced_by_a_formatter_as_it_moved_is_the_same_test() {
        let old = "def test_a( runner ):\n    assert runner\n\ndef test_b():\n    assert 2\n";
        let moved = "def test_a(runner):\n    assert runner.ok\n";
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Modified, Some(old), Some(B)),
            delta("tests/test_a.py", DeltaKind::Added, None, Some(moved)),
        ]);
        assert!(found.is_empty(), "{found:#?}");
        // Another name, respaced or not, is another test.
        let other = "def test_c(runner):\n    assert runner.ok\n";
        let found = run(&[
            delta("tests/test_ab.py", DeltaKind::Modified, Some(old), Some(B)),
            delta("tests/test_c.py", DeltaKind::Added, None, Some(other)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
    }

    #[test]
    fn a_replacement_stands_for_counted_tests_that_declare_no_line() {
        // `quickcheck!` functions are counted as tests but declared on no line of their own.
        let old = "quickcheck! {\n    fn prop_rev(xs: Vec<u8>) -> bool {\n        rev(rev(&xs)) == xs\n    }\n}\n";
        let new = "quickcheck! {\n    fn prop_rev_twice(xs: Vec<u8>) -> bool {\n        xs == rev(&rev(&xs))\n    }\n}\n";
        let found = run(&[
            delta("tests/rev_test.rs", DeltaKind::Deleted, Some(old), None),
            delta("tests/rev_props_test.rs", DeltaKind::Added, None, Some(new)),
        ]);
        assert!(found.is_empty(), "{found:#?}");
        let found = run(&[
            delta("tests/rev_test.rs", DeltaKind::Deleted, Some(old), None),
            delta("tests/sort_test.rs", DeltaKind::Added, None, Some(new)),
        ]);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("was deleted with 1 test:"),
            "{found:#?}"
        );
    }

    #[test]
    fn unknown_removed_lines_net_nothing() {
        let mut a = delta("tests/test_ab.py", DeltaKind::Modified, Some(AB), Some(A));
        a.removed_lines.clear();
        a.old_text = None;
        let found = run(&[a, delta("tests/test_b.py", DeltaKind::Added, None, Some(B))]);
        assert_eq!(found.len(), 1, "{found:#?}");
    }
}
