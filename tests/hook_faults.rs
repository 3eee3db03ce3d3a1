//! Attacks on the hook process itself (DESIGN section 0, rule 3: fail closed inside our own
//! deadline). An agent reads a hook that hangs past its timeout, crashes, or exits with
//! anything but 2 and no JSON as "proceed", so each attack below must end in exit 2 with the
//! reason on stderr, or in a refusing answer of the agent's protocol, before the deadline;
//! never exit 0 with nothing or "allow", never 101 (panic) or 134 (abort), never a hang.
//!
//! Most tests shorten the hook's deadline with `LOOPGATE_HOOK_DEADLINE_MS` so a fault that
//! holds the hook costs seconds, not 10 s. Every run has a hang guard that kills the hook
//! and fails the test (the guard only catches hangs; nothing here asserts speed).

mod support;

use serde_json::{json, Value};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::hook::{claude_payload, run_guarded, HookRun, Stdin};
use support::repo::{TestRepo, LOOPGATE};

/// Far past every deadline below: reaching it means the hook hung.
const HANG: Duration = Duration::from_secs(40);
/// The shortened deadline of the lock and FIFO attacks on tool calls (room to spare on a
/// loaded machine: the answer, not the watchdog, must come first).
const SHORT: (&str, &str) = ("LOOPGATE_HOOK_DEADLINE_MS", "5000");

/// The same for stops, which also run a failing `node --test`.
const STOP_DEADLINE: (&str, &str) = ("LOOPGATE_HOOK_DEADLINE_MS", "15000");

fn repo() -> TestRepo {
    TestRepo::with_files(&[("src/lib.rs", "pub fn one() -> u32 { 1 }\n")])
}

fn hook(agent: &str, r: &TestRepo, payload: &[u8], env: &[(&str, &str)]) -> HookRun {
    run_guarded(
        agent,
        &r.path(),
        &r.home(),
        Stdin::Payload(payload),
        env,
        HANG,
    )
}

fn bash(r: &TestRepo, command: &str) -> Vec<u8> {
    claude_payload(
        "PreToolUse",
        &r.path(),
        "s1",
        json!({"tool_name": "Bash", "tool_input": {"command": command}}),
    )
}

fn read_tool(r: &TestRepo) -> Vec<u8> {
    claude_payload(
        "PreToolUse",
        &r.path(),
        "s1",
        json!({"tool_name": "Read", "tool_input": {"file_path": r.file("src/lib.rs")}}),
    )
}

/// Claude's PreToolUse answer: (decision, reason), with the whole run on failure.
fn claude_permission(out: &HookRun) -> (String, String) {
    assert_eq!(out.code, 0, "{}", out.explain());
    let v = out.json();
    let o = &v["hookSpecificOutput"];
    (
        o["permissionDecision"].as_str().unwrap_or("").to_string(),
        o["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_string(),
    )
}

#[track_caller]
fn assert_exit_2(out: &HookRun, stderr_has: &[&str]) {
    assert_eq!(out.code, 2, "{}", out.explain());
    assert!(out.stdout.trim().is_empty(), "{}", out.explain());
    for s in stderr_has {
        assert!(
            out.stderr.contains(s),
            "stderr lacks `{s}`:\n{}",
            out.explain()
        );
    }
}

/// Another process holding `path` with flock(1) until dropped.
struct Holder(Child);

impl Holder {
    fn lock(path: &Path) -> Holder {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let child = std::process::Command::new("flock")
            .arg(path)
            .args(["sleep", "120"])
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("flock(1) runs");
        // Held once a non-blocking attempt fails.
        let until = Instant::now() + Duration::from_secs(20);
        while Command::new("flock")
            .args(["-n"])
            .arg(path)
            .arg("true")
            .status()
            .unwrap()
            .success()
        {
            assert!(
                Instant::now() < until,
                "flock never took {}",
                path.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Holder(child)
    }
}

impl Drop for Holder {
    fn drop(&mut self) {
        // The whole group: flock's `sleep` child holds the locked file too.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.wait();
    }
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(path);
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

const FAILING_TEST_REPO: &[(&str, &str)] = &[
    (
        "loopgate.toml",
        "version = 1\n[[check]]\nname = \"test\"\nrun = \"node --test\"\n",
    ),
    ("src/sum.js", "module.exports = (a, b) => a - b;\n"),
    (
        "test/sum.test.js",
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('../src/sum.js');\ntest('sum adds', () => { assert.strictEqual(sum(1, 2), 3); });\n",
    ),
];

/// A red stop: the stop hook must refuse it (block JSON, or exit 2).
fn red_stop_is_refused(r: &TestRepo, env: &[(&str, &str)]) -> HookRun {
    let payload = claude_payload("Stop", &r.path(), "s1", json!({"stop_hook_active": false}));
    let out = hook("claude", r, &payload, env);
    assert_ne!(out.code, -1, "hung: {}", out.explain());
    if out.code == 2 {
        return out;
    }
    assert_eq!(out.code, 0, "{}", out.explain());
    assert_eq!(out.json()["decision"], "block", "{}", out.explain());
    out
}

fn budget_repo() -> TestRepo {
    let r = repo();
    r.write(
        "loopgate.toml",
        "version = 1\n[budget]\nsession_tokens = 1000\n",
    );
    r.write("transcript.jsonl", "");
    r
}

fn budget_payload(r: &TestRepo) -> Vec<u8> {
    json!({
        "session_id": "s1", "cwd": r.path(), "hook_event_name": "PreToolUse",
        "transcript_path": r.file("transcript.jsonl"),
        "tool_name": "Read", "tool_input": {"file_path": r.file("src/lib.rs")}
    })
    .to_string()
    .into_bytes()
}

fn state(r: &TestRepo, rel: &str) -> PathBuf {
    r.path().join(".loopgate").join(rel)
}

/// Attack: another process holds `.loopgate/audit.lock` forever
/// (`flock .loopgate/audit.lock sleep 1e9`). The audit append gives up, says so on stderr
/// naming the lock and its holder, and the decision stands (DESIGN section 4).
#[test]
fn held_audit_lock() {
    let r = repo();
    let _holder = Holder::lock(&state(&r, "audit.lock"));
    let out = hook("claude", &r, &bash(&r, "rm -rf /"), &[SHORT]);
    let (decision, reason) = claude_permission(&out);
    assert_eq!(decision, "deny", "{}", out.explain());
    assert!(reason.contains("fs.destructive"), "{reason}");
    assert!(
        out.stderr.contains("cannot write the audit log")
            && out.stderr.contains("audit.lock")
            && out.stderr.contains("held by pid"),
        "{}",
        out.explain()
    );
}

/// Attack: `.loopgate/ledger.lock` held forever while the agent stops with a failing check.
/// Without the ledger the bounce cannot be counted: the first stop is refused.
#[test]
fn held_ledger_lock() {
    let r = TestRepo::with_files(FAILING_TEST_REPO);
    let _holder = Holder::lock(&state(&r, "ledger.lock"));
    let out = red_stop_is_refused(&r, &[STOP_DEADLINE]);
    assert!(
        out.stderr.contains("the bounce ledger is unavailable")
            && out.stderr.contains("ledger.lock")
            && out.stderr.contains("held by pid"),
        "{}",
        out.explain()
    );
}

/// Attack: the budget cache's lock (`.loopgate/budget/<session>.lock`) held forever while
/// a token budget is set. The budget cannot be measured, so the tool call is denied.
#[test]
fn held_budget_lock() {
    let r = budget_repo();
    let _holder = Holder::lock(&state(&r, "budget/s1.lock"));
    let out = hook("claude", &r, &budget_payload(&r), &[SHORT]);
    let (decision, reason) = claude_permission(&out);
    assert_eq!(decision, "deny", "{}", out.explain());
    assert!(
        reason.contains("budget.unmeasurable")
            && reason.contains("s1.lock")
            && reason.contains("held by pid"),
        "{reason}"
    );
}

/// Attack: a FIFO in place of `.loopgate/ledger.json` (a read would wait for a writer
/// forever). The stop is refused, and stderr names the FIFO.
#[test]
fn fifo_as_ledger() {
    let r = TestRepo::with_files(FAILING_TEST_REPO);
    mkfifo(&state(&r, "ledger.json"));
    let out = red_stop_is_refused(&r, &[STOP_DEADLINE]);
    assert!(
        out.stderr.contains("the bounce ledger is unavailable")
            && out.stderr.contains("ledger.json")
            && out.stderr.contains("FIFO"),
        "{}",
        out.explain()
    );
}

/// Attack: a FIFO in place of the budget cache `.loopgate/budget/<session>.json`. The
/// budget cannot be trusted, so the tool call is denied naming the FIFO.
#[test]
fn fifo_as_budget_cache() {
    let r = budget_repo();
    mkfifo(&state(&r, "budget/s1.json"));
    let out = hook("claude", &r, &budget_payload(&r), &[SHORT]);
    let (decision, reason) = claude_permission(&out);
    assert_eq!(decision, "deny", "{}", out.explain());
    assert!(
        reason.contains("budget.unmeasurable") && reason.contains("FIFO"),
        "{reason}"
    );
}

/// Attack: the transcript path the agent sends names a FIFO (opening it for reading would
/// wait for a writer forever). The budget cannot be measured: deny, naming it.
#[test]
fn fifo_as_transcript() {
    let r = budget_repo();
    std::fs::remove_file(r.file("transcript.jsonl")).unwrap();
    mkfifo(&r.file("transcript.jsonl"));
    let out = hook("claude", &r, &budget_payload(&r), &[SHORT]);
    let (decision, reason) = claude_permission(&out);
    assert_eq!(decision, "deny", "{}", out.explain());
    assert!(
        reason.contains("budget.unmeasurable") && reason.contains("FIFO"),
        "{reason}"
    );
}

/// Attack: a FIFO in place of the audit log `.loopgate/audit.ndjson`. The append fails
/// at once, stderr says so, and the decision stands.
#[test]
fn fifo_as_audit_log() {
    let r = repo();
    mkfifo(&state(&r, "audit.ndjson"));
    let out = hook("claude", &r, &bash(&r, "rm -rf /"), &[SHORT]);
    let (decision, _) = claude_permission(&out);
    assert_eq!(decision, "deny", "{}", out.explain());
    assert!(
        out.stderr.contains("cannot write the audit log") && out.stderr.contains("FIFO"),
        "{}",
        out.explain()
    );
}

/// Attack: a FIFO as `loopgate.toml`. The tool call is denied (`config.invalid`) naming
/// it, and `loopgate check` exits 2 with the same reason.
#[test]
fn fifo_as_config() {
    let r = repo();
    mkfifo(&r.file("loopgate.toml"));
    let out = hook("claude", &r, &read_tool(&r), &[SHORT]);
    let (decision, reason) = claude_permission(&out);
    assert_eq!(decision, "deny", "{}", out.explain());
    assert!(
        reason.contains("configuration does not load")
            && reason.contains("loopgate.toml")
            && reason.contains("FIFO"),
        "{reason}"
    );
    // `check` judges by the committed config (there is none here), so it never opens the
    // working tree's FIFO: it answers, and says which config it used.
    let check = guarded(Command::new(LOOPGATE).arg("check").current_dir(r.path()));
    assert_eq!(check.code, 0, "{}", check.explain());
    assert!(
        check.stdout.contains("config: embedded"),
        "{}",
        check.explain()
    );
    // With the FIFO committed... git cannot commit a FIFO, so the bootstrap path is the one
    // that reads it: a dirty tree (HEAD has no config, the working tree adds one).
    r.write("dirty.txt", "x");
    let check = guarded(Command::new(LOOPGATE).arg("check").current_dir(r.path()));
    assert_eq!(check.code, 2, "{}", check.explain());
    assert!(
        check.stderr.contains("loopgate.toml") && check.stderr.contains("FIFO"),
        "{}",
        check.explain()
    );
}

/// Attack: `loopgate.toml` is a symlink to `/dev/zero` (a read never ends and eats memory).
#[test]
fn dev_zero_as_config() {
    let r = repo();
    std::os::unix::fs::symlink("/dev/zero", r.file("loopgate.toml")).unwrap();
    let out = hook("claude", &r, &read_tool(&r), &[SHORT]);
    let (decision, reason) = claude_permission(&out);
    assert_eq!(decision, "deny", "{}", out.explain());
    assert!(
        reason.contains("configuration does not load") && reason.contains("character device"),
        "{reason}"
    );
}

/// Attack: a 4 GiB `loopgate.toml` (sparse: it costs no disk, but reading it would take
/// the hook's memory and time). Refused unread by its size.
#[test]
fn huge_config() {
    let r = repo();
    let file = std::fs::File::create(r.file("loopgate.toml")).unwrap();
    file.set_len(4 * 1024 * 1024 * 1024).unwrap();
    drop(file);
    let out = hook("claude", &r, &read_tool(&r), &[SHORT]);
    let (decision, reason) = claude_permission(&out);
    assert_eq!(decision, "deny", "{}", out.explain());
    assert!(
        reason.contains("configuration does not load")
            && reason.contains("4294967296 bytes, more than the 1048576"),
        "{reason}"
    );
}

/// Attack: a command of 2,500 nested `env` wrappers (`env env env ... rm x`). Each level
/// was a stack frame of the analyser: the hook died of a stack overflow (exit 134). Now
/// the depth is bounded and the answer is `parse.bounds` (ask in `standard`).
#[test]
fn nested_env_wrappers() {
    let r = repo();
    let out = hook(
        "claude",
        &r,
        &bash(&r, &format!("{}rm x", "env ".repeat(2500))),
        &[],
    );
    let (decision, reason) = claude_permission(&out);
    assert_eq!(decision, "ask", "{}", out.explain());
    assert!(reason.contains("parse.bounds"), "{reason}");
}

/// The same attack in Gemini CLI's payload shape (`BeforeTool`, `run_shell_command`).
#[test]
fn nested_env_wrappers_gemini() {
    let r = repo();
    let payload = json!({
        "session_id": "g1", "cwd": r.path(), "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": format!("{}rm x", "env ".repeat(2500))}
    });
    let out = hook("gemini", &r, payload.to_string().as_bytes(), &[]);
    assert_eq!(out.code, 0, "{}", out.explain());
    let v = out.json();
    // Headless Gemini hangs on an ask, so loopgate answers it as a deny (docs/agents.md).
    assert_eq!(v["decision"], "deny", "{}", out.explain());
    assert!(
        v["reason"].as_str().unwrap_or("").contains("parse.bounds"),
        "{v}"
    );
}

/// Attack: a panic on the main thread (forced with `LOOPGATE_TEST_PANIC=1`). Rust's exit
/// 101 reads as "proceed"; the hook exits 2 naming the internal error instead.
#[test]
fn forced_panic_on_the_main_thread() {
    let r = repo();
    let out = hook(
        "claude",
        &r,
        &read_tool(&r),
        &[("LOOPGATE_TEST_PANIC", "1")],
    );
    assert_exit_2(&out, &["loopgate: hook claude: internal error", "refusing"]);
}

/// Attack: a panic on another thread, which nobody would have reported.
#[test]
fn forced_panic_on_another_thread() {
    let r = repo();
    let out = hook(
        "claude",
        &r,
        &read_tool(&r),
        &[("LOOPGATE_TEST_PANIC", "thread")],
    );
    assert_exit_2(&out, &["internal error", "loopgate-test-fault"]);
}

/// Attack: an abort (SIGABRT, exit 134), and a real stack overflow, which Rust's handler
/// turns into an abort. The SIGABRT handler exits 2 instead.
#[test]
fn forced_abort_and_stack_overflow() {
    let r = repo();
    for fault in ["abort", "overflow"] {
        let out = hook(
            "claude",
            &r,
            &read_tool(&r),
            &[("LOOPGATE_TEST_PANIC", fault)],
        );
        assert_exit_2(&out, &["the process aborted (SIGABRT"]);
    }
}

/// The forced panic in Gemini CLI's payload shape: the same exit 2.
#[test]
fn forced_panic_gemini() {
    let r = repo();
    let payload = json!({
        "session_id": "g1", "cwd": r.path(), "hook_event_name": "BeforeTool",
        "tool_name": "read_file", "tool_input": {"absolute_path": r.file("src/lib.rs")}
    });
    let out = hook(
        "gemini",
        &r,
        payload.to_string().as_bytes(),
        &[("LOOPGATE_TEST_PANIC", "1")],
    );
    assert_exit_2(&out, &["loopgate: hook gemini: internal error"]);
}

/// Attack: stdin held open with no data (the agent, or something in between, never
/// closes the pipe). The watchdog ends the hook with exit 2 at the deadline.
#[test]
fn stdin_held_open() {
    let r = repo();
    let out = run_guarded(
        "claude",
        &r.path(),
        &r.home(),
        Stdin::HeldOpen,
        &[("LOOPGATE_HOOK_DEADLINE_MS", "1500")],
        HANG,
    );
    assert_exit_2(
        &out,
        &["loopgate: hook claude: no decision within 1500ms (reading stdin): refusing"],
    );
}

/// Attack: the agent sets `LOOPGATE_HOOK_DEADLINE_MS` huge to buy a hook that hangs past
/// loopgate's deadline (into its own timeout, which fails open). The variable can only
/// shorten: the 10 s tool-call deadline still fires.
#[test]
fn a_longer_deadline_from_the_environment_is_ignored() {
    let r = repo();
    let out = run_guarded(
        "claude",
        &r.path(),
        &r.home(),
        Stdin::HeldOpen,
        &[("LOOPGATE_HOOK_DEADLINE_MS", "3600000")],
        HANG,
    );
    assert_exit_2(&out, &["no decision within 10s (reading stdin): refusing"]);
}

/// Attack: a 6 MB Codex `apply_patch` naming ~190,000 files, the last one outside the
/// write roots. Path de-duplication was quadratic (past a minute); the answer must be the
/// right one (deny, `fs.escape`), reached inside the default 10 s deadline.
#[test]
fn six_megabyte_apply_patch_codex() {
    let r = repo();
    let mut patch = String::from("*** Begin Patch\n");
    let mut n = 0;
    while patch.len() < 6 * 1024 * 1024 {
        patch.push_str(&format!("*** Add File: src/gen/f{n:06}.txt\n+x\n"));
        n += 1;
    }
    patch.push_str("*** Add File: /etc/loopgate-escape.txt\n+x\n*** End Patch\n");
    let payload = json!({
        "session_id": "c1", "cwd": r.path(), "hook_event_name": "PreToolUse",
        "model": "gpt-5-codex", "permission_mode": "default", "turn_id": "t1",
        "tool_name": "apply_patch", "tool_input": {"command": patch},
        "tool_use_id": "call_patch_1"
    });
    let out = hook("codex", &r, payload.to_string().as_bytes(), &[]);
    assert_eq!(out.code, 0, "{}", out.explain());
    let v: Value = out.json();
    let o = &v["hookSpecificOutput"];
    assert_eq!(o["permissionDecision"], "deny", "{}", out.explain());
    let reason = o["permissionDecisionReason"].as_str().unwrap_or("");
    assert!(
        reason.contains("fs.escape") && reason.contains("/etc/loopgate-escape.txt"),
        "{reason}"
    );
}

/// A command other than `hook`, with the same hang guard.
fn guarded(cmd: &mut Command) -> HookRun {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("loopgate starts");
    let code = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code().unwrap_or(-1);
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            break -1;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = child.wait_with_output().unwrap();
    HookRun {
        code,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}
