//! The wiring for Codex, Cursor and Gemini CLI through the same seats (the protocol
//! contract tests of each payload live with the agents crate).

mod support;

use serde_json::json;
use support::hook::run;
use support::repo::TestRepo;

const FAILING: &[(&str, &str)] = &[
    (
        "loopgate.toml",
        "version = 1\n[[check]]\nname = \"test\"\nrun = \"node --test\"\n",
    ),
    (
        "test/a.test.js",
        "const test = require('node:test');\ntest('fails', () => { throw new Error('red'); });\n",
    ),
];

#[test]
fn a_cursor_stop_that_did_not_complete_is_never_gated() {
    let r = TestRepo::with_files(FAILING);
    let payload = json!({
        "conversation_id": "c1", "generation_id": "g1", "hook_event_name": "stop",
        "status": "aborted", "loop_count": 0, "workspace_roots": [r.path()]
    });
    let out = run(
        "cursor",
        &r.path(),
        &r.home(),
        payload.to_string().as_bytes(),
    );
    assert_eq!((out.code, out.stdout.trim()), (0, ""), "{}", out.explain());
    assert!(
        r.audit_lines()
            .iter()
            .any(|l| l["rule"] == "stop.not-completed"),
        "{:#?}",
        r.audit_lines()
    );
    let completed = json!({
        "conversation_id": "c1", "generation_id": "g2", "hook_event_name": "stop",
        "status": "completed", "loop_count": 0, "workspace_roots": [r.path()]
    });
    let out = run(
        "cursor",
        &r.path(),
        &r.home(),
        completed.to_string().as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.explain());
    let v = out.json();
    let followup = v["followup_message"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", out.explain()));
    assert!(
        followup.contains("attempt 1/3") && followup.contains("red"),
        "{followup}"
    );
}

#[test]
fn a_gemini_write_to_the_gate_config_is_denied() {
    let r = TestRepo::with_files(FAILING);
    let payload = json!({
        "session_id": "g1", "cwd": r.path(), "hook_event_name": "BeforeTool",
        "tool_name": "write_file", "tool_input": {"file_path": r.file("loopgate.toml"), "content": "version = 1\n"}
    });
    let out = run(
        "gemini",
        &r.path(),
        &r.home(),
        payload.to_string().as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.explain());
    let v = out.json();
    assert_eq!(v["decision"], "deny", "{v}");
    assert!(v.to_string().contains("gate.tamper"), "{v}");
}

#[test]
fn a_codex_stop_with_a_failing_check_always_answers_json() {
    let r = TestRepo::with_files(FAILING);
    let payload = json!({
        "session_id": "x1", "cwd": r.path(), "hook_event_name": "Stop",
        "stop_hook_active": false, "transcript_path": null
    });
    let out = run(
        "codex",
        &r.path(),
        &r.home(),
        payload.to_string().as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.explain());
    let v = out.json();
    assert_eq!(v["decision"], "block", "{v}");
    assert!(v["reason"].as_str().unwrap().contains("attempt 1/3"), "{v}");
}
