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
    let stamp: String = receipt
        .started_at
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
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

fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut names: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|e| e == "json")
                && p.file_name().is_some_and(|n| n != "latest.json")
        })
        .collect();
    names.sort();
    let excess = names.len().saturating_sub(HISTORY);
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
