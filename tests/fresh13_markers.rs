//! Markers read as what they do rather than how they are spelt or wrapped: an `allow`
//! rewritten in place as the stricter `expect` of the same lints; a doc example's fence
//! turned to `ignore` (a skipped doc test); a conditional ignore wrapped over lines and
//! widened; a skip taken out of a setup hook into fewer tests; an ignored Rust test its
//! own file runs in a child process. Each lookalike that does add or widen still fires.
//! Judged uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lint_at, no_new_skips, skips_at, writing};

const LIB: &str = "src/lib.rs";
const LIB_BODY: &str = concat!(
    "#![allow(non_camel_case_types)]\n",
    "\n",
    "#[allow(deprecated)]\n",
    "pub fn old() -> u32 {\n",
    "    legacy()\n",
    "}\n",
    "\n",
    "#[allow(clippy::too_many_arguments)]\n",
    "pub fn wide(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8) {}\n",
);

/// `#[allow(L)]` -> `#[expect(L)]` (and `#![allow]` -> `#![expect]`) in place, same lints:
/// the lint is still silenced there, and now a warning says when it stops firing.
#[test]
fn an_allow_rewritten_as_an_expect_of_the_same_lints_is_no_new_suppression() {
    let expect = LIB_BODY.replace("allow(", "expect(");
    both_ways(
        &[(LIB, LIB_BODY)],
        &writing(&[(LIB, &expect)]),
        &lint_at(vec![]),
    );
}

/// Lookalikes: the `expect` names a lint the `allow` did not, reaches the whole file, is
/// written over other code, or an `expect` goes back to `allow`.
#[test]
fn an_expect_that_names_more_reaches_further_or_goes_back_to_allow_still_fires() {
    let more = LIB_BODY.replace(
        "#[allow(deprecated)]",
        "#[expect(deprecated, unused_variables)]",
    );
    both_ways(
        &[(LIB, LIB_BODY)],
        &writing(&[(LIB, &more)]),
        &lint_at(vec![(LIB, 3)]),
    );
    let whole = LIB_BODY.replace("#[allow(deprecated)]", "#![expect(deprecated)]");
    both_ways(
        &[(LIB, LIB_BODY)],
        &writing(&[(LIB, &whole)]),
        &lint_at(vec![(LIB, 3)]),
    );
    let expect = LIB_BODY.replace("allow(", "expect(");
    let back = expect.replace("#[expect(deprecated)]", "#[allow(deprecated)]");
    both_ways(
        &[(LIB, &expect)],
        &writing(&[(LIB, &back)]),
        &lint_at(vec![(LIB, 3)]),
    );
    let elsewhere = format!(
        "{}\n#[expect(deprecated)]\npub fn newer() -> u32 {{\n    legacy()\n}}\n",
        LIB_BODY.replace("#[allow(deprecated)]\n", "")
    );
    both_ways(
        &[(LIB, LIB_BODY)],
        &writing(&[(LIB, &elsewhere)]),
        &lint_at(vec![(LIB, 10)]),
    );
}

const POOL: &str = "src/pool.rs";
const POOL_BODY: &str = concat!(
    "/// Builds a pool.\n",
    "///\n",
    "/// ```rust\n",
    "/// let pool = demo::Pool::new(4);\n",
    "/// ```\n",
    "///\n",
    "/// Output:\n",
    "///\n",
    "/// ```text\n",
    "/// 4 threads\n",
    "/// ```\n",
    "pub struct Pool;\n",
    "\n",
    "impl Pool {\n",
    "    /// ```\n",
    "    /// demo::Pool::new(1).install(|| ());\n",
    "    /// ```\n",
    "    pub fn install(&self) {}\n",
    "}\n",
);

/// A doc example that ran (```` ```rust ````, a bare fence) now opens with ```` ```ignore ````
/// or ```` ```ignore-wasm ````: rustdoc no longer runs it (there), a skipped doc test.
#[test]
fn a_doc_example_turned_to_ignore_is_a_new_skip() {
    let ignored = POOL_BODY
        .replace("/// ```rust\n", "/// ```ignore-wasm\n")
        .replace(
            "    /// ```\n    /// demo",
            "    /// ```rust,ignore\n    /// demo",
        );
    both_ways(
        &[(POOL, POOL_BODY)],
        &writing(&[(POOL, &ignored)]),
        &skips_at(&[(POOL, 3), (POOL, 15)]),
    );
}

/// Lookalikes: a new example written `ignore` (a sketch, it never ran); a block that was
/// no Rust (```` ```text ````) relabelled; a closing fence.
#[test]
fn a_new_ignored_sketch_or_a_block_that_never_ran_is_no_skip() {
    let sketch = POOL_BODY.replace(
        "pub struct Pool;\n",
        "///\n/// ```ignore\n/// let p = Pool::with(config)?;\n/// ```\npub struct Pool;\n",
    );
    let text = POOL_BODY.replace("/// ```text\n", "/// ```ignore\n");
    for after in [sketch, text] {
        both_ways(
            &[(POOL, POOL_BODY)],
            &writing(&[(POOL, &after)]),
            &no_new_skips,
        );
    }
}

const OCT: &str = "tests/octillion.rs";
const OCT_BODY: &str = concat!(
    "#[test]\n",
    "#[cfg_attr(not(target_pointer_width = \"64\"), ignore)]\n",
    "fn find_last() {\n",
    "    assert!(big().is_some());\n",
    "}\n",
    "\n",
    "#[test]\n",
    "fn find_first() {\n",
    "    assert!(big().is_some());\n",
    "}\n",
);

fn wrapped(alternatives: &[&str]) -> String {
    let mut s = String::from("#[cfg_attr(\n    any(\n");
    for a in alternatives {
        s.push_str(&format!("        {a},\n"));
    }
    s.push_str("    ),\n    ignore\n)]");
    s
}

/// The one-line condition gains alternatives and rustfmt wraps the attribute over eight
/// lines: ignored everywhere it was and on more targets. A wrapped ignore put on a test
/// that had none is a new skip as a one-line one is.
#[test]
fn a_conditional_ignore_widened_and_wrapped_over_lines_is_reported() {
    let wider = wrapped(&[
        "not(target_pointer_width = \"64\")",
        "target_os = \"emscripten\"",
    ]);
    let after = OCT_BODY.replace(
        "#[cfg_attr(not(target_pointer_width = \"64\"), ignore)]",
        &wider,
    );
    both_ways(
        &[(OCT, OCT_BODY)],
        &writing(&[(OCT, &after)]),
        &skips_at(&[(OCT, 2)]),
    );
    let new_one = OCT_BODY.replace(
        "#[test]\nfn find_first",
        &format!(
            "#[test]\n{}\nfn find_first",
            wrapped(&["target_os = \"emscripten\""])
        ),
    );
    both_ways(
        &[(OCT, OCT_BODY)],
        &writing(&[(OCT, &new_one)]),
        &skips_at(&[(OCT, 8)]),
    );
}

/// Lookalike: the same condition only re-wrapped, or narrowed, is no new skip.
#[test]
fn a_conditional_ignore_only_rewrapped_or_narrowed_is_not() {
    let same = OCT_BODY.replace(
        "#[cfg_attr(not(target_pointer_width = \"64\"), ignore)]",
        "#[cfg_attr(\n    not(target_pointer_width = \"64\"),\n    ignore\n)]",
    );
    both_ways(&[(OCT, OCT_BODY)], &writing(&[(OCT, &same)]), &no_new_skips);
    let two = OCT_BODY.replace(
        "#[cfg_attr(not(target_pointer_width = \"64\"), ignore)]",
        &wrapped(&[
            "not(target_pointer_width = \"64\")",
            "target_os = \"emscripten\"",
        ]),
    );
    both_ways(&[(OCT, &two)], &writing(&[(OCT, OCT_BODY)]), &no_new_skips);
}

const RB: &str = "test/unit/rigid_test.rb";

fn ruby_tests(setup: &str, skips: [&str; 3]) -> String {
    let mut s = format!("require 'test_helper'\n\nclass RigidTest < Minitest::Test\n{setup}");
    for (name, skip) in ["parse", "render", "limit"].iter().zip(skips) {
        s.push_str(&format!(
            "\n  def test_{name}\n{skip}    assert_equal 1, {name}(1)\n  end\n"
        ));
    }
    s.push_str("end\n");
    s
}

const SKIP: &str = "    skip(\"parser in progress\")\n";

/// `def setup; skip(..); end` skipped all three tests; now two carry the skip and the
/// third runs again.
#[test]
fn a_skip_moved_from_setup_into_fewer_tests_is_narrowed() {
    let before = ruby_tests(&format!("  def setup\n{SKIP}  end\n"), ["", "", ""]);
    let after = ruby_tests("", [SKIP, SKIP, ""]);
    both_ways(&[(RB, &before)], &writing(&[(RB, &after)]), &no_new_skips);
}

/// Lookalikes: the skip moved into every test (nothing narrowed; the diff keeps the old
/// skip line as the first test's, so the other two are the added ones), the setup skip
/// kept while a test gets it too.
#[test]
fn a_setup_skip_copied_to_every_test_or_another_skip_still_fires() {
    let before = ruby_tests(&format!("  def setup\n{SKIP}  end\n"), ["", "", ""]);
    let every = ruby_tests("", [SKIP, SKIP, SKIP]);
    both_ways(
        &[(RB, &before)],
        &writing(&[(RB, &every)]),
        &skips_at(&[(RB, 11), (RB, 16)]),
    );
    let kept = ruby_tests(&format!("  def setup\n{SKIP}  end\n"), [SKIP, "", ""]);
    both_ways(
        &[(RB, &before)],
        &writing(&[(RB, &kept)]),
        &skips_at(&[(RB, 9)]),
    );
}

const CRASH: &str = "tests/crash.rs";
const CRASH_BODY: &str = concat!(
    "use std::process::Command;\n",
    "\n",
    "#[test]\n",
    "fn overflow_crashes() {\n",
    "    let exe = std::env::current_exe().unwrap();\n",
    "    let status = Command::new(exe)\n",
    "        .arg(\"--ignored\")\n",
    "        .arg(\"--exact\")\n",
    "        .arg(\"run_small_stack\")\n",
    "        .status()\n",
    "        .unwrap();\n",
    "    assert!(!status.success());\n",
    "}\n",
);

/// `run_small_stack` is `#[ignore]`d so that the plain run does not overflow; the test
/// above runs it by name in a child process with `--ignored --exact`: it runs every time.
#[test]
fn an_ignored_test_its_own_file_runs_in_a_child_process_is_no_skip() {
    let after = format!(
        "{CRASH_BODY}\n#[test]\n#[ignore]\nfn run_small_stack() {{\n    recurse(1 << 20);\n}}\n"
    );
    both_ways(&[(CRASH, "")], &writing(&[(CRASH, &after)]), &no_new_skips);
}

/// Lookalike: another test of the file ignored, which nothing runs.
#[test]
fn another_ignored_test_beside_it_still_fires() {
    let after = format!(
        "{CRASH_BODY}\n#[test]\n#[ignore]\nfn run_small_stack() {{}}\n\n#[test]\n#[ignore]\nfn slow_case() {{}}\n"
    );
    both_ways(
        &[(CRASH, "")],
        &writing(&[(CRASH, &after)]),
        &skips_at(&[(CRASH, 20)]),
    );
}
