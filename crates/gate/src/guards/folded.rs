//! Tests folded into a table: several tests of a file made one table-driven or
//! parameterised test (`@pytest.mark.parametrize`, Go's `t.Run` over a slice of cases, a
//! JUnit `Parameterized` class, a loop over rows) in the same change. The count falls by
//! all but one of them, yet each case still runs, as a row. A removed test is carried by
//! such a table when what set it apart from the tests folded with it lives on in the rows
//! the change wrote: the words of its body (identifiers and numbers, and the words inside
//! its literals) that no other removed test of its file held, its *own* words. A test
//! whose own values appear nowhere in the table was dropped in the fold, and is deleted.
//!
//! The table is a test the change added, or kept and grew (then only what it gained are
//! its rows), in the removed test's file or another file of the change, that runs many
//! cases: declared parameterised (its attributes or decorators name a parameter source,
//! or it is declared by an `.each`), run as a class over parameters (JUnit 4's
//! `@RunWith(Parameterized.class)`, whose rows are a method of the class: all the lines
//! the change added to the file are read), or a body that loops or runs subtests
//! (`for`, `t.Run(`, `subTest(`, `.each do`, `.forEach(`).

use super::account::normalise;
use super::array_rows::rows_above;
use super::hidden::words;
use super::languages::Lang;
use super::line::indent;
use super::rust_tests::TestMacros;
use super::test_moves::{declared_with, same_tests, Declared};
use super::test_paths::TestPaths;
use super::{DeltaKind, FileDelta, Line};
use std::collections::BTreeSet;

/// A test of the change that runs many cases, and the words of its rows.
pub struct Table {
    /// Index of its file among the change's deltas.
    pub at: usize,
    /// Its naming line, as a finding shows it.
    pub name: String,
    /// Its naming line, whitespace aside (see [`Declared::sig`]).
    pub sig: String,
    /// The change added it (it did not keep a declaration of the old file): in its own
    /// file's count it stands for one of the tests it folds.
    pub new: bool,
    /// The words of what the change wrote in it: all of a new table, what a kept one
    /// gained.
    rows: BTreeSet<String>,
    /// The string literals of what the change wrote in it, each whole.
    literals: BTreeSet<String>,
}

/// Words that say which parameter source declares a test: an attribute, decorator or
/// declaration holding one runs the test once per row.
const PARAMETERISED: &[&str] = &[
    "parametrize",
    "parameterized",
    "Parameterized",
    "ParameterizedTest",
    "Parameters",
    "test_case",
    "#[case",
    "#[values",
    "Theory",
    "InlineData",
    "MemberData",
    "TestCase(",
    "TestCaseSource",
    "MethodSource",
    "ValueSource",
    "CsvSource",
    "EnumSource",
    "ArgumentsSource",
    "DataProvider",
    "dataProvider",
    "@data(",
    ".each",
];

/// A JVM class run once per row of a parameters method: every test in it is a table.
const PARAMETERISED_CLASS: &[&str] = &[
    "@RunWith(Parameterized.class)",
    "@RunWith(Parameterized::class)",
    "@RunWith(JUnitParamsRunner.class)",
    "@ParameterizedClass",
];

/// Whether a body line runs its cases one by one: a loop or a subtest.
fn runs_cases(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("for ")
        || t.starts_with("for(")
        || t.starts_with("foreach")
        || t.contains(".Run(")
        || t.contains("subTest(")
        || t.contains(".each do")
        || t.contains(".each {")
        || t.contains(".forEach(")
        || t.contains(".each(")
}

/// The words of `lines`, and of the words inside each literal: a value carried into a
/// table may sit in a longer literal (`"/tmp/config.yaml"` as a row's `"/etc/config.yaml"`
/// still holds `config` and `yaml`).
pub fn parts<'a>(lines: impl IntoIterator<Item = &'a String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for w in words(lines) {
        match w.strip_prefix('"').and_then(|w| w.strip_suffix('"')) {
            Some(inner) => out.extend(
                inner
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|p| !p.is_empty())
                    .map(str::to_string),
            ),
            None => {
                out.insert(w);
            }
        }
    }
    out
}

/// The lines of the test whose naming line is `sig` in `all` (the first not in `taken`):
/// its attributes or decorators above it (a multi-line one whole), its naming line, and
/// its body (the lines indented under it), each normalised; with the index of its naming
/// line.
fn extent(all: &[&str], sig: &str, taken: &BTreeSet<usize>) -> Option<(usize, Vec<String>)> {
    let compact = |l: &str| l.split_whitespace().collect::<String>();
    let at = (0..all.len()).find(|i| !taken.contains(i) && compact(all[*i]) == sig)?;
    let depth = indent(all[at]);
    let mut start = at;
    let mut k = at;
    while k > 0 {
        k -= 1;
        let line = all[k];
        let t = line.trim_start();
        if t.is_empty() {
            break;
        }
        let here = indent(line);
        if here == depth && (t.starts_with('@') || t.starts_with("#[") || t.starts_with('[')) {
            start = k;
            continue;
        }
        let inside = here > depth || (here == depth && t.starts_with([')', ']']));
        if !inside {
            break;
        }
    }
    let mut lines: Vec<String> = all[start..=at].iter().map(|l| normalise(l)).collect();
    for raw in all.iter().skip(at + 1) {
        if raw.trim().is_empty() {
            continue;
        }
        if indent(raw) <= depth {
            break;
        }
        lines.push(normalise(raw));
    }
    Some((at, lines))
}

/// Whether the test whose lines are `lines` (its naming line at `head`) runs many cases.
fn is_table(lines: &[String], head: usize) -> bool {
    let declared = lines[..=head]
        .iter()
        .any(|l| PARAMETERISED.iter().any(|p| l.contains(p)));
    declared || lines[head + 1..].iter().any(|l| runs_cases(l))
}

/// The naming line of a test without its opening bracket.
pub fn shown(t: &Declared) -> String {
    let named = t.key.rsplit(" / ").next().unwrap_or(&t.key);
    named.trim_end_matches(['{', ' ', ':']).to_string()
}

/// The tables of the change: every test it added, or kept and grew, that runs many cases.
pub fn tables(deltas: &[&FileDelta], tests: &TestPaths, macros: &TestMacros) -> Vec<Table> {
    let builtin = TestPaths::default();
    let mut out = Vec::new();
    for (at, d) in deltas.iter().enumerate() {
        let old_path = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            DeltaKind::Deleted => continue,
            _ => d.path.as_str(),
        };
        if !tests.is_counted(&d.path) || d.added_lines.is_empty() {
            continue;
        }
        let Some(new) = d.new_text.as_deref() else {
            continue;
        };
        let Some(lang) = Lang::from_path(&d.path) else {
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
        let old = d.old_text.as_deref();
        let mut before = match (old, Lang::from_path(old_path)) {
            (Some(text), Some(l)) if !matches!(d.kind, DeltaKind::Added) => side(text, l, old_path),
            _ => Vec::new(),
        };
        let mut after = side(new, lang, &d.path);
        let pairs = same_tests(&mut before, &mut after);
        let all: Vec<&str> = new.split('\n').collect();
        let old_all: Vec<&str> = old.map(|t| t.split('\n').collect()).unwrap_or_default();
        let class = PARAMETERISED_CLASS.iter().any(|p| new.contains(p));
        let added: Vec<String> = d.added_lines.iter().map(|l| normalise(&l.text)).collect();
        let mut taken = BTreeSet::new();
        let mut old_taken = BTreeSet::new();
        let grown = pairs.into_iter().map(|(was, now)| (Some(was), now));
        for (was, now) in grown.chain(after.into_iter().map(|t| (None, t))) {
            if now.empty {
                continue;
            }
            let Some((head, lines)) = extent(&all, &now.sig, &taken) else {
                continue;
            };
            taken.insert(head);
            let head_at = lines
                .iter()
                .position(|l| l.split_whitespace().collect::<String>() == now.sig)
                .unwrap_or(0);
            // A test declared in the `.forEach` callback of an array literal: the rows are
            // its cases.
            let above: Vec<String> = rows_above(&all, head).into_iter().map(normalise).collect();
            let mut rows: Vec<String> = match &was {
                None => above.iter().chain(&lines).cloned().collect(),
                Some(was) => {
                    let Some((old_head, mut left)) = extent(&old_all, &was.sig, &old_taken) else {
                        continue;
                    };
                    old_taken.insert(old_head);
                    left.extend(rows_above(&old_all, old_head).into_iter().map(normalise));
                    above
                        .iter()
                        .chain(&lines)
                        .filter(|l| match left.iter().position(|o| o == *l) {
                            Some(i) => {
                                left.swap_remove(i);
                                false
                            }
                            None => true,
                        })
                        .cloned()
                        .collect()
                }
            };
            if rows.is_empty() || !(class || !above.is_empty() || is_table(&lines, head_at)) {
                continue;
            }
            if class {
                rows.extend(added.iter().cloned());
            }
            out.push(Table {
                at,
                name: shown(&now),
                sig: now.sig.clone(),
                new: was.is_none(),
                rows: parts(&rows),
                literals: literals(&rows),
            });
        }
    }
    out
}

/// The names a body gives its own values (`ip := "127.0.0.1"`, `ComparisonFailure cf =
/// new ..`, `unixMillis, err := ..`): the last word before an assignment's `=` or `:=`,
/// for each of its comma-separated targets, when they are plain names (no member, no
/// call). What a test calls its locals is no case of it; a table names its columns.
fn locals(body: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in body {
        let b = line.as_bytes();
        let at = (0..b.len()).find(|&i| {
            b[i] == b'='
                && b.get(i + 1).is_none_or(|c| !matches!(c, b'=' | b'>'))
                && (i == 0
                    || !matches!(
                        b[i - 1],
                        b'=' | b'!'
                            | b'<'
                            | b'>'
                            | b'+'
                            | b'-'
                            | b'*'
                            | b'/'
                            | b'%'
                            | b'&'
                            | b'|'
                            | b'^'
                    ))
        });
        let Some(at) = at else {
            continue;
        };
        let lhs = line[..at].trim_end().trim_end_matches(':');
        if lhs.contains(['(', '.', '"', '\'', '[']) {
            continue;
        }
        for target in lhs.split(',') {
            let name = target
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .find(|w| !w.is_empty());
            if let Some(name) = name {
                out.insert(name.to_string());
            }
        }
    }
    out
}

impl Table {
    /// The words of what the change wrote in it (see [`parts`]).
    pub fn rows(&self) -> &BTreeSet<String> {
        &self.rows
    }

    /// The string literals of what the change wrote in it, each whole.
    pub fn literals(&self) -> &BTreeSet<String> {
        &self.literals
    }
}

/// The string literals of `lines`, each whole (quotes as [`words`] writes them).
pub fn literals<'a>(lines: impl IntoIterator<Item = &'a String>) -> BTreeSet<String> {
    words(lines)
        .into_iter()
        .filter(|w| w.len() > 2 && w.starts_with('"'))
        .collect()
}

/// Whether a removed test ran many cases itself, as a table does: declared
/// parameterised, or a body that loops or runs subtests, read whole from its old file's
/// text `old` (a long table's loop comes after the first lines a body is read by).
pub fn ran_cases(t: &Declared, old: &str) -> bool {
    let all: Vec<&str> = old.split('\n').collect();
    let Some((_, lines)) = extent(&all, &t.sig, &BTreeSet::new()) else {
        return false;
    };
    let head_at = lines
        .iter()
        .position(|l| l.split_whitespace().collect::<String>() == t.sig)
        .unwrap_or(0);
    is_table(&lines, head_at)
}

/// The words of a removed test's case: those of its body (see [`parts`]) but the names of
/// its locals.
pub fn case_words(t: &Declared) -> BTreeSet<String> {
    let named = locals(&t.body);
    parts(&t.body).difference(&named).cloned().collect()
}

/// Whether `table` carries the removed test `t`, folded with the other tests its file lost
/// in the change while the rest stayed. Its words are those of its body (see [`parts`]) but
/// the names of its locals; its own words, those of `own_parts` (the parts no other test of
/// its old file held, [`super::hidden::Before::own_parts`]). A table of its own file
/// carries it when its rows hold three quarters of its words and at least half of its own
/// ones; a table of another file, when they hold every one of its own words (two at least)
/// and three quarters of all, as for a test renamed and reworded as it moved.
pub fn carries(t: &Declared, own_parts: &BTreeSet<String>, table: &Table, own_file: bool) -> bool {
    let mine = case_words(t);
    if mine.len() < 3 {
        return false;
    }
    let own: Vec<&String> = mine.intersection(own_parts).collect();
    let held = own.iter().filter(|w| table.rows.contains(**w)).count();
    let all = mine.iter().filter(|w| table.rows.contains(*w)).count();
    let mostly = all * 4 >= mine.len() * 3;
    if own_file {
        mostly && held * 2 >= own.len()
    } else {
        table.new && own.len() >= 2 && held == own.len() && mostly
    }
}
