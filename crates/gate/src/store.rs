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
pub fn save(root: &Path, receipt: &Receipt, history_only: bool) -> anyhow::Result<PathBuf> {
    let dir = receipts_dir(root);
    state::ensure_dir(&state::state_dir(root))
        .and_then(|_| state::ensure_dir(&dir))
        .with_context(|| format!("cannot create {}", dir.display()))?;
    let stamp: String = receipt
        .started_at
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let name = format!(
        "{stamp}-{}.json",
        &receipt.body_hash[..12.min(receipt.body_hash.len())]
    );
    let history = dir.join(name);
    if history_only {
        state::write_json(&history, receipt)
            .with_context(|| format!("cannot write {}", history.display()))?;
        prune(&dir);
        return Ok(history);
    }
    let latest = latest_path(root);
    state::write_json(&latest, receipt)
        .with_context(|| format!("cannot write {}", latest.display()))?;
    // The history entry is the same bytes: a hard link costs no second write or sync.
    if std::fs::hard_link(&latest, &history).is_err() {
        state::write_json(&history, receipt)
            .with_context(|| format!("cannot write {}", history.display()))?;
    }
    prune(&dir);
    Ok(latest)
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
