//! The done gate seen from the agent's seat, for red-team tests: a Claude session started
//! and stopped through the real hook, and the CLI run in the session's repository.

use super::hook::{claude_payload, run, HookRun};
use super::repo::{TestRepo, LOOPGATE};
use serde_json::json;
use std::process::{Command, Output};

pub fn loopgate(r: &TestRepo, args: &[&str]) -> Output {
    Command::new(LOOPGATE)
        .args(args)
        .current_dir(r.path())
        .env("HOME", r.home())
        .env("NO_COLOR", "1")
        .env_remove("LOOPGATE_STATE_HOME")
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .expect("loopgate runs")
}

pub fn text(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

pub fn start(r: &TestRepo, session: &str) {
    let out = run(
        "claude",
        &r.path(),
        &r.home(),
        &claude_payload(
            "SessionStart",
            &r.path(),
            session,
            json!({"source": "startup"}),
        ),
    );
    assert_eq!(out.code, 0, "{}", out.explain());
    assert!(
        r.file(&format!(".loopgate/baselines/{session}.json"))
            .exists(),
        "SessionStart recorded no baseline: {}",
        out.explain()
    );
}

pub fn stop(r: &TestRepo, session: &str) -> HookRun {
    run(
        "claude",
        &r.path(),
        &r.home(),
        &claude_payload(
            "Stop",
            &r.path(),
            session,
            json!({"stop_hook_active": false}),
        ),
    )
}

/// Claude answers a stop it lets through with nothing (or a JSON without `block`).
pub fn stop_decision(out: &HookRun) -> String {
    if out.stdout.trim().is_empty() {
        return "allow".into();
    }
    out.json()["decision"]
        .as_str()
        .unwrap_or("allow")
        .to_string()
}
