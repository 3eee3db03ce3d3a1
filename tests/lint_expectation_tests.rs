//! A Rust test file that denies `unfulfilled_lint_expectations` tests lints: each
//! `#[expect(lint)]` in it fails the build unless the lint fires, so it asserts that the
//! compiler reports the lint there, and is no suppression. The same expectations in a test
//! file that does not deny the lint, or in product code that does, stay findings. Real
//! repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const CARGO: &str = "[package]\nname = \"attrs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";
const LIB: &str = "pub fn instrumented() {}\n";

const LINT_TEST: &str = "use attrs::instrumented;\n\n#[deny(unfulfilled_lint_expectations)]\n#[expect(dead_code)]\nfn unused() {}\n\n#[expect(dead_code)]\nasync fn unused_async() {}\n";

#[test]
fn expectations_in_a_test_file_that_denies_unfulfilled_ones_are_assertions() {
    both_ways(
        &[("Cargo.toml", CARGO), ("src/lib.rs", LIB)],
        &writing(&[("tests/dead_code.rs", LINT_TEST)]),
        &lint_lines(vec![]),
    );
}

#[test]
fn expectations_where_unfulfilled_ones_are_not_denied_or_in_product_code_stay_findings() {
    let warned = LINT_TEST.replace("#[deny(unfulfilled_lint_expectations)]\n", "");
    both_ways(
        &[("Cargo.toml", CARGO), ("src/lib.rs", LIB)],
        &writing(&[("tests/dead_code.rs", &warned)]),
        &lint_lines(vec![("tests/dead_code.rs", 3), ("tests/dead_code.rs", 6)]),
    );
    let product = format!(
        "{LIB}{}",
        LINT_TEST.replace("use attrs::instrumented;\n\n", "")
    );
    both_ways(
        &[("Cargo.toml", CARGO), ("src/lib.rs", LIB)],
        &writing(&[("src/lib.rs", &product)]),
        &lint_lines(vec![("src/lib.rs", 3), ("src/lib.rs", 6)]),
    );
}
