//! loopgate in the real Gemini CLI (issue 10): `gemini -p` 0.61.0, headless, against a
//! scripted Gemini API server, with the hooks `loopgate install gemini` writes. One client
//! run per scenario; the scenarios every scripted client shares are in
//! `support/scripted.rs`.

mod support;

use serde_json::json;
use std::path::Path;
use std::time::Duration;
use support::clients::{self, ClientRun};
use support::gemini_api::GeminiServer;
use support::model::{Turn, Usage};
use support::repo::TestRepo;
use support::script::Script;
use support::scripted::{self, audit, Client, PLAIN};

const LIMIT: Duration = Duration::from_secs(180);

struct Gemini;

impl Client for Gemini {
    type Server = GeminiServer;
    const AGENT: &'static str = "gemini";
    const SHELL_TOOL: &'static str = "run_shell_command";
    const TOOL_EVENT: &'static str = "BeforeTool";
    fn start(turns: Vec<Turn>, usage: Usage) -> GeminiServer {
        GeminiServer::start(turns, usage)
    }
    fn script(server: &GeminiServer) -> &Script {
        &server.script
    }
    fn run(r: &TestRepo, server: &GeminiServer, prompt: &str) -> Option<ClientRun> {
        let bin = clients::gemini()?;
        Some(clients::run_gemini(&bin, r, server, prompt, LIMIT))
    }
    fn shell(command: &str) -> Turn {
        Turn::tool("run_shell_command", json!({ "command": command }))
    }
    /// Gemini's `write_file` takes the whole new content.
    fn rewrite(path: &Path, _old: &str, new: &str) -> Turn {
        Turn::tool("write_file", json!({"file_path": path, "content": new}))
    }
}

fn repo(config: &str, files: &[(&str, &str)]) -> TestRepo {
    scripted::repo::<Gemini>(config, files)
}

fn run(r: &TestRepo, server: &GeminiServer, prompt: &str) -> Option<ClientRun> {
    Gemini::run(r, server, prompt)
}

fn model_saw(server: &GeminiServer, needles: &[&str]) -> bool {
    scripted::model_saw::<Gemini>(server, needles)
}

#[test]
fn a_destructive_command_outside_the_roots_is_refused_and_the_model_is_told() {
    scripted::destructive_command_outside_the_roots::<Gemini>();
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
    scripted::failing_check_bounces_the_stop_until_fixed::<Gemini>();
}

#[test]
fn a_spent_bounce_budget_lets_the_stop_through_red() {
    scripted::spent_bounce_budget_lets_the_stop_through_red::<Gemini>();
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
    scripted::an_ask_is_answered_as_a_deny::<Gemini>();
}

/// 120 tokens a response, a 250-token budget: exactly two commands run on every run.
#[test]
fn the_token_budget_halts_exactly_at_the_response_over_it() {
    scripted::token_budget_halts_at_the_response_over_it::<Gemini>();
}
