//! loopgate in the real Gemini CLI (issue 10): `gemini -p` 0.61.0, headless, against a
//! scripted Gemini API server, with the hooks `loopgate install gemini` writes. One client
//! run per scenario.

mod support;

use serde_json::{json, Value};
use std::time::Duration;
use support::clients::{self, ClientRun};
use support::gemini_api::GeminiServer;
use support::model::{Turn, Usage};
use support::repo::TestRepo;

const LIMIT: Duration = Duration::from_secs(180);
const PLAIN: &str = "version = 1\n[sandbox]\ntemp_writable = false\n";

const SUM_TEST: &str = "const test = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('../src/sum.js');\ntest('sum adds', () => { assert.strictEqual(sum(1, 2), 3); });\n";
const SUM_OK: &str = "module.exports = (a, b) => a + b;\n";
const SUM_BUG: &str = "module.exports = (a, b) => a - b;\n";

fn repo(config: &str, files: &[(&str, &str)]) -> TestRepo {
    let mut all = vec![("loopgate.toml", config)];
    all.extend_from_slice(files);
    let r = TestRepo::with_files(&all);
    clients::install(&r, "gemini");
    r
}

fn run(r: &TestRepo, server: &GeminiServer, prompt: &str) -> Option<ClientRun> {
    let bin = clients::gemini()?;
    Some(clients::run_gemini(&bin, r, server, prompt, LIMIT))
}

fn shell(command: &str) -> Turn {
    Turn::tool("run_shell_command", json!({ "command": command }))
}

fn model_saw(server: &GeminiServer, needles: &[&str]) -> bool {
    server
        .script
        .sent_strings()
        .iter()
        .any(|s| needles.iter().all(|n| s.contains(n)))
}

fn audit(r: &TestRepo, rule: &str) -> Vec<Value> {
    r.audit_lines()
        .into_iter()
        .filter(|l| l["rule"] == rule)
        .collect()
}

#[test]
fn a_destructive_command_outside_the_roots_is_refused_and_the_model_is_told() {
    let r = repo(PLAIN, &[("README.md", "demo\n")]);
    let keep = r.home().join("keep");
    std::fs::create_dir_all(&keep).unwrap();
    std::fs::write(keep.join("data.txt"), "precious\n").unwrap();
    let server = GeminiServer::start(
        vec![
            shell(&format!("rm -rf {}", keep.display())),
            Turn::text("Could not remove it."),
        ],
        Usage::default(),
    );
    let Some(run) = run(&r, &server, "clean up") else {
        return;
    };
    assert!(run.success, "{}", run.explain());
    assert!(keep.join("data.txt").exists(), "the command never ran");
    assert!(
        model_saw(&server, &["loopgate refused this", "keep"]),
        "{:#?}\n{}",
        server.script.sent_strings(),
        run.explain()
    );
}

#[test]
fn a_write_file_outside_the_roots_is_refused() {
    // Gemini's own workspace check already refuses paths outside the workspace and its
    // project temp dir; the temp dir is outside loopgate's write roots here.
    let r = repo(PLAIN, &[("README.md", "demo\n")]);
    let outside = clients::gemini_project_temp(&r).join("escaped.txt");
    let server = GeminiServer::start(
        vec![
            Turn::tool(
                "write_file",
                json!({"file_path": outside, "content": "out of bounds\n"}),
            ),
            Turn::text("I could not write it."),
        ],
        Usage::default(),
    );
    let Some(run) = run(&r, &server, "write a file") else {
        return;
    };
    assert!(run.success, "{}", run.explain());
    assert!(
        !outside.exists(),
        "the write never happened\n{}",
        run.explain()
    );
    assert!(
        model_saw(
            &server,
            &["loopgate refused this (fs.escape)", "escaped.txt"]
        ),
        "{:#?}\n{}",
        server.script.sent_strings(),
        run.explain()
    );
    assert_eq!(audit(&r, "fs.escape").len(), 1, "{:#?}", r.audit_lines());
}

#[test]
fn a_failing_check_bounces_the_stop_with_its_output_until_fixed() {
    let r = repo(
        "version = 1\n[[check]]\nname = \"test\"\nrun = \"node --test\"\n",
        &[("src/sum.js", SUM_BUG), ("test/sum.test.js", SUM_TEST)],
    );
    let server = GeminiServer::start(
        vec![
            Turn::text("All done."),
            Turn::tool(
                "write_file",
                json!({"file_path": r.file("src/sum.js"), "content": SUM_OK}),
            ),
            Turn::text("Fixed the sign."),
        ],
        Usage::default(),
    );
    let Some(run) = run(&r, &server, "make the tests pass") else {
        return;
    };
    assert!(run.success, "{}", run.explain());
    assert_eq!(
        r.read("src/sum.js").as_deref(),
        Some(SUM_OK),
        "{}",
        run.explain()
    );
    assert!(
        model_saw(
            &server,
            &["attempt 1/3", "`test` (node --test) failed", "sum adds"]
        ),
        "{:#?}\n{}",
        server.script.sent_strings(),
        run.explain()
    );
    let stops = audit(&r, "gate.stop");
    let decisions: Vec<&str> = stops
        .iter()
        .filter_map(|l| l["decision"].as_str())
        .collect();
    assert_eq!(decisions, ["block", "allow"], "{stops:#?}");
    assert_eq!(r.latest_receipt().unwrap()["verdict"], "pass");
}

#[test]
fn a_spent_bounce_budget_lets_the_stop_through_red() {
    let r = repo(
        "version = 1\n[gate]\nmax_bounces = 1\n[[check]]\nname = \"test\"\nrun = \"node --test\"\n",
        &[("src/sum.js", SUM_BUG), ("test/sum.test.js", SUM_TEST)],
    );
    let server = GeminiServer::start(
        vec![Turn::text("Done."), Turn::text("Still done.")],
        Usage::default(),
    );
    let Some(run) = run(&r, &server, "finish") else {
        return;
    };
    assert!(run.success, "{}", run.explain());
    let stops = audit(&r, "gate.stop");
    let decisions: Vec<&str> = stops
        .iter()
        .filter_map(|l| l["decision"].as_str())
        .collect();
    assert_eq!(
        decisions,
        ["block", "allow-red"],
        "{stops:#?}\n{}",
        run.explain()
    );
    assert!(model_saw(&server, &["attempt 1/1", "sum adds"]));
    assert_eq!(r.latest_receipt().unwrap()["verdict"], "fail");
}

#[test]
fn a_working_directory_outside_the_repository_cannot_act_outside_the_roots() {
    // Gemini lets `dir_path` point into its project temp dir, outside the repository; the
    // root and write roots must come from the session, not from that directory.
    let r = repo(PLAIN, &[("README.md", "demo\n")]);
    let temp = clients::gemini_project_temp(&r);
    let keep = temp.join("keep");
    std::fs::create_dir_all(&keep).unwrap();
    std::fs::write(keep.join("data.txt"), "precious\n").unwrap();
    let server = GeminiServer::start(
        vec![
            Turn::tool(
                "run_shell_command",
                json!({"command": "rm -r keep", "dir_path": temp}),
            ),
            Turn::text("Done."),
        ],
        Usage::default(),
    );
    let Some(run) = run(&r, &server, "tidy up") else {
        return;
    };
    assert!(run.success, "{}", run.explain());
    assert!(
        keep.join("data.txt").exists(),
        "rm -r keep ran outside the roots\n{:#?}\n{}",
        r.audit_lines(),
        run.explain()
    );
}

#[test]
fn an_ask_is_answered_as_a_deny_and_never_hangs() {
    let r = repo(
        "version = 1\n[policy]\nask = [\"run_shell_command(echo asked:*)\"]\n",
        &[("README.md", "demo\n")],
    );
    let server = GeminiServer::start(
        vec![
            shell("echo asked > asked.txt"),
            Turn::text("Waiting for a human."),
        ],
        Usage::default(),
    );
    let Some(run) = run(&r, &server, "ask first") else {
        return;
    };
    assert!(run.success, "{}", run.explain());
    assert!(r.read("asked.txt").is_none(), "the call did not run");
    assert!(
        model_saw(&server, &["a human must approve this first", "user.ask"]),
        "{:#?}\n{}",
        server.script.sent_strings(),
        run.explain()
    );
}

/// 120 tokens a response, a 250-token budget: the first two responses are within it (120,
/// 240), the third is over (360). Exactly two commands run, on every run.
#[test]
fn the_token_budget_halts_exactly_at_the_response_over_it() {
    let r = repo(
        "version = 1\n[budget]\nsession_tokens = 250\n",
        &[("README.md", "demo\n")],
    );
    let usage = Usage {
        input_tokens: 100,
        output_tokens: 20,
    };
    for round in 0..5 {
        let _ = std::fs::remove_file(r.file("ran.txt"));
        let turns: Vec<Turn> = (0..5)
            .map(|i| shell(&format!("echo {i} >> ran.txt")))
            .chain([Turn::text("Stopping.")])
            .collect();
        let server = GeminiServer::start(turns, usage);
        let Some(run) = run(&r, &server, "run the commands") else {
            return;
        };
        let ran = r.read("ran.txt").unwrap_or_default();
        assert_eq!(
            ran.lines().count(),
            2,
            "round {round}: exactly the calls within the budget ran: {ran:?}\n{}",
            run.explain()
        );
        let halted = audit(&r, "budget.exhausted");
        assert!(
            halted
                .iter()
                .any(|l| l["extra"]["session_tokens"] == 360 && l["extra"]["session_limit"] == 250),
            "round {round}: {halted:#?}\n{}",
            run.explain()
        );
    }
    let bounced = r
        .audit_lines()
        .iter()
        .filter(|l| l["decision"] == "block")
        .count();
    assert_eq!(bounced, 0, "a spent budget never bounces a stop");
}
