//! Which files are test files: built-in per-language globs (the conventions of the common
//! test runners) plus the user's `test_globs`.
//!
//! Rust keeps unit tests inside `src/*.rs` under `#[cfg(test)]`: those files are not test
//! *paths*, but the test-count guard counts `#[test]` functions in every `.rs` file, so
//! deleting inline tests is caught too (see `deleted`).

use super::languages::Lang;
use super::PathSet;

const JS_EXTS: &[&str] = &["js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts"];

/// The built-in conventions, matched by hand rather than through a compiled glob set:
/// the done gate runs in a fresh process at every stop, and compiling ~45 globs there
/// costs milliseconds. The equivalent globs are listed in `docs/guards.md` and the tests
/// check this function against them.
fn builtin_is_test(path: &str) -> bool {
    let mut parts: Vec<&str> = path.split('/').collect();
    let name = parts.pop().unwrap_or("");
    let dirs = parts;
    let has_dir = |d: &str| dirs.contains(&d);
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) => (stem, ext),
        None => (name, ""),
    };
    if has_dir("__tests__") || name.contains(".spec.") {
        return true;
    }
    match ext {
        e if JS_EXTS.contains(&e) => {
            stem.ends_with(".test")
                || stem.ends_with("-test")
                || stem.ends_with("_test")
                || stem.starts_with("test-")
                || stem == "test"
                || has_dir("test")
                || has_dir("tests")
                || has_dir("spec")
        }
        "py" => {
            stem.starts_with("test_")
                || stem.ends_with("_test")
                || name == "conftest.py"
                || has_dir("tests")
                || has_dir("test")
        }
        "go" => stem.ends_with("_test"),
        "rs" => has_dir("tests"),
        "java" | "kt" | "kts" => {
            let in_test_tree = dirs
                .windows(2)
                .any(|w| w[0] == "src" && (w[1] == "test" || w[1] == "androidTest"));
            in_test_tree
                || (ext != "kts"
                    && (stem.ends_with("Test") || stem.ends_with("Tests") || stem.ends_with("IT")))
        }
        "rb" => {
            stem.ends_with("_spec")
                || stem.ends_with("_test")
                || stem.starts_with("test_")
                || has_dir("spec")
                || has_dir("test")
        }
        "exs" => stem.ends_with("_test") || has_dir("test"),
        "cs" => {
            stem.ends_with("Tests")
                || stem.ends_with("Test")
                || dirs
                    .iter()
                    .any(|d| d.ends_with(".Tests") || d.ends_with(".Test"))
        }
        "php" => stem.ends_with("Test") || has_dir("tests"),
        "swift" => stem.ends_with("Tests") || stem.ends_with("Test") || has_dir("Tests"),
        // googletest's own convention is `_test`/`_unittest`; many C++ projects spell the
        // same suffix with a hyphen or in the plural (`format-test.cc`, `util_tests.cpp`).
        "c" | "cc" | "cpp" | "cxx" => {
            ["_test", "-test", "_tests", "-tests", "_unittest"]
                .iter()
                .any(|suffix| stem.ends_with(suffix))
                || stem.starts_with("test_")
        }
        _ => false,
    }
}

/// Built-in test globs plus the user's, compiled once; ask it about many paths.
#[derive(Debug, Clone, Default)]
pub struct TestPaths {
    extra: PathSet,
}

impl TestPaths {
    pub fn new<S: AsRef<str>>(extra: &[S]) -> TestPaths {
        TestPaths {
            extra: PathSet::new(extra),
        }
    }

    pub fn is_test(&self, path: &str) -> bool {
        builtin_is_test(path) || self.extra.is_match(path)
    }

    /// Whether `deleted_tests` compares this file's test count: test paths, and every
    /// Rust file (unit tests live inline in `src/*.rs`). The edge records old counts for
    /// these paths.
    pub fn is_counted(&self, path: &str) -> bool {
        self.is_test(path) || Lang::from_path(path) == Some(Lang::Rust)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(path: &str) -> bool {
        TestPaths::new::<&str>(&[]).is_test(path)
    }

    use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
    use proptest::prelude::*;
    use std::sync::OnceLock;

    // The conventions as globs: the oracle the hand-written matcher must agree with.
    const JS: &str = "{js,jsx,ts,tsx,mjs,cjs,mts,cts}";

    fn builtin_globs() -> Vec<String> {
        let mut globs: Vec<String> = [
            // JavaScript / TypeScript: jest, vitest, mocha, node --test.
            "**/*.test.JS",
            "**/*.spec.JS",
            "**/*-test.JS",
            "**/*_test.JS",
            "**/test-*.JS",
            "**/test.JS",
            "**/__tests__/**",
            "**/test/**/*.JS",
            "**/tests/**/*.JS",
            "**/spec/**/*.JS",
            "**/*.spec.*",
        ]
        .iter()
        .map(|g| g.replace("JS", JS))
        .collect();
        globs.extend(
            [
                // Python: pytest and unittest discovery.
                "**/test_*.py",
                "**/*_test.py",
                "**/tests/**/*.py",
                "**/test/**/*.py",
                "**/conftest.py",
                // Go
                "**/*_test.go",
                // Rust integration tests and benches
                "**/tests/**/*.rs",
                // Java / Kotlin
                "**/src/test/**/*.{java,kt,kts}",
                "**/src/androidTest/**/*.{java,kt,kts}",
                "**/*Test.{java,kt}",
                "**/*Tests.{java,kt}",
                "**/*IT.{java,kt}",
                // Ruby: RSpec and minitest
                "**/*_spec.rb",
                "**/*_test.rb",
                "**/test_*.rb",
                "**/spec/**/*.rb",
                "**/test/**/*.rb",
                // Elixir: ExUnit
                "**/*_test.exs",
                "**/test/**/*.exs",
                // C#: xUnit, NUnit, MSTest
                "**/*Tests.cs",
                "**/*Test.cs",
                "**/*.Tests/**/*.cs",
                "**/*.Test/**/*.cs",
                // PHP: PHPUnit, Pest
                "**/*Test.php",
                "**/tests/**/*.php",
                // Swift: XCTest, Swift Testing
                "**/*Tests.swift",
                "**/*Test.swift",
                "**/Tests/**/*.swift",
                // C / C++: googletest and friends
                "**/*_test.{c,cc,cpp,cxx}",
                "**/*-test.{c,cc,cpp,cxx}",
                "**/*_tests.{c,cc,cpp,cxx}",
                "**/*-tests.{c,cc,cpp,cxx}",
                "**/*_unittest.{c,cc,cpp,cxx}",
                "**/test_*.{c,cc,cpp,cxx}",
            ]
            .iter()
            .map(|g| g.to_string()),
        );
        globs
    }

    fn oracle() -> &'static GlobSet {
        static SET: OnceLock<GlobSet> = OnceLock::new();
        SET.get_or_init(|| {
            let mut builder = GlobSetBuilder::new();
            for glob in builtin_globs() {
                if let Ok(g) = GlobBuilder::new(&glob).literal_separator(true).build() {
                    builder.add(g);
                }
            }
            builder.build().unwrap_or_else(|_| GlobSet::empty())
        })
    }

    #[test]
    fn oracle_globs_all_compile() {
        assert_eq!(oracle().len(), builtin_globs().len());
    }

    proptest! {
        #[test]
        fn hand_matcher_agrees_with_the_globs(
            dirs in prop::collection::vec(prop::sample::select(vec![
                "src", "test", "tests", "spec", "__tests__", "lib", "Tests", "Foo.Tests", "Bar.Test",
                "androidTest", "main", "a.spec.d", "pkg",
            ]), 0..4),
            stem in prop::sample::select(vec![
                "a", "a.test", "a.spec", "a-test", "a_test", "test-a", "test", "test_a", "conftest",
                "ATest", "ATests", "AIT", "a_spec", "a_unittest", "contest", "latest", "testing", "Test",
                "a_tests", "a-tests", "a-tester", "a_testing",
            ]),
            ext in prop::sample::select(vec![
                "js", "tsx", "mjs", "cts", "py", "go", "rs", "java", "kt", "kts", "rb", "exs", "ex",
                "cs", "php", "swift", "c", "cc", "cpp", "md", "json", "",
            ]),
        ) {
            let mut path = dirs.join("/");
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(stem);
            if !ext.is_empty() {
                path.push('.');
                path.push_str(ext);
            }
            prop_assert_eq!(builtin_is_test(&path), oracle().is_match(&path), "{}", path);
        }
    }

    #[test]
    fn conventional_test_files_per_language() {
        for path in [
            "src/a.test.ts",
            "a.spec.jsx",
            "src/__tests__/x.js",
            "test/parse.mjs",
            "lib/parse-test.js",
            "tests/test_a.py",
            "pkg/a_test.py",
            "conftest.py",
            "pkg/a_test.go",
            "tests/cli.rs",
            "crates/x/tests/it/main.rs",
            "app/src/test/java/a/AppTest.java",
            "src/test/kotlin/A.kt",
            "spec/models/user_spec.rb",
            "test/models/user_test.rb",
            "test/app_test.exs",
            "Foo.Tests/BarTests.cs",
            "tests/Unit/UserTest.php",
            "Tests/AppTests/AppTests.swift",
            "net/url_test.cc",
        ] {
            assert!(t(path), "{path} should be a test path");
        }
    }

    #[test]
    fn ordinary_sources_are_not_test_files() {
        for path in [
            "src/index.ts",
            "src/testing.js",
            "src/contest.py",
            "pkg/latest.go",
            "src/lib.rs",
            "src/main/java/a/App.java",
            "app/models/user.rb",
            "lib/app.ex",
            "Foo/Bar.cs",
            "src/User.php",
            "Sources/App/App.swift",
            "README.md",
        ] {
            assert!(!t(path), "{path} should not be a test path");
        }
    }

    #[test]
    fn extra_globs_add_test_files() {
        let paths = TestPaths::new(&["checks/*.js"]);
        assert!(paths.is_test("checks/a.js"));
        assert!(!paths.is_test("src/a.js"));
    }

    #[test]
    fn rust_sources_are_counted_but_not_test_paths() {
        let paths = TestPaths::default();
        assert!(paths.is_counted("src/lib.rs"));
        assert!(!paths.is_test("src/lib.rs"));
        assert!(paths.is_counted("a.test.js"));
        assert!(!paths.is_counted("src/a.js"));
    }
}
