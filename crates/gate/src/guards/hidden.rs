//! Tests removed from a file whose count rose: other tests were added in the same change,
//! so the count hides the loss. A test is read as gone when its name left the change as a
//! whole (no file of the change declares it now) and nothing else accounts for it (see
//! [`super::deleted`]: rewritten in its file or moved by its body, merged into a test that
//! grew, demoted and called, switched off or empty). What is left is then told from a
//! rewrite by the words of its body (identifiers, and each literal whole) and of its name:
//! a test renamed and reworked, or folded into a new test, takes its own words along (those
//! no other test of its file held: `"custom-data"`, `Tag.Data`), keeps most of its words,
//! or keeps most of its name (`returns_empty_when_blank` as `returns_null_when_blank`); a
//! deleted test leaves its words nowhere (`"Not a valid IPv6 address."`). A file none of
//! whose tests kept its name, one of which carried its body over under a new name, was
//! rewritten whole: as for a test file replaced by another, its count is what it holds.
//! Where no body carried over either, the new tests were written around other code
//! (`test_count_via_win32` gone, four new tests of `count`), and each old test is judged
//! as any other.

use super::deleted::{callers, demoted_and_called, new_functions, turnover};
use super::folded;
use super::jvm_fixtures::{in_fixture, Outline};
use super::languages::Lang;
use super::merged;
use super::rust_tests::TestMacros;
use super::split::split_into_tables;
use super::test_moves::{declared_with, rewritten, same_tests, Declared};
use super::test_paths::TestPaths;
use super::vanished::Remains;
use super::{DeltaKind, FileDelta, Finding, Line};
use std::cell::OnceCell;
use std::collections::{BTreeSet, HashMap, HashSet};

/// A file of the change that held tests and whose count did not fall.
pub struct Steady {
    pub at: usize,
    pub was: u32,
    pub now: u32,
}

/// The words of a body: identifiers and numbers, and each string or character literal
/// whole (quotes included), so that two messages that differ in one word differ.
pub fn words<'a>(body: impl IntoIterator<Item = &'a String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in body {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if matches!(c, '"' | '\'' | '`') {
                let mut j = i + 1;
                let mut escaped = false;
                let mut closed = None;
                while j < chars.len() {
                    let d = chars[j];
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c {
                        closed = Some(j);
                        break;
                    }
                    j += 1;
                }
                if let Some(end) = closed {
                    // One literal whatever its quotes: `'a'` and `"a"` are one word.
                    let inner: String = chars[i + 1..end].iter().collect();
                    out.insert(format!("\"{inner}\""));
                    i = end + 1;
                    continue;
                }
            }
            // A comment says nothing the test checks.
            let next = chars.get(i + 1).copied();
            if (c == '/' && next == Some('/')) || (c == '#' && next.is_none_or(char::is_whitespace))
            {
                break;
            }
            if c.is_alphanumeric() || c == '_' {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.insert(chars[start..i].iter().collect());
                continue;
            }
            i += 1;
        }
    }
    out
}

/// Each file's tests that left it (by index; none for a deleted file) and the tests that
/// arrived in the change's files, paired by name first: a test whose declaration a
/// formatter rewrapped (`def test_x(` then its parameters, `@Test` put on a line of its own)
/// is the same test. Every test of an added file arrived.
fn turnovers(
    deltas: &[&FileDelta],
    tests: &TestPaths,
    macros: &TestMacros,
) -> (Vec<Vec<Declared>>, Vec<(usize, Declared)>) {
    let builtin = TestPaths::default();
    let mut gone_of: Vec<Vec<Declared>> = vec![Vec::new(); deltas.len()];
    let mut added: Vec<(usize, Declared)> = Vec::new();
    for (j, d) in deltas.iter().enumerate() {
        if !tests.is_counted(&d.path) {
            continue;
        }
        let (mut gone, mut arrived) = match &d.kind {
            DeltaKind::Deleted => continue,
            DeltaKind::Added => {
                let (Some(text), Some(lang)) = (d.new_text.as_deref(), Lang::from_path(&d.path))
                else {
                    continue;
                };
                let all = declared_with(
                    &Line::all_of(text),
                    Some(text),
                    lang,
                    builtin.is_test(&d.path),
                    macros,
                );
                (Vec::new(), all)
            }
            _ => turnover(d, &builtin, macros),
        };
        gone.retain(
            |t| match arrived.iter().position(|a| test_name(a) == test_name(t)) {
                Some(i) => {
                    arrived.swap_remove(i);
                    false
                }
                None => true,
            },
        );
        gone_of[j] = gone;
        added.extend(arrived.into_iter().map(|t| (j, t)));
    }
    (gone_of, added)
}

/// A test the change added, or kept and grew, that may carry a removed test: where it is
/// (its file's delta index, its naming line), the words of its body, the words it gained
/// (all of them for a new test), and a new test's name with its words.
pub struct Carrier {
    pub at: usize,
    pub name: String,
    whole: BTreeSet<String>,
    gained: BTreeSet<String>,
    named: Option<(String, BTreeSet<String>)>,
}

/// How far a likeness of words may reach. A file whose count rose is judged by names and
/// words alone: any of the clauses of [`hidden`] carries a removed test. Where the count
/// fell, the fall already says tests went, and only a test renamed as it moved carries
/// one: a new test in another file than `from` (the removed test's) that holds every one of
/// its own words and three quarters of all its words.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    Named,
    Moved { from: usize },
}

/// What may carry a removed test: every test `added` (read whole) and every test of the
/// change's files that kept its name and grew (read whole for the likeness, by what it
/// gained for the removed test's own words).
fn carriers(
    deltas: &[&FileDelta],
    tests: &TestPaths,
    macros: &TestMacros,
    added: &[(usize, Declared)],
) -> Vec<Carrier> {
    let mut list = arrivals(added);
    list.extend(grown(deltas, tests, macros));
    list
}

/// The tests `added` (file index, test) as carriers, read whole.
pub fn arrivals(added: &[(usize, Declared)]) -> Vec<Carrier> {
    added
        .iter()
        .map(|(at, a)| {
            let w = words(&a.body);
            Carrier {
                at: *at,
                name: shown(a),
                whole: w.clone(),
                gained: w,
                named: Some((test_name(a), name_words(&shown(a)))),
            }
        })
        .collect()
}

/// What of a body a test's own share is read in: its words (see [`words`]), its
/// literals (see [`folded::literals`]), or its parts (see [`folded::parts`]).
#[derive(Clone, Copy)]
pub enum Share {
    Words,
    Literals,
    Parts,
}

impl Share {
    fn of(self, body: &[String]) -> BTreeSet<String> {
        match self {
            Share::Words => words(body),
            Share::Literals => folded::literals(body),
            Share::Parts => folded::parts(body),
        }
    }
}

/// The tests a file held before the change, with what each of them holds tallied once.
/// A removed test's own words are those no other of them held; asking that of each of a
/// thousand removed tests must not read the other thousand each time (quadratic work that
/// turned one large deletion into a minute of a stop hook).
pub struct Before<'a> {
    pub tests: &'a [Declared],
    /// One tally per [`Share`], in its order.
    tallies: [OnceCell<HashMap<String, usize>>; 3],
    /// Each test as (naming line, body): whether a test is one of them.
    held: OnceCell<HashSet<(&'a str, &'a [String])>>,
}

impl<'a> Before<'a> {
    pub fn new(tests: &'a [Declared]) -> Self {
        Before {
            tests,
            tallies: Default::default(),
            held: OnceCell::new(),
        }
    }

    /// What `t`'s body holds, read as `share`, that no other test held (one copy of `t`
    /// itself skipped, so a twin with the same body still counts as another).
    pub fn own_by(&self, t: &Declared, share: Share) -> BTreeSet<String> {
        let tally = self.tallies[share as usize].get_or_init(|| tally(self.tests, |b| share.of(b)));
        let held = self.held.get_or_init(|| {
            self.tests
                .iter()
                .map(|o| (o.key.as_str(), o.body.as_slice()))
                .collect()
        });
        let itself = usize::from(held.contains(&(t.key.as_str(), t.body.as_slice())));
        share
            .of(&t.body)
            .into_iter()
            .filter(|w| tally.get(w).copied().unwrap_or(0) <= itself)
            .collect()
    }
}

/// For each thing `pick` finds, how many of `tests` hold it.
fn tally(
    tests: &[Declared],
    pick: impl Fn(&[String]) -> BTreeSet<String>,
) -> HashMap<String, usize> {
    let mut out: HashMap<String, usize> = HashMap::new();
    for t in tests {
        for w in pick(&t.body) {
            *out.entry(w).or_default() += 1;
        }
    }
    out
}

/// The first of `list` that carries the removed test `t`, whose old file held the tests
/// `before` (its own words are those no other of them held): see [`hidden`].
pub fn carrier(t: &Declared, before: &Before, list: &[Carrier], reach: Reach) -> Option<usize> {
    let mine = words(&t.body);
    if mine.is_empty() {
        return None;
    }
    let own = before.own_by(t, Share::Words);
    let name_words_of = name_words(&shown(t));
    list.iter().position(|c| {
        let held = mine.iter().filter(|x| holds(&c.whole, x)).count();
        let own_held = own.iter().filter(|x| holds(&c.gained, x)).count();
        // Every one of its own words went into one test, which holds a third of its
        // words: its check lives on there.
        let took_own = !own.is_empty() && own_held == own.len() && held * 3 >= mine.len();
        // Three quarters of its words are in one test: rewritten there.
        let mostly = held * 4 >= mine.len() * 3;
        if let Reach::Moved { from } = reach {
            return c.at != from && c.named.is_some() && own.len() >= 2 && took_own && mostly;
        }
        // A new test named as this one continued (`test_pool` as
        // `test_pool_verify_true`) is its variant, whatever it now checks.
        let continued = c.named.as_ref().map(|n| n.0.as_str()).is_some_and(|n| {
            let was = test_name(t);
            n.len() > was.len() && n.starts_with(&was)
        });
        // A new test named for most of what this one was named for, that holds most of
        // its words, is this one reworked (`doesPostFor307` as `preservesPostFor307And308`).
        let renamed = c.named.as_ref().is_some_and(|(_, w)| {
            !name_words_of.is_empty()
                && name_words_of.intersection(w).count() * 2 >= name_words_of.len()
        });
        // A new test named as this one but for a word or so (`returns_empty_when_blank` as
        // `returns_null_when_blank`) that took its own words along is this one with a new
        // expectation.
        let reworded = c.named.as_ref().is_some_and(|(_, w)| {
            name_words_of.len() >= 3
                && name_words_of.intersection(w).count() * 4 >= name_words_of.len() * 3
        }) && own_held * 2 >= own.len();
        continued
            || reworded
            || took_own
            || mostly
            || (held * 2 >= mine.len() && (renamed || own_held * 2 >= own.len()))
    })
}

/// Whether a new test of `list` is named as `t` continued (`test_pool` as
/// `test_pool_verify_true`): a variant of it, whatever it now checks.
fn continued_by(t: &Declared, list: &[Carrier]) -> bool {
    let was = test_name(t);
    list.iter().any(|c| {
        c.named
            .as_ref()
            .is_some_and(|(n, _)| n.len() > was.len() && n.starts_with(&was))
    })
}

/// The findings for the steady files of the change.
pub fn hidden(
    deltas: &[&FileDelta],
    steady: &[Steady],
    tests: &TestPaths,
    macros: &TestMacros,
) -> Vec<Finding> {
    if steady.is_empty() {
        return Vec::new();
    }
    let builtin = TestPaths::default();
    let (mut gone_of, mut added) = turnovers(deltas, tests, macros);
    let mut receivers: Option<merged::Receivers> = None;
    let mut counterparts_cache: Option<Vec<Carrier>> = None;
    let mut tables_cache: Option<Vec<folded::Table>> = None;
    let mut remains: Option<Remains> = None;
    let mut out = Vec::new();
    for s in steady {
        let d = deltas[s.at];
        let old_path = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            _ => d.path.as_str(),
        };
        let (Some(old), Some(lang)) = (d.old_text.as_deref(), Lang::from_path(old_path)) else {
            continue;
        };
        // Ran nothing, or moved by name to another file of the change.
        let mut gone: Vec<Declared> = std::mem::take(&mut gone_of[s.at])
            .into_iter()
            .filter(|t| {
                let to = added
                    .iter()
                    .position(|(j, a)| *j != s.at && test_name(a) == test_name(t));
                match to {
                    Some(k) => {
                        added.swap_remove(k);
                        false
                    }
                    None => !t.empty,
                }
            })
            .collect();
        if gone.is_empty() {
            continue;
        }
        // Renamed with most of its body, in its file or into another: the pairing the
        // count already trusts.
        let mut renamed_here = false;
        gone.retain(|t| {
            let own_file = added
                .iter()
                .position(|(j, a)| *j == s.at && rewritten(&t.body, &a.body));
            renamed_here |= own_file.is_some();
            let hit =
                own_file.or_else(|| added.iter().position(|(_, a)| rewritten(&t.body, &a.body)));
            match hit {
                Some(k) => {
                    added.swap_remove(k);
                    false
                }
                None => true,
            }
        });
        let file_now = callers(d, &builtin, &BTreeSet::new());
        let fresh = new_functions(d, &builtin);
        gone.retain(|t| demoted_and_called(t, d, &file_now, &fresh).is_none());
        let mut left = Vec::new();
        for t in gone {
            if !t.body.is_empty() {
                let into = receivers.get_or_insert_with(|| merged::receivers(deltas, tests));
                if into.carrier(&t, old).is_some() {
                    continue;
                }
            }
            left.push(t);
        }
        if left.is_empty() {
            continue;
        }
        let before = declared_with(
            &Line::all_of(old),
            Some(old),
            lang,
            builtin.is_test(old_path),
            macros,
        );
        let names_now: BTreeSet<String> = match (d.new_text.as_deref(), Lang::from_path(&d.path)) {
            (Some(text), Some(new_lang)) => declared_with(
                &Line::all_of(text),
                Some(text),
                new_lang,
                builtin.is_test(&d.path),
                macros,
            )
            .iter()
            .map(test_name)
            .collect(),
            _ => BTreeSet::new(),
        };
        // No test of the file kept its name, and one carried its body over under a new
        // name: the file was rewritten whole, and as for a test file replaced by another,
        // its count is what it holds. Where no body carried over either, the new tests
        // were written around other code, and each old test is judged as any other.
        if renamed_here && !before.iter().any(|o| names_now.contains(&test_name(o))) {
            continue;
        }
        let fixtures = matches!(lang, Lang::Java | Lang::Kotlin).then(|| Outline::of(lang, old));
        let counterparts: &Vec<Carrier> =
            counterparts_cache.get_or_insert_with(|| carriers(deltas, tests, macros, &added));
        let tallied = Before::new(&before);
        let mut lost = Vec::new();
        for t in left {
            if fixtures
                .as_ref()
                .is_some_and(|o| declared_in_fixture(o, old, &t))
                || in_skipped_group(lang, old, &t)
            {
                continue;
            }
            if words(&t.body).is_empty() {
                continue;
            }
            // A copy of a test still in its file (same name, same body) removed: one of two
            // identical tests is gone, whatever resembles it.
            let duplicate = names_now.contains(&test_name(&t))
                && before
                    .iter()
                    .filter(|o| test_name(o) == test_name(&t) && o.body == t.body)
                    .count()
                    > 1;
            // Its checked value left the tests: only a variant named after it carries it.
            let lost_check = remains
                .get_or_insert_with(|| Remains::of(deltas, tests))
                .lost_check(&t.body)
                .is_some();
            let by_likeness = if lost_check {
                continued_by(&t, counterparts)
            } else {
                carrier(&t, &tallied, counterparts, Reach::Named).is_some()
            };
            let carried = !duplicate
                && (by_likeness || {
                    let tables =
                        tables_cache.get_or_insert_with(|| folded::tables(deltas, tests, macros));
                    split_into_tables(&t, old, &tallied, s.at, tables)
                        || (!lost_check && folded_here(&t, &tallied, s.at, tables))
                });
            if !carried {
                lost.push(t);
            }
        }
        if lost.is_empty() {
            continue;
        }
        let names: Vec<String> = lost.iter().map(|t| format!("`{}`", shown(t))).collect();
        let one = names.len() == 1;
        out.push(Finding {
            path: d.path.clone(),
            line: None,
            snippet: format!("{}: tests {} -> {}", d.shown_path(), s.was, s.now),
            message: format!(
                "tests in `{}` went from {} to {}, but {} {} removed: {} left every file of the change (or, for a copy, its file holds one fewer) and no test the change adds or grows carries {} (by name, own words or most words), so the tests added hide the loss: restore the removed tests",
                d.shown_path(),
                s.was,
                s.now,
                names.join(", "),
                if one { "was" } else { "were" },
                if one { "its name" } else { "their names" },
                if one { "it" } else { "them" },
            ),
        });
    }
    out
}

/// Whether a table the change added to the removed test `t`'s own file (at `at`; its old
/// file held `before`) carries it, as a fold into a table is read where the count fell
/// (see [`folded::carries`]): the tests added to the file are that table's rows, not
/// others hiding the loss.
fn folded_here(t: &Declared, before: &Before, at: usize, tables: &[folded::Table]) -> bool {
    let own = before.own_by(t, Share::Parts);
    tables
        .iter()
        .any(|table| table.at == at && table.new && folded::carries(t, &own, table, true))
}

/// Whether the words `w` hold the word `x`: the same word, or for a literal, one that
/// holds its text (a message given a prefix, `'entity.verify.failed'` as
/// `'[entity.verify.failed] '`).
pub(super) fn holds(w: &BTreeSet<String>, x: &str) -> bool {
    if w.contains(x) {
        return true;
    }
    let Some(inner) = x.strip_prefix('"').and_then(|x| x.strip_suffix('"')) else {
        return false;
    };
    inner.chars().count() >= 3
        && w.iter()
            .any(|l| l.len() > x.len() && l.starts_with('"') && l.contains(inner))
}

/// The tests of the change's files that kept their name and whose body changed: the words
/// of the body now, and of the lines it gained.
fn grown(deltas: &[&FileDelta], tests: &TestPaths, macros: &TestMacros) -> Vec<Carrier> {
    let builtin = TestPaths::default();
    let mut out = Vec::new();
    for (at, d) in deltas.iter().enumerate() {
        let old_path = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            DeltaKind::Modified => d.path.as_str(),
            _ => continue,
        };
        if !tests.is_counted(&d.path) || d.added_lines.is_empty() {
            continue;
        }
        let (Some(old), Some(new)) = (d.old_text.as_deref(), d.new_text.as_deref()) else {
            continue;
        };
        let (Some(old_lang), Some(lang)) = (Lang::from_path(old_path), Lang::from_path(&d.path))
        else {
            continue;
        };
        let side = |text: &str, lang: Lang, path: &str| {
            declared_with(
                &Line::all_of(text),
                Some(text),
                lang,
                builtin.is_test(path),
                macros,
            )
        };
        let mut before = side(old, old_lang, old_path);
        let mut after = side(new, lang, &d.path);
        for (was, now) in same_tests(&mut before, &mut after) {
            if was.body == now.body {
                continue;
            }
            let mut left = was.body.clone();
            let gained: Vec<&String> = now
                .body
                .iter()
                .filter(|l| match left.iter().position(|o| o == *l) {
                    Some(i) => {
                        left.swap_remove(i);
                        false
                    }
                    None => true,
                })
                .collect();
            if !gained.is_empty() {
                out.push(Carrier {
                    at,
                    name: shown(&now),
                    whole: words(&now.body),
                    gained: words(gained),
                    named: None,
                });
            }
        }
    }
    out
}

/// Whether the removed test `t` sits in a group switched off where it is declared
/// (`describe.skip(`, `xdescribe`, `context.skip`, `xcontext`): it ran nothing.
fn in_skipped_group(lang: Lang, old: &str, t: &Declared) -> bool {
    if !matches!(lang, Lang::Js | Lang::Ruby) {
        return false;
    }
    let head = t.key.split(" / ").next().unwrap_or(&t.key);
    let lines: Vec<&str> = old.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| super::account::normalise(l) == head)
        .any(|(at, l)| {
            let mut depth = indent(l);
            for above in lines[..at].iter().rev() {
                if above.trim().is_empty() || indent(above) >= depth {
                    continue;
                }
                depth = indent(above);
                let opener = above.trim_start();
                let word: String = opener
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.'))
                    .collect();
                if matches!(
                    word.as_str(),
                    "describe.skip" | "xdescribe" | "context.skip" | "xcontext" | "suite.skip"
                ) {
                    return true;
                }
                if depth == 0 {
                    break;
                }
            }
            false
        })
}

/// Whether the removed test `t` was declared in a JVM class that a test of its file runs
/// or inspects by a class literal (see [`super::jvm_fixtures`]): the input of a test of
/// test tooling, not a test of the suite.
fn declared_in_fixture(outline: &Outline, old: &str, t: &Declared) -> bool {
    let head = t.key.split(" / ").next().unwrap_or(&t.key);
    old.lines().enumerate().any(|(i, l)| {
        super::account::normalise(l) == head && in_fixture(outline, &[], i as u32 + 1, &|_| true)
    })
}

/// The name a test goes by, whatever its declaration line says around it: the first
/// string of a test declared by a call (`it('adds', async () => {` is `adds`), otherwise
/// the word before its parameters (`def test_x(tmp_path):` and `def test_x(` are
/// `test_x`, `@Test public void x() throws IOException {` is `x`), past annotations on
/// the same line. A formatter that rewraps the parameters or puts `@Test` on a line of its
/// own renames nothing.
pub fn test_name(t: &Declared) -> String {
    let mut line = t.key.split(" / ").next().unwrap_or(&t.key).trim();
    // Annotations or attributes before the declaration on its line.
    loop {
        let rest = if let Some(r) = line.strip_prefix("#[").or_else(|| line.strip_prefix('[')) {
            closing(r, '[', ']')
        } else if let Some(r) = line.strip_prefix('@') {
            let name_end = r
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(r.len());
            let r = &r[name_end..];
            match r.trim_start().strip_prefix('(') {
                Some(args) => closing(args, '(', ')'),
                None => Some(r),
            }
        } else {
            None
        };
        match rest {
            Some(r) if !r.trim().is_empty() => line = r.trim_start(),
            // Nothing but annotations: the line they decorate names the test.
            Some(_) => {
                line = t.key.split(" / ").last().unwrap_or(&t.key).trim();
                break;
            }
            None => break,
        }
    }
    let head = line.split('(').next().unwrap_or(line);
    if let Some(lit) = words([&line.to_string()])
        .into_iter()
        .find(|w| w.starts_with(['"', '\'', '`']))
        .filter(|_| line.find(['"', '\'', '`']) < line.find(['{', '=']).or(Some(usize::MAX)))
    {
        return lit
            .trim_matches('"')
            .split_whitespace()
            .collect::<String>()
            .to_lowercase();
    }
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let name = head
        .trim_end()
        .rsplit(|c: char| !word(c))
        .find(|w| !w.is_empty())
        .unwrap_or("");
    if name.is_empty() {
        t.sig.clone()
    } else {
        unaffixed(name)
    }
}

/// A name without its runner's affixes and case: JUnit 5 drops the `test` prefix JUnit 3
/// needed (`testParseVersion` is `parseVersion`).
fn unaffixed(name: &str) -> String {
    let lower = name.to_lowercase();
    let bare = lower.strip_prefix("test").unwrap_or(&lower);
    let bare = bare.trim_start_matches('_');
    let bare = bare
        .strip_suffix("test")
        .unwrap_or(bare)
        .trim_end_matches('_');
    if bare.is_empty() {
        lower
    } else {
        bare.to_string()
    }
}

/// What follows the bracket that closes an opened one (`open` already consumed).
pub(super) fn closing(text: &str, open: char, close: char) -> Option<&str> {
    let mut depth = 1;
    for (i, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(&text[i + 1..]);
            }
        }
    }
    None
}

/// The words of a test's name: its first string, or the word before its parameters, split
/// where a word starts (`_`, a capital, a digit run), lowercased.
pub(super) fn name_words(shown: &str) -> BTreeSet<String> {
    let raw: String = match shown.find(['"', '\'', '`']) {
        Some(at) => {
            let q = shown[at..].chars().next().unwrap_or('"');
            let rest = &shown[at + 1..];
            rest[..rest.find(q).unwrap_or(rest.len())].to_string()
        }
        None => {
            let head = shown.split('(').next().unwrap_or(shown);
            head.rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .find(|w| !w.is_empty())
                .unwrap_or("")
                .to_string()
        }
    };
    let mut out = BTreeSet::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in raw.chars() {
        let boundary = !c.is_alphanumeric()
            || (c.is_uppercase() && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit()))
            || (c.is_ascii_digit() && prev.is_some_and(|p| !p.is_ascii_digit()));
        if boundary && !cur.is_empty() {
            out.insert(cur.to_lowercase());
            cur.clear();
        }
        if c.is_alphanumeric() {
            cur.push(c);
        }
        prev = Some(c);
    }
    if !cur.is_empty() {
        out.insert(cur.to_lowercase());
    }
    out.remove("test");
    out
}

/// The naming line of a test without its opening bracket (past annotations on its line).
pub(super) fn shown(t: &Declared) -> String {
    let first = t.key.split(" / ").next().unwrap_or(&t.key);
    let declares = first.contains('(') && !first.trim_start().starts_with(['@', '#', '[']);
    let named = match first.find(" public ").or_else(|| first.find(" void ")) {
        Some(at) if first.starts_with('@') => first[at..].trim(),
        _ if declares => first,
        _ => t.key.rsplit(" / ").next().unwrap_or(&t.key),
    };
    named.trim_end_matches(['{', ' ', ':']).to_string()
}
