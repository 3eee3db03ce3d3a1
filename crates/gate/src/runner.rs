//! Runs one check: each `&&` step as argv without a shell (or `sh -c` for an explicit
//! `shell = true` check), in its own process group, owning its whole process tree (see
//! `sandbox::tree`): nothing a step starts outlives it, by exit, timeout or loopgate's death.

use crate::receipt::{CheckResult, CheckStatus};
use sandbox::tree::{self, Containment};
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Raw output kept per check while it runs (the receipt shows a shorter tail).
const KEEP_BYTES: usize = 64 * 1024;
/// What the receipt keeps: the last lines, bounded.
pub const TAIL_LINES: usize = 40;
pub const TAIL_BYTES: usize = 4096;
/// Between SIGTERM and SIGKILL on a timeout.
const KILL_GRACE: Duration = Duration::from_secs(2);
/// How long the output is drained after a step ended and its tree was killed. Only a
/// process that escaped containment (`process-group` mode) can hold a pipe this long.
const DRAIN_BOUND: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub env: Vec<(String, String)>,
    pub argv: Vec<String>,
}

/// What to execute for one check, decided before anything runs.
#[derive(Debug, Clone)]
pub enum Plan {
    Vetted(Vec<Step>),
    /// `shell = true`: the user opted out of vetting.
    Shell(String),
    Refused(String),
}

/// Hook to adjust each command before it is spawned (confinement applies here).
pub type PreSpawn<'a> = &'a dyn Fn(&mut Command) -> std::io::Result<()>;

pub struct RunOptions<'a> {
    pub root: PathBuf,
    pub timeout: Duration,
    /// Absolute deadline of the whole gate (a hook's own deadline).
    pub deadline: Option<Instant>,
    pub pre_spawn: Option<PreSpawn<'a>>,
}

pub fn run_check(name: &str, run: &str, plan: &Plan, opts: &RunOptions) -> CheckResult {
    let started = Instant::now();
    let mut result = CheckResult {
        name: name.to_string(),
        run: run.to_string(),
        argv: Vec::new(),
        vetted: !matches!(plan, Plan::Shell(_)),
        status: CheckStatus::Pass,
        exit_code: Some(0),
        duration_ms: 0,
        output_tail: String::new(),
        reason: None,
        containment: None,
    };
    let steps: Vec<Step> = match plan {
        Plan::Refused(reason) => {
            result.status = CheckStatus::Refused;
            result.exit_code = None;
            result.reason = Some(reason.clone());
            return result;
        }
        Plan::Vetted(steps) => steps.clone(),
        Plan::Shell(script) => vec![Step {
            env: Vec::new(),
            argv: vec!["sh".into(), "-c".into(), script.clone()],
        }],
    };
    let output = Arc::new(Mutex::new(Tail::default()));
    let check_deadline = started + opts.timeout;
    let deadline = match opts.deadline {
        Some(d) if d < check_deadline => d,
        _ => check_deadline,
    };
    let wanted = tree::wanted();
    for step in &steps {
        result.argv.push(step.argv.clone());
        let (outcome, held) = run_step(step, &opts.root, deadline, opts.pre_spawn, wanted, &output);
        // The weakest containment any step got is the check's.
        result.containment = match (result.containment, held) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match outcome {
            StepOutcome::Exited(0) => continue,
            StepOutcome::Exited(code) => {
                result.status = CheckStatus::Fail;
                result.exit_code = Some(code);
            }
            StepOutcome::TimedOut => {
                result.status = CheckStatus::Timeout;
                result.exit_code = None;
                let limit = if opts.deadline.is_some_and(|d| d < check_deadline) {
                    "the gate's deadline".to_string()
                } else {
                    format!("its timeout of {}", human_duration(opts.timeout))
                };
                result.reason = Some(format!("killed after {limit}"));
            }
            StepOutcome::SpawnError(e) => {
                result.status = CheckStatus::Error;
                result.exit_code = None;
                result.reason = Some(e);
            }
        }
        break;
    }
    result.duration_ms = started.elapsed().as_millis() as u64;
    result.output_tail = output.lock().map(|t| t.render()).unwrap_or_default();
    result
}

enum StepOutcome {
    Exited(i32),
    TimedOut,
    SpawnError(String),
}

fn run_step(
    step: &Step,
    root: &Path,
    deadline: Instant,
    pre_spawn: Option<PreSpawn>,
    wanted: Containment,
    output: &Arc<Mutex<Tail>>,
) -> (StepOutcome, Option<Containment>) {
    let Some((program, args)) = step.argv.split_first() else {
        return (StepOutcome::SpawnError("empty command".into()), None);
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(root)
        .env("LOOPGATE", "1")
        .envs(step.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // Before the confinement hook: hooks added later run only in the command itself.
    let ownership = match tree::own(&mut cmd, wanted, KILL_GRACE) {
        Ok(o) => o,
        Err(e) => {
            let why = format!("cannot prepare `{program}`: {e}");
            return (StepOutcome::SpawnError(why), None);
        }
    };
    if let Some(hook) = pre_spawn {
        if let Err(e) = hook(&mut cmd) {
            let why = format!("cannot prepare `{program}`: {e}");
            return (StepOutcome::SpawnError(why), None);
        }
    }
    let mut child = match tree::spawn(cmd, ownership) {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let why = format!("`{program}` was not found: install it or fix the check's `run`");
            return (StepOutcome::SpawnError(why), None);
        }
        Err(e) => {
            let why = format!("cannot start `{program}`: {e}");
            return (StepOutcome::SpawnError(why), None);
        }
    };
    let containment = child.containment();
    let pgid = child.id() as i32;
    let (done_tx, done_rx) = mpsc::channel();
    let readers = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|mut pipe| {
        let output = Arc::clone(output);
        let done = done_tx.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut tail) = output.lock() {
                    tail.push(&buf[..n]);
                }
            }
            let _ = done.send(());
        });
    })
    .count();
    let remaining = deadline.saturating_duration_since(Instant::now());
    let outcome = match child.wait_timeout(remaining) {
        Some(Ok(status)) => StepOutcome::Exited(
            status
                .code()
                .unwrap_or_else(|| 128 + status.signal().unwrap_or(0)),
        ),
        Some(Err(e)) => StepOutcome::SpawnError(format!("lost `{program}`: {e}")),
        None => {
            // SIGTERM, then SIGKILL after the grace, over the whole tree.
            child.stop();
            StepOutcome::TimedOut
        }
    };
    if containment == Containment::ProcessGroup {
        // Without a keeper, descendants left in the group would hold the pipes open.
        kill_group(pgid, libc::SIGKILL);
    }
    // The tree is dead, so the pipes are at EOF; the bound only matters for a process
    // that escaped a process group. An abandoned reader ends with the process.
    let drain_end = Instant::now() + DRAIN_BOUND;
    for _ in 0..readers {
        let left = drain_end.saturating_duration_since(Instant::now());
        if done_rx.recv_timeout(left).is_err() {
            if let Ok(mut tail) = output.lock() {
                tail.push(b"\n[loopgate: output cut: a process that escaped the check still holds its pipe]\n");
            }
            break;
        }
    }
    (outcome, Some(containment))
}

fn kill_group(pgid: i32, signal: i32) {
    // SAFETY: killpg has no memory-safety preconditions; ESRCH (group gone) is expected.
    unsafe {
        libc::killpg(pgid, signal);
    }
}

pub fn human_duration(d: Duration) -> String {
    let secs = d.as_secs();
    if d.subsec_millis() != 0 && secs < 10 {
        format!("{}ms", d.as_millis())
    } else if secs > 0 && secs.is_multiple_of(3600) {
        format!("{}h", secs / 3600)
    } else if secs > 0 && secs.is_multiple_of(60) {
        format!("{}m", secs / 60)
    } else {
        format!("{secs}s")
    }
}

/// The last [`KEEP_BYTES`] of combined output.
#[derive(Default)]
struct Tail {
    bytes: Vec<u8>,
    dropped: bool,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        self.bytes.extend_from_slice(chunk);
        if self.bytes.len() > 2 * KEEP_BYTES {
            let cut = self.bytes.len() - KEEP_BYTES;
            self.bytes.drain(..cut);
            self.dropped = true;
        }
    }

    fn render(&self) -> String {
        tail_text(&self.bytes, self.dropped)
    }
}

/// ANSI-stripped, at most [`TAIL_LINES`] lines and [`TAIL_BYTES`] bytes, cut at a line start.
pub fn tail_text(bytes: &[u8], dropped: bool) -> String {
    let text = String::from_utf8_lossy(bytes);
    let stripped = anstream::adapter::strip_str(&text).to_string();
    let stripped = stripped.replace("\r\n", "\n");
    let lines: Vec<&str> = stripped.trim_end().lines().collect();
    let mut start = lines.len().saturating_sub(TAIL_LINES);
    let mut out = lines[start..].join("\n");
    while out.len() > TAIL_BYTES && start < lines.len() {
        start += 1;
        out = lines[start..].join("\n");
    }
    if out.len() > TAIL_BYTES {
        let cut = out.len() - TAIL_BYTES;
        let cut = (cut..out.len())
            .find(|i| out.is_char_boundary(*i))
            .unwrap_or(out.len());
        out = out[cut..].to_string();
    }
    if start > 0 || dropped {
        format!("[... earlier output cut ...]\n{out}")
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(root: &Path, timeout: Duration) -> RunOptions<'static> {
        RunOptions {
            root: root.to_path_buf(),
            timeout,
            deadline: None,
            pre_spawn: None,
        }
    }

    fn steps(argvs: &[&[&str]]) -> Plan {
        Plan::Vetted(
            argvs
                .iter()
                .map(|a| Step {
                    env: vec![],
                    argv: a.iter().map(|s| s.to_string()).collect(),
                })
                .collect(),
        )
    }

    #[test]
    fn passes_and_fails_with_exit_code_and_tail() {
        let dir = tempfile::tempdir().unwrap();
        let ok = run_check(
            "t",
            "true",
            &steps(&[&["true"]]),
            &opts(dir.path(), Duration::from_secs(5)),
        );
        assert_eq!(ok.status, CheckStatus::Pass);
        let plan = steps(&[&[
            "sh",
            "-c",
            "printf '\\033[31mred\\033[0m\\n'; echo boom >&2; exit 7",
        ]]);
        let bad = run_check("t", "x", &plan, &opts(dir.path(), Duration::from_secs(5)));
        assert_eq!(bad.status, CheckStatus::Fail);
        assert_eq!(bad.exit_code, Some(7));
        assert!(bad.output_tail.contains("red") && !bad.output_tail.contains('\u{1b}'));
        assert!(bad.output_tail.contains("boom"));
    }

    #[test]
    fn and_chain_stops_at_first_failure() {
        let dir = tempfile::tempdir().unwrap();
        let plan = steps(&[&["false"], &["touch", "ran"]]);
        let r = run_check(
            "t",
            "false && touch ran",
            &plan,
            &opts(dir.path(), Duration::from_secs(5)),
        );
        assert_eq!(r.status, CheckStatus::Fail);
        assert!(!dir.path().join("ran").exists());
        assert_eq!(r.argv.len(), 1);
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        // The grandchild would touch the file after 3 s if it survived the group kill.
        let plan = steps(&[&["sh", "-c", "(sleep 3; touch survived) & sleep 30"]]);
        let r = run_check(
            "t",
            "x",
            &plan,
            &opts(dir.path(), Duration::from_millis(300)),
        );
        assert_eq!(r.status, CheckStatus::Timeout);
        assert!(r.reason.unwrap().contains("timeout of 300ms"));
        std::thread::sleep(Duration::from_secs(4));
        assert!(!dir.path().join("survived").exists());
    }

    #[test]
    fn gate_deadline_beats_check_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = opts(dir.path(), Duration::from_secs(60));
        o.deadline = Some(Instant::now() + Duration::from_millis(200));
        let r = run_check("t", "x", &steps(&[&["sleep", "30"]]), &o);
        assert_eq!(r.status, CheckStatus::Timeout);
        assert!(r.reason.unwrap().contains("deadline"));
    }

    #[test]
    fn missing_program_is_an_error_not_a_pass() {
        let dir = tempfile::tempdir().unwrap();
        let r = run_check(
            "t",
            "x",
            &steps(&[&["no-such-program-xyz"]]),
            &opts(dir.path(), Duration::from_secs(5)),
        );
        assert_eq!(r.status, CheckStatus::Error);
        assert!(r.reason.unwrap().contains("not found"));
    }

    #[test]
    fn env_has_loopgate_and_step_env() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::Vetted(vec![Step {
            env: vec![("FOO".into(), "bar".into())],
            argv: vec!["sh".into(), "-c".into(), "echo $LOOPGATE-$FOO".into()],
        }]);
        let r = run_check("t", "x", &plan, &opts(dir.path(), Duration::from_secs(5)));
        assert_eq!(r.output_tail, "1-bar");
    }

    #[test]
    fn refused_never_runs() {
        let dir = tempfile::tempdir().unwrap();
        let r = run_check(
            "t",
            "x",
            &Plan::Refused("pipe".into()),
            &opts(dir.path(), Duration::from_secs(5)),
        );
        assert_eq!(r.status, CheckStatus::Refused);
        assert!(r.argv.is_empty());
    }

    #[test]
    fn tail_is_bounded() {
        let many: String = (0..1000).map(|i| format!("line {i}\n")).collect();
        let t = tail_text(many.as_bytes(), false);
        assert!(t.starts_with("[... earlier output cut ...]"));
        assert!(t.ends_with("line 999"));
        assert!(t.lines().count() <= TAIL_LINES + 1);
        let wide = "é".repeat(10_000);
        assert!(tail_text(wide.as_bytes(), false).len() <= TAIL_BYTES + 40);
    }
}
