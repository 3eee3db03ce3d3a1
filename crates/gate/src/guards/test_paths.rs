//! Which files are test files: built-in per-language globs (the conventions of the common
//! test runners) plus the user's `test_globs`.
//!
//! Rust keeps unit tests inside `src/*.rs` under `#[cfg(test)]`: those files are not test
//! *paths*, but the test-count guard counts `#[test]` functions in every `.rs` file, so
//! deleting inline tests is caught too (see `deleted`).

use super::globs::PathSet;
use super::languages::Lang;
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use std::sync::OnceLock;

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
            "**/*_unittest.{c,cc,cpp,cxx}",
            "**/test_*.{c,cc,cpp,cxx}",
        ]
        .iter()
        .map(|g| g.to_string()),
    );
    globs
}

fn builtin() -> &'static GlobSet {
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
        builtin().is_match(path) || self.extra.is_match(path)
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

    #[test]
    fn builtin_globs_all_compile() {
        assert_eq!(builtin().len(), builtin_globs().len());
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
