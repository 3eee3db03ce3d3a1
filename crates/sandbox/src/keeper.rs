//! The keepers that hold a command's process tree (see tree.rs for the design).
//!
//! Everything here runs in a child forked from a multi-threaded process, between fork and
//! exec: only raw syscalls on stack memory. No allocation, no locks, no panics, no std I/O.
//!
//! ```text
//! pid-namespace:  loopgate spawner thread ─ init keeper (pid 1) ─ command (pid 2) ─ ...
//! subreaper:      loopgate spawner thread ─ keeper (subreaper) ─ command ─ ...
//! ```

use libc::{c_int, pid_t};
use std::io;
use std::ptr::null_mut;

/// Signals the keepers take synchronously: blocked, then read with `sigtimedwait`.
/// SIGINT and SIGQUIT are swallowed: a terminal delivers them to the command directly.
const TAKEN: [c_int; 5] = [
    libc::SIGCHLD,
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGINT,
    libc::SIGQUIT,
];

/// Children listed per round of the sweep; more are caught by the next round.
const ROUND: usize = 512;
/// Processes reached by one SIGTERM walk of the tree (the SIGKILL sweep has no limit).
const WALK: usize = 2048;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// pid 1 of the command's namespace: the kernel kills the rest when it exits.
    Init,
    /// A child subreaper: it must kill what is left itself.
    Subreaper,
}

/// In std's child, pid 1 of the PID namespace the spawner thread entered: set up a
/// private `/proc`, fork the command, and return (so exec proceeds) only in the command.
/// `life` is a pipe whose write end loopgate holds open while the command runs; `status`
/// receives the command's wait status (init cannot re-raise a signal at itself).
pub fn enter_as_init(life: [c_int; 2], status: c_int, grace_ms: i64) -> io::Result<()> {
    // SAFETY: raw syscalls on stack memory (module comment).
    unsafe {
        // Killing init tears the namespace down: with this, loopgate's death does.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
        // Our inherited copy of the write end would hide loopgate's.
        libc::close(life[1]);
        if peer_gone(life[0]) {
            libc::_exit(128 + libc::SIGKILL);
        }
        if libc::unshare(libc::CLONE_NEWNS) == 0 {
            mount_own_proc();
        }
        block_taken();
        let command = libc::fork();
        if command < 0 {
            return Err(io::Error::last_os_error());
        }
        if command == 0 {
            unblock_all();
            return Ok(());
        }
        close_all_except(&[status]);
        let st = keep(command, Role::Init, grace_ms);
        let bytes = st.to_ne_bytes();
        libc::write(status, bytes.as_ptr().cast(), bytes.len());
        // Exiting as init makes the kernel kill whatever is left in the namespace.
        libc::_exit(0);
    }
}

/// In the forked child: become a child subreaper keeper and return (so exec proceeds)
/// only in the command.
pub fn enter_subreaper(parent: pid_t, grace_ms: i64) -> io::Result<()> {
    // SAFETY: raw syscalls on stack memory (module comment).
    unsafe {
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong) != 0 {
            return Err(io::Error::last_os_error());
        }
        // loopgate's death (its spawner thread's, in fact) is a stop request.
        die_with_parent(parent, libc::SIGTERM);
        block_taken();
        let command = libc::fork();
        if command < 0 {
            return Err(io::Error::last_os_error());
        }
        if command == 0 {
            unblock_all();
            return Ok(());
        }
        close_all_except(&[]);
        let st = keep(command, Role::Subreaper, grace_ms);
        exit_like(st);
    }
}

/// Ask for `signal` when loopgate's spawning thread ends; if loopgate is already gone,
/// there is nobody to run for.
unsafe fn die_with_parent(parent: pid_t, signal: c_int) {
    libc::prctl(libc::PR_SET_PDEATHSIG, signal as libc::c_ulong);
    if libc::getppid() != parent {
        libc::_exit(128 + libc::SIGKILL);
    }
}

/// Wait for the command; forward stop requests; when it ends, leave nothing behind.
/// Returns the command's wait status.
unsafe fn keep(command: pid_t, role: Role, grace_ms: i64) -> c_int {
    let set = taken_set();
    let mut kill_at: Option<i64> = None;
    loop {
        let mut ended = None;
        loop {
            let mut st = 0;
            let p = libc::waitpid(-1, &mut st, libc::WNOHANG);
            if p <= 0 {
                break;
            }
            if p == command {
                ended = Some(st);
            }
        }
        if let Some(st) = ended {
            if role == Role::Subreaper {
                sweep();
            }
            return st;
        }
        let mut wait = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        let timeout = match kill_at {
            Some(at) => {
                let left = (at - now_ms()).max(0);
                wait.tv_sec = (left / 1000) as libc::time_t;
                wait.tv_nsec = ((left % 1000) * 1_000_000) as libc::c_long;
                &wait as *const libc::timespec
            }
            None => std::ptr::null(),
        };
        let sig = libc::sigtimedwait(&set, null_mut(), timeout);
        if sig < 0 {
            if io::Error::last_os_error().raw_os_error() == Some(libc::EAGAIN) {
                signal_tree(role, libc::SIGKILL);
                kill_at = None;
            }
            continue;
        }
        if sig == libc::SIGTERM || sig == libc::SIGHUP {
            signal_tree(role, sig);
            if sig == libc::SIGTERM && kill_at.is_none() {
                kill_at = Some(now_ms() + grace_ms);
            }
        }
    }
}

unsafe fn signal_tree(role: Role, sig: c_int) {
    match role {
        // From pid 1, -1 means every process of the namespace but init itself.
        Role::Init => {
            libc::kill(-1, sig);
        }
        Role::Subreaper => {
            let mut pids = [0 as pid_t; WALK];
            let n = descendants(&mut pids);
            for &p in &pids[..n] {
                libc::kill(p, sig);
            }
        }
    }
}

/// Kill the subreaper's children until it has none: the children of a killed process
/// reparent to the subreaper and are found by the next round.
unsafe fn sweep() {
    let me = libc::getpid();
    loop {
        let mut pids = [0 as pid_t; ROUND];
        let n = children(me, &mut pids);
        let mut st = 0;
        if n == 0 {
            let r = libc::waitpid(-1, &mut st, libc::WNOHANG);
            if r < 0 {
                return; // ECHILD: nothing is left
            }
            if r == 0 {
                // Children we could not list: wait for one, then look again.
                libc::waitpid(-1, &mut st, 0);
            }
            continue;
        }
        for &p in &pids[..n] {
            libc::kill(p, libc::SIGKILL);
        }
        libc::waitpid(-1, &mut st, 0);
        while libc::waitpid(-1, &mut st, libc::WNOHANG) > 0 {}
    }
}

/// This process's descendants, breadth first, through each main thread's `children` list.
unsafe fn descendants(out: &mut [pid_t; WALK]) -> usize {
    let mut n = children(libc::getpid(), &mut out[..]);
    let mut i = 0;
    while i < n && n < WALK {
        let parent = out[i];
        n += children(parent, &mut out[n..]);
        i += 1;
    }
    n
}

/// Reads `/proc/<pid>/task/<pid>/children` into `out`; returns how many pids it holds.
unsafe fn children(pid: pid_t, out: &mut [pid_t]) -> usize {
    let mut path = [0u8; 64];
    let mut len = 0;
    for part in [b"/proc/".as_slice(), b"", b"/task/", b"", b"/children"] {
        if part.is_empty() {
            len += write_decimal(pid, &mut path[len..]);
        } else {
            path[len..len + part.len()].copy_from_slice(part);
            len += part.len();
        }
    }
    path[len] = 0;
    let fd = libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return 0;
    }
    let mut count = 0;
    let mut current: Option<pid_t> = None;
    let mut buf = [0u8; 512];
    loop {
        let r = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
        if r <= 0 {
            break;
        }
        for &b in &buf[..r as usize] {
            if b.is_ascii_digit() {
                current = Some(current.unwrap_or(0) * 10 + (b - b'0') as pid_t);
            } else if let Some(p) = current.take() {
                if count < out.len() {
                    out[count] = p;
                    count += 1;
                }
            }
        }
    }
    if let Some(p) = current {
        if count < out.len() {
            out[count] = p;
            count += 1;
        }
    }
    libc::close(fd);
    count
}

fn write_decimal(mut v: pid_t, out: &mut [u8]) -> usize {
    let mut digits = [0u8; 12];
    let mut n = 0;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for i in 0..n {
        out[i] = digits[n - 1 - i];
    }
    n
}

/// A private `/proc` for the new PID namespace, so the command's pids and `/proc` agree.
/// Best effort: without it the command still runs, with the outer `/proc`.
unsafe fn mount_own_proc() {
    let none = std::ptr::null::<libc::c_char>();
    if libc::mount(
        none,
        c"/".as_ptr(),
        none,
        libc::MS_REC | libc::MS_PRIVATE,
        std::ptr::null(),
    ) != 0
    {
        return;
    }
    libc::mount(
        c"proc".as_ptr(),
        c"/proc".as_ptr(),
        c"proc".as_ptr(),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        std::ptr::null(),
    );
}

/// Exit with the command's wait status: its code, or a death by the same signal.
unsafe fn exit_like(st: c_int) -> ! {
    if libc::WIFEXITED(st) {
        libc::_exit(libc::WEXITSTATUS(st));
    }
    if libc::WIFSIGNALED(st) {
        let sig = libc::WTERMSIG(st);
        // The keeper is a copy of loopgate: never dump it as a core.
        let none = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &none);
        libc::signal(sig, libc::SIG_DFL);
        let mut one: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut one);
        libc::sigaddset(&mut one, sig);
        libc::sigprocmask(libc::SIG_UNBLOCK, &one, null_mut());
        libc::kill(libc::getpid(), sig);
        libc::_exit(128 + sig);
    }
    libc::_exit(255);
}

fn taken_set() -> libc::sigset_t {
    // SAFETY: sigset manipulation on a local value.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in TAKEN {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

unsafe fn block_taken() {
    let set = taken_set();
    libc::sigprocmask(libc::SIG_BLOCK, &set, null_mut());
}

unsafe fn unblock_all() {
    let mut empty: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut empty);
    libc::sigprocmask(libc::SIG_SETMASK, &empty, null_mut());
}

/// A close-on-exec pipe: `[read, write]`.
pub(crate) fn pipe() -> io::Result<[std::os::fd::OwnedFd; 2]> {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array; we own them from here on.
    unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok([
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        ])
    }
}

/// Whether every write end of the pipe `fd` reads from is closed.
unsafe fn peer_gone(fd: c_int) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    libc::poll(&mut p, 1, 0) > 0 && p.revents & libc::POLLHUP != 0
}

/// Close every descriptor but `keep` (at most two): the keepers must not hold the
/// command's output pipes nor std's exec-error pipe, whose EOF tells loopgate the
/// command started.
unsafe fn close_all_except(keep: &[c_int]) {
    let mut sorted = [c_int::MAX; 2];
    for (slot, fd) in sorted.iter_mut().zip(keep) {
        *slot = *fd;
    }
    if sorted[0] > sorted[1] {
        sorted.swap(0, 1);
    }
    let mut low: c_int = 0;
    for &k in &sorted {
        if k == c_int::MAX {
            break;
        }
        if k > low {
            close_range(low, k - 1);
        }
        low = k + 1;
    }
    close_range(low, c_int::MAX);
}

unsafe fn close_range(low: c_int, high: c_int) {
    if libc::syscall(libc::SYS_close_range, low as u32, high as u32, 0u32) == 0 {
        return;
    }
    // Kernels before 5.9: close one by one up to a generous bound.
    for fd in low..high.min(4096) {
        libc::close(fd);
    }
}

fn now_ms() -> i64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: writes only to the local timespec.
    unsafe {
        libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts);
    }
    ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
}
