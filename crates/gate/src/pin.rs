//! A session pinned when it starts: the repository root, the config in effect and the write
//! roots that every later tool call and stop of the session is judged by (DESIGN §0, rule 1).
//! A tool call's `cwd` or `workdir` only resolves relative paths inside this frame; it never
//! chooses the repository (a `cd ~`, a Codex `workdir`, or a `git init scratch` inside the
//! repository cannot move the referee).
//!
//! Pins live in the per-user state directory ([`state::user_state_dir`]), keyed by agent
//! and session id, outside every repository. A pin is written once (create-if-absent), so
//! two hook processes racing at a session's first call agree on one frame.

use crate::baseline::RecordedConfig;
use crate::config::{self, Loaded};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

pub const PIN_VERSION: u32 = 1;
/// Pins untouched for this long are removed when a new one is written.
const STALE_AFTER: Duration = Duration::from_secs(30 * 24 * 3600);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pin {
    pub version: u32,
    pub agent: String,
    pub session: String,
    /// The repository root (or the start directory outside any repository).
    pub root: PathBuf,
    pub in_repo: bool,
    /// Where the start directory came from: an agent's project-dir variable or the hook
    /// process's own working directory.
    pub origin: String,
    pub config: RecordedConfig,
    pub write_roots: Vec<PathBuf>,
    /// HEAD when the session was pinned: the start its stops are compared with, whatever
    /// happens to the baseline file in the repository.
    #[serde(default)]
    pub head: Option<String>,
    pub pinned_at: String,
}

/// Which `loopgate.toml` a new frame takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigFrom {
    /// The working tree's: a session that starts now, before the agent acted.
    WorkingTree,
    /// HEAD's: anything later (a stop first seen, a lost pin, a call without a session
    /// id), when the working tree may already hold the agent's edits.
    Committed,
}

impl Pin {
    /// The pinned config, parsed. It loaded when it was pinned, so an error here means the
    /// pin file was damaged.
    pub fn loaded(&self) -> anyhow::Result<Loaded> {
        config::from_bytes(
            self.config.text.as_deref().map(str::as_bytes),
            config::Source::Session {
                session: self.session.clone(),
            },
            &self.root.join(config::FILE_NAME),
            Vec::new,
        )
        .with_context(|| {
            format!(
                "the config pinned for session {} does not load",
                self.session
            )
        })
    }
}

/// Where the pins live; `None` without any home to keep them in.
pub fn dir() -> Option<PathBuf> {
    state::user_state_dir().map(|d| d.join("sessions"))
}

fn file_in(dir: &Path, agent: &str, session: &str) -> PathBuf {
    dir.join(format!(
        "{}.{}.json",
        crate::baseline::file_stem(agent),
        crate::baseline::file_stem(session)
    ))
}

/// The pin of `session`, if one was written. A damaged pin is an error (fail closed).
pub fn load(agent: &str, session: &str) -> anyhow::Result<Option<Pin>> {
    let dir = dir().context("no HOME or LOOPGATE_STATE_HOME to keep session pins in")?;
    read(&file_in(&dir, agent, session))
}

fn read(path: &Path) -> anyhow::Result<Option<Pin>> {
    match state::read_json::<Pin>(path) {
        Ok(pin) => Ok(Some(pin)),
        Err(state::ReadError::Missing) => Ok(None),
        Err(e) => anyhow::bail!(
            "the session pin {} cannot be read ({e}); remove it to start the session afresh",
            path.display()
        ),
    }
}

/// The frame of a session starting in `start`: its repository root, its working tree's
/// config and the write roots that config gives.
pub fn frame(
    agent: &str,
    session: &str,
    start: &Path,
    origin: &str,
    from: ConfigFrom,
) -> anyhow::Result<Pin> {
    let found = crate::git::root_of(start);
    let in_repo = found.is_some();
    let root = found.unwrap_or_else(|| start.to_path_buf());
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let repo = crate::git::Repo::discover(&root);
    let head = repo.as_ref().and_then(|r| r.resolve("HEAD").ok());
    let loaded = match (from, &repo, &head) {
        (ConfigFrom::Committed, Some(repo), Some(head)) => {
            crate::anchor::committed_config(repo, head, &root)?
        }
        _ => config::load(&root, Vec::new)?,
    };
    let write_roots =
        crate::roots::write_roots(&loaded.config, &root, crate::roots::home().as_deref());
    Ok(Pin {
        version: PIN_VERSION,
        agent: agent.to_string(),
        session: session.to_string(),
        root,
        in_repo,
        origin: origin.to_string(),
        config: RecordedConfig::of(&loaded),
        write_roots,
        head,
        pinned_at: jiff::Timestamp::now().to_string(),
    })
}

/// Why a pin is being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lost {
    /// There is none (a new session, or its pin file was removed).
    NoPin,
    /// There is one, but the repository it names is gone (moved or deleted).
    RootGone,
}

/// The session's pin, writing `candidate()` as the pin when there is none yet. Returns the
/// pin in force and whether this call created it. A pin whose root no longer exists is
/// replaced: the repository it named is gone, so nothing is left to protect there.
pub fn get_or_create(
    agent: &str,
    session: &str,
    candidate: impl FnOnce(Lost) -> anyhow::Result<Pin>,
) -> anyhow::Result<(Pin, bool)> {
    let dir = dir().context("no HOME or LOOPGATE_STATE_HOME to keep session pins in")?;
    let path = file_in(&dir, agent, session);
    let existing = read(&path)?;
    if let Some(pin) = &existing {
        if pin.root.is_dir() {
            return Ok((pin.clone(), false));
        }
    }
    let pin = candidate(if existing.is_some() {
        Lost::RootGone
    } else {
        Lost::NoPin
    })?;
    state::ensure_dir(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    prune(&dir);
    let bytes = serde_json::to_vec_pretty(&pin)?;
    if existing.is_some() {
        // Replace exactly the pin that was read; a racing writer that replaced it first wins.
        let _ = std::fs::remove_file(&path);
    }
    match state::create_new(&path, &bytes) {
        Ok(()) => Ok((pin, true)),
        // Another hook process of the same session pinned first: its frame wins.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let won = read(&path)?.context("the session pin vanished while being read")?;
            Ok((won, false))
        }
        Err(e) => Err(e).with_context(|| format!("cannot write {}", path.display())),
    }
}

fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > STALE_AFTER);
        if old && entry.file_name().to_string_lossy().ends_with(".json") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
