//! The real Claude Code client, pinned by tests/install-agents.sh, run headless against the
//! scripted model server with a throwaway HOME so the user's own config is never touched.

use super::model::ModelServer;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub const PINNED_VERSION: &str = "2.1.330";

/// The client binary: `$LOOPGATE_CLAUDE_BIN`, else `target/agents/node_modules/.bin/claude`.
/// Missing: `None` only when `LOOPGATE_SKIP_REAL_AGENTS=1` outside CI; otherwise a panic
/// telling how to install it.
pub fn binary() -> Option<PathBuf> {
    super::clients::binary(
        "claude",
        "LOOPGATE_CLAUDE_BIN",
        &format!("@anthropic-ai/claude-code@{PINNED_VERSION}"),
    )
}

pub struct ClaudeRun {
    pub success: bool,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The `--output-format json` result object, when stdout held one.
    pub result: Option<Value>,
    pub server_log: String,
}

impl ClaudeRun {
    /// Everything a failing assertion should show.
    pub fn explain(&self) -> String {
        format!(
            "client exit {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}\n--- model server ---\n{}",
            self.code, self.stdout, self.stderr, self.server_log
        )
    }

    /// The final text of the run (`result` field).
    pub fn final_text(&self) -> String {
        self.result
            .as_ref()
            .and_then(|r| r.get("result"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }
}

/// Run `claude -p prompt` in `repo` with `home` as HOME; killed after `limit`.
pub fn run(
    claude: &Path,
    repo: &Path,
    home: &Path,
    server: &ModelServer,
    prompt: &str,
    limit: Duration,
) -> ClaudeRun {
    run_under(&[], claude, repo, home, server, prompt, limit)
}

/// The same, with the client started by `wrapper` (e.g. `loopgate run --confine --`).
pub fn run_under(
    wrapper: &[&str],
    claude: &Path,
    repo: &Path,
    home: &Path,
    server: &ModelServer,
    prompt: &str,
    limit: Duration,
) -> ClaudeRun {
    let mut cmd = match wrapper.split_first() {
        Some((program, args)) => {
            let mut c = Command::new(program);
            c.args(args).arg(claude);
            c
        }
        None => Command::new(claude),
    };
    cmd.current_dir(repo)
        .args([
            "-p",
            prompt,
            "--allowedTools",
            "Bash,Write,Edit,Read,Agent",
            "--output-format",
            "json",
        ])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("TMPDIR", std::env::temp_dir())
        .env("ANTHROPIC_BASE_URL", server.base_url())
        .env("ANTHROPIC_API_KEY", "sk-test")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY", "1");
    let finished = super::clients::finish(cmd, limit, || server.log());
    ClaudeRun {
        success: finished.success,
        code: finished.code,
        result: serde_json::from_str(finished.stdout.trim()).ok(),
        stdout: finished.stdout,
        stderr: finished.stderr,
        server_log: finished.server_log,
    }
}
