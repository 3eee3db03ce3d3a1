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
//!
//! A test framework vendored with its own test suite is the same thing one level up: its
//! tests of its skip markers (googletest's `DISABLED_` tests, run by its Python tests to
//! check filtering) are inputs of the framework's tests, inside a tree that also holds the
//! framework's defining header. See [`framework_copies`].

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

/// A test framework's markers, with the header that defines them: a copy of the framework
/// is the tree that holds that header, and a skip marker in it is the framework's own test
/// of the marker (googletest's `gtest_filter_unittest_.cc` declares `DISABLED_` tests to
/// check `--gtest_also_run_disabled_tests`), not a skip of the repository's tests.
struct Framework {
    /// The skip labels ([`super::skips`]) the framework defines.
    labels: &'static [&'static str],
    /// The defining header, by its last two path parts (`gtest/gtest.h`).
    header: &'static str,
    /// What the header's text holds when it is the framework's (its test macro's
    /// definition), so a project's own file of that name is not taken for it.
    defines: &'static [&'static str],
}

const FRAMEWORKS: &[Framework] = &[Framework {
    labels: &["DISABLED_", "GTEST_SKIP("],
    header: "gtest/gtest.h",
    defines: &["define TEST(", "define GTEST_TEST("],
}];

/// The directories a defining header at `header` (a path ending in the framework's
/// `gtest/gtest.h`) makes a copy of the framework: in the source layout
/// (`R/include/gtest/gtest.h`) the whole of `R` (its sources, its own tests); a fused header
/// (`test/gtest/gtest.h`) only its own `gtest/` directory, since the tree around it holds
/// the project's tests that use it.
fn copy_root(header: &str, name: &str) -> Option<String> {
    let dir = header.strip_suffix(name)?;
    if !(dir.is_empty() || dir.ends_with('/')) {
        return None;
    }
    let dir = dir.trim_end_matches('/');
    let top = name.split('/').next().unwrap_or(name);
    Some(
        match dir
            .strip_suffix("include")
            .filter(|r| r.is_empty() || r.ends_with('/'))
        {
            Some(root) => root.trim_end_matches('/').to_string(),
            None if dir.is_empty() => top.to_string(),
            None => format!("{dir}/{top}"),
        },
    )
}

/// Where a framework's defining header could be for a marker in `path`: for each directory
/// above the file, `D/include/gtest/gtest.h` and `D/gtest/gtest.h`, as the directories to
/// list (`D/include/gtest`, `D/gtest`).
pub fn header_dirs(path: &str, label: &str) -> Vec<String> {
    let mut out = Vec::new();
    for fw in FRAMEWORKS.iter().filter(|f| f.labels.contains(&label)) {
        let top = fw.header.rsplit_once('/').map_or("", |(d, _)| d);
        let mut dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        loop {
            let join = |rest: &str| {
                if dir.is_empty() {
                    rest.to_string()
                } else {
                    format!("{dir}/{rest}")
                }
            };
            out.push(join(&format!("include/{top}")));
            out.push(join(top));
            match dir.rsplit_once('/') {
                Some((up, _)) => dir = up,
                None if !dir.is_empty() => dir = "",
                None => break,
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The roots of the framework copies among `files` (`(path, text)`: the change's files and
/// their neighbours as they are now) whose markers `label` is one of: see [`copy_root`].
pub fn framework_copies<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str)>,
    label: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        for fw in FRAMEWORKS.iter().filter(|f| f.labels.contains(&label)) {
            let defines = || {
                text.lines().any(|l| {
                    let code: String = l.split_whitespace().collect::<Vec<_>>().join(" ");
                    let code = code.replace("# define", "#define");
                    fw.defines.iter().any(|d| code.contains(&format!("#{d}")))
                })
            };
            if let Some(root) = copy_root(path, fw.header).filter(|_| defines()) {
                out.push(root);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether `path` lies in one of the framework copies `roots` (see [`framework_copies`]).
pub fn in_copy(path: &str, roots: &[String]) -> bool {
    roots.iter().any(|r| {
        r.is_empty()
            || path
                .strip_prefix(r.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
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

    const GTEST_H: &str = "#ifndef GTEST_H_\n# define TEST(a, b) GTEST_TEST(a, b)\n#endif\n";

    #[test]
    fn a_source_copy_of_the_framework_is_its_whole_tree() {
        let roots = framework_copies([("gtest/include/gtest/gtest.h", GTEST_H)], "DISABLED_");
        assert_eq!(roots, ["gtest"]);
        assert!(in_copy("gtest/test/gtest_filter_unittest_.cc", &roots));
        assert!(!in_copy("test/format-test.cc", &roots));
        assert!(!in_copy("gtest-extra/a.cc", &roots));
        // googletest's own repository: the header under the root's `include/`.
        let own = framework_copies([("include/gtest/gtest.h", GTEST_H)], "GTEST_SKIP(");
        assert_eq!(own, [""]);
        assert!(in_copy("test/gtest_unittest.cc", &own));
    }

    #[test]
    fn a_fused_header_is_a_copy_of_its_own_directory_only() {
        let roots = framework_copies([("test/gtest/gtest.h", GTEST_H)], "GTEST_SKIP(");
        assert_eq!(roots, ["test/gtest"]);
        assert!(in_copy("test/gtest/gtest.h", &roots));
        // The project's tests beside the fused header use it: they are no part of it.
        assert!(!in_copy("test/chrono-test.cc", &roots));
    }

    #[test]
    fn a_header_of_that_name_that_defines_no_test_macro_is_no_copy() {
        let mine = "#pragma once\n#include <gtest/gtest.h>\n";
        assert!(framework_copies([("include/gtest/gtest.h", mine)], "DISABLED_").is_empty());
        assert!(framework_copies([("src/mygtest/gtest.h", GTEST_H)], "DISABLED_").is_empty());
        assert!(framework_copies([("include/gtest/gtest.h", GTEST_H)], "@Ignore").is_empty());
    }

    #[test]
    fn header_dirs_walk_up_from_the_file() {
        assert_eq!(
            header_dirs("gtest/test/a.cc", "DISABLED_"),
            [
                "gtest",
                "gtest/gtest",
                "gtest/include/gtest",
                "gtest/test/gtest",
                "gtest/test/include/gtest",
                "include/gtest"
            ]
        );
        assert!(header_dirs("a.cc", "XCTSkip(").is_empty());
    }
}
