//! Arbitrary repository text through every guard: the lexer, the test counters, the skip,
//! suppression, TODO and debug readers, the config-file parsers (TOML, INI, YAML, JSON, pom,
//! ESLint, Psalm/PHPStan baselines, SpotBugs, ktlint, Xcode test plans, CMake) and the Go build-constraint reader
//! must answer, never panic, on any file of any known kind. The first byte picks the path,
//! the rest splits at the first NUL into the old and new text.
#![no_main]

use gate::config::GuardsConfig;
use gate::guards::{count_tests, run_guards, DeltaKind, FileDelta, Line};
use libfuzzer_sys::fuzz_target;

const PATHS: &[&str] = &[
    "tests/test_a.py",
    "src/a.test.js",
    "src/b.spec.ts",
    "pkg/a_test.go",
    "src/lib.rs",
    "tests/it.rs",
    "src/test/java/ATest.java",
    "src/test/kotlin/BTest.kt",
    "spec/a_spec.rb",
    "pyproject.toml",
    "Cargo.toml",
    "pom.xml",
    ".eslintrc.json",
    "eslint.config.js",
    "test/a.exs",
    "Tests/ATests.cs",
    "Tests/ATests.swift",
    "src/a.cpp",
    "tests/ATest.php",
    "lib/a.rb",
    "src/a.go",
    "src/a.ts",
    "psalm-baseline.xml",
    "phpstan-baseline.neon",
    "spotbugs-exclude.xml",
    ".rubocop.yml",
    ".rubocop_todo.yml",
    ".golangci.yml",
    "setup.cfg",
    "mypy.ini",
    "ruff.toml",
    ".cargo/config.toml",
    "package.json",
    "knip.json",
    "tsconfig.json",
    ".editorconfig",
    "build.gradle.kts",
    ".github/workflows/ci.yml",
    "test/format-test.cc",
    "test/CMakeLists.txt",
    "Tests/All.xctestplan",
    "doc/scss/_buttons.scss",
    "web/site.css",
    "web/theme.less",
    "src/parser.erl",
    "mix.exs",
    "Sources/Download.m",
];

fn lines(text: &str) -> Vec<Line> {
    text.lines()
        .enumerate()
        .map(|(i, l)| Line {
            number: i as u32 + 1,
            text: l.to_string(),
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let path = PATHS[pick as usize % PATHS.len()];
    let (old, new) = text.split_once('\0').unwrap_or(("", text));
    let delta = FileDelta {
        path: path.to_string(),
        kind: DeltaKind::Modified,
        added_lines: lines(new),
        removed_lines: lines(old),
        old_counts: Some(count_tests(path, old)),
        old_text: Some(old.to_string()),
        new_text: Some(new.to_string()),
    };
    let cfg = GuardsConfig::default();
    for report in run_guards(std::slice::from_ref(&delta), &cfg) {
        for f in &report.findings {
            assert!(!f.message.is_empty());
        }
    }
    let _ = gate::guards::unparsable_configs(std::slice::from_ref(&delta), &cfg);
});
