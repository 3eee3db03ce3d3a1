//! A crashed hook fails open: the agents read exit 101 (a Rust panic) or 134 (an abort)
//! like exit 0 without an answer, "proceed". So inside `loopgate hook` every crash becomes
//! exit 2 with the reason on stderr, which blocks the tool call and refuses the stop:
//!
//! - a panic on any thread (except inside `policy::shell::contain`, which turns the shell
//!   parser's own panics into a fail-closed decision) ends the process from the panic hook,
//!   before any unwinding could hang or be swallowed by a thread nobody joins;
//! - an abort (SIGABRT: Rust's stack-overflow handler, `std::process::abort`, a failed
//!   allocation) is caught by a handler that only calls async-signal-safe `write` and
//!   `_exit`.

use std::sync::OnceLock;

/// The abort message, built before any handler can run (a signal handler may not allocate).
static ABORT_MESSAGE: OnceLock<Vec<u8>> = OnceLock::new();

/// Write all of `bytes` to fd 2 with plain `write(2)`: no lock (another thread may hold
/// std's stderr lock while it hangs), no allocation.
pub fn write_stderr(bytes: &[u8]) {
    let mut rest = bytes;
    while !rest.is_empty() {
        // SAFETY: the pointer and length describe a live slice.
        let n = unsafe { libc::write(2, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            return;
        }
        rest = &rest[n as usize..];
    }
}

/// End the process now with exit 2, running nothing else (no destructor, no atexit, no
/// flush that could block).
pub fn exit_refused() -> ! {
    // SAFETY: `_exit` is always safe to call; it does not return.
    unsafe { libc::_exit(2) }
}

/// Install the panic hook and the SIGABRT handler for a hook process.
pub fn install(agent: &'static str) {
    let _ = ABORT_MESSAGE.set(
        format!(
            "loopgate: hook {agent}: the process aborted (SIGABRT, e.g. a stack overflow): refusing\n"
        )
        .into_bytes(),
    );
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if policy::shell::containing() {
            // Contained: the caller turns it into a decision; keep std's report.
            previous(info);
            return;
        }
        let thread = std::thread::current();
        let name = thread.name().unwrap_or("unnamed");
        let message =
            format!("loopgate: hook {agent}: internal error (thread '{name}' {info}): refusing\n");
        write_stderr(message.as_bytes());
        exit_refused();
    }));
    // SAFETY: a zeroed `sigaction` is a valid starting value; the handler only calls
    // async-signal-safe functions. SA_ONSTACK: Rust's stack-overflow handler runs on the
    // alternate signal stack and aborts from there.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_abort as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_ONSTACK;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGABRT, &action, std::ptr::null_mut());
    }
}

extern "C" fn on_abort(_signal: libc::c_int) {
    const FALLBACK: &[u8] = b"loopgate: hook: the process aborted (SIGABRT): refusing\n";
    let message = ABORT_MESSAGE.get().map(Vec::as_slice).unwrap_or(FALLBACK);
    // SAFETY: write(2) and _exit(2) are async-signal-safe; the slice is never freed.
    unsafe {
        libc::write(2, message.as_ptr().cast(), message.len());
        libc::_exit(2);
    }
}

/// Faults on demand, so end-to-end tests can prove each crash ends in exit 2. Compiled in
/// always and harmless: whoever sets the variable only gets a refused tool call or stop.
pub const ENV_TEST_FAULT: &str = "LOOPGATE_TEST_PANIC";

pub fn test_fault() {
    let Ok(kind) = std::env::var(ENV_TEST_FAULT) else {
        return;
    };
    match kind.as_str() {
        "thread" => {
            let _ = std::thread::Builder::new()
                .name("loopgate-test-fault".into())
                .spawn(|| panic!("forced by {ENV_TEST_FAULT}=thread"))
                .map(|h| h.join());
        }
        "abort" => std::process::abort(),
        "overflow" => {
            let _ = overflow(std::hint::black_box(0));
        }
        "" | "0" => {}
        _ => panic!("forced by {ENV_TEST_FAULT}={kind}"),
    }
}

/// Recursion without end, each frame kept alive, so it really exhausts the stack.
#[allow(unconditional_recursion)]
fn overflow(depth: u64) -> u64 {
    let frame = std::hint::black_box([depth; 64]);
    overflow(depth + 1) + frame[depth as usize % 64]
}
