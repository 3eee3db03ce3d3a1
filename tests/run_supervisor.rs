//! `loopgate run --confine`: the whole agent is jailed, its hooks are answered by the
//! supervisor outside the jail, and the referee's state is out of the agent's reach. The
//! "agent" is a bash script that calls `loopgate hook claude` the way a client does; real
//! binary, real Landlock and mount namespace.

mod gitrepo;

use gitrepo::{stderr, stdout, Repo};
use std::path::{Path, PathBuf};

const LOOPGATE: &str = env!("CARGO_BIN_EXE_loopgate");

/// A repository whose one check fails, so a stop is bounced (with `attempt 1/3`), and a
/// throwaway HOME outside the write roots (the temp dir is not a write root).
fn setup() -> (Repo, tempfile::TempDir) {
    let repo = Repo::with(&[(
        "loopgate.toml",
        "version = 1\n[gate]\nprograms = [\"false\"]\nmax_bounces = 3\n[[check]]\nname = \"red\"\nrun = \"false\"\n[sandbox]\ntemp_writable = false\n",
    )]);
    repo.write(".gitignore", ".loopgate/\nhook.*\n");
    repo.commit("ignore state");
    let home = tempfile::tempdir().unwrap();
    (repo, home)
}

fn pins(home: &Path) -> PathBuf {
    home.join(".local/state/loopgate/sessions")
}

fn stop(session: &str) -> String {
    format!(r#"{{"hook_event_name":"Stop","session_id":"{session}","stop_hook_active":false}}"#)
}

fn pre_tool(session: &str) -> String {
    format!(
        r#"{{"hook_event_name":"PreToolUse","session_id":"{session}","tool_name":"Bash","tool_input":{{"command":"echo hi"}}}}"#
    )
}

/// A shell line that sends `payload` to `loopgate hook claude` as a client does, leaving its
/// stdout and stderr in `hook.<name>.out|err` and printing `<name>-exit=<code>`.
fn hook_call(name: &str, payload: &str) -> String {
    format!(
        "printf '%s' '{payload}' | '{LOOPGATE}' hook claude > hook.{name}.out 2> hook.{name}.err; echo {name}-exit=$?\n"
    )
}

fn run_agent(repo: &Repo, home: &Path, script: &str) -> std::process::Output {
    repo.loopgate()
        .env("HOME", home)
        .env_remove("LOOPGATE_STATE_HOME")
        .env_remove("XDG_STATE_HOME")
        .env("CLAUDE_PROJECT_DIR", repo.path())
        .args(["run", "--confine", "--", "bash", "-c", script])
        .output()
        .unwrap()
}

fn audit(repo: &Repo) -> Vec<serde_json::Value> {
    std::fs::read_to_string(repo.join(".loopgate/audit.ndjson"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[test]
fn a_script_cannot_forge_the_ledger_or_a_pin_and_the_hooks_work_through_the_supervisor() {
    let (repo, home) = setup();
    let script = format!(
        "{}{}(echo '{{\"forged\":true}}' > .loopgate/ledger.json) 2>&1 && echo LEDGER-FORGED\n\
         (echo '{{}}' > '{pins}/claude.forged.json') 2>&1 && echo PIN-FORGED\n\
         (echo '# planted' >> loopgate.toml) 2>&1 && echo CONFIG-FORGED\n\
         echo script-end\n",
        hook_call("tool", &pre_tool("agent-1")),
        hook_call("stop", &stop("agent-1")),
        pins = pins(home.path()).display(),
    );
    let out = run_agent(&repo, home.path(), &script);
    let (so, se) = (stdout(&out), stderr(&out));
    assert!(so.contains("script-end"), "{so}\n{se}");
    assert!(
        !so.contains("LEDGER-FORGED")
            && !so.contains("PIN-FORGED")
            && !so.contains("CONFIG-FORGED"),
        "{so}\n{se}"
    );
    assert!(so.contains("Read-only file system"), "{so}");
    assert!(
        !std::fs::read_to_string(repo.join(".loopgate/ledger.json"))
            .unwrap_or_default()
            .contains("forged"),
        "the ledger was forged"
    );
    assert!(!pins(home.path()).join("claude.forged.json").exists());
    // The hook calls were answered: the tool call allowed, the stop bounced by the check.
    assert!(
        so.contains("tool-exit=0"),
        "{so}\n{}",
        repo.read("hook.tool.err")
    );
    assert!(
        so.contains("stop-exit=0"),
        "{so}\n{}",
        repo.read("hook.stop.err")
    );
    let answer: serde_json::Value = serde_json::from_str(&repo.read("hook.stop.out"))
        .unwrap_or_else(|e| panic!("{e}: {}", repo.read("hook.stop.err")));
    assert_eq!(answer["decision"], "block", "{answer}");
    assert!(
        answer["reason"].as_str().unwrap().contains("attempt 1/3"),
        "{answer}"
    );
    // Written outside the jail: the ledger counts the bounce, the audit records both calls.
    let ledger = repo.read(".loopgate/ledger.json");
    assert!(ledger.contains("agent-1"), "{ledger}");
    let lines = audit(&repo);
    assert!(
        lines.iter().any(|l| l["rule"] == "gate.stop"
            && l["session"] == "agent-1"
            && l["decision"] == "block"),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l["tool"] == "Bash" && l["session"] == "agent-1"),
        "{lines:#?}"
    );
    assert!(
        pins(home.path()).join("claude.agent-1.json").exists(),
        "the session was pinned by the supervised hook"
    );
    // The run's own verdict: the check still fails.
    assert_eq!(out.status.code(), Some(1), "{so}\n{se}");
}

#[test]
fn a_call_for_another_session_is_refused_with_exit_2() {
    let (repo, home) = setup();
    let script = format!(
        "{}{}echo script-end\n",
        hook_call("first", &pre_tool("agent-1")),
        hook_call("forged", &stop("someone-else")),
    );
    let out = run_agent(&repo, home.path(), &script);
    let (so, se) = (stdout(&out), stderr(&out));
    assert!(so.contains("first-exit=0"), "{so}\n{se}");
    assert!(so.contains("forged-exit=2"), "{so}\n{se}");
    let err = repo.read("hook.forged.err");
    assert!(
        err.contains("refused the call: the call is for claude session `someone-else`, but this run supervises claude session `agent-1`"),
        "{err}"
    );
    assert!(repo.read("hook.forged.out").is_empty());
    assert!(
        !audit(&repo).iter().any(|l| l["session"] == "someone-else"),
        "a refused call leaves no decision on record"
    );
    assert!(
        !pins(home.path()).join("claude.someone-else.json").exists(),
        "a refused call pins nothing"
    );
}

#[test]
fn a_hook_that_cannot_reach_its_supervisor_fails_closed() {
    let (repo, home) = setup();
    for payload in [pre_tool("agent-1"), stop("agent-1")] {
        let out = repo
            .loopgate()
            .env("HOME", home.path())
            .env("LOOPGATE_SUPERVISOR", home.path().join("gone/hook.sock"))
            .args(["hook", "claude"])
            .write_stdin(payload)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("the supervisor of `loopgate run` cannot be reached at")
                && stderr(&out).contains("refusing"),
            "{}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    }
    assert!(audit(&repo).is_empty(), "nothing was decided in the hook");
}

#[test]
fn a_forwarded_variable_outside_the_repository_is_refused() {
    let (repo, home) = setup();
    let elsewhere = tempfile::tempdir().unwrap();
    let script = format!(
        "export CLAUDE_PROJECT_DIR='{}'\n{}echo script-end\n",
        elsewhere.path().display(),
        hook_call("moved", &pre_tool("agent-1")),
    );
    let out = run_agent(&repo, home.path(), &script);
    let so = stdout(&out);
    assert!(so.contains("moved-exit=2"), "{so}\n{}", stderr(&out));
    let err = repo.read("hook.moved.err");
    assert!(
        err.contains("$CLAUDE_PROJECT_DIR") && err.contains("is outside the supervised repository"),
        "{err}"
    );
}

/// Read one length-prefixed frame of a reply.
fn read_reply(stream: &mut std::os::unix::net::UnixStream) -> serde_json::Value {
    use std::io::Read;
    let mut len = [0u8; 4];
    stream.read_exact(&mut len).unwrap();
    let mut body = vec![0u8; u32::from_be_bytes(len) as usize];
    stream.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[test]
fn an_oversized_or_garbled_request_is_refused_unread() {
    use std::io::Write;
    let (repo, home) = setup();
    let child = std::process::Command::new(LOOPGATE)
        .current_dir(repo.path())
        .env("HOME", home.path())
        .env_remove("LOOPGATE_STATE_HOME")
        .env_remove("XDG_STATE_HOME")
        .args([
            "run",
            "--confine",
            "--",
            "bash",
            "-c",
            "while [ ! -e go ]; do sleep 0.05; done",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let socket = home.path().join(format!(
        ".local/state/loopgate/run/{}/hook.sock",
        child.id()
    ));
    let started = std::time::Instant::now();
    while !socket.exists() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "no supervisor socket at {}",
            socket.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(socket.parent().unwrap())
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o777, 0o700, "the socket's directory is private");
    let mut oversized = std::os::unix::net::UnixStream::connect(&socket).unwrap();
    oversized.write_all(&u32::MAX.to_be_bytes()).unwrap();
    let reply = read_reply(&mut oversized);
    assert_eq!(
        reply["refused"]["reason"],
        "unreadable request: a frame of 4294967295 bytes, over the bound of 65536",
        "{reply}"
    );
    let mut garbled = std::os::unix::net::UnixStream::connect(&socket).unwrap();
    garbled.write_all(&5u32.to_be_bytes()).unwrap();
    garbled.write_all(b"hello").unwrap();
    let reply = read_reply(&mut garbled);
    assert!(
        reply["refused"]["reason"]
            .as_str()
            .unwrap()
            .starts_with("unreadable request: "),
        "{reply}"
    );
    std::fs::write(repo.join("go"), "").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        stderr(&out).contains("loopgate run: refused a hook call: unreadable request"),
        "{}",
        stderr(&out)
    );
    assert!(!socket.exists(), "the socket is removed when the run ends");
}

#[test]
fn without_a_mount_namespace_the_hooks_still_go_through_the_supervisor() {
    let (repo, home) = setup();
    let script = format!(
        "{}echo script-end\n",
        hook_call("tool", &pre_tool("agent-1"))
    );
    let out = repo
        .loopgate()
        .env("HOME", home.path())
        .env("LOOPGATE_NO_USERNS", "1")
        .env_remove("LOOPGATE_STATE_HOME")
        .env_remove("XDG_STATE_HOME")
        .args(["run", "--confine", "--", "bash", "-c", &script])
        .output()
        .unwrap();
    let (so, se) = (stdout(&out), stderr(&out));
    assert!(so.contains("tool-exit=0"), "{so}\n{se}");
    assert!(
        se.contains("stayed writable (no mount namespace: LOOPGATE_NO_USERNS=1"),
        "{se}"
    );
    assert!(
        audit(&repo)
            .iter()
            .any(|l| l["tool"] == "Bash" && l["session"] == "agent-1"),
        "{se}"
    );
}

#[test]
fn without_a_mount_namespace_a_socket_inside_the_write_roots_is_refused() {
    let (repo, home) = setup();
    let out = repo
        .loopgate()
        .env("HOME", home.path())
        .env("LOOPGATE_NO_USERNS", "1")
        .env("LOOPGATE_STATE_HOME", repo.join("state"))
        .args(["run", "--confine", "--", "bash", "-c", "echo agent-ran"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("would be writable to the agent (no mount namespace")
            && stderr(&out).contains("set LOOPGATE_STATE_HOME outside the write roots"),
        "{}",
        stderr(&out)
    );
    assert!(!stdout(&out).contains("agent-ran"), "the agent never ran");
}
