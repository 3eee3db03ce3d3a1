//! The real Codex and Gemini CLI clients, pinned by tests/install-agents.sh, run headless
//! against the scripted servers (`responses.rs`, `gemini_api.rs`) with the throwaway HOME
//! of a [`TestRepo`], so the user's own config is never touched.

use super::gemini_api::GeminiServer;
use super::repo::TestRepo;
use super::responses::ResponsesServer;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const CODEX_VERSION: &str = "0.169.0";
pub const GEMINI_VERSION: &str = "0.61.0";

/// A pinned client's binary: `$<env_var>`, else `target/agents/node_modules/.bin/<name>`.
/// Missing: `None` only when `LOOPGATE_SKIP_REAL_AGENTS=1` outside CI; otherwise a panic
/// telling how to install it (in CI a missing client is a failure, never a skip).
pub fn binary(name: &str, env_var: &str, package: &str) -> Option<PathBuf> {
    let candidate = std::env::var_os(env_var)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
            target.join("agents/node_modules/.bin").join(name)
        });
    if candidate.exists() {
        return Some(candidate);
    }
    let message = format!(
        "the {name} client is not installed at {}: run `tests/install-agents.sh` \
         (installs {package}) or set {env_var}",
        candidate.display()
    );
    if std::env::var_os("CI").is_some() {
        panic!("{message} (CI is set, so the real-client tests cannot be skipped)");
    }
    if std::env::var("LOOPGATE_SKIP_REAL_AGENTS").as_deref() == Ok("1") {
        eprintln!("skipped: {message}");
        return None;
    }
    panic!("{message}; or set LOOPGATE_SKIP_REAL_AGENTS=1 to skip these tests locally");
}

pub fn codex() -> Option<PathBuf> {
    binary(
        "codex",
        "LOOPGATE_CODEX_BIN",
        &format!("@openai/codex@{CODEX_VERSION}"),
    )
}

pub fn gemini() -> Option<PathBuf> {
    binary(
        "gemini",
        "LOOPGATE_GEMINI_BIN",
        &format!("@google/gemini-cli@{GEMINI_VERSION}"),
    )
}

pub struct ClientRun {
    pub success: bool,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub server_log: String,
}

impl ClientRun {
    pub fn explain(&self) -> String {
        format!(
            "client exit {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}\n--- model server ---\n{}",
            self.code, self.stdout, self.stderr, self.server_log
        )
    }
}

/// Run `cmd` to its end with stdout and stderr drained; killed (and the test failed) after
/// `limit`, which only catches a hang.
pub fn finish(mut cmd: Command, limit: Duration, server_log: impl Fn() -> String) -> ClientRun {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the client starts");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the client") {
            break Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let run = ClientRun {
        success: status.is_some_and(|s| s.success()),
        code: status.and_then(|s| s.code()),
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        server_log: server_log(),
    };
    assert!(
        status.is_some(),
        "the client did not finish within {limit:?}\n{}",
        run.explain()
    );
    run
}

fn base_env(cmd: &mut Command, home: &Path) {
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("TMPDIR", std::env::temp_dir());
}

/// The model every Codex run asks for: a catalog model that is offered `apply_patch`.
pub const CODEX_MODEL: &str = "gpt-5.5";

/// `~/.codex/config.toml`: the scripted provider and the repository trusted, so the
/// project's `.codex/` layer (loopgate's hooks) is loaded.
pub fn setup_codex(r: &TestRepo, server: &ResponsesServer, model: &str) {
    let dir = r.home().join(".codex");
    std::fs::create_dir_all(&dir).unwrap();
    let config = format!(
        "model = \"{model}\"\nmodel_provider = \"scripted\"\n\
         [model_providers.scripted]\nname = \"scripted\"\nbase_url = \"{}\"\n\
         wire_api = \"responses\"\nenv_key = \"SCRIPTED_API_KEY\"\n\
         [projects.\"{}\"]\ntrust_level = \"trusted\"\n",
        server.base_url(),
        r.path().display()
    );
    std::fs::write(dir.join("config.toml"), config).unwrap();
}

/// `codex exec` headless in the repository, hooks trusted for this invocation.
pub fn run_codex(
    bin: &Path,
    r: &TestRepo,
    server: &ResponsesServer,
    prompt: &str,
    limit: Duration,
) -> ClientRun {
    run_codex_as(bin, r, server, CODEX_MODEL, prompt, limit)
}

/// A model name outside Codex's catalog: 0.169 then uses its fallback tool set, which
/// offers the `multi_agent_v1` subagent tools (and no `apply_patch`).
pub const CODEX_FALLBACK_MODEL: &str = "gpt-5-codex";

/// [`run_codex`] with another model name (its tool set follows the name).
pub fn run_codex_as(
    bin: &Path,
    r: &TestRepo,
    server: &ResponsesServer,
    model: &str,
    prompt: &str,
    limit: Duration,
) -> ClientRun {
    run_codex_under(&[], bin, r, server, model, prompt, limit)
}

/// [`run_codex_as`] started through `prefix` (e.g. `loopgate run --confine --`).
pub fn run_codex_under(
    prefix: &[&str],
    bin: &Path,
    r: &TestRepo,
    server: &ResponsesServer,
    model: &str,
    prompt: &str,
    limit: Duration,
) -> ClientRun {
    setup_codex(r, server, model);
    let mut cmd = match prefix.split_first() {
        Some((first, rest)) => {
            let mut c = Command::new(first);
            c.args(rest).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    base_env(&mut cmd, &r.home());
    cmd.current_dir(r.path())
        .env("CODEX_HOME", r.home().join(".codex"))
        .env("SCRIPTED_API_KEY", "sk-test")
        .args([
            "exec",
            "--dangerously-bypass-approvals-and-sandbox",
            "--dangerously-bypass-hook-trust",
            "--skip-git-repo-check",
            "--json",
            prompt,
        ]);
    let script = server.script.clone();
    finish(cmd, limit, move || script.log())
}

/// `~/.gemini/settings.json` (API-key auth) and the repository trusted, so its project
/// hooks load (`--skip-trust` would skip them).
pub fn setup_gemini(r: &TestRepo) {
    let dir = r.home().join(".gemini");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("settings.json"),
        r#"{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false}}"#,
    )
    .unwrap();
    let trusted = serde_json::json!({ r.path().display().to_string(): "TRUST_FOLDER" });
    std::fs::write(dir.join("trustedFolders.json"), trusted.to_string()).unwrap();
    // The project's short name, so its temp dir is known: see `gemini_project_temp`.
    let projects = serde_json::json!({"projects": { r.path().display().to_string(): "proj" }});
    std::fs::write(dir.join("projects.json"), projects.to_string()).unwrap();
}

/// The project temp dir Gemini CLI lets its tools write besides the workspace (outside the
/// repository, so outside loopgate's write roots when the temp dir is not writable).
pub fn gemini_project_temp(r: &TestRepo) -> PathBuf {
    r.home().join(".gemini/tmp/proj")
}

/// `gemini -p` headless (`--yolo`: the CLI's own approvals are off, loopgate decides).
pub fn run_gemini(
    bin: &Path,
    r: &TestRepo,
    server: &GeminiServer,
    prompt: &str,
    limit: Duration,
) -> ClientRun {
    setup_gemini(r);
    let mut cmd = Command::new(bin);
    base_env(&mut cmd, &r.home());
    cmd.current_dir(r.path())
        .env("GEMINI_API_KEY", "test-key")
        .env("GOOGLE_GEMINI_BASE_URL", server.base_url())
        .env("GEMINI_TELEMETRY_ENABLED", "false")
        .args(["-p", prompt, "--yolo", "-o", "json"]);
    let script = server.script.clone();
    finish(cmd, limit, move || script.log())
}

/// The repository's hooks for `agent` installed by `loopgate install`, and committed.
pub fn install(r: &TestRepo, agent: &str) {
    let out = Command::new(super::repo::LOOPGATE)
        .args(["install", agent])
        .current_dir(r.path())
        .env("HOME", r.home())
        .output()
        .expect("loopgate runs");
    assert!(
        out.status.success(),
        "loopgate install {agent}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    r.git(&["add", "-A"]);
    r.git(&["commit", "-q", "-m", "hooks"]);
}
