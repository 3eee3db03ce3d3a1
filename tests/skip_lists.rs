//! Skips written outside test code, and skip markers that skip none of the repository's
//! tests. An Xcode test plan's `skippedTests` (and a name taken out of its `selectedTests`)
//! stops tests from running with no marker in them; a test framework vendored with its
//! own test suite (googletest's `DISABLED_` tests beside its `include/gtest/gtest.h`) tests
//! its markers, and a `#define` of a skip macro is its definition. A CMake `add_test` the
//! file registered unconditionally, now inside an `if ()`, is skipped when the branch is not
//! taken. Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, no_new_skips, skips_at, writing, Repo};

const SWIFT_TEST: &str = "import XCTest\n\nfinal class WebSocketTests: XCTestCase {\n    func testEcho() {\n        XCTAssertTrue(true)\n    }\n}\n";

/// An Xcode test plan of one target (`F811`), skipping `skipped`.
fn plan(skipped: &[&str]) -> String {
    let list = if skipped.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = skipped.iter().map(|s| format!("        \"{s}\"")).collect();
        format!(
            "      \"skippedTests\" : [\n{}\n      ],\n",
            names.join(",\n")
        )
    };
    format!(
        "{{\n  \"configurations\" : [\n    {{\n      \"id\" : \"06BD\",\n      \"name\" : \"Default\",\n      \"options\" : {{\n      }}\n    }}\n  ],\n  \"testTargets\" : [\n    {{\n{list}      \"target\" : {{\n        \"containerPath\" : \"container:App.xcodeproj\",\n        \"identifier\" : \"F811\",\n        \"name\" : \"App Tests\"\n      }}\n    }}\n  ],\n  \"version\" : 1\n}}\n"
    )
}

const PLAN: &str = "Tests/Test Plans/iOS-Old.xctestplan";
const OTHER_PLAN: &str = "Tests/Test Plans/iOS-TS.xctestplan";

#[test]
fn names_added_to_a_test_plans_skipped_tests_are_skips() {
    // An existing plan: the name added to the list, at its line (the list opens at line
    // 12, the first name is line 13).
    let before = plan(&["CombineTests"]);
    let after = plan(&["CombineTests", "WebSocketTests"]);
    both_ways(
        &[(PLAN, &before), ("Tests/WebSocketTests.swift", SWIFT_TEST)],
        &writing(&[(PLAN, &after)]),
        &skips_at(&[(PLAN, 14)]),
    );
    // A new plan: every name it skips.
    let new = plan(&["ConcurrencyTests", "WebSocketTests"]);
    both_ways(
        &[("Tests/WebSocketTests.swift", SWIFT_TEST)],
        &writing(&[(OTHER_PLAN, &new)]),
        &skips_at(&[(OTHER_PLAN, 13), (OTHER_PLAN, 14)]),
    );
}

#[test]
fn a_name_taken_out_of_selected_tests_is_a_skip() {
    let before = "{\n  \"testTargets\" : [\n    {\n      \"selectedTests\" : [\n        \"SessionTests\",\n        \"WebSocketTests\"\n      ],\n      \"target\" : {\n        \"identifier\" : \"F811\",\n        \"name\" : \"App Tests\"\n      }\n    }\n  ],\n  \"version\" : 1\n}\n";
    let after = before.replace(
        "        \"SessionTests\",\n        \"WebSocketTests\"\n",
        "        \"SessionTests\"\n",
    );
    both_ways(
        &[(PLAN, before)],
        &writing(&[(PLAN, &after)]),
        &skips_at(&[(PLAN, 4)]),
    );
}

#[test]
fn a_plan_reordered_reformatted_or_moved_skips_nothing_new() {
    let before = plan(&["CombineTests", "WebSocketTests"]);
    // Reordered and re-indented.
    let reordered = plan(&["WebSocketTests", "CombineTests"]).replace("        \"", "  \"");
    both_ways(
        &[(PLAN, &before)],
        &writing(&[(PLAN, &reordered)]),
        &no_new_skips,
    );
    // The list moved to another plan of the same target: the old plan runs them again.
    both_ways(
        &[(PLAN, &before), (OTHER_PLAN, &plan(&[]))],
        &|r: &Repo| {
            r.write(PLAN, &plan(&[]));
            r.write(OTHER_PLAN, &before);
        },
        &no_new_skips,
    );
    // A name taken off the list runs again: no skip.
    both_ways(
        &[(PLAN, &before)],
        &writing(&[(PLAN, &plan(&["CombineTests"]))]),
        &no_new_skips,
    );
    // `skippedTests` in any other JSON file is no test plan.
    both_ways(
        &[("Tests/fixtures/plan.json", &plan(&[]))],
        &writing(&[("Tests/fixtures/plan.json", &before)]),
        &no_new_skips,
    );
}

/// A plan that does not parse is not passed in silence: the receipt's `skipped_files` names
/// it, with the side that does not parse.
#[test]
fn a_test_plan_that_does_not_parse_is_noted() {
    let broken = plan(&["CombineTests", "WebSocketTests"]).replace("\"version\" : 1\n}", "");
    both_ways(
        &[(PLAN, &plan(&[]))],
        &writing(&[(PLAN, &broken)]),
        &|_, receipt, mode| {
            let notes = receipt["skipped_files"].as_array().unwrap();
            assert_eq!(notes.len(), 1, "{mode}: {receipt}");
            assert_eq!(notes[0]["path"], PLAN, "{mode}");
            assert_eq!(notes[0]["why"], "unparsable", "{mode}");
            assert_eq!(notes[0]["side"], "now", "{mode}");
            let note = notes[0]["note"].as_str().unwrap();
            assert!(note.contains("the tests it skips were not read"), "{note}");
        },
    );
}

const GTEST_H: &str = "#ifndef GTEST_INCLUDE_GTEST_GTEST_H_\n#define GTEST_INCLUDE_GTEST_GTEST_H_\n\n# define GTEST_TEST(a, b) GTEST_TEST_(a, b)\n# define TEST(a, b) GTEST_TEST(a, b)\n\n#endif\n";
const FILTER_TEST: &str = "#include \"gtest/gtest.h\"\n\nTEST(FooTest, Abc) {\n}\n\nTEST(DisabledFooTest, DISABLED_Test) {\n  FAIL() << \"Expected failure.\";\n}\n\nTEST(FooTest, DISABLED_Xyz) {\n  GTEST_SKIP();\n}\n";
const OWN_TEST: &str =
    "#include \"gtest/gtest.h\"\n\nTEST(format_test, width) {\n  EXPECT_EQ(1, 1);\n}\n";

#[test]
fn skip_markers_in_a_vendored_frameworks_own_tests_are_not_skips() {
    // The framework vendored whole: its header, its own tests of `DISABLED_`.
    both_ways(
        &[("test/format-test.cc", OWN_TEST)],
        &writing(&[
            ("gtest/include/gtest/gtest.h", GTEST_H),
            ("gtest/test/gtest_filter_unittest_.cc", FILTER_TEST),
        ]),
        &no_new_skips,
    );
    // The header already there; a self-test added later.
    both_ways(
        &[("third_party/googletest/include/gtest/gtest.h", GTEST_H)],
        &writing(&[(
            "third_party/googletest/test/gtest_filter_unittest_.cc",
            FILTER_TEST,
        )]),
        &no_new_skips,
    );
    // A fused header that defines the skip macro.
    let fused = format!("{GTEST_H}#define GTEST_SKIP() GTEST_SKIP_(\"\")\n");
    both_ways(
        &[("test/format-test.cc", OWN_TEST)],
        &writing(&[("test/gtest/gtest.h", &fused)]),
        &no_new_skips,
    );
}

#[test]
fn the_projects_own_tests_beside_a_vendored_framework_still_skip() {
    // fmt's layout: a fused `test/gtest/gtest.h` beside the project's tests, which use it.
    let skipped = OWN_TEST.replace("  EXPECT_EQ(1, 1);\n", "  GTEST_SKIP() << \"no locale\";\n");
    both_ways(
        &[
            ("test/format-test.cc", OWN_TEST),
            ("test/gtest/gtest.h", GTEST_H),
        ],
        &writing(&[("test/format-test.cc", &skipped)]),
        &skips_at(&[("test/format-test.cc", 4)]),
    );
    // A `gtest/gtest.h` of the project's own that defines no test macro is no framework.
    let own_header = "#pragma once\n#include <gtest/gtest.h>\n";
    let disabled = OWN_TEST.replace("format_test, width", "format_test, DISABLED_width");
    both_ways(
        &[
            ("test/format-test.cc", OWN_TEST),
            ("include/gtest/gtest.h", own_header),
        ],
        &writing(&[("test/format-test.cc", &disabled)]),
        &skips_at(&[("test/format-test.cc", 3)]),
    );
}

const CMAKE: &str = "test/CMakeLists.txt";
const CMAKE_BEFORE: &str = "enable_language(C)\nadd_executable(c-test c-test.c)\nadd_test(NAME c-test COMMAND c-test)\nadd_test(NAME format-test COMMAND format-test)\n";

#[test]
fn an_existing_cmake_test_put_under_an_if_is_a_skip() {
    // Left out when the compiler is an old Clang: reported at that branch's first command.
    let after = "enable_language(C)\n# _Generic is broken in old Clang.\nif (CMAKE_C_COMPILER_ID STREQUAL \"Clang\" AND CMAKE_C_COMPILER_VERSION\n                                             VERSION_LESS 3.8)\n  message(STATUS \"Skipping c-test\")\nelse ()\n  add_executable(c-test c-test.c)\n  add_test(NAME c-test COMMAND c-test)\nendif ()\nadd_test(NAME format-test COMMAND format-test)\n";
    both_ways(
        &[
            (CMAKE, CMAKE_BEFORE),
            ("test/c-test.c", "int main(void) { return 0; }\n"),
        ],
        &writing(&[(CMAKE, after)]),
        &skips_at(&[(CMAKE, 5)]),
    );
    // No other branch: reported at the `if`.
    let after = "enable_language(C)\nadd_executable(c-test c-test.c)\nif (NOT WIN32)\n  add_test(NAME c-test COMMAND c-test)\nendif ()\nadd_test(NAME format-test COMMAND format-test)\n";
    both_ways(
        &[(CMAKE, CMAKE_BEFORE)],
        &writing(&[(CMAKE, after)]),
        &skips_at(&[(CMAKE, 3)]),
    );
}

#[test]
fn a_new_conditional_cmake_test_or_one_reformatted_is_not() {
    let after = "enable_language(C)\nadd_executable(c-test c-test.c)\nadd_test(\n  NAME c-test\n  COMMAND c-test)\n# if (OLD_CLANG)\nadd_test(NAME format-test COMMAND format-test)\nif (FMT_CUDA_TEST)\n  add_test(NAME cuda-test COMMAND cuda-test)\nendif ()\n";
    both_ways(
        &[(CMAKE, CMAKE_BEFORE)],
        &writing(&[(CMAKE, after)]),
        &no_new_skips,
    );
}
