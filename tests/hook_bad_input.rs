//! `loopgate hook` on bad input: each case has one defined answer (docs/hooks-wiring.md).
//! Tool calls fail closed; a stop never passes silently.

mod support;

use serde_json::json;
use support::hook::{claude_payload, run};
use support::repo::TestRepo;

fn repo() -> TestRepo {
    TestRepo::with_files(&[("src/lib.rs", "pub fn one() -> u32 { 1 }\n")])
}

#[test]
fn non_json_stdin_is_exit_2_with_the_reason_on_stderr() {
    let r = repo();
    let out = run("claude", &r.path(), &r.home(), b"this is not json");
    assert_eq!(out.code, 2, "{}", out.explain());
    assert!(
        out.stderr.contains("bad input") && out.stderr.contains("not JSON"),
        "{}",
        out.explain()
    );
    assert!(out.stdout.is_empty(), "{}", out.explain());
}

#[test]
fn empty_stdin_and_empty_object_are_exit_2() {
    let r = repo();
    let empty = run("claude", &r.path(), &r.home(), b"");
    assert_eq!(empty.code, 2, "{}", empty.explain());
    assert!(
        empty.stderr.contains("stdin is empty"),
        "{}",
        empty.explain()
    );
    let object = run("claude", &r.path(), &r.home(), b"{}");
    assert_eq!(object.code, 2, "{}", object.explain());
    assert!(
        object.stderr.contains("bad input") && object.stderr.contains("event"),
        "{}",
        object.explain()
    );
}

#[test]
fn a_huge_payload_is_refused_without_reading_it_all() {
    let r = repo();
    let mut payload =
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":""#.to_vec();
    payload.extend(std::iter::repeat_n(b'a', 17 * 1024 * 1024));
    payload.extend(br#""}}"#);
    let out = run("claude", &r.path(), &r.home(), &payload);
    assert_eq!(out.code, 2, "{}", out.explain());
    assert!(
        out.stderr.contains("larger than 16 MiB"),
        "{}",
        out.explain()
    );
}

#[test]
fn an_event_loopgate_does_not_handle_gets_no_answer() {
    let r = repo();
    let payload = claude_payload("UserPromptSubmit", &r.path(), "s1", json!({"prompt": "hi"}));
    let out = run("claude", &r.path(), &r.home(), &payload);
    assert_eq!(out.code, 0, "{}", out.explain());
    assert!(out.stdout.trim().is_empty(), "{}", out.explain());
    let audit = r.audit_lines();
    assert!(
        audit
            .iter()
            .any(|l| l["event"] == "UserPromptSubmit" && l["rule"] == "ignored"),
        "the ignored event is still audited: {audit:?}"
    );
}

#[test]
fn a_missing_cwd_means_the_process_cwd() {
    let r = repo();
    let payload = json!({
        "session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": "loopgate.toml", "content": "version = 1\n"}
    });
    let out = run(
        "claude",
        &r.path(),
        &r.home(),
        payload.to_string().as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.explain());
    let v = out.json();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        out.explain()
    );
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("gate.tamper") && reason.contains("loopgate.toml"),
        "{reason}"
    );
}

#[test]
fn outside_any_repo_the_cwd_is_the_write_root_and_stops_are_not_gated() {
    let plain = tempfile::tempdir().unwrap();
    let cwd = std::fs::canonicalize(plain.path()).unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        cwd.join("loopgate.toml"),
        "version = 1\n[sandbox]\ntemp_writable = false\n",
    )
    .unwrap();
    let inside = claude_payload(
        "PreToolUse",
        &cwd,
        "s1",
        json!({"tool_name": "Write", "tool_input": {"file_path": cwd.join("notes.txt"), "content": "x"}}),
    );
    let out = run("claude", &cwd, home.path(), &inside);
    assert_eq!((out.code, out.stdout.trim()), (0, ""), "{}", out.explain());
    let outside = claude_payload(
        "PreToolUse",
        &cwd,
        "s1",
        json!({"tool_name": "Write", "tool_input": {"file_path": "/etc/loopgate-test", "content": "x"}}),
    );
    let out = run("claude", &cwd, home.path(), &outside);
    let v = out.json();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        out.explain()
    );
    assert!(v.to_string().contains("/etc/loopgate-test"), "{v}");

    let stop = claude_payload("Stop", &cwd, "s1", json!({"stop_hook_active": false}));
    let out = run("claude", &cwd, home.path(), &stop);
    assert_eq!(out.code, 0, "{}", out.explain());
    assert!(
        out.stderr.contains("not inside a git repository"),
        "said on stderr: {}",
        out.explain()
    );
}

#[test]
fn a_config_that_does_not_load_denies_tool_calls() {
    let r = repo();
    r.write(
        "loopgate.toml",
        "version = 1\n[guards]\nnew_skip = \"off\"\n",
    );
    let payload = claude_payload(
        "PreToolUse",
        &r.path(),
        "s1",
        json!({"tool_name": "Write", "tool_input": {"file_path": r.file("src/x.rs"), "content": "x"}}),
    );
    let out = run("claude", &r.path(), &r.home(), &payload);
    let v = out.json();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{}",
        out.explain()
    );
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("configuration does not load") && reason.contains("new_skip"),
        "{reason}"
    );
}

#[test]
fn a_stop_the_gate_cannot_judge_is_refused_a_bounded_number_of_times() {
    let r = repo();
    r.write("loopgate.toml", "version = 1\n[gate]\nbogus = 1\n");
    for attempt in 1..=3 {
        let payload = claude_payload(
            "Stop",
            &r.path(),
            "s-err",
            json!({"stop_hook_active": attempt > 1}),
        );
        let out = run("claude", &r.path(), &r.home(), &payload);
        let v = out.json();
        assert_eq!(v["decision"], "block", "stop {attempt}: {}", out.explain());
        let reason = v["reason"].as_str().unwrap();
        assert!(
            reason.contains("could not run the done gate") && reason.contains("bogus"),
            "{reason}"
        );
        // The config cannot be read, so the default budget of 3 applies.
        assert!(reason.contains(&format!("attempt {attempt}/3")), "{reason}");
    }
    let payload = claude_payload(
        "Stop",
        &r.path(),
        "s-err",
        json!({"stop_hook_active": true}),
    );
    let fourth = run("claude", &r.path(), &r.home(), &payload);
    assert_eq!(
        (fourth.code, fourth.stdout.trim()),
        (0, ""),
        "budget spent: let through: {}",
        fourth.explain()
    );
    assert!(
        fourth.stderr.contains("RED STOP LET THROUGH"),
        "loudly: {}",
        fourth.explain()
    );
}

#[test]
fn a_budget_with_a_transcript_not_written_yet_is_zero_usage() {
    // Agents create the transcript lazily: the first call of a session may come first.
    let r = repo();
    r.write(
        "loopgate.toml",
        "version = 1\n[budget]\nsession_tokens = 1000\n",
    );
    let payload = json!({
        "session_id": "s1", "cwd": r.path(), "hook_event_name": "PreToolUse",
        "transcript_path": r.file("missing/transcript.jsonl"),
        "tool_name": "Read", "tool_input": {"file_path": r.file("src/lib.rs")}
    });
    let out = run(
        "claude",
        &r.path(),
        &r.home(),
        payload.to_string().as_bytes(),
    );
    assert_eq!(out.code, 0, "{}", out.explain());
    assert!(
        !out.stdout.contains("deny"),
        "not refused as unmeasurable: {}",
        out.explain()
    );
}

#[test]
fn a_budget_with_a_fifo_transcript_is_refused_in_time() {
    let r = repo();
    r.write(
        "loopgate.toml",
        "version = 1\n[budget]\nsession_tokens = 1000\n",
    );
    let fifo = r.file("transcript.jsonl");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    for (agent, event, tool) in [
        ("claude", "PreToolUse", "Read"),
        ("codex", "PreToolUse", "Bash"),
        ("gemini", "BeforeTool", "read_file"),
    ] {
        // One session per agent, as real clients have: a session id is pinned per agent.
        let payload = json!({
            "session_id": format!("s-{agent}"), "cwd": r.path(), "hook_event_name": event,
            "transcript_path": fifo, "tool_use_id": "call_1",
            "tool_name": tool, "tool_input": {"file_path": r.file("src/lib.rs"), "command": "ls"}
        });
        let out = run(agent, &r.path(), &r.home(), payload.to_string().as_bytes());
        assert!(
            out.elapsed < std::time::Duration::from_secs(10),
            "answered within the deadline: {}",
            out.explain()
        );
        assert!(
            out.stdout.contains("deny") && out.stdout.contains("not a regular file"),
            "{agent}: {}",
            out.explain()
        );
    }
}
