//! The done gate in the real Claude Code client (issue 3 item 5): failing checks and a
//! lowered bar bounce the stop with an actionable reason, the bounce budget is
//! progress-aware and never holds the agent hostage, and a subagent is judged at its own
//! boundary.

mod support;

use serde_json::{json, Value};
use std::time::Duration;
use support::claude;
use support::model::{ModelServer, Turn};
use support::repo::TestRepo;

const LIMIT: Duration = Duration::from_secs(180);

const SUM_TEST: &str = "const test = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('../src/sum.js');\ntest('sum adds', () => { assert.strictEqual(sum(1, 2), 3); });\n";
const SUM_OK: &str = "module.exports = (a, b) => a + b;\n";
const SUM_BUG: &str = "module.exports = (a, b) => a - b;\n";

fn repo(config: &str, files: &[(&str, &str)]) -> TestRepo {
    let mut all = vec![("loopgate.toml", config)];
    all.extend_from_slice(files);
    let r = TestRepo::with_files(&all);
    r.install_claude_hooks();
    r.git(&["add", "-A"]);
    r.git(&["commit", "-q", "-m", "hooks"]);
    r
}

/// The stop reasons the model received, in order, each once.
fn stop_feedback(server: &ModelServer) -> Vec<String> {
    server.stop_feedback()
}

fn gate_lines(r: &TestRepo, rule: &str) -> Vec<Value> {
    r.audit_lines()
        .into_iter()
        .filter(|l| l["rule"] == rule)
        .collect()
}

#[test]
fn a_failing_check_bounces_the_stop_with_its_output_until_fixed() {
    let Some(bin) = claude::binary() else { return };
    let r = repo(
        "version = 1\n[[check]]\nname = \"test\"\nrun = \"node --test\"\n",
        &[("src/sum.js", SUM_BUG), ("test/sum.test.js", SUM_TEST)],
    );
    let server = ModelServer::start(vec![
        Turn::text("All done."),
        Turn::write(r.file("src/sum.js").to_str().unwrap(), SUM_OK),
        Turn::text("Fixed the sign."),
    ]);
    let run = claude::run(
        &bin,
        &r.path(),
        &r.home(),
        &server,
        "make the tests pass",
        LIMIT,
    );
    assert!(run.success, "{}", run.explain());
    let feedback = stop_feedback(&server);
    assert_eq!(
        feedback.len(),
        1,
        "one bounce, then the fixed stop passes: {feedback:#?}\n{}",
        run.explain()
    );
    let reason = &feedback[0];
    assert!(
        reason.contains("loopgate") && reason.contains("attempt 1/3"),
        "{reason}"
    );
    assert!(reason.contains("`test` (node --test) failed"), "{reason}");
    assert!(
        reason.contains("sum adds"),
        "the check's output reaches the model: {reason}"
    );
    assert_eq!(run.final_text(), "Fixed the sign.", "{}", run.explain());
    assert_eq!(r.latest_receipt().unwrap()["verdict"], "pass");
    assert_eq!(r.ledger()["entries"], json!({}), "green clears the ledger");
}

#[test]
fn a_skip_added_through_edit_bounces_the_stop() {
    let Some(bin) = claude::binary() else { return };
    let r = repo(
        "version = 1\n[[check]]\nname = \"test\"\nrun = \"node --test\"\n",
        &[("src/sum.js", SUM_OK), ("test/sum.test.js", SUM_TEST)],
    );
    let test_file = r.file("test/sum.test.js");
    let server = ModelServer::start(vec![
        Turn::edit(
            test_file.to_str().unwrap(),
            "test('sum adds'",
            "test.skip('sum adds'",
        ),
        Turn::text("Done, the suite is green."),
        Turn::edit(
            test_file.to_str().unwrap(),
            "test.skip('sum adds'",
            "test('sum adds'",
        ),
        Turn::text("Restored the test."),
    ]);
    let run = claude::run(
        &bin,
        &r.path(),
        &r.home(),
        &server,
        "make the suite green",
        LIMIT,
    );
    assert!(run.success, "{}", run.explain());
    let feedback = stop_feedback(&server);
    assert_eq!(feedback.len(), 1, "{feedback:#?}\n{}", run.explain());
    assert!(
        feedback[0].contains("new_skips test/sum.test.js:4"),
        "the finding names file:line: {}",
        feedback[0]
    );
    assert_eq!(run.final_text(), "Restored the test.");
}

#[test]
fn progress_refreshes_the_budget_and_a_stall_exhausts_it() {
    let Some(bin) = claude::binary() else { return };
    let config = "version = 1\n[gate]\nmax_bounces = 2\n\
        [[check]]\nname = \"a\"\nrun = \"node --test test/a.test.js\"\n\
        [[check]]\nname = \"b\"\nrun = \"node --test test/b.test.js\"\n";
    let a_test = SUM_TEST.replace("../src/sum.js", "../src/a.js");
    let b_test = SUM_TEST.replace("../src/sum.js", "../src/b.js");
    let r = repo(
        config,
        &[
            ("src/a.js", SUM_BUG),
            ("src/b.js", SUM_BUG),
            ("test/a.test.js", &a_test),
            ("test/b.test.js", &b_test),
        ],
    );
    let server = ModelServer::start(vec![
        Turn::text("Done."),
        Turn::write(r.file("src/a.js").to_str().unwrap(), SUM_OK),
        Turn::text("Fixed a."),
        Turn::text("b is fine as it is."),
        Turn::text("I still think b is fine."),
    ]);
    let run = claude::run(&bin, &r.path(), &r.home(), &server, "fix both", LIMIT);
    assert!(run.success, "{}", run.explain());
    let feedback = stop_feedback(&server);
    assert_eq!(
        feedback.len(),
        3,
        "three bounces, then let through: {feedback:#?}\n{}",
        run.explain()
    );
    assert!(
        feedback[0].contains("attempt 1/2")
            && feedback[0].contains("`a`")
            && feedback[0].contains("`b`"),
        "{}",
        feedback[0]
    );
    assert!(
        feedback[1].contains("progress: 2 -> 1 problems, bounce budget refreshed. attempt 1/2"),
        "{}",
        feedback[1]
    );
    assert!(
        feedback[2].contains("attempt 2/2") && !feedback[2].contains("`a`"),
        "{}",
        feedback[2]
    );
    assert_eq!(
        run.final_text(),
        "I still think b is fine.",
        "the stop was let through\n{}",
        run.explain()
    );
    assert_eq!(
        r.latest_receipt().unwrap()["verdict"],
        "fail",
        "the receipt stays red"
    );
    let red = gate_lines(&r, "gate.stop")
        .into_iter()
        .filter(|l| l["decision"] == "allow-red")
        .count();
    assert_eq!(
        red,
        1,
        "the let-through is on record: {:#?}",
        r.audit_lines()
    );
}

#[test]
fn a_subagent_that_deletes_a_test_is_bounced_at_its_own_stop() {
    let Some(bin) = claude::binary() else { return };
    let r = repo(
        "version = 1\n[[check]]\nname = \"test\"\nrun = \"node --test\"\n",
        &[("src/sum.js", SUM_OK), ("test/sum.test.js", SUM_TEST)],
    );
    let test_file = r.file("test/sum.test.js");
    let server = ModelServer::start(vec![
        Turn::tool(
            "Agent",
            json!({"description": "trim the suite", "prompt": "SUBTASK-7: remove the slow test",
                   "subagent_type": "general-purpose", "run_in_background": false}),
        ),
        Turn::text("The subagent finished; all done."),
    ]);
    server.lane(
        "SUBTASK-7",
        vec![
            Turn::write(test_file.to_str().unwrap(), "// the slow test is gone\n"),
            Turn::text("Removed it."),
            Turn::write(test_file.to_str().unwrap(), SUM_TEST),
            Turn::text("Put the test back."),
        ],
    );
    let run = claude::run(&bin, &r.path(), &r.home(), &server, "delegate", LIMIT);
    assert!(run.success, "{}", run.explain());
    let feedback = stop_feedback(&server);
    assert_eq!(
        feedback.len(),
        1,
        "only the subagent was bounced: {feedback:#?}\n{}",
        run.explain()
    );
    assert!(
        feedback[0].contains("this subagent's work is not done"),
        "{}",
        feedback[0]
    );
    assert!(
        feedback[0].contains("deleted_tests test/sum.test.js"),
        "{}",
        feedback[0]
    );
    let sub = gate_lines(&r, "gate.subagent-stop");
    let bounced = sub
        .iter()
        .find(|l| l["decision"] == "block")
        .expect("a subagent bounce on record");
    let key = bounced["extra"]["ledger_key"].as_str().unwrap();
    let session = bounced["session"].as_str().unwrap();
    assert!(
        key.starts_with(&format!("{session}/")),
        "its own ledger entry: {key}"
    );
    let main = gate_lines(&r, "gate.stop");
    assert!(
        !main.is_empty() && main.iter().all(|l| l["decision"] == "allow"),
        "the main stop was never bounced: {main:#?}"
    );
    assert_eq!(
        r.ledger()["entries"],
        json!({}),
        "both entries cleared on green"
    );
    assert_eq!(run.final_text(), "The subagent finished; all done.");
}
