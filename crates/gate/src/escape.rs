//! Escape detection and confinement glue: which roots to watch for a repository, the
//! snapshot kept in a session baseline, the `write_escape` guard with its quarantine, and
//! the Landlock jail applied to checks.

use crate::baseline::Baseline;
use crate::config::{Config, Confine, Level};
use crate::git::Repo;
use crate::guards::{Finding, GuardReport};
use crate::receipt::{Confinement, RootConfinement};
use sandbox::snapshot::{self, ScanOptions, Snapshot};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::roots::home;

/// The write roots of the repository at `root` under `config` ([`crate::roots`]).
pub fn write_roots(root: &Path, config: &Config) -> Vec<PathBuf> {
    crate::roots::write_roots(config, root, home().as_deref())
}

/// Roots to snapshot and what to skip inside them.
pub fn watch_plan(
    root: &Path,
    config: &Config,
    main: Option<PathBuf>,
) -> (Vec<PathBuf>, ScanOptions) {
    let home = home();
    let mut roots = sandbox::default_watch_roots(home.as_deref(), root, main.clone());
    roots.extend(sandbox::resolve_roots(
        &config.sandbox.watch_roots,
        root,
        home.as_deref(),
    ));
    let mut exclude = sandbox::default_excludes(home.as_deref(), root, main.as_deref());
    // Writes inside the write roots are allowed by definition; never report them.
    exclude.extend(write_roots(root, config));
    let opts = ScanOptions {
        exclude,
        ..ScanOptions::default()
    };
    (roots, opts)
}

/// The snapshot to keep in a new baseline.
pub fn snapshot_for_baseline(
    repo: &Repo,
    config: &Config,
) -> Option<crate::baseline::StoredSnapshot> {
    let (roots, opts) = watch_plan(&repo.root, config, repo.main_checkout());
    crate::baseline::StoredSnapshot::of(&snapshot::take(&roots, &opts))
}

/// The open quarantine, if any, as a sentence for the receipt. A corrupt record counts as
/// open (fail closed).
pub fn open_quarantine(root: &Path) -> anyhow::Result<Option<String>> {
    Ok(sandbox::quarantine::is_quarantined(&state::state_dir(root)))
}

/// Tool caches a check legitimately writes outside the repository (dependency downloads).
pub const TOOL_CACHES: &[&str] = &[
    ".cargo",
    ".npm",
    ".cache",
    ".yarn",
    ".pnpm-store",
    "go",
    ".gradle",
    ".m2",
    ".bun",
];

pub type PreSpawnHook = Box<dyn Fn(&mut Command) -> std::io::Result<()>>;

/// A pre-spawn hook that confines checks to the write roots, a private temp dir and the
/// tool caches, per `[sandbox] confine`: `off` never, `auto` when Landlock is available,
/// `required` always (an error without Landlock). Returns the hook and what the receipt
/// should say about it.
pub fn check_confinement(
    root: &Path,
    config: &Config,
) -> anyhow::Result<(Option<PreSpawnHook>, Option<String>)> {
    if config.sandbox.confine == Confine::Off {
        return Ok((None, None));
    }
    if let sandbox::Availability::Missing { reason } = sandbox::landlock_available() {
        if config.sandbox.confine == Confine::Required {
            anyhow::bail!(
                "[sandbox] confine = \"required\" but Landlock is not available here ({reason}); \
                 use confine = \"auto\" to fall back to detection"
            );
        }
        return Ok((
            None,
            Some(format!(
                "checks not confined: {reason}; escapes are detected instead"
            )),
        ));
    }
    let home = home();
    let extra = home
        .map(|h| {
            TOOL_CACHES
                .iter()
                .map(|c| h.join(c))
                .filter(|p| p.exists())
                .collect()
        })
        .unwrap_or_default();
    let plan = sandbox::ConfinePlan {
        write_roots: write_roots(root, config),
        extra_writable: extra,
        private_tmp: true,
        scoped: false,
    };
    let prepared = sandbox::prepare(&plan)?;
    // The referee's files inside the write roots (the ledger, the config, git hooks): a
    // check is code from the tree being judged and must not move its own bar.
    let referee = crate::referee_files::read_only(
        root,
        crate::referee_files::Scope::All,
        &prepared.report().writable,
    )?;
    let note = format!(
        "checks ran under Landlock ({}); {}",
        prepared.enforcement(),
        referee.describe(root)
    );
    let hook: PreSpawnHook = Box::new(move |cmd: &mut Command| {
        referee.apply(cmd);
        sandbox::apply(cmd, &prepared);
        Ok(())
    });
    Ok((Some(hook), Some(note)))
}

/// What `quarantine release` did.
pub struct Released {
    pub records: Vec<sandbox::quarantine::Record>,
    /// The quarantine file was corrupt and was cleared.
    pub cleared_corrupt: bool,
    /// Baselines whose watch-root snapshot became the acknowledged one.
    pub refreshed: usize,
}

/// A human's release of one quarantine (by id) or all, as one committed step: the watch
/// roots as they are now are snapshotted to a file first, then one rename of the
/// quarantine file commits the release, then [`settle`] makes that snapshot the reference
/// of every older baseline (the released changes are acknowledged, later ones are still
/// caught) and audits it. Killed before the rename, nothing changed; after it, the next
/// `check` (or release) finishes the job.
pub fn release(root: &Path, id: Option<&str>) -> anyhow::Result<Released> {
    let state_dir = state::state_dir(root);
    settle(root)?;
    let cleared_corrupt = matches!(
        sandbox::quarantine::list(&state_dir),
        Err(sandbox::quarantine::QuarantineError::Corrupt { .. })
    );
    let repo = Repo::discover(root);
    let config = match &repo {
        Some(repo) => Some(crate::config::load(&repo.root, Vec::new)?.config),
        None => None,
    };
    let records = sandbox::quarantine::release_with(&state_dir, id, |_| {
        let (Some(repo), Some(config)) = (&repo, &config) else {
            return Ok(None);
        };
        let Some(snapshot) = snapshot_for_baseline(repo, config) else {
            return Ok(None);
        };
        let name = format!(
            "acknowledged-{}.json",
            &blake3::hash(format!("{}-{}", std::process::id(), jiff::Timestamp::now()).as_bytes())
                .to_hex()[..16]
        );
        let path = state_dir.join(&name);
        state::write_json(&path, &snapshot)
            .map_err(|source| sandbox::quarantine::QuarantineError::Io { path, source })?;
        Ok(Some(name))
    })?;
    let refreshed = settle(root)?;
    Ok(Released {
        records,
        cleared_corrupt,
        refreshed,
    })
}

/// Carry out a committed release that was not finished (its process was killed): the
/// acknowledged snapshot becomes the reference of every baseline older than the release,
/// and the release is audited. Idempotent; a no-op (one `stat`) when nothing is pending.
/// Returns how many baselines were refreshed.
pub fn settle(root: &Path) -> anyhow::Result<usize> {
    let state_dir = state::state_dir(root);
    let mut refreshed = 0;
    sandbox::quarantine::settle(&state_dir, |pending| {
        refreshed = acknowledge(root, pending)?;
        let mut extra = serde_json::Map::new();
        extra.insert(
            "released".into(),
            serde_json::json!(pending.released.iter().map(|r| &r.id).collect::<Vec<_>>()),
        );
        extra.insert("baselines_refreshed".into(), refreshed.into());
        if pending.cleared_corrupt {
            extra.insert("cleared_corrupt".into(), true.into());
        }
        let config = crate::config::load(root, Vec::new).ok().map(|l| l.config);
        crate::evidence::append(
            root,
            config.as_ref(),
            audit::Record {
                session: "human".into(),
                agent: "cli".into(),
                event: "quarantine_release".into(),
                decision: Some("release".into()),
                extra,
                ..audit::Record::default()
            },
        );
        state::crash::crash_point("release:audited");
        Ok(())
    })?;
    Ok(refreshed)
}

/// Make the pending release's snapshot the reference of every baseline created before it.
/// A snapshot that cannot be read acknowledges nothing: the next `check` finds the escape
/// again and quarantines anew (fail closed), and the warning says why. A baseline that
/// cannot be written is an error: the release stays pending and is carried out next time.
fn acknowledge(
    root: &Path,
    pending: &sandbox::quarantine::Pending,
) -> Result<usize, sandbox::quarantine::QuarantineError> {
    let Some(name) = pending
        .snapshot
        .as_deref()
        .filter(|n| sandbox::quarantine::is_snapshot_name(n))
    else {
        return Ok(0);
    };
    let path = state::state_dir(root).join(name);
    let fresh: crate::baseline::StoredSnapshot = match state::read_json(&path) {
        Ok(v) => v,
        Err(e) => {
            eprintln!(
                "loopgate: warning: the released quarantine's snapshot {} cannot be read ({e}); nothing was acknowledged",
                path.display()
            );
            return Ok(0);
        }
    };
    let released_at = pending.time.parse::<jiff::Timestamp>().ok();
    let dir = crate::baseline::baselines_dir(root);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(0);
    };
    let mut refreshed = 0;
    for path in entries.flatten().map(|e| e.path()) {
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let Ok(mut baseline) = state::read_json::<Baseline>(&path) else {
            continue;
        };
        let created = baseline.created_at.parse::<jiff::Timestamp>().ok();
        // A baseline taken after the release has a newer snapshot of its own.
        let older = match (created, released_at) {
            (Some(c), Some(r)) => c < r,
            _ => true,
        };
        if baseline.snapshot.is_some() && older && baseline.snapshot.as_ref() != Some(&fresh) {
            baseline.snapshot = Some(fresh.clone());
            state::write_json(&path, &baseline)
                .map_err(|source| sandbox::quarantine::QuarantineError::Io { path, source })?;
            refreshed += 1;
            state::crash::crash_point("release:baseline-written");
        }
    }
    Ok(refreshed)
}

/// What the gate learned about escapes: the guard, per-root confinement, and the paths.
pub struct EscapeReport {
    pub guard: GuardReport,
    pub roots: Vec<RootConfinement>,
    pub escaped: Vec<PathBuf>,
}

/// Compare the baseline's snapshot of the watch roots with now. Paths changed outside the
/// write roots fail `write_escape` and open a quarantine.
pub fn write_escape(
    repo: Option<&Repo>,
    root: &Path,
    config: &Config,
    baseline: Option<&Baseline>,
    session: Option<&str>,
    checks_confined: Option<&str>,
) -> anyhow::Result<EscapeReport> {
    let level = config.guards.write_escape;
    let mut roots = Vec::new();
    if let Some(note) = checks_confined {
        roots.push(RootConfinement {
            root: root.display().to_string(),
            status: if note.starts_with("checks ran under Landlock") {
                Confinement::Confined
            } else {
                Confinement::Detected
            },
            note: Some(note.to_string()),
        });
    }
    let old: Option<Snapshot> = baseline
        .and_then(|b| b.snapshot.as_ref())
        .and_then(|s| s.read());
    let Some(old) = old else {
        roots.push(RootConfinement {
            root: "watch roots".into(),
            status: Confinement::Unobservable,
            note: Some("no session baseline snapshot to compare with".into()),
        });
        return Ok(EscapeReport {
            guard: GuardReport::skipped("write_escape", level),
            roots,
            escaped: Vec::new(),
        });
    };
    let scan_roots: Vec<PathBuf> = old.roots.iter().map(|r| r.root.clone()).collect();
    let (_, opts) = watch_plan(root, config, repo.and_then(|r| r.main_checkout()));
    let opts = ScanOptions {
        max_depth: old.max_depth,
        ..opts
    };
    let now = snapshot::take(&scan_roots, &opts);
    let scanned = old
        .roots
        .iter()
        .filter(|r| r.status == snapshot::RootStatus::Scanned)
        .count();
    let missing = old
        .roots
        .iter()
        .filter(|r| r.status == snapshot::RootStatus::Missing)
        .count();
    roots.push(RootConfinement {
        root: "watch roots".into(),
        status: Confinement::Detected,
        note: Some(format!(
            "{scanned} watched by metadata snapshot, {missing} absent (creating one is reported)"
        )),
    });
    for r in &old.roots {
        if let snapshot::RootStatus::Unreadable(e) = &r.status {
            roots.push(RootConfinement {
                root: r.root.display().to_string(),
                status: Confinement::Unobservable,
                note: Some(format!("unreadable: {e}")),
            });
        }
    }
    for note in now
        .notes()
        .into_iter()
        .filter(|n| !n.contains("does not exist"))
    {
        roots.push(RootConfinement {
            root: note.split(':').next().unwrap_or_default().to_string(),
            status: Confinement::Unobservable,
            note: Some(note),
        });
    }
    let changed = snapshot::diff(&old, &now);
    let escaped = sandbox::write_root_violations(&changed, &write_roots(root, config));
    let findings: Vec<Finding> = escaped
        .iter()
        .map(|p| Finding {
            path: p.display().to_string(),
            line: None,
            snippet: String::new(),
            message: "written outside the write roots: undo this change; a human must run \
                      `loopgate quarantine release` before the gate passes again"
                .into(),
        })
        .collect();
    if !escaped.is_empty() && level != Level::Off {
        let state_dir = state::state_dir(root);
        let already = sandbox::quarantine::list(&state_dir).unwrap_or_default();
        let known = already.iter().any(|r| r.paths == escaped);
        if !known {
            let record =
                sandbox::quarantine::record(&state_dir, session.unwrap_or("unknown"), &escaped)?;
            let mut extra = serde_json::Map::new();
            extra.insert("paths".into(), serde_json::json!(escaped));
            extra.insert("quarantine".into(), serde_json::json!(record.id));
            crate::evidence::append(
                root,
                Some(config),
                audit::Record {
                    session: session.unwrap_or("unknown").to_string(),
                    agent: "gate".into(),
                    event: "write_escape".into(),
                    decision: Some("quarantine".into()),
                    rule: Some("write_escape".into()),
                    reason: Some(format!(
                        "{} path(s) written outside the write roots",
                        escaped.len()
                    )),
                    extra,
                    ..audit::Record::default()
                },
            );
        }
    }
    Ok(EscapeReport {
        guard: GuardReport::from_findings("write_escape", level, findings),
        roots,
        escaped,
    })
}
