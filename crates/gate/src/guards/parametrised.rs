//! A test file deleted because a sibling test file now runs the same tests over it: the
//! sibling's tests bear every name the deleted file's did, and the lines the change added
//! to it name the deleted file's subject (`test_tutorial001_an.py` is about
//! `tutorial001_an`; its sibling gained `params=["tutorial001_py39",
//! "tutorial001_an_py39"]`). Two files of the same tests over two modules became one file
//! of those tests parameterised over both: nothing that ran stopped running.

use super::hidden::test_name;
use super::languages::Lang;
use super::rust_tests::TestMacros;
use super::test_moves::{declared_with, Declared};
use super::test_paths::TestPaths;
use super::{DeltaKind, FileDelta, Line};
use std::collections::BTreeSet;

/// A subject this short (`a`, `io`) names too many things to be read in another file.
const SUBJECT_MIN: usize = 4;

/// What a test file is about: its file name without extension and without the affixes that
/// make it a test (`test_x_an.py`, `x_test.go`, `x.test.ts`, `x.spec.js`, `XTest.java`,
/// `x_spec.rb` are all about `x_an`/`x`/`X`).
pub fn subject(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    let stem = stem.strip_prefix("test_").unwrap_or(stem);
    let stem = ["_test", "_spec", "Tests", "Test", "Spec", "IT"]
        .iter()
        .find_map(|suffix| stem.strip_suffix(suffix))
        .unwrap_or(stem);
    stem
}

/// Whether `name` appears in `line` starting at a word's start: `tutorial001_an` in
/// `"tutorial001_an_py39"`, not in `my_tutorial001_an`.
fn named_in(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(at, _)| {
        line[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
    })
}

/// A test named after its file's subject (`test_app02_an` in `test_app02_an.py`) bears the
/// sibling's subject in its place there (`test_app02` in `test_app02.py`): the same test,
/// run over both modules. The subject is read as whole words of the name (`_` apart).
fn named_for(name: &str, about: &str, own: &str) -> String {
    let words: Vec<&str> = name.split('_').collect();
    let subject: Vec<&str> = about.split('_').collect();
    let Some(at) = words
        .windows(subject.len())
        .position(|w| w == subject.as_slice())
    else {
        return name.to_string();
    };
    let mut out: Vec<&str> = words[..at].to_vec();
    out.push(own);
    out.extend(&words[at + subject.len()..]);
    out.join("_")
}

/// Whether the deleted file `gone` (its tests `gone_tests`) now runs as a parameter of the
/// test file `sibling`: a different file of the same language, whose tests after the change
/// bear every name `gone`'s did, and to which the change added a line naming `gone`'s
/// subject that the sibling's own subject does not already account for.
pub fn runs_over(
    gone: &FileDelta,
    gone_tests: &[Declared],
    sibling: &FileDelta,
    sibling_tests: &[Declared],
) -> bool {
    let about = subject(&gone.path);
    let own = subject(&sibling.path);
    if gone_tests.is_empty()
        || about.len() < SUBJECT_MIN
        || own == about
        || sibling.path == gone.path
        || Lang::from_path(&sibling.path) != Lang::from_path(&gone.path)
        || matches!(sibling.kind, DeltaKind::Deleted)
    {
        return false;
    }
    let names: BTreeSet<String> = sibling_tests.iter().map(test_name).collect();
    gone_tests.iter().all(|t| {
        let name = test_name(t);
        names.contains(&name) || names.contains(&named_for(&name, about, own))
    }) && sibling
        .added_lines
        .iter()
        .any(|l: &Line| named_in(&l.text, about))
}

/// The deleted test file at `at` runs on as a parameter of another test file of the change
/// (see [`runs_over`]).
pub fn parameterised_away(
    deltas: &[&FileDelta],
    at: usize,
    gone_tests: &[Declared],
    tests: &TestPaths,
    macros: &TestMacros,
) -> bool {
    let gone = deltas[at];
    deltas.iter().enumerate().any(|(j, sibling)| {
        if j == at || !tests.is_test(&sibling.path) {
            return false;
        }
        let (Some(text), Some(lang)) =
            (sibling.new_text.as_deref(), Lang::from_path(&sibling.path))
        else {
            return false;
        };
        if !sibling
            .added_lines
            .iter()
            .any(|l| named_in(&l.text, subject(&gone.path)))
        {
            return false;
        }
        let now = declared_with(&Line::all_of(text), Some(text), lang, true, macros);
        runs_over(gone, gone_tests, sibling, &now)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_file_is_about_its_stem_without_test_affixes() {
        assert_eq!(subject("tests/a/test_tutorial001_an.py"), "tutorial001_an");
        assert_eq!(subject("pkg/router_test.go"), "router");
        assert_eq!(subject("src/hooks.test.ts"), "hooks");
        assert_eq!(subject("spec/request_spec.rb"), "request");
        assert_eq!(subject("src/test/java/a/ParserTest.java"), "Parser");
    }

    #[test]
    fn a_test_named_after_its_file_bears_the_siblings_subject() {
        assert_eq!(
            named_for("test_app02_an", "app02_an", "app02"),
            "test_app02"
        );
        assert_eq!(named_for("test_script", "app02_an", "app02"), "test_script");
        // Whole words only: `app02_an` is not in `test_app02_and`.
        assert_eq!(
            named_for("test_app02_and", "app02_an", "app02"),
            "test_app02_and"
        );
    }

    #[test]
    fn a_subject_is_named_from_a_word_start() {
        assert!(named_in(
            "pytest.param(\"tutorial001_an_py39\"),",
            "tutorial001_an"
        ));
        assert!(named_in("from m import tutorial001_an", "tutorial001_an"));
        assert!(!named_in("import my_tutorial001_an", "tutorial001_an"));
    }
}
