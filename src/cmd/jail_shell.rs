//! `loopgate jail-shell` (hidden): runs one agent shell command under the session's jail.
//! The tool gate rewrites an allowed shell command into a call of this subcommand (see
//! `cmd::hook::rewrite`); it is not meant to be typed.
//!
//! The write roots come from the session's pin, never from this process's cwd or
//! arguments; the command runs as `bash -c` in the current directory with stdio inherited,
//! under Landlock (the pinned write roots, the session's temp dir, the device files) and,
//! where a mount namespace can be had, with the referee's files read-only. If any of that
//! cannot be set up, nothing runs: exit 126 with the reason on stderr.

use crate::cli::JailShellArgs;
use crate::exit::Exit;
use sandbox::jail_files::{hand_back_cwd, session_tmp};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

/// The exit code of a command the jail refused to start (the shell's "cannot execute").
pub const REFUSED: u8 = 126;
/// The variable naming the file the inner shell writes its final directory to.
const CWD_OUT_ENV: &str = "LOOPGATE_JAIL_CWD_OUT";

pub fn run(dir: &Path, args: &JailShellArgs) -> anyhow::Result<Exit> {
    if let Some(out) = &args.cwd_file {
        if let Some(dir) = out.parent() {
            sandbox::jail_files::prune_hand_backs(dir);
        }
        // A stale answer from an earlier command of a reused pid must not be read back.
        let _ = std::fs::remove_file(out);
    }
    let finished = match start(dir, args) {
        Ok(f) => f,
        Err(why) => {
            eprintln!(
                "loopgate: this command was not run: it could not be confined ({why}). Nothing was executed; fix the cause or ask the user to run it."
            );
            std::process::exit(i32::from(REFUSED));
        }
    };
    std::process::exit(i32::from(finished))
}

fn start(dir: &Path, args: &JailShellArgs) -> Result<u8, String> {
    let pin = gate::pin::load(&args.agent, &args.session)
        .map_err(|e| format!("{e:#}"))?
        .ok_or_else(|| format!("no pinned session `{}` for {}", args.session, args.agent))?;
    let tmp = session_tmp(&args.agent, &args.session)?;
    // The same tool caches a confined check may write (dependency downloads), when they
    // exist: `npm install` and `cargo build` work unchanged, at the price that a jailed
    // command can poison them (docs/threat-model.md).
    let mut extra = vec![tmp.clone()];
    if let Some(home) = gate::roots::home() {
        extra.extend(
            gate::escape::TOOL_CACHES
                .iter()
                .map(|c| home.join(c))
                .filter(|p| p.exists()),
        );
    }
    let plan = sandbox::ConfinePlan {
        write_roots: pin.write_roots.clone(),
        extra_writable: extra,
        private_tmp: false,
    };
    let prepared = sandbox::prepare(&plan).map_err(|e| e.to_string())?;
    if prepared.enforcement() == sandbox::Enforcement::NotEnforced {
        return Err(format!(
            "Landlock is not available: {}",
            prepared.report().reason.clone().unwrap_or_default()
        ));
    }
    let cwd_inner = tmp.join(format!("cwd.{}", std::process::id()));
    let _ = std::fs::remove_file(&cwd_inner);
    let mut cmd = Command::new("bash");
    cmd.arg("-c")
        .arg(format!(
            "trap 'builtin pwd -P >| \"${CWD_OUT_ENV}\" 2>/dev/null' EXIT\n{}",
            args.command
        ))
        .current_dir(dir)
        .env("TMPDIR", &tmp)
        .env(CWD_OUT_ENV, &cwd_inner);
    if !args.no_mounts {
        let mut writable = plan.write_roots.clone();
        writable.extend(plan.extra_writable.iter().cloned());
        let mut read_only = sandbox::mounts::referee_paths(&pin.root);
        if let Some(state) = state::user_state_dir() {
            read_only.push(state);
        }
        let mounts = sandbox::mounts::prepare(&sandbox::mounts::MountPlan {
            read_only,
            writable,
        })
        .map_err(|e| format!("cannot plan the read-only mounts: {e}"))?;
        sandbox::mounts::apply(&mut cmd, Arc::new(mounts));
    }
    sandbox::apply(&mut cmd, &prepared);
    let finished = sandbox::process::run_foreground(&mut cmd).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "bash was not found on PATH".to_string(),
        _ => format!("the jail could not be entered: {e}"),
    })?;
    if let Some(out) = &args.cwd_file {
        hand_back_cwd(&cwd_inner, out);
    }
    let _ = std::fs::remove_file(&cwd_inner);
    Ok(finished.code)
}
