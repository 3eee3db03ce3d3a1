//! The scenarios every headless client run against a scripted model server (Codex, Gemini
//! CLI) must pass, written once. A client's test file names how its model calls the shell,
//! rewrites a file and is run ([`Client`]), calls each scenario from a `#[test]`, and adds
//! the assertions only its protocol makes true (what it returns, what its model is sent).

use super::clients::{self, ClientRun};
use super::model::{Turn, Usage};
use super::repo::TestRepo;
use super::script::Script;
use serde_json::Value;
use std::path::Path;

pub const PLAIN: &str = "version = 1\n[sandbox]\ntemp_writable = false\n";
pub const SUM_TEST: &str = "const test = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('../src/sum.js');\ntest('sum adds', () => { assert.strictEqual(sum(1, 2), 3); });\n";
pub const SUM_OK: &str = "module.exports = (a, b) => a + b;\n";
pub const SUM_BUG: &str = "module.exports = (a, b) => a - b;\n";
const CHECKED: &str = "version = 1\n[[check]]\nname = \"test\"\nrun = \"node --test\"\n";

pub trait Client {
    type Server;
    /// What `loopgate install` calls the agent.
    const AGENT: &'static str;
    /// The shell tool's name in the agent's tool calls (and so in policy patterns).
    const SHELL_TOOL: &'static str;
    /// The hook event of a tool call, as the audit records it.
    const TOOL_EVENT: &'static str;
    fn start(turns: Vec<Turn>, usage: Usage) -> Self::Server;
    fn script(server: &Self::Server) -> &Script;
    /// `None` only where the client may be skipped (never in CI: see `clients::binary`).
    fn run(r: &TestRepo, server: &Self::Server, prompt: &str) -> Option<ClientRun>;
    /// A model turn that runs `command` in the agent's shell.
    fn shell(command: &str) -> Turn;
    /// A model turn that turns the one-line file `path` from `old` into `new`.
    fn rewrite(path: &Path, old: &str, new: &str) -> Turn;
}

/// A repository with `config` as its loopgate.toml and the client's hooks installed.
pub fn repo<C: Client>(config: &str, files: &[(&str, &str)]) -> TestRepo {
    let mut all = vec![("loopgate.toml", config)];
    all.extend_from_slice(files);
    let r = TestRepo::with_files(&all);
    clients::install(&r, C::AGENT);
    r
}

/// Some text the model was sent contains every needle.
pub fn model_saw<C: Client>(server: &C::Server, needles: &[&str]) -> bool {
    C::script(server)
        .sent_strings()
        .iter()
        .any(|s| needles.iter().all(|n| s.contains(n)))
}

pub fn sent<C: Client>(server: &C::Server) -> Vec<String> {
    C::script(server).sent_strings()
}

pub fn audit(r: &TestRepo, rule: &str) -> Vec<Value> {
    r.audit_lines()
        .into_iter()
        .filter(|l| l["rule"] == rule)
        .collect()
}

/// What a scenario leaves for the assertions of one client's file.
pub struct Outcome<C: Client> {
    pub r: TestRepo,
    pub server: C::Server,
    pub run: ClientRun,
}

/// Each run of a scenario that runs the client more than once, with its server.
pub type Rounds<C> = Vec<(<C as Client>::Server, ClientRun)>;

fn stop_decisions(r: &TestRepo) -> Vec<String> {
    audit(r, "gate.stop")
        .iter()
        .filter_map(|l| l["decision"].as_str().map(str::to_owned))
        .collect()
}

/// `rm -rf` of a directory in the home, outside the write roots: refused once, the data
/// kept, and the model told why.
pub fn destructive_command_outside_the_roots<C: Client>() -> Option<Outcome<C>> {
    let r = repo::<C>(PLAIN, &[("README.md", "demo\n")]);
    let keep = r.home().join("keep");
    std::fs::create_dir_all(&keep).unwrap();
    std::fs::write(keep.join("data.txt"), "precious\n").unwrap();
    let server = C::start(
        vec![
            C::shell(&format!("rm -rf {}", keep.display())),
            Turn::text("Could not remove it."),
        ],
        Usage::default(),
    );
    let run = C::run(&r, &server, "clean up")?;
    assert!(run.success, "{}", run.explain());
    assert!(keep.join("data.txt").exists(), "the command never ran");
    assert!(
        model_saw::<C>(&server, &["loopgate refused this", "keep"]),
        "the model saw loopgate's reason: {:#?}\n{}",
        sent::<C>(&server),
        run.explain()
    );
    let denied = r
        .audit_lines()
        .into_iter()
        .filter(|l| l["event"] == C::TOOL_EVENT && l["decision"] == "deny")
        .count();
    assert_eq!(denied, 1, "{:#?}", r.audit_lines());
    Some(Outcome { r, server, run })
}

/// The agent stops with a failing check: bounced with the check's output, it fixes the
/// code, and its second stop passes.
pub fn failing_check_bounces_the_stop_until_fixed<C: Client>() -> Option<Outcome<C>> {
    let r = repo::<C>(
        CHECKED,
        &[("src/sum.js", SUM_BUG), ("test/sum.test.js", SUM_TEST)],
    );
    let server = C::start(
        vec![
            Turn::text("All done."),
            C::rewrite(&r.file("src/sum.js"), SUM_BUG, SUM_OK),
            Turn::text("Fixed the sign."),
        ],
        Usage::default(),
    );
    let run = C::run(&r, &server, "make the tests pass")?;
    assert!(run.success, "{}", run.explain());
    assert_eq!(
        r.read("src/sum.js").as_deref(),
        Some(SUM_OK),
        "{}",
        run.explain()
    );
    assert!(
        model_saw::<C>(
            &server,
            &["attempt 1/3", "`test` (node --test) failed", "sum adds"]
        ),
        "the check's output reached the model: {:#?}\n{}",
        sent::<C>(&server),
        run.explain()
    );
    assert_eq!(stop_decisions(&r), ["block", "allow"], "{}", run.explain());
    assert_eq!(r.latest_receipt().unwrap()["verdict"], "pass");
    assert_eq!(C::script(&server).turns_left(), 0, "{}", run.explain());
    Some(Outcome { r, server, run })
}

/// One bounce allowed: the second stop on a failing check goes through, recorded red.
pub fn spent_bounce_budget_lets_the_stop_through_red<C: Client>() -> Option<Outcome<C>> {
    let r = repo::<C>(
        &CHECKED.replace("version = 1\n", "version = 1\n[gate]\nmax_bounces = 1\n"),
        &[("src/sum.js", SUM_BUG), ("test/sum.test.js", SUM_TEST)],
    );
    let server = C::start(
        vec![Turn::text("Done."), Turn::text("Still done.")],
        Usage::default(),
    );
    let run = C::run(&r, &server, "finish")?;
    assert!(run.success, "{}", run.explain());
    assert_eq!(
        stop_decisions(&r),
        ["block", "allow-red"],
        "{:#?}\n{}",
        audit(&r, "gate.stop"),
        run.explain()
    );
    assert!(model_saw::<C>(&server, &["attempt 1/1", "sum adds"]));
    let receipt = r.latest_receipt().unwrap();
    assert_eq!(receipt["verdict"], "fail", "{receipt:#}");
    Some(Outcome { r, server, run })
}

/// A command the config asks a human about, with no human: a deny the model hears about,
/// never a hang.
pub fn an_ask_is_answered_as_a_deny<C: Client>() -> Option<Outcome<C>> {
    let r = repo::<C>(
        &format!(
            "version = 1\n[policy]\nask = [\"{}(echo asked:*)\"]\n",
            C::SHELL_TOOL
        ),
        &[("README.md", "demo\n")],
    );
    let server = C::start(
        vec![
            C::shell("echo asked > asked.txt"),
            Turn::text("Waiting for a human."),
        ],
        Usage::default(),
    );
    let run = C::run(&r, &server, "ask first")?;
    assert!(run.success, "{}", run.explain());
    assert!(r.read("asked.txt").is_none(), "the call did not run");
    assert!(
        model_saw::<C>(&server, &["a human must approve this first", "user.ask"]),
        "{:#?}\n{}",
        sent::<C>(&server),
        run.explain()
    );
    Some(Outcome { r, server, run })
}

/// 120 tokens a response, a 250-token budget: the first two responses are within it (120,
/// 240), the third is over (360). Exactly two commands run, on every one of five runs,
/// each run's halt on record, and no stop is bounced. Returns each run with its server, for the assertions only one
/// client's protocol makes true.
pub fn token_budget_halts_at_the_response_over_it<C: Client>() -> Option<(TestRepo, Rounds<C>)> {
    let r = repo::<C>(
        "version = 1\n[budget]\nsession_tokens = 250\n",
        &[("README.md", "demo\n")],
    );
    let usage = Usage {
        input_tokens: 100,
        output_tokens: 20,
    };
    let mut runs = Vec::new();
    for round in 0..5 {
        let _ = std::fs::remove_file(r.file("ran.txt"));
        let turns: Vec<Turn> = (0..5)
            .map(|i| C::shell(&format!("echo {i} >> ran.txt")))
            .chain([Turn::text("Stopping.")])
            .collect();
        let server = C::start(turns, usage);
        let halted_before = audit(&r, "budget.exhausted").len();
        let run = C::run(&r, &server, "run the commands")?;
        let ran = r.read("ran.txt").unwrap_or_default();
        assert_eq!(
            ran.lines().count(),
            2,
            "round {round}: exactly the calls within the budget ran: {ran:?}\n{}",
            run.explain()
        );
        let halted = audit(&r, "budget.exhausted").split_off(halted_before);
        assert!(
            halted
                .iter()
                .any(|l| l["extra"]["session_tokens"] == 360 && l["extra"]["session_limit"] == 250),
            "round {round}: {halted:#?}\n{}",
            run.explain()
        );
        runs.push((server, run));
    }
    let bounced = r
        .audit_lines()
        .iter()
        .filter(|l| l["decision"] == "block")
        .count();
    assert_eq!(bounced, 0, "a spent budget never bounces a stop");
    Some((r, runs))
}
