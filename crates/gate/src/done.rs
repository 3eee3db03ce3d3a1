//! The done gate as one call: load config, pick the comparison point, run checks and
//! guards, build, seal and store the receipt. Used by `check`, the hooks and `run`.

use crate::comparison::{self, PointRequest};
use crate::config::{self, Level};
use crate::git::Repo;
use crate::guards::{run_guards_near, GuardReport};
use crate::receipt::{CheckResult, ConfigInfo, Environment, Receipt, RepoInfo, RECEIPT_VERSION};
use crate::runner::{self, RunOptions};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, Clone, Default)]
pub struct DoneRequest {
    /// cli, claude, codex, cursor, gemini, run.
    pub via: String,
    pub session: Option<String>,
    /// `--session` named on the command line: a missing baseline is an error.
    pub require_session: bool,
    /// Judge mode: compare with this ref; a ref that does not resolve is an error.
    pub against: Option<String>,
    /// Only these checks (empty: all).
    pub only: Vec<String>,
    pub run_checks: bool,
    pub run_guards: bool,
    /// Checks still running at this instant are killed and reported as `timeout`.
    pub deadline: Option<Instant>,
    /// Do not write the receipt to `.loopgate/receipts/`.
    pub no_store: bool,
    /// Keep the receipt out of `latest.json` (a subagent's stop).
    pub history_only: bool,
    /// The agent whose work this is ran under Landlock (`loopgate run --confine`).
    pub confined_run: bool,
    /// A hook session's pinned start: it, not the files in `.loopgate/`, sets the point and
    /// the config in effect.
    pub pinned: Option<comparison::PinnedStart>,
}

/// Called around each check so a terminal can show progress.
pub trait Progress {
    fn check_started(&self, _name: &str, _index: usize, _total: usize) {}
    fn check_finished(&self, _result: &CheckResult) {}
}

struct Silent;
impl Progress for Silent {}

/// The repository root containing `dir` (or `dir` itself outside git).
pub fn find_root(dir: &Path) -> (Option<Repo>, PathBuf) {
    match Repo::discover(dir) {
        Some(repo) => {
            let root = repo.root.clone();
            (Some(repo), root)
        }
        None => {
            let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            (None, root)
        }
    }
}

pub fn run(dir: &Path, req: &DoneRequest) -> anyhow::Result<Receipt> {
    run_with_progress(dir, req, &Silent)
}

/// Run the done gate in the repository containing `dir`. Errors are configuration or
/// usage problems (exit 2); a failing verdict is a receipt, not an error.
pub fn run_with_progress(
    dir: &Path,
    req: &DoneRequest,
    progress: &dyn Progress,
) -> anyhow::Result<Receipt> {
    let started = Instant::now();
    let started_at = jiff::Timestamp::now().to_string();
    if !dir.is_dir() {
        anyhow::bail!("{} is not a directory", dir.display());
    }
    let (repo, root) = find_root(dir);
    state::cleanup::remove_stale_temps(&state::state_dir(&root));
    // A release killed after its commit is finished before any baseline is read.
    crate::escape::settle(&root)?;
    // git walks the tree for untracked files while the comparison point, the index and
    // HEAD are read (settled first: a release may still move files).
    if let Some(r) = &repo {
        r.list_untracked_early();
    }
    // The receipt history makes room for this run's receipt meanwhile (see
    // `store::make_room`); nothing waits for it.
    {
        let (root, started_at) = (root.clone(), started_at.clone());
        std::thread::spawn(move || crate::store::make_room(&root, &started_at));
    }
    // The comparison point is chosen before anything runs: a bad ref fails fast.
    let blobs = repo
        .as_ref()
        .filter(|_| req.run_guards)
        .map(|r| r.blob_reader());
    if req.run_guards {
        // The gate-file patterns compile on another core while git walks the tree.
        std::thread::spawn(|| {
            let _ = policy::globs::gate_files();
        });
    }
    let point_req = PointRequest {
        against: req.against.clone(),
        session: req.session.clone(),
        require_session: req.require_session,
    };
    // The point a session or a ref names is known before the tree is walked: the walk
    // needs the session's start (see `comparison::stat_anchor`).
    let recorded = match (&req.pinned, &repo) {
        (Some(start), _) => Some(comparison::pinned_point(repo.as_ref(), start)?),
        (None, Some(r)) => comparison::recorded_point(r, &point_req)?,
        (None, None) => None,
    };
    let anchor = comparison::stat_anchor(
        req.pinned.as_ref(),
        recorded.as_ref(),
        jiff::Timestamp::now(),
    );
    let state = repo.as_ref().map(|r| r.work_state(anchor)).transpose()?;
    let detected = || crate::detect::detected_checks(&root);
    let point = match (recorded, repo.as_ref().zip(state.as_ref())) {
        (Some(point), _) => point,
        (None, Some((repo, state))) => comparison::point_of_tree(repo, state)?,
        (None, None) => comparison::choose_point(None, &point_req)?,
    };
    let anchored = match &req.pinned {
        Some(start) => crate::anchor::pinned(&start.config, &start.session, &root, detected)?,
        // The bar comes from the comparison point, never from the tree being judged.
        None => crate::anchor::config_in_effect(repo.as_ref(), &root, &point, detected)?,
    };
    let loaded = &anchored.loaded;
    let cfg = &loaded.config;
    for name in &req.only {
        if !cfg.checks.iter().any(|c| &c.name == name) {
            let known: Vec<&str> = cfg.checks.iter().map(|c| c.name.as_str()).collect();
            anyhow::bail!(
                "--only names `{name}`, which is not a check here (checks: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            );
        }
    }

    let mut checks = Vec::new();
    let mut confine_note = None;
    if req.run_checks {
        let selected: Vec<_> = cfg
            .checks
            .iter()
            .filter(|c| req.only.is_empty() || req.only.contains(&c.name))
            .collect();
        let (confine, note) = crate::escape::check_confinement(&root, cfg)?;
        confine_note = note;
        for (i, check) in selected.iter().enumerate() {
            progress.check_started(&check.name, i, selected.len());
            let plan = crate::plan::plan(check, &cfg.gate.programs, &root);
            let opts = RunOptions {
                root: root.clone(),
                timeout: check.timeout(),
                deadline: req.deadline,
                pre_spawn: confine.as_deref().map(|c| c as runner::PreSpawn),
            };
            let result = runner::run_check(&check.name, &check.run, &plan, &opts);
            progress.check_finished(&result);
            let failed = result.status != crate::receipt::CheckStatus::Pass;
            checks.push(result);
            if failed && cfg.gate.fail_fast {
                break;
            }
        }
    }

    let mut guards: Vec<GuardReport> = Vec::new();
    let mut confinement = Vec::new();
    let mut skipped_files = Vec::new();
    if req.run_guards {
        let g = &cfg.guards;
        let found = match (&repo, &state, blobs) {
            (Some(repo), Some(state), Some(blobs)) => {
                comparison::deltas(repo, state, &point, &g.test_globs, &g.test_macros, blobs)?
            }
            _ => comparison::Deltas::default(),
        };
        skipped_files = crate::guards::unread::notes(
            &found.unread,
            &g.test_globs,
            &g.exclude,
            crate::baseline::MAX_TEXT_BYTES,
        );
        let mut deltas = found.files;
        skipped_files.extend(crate::guards::unparsable_configs(&deltas, g));
        if anchored.bootstrap {
            // The config in effect is this very new file; it cannot also be a finding.
            deltas.retain(|d| d.path != config::FILE_NAME);
        }
        if point.commit.is_some() {
            let guards_cfg = config::GuardsConfig {
                protect: cfg.protect_globs(),
                ..cfg.guards.clone()
            };
            let near = |dirs: &[String]| {
                crate::neighbours::files_in(&root, dirs, crate::baseline::MAX_TEXT_BYTES)
            };
            guards = run_guards_near(&deltas, &guards_cfg, &near);
            skipped_files.extend(crate::guards::unread_coverage_patterns(
                &deltas,
                &guards_cfg,
                &near,
            ));
        } else {
            guards = guard_names()
                .iter()
                .map(|(name, level)| GuardReport::skipped(name, level(&cfg.guards)))
                .collect();
        }
        let escape = crate::escape::write_escape(
            repo.as_ref(),
            &root,
            cfg,
            point.baseline.as_ref(),
            point.info.session.as_deref().or(req.session.as_deref()),
            confine_note.as_deref(),
        )?;
        if req.confined_run {
            confinement.push(crate::receipt::RootConfinement {
                root: root.display().to_string(),
                status: crate::receipt::Confinement::Confined,
                note: Some("the agent ran under Landlock (`loopgate run --confine`)".into()),
            });
        }
        guards.push(escape.guard);
        confinement.extend(escape.roots);
    }

    // Read after the guards: an escape found just now quarantines this very run.
    let quarantine = crate::escape::open_quarantine(&root)?;
    let quarantined = quarantine.is_some();
    let verdict = Receipt::judge(&checks, &guards, quarantined);
    // The state before the checks ran: what the agent handed in.
    let (head, branch, dirty) = match &state {
        Some(s) => (s.head.clone(), s.branch.clone(), s.dirty()),
        None => (None, None, false),
    };
    let receipt = Receipt {
        version: RECEIPT_VERSION,
        verdict,
        exit_code: verdict.exit_code(),
        via: if req.via.is_empty() {
            "cli".into()
        } else {
            req.via.clone()
        },
        session: req.session.clone().or_else(|| point.info.session.clone()),
        started_at,
        duration_ms: started.elapsed().as_millis() as u64,
        repo: RepoInfo {
            root: root.display().to_string(),
            head,
            branch,
            dirty,
        },
        config: ConfigInfo {
            source: loaded.source.describe(),
            hash: loaded.hash.clone(),
            why: anchored.why.clone(),
        },
        baseline: point.info.clone(),
        checks,
        guards,
        skipped_files,
        confinement,
        quarantine,
        audit: crate::evidence::audit_point(&root),
        environment: environment(),
        body_hash: String::new(),
    }
    .seal();
    if !req.no_store {
        crate::store::save(&root, &receipt, req.history_only)?;
    }
    Ok(receipt)
}

type LevelOf = fn(&config::GuardsConfig) -> Level;

/// The delta guards in report order, for the `skipped` case.
fn guard_names() -> [(&'static str, LevelOf); 7] {
    [
        ("config_edits", |g| g.config_edits),
        ("protected_edits", |g| g.protected_edits),
        ("deleted_tests", |g| g.deleted_tests),
        ("new_skips", |g| g.new_skips),
        ("disabled_lint", |g| g.disabled_lint),
        ("new_todos", |g| g.new_todos),
        ("debug_artifacts", |g| g.debug_artifacts),
    ]
}

pub fn environment() -> Environment {
    let host = rustix::system::uname()
        .nodename()
        .to_string_lossy()
        .into_owned();
    Environment {
        os: std::env::consts::OS.into(),
        arch: std::env::consts::ARCH.into(),
        loopgate_version: env!("CARGO_PKG_VERSION").into(),
        host_hash: blake3::hash(host.as_bytes()).to_hex()[..16].to_string(),
    }
}
