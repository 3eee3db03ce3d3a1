//! `loopgate_jail`, a bash loadable builtin (`enable -f FILE loopgate_jail`) that confines
//! the shell it runs in: the tool gate's rewrite runs it first thing in a subshell of the
//! agent's own shell, which then evaluates the command. Confining the shell in place saves
//! the two program starts a separate jail costs (loopgate, then a second bash).
//!
//! It decides nothing. Its arguments are the steps the tool gate planned with the same code
//! that plans `loopgate jail-shell` (`sandbox::builtin`); it carries them out in order with
//! raw system calls and stops at the first that fails, saying which, with status 126. The
//! shell text around it never runs the command after a failure.
//!
//! Built by `crates/sandbox/build.rs` without the standard library (it lives inside bash,
//! next to bash's own C library) and embedded in the loopgate binary.

#![no_std]
#![allow(non_camel_case_types, non_upper_case_globals)]

use core::ffi::{c_char, c_int, c_long, c_ulong, c_void, CStr};

// glibc, already loaded by bash.
extern "C" {
    fn unshare(flags: c_int) -> c_int;
    fn open(path: *const c_char, flags: c_int, ...) -> c_int;
    fn write(fd: c_int, buf: *const c_void, n: usize) -> isize;
    fn close(fd: c_int) -> c_int;
    fn mount(
        src: *const c_char,
        target: *const c_char,
        fstype: *const c_char,
        flags: c_ulong,
        data: *const c_void,
    ) -> c_int;
    fn chdir(path: *const c_char) -> c_int;
    fn syscall(n: c_long, ...) -> c_long;
    fn prctl(option: c_int, ...) -> c_int;
    fn socket(domain: c_int, kind: c_int, protocol: c_int) -> c_int;
    fn ioctl(fd: c_int, request: c_ulong, ...) -> c_int;
    fn getpid() -> c_int;
    fn setsid() -> c_int;
    fn poll(fds: *mut PollFd, n: c_ulong, timeout: c_int) -> c_int;
    fn _exit(code: c_int) -> !;
    fn __errno_location() -> *mut c_int;
}

const O_WRONLY: c_int = 0o1;
const O_CLOEXEC: c_int = 0o2000000;
const O_PATH: c_int = 0o10000000;
const MS_RDONLY: c_ulong = 1;
const MS_NOSUID: c_ulong = 2;
const MS_NODEV: c_ulong = 4;
const MS_NOEXEC: c_ulong = 8;
const MS_REMOUNT: c_ulong = 32;
const MS_BIND: c_ulong = 4096;
const MS_REC: c_ulong = 16384;
const MS_SLAVE: c_ulong = 1 << 19;
const PR_SET_NO_NEW_PRIVS: c_int = 38;
const SYS_getcwd: c_long = 79;
const SYS_clone: c_long = 56;
const SYS_close_range: c_long = 436;
const SYS_pidfd_open: c_long = 434;
const SYS_landlock_create_ruleset: c_long = 444;
const SYS_landlock_add_rule: c_long = 445;
const SYS_landlock_restrict_self: c_long = 446;
const LANDLOCK_RULE_PATH_BENEATH: c_int = 1;
const CLONE_PARENT: c_ulong = 0x8000;
const SIGCHLD: c_ulong = 17;
const AF_INET: c_int = 2;
const SOCK_DGRAM: c_int = 2;
const SIOCGIFFLAGS: c_ulong = 0x8913;
const SIOCSIFFLAGS: c_ulong = 0x8914;
const IFF_UP: i16 = 1;
const IFF_RUNNING: i16 = 0x40;
const POLLIN: i16 = 1;
const EINTR: c_int = 4;
const PATH_MAX: usize = 4096;
/// The shell's "found but cannot execute": the command was not run.
const REFUSED: c_int = 126;

#[repr(C)]
struct PollFd {
    fd: c_int,
    events: i16,
    revents: i16,
}

#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

#[repr(C)]
struct IfReq {
    name: [u8; 16],
    flags: i16,
    _pad: [u8; 22],
}

// bash's loadable builtin interface (builtins.h, command.h): stable since bash 4.
#[repr(C)]
pub struct WordDesc {
    word: *const c_char,
    flags: c_int,
}

#[repr(C)]
pub struct WordList {
    next: *const WordList,
    word: *const WordDesc,
}

#[repr(C)]
pub struct Builtin {
    name: *const c_char,
    function: unsafe extern "C" fn(*const WordList) -> c_int,
    flags: c_int,
    long_doc: *const *const c_char,
    short_doc: *const c_char,
    handle: *mut c_char,
}

#[repr(transparent)]
pub struct Doc([*const c_char; 2]);

// SAFETY: pointers to immutable static strings.
unsafe impl Sync for Doc {}

static LONG_DOC: Doc = Doc([
    c"Confine this shell as loopgate's tool gate planned; not meant to be typed.".as_ptr(),
    core::ptr::null(),
]);

/// What bash looks up after `enable -f FILE loopgate_jail`.
#[no_mangle]
pub static mut loopgate_jail_struct: Builtin = Builtin {
    name: c"loopgate_jail".as_ptr(),
    function: loopgate_jail,
    flags: 1, // BUILTIN_ENABLED
    long_doc: &LONG_DOC as *const Doc as *const *const c_char,
    short_doc: c"loopgate_jail STEP...".as_ptr(),
    handle: core::ptr::null_mut(),
};

/// Carry out every step, in order; 126 at the first that fails.
unsafe extern "C" fn loopgate_jail(mut list: *const WordList) -> c_int {
    let mut jail = Jail {
        ruleset: -1,
        from: core::ptr::null(),
        scoped: 0,
    };
    while !list.is_null() {
        let word = CStr::from_ptr((*(*list).word).word);
        *__errno_location() = 0;
        if let Err(why) = jail.step(word) {
            let errno = *__errno_location();
            say(b"loopgate: this command was not run: it could not be confined (");
            say(why);
            say(b" `");
            say(word.to_bytes());
            if errno != 0 {
                say(b"`: errno ");
                say_number(errno as u64);
            } else {
                say(b"`");
            }
            say(b"). Nothing was executed; fix the cause or ask the user to run it.\n");
            if jail.ruleset >= 0 {
                close(jail.ruleset);
            }
            return REFUSED;
        }
        list = (*list).next;
    }
    0
}

struct Jail {
    ruleset: c_int,
    /// The source of the next `bind=` (`from=`), a pointer into the step's word.
    from: *const c_char,
    /// The Landlock scopes (`scope=`) the ruleset is created with.
    scoped: u64,
}

/// `struct landlock_ruleset_attr` (ABI 6): passed whole only when it asks for scopes, so a
/// kernel that knows only the first field still takes a ruleset without them.
#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

type Step = Result<(), &'static [u8]>;

impl Jail {
    unsafe fn step(&mut self, word: &CStr) -> Step {
        let bytes = word.to_bytes();
        let Some(eq) = bytes.iter().position(|b| *b == b'=') else {
            return match bytes {
                b"slave" => check(
                    mount(
                        core::ptr::null(),
                        c"/".as_ptr(),
                        core::ptr::null(),
                        MS_REC | MS_SLAVE,
                        core::ptr::null(),
                    ),
                    b"cannot make the mounts private",
                ),
                b"cwd" => reenter_cwd(),
                b"lo" => loopback_up(),
                b"restrict" => self.restrict(),
                b"holder" => {
                    spawn_holder();
                    Ok(())
                }
                _ => Err(b"unknown step"),
            };
        };
        let key = &bytes[..eq];
        // The value is the rest of the word: still NUL-terminated, so a path can be passed on.
        let value = word.as_ptr().add(eq + 1);
        let (number, path) = split_number(CStr::from_ptr(value));
        match key {
            b"unshare" => check(unshare(number? as c_int), b"cannot create the namespaces"),
            b"uidmap" => write_proc(c"/proc/self/uid_map", CStr::from_ptr(value).to_bytes()),
            b"gidmap" => {
                write_proc(c"/proc/self/setgroups", b"deny")?;
                write_proc(c"/proc/self/gid_map", CStr::from_ptr(value).to_bytes())
            }
            b"from" => {
                self.from = value;
                Ok(())
            }
            b"bind" => {
                if self.from.is_null() {
                    return Err(b"a bind without a source");
                }
                check(
                    mount(self.from, value, core::ptr::null(), MS_BIND | MS_REC, core::ptr::null()),
                    b"cannot bind",
                )
            }
            b"anchor" => check(
                mount(value, value, core::ptr::null(), MS_BIND, core::ptr::null()),
                b"cannot anchor",
            ),
            b"ro" => {
                let path = path.ok_or(&b"no path"[..])?;
                check(
                    mount(path, path, core::ptr::null(), MS_BIND | MS_REC, core::ptr::null()),
                    b"cannot make read-only",
                )?;
                remount_read_only(path, number?)
            }
            b"hide-dir" => check(
                mount(
                    c"tmpfs".as_ptr(),
                    value,
                    c"tmpfs".as_ptr(),
                    MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                    c"size=4k,mode=0500".as_ptr().cast(),
                ),
                b"cannot hide",
            ),
            b"hide-file" => {
                let path = path.ok_or(&b"no path"[..])?;
                check(
                    mount(
                        c"/dev/null".as_ptr(),
                        path,
                        core::ptr::null(),
                        MS_BIND,
                        core::ptr::null(),
                    ),
                    b"cannot hide",
                )?;
                remount_read_only(path, number?)
            }
            b"scope" => {
                self.scoped = number?;
                Ok(())
            }
            b"landlock" => {
                let attr = RulesetAttr {
                    handled_access_fs: number?,
                    handled_access_net: 0,
                    scoped: self.scoped,
                };
                let size = if self.scoped == 0 {
                    core::mem::size_of::<u64>()
                } else {
                    core::mem::size_of::<RulesetAttr>()
                };
                let fd = syscall(
                    SYS_landlock_create_ruleset,
                    &attr as *const RulesetAttr,
                    size,
                    0u32,
                );
                if fd < 0 {
                    return Err(b"cannot create the Landlock ruleset");
                }
                self.ruleset = fd as c_int;
                Ok(())
            }
            b"rw" => {
                let path = path.ok_or(&b"no path"[..])?;
                if self.ruleset < 0 {
                    return Err(b"a rule before the ruleset");
                }
                let fd = open(path, O_PATH | O_CLOEXEC);
                if fd < 0 {
                    return Err(b"cannot open a writable path");
                }
                let rule = PathBeneath {
                    allowed_access: number?,
                    parent_fd: fd,
                };
                let r = syscall(
                    SYS_landlock_add_rule,
                    self.ruleset,
                    LANDLOCK_RULE_PATH_BENEATH,
                    &rule as *const PathBeneath,
                    0u32,
                );
                close(fd);
                if r != 0 {
                    return Err(b"cannot add a Landlock rule");
                }
                Ok(())
            }
            _ => Err(b"unknown step"),
        }
    }

    unsafe fn restrict(&mut self) -> Step {
        if self.ruleset < 0 {
            return Err(b"no Landlock ruleset to enforce");
        }
        if prctl(PR_SET_NO_NEW_PRIVS, 1 as c_ulong, 0 as c_ulong, 0 as c_ulong, 0 as c_ulong) != 0
        {
            return Err(b"cannot set no_new_privs");
        }
        let r = syscall(SYS_landlock_restrict_self, self.ruleset, 0u32);
        close(self.ruleset);
        self.ruleset = -1;
        check(r as c_int, b"cannot enforce the Landlock ruleset")
    }
}

/// `NUMBER:PATH` split at the colon; the number alone when there is no colon.
unsafe fn split_number(value: &CStr) -> (Result<u64, &'static [u8]>, Option<*const c_char>) {
    let bytes = value.to_bytes();
    let (digits, path) = match bytes.iter().position(|b| *b == b':') {
        Some(colon) => (&bytes[..colon], Some(value.as_ptr().add(colon + 1))),
        None => (bytes, None),
    };
    let number = core::str::from_utf8(digits)
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .ok_or(&b"not a number"[..]);
    (number, path)
}

unsafe fn remount_read_only(path: *const c_char, keep: u64) -> Step {
    check(
        mount(
            core::ptr::null(),
            path,
            core::ptr::null(),
            MS_REMOUNT | MS_BIND | MS_RDONLY | keep as c_ulong,
            core::ptr::null(),
        ),
        b"cannot remount read-only",
    )
}

fn check(r: c_int, why: &'static [u8]) -> Step {
    if r == 0 {
        Ok(())
    } else {
        Err(why)
    }
}

unsafe fn write_proc(path: &CStr, bytes: &[u8]) -> Step {
    let fd = open(path.as_ptr(), O_WRONLY | O_CLOEXEC);
    if fd < 0 {
        return Err(b"cannot open the user namespace maps");
    }
    let n = write(fd, bytes.as_ptr().cast(), bytes.len());
    close(fd);
    if n != bytes.len() as isize {
        return Err(b"cannot write the user namespace maps");
    }
    Ok(())
}

/// Walk into the working directory again by its path: it was entered before the binds were
/// made, so relative paths from it would reach the protected files around them.
unsafe fn reenter_cwd() -> Step {
    let mut buf = [0u8; PATH_MAX];
    let n = syscall(SYS_getcwd, buf.as_mut_ptr(), buf.len());
    if n <= 0 || buf[0] != b'/' || chdir(buf.as_ptr().cast()) != 0 {
        return Err(b"cannot enter the working directory again");
    }
    Ok(())
}

unsafe fn loopback_up() -> Step {
    let fd = socket(AF_INET, SOCK_DGRAM, 0);
    if fd < 0 {
        return Err(b"cannot open a socket to bring up loopback");
    }
    let mut req = IfReq {
        name: [0; 16],
        flags: 0,
        _pad: [0; 22],
    };
    req.name[0] = b'l';
    req.name[1] = b'o';
    let ok = ioctl(fd, SIOCGIFFLAGS, &mut req as *mut IfReq) == 0 && {
        req.flags |= IFF_UP | IFF_RUNNING;
        ioctl(fd, SIOCSIFFLAGS, &req as *const IfReq) == 0
    };
    close(fd);
    if ok {
        Ok(())
    } else {
        Err(b"cannot bring up loopback")
    }
}

/// A process that keeps the namespaces until this shell has exited, so the shell's exit
/// does not wait for their teardown (see `sandbox::mounts::hand_off_teardown`). A sibling,
/// never a child (a command that waits for every child must not wait for it), in a session
/// of its own (an agent listing the shell's process group must not see it), holding no
/// descriptor but a pidfd of this shell. Best effort.
unsafe fn spawn_holder() {
    let pidfd = syscall(SYS_pidfd_open, getpid(), 0u32) as c_int;
    if pidfd < 0 {
        return;
    }
    let pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0usize, 0usize, 0usize, 0usize);
    if pid != 0 {
        close(pidfd);
        return;
    }
    if pidfd > 0 {
        syscall(SYS_close_range, 0u32, (pidfd - 1) as u32, 0u32);
    }
    syscall(SYS_close_range, (pidfd + 1) as u32, u32::MAX, 0u32);
    setsid();
    let mut p = PollFd {
        fd: pidfd,
        events: POLLIN,
        revents: 0,
    };
    while poll(&mut p, 1, -1) < 0 && *__errno_location() == EINTR {}
    _exit(0);
}

fn say(bytes: &[u8]) {
    // SAFETY: writing a live buffer to stderr.
    unsafe {
        write(2, bytes.as_ptr().cast(), bytes.len());
    }
}

fn say_number(mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    say(&buf[i..]);
}

/// `core` is built to unwind and names this symbol; nothing here ever unwinds (`panic =
/// abort`), but bash refuses a library with an unresolved name.
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: nothing can be trusted after a panic: the shell ends, refusing.
    unsafe { _exit(REFUSED) }
}
