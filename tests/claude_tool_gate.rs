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

#[test]
fn an_exhausted_token_budget_halts_the_session() {
    let Some(bin) = claude::binary() else { return };
    // Each turn reports 1,000 input + 500 output tokens: one turn on record spends the budget.
    let r = repo("version = 1\n[[check]]\nname = \"true\"\nrun = \"true\"\n[budget]\nsession_tokens = 1000\n");
    let usage = Usage {
        input_tokens: 1000,
        output_tokens: 500,
    };
    let mut turns: Vec<Turn> = (0..8)
        .map(|_| Turn::tool("Read", json!({"file_path": r.file("src/app.js")})))
        .collect();
    turns.push(Turn::text("more work"));
    let server = ModelServer::with_usage(turns, usage);
    let run = claude::run(&bin, &r.path(), &r.home(), &server, "read a lot", LIMIT);
    // The client writes its transcript asynchronously, so which call first sees a turn on
    // record is its timing; the halt is the first call that does.
    let calls: Vec<_> = r
        .audit_lines()
        .into_iter()
        .filter(|l| l["event"] == "PreToolUse")
        .collect();
    let halted = calls
        .iter()
        .find(|l| l["rule"] == "budget.exhausted")
        .unwrap_or_else(|| panic!("no tool call was halted: {calls:#?}\n{}", run.explain()));
    let spent = halted["extra"]["session_tokens"].as_u64().unwrap();
    assert!(spent > 1000 && spent % 1500 == 0, "{halted}");
    assert_eq!(halted["extra"]["session_limit"], 1000, "{halted}");
    let reason = halted["reason"].as_str().unwrap();
    assert!(
        reason.contains(&format!("{},{:03} tokens", spent / 1000, spent % 1000)),
        "{reason}"
    );
    assert!(reason.contains("limit 1,000 tokens"), "{reason}");
    // `continue: false` ended the session at once: the halted call was the last request's,
    // and no stop was bounced for more work.
    assert_eq!(
        calls.last().unwrap()["rule"],
        "budget.exhausted",
        "{calls:#?}"
    );
    assert_eq!(
        server.requests().len(),
        calls.len(),
        "no request after the halt\n{}",
        run.explain()
    );
    assert!(server.main_left() >= 1, "{}", run.explain());
    let bounced = r
        .audit_lines()
        .iter()
        .filter(|l| l["decision"] == "block")
        .count();
    assert_eq!(
        bounced,
        0,
        "never bounced for more work: {:#?}",
        r.audit_lines()
    );
}
