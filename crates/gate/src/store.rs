//! Receipts on disk: `.loopgate/receipts/latest.json` plus a bounded history.

use crate::receipt::Receipt;
use anyhow::Context;
use std::path::{Path, PathBuf};

/// Receipts kept besides `latest.json`.
pub const HISTORY: usize = 20;

pub fn receipts_dir(root: &Path) -> PathBuf {
    state::state_dir(root).join("receipts")
}

pub fn latest_path(root: &Path) -> PathBuf {
    receipts_dir(root).join("latest.json")
}

/// Store `receipt` in the history and, unless `history_only`, as `latest.json`. A
/// subagent's guards-only receipt goes to the history only, so `latest.json` stays the
/// main session's verdict.
///
/// Concurrent runs never mix receipts: the history file is written through its own temp
/// file to a name derived from its own hash, and `latest.json` is replaced by renaming a
/// fresh link to that history file, so whichever run renames last wins whole.
pub fn save(root: &Path, receipt: &Receipt, history_only: bool) -> anyhow::Result<PathBuf> {
    let dir = receipts_dir(root);
    state::ensure_dir(&state::state_dir(root))
        .and_then(|_| state::ensure_dir(&dir))
        .with_context(|| format!("cannot create {}", dir.display()))?;
    let history = dir.join(history_name(receipt));
    state::write_json(&history, receipt)
        .with_context(|| format!("cannot write {}", history.display()))?;
    if history_only {
        prune(&dir);
        return Ok(history);
    }
    let latest = latest_path(root);
    // The same bytes without a second write and sync: a link to our own history file under
    // a name only this process uses, renamed over `latest.json`. If pruning by a parallel
    // run already took the history file, write `latest.json` itself.
    if publish_link(&history, &latest, receipt).is_err() {
        state::write_json(&latest, receipt)
            .with_context(|| format!("cannot write {}", latest.display()))?;
    }
    prune(&dir);
    Ok(latest)
}

/// `<started_at, alphanumerics only>-<first 12 hex digits of body_hash>.json`.
pub fn history_name(receipt: &Receipt) -> String {
    let stamp = stamp_of(&receipt.started_at);
    format!(
        "{stamp}-{}.json",
        &receipt.body_hash[..12.min(receipt.body_hash.len())]
    )
}

fn publish_link(history: &Path, latest: &Path, receipt: &Receipt) -> std::io::Result<()> {
    let dir = latest.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        "{}{}",
        state::cleanup::temp_prefix(),
        &receipt.body_hash[..12.min(receipt.body_hash.len())]
    ));
    let _ = std::fs::remove_file(&tmp);
    std::fs::hard_link(history, &tmp)?;
    std::fs::rename(&tmp, latest).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Remove the oldest history receipts so that one more fits in [`HISTORY`]: for a run
/// started at `started_at` (its receipt's time stamp) that is about to store its receipt,
/// done while the run is still judging. Removing a file can cost milliseconds (a file
/// system that discards freed blocks at once, as ext4 mounted with `discard` and no
/// journal does), which after the write would be spent while the agent waits for the
/// answer. Only receipts older than the run count, so a removal that comes late (after
/// the run stored its own) still leaves the run's receipt and [`HISTORY`] in all.
pub fn make_room(root: &Path, started_at: &str) {
    let stamp = stamp_of(started_at);
    prune_to(&receipts_dir(root), HISTORY - 1, |name| {
        name < stamp.as_str()
    });
}

fn stamp_of(started_at: &str) -> String {
    started_at
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect()
}

fn prune(dir: &Path) {
    prune_to(dir, HISTORY, |_| true);
}

/// Keep the `keep` newest history receipts among those whose name `counts`.
fn prune_to(dir: &Path, keep: usize, counts: impl Fn(&str) -> bool) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut names: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n != "latest.json" && counts(n))
        })
        .collect();
    names.sort();
    let excess = names.len().saturating_sub(keep);
    for old in names.into_iter().take(excess) {
        let _ = std::fs::remove_file(old);
    }
}

/// The latest receipt; a missing one is `Ok(None)`, a corrupt one an error.
pub fn latest(root: &Path) -> anyhow::Result<Option<Receipt>> {
    let path = latest_path(root);
    match state::read_json::<Receipt>(&path) {
        Ok(r) => Ok(Some(r)),
        Err(state::ReadError::Missing) => Ok(None),
        Err(e) => anyhow::bail!(
            "{}: {e}; run `loopgate check` to write a new one",
            path.display()
        ),
    }
}

/// What every stored receipt (latest and history) says the audit log had reached when it
/// was sealed, for `audit verify` to hold the log to. Receipts whose seal does not verify
/// vouch for nothing and are left out.
pub fn audit_witnesses(root: &Path) -> Vec<audit::Witness> {
    let Ok(entries) = std::fs::read_dir(receipts_dir(root)) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|path| {
            let receipt = state::read_json::<Receipt>(&path).ok()?;
            let point = receipt.audit.clone().filter(|_| receipt.verify_seal())?;
            Some(audit::Witness {
                seq: point.seq,
                hash: point.hash,
                source: format!("the receipt {}", path.display()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn making_room_leaves_space_for_exactly_one_more_and_keeps_the_newest() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = receipts_dir(tmp.path());
        std::fs::create_dir_all(&dir).unwrap();
        let name = |i: usize| format!("20260101T0000{i:02}Z-abcdef012345.json");
        for i in 0..HISTORY + 3 {
            std::fs::write(dir.join(name(i)), b"{}").unwrap();
        }
        std::fs::write(dir.join("latest.json"), b"{}").unwrap();
        make_room(tmp.path(), "2026-01-01T00:01:00Z");
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left.len(), HISTORY, "{left:?}");
        assert_eq!(left.last().unwrap(), "latest.json");
        assert_eq!(left[0], name(4), "the oldest four went");
        // The store's own pruning then keeps the bound with the new receipt in.
        std::fs::write(dir.join(name(HISTORY + 3)), b"{}").unwrap();
        prune(&dir);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), HISTORY + 1);
    }

    #[test]
    fn making_room_late_never_takes_the_runs_own_receipt_or_more_than_one() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = receipts_dir(tmp.path());
        std::fs::create_dir_all(&dir).unwrap();
        let name = |i: usize| format!("20260101T0000{i:02}Z-abcdef012345.json");
        // The run (started at second 20) already stored its receipt and pruned to the bound.
        for i in 1..=HISTORY {
            std::fs::write(dir.join(name(i)), b"{}").unwrap();
        }
        make_room(tmp.path(), "2026-01-01T00:00:20Z");
        assert!(
            dir.join(name(HISTORY)).exists(),
            "the run's own receipt stays"
        );
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), HISTORY);
    }
}
