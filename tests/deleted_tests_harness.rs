//! `deleted_tests` and Cargo integration test targets declared with `harness = false`:
//! cargo runs such a file's `main` as its one test. A `#[test]` file turned into one, its
//! body run by `main`, keeps its test; one that had several, or whose manifest did not
//! drop the harness, lost some. Also a test demoted to a renamed plain function that a test
//! of its file calls. Each case is judged uncommitted and committed. Real repositories,
//! the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const TEST: &str = "tests/line_numbers.rs";

fn manifest(harness: &str) -> String {
    format!("[package]\nname = \"logs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[test]]\nname = \"line_numbers\"\npath = \"tests/line_numbers.rs\"\n{harness}\n")
}

const BODY: &str = "    log::set_max_level(LevelFilter::Trace);\n    info!(\"\");\n    let line = last_location();\n    assert_eq!(line, here() - 1);\n";

fn declared(attr: &str, name: &str) -> String {
    format!("use log::{{info, LevelFilter}};\n\n{attr}fn {name}() {{\n{BODY}}}\n")
}

#[test]
fn a_test_file_turned_into_a_harnessless_target_keeps_its_test() {
    let before = declared("#[test]\n", "line_numbers");
    let with = manifest("harness = true");
    // The test becomes the program's `main`, the manifest drops the harness.
    let after = declared("", "main");
    let without = manifest("harness = false");
    both_ways(
        &[(TEST, &before), ("Cargo.toml", &with)],
        &writing(&[(TEST, &after), ("Cargo.toml", &without)]),
        &assert_no_deleted_tests,
    );
    // A `#[test] fn main` kept only under a cfg the build never sets: still `main`.
    let before = declared("#[test]\n", "main");
    let after = declared("#[cfg_attr(lib_build, test)]\n", "main");
    both_ways(
        &[(TEST, &before), ("Cargo.toml", &with)],
        &writing(&[(TEST, &after), ("Cargo.toml", &without)]),
        &assert_no_deleted_tests,
    );
    // The manifest dropped the harness earlier: the target is found by its name too.
    let by_name = "[package]\nname = \"logs\"\nversion = \"0.1.0\"\n\n[[test]]\nname = \"line_numbers\"\nharness = false\n";
    both_ways(
        &[
            (TEST, &declared("#[test]\n", "line_numbers")),
            ("Cargo.toml", by_name),
        ],
        &writing(&[(TEST, &declared("", "main"))]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_turned_into_main_with_the_harness_kept_is_deleted() {
    let before = declared("#[test]\n", "line_numbers");
    let after = declared("", "main");
    // No `harness = false`: the harness runs no `main`, nothing runs the body.
    both_ways(
        &[(TEST, &before), ("Cargo.toml", &manifest("harness = true"))],
        &writing(&[(TEST, &after)]),
        &assert_one_deleted(TEST, "dropped from 1 to 0"),
    );
    // Another target is harness-less, not this one.
    let other = manifest("harness = false").replace("line_numbers", "other");
    both_ways(
        &[(TEST, &before), ("Cargo.toml", &other)],
        &writing(&[(TEST, &after)]),
        &assert_one_deleted(TEST, "dropped from 1 to 0"),
    );
}

#[test]
fn several_tests_folded_into_one_harnessless_main_are_counted_as_one() {
    let before = format!(
        "{}\n#[test]\nfn filters() {{\n    set_level(Level::Off);\n    assert!(last().is_none());\n}}\n",
        declared("#[test]\n", "line_numbers")
    );
    let after = format!(
        "{}\nfn filters() {{\n    set_level(Level::Off);\n    assert!(last().is_none());\n}}\n",
        declared("", "main")
    );
    both_ways(
        &[(TEST, &before), ("Cargo.toml", &manifest("harness = true"))],
        &writing(&[(TEST, &after), ("Cargo.toml", &manifest("harness = false"))]),
        &assert_one_deleted(TEST, "dropped from 2 to 1"),
    );
}

const INTEGRATION: &str = "tests/integration.rs";

const GUARD: &str = "    #[cfg(not(any(\n        feature = \"max_level_off\",\n        feature = \"max_level_error\",\n        feature = \"max_level_warn\",\n        feature = \"release_max_level_off\",\n    )))]\n";

const FILTER: &str = "        log::set_max_level(filter);\n        error!(\"\");\n        last(&a, t(Level::Error, filter));\n        warn!(\"\");\n        last(&a, t(Level::Warn, filter));\n";

const LINES: &str = "        log::set_max_level(LevelFilter::Trace);\n        info!(\"\");\n        check_log_location(&a);\n        assert!(a.seen());\n";

/// Two tests, each under the same cfg guard.
fn two_tests() -> String {
    format!("#[test]\nfn filters() {{\n{GUARD}    {{\n        setup();\n{FILTER}    }}\n}}\n\n#[test]\nfn line_numbers() {{\n{GUARD}    {{\n        setup();\n{LINES}    }}\n}}\n")
}

/// One test under the guard calling both bodies, now plain functions under new names;
/// `calls` is what it calls.
fn merged_into_main(calls: &str) -> String {
    format!("#[test]\nfn main() {{\n{GUARD}    {{\n        let a = setup();\n{calls}    }}\n}}\n\nfn test_filter(a: &State, filter: LevelFilter) {{\n{FILTER}}}\n\nfn test_line_numbers(a: &State) {{\n{LINES}}}\n")
}

#[test]
fn tests_demoted_under_new_names_that_the_new_test_calls_still_run() {
    let after = merged_into_main(
        "        test_filter(&a, LevelFilter::Off);\n        test_line_numbers(&a);\n",
    );
    both_ways(
        &[(INTEGRATION, &two_tests())],
        &writing(&[(INTEGRATION, &after)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_renamed_demoted_test_nothing_calls_or_with_another_body_is_deleted() {
    // The new test calls only one of the two.
    let after = merged_into_main("        test_filter(&a, LevelFilter::Off);\n");
    both_ways(
        &[(INTEGRATION, &two_tests())],
        &writing(&[(INTEGRATION, &after)]),
        &assert_one_deleted(INTEGRATION, "dropped from 2 to 1"),
    );
    // Both called, but one function keeps nothing of its test's body but the guard
    // that moved to the caller.
    let after = merged_into_main(
        "        test_filter(&a, LevelFilter::Off);\n        test_line_numbers(&a);\n",
    )
    .replace(LINES, "        assert!(true);\n");
    both_ways(
        &[(INTEGRATION, &two_tests())],
        &writing(&[(INTEGRATION, &after)]),
        &assert_one_deleted(INTEGRATION, "dropped from 2 to 1"),
    );
}
