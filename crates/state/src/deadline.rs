//! How long a lock may be waited for. A hook process has one deadline (armed by
//! `loopgate hook` before it reads anything); a wait that would run past it has already
//! lost, because the watchdog ends the process then. Lock waits therefore stop a margin
//! before it, so the caller still has time to answer with a precise reason. Commands that
//! are not hooks have no such deadline and wait at most [`DEFAULT_WAIT`].

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest any lock is waited for outside a hook. Honest holders keep loopgate's locks
/// for milliseconds; this only bounds a holder that never lets go.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(30);

/// For waits that must never hold up a decision (the audit append: DESIGN section 4 says a
/// failure to audit is reported and the decision stands).
pub const SHORT_WAIT: Duration = Duration::from_secs(2);

/// The process deadline (set by the hook watchdog), if any.
static PROCESS: Mutex<Option<Instant>> = Mutex::new(None);

/// Record the process deadline. Called by the hook watchdog when it is armed or moved.
pub fn set_process_deadline(deadline: Instant) {
    if let Ok(mut d) = PROCESS.lock() {
        *d = Some(deadline);
    }
}

pub fn process_deadline() -> Option<Instant> {
    PROCESS.lock().ok().and_then(|d| *d)
}

/// Time kept back before the process deadline for answering after a lock wait failed.
fn margin(now: Instant, deadline: Instant) -> Duration {
    let left = deadline.saturating_duration_since(now);
    (left / 4).min(Duration::from_secs(2))
}

/// The deadline for a lock wait starting now: the process deadline less a margin, and
/// never later than `DEFAULT_WAIT` from now.
pub fn for_lock() -> Instant {
    within(DEFAULT_WAIT)
}

/// Like [`for_lock`], and never later than `max` from now (for waits that must stay short
/// whatever the process deadline, such as the audit append).
pub fn within(max: Duration) -> Instant {
    let now = Instant::now();
    let cap = now + max;
    match process_deadline() {
        Some(d) => (d.checked_sub(margin(now, d)).unwrap_or(now)).min(cap),
        None => cap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_waits_end_before_the_process_deadline() {
        let before = within(Duration::from_secs(1));
        assert!(before <= Instant::now() + Duration::from_secs(1));
        let deadline = Instant::now() + Duration::from_secs(4);
        set_process_deadline(deadline);
        let lock = for_lock();
        assert!(lock < deadline, "a margin is kept");
        assert!(
            lock >= deadline - Duration::from_secs(2),
            "but not more than 2 s"
        );
        assert!(within(Duration::from_millis(10)) <= Instant::now() + Duration::from_millis(10));
    }
}
