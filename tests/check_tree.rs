//! A check owns its whole process tree: setsid daemons, double forks and processes that
//! ignore SIGTERM die when the check ends (by exit or timeout) and when loopgate itself is
//! terminated or killed. End to end: the built binary, a real git repository, a real
//! python script as the check, real signals.
//!
//! Every process the script starts carries a marker in its environment, so the test finds
//! them by scanning `/proc` (no `ps`), whatever pid namespace they were started in.

mod gitrepo;

use gitrepo::{stderr, stdout, Repo};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Forks a setsid daemon (double fork) that ignores SIGTERM and sleeps 60 s with the check's
/// output pipes open; in `hold` mode also a child that ignores SIGTERM and has its own setsid
/// grandchild; then either exits 0 (`exit`) or sleeps (`hold`).
const SCRIPT: &str = r#"import os, signal, sys, time

def daemon(tag):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            open(f"out/{tag}", "w").write("up")
            time.sleep(60)
            os._exit(0)
        os._exit(0)

def wait_for(tag):
    while not os.path.exists(f"out/{tag}"):
        time.sleep(0.01)

os.makedirs("out", exist_ok=True)
daemon("daemon")
wait_for("daemon")
if sys.argv[1] == "hold":
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        daemon("grandchild")
        open("out/stubborn", "w").write("up")
        while True:
            time.sleep(1)
    wait_for("grandchild")
    wait_for("stubborn")
open("out/ready", "w").write("ok")
print("started", flush=True)
if sys.argv[1] == "hold":
    while True:
        time.sleep(1)
"#;

fn project() -> Repo {
    Repo::with(&[
        (
            "loopgate.toml",
            "version = 1\n\
             [[check]]\nname = \"daemon\"\nrun = \"python3 tree.py exit\"\ntimeout = \"20s\"\n\
             [[check]]\nname = \"stubborn\"\nrun = \"python3 tree.py hold\"\ntimeout = \"5s\"\n\
             [[check]]\nname = \"held\"\nrun = \"python3 tree.py hold\"\ntimeout = \"5m\"\n\
             [[check]]\nname = \"quick\"\nrun = \"python3 --version\"\n",
        ),
        ("tree.py", SCRIPT),
        (".gitignore", ".loopgate/\nout/\n"),
    ])
}

/// A fresh marker for one test (tests in this file run in parallel).
fn marker(name: &str) -> String {
    format!("{name}-{}-{}", std::process::id(), nanos_now())
}

fn nanos_now() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

const MARK_VAR: &str = "LOOPGATE_TREE_TEST_MARK";

/// Live (non-zombie) processes whose environment carries `mark`, excluding `except`.
fn marked(mark: &str, except: &[u32]) -> Vec<u32> {
    let needle = format!("{MARK_VAR}={mark}\0");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if except.contains(&pid) {
            continue;
        }
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        if !env.windows(needle.len()).any(|w| w == needle.as_bytes()) {
            continue;
        }
        if state(pid) == Some('Z') {
            // A zombie has finished; it is nobody's process of ours (the test reaps its own).
            continue;
        }
        found.push(pid);
    }
    found
}

fn state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = stat.rsplit_once(')')?.1;
    after.trim_start().chars().next()
}

/// Waits up to `within` for every marked process to be gone; returns the survivors.
fn survivors_after(mark: &str, within: Duration) -> Vec<u32> {
    let end = Instant::now() + within;
    loop {
        let left = marked(mark, &[]);
        if left.is_empty() || Instant::now() > end {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn describe(pids: &[u32]) -> String {
    pids.iter()
        .map(|p| {
            let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            format!("{p} [{}] {cmd}", state(*p).unwrap_or('?'))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Kill whatever a failed run left behind, so a red test does not leak sleepers.
fn cleanup(mark: &str) {
    for pid in marked(mark, &[]) {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe {
            libc::kill(pid as i32, libc::SIGKILL);
        }
    }
}

/// The modes under test: the best this machine offers, then the forced fallback.
const MODES: &[Option<&str>] = &[None, Some("subreaper")];

fn loopgate(repo: &Repo, mark: &str, mode: Option<&str>) -> assert_cmd::Command {
    let mut cmd = repo.loopgate();
    cmd.env(MARK_VAR, mark);
    match mode {
        Some(m) => cmd.env("LOOPGATE_CONTAINMENT", m),
        None => cmd.env_remove("LOOPGATE_CONTAINMENT"),
    };
    cmd
}

fn spawn_loopgate(repo: &Repo, mark: &str, mode: Option<&str>, args: &[&str]) -> Child {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("loopgate"));
    cmd.current_dir(repo.path())
        .args(args)
        .env(MARK_VAR, mark)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    match mode {
        Some(m) => cmd.env("LOOPGATE_CONTAINMENT", m),
        None => cmd.env_remove("LOOPGATE_CONTAINMENT"),
    };
    cmd.spawn().unwrap()
}

fn wait_ready(repo: &Repo, child: &mut Child) {
    let end = Instant::now() + Duration::from_secs(20);
    while !repo.join("out/ready").exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "loopgate ended before the check was ready"
        );
        assert!(Instant::now() < end, "the check never became ready");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn expected_containment(mode: Option<&str>) -> &'static str {
    match mode {
        Some("subreaper") => "subreaper",
        // Root on Linux can always create a PID namespace unless a seccomp filter forbids it.
        _ if unsafe { libc::geteuid() } == 0 => "pid-namespace",
        _ => "",
    }
}

fn check_json(repo: &Repo, mark: &str, mode: Option<&str>, only: &str) -> serde_json::Value {
    let started = Instant::now();
    let out = loopgate(repo, mark, mode)
        .args(["check", "--json", "--only", only])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    // A hang guard, not a speed assertion: the daemon sleeps 60 s.
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "`loopgate check` waited on a process that outlived the check ({:?})",
        started.elapsed()
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}\n{}", stdout(&out), stderr(&out));
    })
}

fn assert_containment(check: &serde_json::Value, mode: Option<&str>) {
    let got = check["containment"].as_str().unwrap_or("<missing>");
    match expected_containment(mode) {
        "" => assert!(
            got == "pid-namespace" || got == "subreaper",
            "containment {got}"
        ),
        want => assert_eq!(got, want, "{check}"),
    }
}

#[test]
fn a_setsid_daemon_neither_holds_the_check_nor_survives_it() {
    for mode in MODES {
        let mark = marker("daemon");
        let repo = project();
        let r = check_json(&repo, &mark, *mode, "daemon");
        let left = survivors_after(&mark, Duration::from_secs(3));
        let shown = describe(&left);
        cleanup(&mark);
        let check = &r["checks"][0];
        assert_eq!(check["status"], "pass", "{mode:?}: {r}");
        assert!(
            check["output_tail"].as_str().unwrap().contains("started"),
            "{check}"
        );
        assert!(repo.join("out/daemon").exists(), "the daemon never started");
        assert!(left.is_empty(), "{mode:?}: survived the check: {}", shown);
        assert_containment(check, *mode);
    }
}

#[test]
fn a_timeout_kills_term_ignoring_children_and_setsid_grandchildren() {
    for mode in MODES {
        let mark = marker("timeout");
        let repo = project();
        let r = check_json(&repo, &mark, *mode, "stubborn");
        let left = survivors_after(&mark, Duration::from_secs(3));
        let shown = describe(&left);
        cleanup(&mark);
        let check = &r["checks"][0];
        assert_eq!(check["status"], "timeout", "{mode:?}: {r}");
        assert!(
            check["reason"].as_str().unwrap().contains("timeout of 5s"),
            "{check}"
        );
        for tag in ["daemon", "grandchild", "stubborn", "ready"] {
            assert!(repo.join("out").join(tag).exists(), "{tag} never started");
        }
        assert!(left.is_empty(), "{mode:?}: survived the timeout: {}", shown);
        assert_containment(check, *mode);
    }
}

fn killed_loopgate_leaves_nothing(signal: i32) {
    for mode in MODES {
        let mark = marker(&format!("sig{signal}"));
        let repo = project();
        // Which containment this machine gives, from a quick check's receipt.
        let quick = check_json(&repo, &mark, *mode, "quick");
        let containment = quick["checks"][0]["containment"]
            .as_str()
            .unwrap_or("<missing>")
            .to_string();
        let mut child = spawn_loopgate(&repo, &mark, *mode, &["check", "--only", "held"]);
        wait_ready(&repo, &mut child);
        let before = marked(&mark, &[child.id()]);
        // SAFETY: kill has no memory-safety preconditions.
        unsafe {
            libc::kill(child.id() as i32, signal);
        }
        let status = child.wait().unwrap();
        let left = survivors_after(&mark, Duration::from_secs(5));
        let shown = describe(&left);
        cleanup(&mark);
        assert!(
            before.len() >= 4,
            "the scan should see the script, its child and two daemons: {}",
            describe(&before)
        );
        assert!(!status.success(), "{status:?}");
        assert!(
            left.is_empty(),
            "{mode:?} ({containment}): survived loopgate's signal {signal}: {}",
            shown
        );
        assert!(
            matches!(containment.as_str(), "pid-namespace" | "subreaper"),
            "{mode:?}: no containment that survives loopgate's death here ({containment})"
        );
        let want = expected_containment(*mode);
        if !want.is_empty() {
            assert_eq!(containment, want, "{quick}");
        }
    }
}

#[test]
fn sigterm_to_loopgate_kills_the_whole_check_tree() {
    killed_loopgate_leaves_nothing(libc::SIGTERM);
}

#[test]
fn sigkill_to_loopgate_kills_the_whole_check_tree() {
    killed_loopgate_leaves_nothing(libc::SIGKILL);
}

#[test]
fn exec_owns_its_tree_too() {
    for mode in MODES {
        let mark = marker("exec");
        let repo = project();
        let started = Instant::now();
        let out = loopgate(&repo, &mark, *mode)
            .args(["exec", "--json", "--", "python3", "tree.py", "exit"])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let waited = started.elapsed();
        let left = survivors_after(&mark, Duration::from_secs(3));
        let shown = describe(&left);
        cleanup(&mark);
        // A hang guard: the daemon holds exec's stdout for 60 s if it survives.
        assert!(waited < Duration::from_secs(30), "exec waited {waited:?}");
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(repo.join("out/daemon").exists(), "the daemon never started");
        assert!(left.is_empty(), "{mode:?}: survived exec: {}", shown);
        let report: serde_json::Value = stdout(&out)
            .lines()
            .rev()
            .find_map(|l| serde_json::from_str(l).ok())
            .unwrap_or_else(|| panic!("no JSON report: {}", stdout(&out)));
        let want = expected_containment(*mode);
        if !want.is_empty() {
            assert_eq!(report["containment"], want, "{report}");
        }
    }
}

#[test]
fn a_killed_loopgate_run_takes_the_agent_tree_with_it() {
    for mode in MODES {
        let mark = marker("run");
        let repo = project();
        let mut child = spawn_loopgate(
            &repo,
            &mark,
            *mode,
            &["run", "--", "python3", "tree.py", "hold"],
        );
        wait_ready(&repo, &mut child);
        // SAFETY: kill has no memory-safety preconditions.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGKILL);
        }
        child.wait().unwrap();
        let left = survivors_after(&mark, Duration::from_secs(5));
        let shown = describe(&left);
        cleanup(&mark);
        assert!(
            left.is_empty(),
            "{mode:?}: the agent's tree survived loopgate: {}",
            shown
        );
    }
}
