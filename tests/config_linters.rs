//! Suppressions written in RuboCop, golangci-lint, SpotBugs and ktlint configuration: a cop turned
//! off or excluded for files, a golangci-lint exclusion rule, a SpotBugs exclude `<Match>`,
//! a ktlint rule `disabled` in `.editorconfig` or a Gradle `editorConfigOverride`.
//! A new cop block is reported once at its name, a file added to an existing block at that
//! file; a cop renamed with the same files, moved between departments or between the
//! configuration and its todo file, or a rule migrated from golangci-lint v1 to v2 is not
//! new; raised limits, files excluded from every cop and formatter directives are not
//! suppressions. Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const RUBOCOP_OLD: &str = "AllCops:\n  TargetRubyVersion: 2.2\n\nLineLength:\n  Enabled: false\n\nMetrics/MethodLength:\n  Max: 15\n\nStyle/GlobalVars:\n  Exclude:\n    - 'bin/tool'\n";

#[test]
fn rubocop_cops_newly_off_or_excluded_are_new() {
    // Line 4 `Metrics/LineLength` is the old `LineLength` under its department; `Max`
    // raised and `AllCops: Exclude` are no suppressions. New: the `Metrics/AbcSize` block
    // (line 8), `lib/x.rb` added to `Style/GlobalVars` (line 17), the `Lint/Eval` block
    // (line 19).
    let new = "AllCops:\n  TargetRubyVersion: 2.2\n  Exclude:\n    - 'vendor/**/*'\n\nMetrics/LineLength:\n  Enabled: false\nMetrics/AbcSize:\n  Enabled: false\n\nMetrics/MethodLength:\n  Max: 30\n\nStyle/GlobalVars:\n  Exclude:\n    - 'bin/tool'\n    - 'lib/x.rb'\n\nLint/Eval:\n  Exclude:\n    - 'spec/helper.rb'\n";
    both_ways(
        &[(".rubocop.yml", RUBOCOP_OLD)],
        &writing(&[(".rubocop.yml", new)]),
        &lint_lines(vec![
            (".rubocop.yml", 8),
            (".rubocop.yml", 17),
            (".rubocop.yml", 19),
        ]),
    );
}

#[test]
fn rubocop_cops_renamed_or_moved_from_the_todo_file_are_not_new() {
    // An upgrade: `Lint/HandleExceptions` renamed `Lint/SuppressedException` with the same
    // files, `Lint/EndAlignment` moved to `Layout/EndAlignment` with the todo file's entry
    // folded in. Only `lib/c.rb` (line 8) and the new `Lint/MissingSuper` (line 10) are new.
    let old = "Lint/HandleExceptions:\n  Exclude:\n    - 'lib/a.rb'\n\nLint/EndAlignment:\n  Exclude:\n    - 'lib/b.rb'\n";
    let todo = "inherit_mode: {}\nLint/EndAlignment:\n  Exclude:\n    - 'lib/e.rb'\n\nStyle/Documentation:\n  Enabled: false\n";
    let new = "Lint/SuppressedException:\n  Exclude:\n    - 'lib/a.rb'\n\nLayout/EndAlignment:\n  Exclude:\n    - 'lib/b.rb'\n    - 'lib/c.rb'\n    - 'lib/e.rb'\nLint/MissingSuper:\n  Exclude:\n    - 'lib/d.rb'\n";
    let new_todo = "inherit_mode: {}\nStyle/Documentation:\n  Enabled: false\n";
    both_ways(
        &[(".rubocop.yml", old), (".rubocop_todo.yml", todo)],
        &writing(&[(".rubocop.yml", new), (".rubocop_todo.yml", new_todo)]),
        &lint_lines(vec![(".rubocop.yml", 8), (".rubocop.yml", 10)]),
    );
}

const GOLANGCI_V2: &str = "version: \"2\"\nlinters:\n  enable:\n    - gosec\n  exclusions:\n    rules:\n      - path: _test\\.go\n        linters:\n          - gosec\n";

#[test]
fn a_golangci_exclusion_rule_added_is_new() {
    let new = format!(
        "{GOLANGCI_V2}      - linters: # until the linter knows the directive\n          - gocheckcompilerdirectives\n        text: 'directive unrecognized: //go:fix'\n"
    );
    both_ways(
        &[
            (".golangci.yml", GOLANGCI_V2),
            ("main.go", "package main\n"),
        ],
        &writing(&[(".golangci.yml", &new)]),
        &lint_lines(vec![(".golangci.yml", 11)]),
    );
}

#[test]
fn golangci_rules_migrated_from_v1_to_v2_are_not_new() {
    let v1 = "linters:\n  enable:\n    - gosec\nissues:\n  exclude-rules:\n    - path: _test\\.go\n      linters: [gosec]\n";
    both_ways(
        &[(".golangci.yml", v1)],
        &writing(&[(".golangci.yml", GOLANGCI_V2)]),
        &lint_lines(vec![]),
    );
}

const SPOTBUGS_OLD: &str = "<?xml version=\"1.0\"?>\n<FindBugsFilter>\n  <Match>\n    <Class name=\"a.B\" />\n    <Bug pattern=\"EI_EXPOSE_REP\" />\n  </Match>\n</FindBugsFilter>\n";

#[test]
fn a_spotbugs_exclude_match_added_is_new_and_one_reordered_is_not() {
    let added = SPOTBUGS_OLD.replace(
        "</FindBugsFilter>",
        "  <Match>\n    <!-- False positive -->\n    <Class name=\"a.C\" />\n    <Method name=\"read\" />\n    <Bug pattern=\"NCR_NOT_PROPERLY_CHECKED_READ\" />\n  </Match>\n</FindBugsFilter>",
    );
    both_ways(
        &[("src/conf/spotbugs-exclude-filter.xml", SPOTBUGS_OLD)],
        &writing(&[("src/conf/spotbugs-exclude-filter.xml", &added)]),
        &lint_lines(vec![("src/conf/spotbugs-exclude-filter.xml", 11)]),
    );
    // The same match with its elements re-ordered and a comment added.
    let reordered = "<?xml version=\"1.0\"?>\n<FindBugsFilter>\n  <!-- kept -->\n  <Match>\n    <Bug pattern=\"EI_EXPOSE_REP\" />\n    <Class name=\"a.B\" />\n  </Match>\n</FindBugsFilter>\n";
    both_ways(
        &[("src/conf/spotbugs-exclude-filter.xml", SPOTBUGS_OLD)],
        &writing(&[("src/conf/spotbugs-exclude-filter.xml", reordered)]),
        &lint_lines(vec![]),
    );
}

#[test]
fn biome_ignore_format_is_a_formatter_directive_and_biome_ignore_lint_is_not() {
    let old = "export const a = 1;\n";
    let new = "export const a = 1;\n// biome-ignore format: keep the table aligned\nexport const t = [1,   2];\n// biome-ignore lint/security/noGlobalEval: bench\neval(\"1\");\n";
    both_ways(
        &[("src/a.ts", old)],
        &writing(&[("src/a.ts", new)]),
        &lint_lines(vec![("src/a.ts", 4)]),
    );
}

#[test]
fn a_linter_disabled_everywhere_then_excluded_for_tests_only_is_narrowed() {
    // `errcheck` was off everywhere and is now excluded for test files only (narrowed);
    // `noctx`, which ran everywhere, is newly excluded for test files (line 9).
    let old = "linters:\n  enable:\n    - noctx\n  disable:\n    - errcheck\n";
    let new = "linters:\n  enable:\n    - noctx\n    - errcheck\n  exclusions:\n    rules:\n      - linters:\n        - errcheck\n        - noctx\n        path: _test.go\n";
    both_ways(
        &[(".golangci.yaml", old)],
        &writing(&[(".golangci.yaml", new)]),
        &lint_lines(vec![(".golangci.yaml", 9)]),
    );
}

#[test]
fn a_configuration_file_added_sets_the_linter_up() {
    // A first `.rubocop.yml`: its cops off configure a linter that never ran here.
    let first = "Style/Documentation:\n  Enabled: false\n";
    both_ways(
        &[("lib/a.rb", "x = 1\n")],
        &writing(&[(".rubocop.yml", first)]),
        &lint_lines(vec![]),
    );
}

const GRADLE: &str = concat!(
    "subprojects {\n",
    "  spotless {\n",
    "    kotlin {\n",
    "      ktlint(libs.ktlint.get().version)\n",
    "      target 'src/**/*.kt'\n",
    "    }\n",
    "  }\n",
    "}\n",
);

const EDITORCONFIG: &str = concat!(
    "root = true\n",
    "\n",
    "[*]\n",
    "indent_size = 2\n",
    "\n",
    "[*.{kt,kts}]\n",
    "ktlint_code_style = intellij_idea\n",
);

/// A ktlint rule turned off in a Spotless `editorConfigOverride` map of a Gradle script, or
/// as `ktlint_standard_<rule> = disabled` in `.editorconfig`, fires at its line.
#[test]
fn a_ktlint_rule_disabled_in_gradle_or_editorconfig_fires() {
    let gradle = GRADLE.replace(
        "      target 'src/**/*.kt'\n",
        concat!(
            "        .editorConfigOverride([\n",
            "          // An expression body should be a choice.\n",
            "          'ktlint_standard_function-expression-body': 'disabled',\n",
            "        ])\n",
            "      target 'src/**/*.kt'\n",
        ),
    );
    let editorconfig = format!("{EDITORCONFIG}ktlint_standard_no-wildcard-imports = disabled\n");
    both_ways(
        &[("build.gradle", GRADLE), (".editorconfig", EDITORCONFIG)],
        &writing(&[("build.gradle", &gradle), (".editorconfig", &editorconfig)]),
        &lint_lines(vec![(".editorconfig", 8), ("build.gradle", 7)]),
    );
}

/// Lookalikes: a rule moved from `.editorconfig` into the Gradle override is moved; a rule
/// set back to `enabled`, the code style chosen and experimental rules turned off (they
/// are off by default) silence nothing.
#[test]
fn a_ktlint_rule_moved_to_gradle_or_enabled_is_no_finding() {
    let old = format!("{EDITORCONFIG}ktlint_standard_filename = disabled\n");
    let gradle = GRADLE.replace(
        "      target 'src/**/*.kt'\n",
        concat!(
            "        .editorConfigOverride(['ktlint_standard_filename': 'disabled'])\n",
            "      target 'src/**/*.kt'\n",
        ),
    );
    both_ways(
        &[("build.gradle", GRADLE), (".editorconfig", &old)],
        &writing(&[("build.gradle", &gradle), (".editorconfig", EDITORCONFIG)]),
        &lint_lines(vec![]),
    );
    let quiet = format!(
        "{}ktlint_standard_filename = enabled\nktlint_experimental = disabled\n",
        EDITORCONFIG.replace("intellij_idea", "ktlint_official")
    );
    both_ways(
        &[(".editorconfig", &old)],
        &writing(&[(".editorconfig", &quiet)]),
        &lint_lines(vec![]),
    );
}
