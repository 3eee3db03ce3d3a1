//! Run `loopgate hook <agent>` as the agent would: payload on stdin, answer on stdout.

use super::repo::LOOPGATE;
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub struct HookRun {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl HookRun {
    /// The single JSON object on stdout (panics with the whole run otherwise).
    pub fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}):\n{}", self.explain()))
    }

    pub fn explain(&self) -> String {
        format!(
            "exit {}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// `loopgate hook <agent>` in `dir` with `payload` on stdin and `home` as HOME.
pub fn run(agent: &str, dir: &Path, home: &Path, payload: &[u8]) -> HookRun {
    let started = Instant::now();
    let mut child = Command::new(LOOPGATE)
        .args(["hook", agent])
        .current_dir(dir)
        .env("HOME", home)
        // The agents' project-dir variables of whatever runs the tests must not pin the
        // session; each test states its own.
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("GEMINI_PROJECT_DIR")
        .env_remove("CURSOR_PROJECT_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("loopgate starts");
    let mut stdin = child.stdin.take().unwrap();
    let payload = payload.to_vec();
    // A writer thread: the hook may answer (and close stdin) before reading everything.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&payload);
    });
    let out = child.wait_with_output().expect("loopgate finishes");
    let _ = writer.join();
    HookRun {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: started.elapsed(),
    }
}

/// A Claude Code payload shaped like the client's own (fields as 2.1.330 sends them).
pub fn claude_payload(event: &str, cwd: &Path, session: &str, extra: Value) -> Vec<u8> {
    let mut v = serde_json::json!({
        "session_id": session,
        "transcript_path": cwd.join(".no-transcript.jsonl"),
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    if let (Some(map), Value::Object(extra)) = (v.as_object_mut(), extra) {
        map.extend(extra);
    }
    serde_json::to_vec(&v).unwrap()
}
