//! `loopgate jail-shell` (hidden): runs one agent shell command under the session's jail.
//! The tool gate rewrites an allowed shell command into a call of this subcommand (see
//! `cmd::hook::rewrite`); it is not meant to be typed.
//!
//! The write roots come from the session's pin, never from this process's cwd or
//! arguments. This process confines itself (a private mount namespace with the referee's
//! files read-only, where one can be had, then Landlock: the pinned write roots, the
//! session's temp dir, the tool caches, the device files) and then becomes `bash -c
//! COMMAND` in the current directory: no extra process stays between the agent's shell and
//! the command, so stdio, signals and the exit code are the command's own. If any of that
//! cannot be set up, nothing runs: exit 126 with the reason on stderr.

use crate::cli::JailShellArgs;
use crate::cmd::hook::rewrite::quote;
use crate::cmd::jail_plan;
use crate::exit::Exit;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// The exit code of a command the jail refused to start (the shell's "cannot execute").
pub const REFUSED: u8 = 126;
/// The variable naming the file the inner shell writes its final directory to.
const CWD_OUT_ENV: &str = "LOOPGATE_JAIL_CWD_OUT";

pub fn run(dir: &Path, args: &JailShellArgs) -> anyhow::Result<Exit> {
    // Only returns when the command could not be started.
    let why = start(dir, args);
    eprintln!(
        "loopgate: this command was not run: it could not be confined ({why}). Nothing was executed; fix the cause or ask the user to run it."
    );
    std::process::exit(i32::from(REFUSED));
}

fn start(dir: &Path, args: &JailShellArgs) -> String {
    let plan = match jail_plan::for_session(&args.agent, &args.session, !args.no_mounts) {
        Ok(plan) => plan,
        Err(why) => return why,
    };
    let prepared = match sandbox::prepare(&plan.confine) {
        Ok(p) => p,
        Err(e) => return e.to_string(),
    };
    if prepared.enforcement() == sandbox::Enforcement::NotEnforced {
        return format!(
            "Landlock is not available: {}",
            prepared.report().reason.clone().unwrap_or_default()
        );
    }
    let mut cmd = match &args.command {
        Some(command) => shell(command, cwd_out(args.cwd_file.as_deref(), &plan.tmp)),
        None => program(dir, &args.words),
    };
    cmd.current_dir(dir).env("TMPDIR", &plan.tmp);
    let mut namespaced = false;
    if let Some(mount_plan) = &plan.mounts {
        let mounts = match sandbox::mounts::prepare(mount_plan) {
            Ok(m) => m,
            Err(e) => return format!("cannot plan the read-only mounts: {e}"),
        };
        namespaced = !mounts.is_empty();
        sandbox::mounts::apply(&mut cmd, Arc::new(mounts));
    }
    sandbox::apply(&mut cmd, &prepared);
    if namespaced {
        // The agent's shell waits for this command on every call: the namespace's
        // teardown is left to a holder, after that wait.
        sandbox::mounts::hand_off_teardown(&mut cmd);
    }
    // `exec` only returns on failure: of a set-up step (the reason was also written to
    // stderr by the step) or of finding bash.
    let err = cmd.exec();
    match err.kind() {
        std::io::ErrorKind::NotFound => "bash was not found on PATH".to_string(),
        _ => format!("the jail could not be entered: {err}"),
    }
}

/// `bash -c COMMAND`, leaving its final directory in `out` when there is one.
fn shell(command: &str, out: Option<PathBuf>) -> Command {
    let mut cmd = Command::new(find_on_path("bash").unwrap_or_else(|| PathBuf::from("bash")));
    match out {
        Some(out) => {
            // A stale answer of an earlier command (a reused pid) must not be read back.
            let _ = std::fs::remove_file(&out);
            cmd.arg("-c")
                .arg(format!(
                    "trap 'builtin pwd -P >| \"${CWD_OUT_ENV}\" 2>/dev/null' EXIT\n{command}"
                ))
                .env(CWD_OUT_ENV, out);
        }
        None => {
            cmd.arg("-c").arg(command);
        }
    }
    cmd
}

/// A plain program call (`policy::plain_command`): the program itself, as `bash -c` would
/// `exec` it, when it is an executable file that starts as a program does. Anything else
/// goes to bash for bash's own answer: not found (127), not executable (126), a script
/// without `#!`, a function the outer shell exported under that name.
fn program(dir: &Path, words: &[String]) -> Command {
    let name = words.first().map(String::as_str).unwrap_or_default();
    match direct(dir, name) {
        Some(path) => {
            let mut cmd = Command::new(path);
            cmd.arg0(name).args(&words[1..]);
            cmd
        }
        None => {
            let line: Vec<String> = words.iter().map(|w| quote(w)).collect();
            shell(&line.join(" "), None)
        }
    }
}

fn direct(dir: &Path, name: &str) -> Option<PathBuf> {
    if name.is_empty() || std::env::var_os(format!("BASH_FUNC_{name}%%")).is_some() {
        return None;
    }
    // A path is executed as written, as bash does: a `#!` interpreter gets it as `$0`.
    let (run, file) = if name.contains('/') {
        (PathBuf::from(name), dir.join(name))
    } else {
        let found = find_on_path(name)?;
        (found.clone(), found)
    };
    if !executable_file(&file) {
        return None;
    }
    let mut head = [0u8; 4];
    let n = std::fs::File::open(&file)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .ok()?;
    (head[..n] == *b"\x7fELF" || head[..n].starts_with(b"#!")).then_some(run)
}

/// The first executable file named `name` in PATH's directories (an empty entry is the
/// current directory), as bash's search finds it, looked up with `stat` rather than by
/// trying `execve` in each directory (which is what a bare name costs once confined).
fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| {
            if d.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                d
            }
            .join(name)
        })
        .find(|p| executable_file(p))
}

fn executable_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The hand-back file for the final directory, only inside the session's temp dir (the one
/// place both the jailed shell may write and the agent's shell reads back).
fn cwd_out(asked: Option<&Path>, tmp: &Path) -> Option<PathBuf> {
    let asked = asked?;
    let name = asked.file_name()?.to_str()?;
    (asked.parent() == Some(tmp) && name.starts_with("cwd.")).then(|| tmp.join(name))
}
