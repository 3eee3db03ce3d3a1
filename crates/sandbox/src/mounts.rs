//! Read-only holes in a writable tree, by a private mount namespace.
//!
//! Landlock only grants: it cannot make `loopgate.toml` read-only inside a repository that
//! is a write root. A mount namespace can: the child gets its own copy of the mount table,
//! and each protected path is bind-mounted onto itself and remounted read-only. The host's
//! mounts are untouched (propagation into the child is one-way: `MS_SLAVE`).
//!
//! Everything that allocates (paths as C strings, the uid and gid maps, the error texts) is
//! built in the parent; the child, between fork and exec, only makes raw syscalls.
//!
//! Renames: a protected path that is a mount point cannot be renamed or removed (`EBUSY`),
//! but its ancestors could be (`mv .git .git2 && cp -r .git2 .git` would give a writable
//! copy). So every ancestor of a protected path whose parent is writable is bind-mounted
//! onto itself too ("anchors"): a mount point cannot be renamed either.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Set to `1` to make loopgate behave as on a kernel without (unprivileged) user namespaces.
pub const NO_USERNS_ENV: &str = "LOOPGATE_NO_USERNS";

/// The paths to make read-only, and the writable paths they live in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MountPlan {
    /// Existing paths to make read-only (files or directories).
    pub read_only: Vec<PathBuf>,
    /// The paths the child may write (the Landlock write rules): only protected paths
    /// inside one of them need a mount, and only ancestors with a writable parent need an
    /// anchor.
    pub writable: Vec<PathBuf>,
    /// Existing paths the child may not read: a directory is covered by an empty read-only
    /// tmpfs, a file by `/dev/null`.
    pub hidden: Vec<PathBuf>,
    pub network: NetMode,
    /// Existing paths inside a read-only one that stay writable (a tool cache's downloads
    /// inside its home, whose programs and configuration are read-only): each is bound on
    /// itself before the read-only bind above it, which carries it along.
    pub writable_inside: Vec<PathBuf>,
    /// A private dir (the session's temp dir, directly in `/tmp`) to be seen at `/tmp`
    /// as well as at its own path, so `/tmp` is writable without reaching the shared one.
    /// Skipped when another planned path lies in `/tmp` (the mount would hide it).
    pub private_tmp: Option<PathBuf>,
}

/// The network a child gets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NetMode {
    /// The host's network.
    #[default]
    Host,
    /// A private network namespace with no interface up.
    None,
    /// A private network namespace with only the loopback interface up.
    Loopback,
}

/// Whether this process can give a child a private mount namespace.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum NsAvailability {
    Available,
    Missing { reason: String },
}

/// A cheap probe (no fork): the simulation switch, then the kernel's user-namespace limit
/// for an unprivileged caller. Root needs no user namespace for a mount namespace.
pub fn namespaces_available() -> NsAvailability {
    if std::env::var_os(NO_USERNS_ENV).is_some_and(|v| v == "1") {
        return NsAvailability::Missing {
            reason: format!("{NO_USERNS_ENV}=1 simulates a kernel without user namespaces"),
        };
    }
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        return NsAvailability::Available;
    }
    let read = |p: &str| {
        std::fs::read_to_string(p)
            .ok()
            .map(|s| s.trim().to_string())
    };
    if read("/proc/sys/user/max_user_namespaces").as_deref() == Some("0") {
        return NsAvailability::Missing {
            reason: "user namespaces are disabled (user.max_user_namespaces = 0)".into(),
        };
    }
    if read("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0") {
        return NsAvailability::Missing {
            reason:
                "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0)"
                    .into(),
        };
    }
    if read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref() == Some("1") {
        return NsAvailability::Missing {
            reason: "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)".into(),
        };
    }
    NsAvailability::Available
}

#[derive(Debug)]
enum Step {
    /// Bind a directory onto itself, so it cannot be renamed.
    Anchor { path: CString, error: Vec<u8> },
    /// Bind onto itself, then remount read-only keeping the flags the kernel locks.
    ReadOnly {
        path: CString,
        keep: libc::c_ulong,
        error: Vec<u8>,
    },
    /// Cover a directory with an empty, read-only tmpfs.
    HideDir { path: CString, error: Vec<u8> },
    /// Cover a file with `/dev/null`, read-only.
    HideFile {
        path: CString,
        keep: libc::c_ulong,
        error: Vec<u8>,
    },
    /// Bind `from` (with what is mounted below it) onto `to`.
    Bind {
        from: CString,
        to: CString,
        error: Vec<u8>,
    },
}

/// A namespace set-up ready to apply to a child.
#[derive(Debug)]
pub struct PreparedMounts {
    userns: bool,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    steps: Vec<Step>,
    network: NetMode,
    /// The paths made read-only, for reports.
    pub read_only: Vec<PathBuf>,
    /// The paths hidden, for reports.
    pub hidden: Vec<PathBuf>,
}

/// Build the set-up for `plan`: protected paths outside every writable path are skipped
/// (Landlock already keeps them), missing paths are skipped (a mount needs a target).
pub fn prepare(plan: &MountPlan) -> std::io::Result<PreparedMounts> {
    let writable: Vec<PathBuf> = plan.writable.iter().map(|p| canonical(p)).collect();
    let inside_writable = |p: &Path| writable.iter().any(|w| p.starts_with(w));
    let mut read_only: Vec<PathBuf> = plan
        .read_only
        .iter()
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .map(|p| canonical(p))
        .filter(|p| inside_writable(p))
        .collect();
    read_only.sort();
    read_only.dedup();
    // A path below another read-only path is already read-only.
    let mut kept: Vec<PathBuf> = Vec::new();
    for p in read_only {
        if !kept.iter().any(|k| p.starts_with(k)) {
            kept.push(p);
        }
    }
    let mut anchors: Vec<PathBuf> = Vec::new();
    for p in &kept {
        let mut cur = p.parent();
        while let Some(dir) = cur {
            match dir.parent() {
                Some(parent) if inside_writable(parent) => anchors.push(dir.to_path_buf()),
                _ => {}
            }
            cur = dir.parent();
        }
    }
    anchors.sort();
    anchors.dedup();
    anchors.retain(|a| !kept.iter().any(|k| a.starts_with(k)));
    anchors.extend(
        plan.writable_inside
            .iter()
            .filter(|p| std::fs::symlink_metadata(p).is_ok())
            .map(|p| canonical(p))
            .filter(|p| kept.iter().any(|k| p.starts_with(k) && p != k)),
    );
    anchors.sort();
    anchors.dedup();
    // Shorter first: an anchor mounted after a read-only bind below it would hide that bind.
    anchors.sort_by_key(|a| a.components().count());
    let mut steps = Vec::new();
    for a in &anchors {
        steps.push(Step::Anchor {
            path: cstring(a)?,
            error: format!("loopgate: jail: cannot anchor {}\n", a.display()).into_bytes(),
        });
    }
    for p in &kept {
        steps.push(Step::ReadOnly {
            path: cstring(p)?,
            keep: locked_flags(p),
            error: format!("loopgate: jail: cannot make {} read-only\n", p.display()).into_bytes(),
        });
    }
    let mut hidden: Vec<PathBuf> = plan
        .hidden
        .iter()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect();
    hidden.sort();
    hidden.dedup();
    let null_flags = locked_flags(Path::new("/dev/null"));
    for p in &hidden {
        let error = format!("loopgate: jail: cannot hide {}\n", p.display()).into_bytes();
        if p.is_dir() {
            steps.push(Step::HideDir {
                path: cstring(p)?,
                error,
            });
        } else {
            steps.push(Step::HideFile {
                path: cstring(p)?,
                keep: null_flags,
                error,
            });
        }
    }
    if let Some(private) = &plan.private_tmp {
        private_tmp_steps(private, &writable, &kept, &mut steps)?;
    }
    // SAFETY: plain id queries.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    Ok(PreparedMounts {
        userns: uid != 0,
        uid_map: format!("{uid} {uid} 1\n").into_bytes(),
        gid_map: format!("{gid} {gid} 1\n").into_bytes(),
        steps,
        network: plan.network,
        read_only: kept,
        hidden,
    })
}

/// `private` seen at `/tmp`: first bound onto a directory of its own name inside itself,
/// then (with that) onto `/tmp`, so its own path `/tmp/NAME` still reaches it. Nothing is
/// done when `private` is not directly in `/tmp` or another writable or read-only path lies
/// in `/tmp` (hidden ones are hidden by it anyway).
fn private_tmp_steps(
    private: &Path,
    writable: &[PathBuf],
    kept: &[PathBuf],
    steps: &mut Vec<Step>,
) -> std::io::Result<()> {
    let tmp = canonical(Path::new("/tmp"));
    let private = canonical(private);
    let Some(name) = private.file_name() else {
        return Ok(());
    };
    if private.parent() != Some(tmp.as_path()) {
        return Ok(());
    }
    let elsewhere_in_tmp = writable
        .iter()
        .chain(kept)
        .any(|p| p.starts_with(&tmp) && !p.starts_with(&private));
    if elsewhere_in_tmp {
        return Ok(());
    }
    let seat = private.join(name);
    match std::fs::DirBuilder::new().create(&seat) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    if !std::fs::symlink_metadata(&seat)?.is_dir() {
        return Err(std::io::Error::other(format!(
            "{} is not a directory",
            seat.display()
        )));
    }
    let error = format!(
        "loopgate: jail: cannot give {} as /tmp\n",
        private.display()
    )
    .into_bytes();
    steps.push(Step::Bind {
        from: cstring(&private)?,
        to: cstring(&seat)?,
        error: error.clone(),
    });
    steps.push(Step::Bind {
        from: cstring(&private)?,
        to: cstring(&tmp)?,
        error,
    });
    Ok(())
}

impl PreparedMounts {
    /// Nothing to mount: no namespace is needed.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty() && self.network == NetMode::Host
    }
}

impl PreparedMounts {
    /// The same set-up as steps of the bash builtin (`crate::builtin`), in the order `enter`
    /// takes them. `None` when a path is not UTF-8 (the shell text carries words).
    pub fn builtin_steps(&self) -> Option<Vec<String>> {
        let text = |c: &CString| c.to_str().ok().map(str::to_string);
        let mut out = vec![format!("unshare={}", self.unshare_flags())];
        if self.userns {
            out.push(format!(
                "uidmap={}",
                std::str::from_utf8(&self.uid_map).ok()?
            ));
            out.push(format!(
                "gidmap={}",
                std::str::from_utf8(&self.gid_map).ok()?
            ));
        }
        out.push("slave".into());
        for step in &self.steps {
            if let Step::Bind { from, .. } = step {
                out.push(format!("from={}", text(from)?));
            }
            out.push(match step {
                Step::Anchor { path, .. } => format!("anchor={}", text(path)?),
                Step::ReadOnly { path, keep, .. } => format!("ro={keep}:{}", text(path)?),
                Step::HideDir { path, .. } => format!("hide-dir={}", text(path)?),
                Step::HideFile { path, keep, .. } => format!("hide-file={keep}:{}", text(path)?),
                Step::Bind { to, .. } => format!("bind={}", text(to)?),
            });
        }
        out.push("cwd".into());
        if self.network == NetMode::Loopback {
            out.push("lo".into());
        }
        Some(out)
    }

    fn unshare_flags(&self) -> libc::c_int {
        let mut flags = if self.userns {
            libc::CLONE_NEWUSER | libc::CLONE_NEWNS
        } else {
            libc::CLONE_NEWNS
        };
        if self.network != NetMode::Host {
            flags |= libc::CLONE_NEWNET;
        }
        flags
    }
}

/// Make `cmd` start in the private mount namespace. Register it BEFORE Landlock's
/// `pre_exec`: a Landlock-confined process may not mount.
pub fn apply(cmd: &mut std::process::Command, prepared: std::sync::Arc<PreparedMounts>) {
    use std::os::unix::process::CommandExt;
    if prepared.is_empty() {
        return;
    }
    // SAFETY: the closure only makes raw syscalls on data built before the fork.
    unsafe {
        cmd.pre_exec(move || enter(&prepared));
    }
}

fn enter(p: &PreparedMounts) -> std::io::Result<()> {
    let flags = p.unshare_flags();
    // SAFETY: raw syscalls with pointers to live, NUL-terminated buffers.
    unsafe {
        if libc::unshare(flags) != 0 {
            return fail(b"loopgate: jail: cannot create a mount namespace\n");
        }
        if p.userns {
            write_proc(c"/proc/self/setgroups", b"deny")?;
            write_proc(c"/proc/self/uid_map", &p.uid_map)?;
            write_proc(c"/proc/self/gid_map", &p.gid_map)?;
        }
        let none = std::ptr::null::<libc::c_char>();
        if libc::mount(
            none,
            c"/".as_ptr(),
            none,
            libc::MS_REC | libc::MS_SLAVE,
            std::ptr::null(),
        ) != 0
        {
            return fail(b"loopgate: jail: cannot make the mounts private\n");
        }
        for step in &p.steps {
            match step {
                Step::Anchor { path, error } => {
                    if libc::mount(
                        path.as_ptr(),
                        path.as_ptr(),
                        none,
                        libc::MS_BIND,
                        std::ptr::null(),
                    ) != 0
                    {
                        return fail(error);
                    }
                }
                Step::HideDir { path, error } => {
                    if libc::mount(
                        c"tmpfs".as_ptr(),
                        path.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        c"size=4k,mode=0500".as_ptr().cast(),
                    ) != 0
                    {
                        return fail(error);
                    }
                }
                Step::HideFile { path, keep, error } => {
                    if libc::mount(
                        c"/dev/null".as_ptr(),
                        path.as_ptr(),
                        none,
                        libc::MS_BIND,
                        std::ptr::null(),
                    ) != 0
                        || libc::mount(
                            none,
                            path.as_ptr(),
                            none,
                            libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | keep,
                            std::ptr::null(),
                        ) != 0
                    {
                        return fail(error);
                    }
                }
                Step::ReadOnly { path, keep, error } => {
                    if libc::mount(
                        path.as_ptr(),
                        path.as_ptr(),
                        none,
                        libc::MS_BIND | libc::MS_REC,
                        std::ptr::null(),
                    ) != 0
                    {
                        return fail(error);
                    }
                    if libc::mount(
                        none,
                        path.as_ptr(),
                        none,
                        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | keep,
                        std::ptr::null(),
                    ) != 0
                    {
                        return fail(error);
                    }
                }
                Step::Bind { from, to, error } => {
                    if libc::mount(
                        from.as_ptr(),
                        to.as_ptr(),
                        none,
                        libc::MS_BIND | libc::MS_REC,
                        std::ptr::null(),
                    ) != 0
                    {
                        return fail(error);
                    }
                }
            }
        }
        reenter_cwd()?;
        if p.network == NetMode::Loopback {
            loopback_up()?;
        }
    }
    Ok(())
}

/// Leave the namespaces' teardown to a holder process instead of the command. The last
/// process of a mount namespace pays for freeing its mounts as it exits (an RCU grace
/// period, about 2 ms on a busy machine), and whoever waits for the command waits for that
/// too. With this, a tiny process cloned just before the exec keeps the namespaces until the
/// command has exited and pays instead, after the command's exit has been seen. For a
/// command that execs in place (no fork in between) per agent call, where that wait is
/// felt. Register it AFTER Landlock's `pre_exec`, so the holder is confined like the
/// command.
pub fn hand_off_teardown(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure only makes raw syscalls.
    unsafe {
        cmd.pre_exec(|| {
            spawn_holder();
            Ok(())
        });
    }
}

/// Start the holder. Best effort: without it, the command pays the teardown itself.
unsafe fn spawn_holder() {
    // This process is about to become the command (exec keeps the pid): the holder waits on
    // a pidfd of it. Close-on-exec, so the command does not inherit it.
    let pidfd = libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0u32) as libc::c_int;
    if pidfd < 0 {
        return;
    }
    // A sibling of the command (CLONE_PARENT), never its child: a command that waits for
    // every child it has (`while wait(); do ...`) must not wait for the holder.
    let flags = (libc::CLONE_PARENT | libc::SIGCHLD) as libc::c_ulong;
    let pid = libc::syscall(libc::SYS_clone, flags, 0usize, 0usize, 0usize, 0usize);
    if pid != 0 {
        libc::close(pidfd);
        return;
    }
    // The holder keeps no other descriptor: nobody waits on a pipe it holds open.
    if pidfd > 0 {
        libc::syscall(libc::SYS_close_range, 0u32, (pidfd - 1) as u32, 0u32);
    }
    libc::syscall(libc::SYS_close_range, (pidfd + 1) as u32, u32::MAX, 0u32);
    let mut p = libc::pollfd {
        fd: pidfd,
        events: libc::POLLIN,
        revents: 0,
    };
    while libc::poll(&mut p, 1, -1) < 0
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
    {}
    libc::_exit(0);
}

/// Walk into the working directory again by its path. The directory was entered before the
/// binds were made, so it still points into the mount below any anchor made over it or an
/// ancestor: relative paths from there would reach the protected files around the binds.
unsafe fn reenter_cwd() -> std::io::Result<()> {
    let mut buf = [0u8; libc::PATH_MAX as usize];
    let n = libc::syscall(libc::SYS_getcwd, buf.as_mut_ptr(), buf.len());
    // The kernel writes an absolute, NUL-terminated path, or "(unreachable)..." for a
    // directory outside this root: only the first is a path to enter.
    if n <= 0 || buf[0] != b'/' || libc::chdir(buf.as_ptr().cast()) != 0 {
        return fail(b"loopgate: jail: cannot enter the working directory again\n");
    }
    Ok(())
}

/// Bring `lo` up in the new network namespace (it starts down).
unsafe fn loopback_up() -> std::io::Result<()> {
    let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
    if fd < 0 {
        return fail(b"loopgate: jail: cannot open a socket to bring up loopback\n");
    }
    let mut req: libc::ifreq = std::mem::zeroed();
    req.ifr_name[0] = b'l' as libc::c_char;
    req.ifr_name[1] = b'o' as libc::c_char;
    let ok = libc::ioctl(fd, libc::SIOCGIFFLAGS, &mut req) == 0 && {
        req.ifr_ifru.ifru_flags |= (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
        libc::ioctl(fd, libc::SIOCSIFFLAGS, &req) == 0
    };
    libc::close(fd);
    if !ok {
        return fail(b"loopgate: jail: cannot bring up loopback\n");
    }
    Ok(())
}

/// The existing paths `patterns` name (`~/` expanded against `home`, relative ones taken
/// from `root`, a `*` in the last part matched against that directory's entries).
pub fn expand_hidden(patterns: &[String], root: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for pat in patterns {
        let path = match (pat.strip_prefix("~/"), home) {
            (Some(rest), Some(h)) => h.join(rest),
            (Some(_), None) => continue,
            _ if Path::new(pat).is_absolute() => PathBuf::from(pat),
            _ => root.join(pat),
        };
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.contains('*') {
            if std::fs::symlink_metadata(&path).is_ok() {
                out.push(path);
            }
            continue;
        }
        let (Some(dir), name) = (path.parent(), name.to_string()) else {
            continue;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for e in entries.flatten().take(10_000) {
            if let Some(n) = e.file_name().to_str() {
                // Templates meant to be committed (`.env.example`) are not secrets, and a
                // hidden tracked file would read as emptied to git inside the jail.
                if roots::deny_read_name(&name, n) {
                    out.push(e.path());
                }
            }
        }
    }
    out
}

/// Say which step failed on stderr (no allocation), then return errno.
fn fail(message: &[u8]) -> std::io::Result<()> {
    let err = std::io::Error::last_os_error();
    // SAFETY: writing a live buffer to fd 2.
    unsafe {
        libc::write(2, message.as_ptr().cast(), message.len());
    }
    Err(err)
}

unsafe fn write_proc(path: &std::ffi::CStr, bytes: &[u8]) -> std::io::Result<()> {
    let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return fail(b"loopgate: jail: cannot open the user namespace maps\n");
    }
    let n = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    libc::close(fd);
    if n != bytes.len() as isize {
        return fail(b"loopgate: jail: cannot write the user namespace maps\n");
    }
    Ok(())
}

/// The mount flags a read-only remount must keep: in a user namespace the kernel refuses
/// a remount that would clear `nosuid`, `nodev`, `noexec` or the atime flags of the
/// original mount.
fn locked_flags(path: &Path) -> libc::c_ulong {
    let Ok(c) = cstring(path) else { return 0 };
    // SAFETY: statvfs writes into the zeroed struct we own.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    let f = st.f_flag;
    let mut keep = 0;
    for (st_flag, ms_flag) in [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if f & st_flag != 0 {
            keep |= ms_flag;
        }
    }
    keep
}

fn cstring(p: &Path) -> std::io::Result<CString> {
    CString::new(p.as_os_str().as_bytes()).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} holds a NUL byte", p.display()),
        )
    })
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The referee's files in and around a repository: loopgate's state and config, the agents'
/// hook settings, and the git files that run code for the human later. Only the ones that
/// exist can be mounted over; the rest are left to detection (`config_edits`).
pub fn referee_paths(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join(".loopgate")];
    out.extend(referee_config_paths(root));
    out
}

/// The referee's files no loopgate hook ever writes: the config, the agents' hook settings
/// and git's code-execution files (loopgate's state in `.loopgate` is left out).
pub fn referee_config_paths(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ["loopgate.toml", ".claude", ".codex", ".gemini", ".cursor"]
        .iter()
        .map(|p| root.join(p))
        .collect();
    out.extend(git_code_paths(root));
    out
}

/// `.git/hooks` and `.git/config` of the repository at `root`, following a linked
/// worktree's `.git` file to the common directory.
pub fn git_code_paths(root: &Path) -> Vec<PathBuf> {
    let dot_git = root.join(".git");
    let Ok(meta) = std::fs::symlink_metadata(&dot_git) else {
        return Vec::new();
    };
    if meta.is_dir() {
        return vec![dot_git.join("hooks"), dot_git.join("config")];
    }
    let Ok(text) = std::fs::read_to_string(&dot_git) else {
        return Vec::new();
    };
    let Some(gitdir) = text.lines().find_map(|l| l.strip_prefix("gitdir:")) else {
        return Vec::new();
    };
    let gitdir = root.join(gitdir.trim());
    let common = std::fs::read_to_string(gitdir.join("commondir"))
        .map(|c| gitdir.join(c.trim()))
        .unwrap_or_else(|_| gitdir.clone());
    vec![
        common.join("hooks"),
        common.join("config"),
        gitdir.join("config.worktree"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_inside_writable_roots_are_mounted_and_ancestors_are_anchored() {
        let base = tempfile::tempdir().unwrap();
        let root = base.path().join("repo");
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::write(root.join(".git/config"), "").unwrap();
        std::fs::write(root.join("loopgate.toml"), "").unwrap();
        let outside = base.path().join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        let plan = MountPlan {
            hidden: Vec::new(),
            network: NetMode::Host,
            read_only: vec![
                root.join(".git/hooks"),
                root.join(".git/config"),
                root.join("loopgate.toml"),
                root.join(".loopgate"), // missing: skipped
                outside.clone(),        // not writable anyway: skipped
            ],
            writable: vec![root.clone()],
            writable_inside: Vec::new(),
            private_tmp: None,
        };
        let p = prepare(&plan).unwrap();
        let root = canonical(&root);
        assert_eq!(
            p.read_only,
            vec![
                root.join(".git/config"),
                root.join(".git/hooks"),
                root.join("loopgate.toml")
            ]
        );
        let anchors: Vec<&CString> = p
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Anchor { path, .. } => Some(path),
                _ => None,
            })
            .collect();
        assert_eq!(anchors, vec![&cstring(&root.join(".git")).unwrap()]);
    }

    #[test]
    fn the_private_tmp_is_bound_at_tmp_unless_another_writable_path_lies_there() {
        let private = tempfile::tempdir_in("/tmp").unwrap();
        let private = canonical(private.path());
        let name = private.file_name().unwrap();
        let plan = |writable: Vec<PathBuf>| MountPlan {
            writable,
            private_tmp: Some(private.clone()),
            ..Default::default()
        };
        let steps = prepare(&plan(vec![private.clone()]))
            .unwrap()
            .builtin_steps()
            .unwrap();
        let from = format!("from={}", private.display());
        let want = [
            from.clone(),
            format!("bind={}", private.join(name).display()),
            from,
            format!("bind={}", canonical(Path::new("/tmp")).display()),
        ];
        assert!(
            steps.windows(4).any(|w| w == want),
            "{steps:?} should hold {want:?}"
        );
        assert!(private.join(name).is_dir());
        let repo = tempfile::tempdir_in("/tmp").unwrap();
        let steps = prepare(&plan(vec![private.clone(), canonical(repo.path())]))
            .unwrap()
            .builtin_steps()
            .unwrap();
        assert!(!steps.iter().any(|w| w.starts_with("bind=")), "{steps:?}");
    }

    #[test]
    fn a_writable_path_inside_a_read_only_one_is_bound_before_it() {
        let base = tempfile::tempdir().unwrap();
        let cache = canonical(base.path()).join(".cargo");
        std::fs::create_dir_all(cache.join("registry")).unwrap();
        std::fs::create_dir_all(cache.join("bin")).unwrap();
        let p = prepare(&MountPlan {
            read_only: vec![cache.clone()],
            writable: vec![cache.clone()],
            writable_inside: vec![
                cache.join("registry"),
                cache.join("git"), // missing: skipped
                cache.clone(),     // the read-only path itself: not an island
            ],
            ..Default::default()
        })
        .unwrap();
        let steps = p.builtin_steps().unwrap();
        let at = |s: String| steps.iter().position(|w| *w == s);
        let island = at(format!("anchor={}", cache.join("registry").display()));
        let ro = at(format!("ro={}:{}", locked_flags(&cache), cache.display()));
        assert!(island.is_some() && ro.is_some() && island < ro, "{steps:?}");
        assert_eq!(
            steps.iter().filter(|w| w.starts_with("anchor=")).count(),
            1,
            "{steps:?}"
        );
    }

    #[test]
    fn deny_read_patterns_expand_home_root_and_a_last_part_wildcard() {
        let base = tempfile::tempdir().unwrap();
        let (home, root) = (base.path().join("h"), base.path().join("r"));
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::create_dir_all(&root).unwrap();
        for f in [".env", ".env.local", "env.txt", ".env.example"] {
            std::fs::write(root.join(f), "").unwrap();
        }
        let mut got = expand_hidden(
            &["~/.ssh".into(), "~/.aws".into(), ".env*".into()],
            &root,
            Some(&home),
        );
        got.sort();
        assert_eq!(
            got,
            vec![
                home.join(".ssh"),
                root.join(".env"),
                root.join(".env.local")
            ]
        );
        assert!(roots::deny_read_name("a*b*c", "axxbyyc") && !roots::deny_read_name("a*b", "ba"));
    }

    #[test]
    fn a_worktree_git_file_leads_to_the_common_hooks_and_config() {
        let base = tempfile::tempdir().unwrap();
        let main = base.path().join("main/.git");
        let wt_git = main.join("worktrees/wt");
        std::fs::create_dir_all(&wt_git).unwrap();
        std::fs::write(wt_git.join("commondir"), "../..\n").unwrap();
        let wt = base.path().join("wt");
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(wt.join(".git"), format!("gitdir: {}\n", wt_git.display())).unwrap();
        let paths = git_code_paths(&wt);
        assert!(
            paths.contains(&wt_git.join("../..").join("hooks")),
            "{paths:?}"
        );
        assert!(
            paths.contains(&wt_git.join("../..").join("config")),
            "{paths:?}"
        );
    }
}
