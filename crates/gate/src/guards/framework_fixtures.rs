//! Files that are the input of a test, not tests of the suite.
//!
//! A test of a test runner (or of anything that loads test files) keeps small test files for
//! it to run: `test/integration/fixtures/dry-run.fixture.js` holds `it.skip` and `it.only`
//! because the test that passes it to the runner asserts how they are reported. The suite's
//! own globs never pick such a file up; it runs only when a test hands it over by name.
//!
//! A file is such a fixture when both hold:
//! - its path says it is data: a directory named `fixtures`, `__fixtures__` or `testdata`
//!   (Go's tool ignores `testdata`; Jest's and mocha's conventions keep inputs there), or a
//!   `.fixture.` part in its file name;
//! - a test file of the change, before or after it, names it in a string literal: the whole
//!   string is its stem (the file name up to its first `.`), or the string's last
//!   `/`-separated part is the stem, alone or followed by `.` and more (`'dry-run'` in
//!   `path.join('options/dry-run', 'dry-run')`, `"options/watch/barrier"`,
//!   `"deprecate.fixture.js"`). The change then touches the test that runs it, so what the
//!   fixture holds is what that test is about.
//!
//! The path alone is not enough: a repository may keep real tests under a directory of that
//! name, and nothing of the change says otherwise.

use super::test_paths::TestPaths;
use super::FileDelta;

/// Whether the path reads as test data: a `fixtures`/`__fixtures__`/`testdata` directory
/// or a `.fixture.` part in the file name.
pub fn data_path(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let name = parts.pop().unwrap_or("");
    parts
        .iter()
        .any(|d| matches!(*d, "fixtures" | "__fixtures__" | "testdata"))
        || name.contains(".fixture.")
}

/// The file name up to its first `.`.
fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}

/// The contents of the single-line string literals of `text` (`'..'`, `".."`, `` `..` ``).
fn strings(text: &str) -> impl Iterator<Item = &str> {
    text.lines().flat_map(|line| {
        let mut out = Vec::new();
        let mut rest = line;
        while let Some(open) = rest.find(['\'', '"', '`']) {
            let q = rest[open..].chars().next().unwrap_or('"');
            let after = &rest[open + 1..];
            let Some(close) = after.find(q) else {
                break;
            };
            out.push(&after[..close]);
            rest = &after[close + 1..];
        }
        out
    })
}

/// Whether the string names a file whose stem is `stem`.
fn names(s: &str, stem: &str) -> bool {
    let last = s.rsplit('/').next().unwrap_or(s);
    last == stem
        || last
            .strip_prefix(stem)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// Whether `d` is a fixture of the change's tests (see the module's comment). `deltas` are
/// every file of the change.
pub fn is_fixture(d: &FileDelta, deltas: &[&FileDelta], tests: &TestPaths) -> bool {
    if !data_path(&d.path) {
        return false;
    }
    let stem = stem(&d.path);
    if stem.is_empty() {
        return false;
    }
    deltas.iter().any(|o| {
        o.path != d.path
            && tests.is_test(&o.path)
            && !data_path(&o.path)
            && [o.old_text.as_deref(), o.new_text.as_deref()]
                .into_iter()
                .flatten()
                .any(|t| strings(t).any(|s| names(s, stem)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::DeltaKind;

    fn delta(path: &str, old: Option<&str>, new: Option<&str>) -> FileDelta {
        FileDelta {
            path: path.into(),
            kind: DeltaKind::Modified,
            added_lines: vec![],
            removed_lines: vec![],
            old_text: old.map(str::to_string),
            old_counts: None,
            new_text: new.map(str::to_string),
        }
    }

    #[test]
    fn a_data_path_named_by_a_test_of_the_change_is_a_fixture() {
        let t = TestPaths::new::<&str>(&[]);
        let fixture = delta(
            "test/integration/fixtures/options/dry-run/dry-run.fixture.js",
            None,
            Some("it.skip('a', function () {});\n"),
        );
        let spec = delta(
            "test/integration/options/dryRun.spec.js",
            None,
            Some("var f = path.join('options/dry-run', 'dry-run');\n"),
        );
        assert!(is_fixture(&fixture, &[&fixture, &spec], &t));
        // The test that named it is gone with it.
        let gone = delta(
            "test/integration/deprecate.spec.js",
            Some("run(\"deprecate.fixture.js\", args);\n"),
            None,
        );
        let dep = delta("test/integration/fixtures/deprecate.fixture.js", None, None);
        assert!(is_fixture(&dep, &[&dep, &gone], &t));
    }

    #[test]
    fn a_data_path_nothing_names_or_a_test_path_is_not() {
        let t = TestPaths::new::<&str>(&[]);
        let fixture = delta("test/fixtures/slow.spec.js", None, Some("it.skip('a')\n"));
        let spec = delta("test/other.spec.js", None, Some("run('slower');\n"));
        assert!(!is_fixture(&fixture, &[&fixture, &spec], &t));
        // A string naming it outside a test file names nothing the suite runs.
        let lib = delta("lib/run.js", None, Some("run('slow');\n"));
        assert!(!is_fixture(&fixture, &[&fixture, &lib], &t));
        // A real test, named by a test, is still a test when its path is not data.
        let real = delta("test/slow.spec.js", None, Some("it.skip('a')\n"));
        let naming = delta("test/a.spec.js", None, Some("require('./slow.spec.js');\n"));
        assert!(!is_fixture(&real, &[&real, &naming], &t));
        assert!(data_path("pkg/testdata/x_test.go"));
        assert!(data_path("spec/__fixtures__/a.js"));
        assert!(!data_path("test/fixture_loader.spec.js"));
    }
}
