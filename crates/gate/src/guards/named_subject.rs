//! A test file named for one subject (`Assertions_assertThat_with_Boolean_Test`,
//! `test_parser.py`), whose tests the change rewrote in a file about something wider
//! (`Assertions_assertThat_Test`), one test per subject there (`should_accept_Boolean`).
//! Nothing of the old file's name is left in the new file's, so the subject is in the new
//! test's name; and the rewrite keeps what tied the old test to its subject: a word of its
//! body that no other new test of that file holds (`AbstractBooleanAssert`), or a name built
//! on the subject itself.

use super::account::name_words;
use super::hidden::{self, words};
use super::test_moves::Declared;
use std::collections::{BTreeSet, HashSet};

/// Words a file or test name holds whatever it is about.
const FRAME: &[&str] = &[
    "test", "tests", "spec", "specs", "it", "should", "with", "and", "the", "for", "of",
];

/// How well a candidate fits: subject words in its name, other name words (fewer first),
/// words shared.
type Rank = (usize, std::cmp::Reverse<usize>, usize);

/// A new test of another file of the change that may carry a removed one.
pub struct Candidate<'a> {
    /// The path of its file.
    pub path: &'a str,
    pub test: &'a Declared,
    /// The words of its body that no other new test of its file holds.
    pub unique: BTreeSet<String>,
}

/// The words that name what a file is about: its name up to the first dot, split into
/// words, without those every test file name may hold.
fn subject_of(path: &str) -> HashSet<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.split('.').next().unwrap_or(name);
    let mut out = name_words(stem);
    out.retain(|w| w.chars().count() >= 3 && !FRAME.contains(&w.as_str()));
    out
}

/// The words of each new test's body that no other new test of the same file holds:
/// `tests` are `(file path, test)`, every new test of the files the change grew.
pub fn unique_words(tests: &[(&str, &Declared)]) -> Vec<BTreeSet<String>> {
    let all: Vec<BTreeSet<String>> = tests.iter().map(|(_, t)| words(&t.body)).collect();
    all.iter()
        .enumerate()
        .map(|(i, mine)| {
            let mut own = mine.clone();
            for (j, other) in all.iter().enumerate() {
                if j != i && tests[j].0 == tests[i].0 {
                    own.retain(|w| !other.contains(w));
                }
            }
            own
        })
        .collect()
}

/// The words of the fixture the removed test `t` used: the lines of its old file `old`
/// outside every test of it (`tests`), not comments, imports or package lines, that name a
/// name its body uses (`private OptionalInt actual;` and `actual = OptionalInt.of(10);`
/// for a body that asserts on `actual`). What a test checks its subject with may be set up
/// beside it, in a field and a setup hook, and the body then says only `actual`.
pub fn fixture_words(old: &str, tests: &[Declared], t: &Declared) -> BTreeSet<String> {
    let uses: BTreeSet<String> = words(&t.body)
        .into_iter()
        .filter(|w| w.starts_with(|c: char| c.is_alphabetic() || c == '_'))
        .collect();
    let inside: HashSet<&str> = tests
        .iter()
        .flat_map(|o| o.body.iter().map(String::as_str).chain([o.key.as_str()]))
        .collect();
    let mut out = BTreeSet::new();
    for line in old.lines() {
        let line = super::account::normalise(line);
        let aside = [
            "//", "/*", "*", "#", "import ", "package ", "use ", "require",
        ]
        .iter()
        .any(|p| line.starts_with(p));
        if line.is_empty() || aside || inside.contains(line.as_str()) {
            continue;
        }
        let here = words([&line]);
        if here.iter().any(|w| uses.contains(w)) {
            out.extend(here);
        }
    }
    out
}

/// The candidate that carries the removed test `t` of the file once at `old_path`, best
/// first: the one named for most of that file's subject, then with the fewest other name
/// words, then holding most of `t`'s words. `None` when none is named for the subject or
/// none holds what tied `t` to it. `fixture` are the words of what `t` used beside its body
/// (see [`fixture_words`]): they are `t`'s as much as its body's.
pub fn carrier_by_subject(
    t: &Declared,
    fixture: &BTreeSet<String>,
    old_path: &str,
    list: &[Candidate],
) -> Option<usize> {
    let mut mine = words(&t.body);
    if mine.is_empty() {
        return None;
    }
    mine.extend(fixture.iter().cloned());
    let subject = subject_of(old_path);
    if subject.is_empty() {
        return None;
    }
    let mut best: Option<(Rank, usize)> = None;
    for (k, c) in list.iter().enumerate() {
        // What the new file is named for is no subject of its own tests' names.
        let left: HashSet<&String> = {
            let wider = subject_of(c.path);
            subject.iter().filter(|w| !wider.contains(*w)).collect()
        };
        // Its name as written: `should_accept_ZonedDateTime` is named for `zoned date time`.
        let named = hidden::name_words(&hidden::shown(c.test));
        let on: HashSet<&String> = left
            .iter()
            .copied()
            .filter(|w| named.contains(*w))
            .collect();
        if on.is_empty() {
            continue;
        }
        let theirs = words(&c.test.body);
        let shared: Vec<&String> = mine.iter().filter(|w| theirs.contains(*w)).collect();
        if shared.len() < 2 {
            continue;
        }
        // The tie: a word only this new test of its file holds, or a name built on the
        // subject it is named for (`AbstractBooleanAssert` for `Boolean`).
        let tied = shared
            .iter()
            .any(|w| c.unique.contains(*w) || name_words(w).iter().any(|p| on.contains(&p)));
        if !tied {
            continue;
        }
        let extra = named
            .iter()
            .filter(|w| !left.contains(w) && !FRAME.contains(&w.as_str()))
            .count();
        let rank = (on.len(), std::cmp::Reverse(extra), shared.len());
        if best.as_ref().is_none_or(|(r, _)| rank > *r) {
            best = Some((rank, k));
        }
    }
    best.map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(key: &str, body: &[&str]) -> Declared {
        Declared {
            key: key.to_string(),
            sig: key.replace(' ', ""),
            body: body.iter().map(|s| s.to_string()).collect(),
            empty: false,
        }
    }

    #[test]
    fn a_subject_file_test_goes_to_the_test_named_for_it() {
        let old = test(
            "@Test / void should_create_Assert() {",
            &[
                "AbstractBooleanAssert<?> assertions = Assertions.assertThat(TRUE);",
                "assertThat(assertions).isNotNull();",
            ],
        );
        let boolean = test(
            "@Test / void should_accept_Boolean() {",
            &[
                "Boolean actual = Boolean.TRUE;",
                "AbstractBooleanAssert<?> result = assertThat(actual);",
                "result.isTrue();",
            ],
        );
        let array = test(
            "@Test / void should_accept_boolean_array() {",
            &[
                "boolean[] actual = { true, false };",
                "AbstractBooleanArrayAssert<?> result = assertThat(actual);",
                "result.containsExactly(true, false);",
            ],
        );
        let new_tests = [
            ("api/Assertions_assertThat_Test.java", &array),
            ("api/Assertions_assertThat_Test.java", &boolean),
        ];
        let unique = unique_words(&new_tests);
        let list: Vec<Candidate> = new_tests
            .iter()
            .zip(unique)
            .map(|(&(path, test), unique)| Candidate { path, test, unique })
            .collect();
        let at = carrier_by_subject(
            &old,
            &BTreeSet::new(),
            "api/Assertions_assertThat_with_Boolean_Test.java",
            &list,
        );
        assert_eq!(at, Some(1));
    }

    #[test]
    fn a_test_of_a_file_named_for_what_the_new_file_is_named_for_is_not_carried() {
        let old = test(
            "void testParse() {",
            &[
                "Parser p = new Parser();",
                "assertEquals(1, p.parse(\"1\"));",
            ],
        );
        let new = test(
            "void testParserErrors() {",
            &["Parser p = new Parser();", "assertThrows(p.parse(\"x\"));"],
        );
        let tests = [("ParserErrorsTest.java", &new)];
        let unique = unique_words(&tests);
        let list = vec![Candidate {
            path: tests[0].0,
            test: &new,
            unique: unique[0].clone(),
        }];
        assert_eq!(
            carrier_by_subject(&old, &BTreeSet::new(), "ParserTest.java", &list),
            None
        );
    }
}
