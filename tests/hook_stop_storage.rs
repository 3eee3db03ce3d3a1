//! A stop's two writes, the receipt and the bounce ledger, end in syncs that run at once
//! (docs/hooks-wiring.md, "The done gate's own work"). What a stop answers, counts and
//! stores is the same as when the receipt was stored first and the ledger after it.

mod support;

use serde_json::json;
use std::path::Path;
use support::hook::{claude_payload, run, HookRun};
use support::repo::{TestRepo, LOOPGATE};

const SUM_TEST: &str = "const test = require('node:test');\ntest('sum adds', () => {});\n";

/// A session with a deleted test file: every subagent stop is red with one problem.
fn red_session() -> TestRepo {
    let r = TestRepo::with_files(&[
        ("src/sum.js", "module.exports = (a, b) => a + b;\n"),
        ("test/sum.test.js", SUM_TEST),
    ]);
    run(
        "claude",
        &r.path(),
        &r.home(),
        &claude_payload("SessionStart", &r.path(), "s1", json!({})),
    );
    r.write("test/sum.test.js", "// gone\n");
    r
}

fn subagent_stop(r: &TestRepo) -> HookRun {
    let payload = claude_payload(
        "SubagentStop",
        &r.path(),
        "s1",
        json!({"stop_hook_active": false, "agent_id": "a1"}),
    );
    run("claude", &r.path(), &r.home(), &payload)
}

fn temp_files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(".tmp") {
            found.push(entry.path().display().to_string());
        }
        if entry.file_type().unwrap().is_dir() {
            found.extend(temp_files(&entry.path()));
        }
    }
    found
}

fn audit_verify(r: &TestRepo) -> String {
    let out = std::process::Command::new(LOOPGATE)
        .args(["audit", "verify"])
        .current_dir(r.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "the chain is intact: {text}");
    text
}

#[test]
fn red_subagent_stops_are_counted_stored_and_audited_one_by_one() {
    let r = red_session();
    let mut answers = Vec::new();
    for _ in 0..4 {
        let out = subagent_stop(&r);
        // A bounce answers on stdout; the stop let through says so on stderr.
        let text = if out.stdout.trim().is_empty() {
            out.stderr.clone()
        } else {
            out.json()["reason"].as_str().unwrap_or("").to_string()
        };
        answers.push(text.lines().next().unwrap_or("").to_string());
    }
    let expected_starts = [
        "loopgate: this subagent's work is not done (attempt 1/3)",
        "loopgate: this subagent's work is not done (attempt 2/3)",
        "loopgate: this subagent's work is not done (attempt 3/3)",
        "loopgate: RED STOP LET THROUGH for s1/a1",
    ];
    for (answer, start) in answers.iter().zip(expected_starts) {
        assert!(answer.starts_with(start), "{answers:#?}");
    }
    let entry = &r.ledger()["entries"]["s1/a1"];
    assert_eq!(
        (&entry["bounces"], &entry["exhausted"]),
        (&json!(3), &json!(true)),
        "{entry}"
    );
    let history = std::fs::read_dir(r.file(".loopgate/receipts"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .count();
    assert_eq!(history, 4, "one history receipt per stop");
    assert!(
        !r.file(".loopgate/receipts/latest.json").exists(),
        "a subagent's receipts go to the history only"
    );
    assert!(temp_files(&r.file(".loopgate")).is_empty());
    let verified = audit_verify(&r);
    assert!(
        verified.contains("4 receipt(s) agree with the log"),
        "{verified}"
    );
}

#[test]
fn a_stop_whose_receipt_cannot_be_stored_is_refused_and_counted_once() {
    let r = red_session();
    std::fs::create_dir_all(r.file(".loopgate")).unwrap();
    std::fs::write(r.file(".loopgate/receipts"), "in the way").unwrap();
    for attempt in 1..=2 {
        let out = subagent_stop(&r);
        let v = out.json();
        assert_eq!(v["decision"], "block", "{}", out.explain());
        let reason = v["reason"].as_str().unwrap();
        assert!(
            reason.contains(&format!("(attempt {attempt}/3)"))
                && reason.contains(".loopgate/receipts"),
            "the cause, counted once per stop: {reason}"
        );
    }
    let entry = &r.ledger()["entries"]["s1/a1"];
    assert_eq!(entry["bounces"], 2, "{entry}");
    assert_eq!(
        entry["last"],
        u32::MAX,
        "the stop counts as the error: {entry}"
    );
    assert!(
        temp_files(&r.file(".loopgate")).is_empty(),
        "the ledger staged for the unstored receipt is gone"
    );
    let stops: Vec<_> = r
        .audit_lines()
        .into_iter()
        .filter(|l| l["rule"] == "gate.subagent-stop")
        .collect();
    assert_eq!(stops.len(), 2);
    assert!(stops.iter().all(|l| l["problems"].is_null()), "{stops:?}");
    audit_verify(&r);
}
