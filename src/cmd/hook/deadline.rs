//! Answer within the hook's own deadline: the agent's hook timeout fails open, ours fails
//! closed, so ours must always fire first.

use std::sync::mpsc;
use std::time::Duration;

/// The worker's stack. The analysers bound their own depth; this is room to spare on top
/// (it is only address space until used).
const WORKER_STACK: usize = 64 * 1024 * 1024;

/// Run `work` on a worker thread; `None` when it has not answered after `limit`. The worker
/// is left behind (the process exits right after the answer is printed).
pub fn within<T, F>(limit: Duration, work: F) -> Option<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("loopgate-hook".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let _ = tx.send(work());
        });
    if spawned.is_err() {
        return None;
    }
    rx.recv_timeout(limit).ok()
}

/// Work started on a worker thread, to be waited for later with a limit.
pub struct Started<T>(mpsc::Receiver<T>);

impl<T> Started<T> {
    /// `None` when the work has not answered after `limit` (the worker is left behind).
    pub fn wait(self, limit: Duration) -> Option<T> {
        self.0.recv_timeout(limit).ok()
    }
}

/// Start `work` on a worker thread and return at once, so the caller can do something
/// else meanwhile; `None` when no thread could be started.
pub fn begin<T, F>(work: F) -> Option<Started<T>>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("loopgate-hook".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let _ = tx.send(work());
        })
        .ok()?;
    Some(Started(rx))
}

/// Tool calls answer well inside even a short agent timeout, whatever `hook_deadline` says
/// (that one is sized for stops that run test suites).
pub const TOOL_CALL_CAP: Duration = Duration::from_secs(10);

/// The worker's deadline for a tool call: also inside the process watchdog's, with a margin
/// to audit and answer, so a slow decision is a `hook.deadline` deny naming the cause rather
/// than the watchdog's bare exit 2.
pub fn for_tool_call(hook_deadline: Duration) -> Duration {
    let limit = hook_deadline.min(TOOL_CALL_CAP);
    match super::watchdog::remaining() {
        Some(left) => limit.min(left.saturating_sub((left / 4).min(Duration::from_secs(2)))),
        None => limit,
    }
}

pub fn describe(d: Duration) -> String {
    if d.as_millis().is_multiple_of(1000) {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_work_answers_and_slow_work_times_out() {
        assert_eq!(within(Duration::from_secs(5), || 7), Some(7));
        let slow = within(Duration::from_millis(50), || {
            std::thread::sleep(Duration::from_secs(2));
            1
        });
        assert_eq!(slow, None);
    }

    #[test]
    fn tool_calls_are_capped() {
        assert_eq!(for_tool_call(Duration::from_secs(540)), TOOL_CALL_CAP);
        assert_eq!(
            for_tool_call(Duration::from_secs(2)),
            Duration::from_secs(2)
        );
        assert_eq!(describe(Duration::from_millis(1500)), "1500ms");
        assert_eq!(describe(Duration::from_secs(3)), "3s");
    }
}
