//! C and C++ on fresh15: googletest files named with a hyphen or in the plural
//! (`test/format-test.cc`, `util_tests.cpp`) are test files, so a test removed from one is
//! seen; a name that only contains the word (`latest.cc`, `format-tester.cc`) is not. And a
//! warning-silencing pragma written through a macro (`FMT_PRAGMA_MSVC(warning(disable :
//! 4702))`, `__pragma(..)`) is that pragma, while the macro's `push`/`pop` calls, its own
//! `#define`, and a helper macro's body whose warning is a parameter are not. Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, lines_of, writing};

const TESTS_BEFORE: &str = "#include \"gtest/gtest.h\"\n\nTEST(ranges_test, join_tuple) {\n  EXPECT_EQ(join(1, 2), \"1, 2\");\n}\n\nTEST(ranges_test, join_bytes) {\n  EXPECT_EQ(join_bytes(3), \"1, 2, 3\");\n}\n";
const TESTS_AFTER: &str = "#include \"gtest/gtest.h\"\n\nTEST(ranges_test, join_tuple) {\n  EXPECT_EQ(join(1, 2), \"1, 2\");\n}\n";

#[test]
fn a_test_removed_from_a_hyphenated_or_plural_cpp_test_file_is_seen() {
    for path in [
        "test/ranges-test.cc",
        "tests/ranges_tests.cpp",
        "ranges-tests.cxx",
    ] {
        both_ways(
            &[(path, TESTS_BEFORE), ("src/ranges.cc", "int join();\n")],
            &writing(&[(path, TESTS_AFTER)]),
            &assert_one_deleted(path, "from 2 to 1"),
        );
    }
}

#[test]
fn a_cpp_file_whose_name_only_contains_test_is_not_a_test_file() {
    for path in ["src/latest.cc", "src/format-tester.cc", "src/testing.cpp"] {
        both_ways(
            &[(path, TESTS_BEFORE)],
            &writing(&[(path, TESTS_AFTER)]),
            &assert_no_deleted_tests,
        );
    }
}

const HEADER: &str = "include/fmt/base.h";
const HEADER_BEFORE: &str = "#ifndef FMT_BASE_H_\n#define FMT_BASE_H_\n\n#if FMT_MSC_VERSION\n#  define FMT_PRAGMA_MSVC(x) __pragma(x)\n#else\n#  define FMT_PRAGMA_MSVC(x)\n#endif\n\nint width(const char* s);\n\n#endif\n";

#[test]
fn a_warning_disabled_through_a_pragma_macro_is_a_suppression() {
    let after = "#ifndef FMT_BASE_H_\n#define FMT_BASE_H_\n\n#if FMT_MSC_VERSION\n#  define FMT_PRAGMA_MSVC(x) __pragma(x)\n#else\n#  define FMT_PRAGMA_MSVC(x)\n#endif\nFMT_PRAGMA_MSVC(warning(push))\nFMT_PRAGMA_MSVC(warning(disable : 4702))\n\nint width(const char* s);\n\n__pragma(warning(disable: 4996))\nFMT_PRAGMA_MSVC(warning(pop))\n#endif\n";
    both_ways(
        &[(HEADER, HEADER_BEFORE)],
        &writing(&[(HEADER, after)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![(HEADER.to_string(), 10), (HEADER.to_string(), 14)],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn a_pragma_macro_that_pushes_pops_or_is_defined_is_no_suppression() {
    let after = "#ifndef FMT_BASE_H_\n#define FMT_BASE_H_\n\n#if FMT_MSC_VERSION\n#  define FMT_PRAGMA_MSVC(x) __pragma(x)\n#  define FMT_PRAGMA_GCC(x)\n#else\n#  define FMT_PRAGMA_MSVC(x)\n#endif\nFMT_PRAGMA_MSVC(warning(push))\nFMT_PRAGMA_GCC(diagnostic push)\n\nint width(const char* s);\nint disable_warning(int diagnostic, int ignored);\n#define GTEST_DISABLE_MSC_WARNINGS_PUSH_(warnings) \\\n    __pragma(warning(push)) \\\n    __pragma(warning(disable: warnings))\n\nFMT_PRAGMA_GCC(diagnostic pop)\nFMT_PRAGMA_MSVC(warning(pop))\n#endif\n";
    both_ways(
        &[(HEADER, HEADER_BEFORE)],
        &writing(&[(HEADER, after)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![],
                "{mode}: {receipt}"
            );
        },
    );
}
