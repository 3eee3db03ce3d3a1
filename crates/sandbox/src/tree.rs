//! A command owns its whole process tree: when it ends (exit or stop) and when loopgate
//! dies (even by SIGKILL), nothing it started survives: setsid daemons, double forks and
//! processes that ignore SIGTERM included.
//!
//! Between fork and exec, the child becomes a *keeper* that forks the real command and
//! waits for it (see `keeper.rs`). Two kernel mechanisms, the strongest available:
//!
//! - `pid-namespace`: the command runs in a new PID namespace (and a mount namespace with
//!   its own `/proc`, so `getpid()` and `/proc` agree) whose init is a keeper. When init
//!   exits, the kernel kills every process in the namespace; a process inside cannot
//!   leave it, cannot see the keepers and cannot kill init. Needs `CAP_SYS_ADMIN` (root).
//! - `subreaper`: the keeper is a child subreaper, so orphans of the command reparent to
//!   it instead of escaping to init; when the command ends it kills its children until
//!   none is left. Works for every user, but the command can see and kill its keeper
//!   (same uid), after which what it left behind escapes.
//! - `process-group`: no keeper; only the command's process group is signalled (a setsid
//!   daemon escapes). Used where neither of the above is available.
//!
//! In both keeper modes the keeper has a parent-death signal, so it stops the tree when
//! loopgate dies for any reason; SIGTERM to the keeper (from loopgate's timeout) means
//! "stop": SIGTERM to the tree, then SIGKILL after a grace period.

use serde::{Deserialize, Serialize};
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// `process-group` or `subreaper` lowers the containment (for tests and for a user who
/// needs the old behaviour); it never raises it above what the kernel allows.
pub const CONTAINMENT_ENV: &str = "LOOPGATE_CONTAINMENT";

/// How a command's process tree is held, strongest first. Recorded in receipts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Containment {
    ProcessGroup,
    Subreaper,
    PidNamespace,
}

impl Containment {
    pub fn as_str(self) -> &'static str {
        match self {
            Containment::PidNamespace => "pid-namespace",
            Containment::Subreaper => "subreaper",
            Containment::ProcessGroup => "process-group",
        }
    }

    /// Whether the tree dies with loopgate even when loopgate is killed with SIGKILL.
    pub fn survives_loopgate_kill(self) -> bool {
        self != Containment::ProcessGroup
    }
}

impl std::fmt::Display for Containment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The containment this process will use: the kernel's best, lowered by
/// [`CONTAINMENT_ENV`]. Probed once per process.
pub fn best() -> Containment {
    static PROBED: OnceLock<Containment> = OnceLock::new();
    let probed = *PROBED.get_or_init(probe);
    let wanted = match std::env::var(CONTAINMENT_ENV).as_deref() {
        Ok("process-group") => Containment::ProcessGroup,
        Ok("subreaper") => Containment::Subreaper,
        _ => Containment::PidNamespace,
    };
    probed.min(wanted)
}

fn probe() -> Containment {
    if crate::keeper::pid_namespace_works() {
        return Containment::PidNamespace;
    }
    // The subreaper keeper finds its children through this file (CONFIG_PROC_CHILDREN).
    if std::path::Path::new("/proc/thread-self/children").exists() {
        return Containment::Subreaper;
    }
    Containment::ProcessGroup
}

/// Make `cmd` start under `containment`. Call it before any other `pre_exec` hook (the
/// Landlock one in particular): hooks added later run only in the real command, so the
/// keepers stay unconfined and can set up the namespaces. `grace` is how long a stop
/// waits between SIGTERM and SIGKILL.
///
/// With a keeper, `Child::id()` is the keeper's pid: send it SIGTERM to stop the tree
/// (never SIGKILL in `subreaper` mode, which would orphan the tree). Its exit status is
/// the command's, a signal death included.
pub fn own(cmd: &mut Command, containment: Containment, grace: Duration) {
    if containment == Containment::ProcessGroup {
        return;
    }
    let parent = std::process::id() as libc::pid_t;
    let grace_ms = grace.as_millis().min(i64::MAX as u128) as i64;
    // SAFETY: the hook runs between fork and exec; keeper code only makes raw syscalls on
    // stack buffers (no allocation, no locks), see keeper.rs.
    unsafe {
        cmd.pre_exec(move || match containment {
            Containment::PidNamespace => crate::keeper::enter_pid_namespace(parent, grace_ms),
            Containment::Subreaper => crate::keeper::enter_subreaper(parent, grace_ms),
            Containment::ProcessGroup => Ok(()),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn names_are_stable_and_ordered() {
        assert_eq!(
            serde_json::to_string(&Containment::PidNamespace).unwrap(),
            "\"pid-namespace\""
        );
        assert_eq!(Containment::Subreaper.to_string(), "subreaper");
        assert!(Containment::PidNamespace > Containment::Subreaper);
        assert!(Containment::Subreaper > Containment::ProcessGroup);
        assert!(!Containment::ProcessGroup.survives_loopgate_kill());
    }

    fn run(containment: Containment, script: &str) -> std::process::ExitStatus {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        own(&mut cmd, containment, Duration::from_millis(500));
        cmd.status().unwrap()
    }

    #[test]
    fn exit_codes_and_signals_pass_through_the_keepers() {
        for mode in [Containment::Subreaper, best()] {
            assert_eq!(run(mode, "exit 7").code(), Some(7), "{mode}");
            assert_eq!(run(mode, "kill -TERM $$").signal(), Some(15), "{mode}");
        }
    }

    #[test]
    fn a_missing_program_is_still_a_spawn_error() {
        for mode in [Containment::Subreaper, best()] {
            let mut cmd = Command::new("/nonexistent/loopgate-prog");
            own(&mut cmd, mode, Duration::from_millis(500));
            let err = cmd.spawn().unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::NotFound, "{mode}");
        }
    }

    /// The daemon holds the command's stdout; EOF comes only once it is dead.
    fn daemon_dies_with(containment: Containment) -> bool {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "setsid sh -c 'trap \"\" TERM; sleep 30' & exit 0"])
            .stdout(std::process::Stdio::piped());
        own(&mut cmd, containment, Duration::from_millis(500));
        let mut child = cmd.spawn().unwrap();
        let mut out = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = std::io::Read::read_to_end(&mut out, &mut sink);
            let _ = tx.send(());
        });
        assert!(child.wait().unwrap().success());
        rx.recv_timeout(Duration::from_secs(10)).is_ok()
    }

    #[test]
    fn a_setsid_daemon_dies_when_the_command_exits() {
        assert!(daemon_dies_with(Containment::Subreaper));
        assert!(daemon_dies_with(best()));
    }
}
