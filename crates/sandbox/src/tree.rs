//! A command owns its whole process tree: when it ends (exit or stop) and when loopgate
//! dies (even by SIGKILL), nothing it started survives: setsid daemons, double forks and
//! processes that ignore SIGTERM included.
//!
//! A dedicated spawner thread starts the command and waits for it; between fork and exec
//! the child becomes a *keeper* that forks the real command and holds its tree (see
//! `keeper.rs`). Two kernel mechanisms, the strongest available:
//!
//! - `pid-namespace`: the spawner thread enters a new PID namespace for its children
//!   (`unshare(CLONE_NEWPID)` affects only that thread), so the keeper is the namespace's
//!   init, in its own mount namespace with a private `/proc` (so `getpid()` and `/proc`
//!   agree). When init exits, the kernel kills every process in the namespace; a process
//!   inside cannot leave it and cannot kill init. Init dies with the spawner thread
//!   (parent-death signal SIGKILL), so even a SIGKILL of loopgate takes the tree down.
//!   Needs `CAP_SYS_ADMIN` (root, outside a seccomp filter that forbids `unshare`).
//! - `subreaper`: the keeper is a child subreaper, so orphans of the command reparent to
//!   it instead of escaping to init; when the command ends it kills its children until
//!   none is left, and loopgate's death (parent-death signal) is a stop request. Works for
//!   every user, but the command can see and kill its keeper (same uid), after which what
//!   it left behind escapes.
//! - `process-group`: no keeper; only the command's process group is signalled (a setsid
//!   daemon escapes, and nothing is stopped when loopgate is killed). Used only where
//!   neither of the above is available.
//!
//! SIGTERM to the keeper means "stop": SIGTERM to the whole tree, SIGKILL after a grace.

use serde::{Deserialize, Serialize};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{ChildStderr, ChildStdout, Command, ExitStatus};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How long a keeper may take past its grace before loopgate kills it outright.
const KEEPER_SLACK: Duration = Duration::from_secs(2);

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

/// The strongest containment to try: all of them, unless [`CONTAINMENT_ENV`] lowers it.
/// What is actually used depends on the kernel and privileges, decided at each spawn.
pub fn wanted() -> Containment {
    match std::env::var(CONTAINMENT_ENV).as_deref() {
        Ok("process-group") => Containment::ProcessGroup,
        Ok("subreaper") => Containment::Subreaper,
        _ => Containment::PidNamespace,
    }
}

/// The subreaper keeper finds its children through this file (CONFIG_PROC_CHILDREN).
fn subreaper_works() -> bool {
    std::path::Path::new("/proc/thread-self/children").exists()
}

/// A command prepared by [`own`], to be started by [`spawn`].
pub struct Ownership {
    wanted: Containment,
    grace: Duration,
    /// Held open by loopgate while the command runs; init checks it after its fork.
    life: Option<[OwnedFd; 2]>,
    /// Init writes the command's wait status here.
    status: Option<[OwnedFd; 2]>,
}

/// Install the keeper on `cmd`. Call it before any other `pre_exec` hook (the Landlock
/// one in particular): hooks added later run only in the real command, so the keeper stays
/// unconfined and can set up its namespace. `grace` is how long a stop waits between
/// SIGTERM and SIGKILL.
pub fn own(cmd: &mut Command, wanted: Containment, grace: Duration) -> io::Result<Ownership> {
    let subreaper = subreaper_works();
    let mut ownership = Ownership {
        wanted,
        grace,
        life: None,
        status: None,
    };
    if wanted == Containment::ProcessGroup {
        return Ok(ownership);
    }
    let (mut life_fd, mut status_fd) = ([-1, -1], -1);
    if wanted == Containment::PidNamespace {
        let life = crate::keeper::pipe()?;
        let status = crate::keeper::pipe()?;
        life_fd = [life[0].as_raw_fd(), life[1].as_raw_fd()];
        status_fd = status[1].as_raw_fd();
        ownership.life = Some(life);
        ownership.status = Some(status);
    }
    let parent = std::process::id() as libc::pid_t;
    let grace_ms = grace.as_millis().min(i64::MAX as u128) as i64;
    // SAFETY: the hook runs between fork and exec; keeper code only makes raw syscalls on
    // stack buffers (no allocation, no locks), see keeper.rs.
    unsafe {
        cmd.pre_exec(move || {
            // pid 1 only when the spawner thread's namespace was created for this child.
            if life_fd[0] >= 0 && libc::getpid() == 1 {
                crate::keeper::enter_as_init(life_fd, status_fd, grace_ms)
            } else if subreaper {
                crate::keeper::enter_subreaper(parent, grace_ms)
            } else {
                Ok(())
            }
        });
    }
    Ok(ownership)
}

/// A started command whose tree is held.
pub struct Owned {
    pid: u32,
    containment: Containment,
    grace: Duration,
    pub stdout: Option<ChildStdout>,
    pub stderr: Option<ChildStderr>,
    exited: mpsc::Receiver<io::Result<ExitStatus>>,
}

/// Start `cmd` from a spawner thread that lives until the command is reaped (a
/// parent-death signal fires when the parent *thread* ends).
pub fn spawn(mut cmd: Command, ownership: Ownership) -> io::Result<Owned> {
    let Ownership {
        wanted,
        grace,
        life,
        status,
    } = ownership;
    let (started_tx, started_rx) = mpsc::channel();
    let (exit_tx, exit_rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("loopgate-spawn".into())
        .spawn(move || {
            let containment = match wanted {
                // SAFETY: affects only the namespace of this thread's future children.
                Containment::PidNamespace if unsafe { libc::unshare(libc::CLONE_NEWPID) } == 0 => {
                    Containment::PidNamespace
                }
                Containment::PidNamespace | Containment::Subreaper if subreaper_works() => {
                    Containment::Subreaper
                }
                _ => Containment::ProcessGroup,
            };
            let mut child = match cmd.spawn() {
                Ok(child) => child,
                Err(e) => {
                    let _ = started_tx.send(Err(e));
                    return;
                }
            };
            let status_read = status.map(|[read, _write]| read);
            let life_write = life.map(|[_read, write]| write);
            let _ = started_tx.send(Ok((
                child.id(),
                containment,
                child.stdout.take(),
                child.stderr.take(),
            )));
            let result = child.wait().map(|st| match (&status_read, containment) {
                (Some(fd), Containment::PidNamespace) => read_status(fd).unwrap_or(st),
                _ => st,
            });
            drop(life_write);
            let _ = exit_tx.send(result);
        })?;
    match started_rx.recv() {
        Ok(Ok((pid, containment, stdout, stderr))) => Ok(Owned {
            pid,
            containment,
            grace,
            stdout,
            stderr,
            exited: exit_rx,
        }),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(io::Error::other("the spawner thread ended early")),
    }
}

/// The command's wait status as init reported it, if it did.
fn read_status(fd: &OwnedFd) -> Option<ExitStatus> {
    let mut raw = [0u8; 4];
    // SAFETY: non-blocking read into a local buffer; init wrote before exiting.
    let n = unsafe {
        libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK);
        libc::read(fd.as_raw_fd(), raw.as_mut_ptr().cast(), raw.len())
    };
    (n == 4).then(|| ExitStatus::from_raw(i32::from_ne_bytes(raw)))
}

impl Owned {
    /// The keeper's pid (the command's own with `process-group`).
    pub fn id(&self) -> u32 {
        self.pid
    }

    pub fn containment(&self) -> Containment {
        self.containment
    }

    /// The command's exit status, the same as if it had been run directly.
    pub fn wait(&self) -> io::Result<ExitStatus> {
        self.exited
            .recv()
            .unwrap_or_else(|_| Err(io::Error::other("the spawner thread ended early")))
    }

    /// Like [`Owned::wait`], or `None` once `limit` has passed.
    pub fn wait_timeout(&self, limit: Duration) -> Option<io::Result<ExitStatus>> {
        match self.exited.recv_timeout(limit) {
            Ok(result) => Some(result),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                Some(Err(io::Error::other("the spawner thread ended early")))
            }
        }
    }

    /// Stop the whole tree: SIGTERM, SIGKILL after the grace. With `process-group` the
    /// command must lead its own process group. Returns how it ended, if it did in time.
    pub fn stop(&self) -> Option<io::Result<ExitStatus>> {
        let pid = self.pid as libc::pid_t;
        // SAFETY: kill and killpg have no memory-safety preconditions; ESRCH is expected.
        unsafe {
            if self.containment == Containment::ProcessGroup {
                libc::killpg(pid, libc::SIGTERM);
                if let Some(r) = self.wait_timeout(self.grace) {
                    return Some(r);
                }
                libc::killpg(pid, libc::SIGKILL);
                return self.wait_timeout(self.grace);
            }
            // The keeper runs the TERM-then-KILL sequence over the whole tree.
            libc::kill(pid, libc::SIGTERM);
            if let Some(r) = self.wait_timeout(self.grace + KEEPER_SLACK) {
                return Some(r);
            }
            // A keeper that did not finish: kill it (init takes the namespace with it).
            libc::kill(pid, libc::SIGKILL);
            self.wait_timeout(self.grace)
        }
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

    /// Runs `cmd` under `wanted`; returns the containment used and the status.
    fn go(mut cmd: Command, wanted: Containment) -> (Containment, std::process::ExitStatus) {
        let ownership = own(&mut cmd, wanted, Duration::from_millis(500)).unwrap();
        let owned = spawn(cmd, ownership).unwrap();
        (owned.containment(), owned.wait().unwrap())
    }

    fn sh(script: &str) -> Command {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        cmd
    }

    fn root() -> bool {
        // SAFETY: geteuid has no preconditions.
        unsafe { libc::geteuid() == 0 }
    }

    #[test]
    fn root_gets_a_pid_namespace_with_its_own_proc() {
        let mut cmd = sh("echo $$; ls /proc | grep -c '^[0-9]'");
        cmd.stdout(std::process::Stdio::piped());
        let ownership = own(&mut cmd, Containment::PidNamespace, Duration::from_secs(1)).unwrap();
        let mut owned = spawn(cmd, ownership).unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut owned.stdout.take().unwrap(), &mut text).unwrap();
        assert!(owned.wait().unwrap().success());
        if root() {
            assert_eq!(owned.containment(), Containment::PidNamespace);
            // The command is pid 2 (init is its keeper) and sees only its namespace.
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines[0], "2", "{text}");
            assert!(lines[1].parse::<u32>().unwrap() <= 4, "{text}");
        } else {
            assert_eq!(owned.containment(), Containment::Subreaper);
        }
    }

    #[test]
    fn exit_codes_and_signals_pass_through_the_keepers() {
        for mode in [Containment::Subreaper, Containment::PidNamespace] {
            assert_eq!(go(sh("exit 7"), mode).1.code(), Some(7), "{mode}");
            assert_eq!(go(sh("kill -TERM $$"), mode).1.signal(), Some(15), "{mode}");
        }
    }

    #[test]
    fn a_missing_program_is_still_a_spawn_error() {
        for mode in [Containment::Subreaper, Containment::PidNamespace] {
            let mut cmd = Command::new("/nonexistent/loopgate-prog");
            let ownership = own(&mut cmd, mode, Duration::from_millis(500)).unwrap();
            let err = spawn(cmd, ownership).err().unwrap();
            assert_eq!(err.kind(), std::io::ErrorKind::NotFound, "{mode}");
        }
    }

    /// The daemon holds the command's stdout; EOF comes only once it is dead.
    fn daemon_dies_with(containment: Containment) -> bool {
        let mut cmd = sh("setsid sh -c 'trap \"\" TERM; sleep 30' & exit 0");
        cmd.stdout(std::process::Stdio::piped());
        let ownership = own(&mut cmd, containment, Duration::from_millis(500)).unwrap();
        let mut owned = spawn(cmd, ownership).unwrap();
        let mut out = owned.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = std::io::Read::read_to_end(&mut out, &mut sink);
            let _ = tx.send(());
        });
        assert!(owned.wait().unwrap().success());
        rx.recv_timeout(Duration::from_secs(10)).is_ok()
    }

    #[test]
    fn a_setsid_daemon_dies_when_the_command_exits() {
        assert!(daemon_dies_with(Containment::Subreaper));
        assert!(daemon_dies_with(Containment::PidNamespace));
    }

    #[test]
    fn stop_ends_a_term_ignoring_tree() {
        for mode in [Containment::Subreaper, Containment::PidNamespace] {
            let mut cmd = sh("trap '' TERM; setsid sh -c 'trap \"\" TERM; sleep 30' & sleep 30");
            cmd.stdout(std::process::Stdio::piped());
            let ownership = own(&mut cmd, mode, Duration::from_millis(300)).unwrap();
            let mut owned = spawn(cmd, ownership).unwrap();
            let mut out = owned.stdout.take().unwrap();
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let mut sink = Vec::new();
                let _ = std::io::Read::read_to_end(&mut out, &mut sink);
                let _ = tx.send(());
            });
            std::thread::sleep(Duration::from_millis(200));
            assert!(owned.stop().is_some(), "{mode}");
            // EOF: nothing holds the pipe any more.
            assert!(rx.recv_timeout(Duration::from_secs(10)).is_ok(), "{mode}");
        }
    }

    #[test]
    fn init_runs_nothing_once_loopgate_is_gone() {
        if !root() {
            return; // no PID namespace without CAP_SYS_ADMIN: nothing to test here
        }
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("touch");
        cmd.arg(dir.path().join("ran"));
        let mut ownership =
            own(&mut cmd, Containment::PidNamespace, Duration::from_secs(1)).unwrap();
        // As if loopgate had died between the fork and init's parent-death signal.
        let [read, write] = ownership.life.take().unwrap();
        drop(write);
        ownership.life = Some([read.try_clone().unwrap(), read]);
        let owned = spawn(cmd, ownership).unwrap();
        assert_eq!(owned.containment(), Containment::PidNamespace);
        assert_eq!(owned.wait().unwrap().code(), Some(128 + libc::SIGKILL));
        assert!(!dir.path().join("ran").exists());
    }
}
