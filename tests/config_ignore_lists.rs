//! A JavaScript linter's ignore list in its JSON configuration is a suppression list: a
//! pattern added to knip's `ignore` (`.knip.jsonc`, with comments and trailing commas) or
//! to the standard family's `ignore` / xo's `ignores` in `package.json` keeps the tool off
//! those files. A list re-sorted, a pattern removed, other keys of the same file
//! (`ignoreDependencies`, a `files` list, a dependency named like the tool) and a knip
//! configuration set up for the first time are not new. Real repositories, the real binary,
//! judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

fn knip(ignore: &[&str], deps: &[&str]) -> String {
    let quote = |items: &[&str]| -> String {
        items
            .iter()
            .map(|i| format!("    \"{i}\",\n"))
            .collect::<String>()
    };
    format!(
        "{{\n  // knip runs as npm run lint:knip\n  \"$schema\": \"https://unpkg.com/knip@6/schema-jsonc.json\",\n  \"entry\": [\"index.js!\"],\n  \"ignore\": [\n{}  ],\n  \"ignoreDependencies\": [\n{}  ],\n  \"rules\": {{ \"exports\": \"off\", }},\n}}\n",
        quote(ignore),
        quote(deps)
    )
}

const FIXTURE_A: &str = "test/fixtures/a.fixture.js";
const FIXTURE_B: &str = "test/fixtures/b.fixture.js";
const FIXTURE_C: &str = "test/fixtures/c.fixture.js";

#[test]
fn patterns_added_to_knips_ignore_list_are_new() {
    // Two fixtures go into the list around the one there (lines 6 and 8).
    let old = knip(&[FIXTURE_B], &["fake"]);
    let new = knip(&[FIXTURE_A, FIXTURE_B, FIXTURE_C], &["fake"]);
    both_ways(
        &[(".knip.jsonc", &old)],
        &writing(&[(".knip.jsonc", &new)]),
        &lint_lines(vec![(".knip.jsonc", 6), (".knip.jsonc", 8)]),
    );
}

#[test]
fn knips_list_resorted_shrunk_or_its_other_keys_changed_is_silent() {
    let old = knip(&[FIXTURE_A, FIXTURE_B], &["fake"]);
    let new = knip(&[FIXTURE_B], &["fake", "coffeescript", FIXTURE_C]);
    both_ways(
        &[(".knip.jsonc", &old)],
        &writing(&[(".knip.jsonc", &new)]),
        &lint_lines(vec![]),
    );
    let resorted = knip(&[FIXTURE_B, FIXTURE_A], &["fake"]);
    both_ways(
        &[(".knip.jsonc", &old)],
        &writing(&[(".knip.jsonc", &resorted)]),
        &lint_lines(vec![]),
    );
}

#[test]
fn a_knip_configuration_the_change_adds_sets_knip_up() {
    let new = knip(&[FIXTURE_A], &[]);
    both_ways(
        &[("index.js", "module.exports = 1;\n")],
        &writing(&[("knip.json", &new)]),
        &lint_lines(vec![]),
    );
}

fn package(ignore: &[&str]) -> String {
    let items: Vec<String> = ignore.iter().map(|i| format!("      \"{i}\"")).collect();
    format!(
        "{{\n  \"name\": \"demo\",\n  \"files\": [\"build\", \"lib/shim.mjs\"],\n  \"devDependencies\": {{\n    \"standardx\": \"^7.0.0\"\n  }},\n  \"standardx\": {{\n    \"ignore\": [\n{}\n    ]\n  }}\n}}\n",
        items.join(",\n")
    )
}

#[test]
fn a_pattern_added_to_the_standardx_ignore_list_is_new() {
    let old = package(&["build", "**/example/**"]);
    let new = package(&["build", "**/example/**", "lib/shim.mjs"]);
    both_ways(
        &[("package.json", &old)],
        &writing(&[("package.json", &new)]),
        &lint_lines(vec![("package.json", 11)]),
    );
}

#[test]
fn package_json_lists_that_are_no_linters_ignore_list_are_silent() {
    // `files` gains the same pattern, a dependency is bumped, the list loses an entry.
    let old = package(&["build", "**/example/**"]);
    let new = package(&["build"])
        .replace("\"lib/shim.mjs\"]", "\"lib/shim.mjs\", \"**/example/**\"]")
        .replace("^7.0.0", "^7.1.0");
    both_ways(
        &[("package.json", &old)],
        &writing(&[("package.json", &new)]),
        &lint_lines(vec![]),
    );
}
