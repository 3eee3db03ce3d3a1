//! A sandboxed user for running agent shell commands for real: a HOME that is NOT under the
//! system temp dir (which is a write root), a repository inside that HOME, a pinned Claude
//! session, and the gate's answer applied the way the client applies it (`bash -c` of the
//! possibly rewritten command).

use super::hook;
use super::repo::LOOPGATE;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Which of the jail's two ways runs a command in [`Sandbox::jailed`].
#[derive(Debug, Clone, Copy)]
pub enum Runner {
    Builtin,
    JailShell,
}

pub struct Sandbox {
    _base: tempfile::TempDir,
    /// Where the client's own shell writes its cwd file after each command: the system temp
    /// dir, as Claude Code does (`pwd -P >| /tmp/claude-<id>-cwd`, a fresh id per call).
    client_tmp: tempfile::TempDir,
    calls: std::cell::Cell<u32>,
    pub home: PathBuf,
    pub repo: PathBuf,
    pub session: String,
    pub env: Vec<(String, String)>,
}

/// What the gate said and, when it let the command through, how the command ran.
#[derive(Debug)]
pub struct Ran {
    pub answer: Value,
    pub decision: String,
    pub command: String,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    pub fn explain(&self) -> String {
        format!(
            "decision {}\nanswer {}\nexit {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.decision, self.answer, self.code, self.stdout, self.stderr
        )
    }

    /// An allowed command must have been handed back rewritten into the jail.
    pub fn assert_confined_if_allowed(&self) {
        if self.decision == "allow" {
            assert!(
                self.answer["hookSpecificOutput"]["updatedInput"].is_object(),
                "{} ran unconfined: {}",
                self.command,
                self.explain()
            );
        }
    }
}

/// The dirs of the real toolchains, so a changed HOME does not hide them (pyenv and rustup
/// shims look under HOME).
fn tool_path() -> String {
    let mut dirs: Vec<String> = Vec::new();
    if let Ok(out) = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
    {
        if let Some(dir) = Path::new(String::from_utf8_lossy(&out.stdout).trim()).parent() {
            dirs.push(dir.display().to_string());
        }
    }
    dirs.push(std::env::var("PATH").unwrap_or_default());
    dirs.join(":")
}

impl Sandbox {
    /// A sandbox with `config` as loopgate.toml (None: no file) and the session started.
    pub fn new(config: Option<&str>) -> Sandbox {
        Sandbox::with_env(config, &[])
    }

    pub fn with_env(config: Option<&str>, extra_env: &[(&str, &str)]) -> Sandbox {
        let base = tempfile::Builder::new()
            .prefix("lg-jail-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        let home = std::fs::canonicalize(base.path()).unwrap().join("home");
        let repo = home.join("work/repo");
        std::fs::create_dir_all(&repo).unwrap();
        let mut env: Vec<(String, String)> = vec![
            ("HOME".into(), home.display().to_string()),
            ("PATH".into(), tool_path()),
            ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
            ("CLAUDE_PROJECT_DIR".into(), repo.display().to_string()),
        ];
        for var in ["RUSTUP_HOME", "CARGO_HOME"] {
            let real = std::env::var(var).ok().or_else(|| {
                std::env::var("HOME").ok().map(|h| {
                    format!(
                        "{h}/{}",
                        if var == "RUSTUP_HOME" {
                            ".rustup"
                        } else {
                            ".cargo"
                        }
                    )
                })
            });
            if let Some(v) = real {
                env.push((var.into(), v));
            }
        }
        for (k, v) in extra_env {
            env.push((k.to_string(), v.to_string()));
        }
        let client_tmp = tempfile::Builder::new()
            .prefix("lg-client-")
            .tempdir_in(std::env::temp_dir())
            .unwrap();
        let sb = Sandbox {
            _base: base,
            client_tmp,
            calls: std::cell::Cell::new(0),
            home,
            repo,
            session: "redteam-session".into(),
            env,
        };
        sb.seed(config);
        sb
    }

    fn seed(&self, config: Option<&str>) {
        let h = &self.home;
        std::fs::write(h.join(".bashrc"), "# the user's shell\n").unwrap();
        std::fs::write(h.join(".profile"), "# profile\n").unwrap();
        std::fs::create_dir_all(h.join("keep/deep")).unwrap();
        std::fs::write(h.join("keep/deep/precious.txt"), "precious\n").unwrap();
        std::fs::create_dir_all(h.join(".ssh")).unwrap();
        std::fs::write(h.join(".ssh/config"), "Host x\n").unwrap();
        // A tool home among the writable tool caches: its download cache is writable, its
        // programs, sourced script and configuration are not.
        std::fs::create_dir_all(h.join(".cargo/bin")).unwrap();
        std::fs::create_dir_all(h.join(".cargo/registry")).unwrap();
        std::fs::write(
            h.join(".cargo/env"),
            "export PATH=\"$HOME/.cargo/bin:$PATH\"\n",
        )
        .unwrap();
        std::fs::write(
            h.join(".gitconfig"),
            "[user]\n\tname = t\n\temail = t@example.com\n",
        )
        .unwrap();
        self.git(&["init", "-q", "-b", "main"]);
        self.git(&["config", "commit.gpgsign", "false"]);
        if let Some(text) = config {
            std::fs::write(self.repo.join("loopgate.toml"), text).unwrap();
        }
        std::fs::write(self.repo.join("README.md"), "demo\n").unwrap();
        std::fs::write(self.repo.join(".gitignore"), ".loopgate/\n").unwrap();
        std::fs::write(
            self.repo.join(".git/hooks/pre-commit"),
            "#!/bin/sh\nexit 0\n",
        )
        .unwrap();
        let out = self
            .cmd(LOOPGATE)
            .args(["install", "claude"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", "start"]);
        let start = self.hook(json!({"hook_event_name": "SessionStart"}));
        assert_eq!(start.code, 0, "{}", start.explain());
    }

    pub fn cmd(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.current_dir(&self.repo).env_clear();
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c.env("TMPDIR", std::env::temp_dir());
        c
    }

    pub fn git(&self, args: &[&str]) -> String {
        let out = self.cmd("git").args(args).output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// One hook call of this session (Claude Code payload shape).
    pub fn hook(&self, fields: Value) -> hook::HookRun {
        let event = fields["hook_event_name"].as_str().unwrap().to_string();
        let payload = hook::claude_payload(&event, &self.repo, &self.session, fields);
        let mut c = self.cmd(LOOPGATE);
        c.args(["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let started = Instant::now();
        let mut child = c.spawn().unwrap();
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            let _ = stdin.write_all(&payload);
        }
        let out = child.wait_with_output().unwrap();
        hook::HookRun {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            elapsed: started.elapsed(),
        }
    }

    /// Send `command` through `loopgate hook claude`; when the gate lets it through, run
    /// it (or its rewrite) as Claude Code does, in `cwd`, with `stdin` as its input.
    pub fn attempt_in(&self, command: &str, cwd: &Path, stdin: Option<&str>) -> Ran {
        let answer = self.hook(json!({
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "run"},
        }));
        assert_eq!(answer.code, 0, "{}", answer.explain());
        let json: Value = if answer.stdout.trim().is_empty() {
            Value::Null
        } else {
            answer.json()
        };
        let out = &json["hookSpecificOutput"];
        let decision = out["permissionDecision"]
            .as_str()
            .unwrap_or("none")
            .to_string();
        let mut ran = Ran {
            answer: json.clone(),
            decision: decision.clone(),
            command: command.to_string(),
            code: None,
            stdout: String::new(),
            stderr: String::new(),
        };
        if decision == "deny" || decision == "ask" {
            return ran;
        }
        let to_run = out["updatedInput"]["command"]
            .as_str()
            .unwrap_or(command)
            .to_string();
        // Claude Code's own wrapping: eval in a fresh bash, then record the final cwd in a
        // fresh file of the system temp dir.
        self.calls.set(self.calls.get() + 1);
        let cwd_file = self.client_cwd_file();
        let mut c = self.cmd("bash");
        c.current_dir(cwd)
            .arg("-c")
            .arg("eval \"$1\"; __s=$?; pwd -P >| \"$2\"; exit $__s")
            .arg("bash")
            .arg(&to_run)
            .arg(&cwd_file)
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Own process group, so a hang is killed whole.
        std::os::unix::process::CommandExt::process_group(&mut c, 0);
        let mut child = c.spawn().unwrap();
        if let Some(text) = stdin {
            use std::io::Write;
            let mut pipe = child.stdin.take().unwrap();
            let _ = pipe.write_all(text.as_bytes());
        }
        let pid = child.id() as i32;
        let killer = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            while Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(100));
                // SAFETY: signal 0 probes; the group is ours.
                if unsafe { libc_kill(-pid, 0) } != 0 {
                    return;
                }
            }
            unsafe { libc_kill(-pid, 9) };
        });
        let output = child.wait_with_output().unwrap();
        drop(killer);
        ran.code = output.status.code();
        ran.stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        ran.stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        ran
    }

    /// Run `command` under the session's jail directly, as if the gate had allowed it:
    /// the kernel's part alone, with no static vetting in front of it. `Runner::Builtin`
    /// runs the tool gate's rewrite of a harmless command with `command` put in its place;
    /// `Runner::JailShell` runs `loopgate jail-shell -c command`.
    pub fn jailed(&self, command: &str, runner: Runner) -> std::process::Output {
        let mut c = match runner {
            Runner::JailShell => {
                let mut c = self.cmd(LOOPGATE);
                c.args([
                    "jail-shell",
                    "--agent",
                    "claude",
                    "--session",
                    &self.session,
                    "-c",
                    command,
                ]);
                c
            }
            Runner::Builtin => {
                const PLACEHOLDER: &str = "__lg_c='true; true'; ";
                let answer = self.hook(json!({
                    "hook_event_name": "PreToolUse",
                    "tool_name": "Bash",
                    "tool_input": {"command": "true; true"},
                }));
                let text = answer.json()["hookSpecificOutput"]["updatedInput"]["command"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let rest = text
                    .strip_prefix(PLACEHOLDER)
                    .unwrap_or_else(|| panic!("a builtin rewrite: {text}"));
                let quoted = format!("'{}'", command.replace('\'', "'\\''"));
                let mut c = self.cmd("bash");
                c.current_dir(&self.repo)
                    .arg("-c")
                    .arg(format!("__lg_c={quoted}; {rest}"));
                c
            }
        };
        c.stdin(Stdio::null());
        std::os::unix::process::CommandExt::process_group(&mut c, 0);
        let child = c
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = done.clone();
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            while Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(100));
                if flag.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
            }
            // SAFETY: kills the process group this test started.
            unsafe { libc_kill(-pid, 9) };
        });
        let out = child.wait_with_output().unwrap();
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        out
    }

    pub fn attempt(&self, command: &str) -> Ran {
        self.attempt_in(command, &self.repo, None)
    }

    /// The file the client's shell writes its final directory to after the current call.
    pub fn client_cwd_file(&self) -> PathBuf {
        self.client_tmp
            .path()
            .join(format!("claude-{:04x}-cwd", self.calls.get()))
    }

    /// The directory Claude Code would be in after the last attempt.
    pub fn last_cwd(&self) -> PathBuf {
        PathBuf::from(
            std::fs::read_to_string(self.client_cwd_file())
                .unwrap()
                .trim_end(),
        )
    }

    /// Every file and link the agent must not change: the whole HOME except the
    /// repository's ordinary files, the download cache and loopgate's cwd hand-back;
    /// inside the repository, the referee's files.
    pub fn guarded(&self) -> BTreeMap<PathBuf, String> {
        let mut out = BTreeMap::new();
        walk(&self.home, &mut out, &|p: &Path| {
            let ordinary = p.starts_with(&self.repo) && !self.is_referee(p);
            !(ordinary
                || p.starts_with(self.home.join(".cargo/registry"))
                || p.starts_with(self.home.join(".local/state/loopgate/cwd")))
        });
        out
    }

    fn is_referee(&self, p: &Path) -> bool {
        let Ok(rel) = p.strip_prefix(&self.repo) else {
            return false;
        };
        rel.as_os_str().is_empty()
            || [
                "loopgate.toml",
                ".loopgate",
                ".claude",
                ".git",
                ".git/hooks",
                ".git/config",
            ]
            .iter()
            .any(|r| rel == Path::new(r))
            || rel.starts_with(".git/hooks")
            || rel.starts_with(".claude")
            || (rel.starts_with(".loopgate") && !rel.to_string_lossy().contains("audit"))
    }
}

extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, sig: i32) -> i32;
}

fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, String>, guarded: &dyn Fn(&Path) -> bool) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        let name = p.file_name().unwrap_or_default();
        if meta.is_dir() && (name == "objects" || name == "target" || name == "node_modules") {
            continue;
        }
        if guarded(&p) {
            let desc = if meta.file_type().is_symlink() {
                format!("link -> {}", std::fs::read_link(&p).unwrap().display())
            } else if meta.is_dir() {
                format!("dir {:o}", meta.permissions().mode())
            } else {
                let bytes = std::fs::read(&p).unwrap_or_default();
                format!("file {:o} {}", meta.permissions().mode(), blake(&bytes))
            };
            out.insert(p.clone(), desc);
        }
        if meta.is_dir() {
            walk(&p, out, guarded);
        }
    }
}

fn blake(bytes: &[u8]) -> String {
    // FNV-1a: a content fingerprint is all the comparison needs.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{h:016x}{}", bytes.len())
}
