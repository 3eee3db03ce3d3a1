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

/// What the hook gets on stdin.
pub enum Stdin<'a> {
    /// These bytes, then end of input.
    Payload(&'a [u8]),
    /// A pipe that is never written to and never closed while the hook runs.
    HeldOpen,
}

/// Like [`run`], with extra environment and a hang guard: a hook still running after
/// `guard` is killed and reported as exit -1 (an agent's own hook timeout would have let
/// the action through). The guard only catches hangs; it is never a speed assertion.
pub fn run_guarded(
    agent: &str,
    dir: &Path,
    home: &Path,
    stdin: Stdin,
    env: &[(&str, &str)],
    guard: Duration,
) -> HookRun {
    use std::io::Read;
    let started = Instant::now();
    let mut child = Command::new(LOOPGATE)
        .args(["hook", agent])
        .current_dir(dir)
        .env("HOME", home)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("loopgate starts");
    let pipe = child.stdin.take().unwrap();
    let held = match stdin {
        Stdin::Payload(bytes) => {
            let bytes = bytes.to_vec();
            let mut pipe = pipe;
            std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            });
            None
        }
        Stdin::HeldOpen => Some(pipe),
    };
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let mut code = loop {
        if let Some(status) = child.try_wait().expect("wait works") {
            break status.code().unwrap_or(-1);
        }
        if started.elapsed() > guard {
            let _ = child.kill();
            let _ = child.wait();
            break -1;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = started.elapsed();
    drop(held);
    let stdout = stdout.join().unwrap_or_default();
    let mut stderr = stderr.join().unwrap_or_default();
    if elapsed > guard {
        code = -1;
        stderr.push_str("\n[hung: killed by the test's hang guard]");
    }
    HookRun {
        code,
        stdout,
        stderr,
        elapsed,
    }
}
