//! What counts as a test, and which removed tests ran nothing. A method called on
//! something named like a test function (nodeunit's `test.equal(...)` on its callback's
//! `test` parameter) declares no test; a Go testable example with an `// Output:` comment
//! is a test `go test` runs, and its printing is its output, not a debugging leftover; a
//! test whose first statement is an unconditional skip ran nothing, so removing it deletes
//! nothing that ran. Each change is judged uncommitted (against HEAD) and committed
//! (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_one_deleted, both_ways, lines_of, writing};
use serde_json::Value;

fn no_finding(name: &'static str) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        assert_eq!(lines_of(receipt, name), vec![], "{mode}: {receipt}");
        assert_eq!(code, Some(0), "{mode}");
    }
}

const JS: &str = "test/unit/adapters/http.js";

fn nodeunit_test(name: &str) -> String {
    format!(
        "  test{name}: function (test) {{\n    var r = get('{name}');\n    test.equal(r.status, 200);\n    test.ok(r.body);\n    test.done();\n  }},\n"
    )
}

fn mocha_test(name: &str) -> String {
    format!(
        "  it('should {name}', function () {{\n    var r = get('{name}');\n    assert.equal(r.status, 200);\n    assert.ok(r.body);\n  }});\n"
    )
}

#[test]
fn nodeunit_tests_rewritten_as_mocha_lose_nothing() {
    let names = ["Get", "Post", "Redirect"];
    let old = format!(
        "var get = require('./get');\n\nmodule.exports = {{\n{}}};\n",
        names.map(nodeunit_test).concat()
    );
    let new = format!(
        "var assert = require('assert');\nvar get = require('./get');\n\ndescribe('http', function () {{\n{}}});\n",
        names.map(mocha_test).concat()
    );
    both_ways(
        &[(JS, &old)],
        &writing(&[(JS, &new)]),
        &no_finding("deleted_tests"),
    );
}

#[test]
fn a_mocha_test_removed_or_a_test_mode_removed_is_still_deleted() {
    let old = format!(
        "describe('http', function () {{\n{}}});\n",
        ["Get", "Post", "Redirect"].map(mocha_test).concat()
    );
    let new = format!(
        "describe('http', function () {{\n{}}});\n",
        ["Get", "Post"].map(mocha_test).concat()
    );
    both_ways(
        &[(JS, &old)],
        &writing(&[(JS, &new)]),
        &assert_one_deleted(JS, "from 3 to 2"),
    );
    // `test.concurrent(...)` is a test; its removal is a deletion.
    let path = "test/api.test.js";
    let old = "test('gets', async () => {\n  expect(await get()).toBe(1);\n});\n\ntest.concurrent('posts', async () => {\n  expect(await post()).toBe(1);\n});\n";
    let new = "test('gets', async () => {\n  expect(await get()).toBe(1);\n});\n";
    both_ways(
        &[(path, old)],
        &writing(&[(path, new)]),
        &assert_one_deleted(path, "from 2 to 1"),
    );
}

const RUBY: &str = "test/job_test.rb";

fn spec(second_body: &str) -> String {
    format!(
        "describe 'job' do\n  it 'runs' do\n    assert_equal 1, run\n  end\n\n  it 'retries' do\n{second_body}    assert_equal 2, retry_count\n  end\nend\n"
    )
}

const SPEC_AFTER: &str = "describe 'job' do\n  it 'runs' do\n    assert_equal 1, run\n  end\nend\n";

#[test]
fn removing_a_test_that_skips_first_thing_deletes_nothing_that_ran() {
    let old = spec("    skip\n");
    both_ways(
        &[(RUBY, &old)],
        &writing(&[(RUBY, SPEC_AFTER)]),
        &no_finding("deleted_tests"),
    );
    let go = "pkg/retry_test.go";
    let old = "package pkg\n\nfunc TestRuns(t *testing.T) {\n\tcheck(t, run())\n}\n\nfunc TestRetries(t *testing.T) {\n\tt.Skip(\"flaky on CI\")\n\tcheck(t, retry())\n}\n";
    let new = "package pkg\n\nfunc TestRuns(t *testing.T) {\n\tcheck(t, run())\n}\n";
    both_ways(
        &[(go, old)],
        &writing(&[(go, new)]),
        &no_finding("deleted_tests"),
    );
}

#[test]
fn removing_a_test_that_skips_under_a_condition_or_later_is_a_deletion() {
    for body in [
        "    skip 'no redis' unless redis?\n",
        "    assert run\n    skip\n",
    ] {
        let old = spec(body);
        both_ways(
            &[(RUBY, &old)],
            &writing(&[(RUBY, SPEC_AFTER)]),
            &assert_one_deleted(RUBY, "from 2 to 1"),
        );
    }
}

const EXAMPLES: &str = "spew/example_test.go";

const WITH_EXAMPLES: &str = "package spew_test\n\nfunc TestConfig(t *testing.T) {\n\tcheck(t)\n}\n\nfunc ExampleDump() {\n\tspew.Dump(1)\n\n\t// Output:\n\t// (int) 1\n}\n\nfunc ExampleConfigState_Dump() {\n\tscs := spew.ConfigState{Indent: \"\\t\"}\n\tscs.Dump(1)\n\t// Output:\n\t// (int) 1\n}\n";

const WITHOUT_EXAMPLES: &str =
    "package spew_test\n\nfunc TestConfig(t *testing.T) {\n\tcheck(t)\n}\n";

#[test]
fn go_examples_with_output_are_tests_and_deleting_them_is_caught() {
    both_ways(
        &[(EXAMPLES, WITH_EXAMPLES)],
        &writing(&[(EXAMPLES, WITHOUT_EXAMPLES)]),
        &assert_one_deleted(EXAMPLES, "from 3 to 1"),
    );
}

#[test]
fn go_examples_without_output_run_nothing() {
    let old = WITH_EXAMPLES
        .replace("\t// Output:\n\t// (int) 1\n", "")
        .replace("\n\n}", "\n}");
    both_ways(
        &[(EXAMPLES, &old)],
        &writing(&[(EXAMPLES, WITHOUT_EXAMPLES)]),
        &no_finding("deleted_tests"),
    );
}

#[test]
fn printing_in_a_go_example_is_its_output_and_in_a_test_a_leftover() {
    let added = WITH_EXAMPLES.replace(
        "func ExampleDump() {\n\tspew.Dump(1)\n",
        "func ExampleDump() {\n\tspew.Dump(1)\n\tspew.Dump(2)\n",
    );
    both_ways(
        &[(EXAMPLES, WITH_EXAMPLES)],
        &writing(&[(EXAMPLES, &added)]),
        &|code, receipt, mode| {
            assert_eq!(lines_of(receipt, "debug_artifacts"), vec![], "{mode}");
            assert_eq!(code, Some(0), "{mode}: {receipt}");
        },
    );
    let test = "spew/dump_test.go";
    let dumps = WITHOUT_EXAMPLES.replace("\tcheck(t)\n", "\tspew.Dump(cfg)\n\tcheck(t)\n");
    both_ways(
        &[(test, WITHOUT_EXAMPLES)],
        &writing(&[(test, &dumps)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(test.to_string(), 4)],
                "{mode}: {receipt}"
            );
        },
    );
}

/// `(cond ? it.skip : it)('name', fn)`: the test is still there, skipped on some runs. That
/// is a new skip, not a deleted test.
#[test]
fn a_test_chosen_by_a_condition_is_still_a_test() {
    let two = "describe('app', () => {\n  it('handles errors', done => {\n    run(done);\n  });\n  it('responds', () => {\n    check();\n  });\n});\n";
    let gated = two.replace(
        "  it('handles errors'",
        "  (/^v18\\./.test(process.version) ? it.skip : it)('handles errors'",
    );
    both_ways(
        &[("__tests__/app.js", two)],
        &writing(&[("__tests__/app.js", &gated)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "deleted_tests"),
                vec![],
                "{mode}: {receipt}"
            );
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![("__tests__/app.js".to_string(), 2)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}
