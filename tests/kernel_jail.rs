//! The kernel is the boundary (issue 9): a shell command the tool gate allows is rewritten to
//! run under `loopgate jail-shell`, and run that way it keeps the agent's shell semantics
//! (output, exit code, stdin, the cwd carried across calls, background jobs) while writes
//! outside the pinned write roots and to the referee's files fail.

mod support;

use std::path::Path;
use support::jail::Sandbox;

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

#[test]
fn an_allowed_command_is_rewritten_and_a_piped_shell_cannot_write_home() {
    let sb = Sandbox::new(None);
    // A script the agent wrote earlier (the Write tool allows it, inside the repository):
    // static analysis cannot see what it does when it runs; the kernel can.
    std::fs::write(sb.repo.join("s.sh"), "echo pwned >> ~/.bashrc\n").unwrap();
    let ran = sb.attempt("bash ./s.sh; echo after=$?");
    assert_eq!(ran.decision, "allow", "{}", ran.explain());
    let rewritten = ran.answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap();
    assert!(
        rewritten.contains(" jail-shell --agent claude --session 'redteam-session'"),
        "{rewritten}"
    );
    assert_eq!(
        ran.answer["hookSpecificOutput"]["updatedInput"]["description"], "run",
        "the other fields of the tool input are kept"
    );
    assert_eq!(
        read(&sb.home.join(".bashrc")),
        "# the user's shell\n",
        "{}",
        ran.explain()
    );
    assert!(
        ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
    assert!(ran.stdout.contains("after=1"), "{}", ran.explain());
    let audit = read(&sb.repo.join(".loopgate/audit.ndjson"));
    let last: serde_json::Value = serde_json::from_str(audit.lines().last().unwrap()).unwrap();
    assert_eq!(last["extra"]["confinement"]["mode"], "jail", "{last}");
    assert_eq!(last["extra"]["confinement"]["runner"], "builtin", "{last}");
    assert!(
        last["extra"]["confinement"]["level"]
            .as_str()
            .unwrap()
            .contains("read-only mounts"),
        "{last}"
    );
}

#[test]
fn output_exit_code_stdin_and_the_cwd_carry_over_as_unconfined() {
    let sb = Sandbox::new(None);
    let ran = sb.attempt_in(
        "mkdir -p sub/dir && cd sub/dir && echo out; echo err >&2; read -r line; echo got=$line; exit 7",
        &sb.repo,
        Some("hello\n"),
    );
    assert!(
        ran.answer["hookSpecificOutput"]["updatedInput"]["command"]
            .as_str()
            .is_some_and(|c| c.contains(" jail-shell ")),
        "the command ran jailed: {}",
        ran.explain()
    );
    assert_eq!(ran.code, Some(7), "{}", ran.explain());
    assert_eq!(ran.stdout, "out\ngot=hello\n", "{}", ran.explain());
    assert!(ran.stderr.starts_with("err\n"), "{}", ran.explain());
    assert_eq!(sb.last_cwd(), sb.repo.join("sub/dir"), "{}", ran.explain());
    // The next call starts where the last one ended, as Claude Code does.
    let next = sb.attempt_in("pwd; touch made-here", &sb.last_cwd(), None);
    assert_eq!(next.code, Some(0), "{}", next.explain());
    assert!(sb.repo.join("sub/dir/made-here").exists());
}

#[test]
fn a_background_job_keeps_running_jailed_after_the_command_returns() {
    let sb = Sandbox::new(None);
    std::fs::write(
        sb.repo.join("bg.sh"),
        "sleep 1; echo late > bg-done.txt; (echo x >> ~/.bashrc) 2>/dev/null || echo denied > bg-denied.txt\n",
    )
    .unwrap();
    let ran = sb.attempt("bash bg.sh >/dev/null 2>&1 & echo started");
    assert_eq!(ran.code, Some(0), "{}", ran.explain());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !sb.repo.join("bg-denied.txt").exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(read(&sb.repo.join("bg-done.txt")), "late\n");
    assert_eq!(read(&sb.repo.join("bg-denied.txt")), "denied\n");
    assert_eq!(read(&sb.home.join(".bashrc")), "# the user's shell\n");
}

/// A plain program call skips the second shell: the jail `exec`s the program itself, so the
/// program's parent is the agent's own shell. It is still confined, and keeps its words,
/// `argv[0]` as typed, output and exit code.
#[test]
fn a_plain_program_call_is_run_by_the_jail_itself_and_stays_confined() {
    let sb = Sandbox::new(None);
    let script = sb.repo.join("w.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho \"argv0=$0 args=$1|$2\"\ntr '\\0' ' ' < /proc/$PPID/cmdline; echo\necho x >> \"$HOME/.bashrc\"\nexit 3\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ran = sb.attempt("./w.sh 'a b' c");
    assert_eq!(ran.decision, "allow", "{}", ran.explain());
    let rewritten = ran.answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap();
    assert!(
        rewritten.contains(
            " jail-shell --agent claude --session 'redteam-session' -- './w.sh' 'a b' 'c'\n"
        ) && rewritten.ends_with("; './w.sh' 'a b' 'c' )")
            && !rewritten.contains(" -c "),
        "{rewritten}"
    );
    assert_eq!(ran.code, Some(3), "{}", ran.explain());
    let mut lines = ran.stdout.lines();
    assert_eq!(
        lines.next(),
        Some("argv0=./w.sh args=a b|c"),
        "{}",
        ran.explain()
    );
    let parent = lines.next().unwrap_or_default();
    assert!(
        parent.contains("eval") && !parent.contains("trap"),
        "the program's parent is the agent's shell, not a second bash: {parent}"
    );
    assert!(
        ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
    assert_eq!(read(&sb.home.join(".bashrc")), "# the user's shell\n");
}

/// What only bash can answer still gets bash's answer: a program that is not there, and a
/// script without `#!` (bash runs it itself).
#[test]
fn a_plain_call_bash_must_answer_is_left_to_bash() {
    let sb = Sandbox::new(None);
    let missing = sb.attempt("no-such-program-here x");
    assert_eq!(missing.code, Some(127), "{}", missing.explain());
    assert!(
        missing
            .stderr
            .contains("no-such-program-here: command not found"),
        "{}",
        missing.explain()
    );
    let script = sb.repo.join("plain.sh");
    std::fs::write(&script, "echo ran-by-bash \"$1\"\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let ran = sb.attempt("./plain.sh ok");
    assert_eq!(ran.code, Some(0), "{}", ran.explain());
    assert_eq!(ran.stdout, "ran-by-bash ok\n", "{}", ran.explain());
}

/// Written by the agent, then run: a shell vetter sees only `python3 probe.py`.
const PROBE: &str = "import os
for path, text in [('loopgate.toml', '[gate]\\n'), ('.git/config', '[core]\\n'),
                   ('.git/hooks/pre-commit', 'rm -rf ~\\n'), ('.claude/settings.json', '{}'),
                   ('.loopgate/ledger.json', '{}')]:
    try:
        open(path, 'w').write(text); print('WROTE', path)
    except OSError as e:
        print('refused', path, e.strerror)
for src in ['.git', '.loopgate', '.claude']:
    try:
        os.rename(src, src + '.moved'); print('MOVED', src)
    except OSError as e:
        print('refused', src, e.strerror)
";

#[test]
fn the_referees_files_are_read_only_to_a_jailed_command() {
    let sb = Sandbox::new(Some("version = 1\n"));
    let before = sb.guarded();
    std::fs::write(sb.repo.join("probe.py"), PROBE).unwrap();
    let ran = sb.attempt("python3 probe.py");
    assert_eq!(ran.code, Some(0), "{}", ran.explain());
    assert!(
        !ran.stdout.contains("WROTE") && !ran.stdout.contains("MOVED"),
        "{}",
        ran.explain()
    );
    assert!(
        ran.stdout.contains("Read-only file system"),
        "{}",
        ran.explain()
    );
    assert_eq!(before, sb.guarded(), "{}", ran.explain());
    // Ordinary work in the same repository still goes through.
    let ok = sb.attempt("echo more >> README.md && git add README.md && git commit -qm more && git log --oneline | wc -l");
    assert_eq!(ok.code, Some(0), "{}", ok.explain());
    assert_eq!(ok.stdout.trim(), "2", "{}", ok.explain());
}

/// The agent's cwd carries over between calls: after `cd .git/hooks`, the next jailed
/// command starts in a directory that was entered before the read-only binds were made.
/// Relative paths from there must still meet the binds, not the mount beneath them.
#[test]
fn a_command_starting_inside_a_protected_directory_cannot_write_around_the_binds() {
    let sb = Sandbox::new(Some("version = 1\n"));
    std::fs::write(
        sb.repo.join("w.sh"),
        "echo x >> pre-commit; echo '[x]' >> ../config; echo y >> ../../loopgate.toml\n",
    )
    .unwrap();
    let before = sb.guarded();
    let ran = sb.attempt_in("sh ../../w.sh", &sb.repo.join(".git/hooks"), None);
    assert_eq!(ran.decision, "allow", "{}", ran.explain());
    assert_eq!(
        ran.stderr.matches("Read-only file system").count(),
        3,
        "{}",
        ran.explain()
    );
    assert_eq!(before, sb.guarded(), "{}", ran.explain());
}

#[test]
fn without_landlock_nothing_is_rewritten_and_the_audit_and_context_say_so() {
    let sb = Sandbox::with_env(None, &[("LOOPGATE_NO_LANDLOCK", "1")]);
    let ran = sb.attempt("echo hi");
    assert_eq!(ran.decision, "none", "{}", ran.explain());
    assert_eq!(ran.stdout, "hi\n");
    let audit = read(&sb.repo.join(".loopgate/audit.ndjson"));
    let last: serde_json::Value = serde_json::from_str(audit.lines().last().unwrap()).unwrap();
    assert_eq!(last["extra"]["confinement"]["mode"], "unconfined", "{last}");
    assert!(
        last["extra"]["confinement"]["why"]
            .as_str()
            .unwrap()
            .contains("LOOPGATE_NO_LANDLOCK=1"),
        "{last}"
    );
    let start = sb.hook(serde_json::json!({"hook_event_name": "SessionStart"}));
    let text = start.json()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("not confined by the kernel"), "{text}");
}

#[test]
fn confine_off_leaves_commands_alone() {
    let sb = Sandbox::new(Some("version = 1\n[sandbox]\nconfine = \"off\"\n"));
    let ran = sb.attempt("echo hi");
    assert_eq!(ran.decision, "none", "{}", ran.explain());
    let audit = read(&sb.repo.join(".loopgate/audit.ndjson"));
    assert!(audit.contains("[sandbox] confine = \\\"off\\\""), "{audit}");
}

#[test]
fn confine_required_without_landlock_refuses_shell_commands_with_the_reason() {
    let sb = Sandbox::with_env(
        Some("version = 1\n[sandbox]\nconfine = \"required\"\n"),
        &[("LOOPGATE_NO_LANDLOCK", "1")],
    );
    let ran = sb.attempt("echo hi");
    assert_eq!(ran.decision, "deny", "{}", ran.explain());
    let reason = ran.answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("sandbox.unavailable")
            && reason.contains("required")
            && reason.contains("Landlock"),
        "{reason}"
    );
}

#[test]
fn without_user_namespaces_the_jail_is_landlock_only_and_says_so() {
    let sb = Sandbox::with_env(None, &[("LOOPGATE_NO_USERNS", "1")]);
    std::fs::write(
        sb.repo.join("w.sh"),
        "echo x >> ~/.bashrc; echo '[x]' >> .git/config\n",
    )
    .unwrap();
    let ran = sb.attempt("sh w.sh");
    assert_eq!(ran.decision, "allow", "{}", ran.explain());
    let rewritten = ran.answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap();
    assert!(rewritten.contains("--no-mounts"), "{rewritten}");
    assert_eq!(read(&sb.home.join(".bashrc")), "# the user's shell\n");
    // Landlock alone cannot keep .git/config: that is left to detection.
    assert!(
        read(&sb.repo.join(".git/config")).contains("[x]"),
        "{}",
        ran.explain()
    );
    let reason = ran.answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("landlock ABI") && reason.contains("only"),
        "{reason}"
    );
}

/// The path of the builtin's library named in a rewritten command.
fn library_of(rewritten: &str) -> std::path::PathBuf {
    let start = rewritten
        .find("enable -f '")
        .expect("the builtin is loaded")
        + "enable -f '".len();
    let len = rewritten[start..].find('\'').unwrap();
    std::path::PathBuf::from(&rewritten[start..start + len])
}

#[test]
fn a_command_that_cannot_be_confined_at_run_time_never_runs() {
    let sb = Sandbox::new(None);
    let ran = sb.attempt("touch should-not-exist");
    let genuine = ran.answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap()
        .to_string();
    // The first, genuine attempt did run.
    assert!(
        sb.repo.join("should-not-exist").exists(),
        "{}",
        ran.explain()
    );
    std::fs::remove_file(sb.repo.join("should-not-exist")).unwrap();
    // A step of the planned jail fails (a writable path is gone by the time it runs): the
    // builtin names the step and the shell never reaches the command.
    let repo = std::fs::canonicalize(&sb.repo).unwrap();
    let step = format!("'rw=65522:{}'", repo.display());
    assert!(genuine.contains(&step), "{genuine}");
    let broken = genuine.replace(&step, &format!("'rw=65522:{}/gone'", repo.display()));
    let out = sb.cmd("bash").args(["-c", &broken]).output().unwrap();
    assert_eq!(out.status.code(), Some(126));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("was not run")
            && stderr.contains("cannot open a writable path")
            && stderr.contains("/gone`"),
        "{stderr}"
    );
    assert!(!sb.repo.join("should-not-exist").exists());
    // A shell that cannot load the builtin gets `jail-shell`, which plans the jail from the
    // session's pin: a session with no pin runs nothing.
    let forged = genuine
        .replace(
            &library_of(&genuine).display().to_string(),
            "/nonexistent/lib.so",
        )
        .replace("'redteam-session'", "'no-such-session'");
    let out = sb.cmd("bash").args(["-c", &forged]).output().unwrap();
    assert_eq!(out.status.code(), Some(126));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("was not run") && stderr.contains("no pinned session `no-such-session`"),
        "{stderr}"
    );
    assert!(!sb.repo.join("should-not-exist").exists());
}

/// The jail is a builtin loaded into a subshell of the agent's own shell: the command runs
/// in that subshell (no second bash), with the shell's functions. Where the library cannot
/// be loaded, the same rewritten command runs under `jail-shell` and is confined alike.
#[test]
fn the_jail_is_a_builtin_of_the_agents_shell_and_jail_shell_its_fallback() {
    let sb = Sandbox::new(None);
    // Scripts, so that only the kernel can stop the writes (the static policy cannot see).
    std::fs::write(sb.repo.join("w.sh"), "echo x >> ~/.bashrc\n").unwrap();
    std::fs::write(sb.repo.join("swap.sh"), "cp /bin/true \"$1\"\n").unwrap();
    let ran = sb.attempt("type -t loopgate_jail; bash w.sh 2>/dev/null; echo denied=$?");
    let rewritten = ran.answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(rewritten.starts_with("__lg_c="), "{rewritten}");
    assert_eq!(ran.stdout, "builtin\ndenied=1\n", "{}", ran.explain());
    let library = library_of(&rewritten);
    let state = sb.home.join(".local/state/loopgate/lib");
    assert!(library.starts_with(&state), "{}", library.display());
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&state).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "the library's directory is private");
    // A jailed command cannot replace the library the next command loads.
    let swap = sb.attempt(&format!(
        "bash swap.sh '{}' 2>/dev/null; echo swapped=$?",
        library.display()
    ));
    assert!(swap.stdout.contains("swapped=1"), "{}", swap.explain());
    // Without the library (a shell that cannot load it), `jail-shell` confines instead.
    std::fs::remove_file(&library).unwrap();
    let out = sb
        .cmd("bash")
        .current_dir(&sb.repo)
        .args(["-c", &rewritten])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "denied=1\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read(&sb.home.join(".bashrc")), "# the user's shell\n");
}

#[test]
fn where_the_kernel_cannot_protect_git_hooks_and_config_the_stop_sees_their_edits() {
    let sb = Sandbox::with_env(None, &[("LOOPGATE_NO_USERNS", "1")]);
    std::fs::write(
        sb.repo.join("w.sh"),
        "echo '[core]' >> .git/config; printf '#!/bin/sh\\n' > .git/hooks/post-checkout; rm .git/hooks/pre-commit\n",
    )
    .unwrap();
    let ran = sb.attempt("sh w.sh");
    assert_eq!(ran.code, Some(0), "{}", ran.explain());
    let stop = sb.hook(serde_json::json!({"hook_event_name": "Stop", "stop_hook_active": false}));
    let answer = stop.json();
    assert_eq!(answer["decision"], "block", "{answer}");
    let reason = answer["reason"].as_str().unwrap();
    for needle in [
        "config_edits",
        ".git/config changed",
        ".git/hooks/post-checkout created",
        ".git/hooks/pre-commit deleted",
    ] {
        assert!(reason.contains(needle), "{needle} in: {reason}");
    }
}

#[test]
fn status_reports_each_missing_piece_and_the_level_reached() {
    let sb = Sandbox::new(None);
    let status = |env: &[(&str, &str)]| -> serde_json::Value {
        let mut c = sb.cmd(support::repo::LOOPGATE);
        c.args(["status", "--json"]);
        for (k, v) in env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["kernel"].clone()
    };
    let full = status(&[]);
    assert_eq!(full["landlock"]["available"], true, "{full}");
    assert_eq!(
        full["agents"]["claude"]["shell_commands"], "confined",
        "{full}"
    );
    assert!(full["agents"]["codex"]["why"]
        .as_str()
        .unwrap()
        .contains("loopgate run --confine -- codex"));
    let no_ns = status(&[("LOOPGATE_NO_USERNS", "1")]);
    assert_eq!(no_ns["mount_namespaces"]["available"], false, "{no_ns}");
    assert!(
        no_ns["agents"]["claude"]["level"]
            .as_str()
            .unwrap()
            .contains("only"),
        "{no_ns}"
    );
    let none = status(&[("LOOPGATE_NO_LANDLOCK", "1"), ("LOOPGATE_NO_USERNS", "1")]);
    assert_eq!(none["landlock"]["available"], false, "{none}");
    assert_eq!(
        none["agents"]["gemini"]["shell_commands"], "unconfined",
        "{none}"
    );
}

#[test]
fn deny_read_hides_keys_cloud_credentials_and_env_files_but_not_templates() {
    let sb = Sandbox::new(None);
    std::fs::write(sb.home.join(".ssh/id_ed25519"), "PRIVATE-KEY\n").unwrap();
    std::fs::create_dir_all(sb.home.join(".aws")).unwrap();
    std::fs::write(sb.home.join(".aws/credentials"), "AWS-SECRET\n").unwrap();
    std::fs::write(sb.repo.join(".env"), "TOKEN=dotenv-secret\n").unwrap();
    std::fs::write(sb.repo.join(".env.example"), "TOKEN=\n").unwrap();
    let ran = sb.attempt(
        "cat ~/.ssh/id_ed25519 ~/.aws/credentials .env 2>&1; cat .env.example ~/.ssh/config; echo done",
    );
    assert_eq!(ran.code, Some(0), "{}", ran.explain());
    for secret in ["PRIVATE-KEY", "AWS-SECRET", "dotenv-secret"] {
        assert!(
            !ran.stdout.contains(secret),
            "{secret} leaked: {}",
            ran.explain()
        );
    }
    assert!(
        ran.stdout.contains("TOKEN=\n") && ran.stdout.contains("Host x"),
        "{}",
        ran.explain()
    );
    // Outside the jail nothing changed.
    assert_eq!(read(&sb.repo.join(".env")), "TOKEN=dotenv-secret\n");
    assert_eq!(read(&sb.home.join(".ssh/id_ed25519")), "PRIVATE-KEY\n");
}

const NET_PROBE: &str = "import socket, sys
try:
    s = socket.socket(); s.settimeout(5); s.connect(('127.0.0.1', int(sys.argv[1]))); print('host-reached')
except OSError as e:
    print('host-unreachable', e.strerror)
try:
    srv = socket.socket(); srv.bind(('127.0.0.1', 0)); srv.listen(1)
    c = socket.socket(); c.settimeout(5); c.connect(srv.getsockname()); print('loopback-ok')
except OSError as e:
    print('loopback-failed', e.strerror)
";

fn net_probe(network: Option<&str>) -> String {
    let config = network.map(|n| format!("version = 1\n[sandbox]\nnetwork = \"{n}\"\n"));
    let sb = Sandbox::new(config.as_deref());
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::fs::write(sb.repo.join("net.py"), NET_PROBE).unwrap();
    let ran = sb.attempt(&format!("python3 net.py {port}"));
    assert_eq!(ran.code, Some(0), "{}", ran.explain());
    ran.stdout
}

#[test]
fn network_on_off_and_loopback() {
    let on = net_probe(None);
    assert!(
        on.contains("host-reached") && on.contains("loopback-ok"),
        "{on}"
    );
    let off = net_probe(Some("off"));
    assert!(
        off.contains("host-unreachable") && off.contains("loopback-failed"),
        "{off}"
    );
    let lo = net_probe(Some("loopback"));
    assert!(
        lo.contains("host-unreachable") && lo.contains("loopback-ok"),
        "{lo}"
    );
}

#[test]
fn network_off_without_namespaces_refuses_shell_commands() {
    let sb = Sandbox::with_env(
        Some("version = 1\n[sandbox]\nnetwork = \"off\"\n"),
        &[("LOOPGATE_NO_USERNS", "1")],
    );
    let ran = sb.attempt("echo hi");
    assert_eq!(ran.decision, "deny", "{}", ran.explain());
    let reason = ran.answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("network = \"off\" needs a network namespace"),
        "{reason}"
    );
}

#[test]
fn bad_deny_read_entries_are_config_errors_naming_the_key() {
    for (entry, needle) in [
        ("~", "hiding the whole home"),
        ("a/*/b", "may only appear in the last part"),
        ("", "empty entry"),
    ] {
        let sb = Sandbox::new(None);
        std::fs::write(
            sb.repo.join("loopgate.toml"),
            format!("version = 1\n[sandbox]\ndeny_read = [\"{entry}\"]\n"),
        )
        .unwrap();
        let out = sb
            .cmd(support::repo::LOOPGATE)
            .args(["status"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{entry}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("[sandbox] deny_read") && err.contains(needle),
            "{entry}: {err}"
        );
    }
}

#[test]
fn exec_confine_keeps_the_referees_files_read_only_too() {
    let sb = Sandbox::new(Some("version = 1\n"));
    let out = sb
        .cmd(support::repo::LOOPGATE)
        .args(["exec", "--confine", "--", "sh", "-c"])
        .arg("echo x >> loopgate.toml; echo y >> .git/hooks/pre-commit; echo ok >> README.md")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("read-only:"), "{stderr}");
    assert_eq!(
        stderr.matches("Read-only file system").count(),
        2,
        "{stderr}"
    );
    assert_eq!(read(&sb.repo.join("loopgate.toml")), "version = 1\n");
    assert_eq!(read(&sb.repo.join("README.md")), "demo\nok\n");
    assert_eq!(out.status.code(), Some(0));
}
