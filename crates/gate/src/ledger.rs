//! The bounce ledger: how many times in a row a session's stop was refused without
//! progress, so the agent is sent back to work a bounded number of times and never held
//! hostage.
//!
//! The decision ([`on_stop`]) is a pure function of the previous entry and the new stop;
//! [`record_stop`] is the edge that reads and writes `.loopgate/ledger.json` under
//! `.loopgate/ledger.lock`, so parallel hook processes (subagents) never lose an update.
//!
//! Rules (DESIGN section 5):
//! - a green stop is allowed and clears the entry;
//! - a red stop is bounced while the budget lasts: `attempt N/M` counts consecutive bounces
//!   without progress, M = `[gate] max_bounces`;
//! - progress = strictly fewer problems (failing checks + fail-level findings) than the
//!   best this entry has ever seen; it refreshes the budget, and the agent is told so;
//! - once the budget is spent the stop is allowed (red receipt, loud stderr line) and the
//!   entry is marked exhausted;
//! - `stop_hook_active` (the agent is still continuing because a stop hook refused an
//!   earlier stop) never resets anything: an exhausted entry stays exhausted through such a
//!   chain. A stop with `active = false` after exhaustion comes from a fresh user turn (the
//!   human has seen the red receipt and asked for more), so it starts a fresh budget.
//! - a corrupt ledger file is reported and treated as empty, then overwritten: losing the
//!   counts can only make the gate bounce more, never let a stop through that would have
//!   been refused.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

pub const FILE_NAME: &str = "ledger.json";
pub const LOCK_NAME: &str = "ledger.lock";
const VERSION: u32 = 1;

/// One session's (or one subagent's) bounce history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The fewest problems any stop of this entry has had.
    pub best: u32,
    /// Problems at the latest stop.
    pub last: u32,
    /// Consecutive bounces in the current budget (the first bounce counts as 1).
    pub bounces: u32,
    /// Every bounce this entry has handed out, for the record.
    pub total_bounces: u32,
    /// The budget was spent and a red stop was let through.
    pub exhausted: bool,
}

/// What to do with a stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopDecision {
    /// Green: let the agent stop.
    Allow,
    /// Red, budget left: send the agent back with `attempt attempt/max`.
    Bounce {
        attempt: u32,
        max: u32,
        /// `(before, now)` when this stop made progress and refreshed the budget.
        progress: Option<(u32, u32)>,
    },
    /// Red, budget spent: let the stop through with a red receipt and say so loudly.
    GiveUp { problems: u32, bounces: u32 },
}

impl StopDecision {
    /// The line the agent reads about its budget (empty for allow).
    pub fn budget_line(&self) -> String {
        match *self {
            StopDecision::Allow => String::new(),
            StopDecision::Bounce {
                attempt,
                max,
                progress,
            } => {
                let mut line = String::new();
                if let Some((before, now)) = progress {
                    line.push_str(&format!(
                        "progress: {before} -> {now} problems, bounce budget refreshed. "
                    ));
                }
                line.push_str(&format!("attempt {attempt}/{max}"));
                line
            }
            StopDecision::GiveUp { problems, bounces } => format!(
                "bounce budget spent after {bounces} bounce(s) without progress; \
                 the stop is let through with a red receipt ({problems} problem(s) left)"
            ),
        }
    }
}

/// The ledger key of a session, or of one subagent within it.
pub fn key(session: &str, agent_id: Option<&str>) -> String {
    match agent_id {
        Some(id) if !id.is_empty() => format!("{session}/{id}"),
        _ => session.to_string(),
    }
}

/// The pure transition: previous entry + this stop -> decision and the entry to keep
/// (`None` clears it).
pub fn on_stop(
    prev: Option<&Entry>,
    problems: u32,
    green: bool,
    max_bounces: u32,
    active: bool,
) -> (StopDecision, Option<Entry>) {
    if green {
        return (StopDecision::Allow, None);
    }
    let bounce = |best: u32, bounces: u32, total: u32, progress| {
        (
            StopDecision::Bounce {
                attempt: bounces,
                max: max_bounces,
                progress,
            },
            Some(Entry {
                best,
                last: problems,
                bounces,
                total_bounces: total,
                exhausted: false,
            }),
        )
    };
    let give_up = |best: u32, bounces: u32, total: u32| {
        (
            StopDecision::GiveUp { problems, bounces },
            Some(Entry {
                best,
                last: problems,
                bounces,
                total_bounces: total,
                exhausted: true,
            }),
        )
    };
    let Some(prev) = prev else {
        return if max_bounces == 0 {
            give_up(problems, 0, 0)
        } else {
            bounce(problems, 1, 1, None)
        };
    };
    let best = prev.best.min(problems);
    let progress = (problems < prev.best).then_some((prev.best, problems));
    let fresh_turn = prev.exhausted && !active;
    if (progress.is_some() || fresh_turn) && max_bounces > 0 {
        return bounce(best, 1, prev.total_bounces + 1, progress);
    }
    if prev.exhausted || prev.bounces >= max_bounces {
        return give_up(best, prev.bounces, prev.total_bounces);
    }
    bounce(best, prev.bounces + 1, prev.total_bounces + 1, None)
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct LedgerFile {
    version: u32,
    entries: BTreeMap<String, Entry>,
}

pub fn path(repo_root: &Path) -> PathBuf {
    state::state_dir(repo_root).join(FILE_NAME)
}

/// What [`record_stop`] decided, plus a warning to print on stderr (a corrupt ledger).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub decision: StopDecision,
    pub warning: Option<String>,
}

/// Read-modify-write the ledger entry `key` for one stop, under the ledger lock.
pub fn record_stop(
    repo_root: &Path,
    key: &str,
    problems: u32,
    green: bool,
    max_bounces: u32,
    active: bool,
) -> io::Result<Recorded> {
    stage_stop(repo_root, key, problems, green, max_bounces, active)?.commit()
}

/// A stop counted but not yet written: the new ledger is complete and synced beside
/// `ledger.json`, and the ledger lock is held until [`PendingStop::commit`] renames it into
/// place. Dropping it leaves the ledger as it was, so a stop whose receipt then cannot be
/// stored is counted once, as the error it became, never twice.
pub struct PendingStop {
    recorded: Recorded,
    staged: Option<state::Staged>,
    _lock: state::Lock,
}

impl PendingStop {
    pub fn commit(self) -> io::Result<Recorded> {
        if let Some(staged) = self.staged {
            staged.commit()?;
        }
        Ok(self.recorded)
    }
}

/// [`record_stop`] up to, not including, the rename of the new ledger.
pub fn stage_stop(
    repo_root: &Path,
    key: &str,
    problems: u32,
    green: bool,
    max_bounces: u32,
    active: bool,
) -> io::Result<PendingStop> {
    let dir = state::state_dir(repo_root);
    let lock = state::Lock::acquire(&dir.join(LOCK_NAME), state::deadline::for_lock())?;
    let file = dir.join(FILE_NAME);
    let (mut ledger, warning) = load(&file)?;
    let (decision, entry) = on_stop(
        ledger.entries.get(key),
        problems,
        green,
        max_bounces,
        active,
    );
    let before = ledger.entries.get(key).copied();
    match entry {
        Some(e) => {
            ledger.entries.insert(key.to_string(), e);
        }
        None => {
            ledger.entries.remove(key);
        }
    }
    let staged = if before != entry || warning.is_some() {
        ledger.version = VERSION;
        Some(state::stage_json(&file, &ledger)?)
    } else {
        None
    };
    Ok(PendingStop {
        recorded: Recorded { decision, warning },
        staged,
        _lock: lock,
    })
}

/// The current entry for `key` (a corrupt or missing ledger reads as no entry).
pub fn entry(repo_root: &Path, key: &str) -> Option<Entry> {
    load(&path(repo_root)).ok()?.0.entries.get(key).copied()
}

fn load(file: &Path) -> io::Result<(LedgerFile, Option<String>)> {
    match state::read_json::<LedgerFile>(file) {
        Ok(l) if l.version == VERSION => Ok((l, None)),
        Ok(l) => Ok((
            LedgerFile::default(),
            Some(format!(
                "{}: ledger version {} is not understood; starting a fresh ledger",
                file.display(),
                l.version
            )),
        )),
        Err(state::ReadError::Missing) => Ok((LedgerFile::default(), None)),
        Err(state::ReadError::Corrupt(e)) => Ok((
            LedgerFile::default(),
            Some(format!(
                "{}: corrupt ledger ({e}); starting a fresh ledger",
                file.display()
            )),
        )),
        Err(state::ReadError::Io(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(best: u32, last: u32, bounces: u32, exhausted: bool) -> Entry {
        Entry {
            best,
            last,
            bounces,
            total_bounces: bounces,
            exhausted,
        }
    }

    #[test]
    fn green_allows_and_clears() {
        assert_eq!(
            on_stop(None, 0, true, 3, false),
            (StopDecision::Allow, None)
        );
        let prev = entry(2, 2, 2, false);
        assert_eq!(
            on_stop(Some(&prev), 0, true, 3, true),
            (StopDecision::Allow, None)
        );
        let spent = entry(2, 2, 3, true);
        assert_eq!(
            on_stop(Some(&spent), 0, true, 3, true),
            (StopDecision::Allow, None)
        );
    }

    #[test]
    fn first_red_stop_is_attempt_one() {
        let (d, e) = on_stop(None, 4, false, 3, false);
        assert_eq!(
            d,
            StopDecision::Bounce {
                attempt: 1,
                max: 3,
                progress: None
            }
        );
        assert_eq!(
            e,
            Some(Entry {
                best: 4,
                last: 4,
                bounces: 1,
                total_bounces: 1,
                exhausted: false
            })
        );
        assert_eq!(d.budget_line(), "attempt 1/3");
    }

    #[test]
    fn stall_counts_up_then_gives_up_and_stays_exhausted() {
        let (d1, e1) = on_stop(None, 2, false, 2, false);
        assert!(matches!(d1, StopDecision::Bounce { attempt: 1, .. }));
        let (d2, e2) = on_stop(e1.as_ref(), 2, false, 2, true);
        assert_eq!(
            d2,
            StopDecision::Bounce {
                attempt: 2,
                max: 2,
                progress: None
            }
        );
        let (d3, e3) = on_stop(e2.as_ref(), 3, false, 2, true);
        assert_eq!(
            d3,
            StopDecision::GiveUp {
                problems: 3,
                bounces: 2
            }
        );
        let e3 = e3.unwrap();
        assert!(e3.exhausted);
        assert_eq!(e3.best, 2, "a worse stop never lowers the bar for progress");
        assert!(d3.budget_line().contains("bounce budget spent"));
        // Still inside the continuation chain (another hook kept it going): stays exhausted.
        let (d4, e4) = on_stop(Some(&e3), 2, false, 2, true);
        assert!(matches!(d4, StopDecision::GiveUp { .. }));
        assert!(e4.unwrap().exhausted);
    }

    #[test]
    fn progress_refreshes_and_is_announced() {
        let prev = entry(5, 5, 3, false);
        let (d, e) = on_stop(Some(&prev), 3, false, 3, true);
        assert_eq!(
            d,
            StopDecision::Bounce {
                attempt: 1,
                max: 3,
                progress: Some((5, 3))
            }
        );
        assert_eq!(
            d.budget_line(),
            "progress: 5 -> 3 problems, bounce budget refreshed. attempt 1/3"
        );
        let e = e.unwrap();
        assert_eq!((e.best, e.bounces, e.total_bounces), (3, 1, 4));
    }

    #[test]
    fn equal_problems_are_not_progress() {
        let prev = entry(3, 4, 3, false);
        let (d, _) = on_stop(Some(&prev), 3, false, 3, true);
        assert!(matches!(
            d,
            StopDecision::GiveUp {
                problems: 3,
                bounces: 3
            }
        ));
    }

    #[test]
    fn progress_after_exhaustion_refreshes() {
        let spent = entry(4, 4, 3, true);
        let (d, e) = on_stop(Some(&spent), 1, false, 3, true);
        assert_eq!(
            d,
            StopDecision::Bounce {
                attempt: 1,
                max: 3,
                progress: Some((4, 1))
            }
        );
        assert!(!e.unwrap().exhausted);
    }

    #[test]
    fn fresh_user_turn_after_exhaustion_gets_a_new_budget() {
        let spent = entry(4, 4, 3, true);
        let (d, e) = on_stop(Some(&spent), 4, false, 3, false);
        assert_eq!(
            d,
            StopDecision::Bounce {
                attempt: 1,
                max: 3,
                progress: None
            }
        );
        assert!(!e.unwrap().exhausted);
    }

    #[test]
    fn active_flag_alone_never_resets_a_running_budget() {
        let prev = entry(2, 2, 2, false);
        let (d, _) = on_stop(Some(&prev), 2, false, 3, false);
        assert_eq!(
            d,
            StopDecision::Bounce {
                attempt: 3,
                max: 3,
                progress: None
            }
        );
    }

    #[test]
    fn zero_budget_never_bounces() {
        let (d, e) = on_stop(None, 1, false, 0, false);
        assert_eq!(
            d,
            StopDecision::GiveUp {
                problems: 1,
                bounces: 0
            }
        );
        assert!(e.unwrap().exhausted);
        let (d, _) = on_stop(Some(&entry(5, 5, 0, true)), 1, false, 0, false);
        assert!(
            matches!(d, StopDecision::GiveUp { .. }),
            "no budget to refresh"
        );
    }

    #[test]
    fn keys_separate_subagents() {
        assert_eq!(key("s1", None), "s1");
        assert_eq!(key("s1", Some("")), "s1");
        assert_eq!(key("s1", Some("a7")), "s1/a7");
    }

    #[test]
    fn record_stop_persists_per_key_and_clears_on_green() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let r = record_stop(root, "s", 2, false, 3, false).unwrap();
        assert_eq!(
            r.decision,
            StopDecision::Bounce {
                attempt: 1,
                max: 3,
                progress: None
            }
        );
        record_stop(root, "s/sub", 1, false, 3, false).unwrap();
        let r = record_stop(root, "s", 2, false, 3, true).unwrap();
        assert!(matches!(
            r.decision,
            StopDecision::Bounce { attempt: 2, .. }
        ));
        assert_eq!(
            super::entry(root, "s/sub").unwrap().bounces,
            1,
            "subagent entry is its own"
        );
        let r = record_stop(root, "s", 0, true, 3, true).unwrap();
        assert_eq!(r.decision, StopDecision::Allow);
        assert_eq!(super::entry(root, "s"), None);
        assert!(
            super::entry(root, "s/sub").is_some(),
            "green main stop leaves subagents alone"
        );
    }

    #[test]
    fn corrupt_ledger_is_reported_and_started_afresh() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(state::state_dir(root)).unwrap();
        std::fs::write(path(root), b"{ half a ledger").unwrap();
        let r = record_stop(root, "s", 2, false, 3, false).unwrap();
        assert!(
            r.warning.as_deref().unwrap().contains("corrupt ledger"),
            "{:?}",
            r.warning
        );
        assert_eq!(
            r.decision,
            StopDecision::Bounce {
                attempt: 1,
                max: 3,
                progress: None
            }
        );
        let r = record_stop(root, "s", 2, false, 3, true).unwrap();
        assert_eq!(r.warning, None, "the rewrite repaired the file");
        assert!(matches!(
            r.decision,
            StopDecision::Bounce { attempt: 2, .. }
        ));
    }

    #[test]
    fn concurrent_stops_never_lose_an_update() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let root = root.clone();
                std::thread::spawn(move || {
                    for _ in 0..5 {
                        record_stop(&root, &format!("s/{i}"), 1, false, 100, true).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        for i in 0..8 {
            assert_eq!(super::entry(&root, &format!("s/{i}")).unwrap().bounces, 5);
        }
    }
}
