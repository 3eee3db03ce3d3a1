//! Go tests of one name in one package are never one test twice: two files of a package
//! can both declare `Example_slog` only under build constraints that keep them apart, so
//! deleting one (with the code of its build) deletes that build's test even though its
//! twin, there all along, survives. A test copied into the other package of the directory (`x` and `x_test`)
//! ran beside the original and runs on. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways};

const GO_MOD: (&str, &str) = ("go.mod", "module example.com/slogx\n\ngo 1.21\n");

fn example(tag: &str, package: &str) -> String {
    format!(
        "//go:build {tag}

package {package}

import \"fmt\"

func Example_slog() {{
\tfmt.Println(\"hello\")
\t// Output: hello
}}
"
    )
}

const OTHER: &str = "slogx/handler_test.go";
const OTHER_TEXT: &str = "package slogx_test

import \"testing\"

func TestHandler(t *testing.T) {
\tif 1+1 != 2 {
\t\tt.Fatal(\"math\")
\t}
}
";

#[test]
fn a_test_deleted_beside_its_other_build_twin_is_deleted() {
    let new_build = example("go1.21", "slogx_test");
    let old_build = example("!go1.21", "slogx_test");
    both_ways(
        &[
            GO_MOD,
            (OTHER, OTHER_TEXT),
            ("slogx/example_go121_test.go", &new_build),
            ("slogx/example_pre_go121_test.go", &old_build),
        ],
        &|r| {
            r.remove("slogx/example_pre_go121_test.go");
            r.git(&["mv", "slogx/example_go121_test.go", "slogx/example_test.go"]);
        },
        &assert_one_deleted("slogx/example_pre_go121_test.go", "deleted"),
    );
}

#[test]
fn the_original_of_a_test_copied_into_the_external_test_package_is_not_deleted() {
    // `package slogx` and `package slogx_test` are two packages of one directory: the
    // copy ran beside the original, and runs on.
    let copy = example("go1.21", "slogx_test");
    let original = example("go1.21", "slogx");
    both_ways(
        &[
            GO_MOD,
            (OTHER, OTHER_TEXT),
            ("slogx/example_external_test.go", &copy),
            ("slogx/example_internal_test.go", &original),
        ],
        &|r| r.remove("slogx/example_internal_test.go"),
        &assert_no_deleted_tests,
    );
}
