//! Where a skip comes from, read with both sides of the file in view. A skip on a test
//! brought back from a comment was off before (the test was no test then). A skip written
//! in a test's body belongs to that test: one in a new test is new even when a removed test
//! of the file had one. A Python test that returns under a condition its comment calls a
//! skip (`# Only test on Unix`) skips itself. Each change is judged uncommitted (against
//! HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, guard, lines_of, writing};
use serde_json::Value;

fn no_new_skips(code: Option<i32>, receipt: &Value, mode: &str) {
    assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
    assert_eq!(code, Some(0), "{mode}: {receipt}");
}

fn skips_at(path: &'static str, lines: &'static [u64]) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = lines.iter().map(|&l| (path.to_string(), l)).collect();
        assert_eq!(lines_of(receipt, "new_skips"), want, "{mode}: {receipt}");
        assert_eq!(code, Some(3), "{mode}");
    }
}

fn message(receipt: &Value) -> String {
    guard(receipt, "new_skips")["findings"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

const BENCH: &str = "tests/end_to_end.rs";

/// Benches all commented out, as a file waiting for an API to come back.
const COMMENTED: &str = concat!(
    "use support::opts;\n",
    "\n",
    "// #[test]\n",
    "// fn http1_consecutive_empty() {\n",
    "//     opts().run()\n",
    "// }\n",
    "\n",
    "// #[test]\n",
    "// fn http1_parallel_empty() {\n",
    "//     opts().parallel(10).run()\n",
    "// }\n",
    "\n",
    "#[test]\n",
    "fn http2_consecutive_empty() {\n",
    "    opts().http2().run()\n",
    "}\n",
);

/// The benches brought back, the parallel one left ignored.
const REVIVED: &str = concat!(
    "use support::opts;\n",
    "\n",
    "#[test]\n",
    "fn http1_consecutive_empty() {\n",
    "    opts().run()\n",
    "}\n",
    "\n",
    "#[test]\n",
    "#[ignore]\n",
    "fn http1_parallel_empty() {\n",
    "    opts().parallel(10).run()\n",
    "}\n",
    "\n",
    "#[test]\n",
    "fn http2_consecutive_empty() {\n",
    "    opts().http2().run()\n",
    "}\n",
);

#[test]
fn a_skip_on_a_test_brought_back_from_a_comment_is_not_new() {
    both_ways(
        &[(BENCH, COMMENTED)],
        &writing(&[(BENCH, REVIVED)]),
        &no_new_skips,
    );
}

#[test]
fn a_skip_on_a_test_that_ran_or_on_a_new_one_is_still_new() {
    // The lookalike: the test that ran is the one now ignored.
    let ran = REVIVED.replace(
        "#[test]\n#[ignore]\nfn http1_parallel_empty() {",
        "#[test]\nfn http1_parallel_empty() {",
    );
    let ran = ran.replace(
        "#[test]\nfn http2_consecutive_empty() {",
        "#[test]\n#[ignore]\nfn http2_consecutive_empty() {",
    );
    both_ways(
        &[(BENCH, COMMENTED)],
        &writing(&[(BENCH, &ran)]),
        &skips_at(BENCH, &[14]),
    );
    // A new test of another name, ignored: no comment held it.
    let new_one = REVIVED.replace("fn http1_parallel_empty() {", "fn http1_parallel_big() {");
    both_ways(
        &[(BENCH, COMMENTED)],
        &writing(&[(BENCH, &new_one)]),
        &skips_at(BENCH, &[9]),
    );
}

const RB: &str = "test/test_cpu_counter.rb";

const RB_OLD: &str = concat!(
    "require 'minitest/autorun'\n",
    "\n",
    "class TestCpuCounter < Minitest::Test\n",
    "  def test_count_via_win32\n",
    "    assert_nil counter.count_via_win32\n",
    "  end\n",
    "\n",
    "  def test_in_path_command\n",
    "    with_ruby_in_path do |ruby|\n",
    "      assert_equal ruby, counter.in_path_command(ruby)\n",
    "    end\n",
    "  rescue Errno::ENOENT => e\n",
    "    raise unless e.message =~ /which/\n",
    "\n",
    "    skip 'cannot find which for this test'\n",
    "  end\n",
    "end\n",
);

/// Both old tests replaced; the new one skips when the count is unknown.
const RB_NEW: &str = concat!(
    "require 'minitest/autorun'\n",
    "\n",
    "class TestCpuCounter < Minitest::Test\n",
    "  def test_count\n",
    "    num = counter.count\n",
    "    skip 'cannot count CPU' if num == nil\n",
    "    assert_operator num, :>=, 1\n",
    "  end\n",
    "\n",
    "  def test_count_with_default\n",
    "    assert_equal 8, counter.count_with_default(8)\n",
    "  end\n",
    "end\n",
);

#[test]
fn a_skip_in_a_new_test_does_not_take_the_place_of_a_removed_tests_skip() {
    both_ways(
        &[(RB, RB_OLD)],
        &writing(&[(RB, RB_NEW)]),
        &|code, receipt, mode| {
            skips_at(RB, &[6])(code, receipt, mode);
            let snippet = &guard(receipt, "new_skips")["findings"][0]["snippet"];
            assert_eq!(snippet, "skip 'cannot count CPU' if num == nil", "{mode}");
        },
    );
}

#[test]
fn a_skip_reworded_in_its_own_test_is_the_same_skip() {
    // The lookalike: the same test keeps a body skip with new words.
    let reworded = RB_OLD.replace(
        "skip 'cannot find which for this test'",
        "skip 'which(1) is missing here'",
    );
    both_ways(&[(RB, RB_OLD)], &writing(&[(RB, &reworded)]), &no_new_skips);
}

const PY: &str = "tests/test_console.py";

const PY_OLD: &str = concat!(
    "import subprocess\n",
    "\n",
    "\n",
    "def test_render():\n",
    "    assert render() == 'x'\n",
);

fn with_pipe_test(exit: &str) -> String {
    format!(
        "{PY_OLD}\n\ndef test_broken_pipe() -> None:\n    for cmd in [['which', 'python'], ['which', 'head']]:\n        check = subprocess.run(cmd).returncode\n        if check != 0:\n{exit}\n    proc = subprocess.Popen(['python', '-m', 'rich'])\n    assert proc.wait() == 1\n"
    )
}

#[test]
fn a_python_test_returning_under_a_condition_its_comment_calls_a_skip_skips() {
    let changed = with_pipe_test("            return  # Only test on suitable Unix platforms");
    both_ways(
        &[(PY, PY_OLD)],
        &writing(&[(PY, &changed)]),
        &|code, receipt, mode| {
            skips_at(PY, &[11])(code, receipt, mode);
            assert!(
                message(receipt).contains("returns early under a condition"),
                "{mode}: {}",
                message(receipt)
            );
        },
    );
}

#[test]
fn a_python_return_that_no_comment_calls_a_skip_is_not_read() {
    // The lookalike: the same exit, its comment saying nothing of a skip.
    let changed = with_pipe_test("            return  # nothing more to compare");
    both_ways(&[(PY, PY_OLD)], &writing(&[(PY, &changed)]), &no_new_skips);
}
