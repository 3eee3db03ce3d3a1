//! Suppression shapes that are not one directive on one line: a rule added to a
//! suppression list wrapped over lines (`#![allow(` .. `)]`, `@SuppressWarnings({` ..
//! `})`), an ESLint inline configuration turning a rule off (`/* eslint no-undef: 0 */`),
//! and `@ts-expect-error` as the assertion of a typings test that `tsc` only compiles.
//! Plus one skip shape: an attribute macro's conditional `ignore`
//! (`#[rustversion::attr(not(nightly), ignore)]`). Each change is judged uncommitted and
//! committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};
use serde_json::Value;

const LIB: &str = "src/lib.rs";

const ALLOW_LIST: &str = concat!(
    "#![allow(\n",
    "    clippy::cast_lossless,\n",
    "    clippy::doc_markdown,\n",
    ")]\n",
    "\n",
    "pub fn f() -> u64 {\n",
    "    1\n",
    "}\n",
);

fn expect(
    guard: &'static str,
    want: Vec<(&'static str, u64)>,
) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = want.iter().map(|(p, l)| (p.to_string(), *l)).collect();
        assert_eq!(lines_of(receipt, guard), want, "{mode}: {receipt}");
        let tripped =
            lines_of(receipt, "disabled_lint").len() + lines_of(receipt, "new_skips").len();
        assert_eq!(code, Some(if tripped > 0 { 3 } else { 0 }), "{mode}");
    }
}

#[test]
fn a_lint_added_to_a_multi_line_allow_list_is_a_new_suppression() {
    let changed = ALLOW_LIST.replace(
        "    clippy::doc_markdown,\n",
        "    clippy::doc_markdown,\n    clippy::needless_lifetimes,\n",
    );
    both_ways(
        &[(LIB, ALLOW_LIST)],
        &writing(&[(LIB, &changed)]),
        &expect("disabled_lint", vec![(LIB, 4)]),
    );
}

#[test]
fn a_multi_line_allow_list_reordered_or_rewrapped_adds_nothing() {
    let reordered = ALLOW_LIST.replace(
        "    clippy::cast_lossless,\n    clippy::doc_markdown,\n",
        "    clippy::doc_markdown,\n    clippy::cast_lossless,\n",
    );
    both_ways(
        &[(LIB, ALLOW_LIST)],
        &writing(&[(LIB, &reordered)]),
        &expect("disabled_lint", vec![]),
    );
    let one_line =
        "#![allow(clippy::cast_lossless, clippy::doc_markdown)]\n\npub fn f() -> u64 {\n    1\n}\n";
    both_ways(
        &[(LIB, one_line)],
        &writing(&[(LIB, ALLOW_LIST)]),
        &expect("disabled_lint", vec![]),
    );
}

#[test]
fn a_rule_added_to_a_multi_line_suppress_warnings_list_is_a_new_suppression() {
    let path = "src/main/java/A.java";
    let old = "@SuppressWarnings({\n    \"unchecked\",\n})\nclass A {}\n";
    let new = "@SuppressWarnings({\n    \"unchecked\",\n    \"rawtypes\",\n})\nclass A {}\n";
    both_ways(
        &[(path, old)],
        &writing(&[(path, new)]),
        &expect("disabled_lint", vec![(path, 3)]),
    );
}

const BUNDLE: &str = "dist/bundle.js";

#[test]
fn an_eslint_inline_configuration_turning_a_rule_off_is_a_suppression() {
    let old = "function f() {\n  return 1;\n}\n";
    let new = "function f() {\n  /*eslint no-undef:0*/\n  return 1;\n}\n";
    both_ways(
        &[(BUNDLE, old)],
        &writing(&[(BUNDLE, new)]),
        &expect("disabled_lint", vec![(BUNDLE, 2)]),
    );
}

#[test]
fn an_eslint_inline_configuration_turning_a_rule_on_is_not() {
    let old = "function f() {\n  return 1;\n}\n";
    let new = "function f() {\n  /* eslint eqeqeq: 2, quotes: [\"error\", \"double\"] */\n  return 1;\n}\n";
    both_ways(
        &[(BUNDLE, old)],
        &writing(&[(BUNDLE, new)]),
        &expect("disabled_lint", vec![]),
    );
}

const TYPING_CHECK: &str = "  // @ts-expect-error\n  axios.get(1);\n";

#[test]
fn ts_expect_error_in_a_typings_test_is_an_assertion() {
    let path = "test/module/typings/esm/index.ts";
    let old = "import axios from 'axios';\n";
    let new = format!("{old}{TYPING_CHECK}");
    both_ways(
        &[(path, old)],
        &writing(&[(path, &new)]),
        &expect("disabled_lint", vec![]),
    );
}

#[test]
fn ts_expect_error_in_source_or_an_ordinary_test_stays_a_suppression() {
    for path in ["src/typings/index.ts", "test/unit/index.ts"] {
        let old = "import axios from 'axios';\n";
        let new = format!("{old}{TYPING_CHECK}");
        both_ways(
            &[(path, old)],
            &writing(&[(path, &new)]),
            &expect("disabled_lint", vec![(path, 2)]),
        );
    }
}

#[test]
fn an_attribute_macros_conditional_ignore_is_a_skip() {
    let path = "tests/compiletest.rs";
    let old = "#[test]\nfn ui() {\n    run();\n}\n";
    for attr in [
        "#[rustc::attr(not(nightly), ignore)]",
        "#[rustversion::attr(not(nightly), ignore = \"nightly output\")]",
    ] {
        let new = format!("{attr}\n{old}");
        both_ways(
            &[(path, old)],
            &writing(&[(path, &new)]),
            &expect("new_skips", vec![(path, 1)]),
        );
    }
    // The macro applying something else on old compilers skips nothing.
    let new = format!("#[rustversion::attr(not(nightly), allow(unused))]\n{old}");
    both_ways(
        &[(path, old)],
        &writing(&[(path, &new)]),
        &expect("new_skips", vec![]),
    );
}

#[test]
fn a_file_split_in_parts_carries_its_file_wide_eslint_configuration_into_each() {
    let header = "'use strict'\n\n/* eslint no-prototype-builtins: 0 */\n\n";
    let whole = format!("{header}test('a', () => {{}})\ntest('b', () => {{}})\n");
    let one = format!("{header}test('a', () => {{}})\n");
    let two = format!("{header}test('b', () => {{}})\n");
    both_ways(
        &[("test/plugin.test.js", &whole)],
        &|r| {
            r.remove("test/plugin.test.js");
            r.write("test/plugin.1.test.js", &one);
            r.write("test/plugin.2.test.js", &two);
        },
        &expect("disabled_lint", vec![]),
    );
    // A new file of another name taking the header is a new suppression.
    let other = format!("{header}test('z', () => {{ other() }})\n");
    both_ways(
        &[("test/plugin.test.js", &whole)],
        &|r| {
            r.remove("test/plugin.test.js");
            r.write("test/plugin.1.test.js", &whole);
            r.write("test/other.test.js", &other);
        },
        &expect("disabled_lint", vec![("test/other.test.js", 3)]),
    );
}

/// coverage.py's partial-branch exclusion is the branch-level twin of `pragma: no cover`:
/// added, it hides an untested branch from the coverage bar.
#[test]
fn a_coverage_branch_exclusion_is_a_new_suppression() {
    let before = "def f(x):\n    if x:\n        return 1\n    return 2\n";
    let after = "def f(x):\n    if x:  # pragma: no branch\n        return 1\n    return 2\n";
    both_ways(
        &[("pkg/f.py", before)],
        &writing(&[("pkg/f.py", after)]),
        &expect("disabled_lint", vec![("pkg/f.py", 2)]),
    );
}
