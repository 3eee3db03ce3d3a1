//! The config in effect comes from the comparison point, never from the tree being judged
//! (DESIGN §0, rule 1): the explicit ref in judge mode, the config recorded in the session
//! baseline in a session, the committed file otherwise. A config the agent changed is a
//! `config_edits` finding judged by the bar that was in force before the change.

use crate::baseline::{Baseline, RecordedConfig};
use crate::comparison::Point;
use crate::config::{self, CheckSpec, ConfigError, Loaded, Source};
use crate::git::Repo;
use crate::receipt::BaselineKind;
use std::path::Path;

/// The config in effect and why it was chosen.
#[derive(Debug, Clone)]
pub struct Anchored {
    pub loaded: Loaded,
    /// One sentence for the receipt and the terminal.
    pub why: String,
    /// The anchor commit has no `loopgate.toml` and the working tree adds one, with no
    /// session to judge: the new file is adopted as written (the first run after `init`).
    pub bootstrap: bool,
}

/// Pick the config in effect for `point` in the repository at `root`.
pub fn config_in_effect(
    repo: Option<&Repo>,
    root: &Path,
    point: &Point,
    detected: impl FnOnce() -> Vec<CheckSpec>,
) -> anyhow::Result<Anchored> {
    match (point.info.kind, repo, point.commit.as_deref()) {
        (BaselineKind::Session, _, _) if point.baseline.as_ref().is_some_and(has_record) => {
            let b = point.baseline.as_ref().expect("checked above");
            let record = b.config.as_ref().expect("checked above");
            let loaded = from_record(record, &b.session, root, detected)?;
            Ok(Anchored {
                why: format!(
                    "the config recorded when session {} started (an edit made during the session cannot lower its bar)",
                    b.session
                ),
                loaded,
                bootstrap: false,
            })
        }
        (BaselineKind::None, _, _) | (_, None, _) | (_, _, None) => Ok(Anchored {
            loaded: config::load(root, detected)?,
            why: "no commit to compare with, so the working tree's config is the only one".into(),
            bootstrap: false,
        }),
        (kind, Some(repo), Some(commit)) => {
            let committed = committed_bytes(repo, commit)?;
            let short = &commit[..commit.len().min(12)];
            if committed.is_none() && kind == BaselineKind::Head && working_has_file(root) {
                return Ok(Anchored {
                    loaded: config::load(root, detected)?,
                    why: format!(
                        "{} is not committed yet, so it is used as written; commit it and it anchors every later run",
                        config::FILE_NAME
                    ),
                    bootstrap: true,
                });
            }
            let name = root.join(config::FILE_NAME);
            let loaded = config::from_bytes(
                committed.as_deref(),
                Source::Commit {
                    commit: commit.to_string(),
                },
                &name,
                detected,
            )
            .map_err(|e| anchor_error(e, short))?;
            let what = match kind {
                BaselineKind::Explicit => "the explicit comparison ref",
                BaselineKind::MergeBase => "the merge-base with the default branch",
                BaselineKind::Session => {
                    "the session's start commit (the baseline predates recorded configs)"
                }
                _ => "HEAD",
            };
            let why = if committed.is_some() {
                format!("from {what}: the tree being judged never sets its own bar")
            } else {
                format!(
                    "the embedded default: there is no {} at {short}, {what}",
                    config::FILE_NAME
                )
            };
            Ok(Anchored {
                loaded,
                why,
                bootstrap: false,
            })
        }
    }
}

/// `loopgate.toml` as committed at `commit` (the embedded default when it has none).
pub fn committed_config(repo: &Repo, commit: &str, root: &Path) -> anyhow::Result<Loaded> {
    let bytes = committed_bytes(repo, commit)?;
    let short = &commit[..commit.len().min(12)];
    config::from_bytes(
        bytes.as_deref(),
        Source::Commit {
            commit: commit.to_string(),
        },
        &root.join(config::FILE_NAME),
        Vec::new,
    )
    .map_err(|e| anchor_error(e, short))
}

/// The config pinned for a hook session: the bar of its whole life.
pub fn pinned(
    record: &RecordedConfig,
    session: &str,
    root: &Path,
    detected: impl FnOnce() -> Vec<CheckSpec>,
) -> anyhow::Result<Anchored> {
    Ok(Anchored {
        loaded: from_record(record, session, root, detected)?,
        why: format!(
            "the config pinned when session {session} started (nothing in the repository can change it during the session)"
        ),
        bootstrap: false,
    })
}

fn has_record(b: &Baseline) -> bool {
    b.config.is_some()
}

fn from_record(
    record: &RecordedConfig,
    session: &str,
    root: &Path,
    detected: impl FnOnce() -> Vec<CheckSpec>,
) -> anyhow::Result<Loaded> {
    let name = root.join(config::FILE_NAME);
    config::from_bytes(
        record.text.as_deref().map(str::as_bytes),
        Source::Session {
            session: session.to_string(),
        },
        &name,
        detected,
    )
    .map_err(|e| {
        anyhow::anyhow!(
            "the config recorded for session {session} does not load ({e}); record a new baseline with `loopgate baseline --session {session}`"
        )
    })
}

fn working_has_file(root: &Path) -> bool {
    std::fs::symlink_metadata(root.join(config::FILE_NAME)).is_ok()
}

fn committed_bytes(repo: &Repo, commit: &str) -> anyhow::Result<Option<Vec<u8>>> {
    let mut blobs = repo.blobs_at(commit, &[config::FILE_NAME.to_string()])?;
    let bytes = blobs.pop().flatten();
    if let Some(b) = &bytes {
        if b.len() as u64 > config::MAX_FILE_BYTES {
            anyhow::bail!(
                "{} at {commit} is {} bytes, over the {}-byte limit",
                config::FILE_NAME,
                b.len(),
                config::MAX_FILE_BYTES
            );
        }
    }
    Ok(bytes)
}

fn anchor_error(e: ConfigError, short: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "the config in effect is {} as committed at {short}, and it does not load: {e}; fix it in a commit (the working tree's copy is not trusted to judge itself)",
        config::FILE_NAME
    )
}
