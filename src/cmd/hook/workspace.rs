//! Where a hook call happens: the session's pinned frame (repository root, config, write
//! roots) and the agent's cwd inside it, resolved once at the edge so the decisions stay
//! pure. The frame is pinned at the session's first hook call from the agent's project-dir
//! variable or the hook process's own working directory, never from a payload's `cwd`.

use agents::{AgentKind, HookInput};
use gate::config::{Config, Loaded};
use std::path::{Path, PathBuf};

/// The agent's cwd when it sent one, made absolute against `base`, else `base`. It only
/// resolves relative paths; it never chooses the repository.
pub fn cwd_of(input: &HookInput, base: &Path) -> PathBuf {
    match &input.cwd {
        Some(cwd) if !cwd.as_os_str().is_empty() => sandbox::normalize(cwd, base, None),
        _ => base.to_path_buf(),
    }
}

/// The variables in which each agent names the project it was started in.
fn project_dir_vars(kind: AgentKind) -> &'static [&'static str] {
    match kind {
        AgentKind::Claude => &["CLAUDE_PROJECT_DIR"],
        AgentKind::Gemini => &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        AgentKind::Cursor => &["CURSOR_PROJECT_DIR"],
        AgentKind::Codex => &[],
    }
}

/// Where the session started: the agent's project-dir variable when it sets one, else the
/// hook process's own working directory (`dir`). Never the payload.
pub fn start_of(kind: AgentKind, dir: &Path) -> (PathBuf, String) {
    for var in project_dir_vars(kind) {
        if let Some(value) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            let path = PathBuf::from(value);
            if path.is_absolute() && path.is_dir() {
                return (path, format!("${var}"));
            }
        }
    }
    (absolute(dir), "the hook's working directory".into())
}

fn absolute(dir: &Path) -> PathBuf {
    if dir.is_absolute() {
        return dir.to_path_buf();
    }
    match std::env::current_dir() {
        Ok(cwd) => sandbox::normalize(dir, &cwd, None),
        Err(_) => dir.to_path_buf(),
    }
}

pub use gate::roots::home;

/// The session's frame could not be had (its config does not load, its pin is damaged).
/// `root` is the repository the session started in, when there is one, so the refusal can
/// still be audited and counted in the bounce ledger.
#[derive(Debug)]
pub struct FrameError {
    pub root: Option<PathBuf>,
    pub message: String,
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// What each seat is handed: the pinned workspace, or why there is none.
pub type Frame<'a> = Result<&'a Workspace, &'a FrameError>;

/// Everything the tool gate needs, resolved.
pub struct Workspace {
    /// The repository root, or the cwd outside any repository.
    pub root: PathBuf,
    pub in_repo: bool,
    /// `loopgate.toml` exists (else the embedded defaults apply).
    pub from_file: bool,
    pub cwd: PathBuf,
    pub home: Option<PathBuf>,
    pub config: Config,
    /// The config as loaded (text and hash), for recording as the session's anchor.
    pub loaded: Loaded,
    pub write_roots: Vec<PathBuf>,
    /// The pinned start a hook session's stops are judged against (`None` for a frame that
    /// was not pinned).
    pub start: Option<gate::comparison::PinnedStart>,
}

impl Workspace {
    /// The pinned frame of this hook call's session. Only the events that come before the
    /// agent acts (SessionStart, a tool call) may pin: a session first seen at a stop, or a
    /// call without a session id, is framed afresh with HEAD's committed config and nothing
    /// is written. Returns the workspace and whether the pin was created now.
    pub fn pinned(
        input: &HookInput,
        dir: &Path,
        may_pin: bool,
    ) -> Result<(Workspace, bool), FrameError> {
        Workspace::pin(input, dir, may_pin).map_err(|e| {
            let (start, _) = start_of(input.agent, dir);
            FrameError {
                root: gate::git::root_of(&start),
                message: e,
            }
        })
    }

    fn pin(input: &HookInput, dir: &Path, may_pin: bool) -> Result<(Workspace, bool), String> {
        use gate::pin::{ConfigFrom, Lost};
        let agent = input.agent.name();
        let session = super::evidence::session_of(input);
        let (start, origin) = start_of(input.agent, dir);
        let fresh = |from: ConfigFrom| gate::pin::frame(agent, &session, &start, &origin, from);
        let has_id = input.session_id.as_deref().is_some_and(|s| !s.is_empty());
        let existing = if has_id {
            gate::pin::load(agent, &session).map_err(|e| format!("{e:#}"))?
        } else {
            None
        };
        let (pin, created, pinned) = match existing {
            Some(pin) if pin.root.is_dir() => (pin, false, true),
            _ if has_id && may_pin => {
                let (pin, created) = gate::pin::get_or_create(agent, &session, |lost| {
                    // A session that already left a baseline, or whose repository moved,
                    // lost its pin mid-life: the working tree may hold the agent's edits.
                    let known = lost == Lost::RootGone || has_baseline(&start, &session);
                    fresh(if known {
                        ConfigFrom::Committed
                    } else {
                        ConfigFrom::WorkingTree
                    })
                })
                .map_err(|e| format!("{e:#}"))?;
                (pin, created, true)
            }
            _ => (
                fresh(ConfigFrom::Committed).map_err(|e| format!("{e:#}"))?,
                false,
                false,
            ),
        };
        if pinned {
            check_project(&start, &origin, &pin)?;
        }
        let loaded = pin.loaded().map_err(|e| format!("{e:#}"))?;
        let cwd = cwd_of(input, &pin.root);
        let start = pinned.then(|| gate::comparison::PinnedStart {
            session: session.clone(),
            config: pin.config.clone(),
            head: pin.head.clone(),
            baseline_created_at: None,
            started_at: pin.pinned_at.clone(),
        });
        Ok((
            Workspace {
                root: pin.root.clone(),
                in_repo: pin.in_repo,
                from_file: loaded.text.is_some(),
                cwd,
                home: home(),
                config: loaded.config.clone(),
                loaded,
                write_roots: pin.write_roots.clone(),
                start,
            },
            created,
        ))
    }

    /// Load the config of the repository around `cwd`. Checks are not detected here: the
    /// tool gate does not run them, and detection reads files a tool call should not pay for.
    pub fn load(cwd: &Path) -> Result<Workspace, String> {
        let found = gate::git::root_of(cwd);
        let in_repo = found.is_some();
        let root = canonical(&found.unwrap_or_else(|| cwd.to_path_buf()));
        let loaded: Loaded = gate::config::load(&root, Vec::new).map_err(|e| e.to_string())?;
        let home = home();
        let write_roots = gate::roots::write_roots(&loaded.config, &root, home.as_deref());
        Ok(Workspace {
            root,
            in_repo,
            from_file: loaded.text.is_some(),
            cwd: cwd.to_path_buf(),
            home,
            config: loaded.config.clone(),
            loaded,
            write_roots,
            start: None,
        })
    }
}

pub fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Where writes to `paths` really land: each made absolute and normalized, then symlinks
/// followed (a write through `link/x` where `link -> /etc` lands in `/etc`), or the dangling
/// link that decides it. All the paths of one call go through one [`roots::Landings`], which looks at a directory
/// they share once (a patch may name a hundred thousand files in one directory).
pub fn resolve_targets(paths: &[PathBuf], cwd: &Path, home: Option<&Path>) -> Vec<roots::Landing> {
    let mut landings = roots::Landings::new();
    paths
        .iter()
        .map(|p| landings.resolve(&sandbox::normalize(p, cwd, home)))
        .collect()
}

/// The session already recorded a baseline in the repository around `start`.
fn has_baseline(start: &Path, session: &str) -> bool {
    gate::git::root_of(start).is_some_and(|root| gate::baseline::file_for(&root, session).exists())
}

/// When the agent names its project, the pin must be that project's: a session id reused
/// in another repository is refused rather than judged in the first.
fn check_project(start: &Path, origin: &str, pin: &gate::pin::Pin) -> Result<(), String> {
    if !origin.starts_with('$') {
        return Ok(());
    }
    let start = canonical(start);
    if start.starts_with(&pin.root) || pin.root.starts_with(&start) {
        return Ok(());
    }
    Err(format!(
        "session {} is pinned to {}, but {origin} names {}: a session id is never judged in another project; start a new session there",
        pin.session,
        pin.root.display(),
        start.display()
    ))
}

/// The session's baseline, recorded once, anchored to the pinned config.
pub fn record_baseline(
    ws: &Workspace,
    session: &str,
) -> anyhow::Result<gate::baseline::BaselineOutcome> {
    let repo = gate::baseline::discover(&ws.root)?;
    gate::baseline::record_anchored(&repo, session, true, &ws.loaded)
}
