//! The tool gate in the real Claude Code client (issue 3 item 5, issue 4 "done when"):
//! a refused tool call reaches the model as an error naming loopgate, and the attacks of
//! issue 4 are stopped before they run.

mod support;

use serde_json::json;
use std::time::Duration;
use support::claude;
use support::model::{ModelServer, Turn, Usage};
use support::repo::TestRepo;

const LIMIT: Duration = Duration::from_secs(120);

fn repo(config: &str) -> TestRepo {
    let r = TestRepo::with_files(&[
        ("loopgate.toml", config),
        ("src/app.js", "module.exports = () => 1;\n"),
    ]);
    r.install_claude_hooks();
    r.git(&["add", "-A"]);
    r.git(&["commit", "-q", "-m", "hooks"]);
    r
}

/// The refused call's tool_result: an error, naming loopgate and the rule.
fn assert_refused(server: &ModelServer, run: &claude::ClaudeRun, rule: &str, needle: &str) {
    let results = server.tool_results();
    let refused = results.iter().any(|(is_error, text)| {
        *is_error && text.contains("loopgate") && text.contains(rule) && text.contains(needle)
    });
    assert!(
        refused,
        "expected an is_error tool_result naming loopgate, {rule} and {needle}; got {results:#?}\n{}",
        run.explain()
    );
}

fn audit_has(r: &TestRepo, decision: &str, rule: &str) -> bool {
    r.audit_lines()
        .iter()
        .any(|l| l["event"] == "PreToolUse" && l["decision"] == decision && l["rule"] == rule)
}

#[test]
fn a_refused_write_reaches_the_model_as_an_error_naming_loopgate() {
    let Some(bin) = claude::binary() else { return };
    let r = repo("version = 1\n[[check]]\nname = \"true\"\nrun = \"true\"\n[sandbox]\ntemp_writable = false\n");
    let outside = r.home().join("escaped.txt");
    let server = ModelServer::start(vec![
        Turn::write(outside.to_str().unwrap(), "out of bounds\n"),
        Turn::text("I could not write it."),
    ]);
    let run = claude::run(&bin, &r.path(), &r.home(), &server, "write a file", LIMIT);
    assert!(run.success, "{}", run.explain());
    assert_refused(&server, &run, "fs.escape", outside.to_str().unwrap());
    assert!(!outside.exists(), "the write never happened");
    assert!(
        audit_has(&r, "deny", "fs.escape"),
        "audited: {:#?}",
        r.audit_lines()
    );
}

#[test]
fn an_edit_of_the_gate_config_is_refused() {
    let Some(bin) = claude::binary() else { return };
    let r = repo("version = 1\n[[check]]\nname = \"true\"\nrun = \"true\"\n");
    let config = r.file("loopgate.toml");
    let server = ModelServer::start(vec![
        Turn::edit(
            config.to_str().unwrap(),
            "run = \"true\"",
            "run = \"echo skipped\"",
        ),
        Turn::write(r.file(".claude/settings.json").to_str().unwrap(), "{}"),
        Turn::text("done"),
    ]);
    let run = claude::run(
        &bin,
        &r.path(),
        &r.home(),
        &server,
        "relax the checks",
        LIMIT,
    );
    assert!(run.success, "{}", run.explain());
    assert_refused(&server, &run, "gate.tamper", "loopgate.toml");
    assert_refused(&server, &run, "gate.tamper", ".claude/settings.json");
    assert!(
        r.read("loopgate.toml").unwrap().contains("run = \"true\""),
        "config untouched"
    );
    assert!(
        r.read(".claude/settings.json")
            .unwrap()
            .contains("hook claude"),
        "hooks untouched"
    );
}

#[test]
fn a_destructive_command_is_refused() {
    let Some(bin) = claude::binary() else { return };
    let r = repo("version = 1\n[[check]]\nname = \"true\"\nrun = \"true\"\n");
    let server = ModelServer::start(vec![
        Turn::bash("git reset --hard HEAD~1 && rm -rf .git"),
        Turn::text("done"),
    ]);
    let run = claude::run(&bin, &r.path(), &r.home(), &server, "clean up", LIMIT);
    assert!(run.success, "{}", run.explain());
    let results = server.tool_results();
    assert!(
        results
            .iter()
            .any(|(e, t)| *e && t.contains("loopgate") && t.contains("destructive")),
        "{results:#?}\n{}",
        run.explain()
    );
    assert!(r.path().join(".git").is_dir(), "the repository survived");
}

#[test]
fn a_write_through_the_shell_outside_the_roots_is_refused() {
    let Some(bin) = claude::binary() else { return };
    let r = repo("version = 1\n[[check]]\nname = \"true\"\nrun = \"true\"\n[sandbox]\ntemp_writable = false\n");
    let target = r.home().join("shell-escape.txt");
    let command = format!("echo pwned > {}", target.display());
    let server = ModelServer::start(vec![Turn::bash(&command), Turn::text("done")]);
    let run = claude::run(&bin, &r.path(), &r.home(), &server, "write outside", LIMIT);
    assert!(run.success, "{}", run.explain());
    assert_refused(&server, &run, "fs.escape", "shell-escape.txt");
    assert!(!target.exists(), "the command never ran");
}

#[test]
fn the_observer_profile_refuses_every_tool() {
    let Some(bin) = claude::binary() else { return };
    let r = repo("version = 1\n[[check]]\nname = \"true\"\nrun = \"true\"\n[policy]\nprofile = \"observer\"\n");
    let server = ModelServer::start(vec![
        Turn::tool("Read", json!({"file_path": r.file("src/app.js")})),
        Turn::bash("ls"),
        Turn::text("done"),
    ]);
    let run = claude::run(&bin, &r.path(), &r.home(), &server, "look around", LIMIT);
    assert!(run.success, "{}", run.explain());
    let refused: Vec<_> = server
        .tool_results()
        .into_iter()
        .filter(|(e, t)| *e && t.contains("profile.observer"))
        .collect();
    assert_eq!(
        refused.len(),
        2,
        "both calls refused: {:#?}\n{}",
        server.tool_results(),
        run.explain()
    );
    let denials = r
        .audit_lines()
        .iter()
        .filter(|l| l["rule"] == "profile.observer")
        .count();
    assert_eq!(denials, 2, "both attempts audited");
}

/// 120 tokens a response, a 250-token budget: the first two responses are within it (120,
/// 240), the third is over (360). The client writes its transcript asynchronously, so the
/// hook waits for the message that asked for the call; exactly two commands run, and the
/// halt ends the session, on every run.
#[test]
fn an_exhausted_token_budget_halts_the_session_exactly() {
    let Some(bin) = claude::binary() else { return };
    let r = repo(
        "version = 1\n[[check]]\nname = \"true\"\nrun = \"true\"\n[budget]\nsession_tokens = 250\n",
    );
    let usage = Usage {
        input_tokens: 100,
        output_tokens: 20,
    };
    for round in 0..5 {
        let _ = std::fs::remove_file(r.file("ran.txt"));
        let mut turns: Vec<Turn> = (0..5)
            .map(|i| Turn::bash(&format!("echo {i} >> ran.txt")))
            .collect();
        turns.push(Turn::text("more work"));
        let server = ModelServer::with_usage(turns, usage);
        let run = claude::run(&bin, &r.path(), &r.home(), &server, "run them", LIMIT);
        let ran = r.read("ran.txt").unwrap_or_default();
        assert_eq!(
            ran.lines().count(),
            2,
            "round {round}: exactly the calls within the budget ran: {ran:?}\n{}",
            run.explain()
        );
        // `continue: false` ended the session at once: no request after the halted call.
        assert_eq!(
            server.requests().len(),
            3,
            "round {round}\n{}",
            run.explain()
        );
    }
    let halted: Vec<_> = r
        .audit_lines()
        .into_iter()
        .filter(|l| l["rule"] == "budget.exhausted")
        .collect();
    assert_eq!(halted.len(), 5, "{halted:#?}");
    for h in &halted {
        assert_eq!(h["extra"]["session_tokens"], 360, "{h}");
        assert_eq!(h["extra"]["session_limit"], 250, "{h}");
        assert_eq!(h["extra"]["call_counted"], true, "{h}");
        let reason = h["reason"].as_str().unwrap();
        assert!(
            reason.contains("360 tokens") && reason.contains("limit 250 tokens"),
            "{reason}"
        );
    }
    let bounced = r
        .audit_lines()
        .iter()
        .filter(|l| l["decision"] == "block")
        .count();
    assert_eq!(bounced, 0, "never bounced for more work");
}
