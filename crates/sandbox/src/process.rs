//! Run one child in the foreground and report how it ended, in the shell's terms.

use serde::Serialize;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Finished {
    /// The exit code, or 128 + the signal number for a signal death (as a shell reports it).
    pub code: u8,
    pub signal: Option<i32>,
    #[serde(serialize_with = "millis")]
    pub duration: Duration,
}

/// The shell's exit code for a finished child.
pub fn shell_code(status: ExitStatus) -> (u8, Option<i32>) {
    if let Some(code) = status.code() {
        return ((code & 0xff) as u8, None);
    }
    match status.signal() {
        Some(sig) => ((128 + sig).clamp(0, 255) as u8, Some(sig)),
        None => (255, None),
    }
}

/// Spawn `cmd` (stdio inherited unless the caller set it) and wait for it. While the child
/// runs, SIGINT and SIGQUIT from the terminal reach it and are ignored here, so the child
/// decides how to end and its exit code is what we report.
pub fn run_foreground(cmd: &mut Command) -> std::io::Result<Finished> {
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let _ignore = IgnoreTerminalSignals::new();
    let status = child.wait()?;
    let (code, signal) = shell_code(status);
    Ok(Finished {
        code,
        signal,
        duration: start.elapsed(),
    })
}

/// Make a write past `RLIMIT_FSIZE` fail with `EFBIG` instead of killing the process, as
/// SIGXFSZ does by default: a hook killed mid-decision is an answer the agent treats as
/// "proceed", while a failed state or audit write is reported and the decision stands.
/// A do-nothing handler rather than SIG_IGN, so every child (checks, agents) starts with
/// the default disposition again at exec.
pub fn survive_file_size_limit() {
    extern "C" fn ignore(_: libc::c_int) {}
    // SAFETY: the handler does nothing, so it is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGXFSZ, ignore as *const () as libc::sighandler_t);
    }
}

/// [`run_foreground`] for a command prepared by [`crate::tree::own`]: the command owns its
/// process tree. Returns how it ended and the containment that held it.
pub fn run_owned(
    cmd: Command,
    ownership: crate::tree::Ownership,
) -> std::io::Result<(Finished, crate::tree::Containment)> {
    let start = Instant::now();
    let owned = crate::tree::spawn(cmd, ownership)?;
    let _ignore = IgnoreTerminalSignals::new();
    let status = owned.wait()?;
    let (code, signal) = shell_code(status);
    Ok((
        Finished {
            code,
            signal,
            duration: start.elapsed(),
        },
        owned.containment(),
    ))
}

struct IgnoreTerminalSignals {
    old_int: libc::sighandler_t,
    old_quit: libc::sighandler_t,
}

impl IgnoreTerminalSignals {
    fn new() -> Self {
        // SAFETY: installing SIG_IGN has no handler code to be unsafe about.
        unsafe {
            IgnoreTerminalSignals {
                old_int: libc::signal(libc::SIGINT, libc::SIG_IGN),
                old_quit: libc::signal(libc::SIGQUIT, libc::SIG_IGN),
            }
        }
    }
}

impl Drop for IgnoreTerminalSignals {
    fn drop(&mut self) {
        // SAFETY: restores the dispositions returned by `signal` above.
        unsafe {
            libc::signal(libc::SIGINT, self.old_int);
            libc::signal(libc::SIGQUIT, self.old_quit);
        }
    }
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_and_signals_map_like_a_shell() {
        let f = run_foreground(Command::new("sh").args(["-c", "exit 7"])).unwrap();
        assert_eq!((f.code, f.signal), (7, None));
        let f = run_foreground(Command::new("sh").args(["-c", "kill -TERM $$"])).unwrap();
        assert_eq!((f.code, f.signal), (143, Some(15)));
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let e = run_foreground(&mut Command::new("/nonexistent/loopgate-prog")).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    }
}
