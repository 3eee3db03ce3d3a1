//! The last line of "fail closed inside our own deadline" (DESIGN section 0, rule 3).
//!
//! An agent treats a hook that times out, crashes or exits with anything but 2 (and no
//! JSON) as "proceed". Every seat has its own deadline, but a read that blocks, a lock
//! that never comes or a bug can still hold the process past it. So one watchdog thread is
//! armed before the hook reads anything; when the process deadline passes, it writes the
//! reason to stderr and ends the process with exit 2 at once (`_exit`: no destructor, no
//! lock, no flush can hold it up). Exit 2 blocks a tool call and refuses a stop in every
//! supported protocol.

use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Shortens the process deadline, in milliseconds (tests use it so they need not wait
/// 10 s). It can only shorten: a longer value is ignored, so an agent that sets it cannot
/// buy itself a hook that hangs past loopgate's own deadline.
pub const ENV_DEADLINE_MS: &str = "LOOPGATE_HOOK_DEADLINE_MS";

struct Armed {
    deadline: Instant,
    stage: &'static str,
}

struct Watchdog {
    agent: &'static str,
    started: Instant,
    /// The value of [`ENV_DEADLINE_MS`], when set.
    cap: Option<Duration>,
    armed: Mutex<Armed>,
    moved: Condvar,
}

static WATCHDOG: OnceLock<Watchdog> = OnceLock::new();

/// Arm the watchdog for `limit` from now (shortened by [`ENV_DEADLINE_MS`]). Fails only
/// when the thread cannot be started; the caller then refuses rather than run unguarded.
pub fn arm(agent: &'static str, limit: Duration) -> Result<(), String> {
    let started = Instant::now();
    let cap = cap_from_env();
    let limit = cap.map_or(limit, |c| c.min(limit));
    let dog = Watchdog {
        agent,
        started,
        cap,
        armed: Mutex::new(Armed {
            deadline: started + limit,
            stage: "starting",
        }),
        moved: Condvar::new(),
    };
    if WATCHDOG.set(dog).is_err() {
        return Err("the watchdog is already armed".into());
    }
    state::deadline::set_process_deadline(started + limit);
    std::thread::Builder::new()
        .name("loopgate-watchdog".into())
        .stack_size(64 * 1024)
        .spawn(watch)
        .map(|_| ())
        .map_err(|e| format!("cannot start the deadline watchdog: {e}"))
}

fn cap_from_env() -> Option<Duration> {
    let ms: u64 = std::env::var(ENV_DEADLINE_MS).ok()?.trim().parse().ok()?;
    Some(Duration::from_millis(ms.max(1)))
}

/// Say what the hook is doing now (named in the message if the deadline passes).
pub fn stage(what: &'static str) {
    if let Some(dog) = WATCHDOG.get() {
        lock(dog).stage = what;
    }
}

/// Move the deadline to `limit` after the start (stops run checks for minutes), still
/// shortened by [`ENV_DEADLINE_MS`].
pub fn set_limit(limit: Duration) {
    let Some(dog) = WATCHDOG.get() else {
        return;
    };
    let limit = dog.cap.map_or(limit, |c| c.min(limit));
    let deadline = dog.started + limit;
    lock(dog).deadline = deadline;
    state::deadline::set_process_deadline(deadline);
    dog.moved.notify_all();
}

/// Move the deadline to `from_now` after this moment (still shortened by
/// [`ENV_DEADLINE_MS`]).
pub fn set_limit_from_now(from_now: Duration) {
    if let Some(dog) = WATCHDOG.get() {
        set_limit(dog.started.elapsed() + from_now);
    }
}

/// Time left before the watchdog fires (`None` when it is not armed, as in unit tests).
pub fn remaining() -> Option<Duration> {
    let dog = WATCHDOG.get()?;
    Some(lock(dog).deadline.saturating_duration_since(Instant::now()))
}

fn lock(dog: &Watchdog) -> std::sync::MutexGuard<'_, Armed> {
    dog.armed.lock().unwrap_or_else(|e| e.into_inner())
}

fn watch() {
    let Some(dog) = WATCHDOG.get() else {
        return;
    };
    let mut armed = lock(dog);
    loop {
        let now = Instant::now();
        if now >= armed.deadline {
            let limit = armed.deadline.saturating_duration_since(dog.started);
            fire(dog.agent, limit, armed.stage);
        }
        let wait = armed.deadline - now;
        armed = match dog.moved.wait_timeout(armed, wait) {
            Ok((guard, _)) => guard,
            Err(poisoned) => poisoned.into_inner().0,
        };
    }
}

fn fire(agent: &str, limit: Duration, stage: &str) -> ! {
    let message = format!(
        "loopgate: hook {agent}: no decision within {} ({stage}): refusing\n",
        super::deadline::describe(limit)
    );
    super::crash::write_stderr(message.as_bytes());
    super::crash::exit_refused()
}
