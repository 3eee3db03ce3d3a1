//! Session baselines: what the tree looked like when a session started, so the done gate
//! blames the agent only for what changed after that.
//!
//! A baseline stores the head commit plus, for every file that was already dirty, its hash,
//! the lines it added over HEAD and its test counts. Files clean at baseline time need no
//! record: git already holds them at the head commit.

use crate::git::Repo;
use crate::guards::{count_tests_with, is_counted_path, TestCounts, TestMacros, GATE_FILES};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const BASELINE_VERSION: u32 = 1;
/// Files larger than this are hashed but their lines are not kept.
pub const MAX_TEXT_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DirtyFile {
    /// BLAKE3 of the content then; `None` when the file was deleted then.
    pub hash: Option<String>,
    /// Lines the file had added over HEAD then (not blamed on the agent).
    pub added_lines: Vec<String>,
    pub counts: Option<TestCounts>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    pub session: String,
    /// RFC 3339 with nanoseconds: the newest baseline wins when `check` names none.
    pub created_at: String,
    pub head: Option<String>,
    pub branch: Option<String>,
    pub config_hash: Option<String>,
    pub dirty: BTreeMap<String, DirtyFile>,
    /// Hashes of the gate's own files (present or `None`), ignored files included.
    pub gate_files: BTreeMap<String, Option<String>>,
    /// The config in effect for this session: the anchor its done gate judges by.
    /// `None` in baselines written before configs were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<RecordedConfig>,
    /// Metadata snapshot of the watch roots for escape detection (sandbox crate format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<StoredSnapshot>,
}

/// The watch-root snapshot of a baseline, kept as the JSON text it is stored as: reading a
/// baseline skips over it, and only `write_escape` parses it, straight into the snapshot
/// type (building a generic JSON tree of it first cost more than the rest of a stop).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StoredSnapshot(Box<serde_json::value::RawValue>);

impl StoredSnapshot {
    pub fn of(snapshot: &sandbox::snapshot::Snapshot) -> Option<StoredSnapshot> {
        serde_json::value::to_raw_value(snapshot)
            .ok()
            .map(StoredSnapshot)
    }

    /// The snapshot; `None` when the stored text is not one (a damaged baseline).
    pub fn read(&self) -> Option<sandbox::snapshot::Snapshot> {
        serde_json::from_str(self.0.get()).ok()
    }

    fn value(&self) -> Option<serde_json::Value> {
        serde_json::from_str(self.0.get()).ok()
    }
}

/// The same JSON, however it is laid out (a snapshot file written pretty equals the one
/// kept compact in a baseline).
impl PartialEq for StoredSnapshot {
    fn eq(&self, other: &StoredSnapshot) -> bool {
        self.0.get() == other.0.get() || self.value() == other.value()
    }
}

impl Eq for StoredSnapshot {}

/// `loopgate.toml` as it was when the session started (`text: None`: there was none, the
/// embedded default applies).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedConfig {
    pub text: Option<String>,
    pub hash: String,
}

impl RecordedConfig {
    pub fn of(loaded: &crate::config::Loaded) -> RecordedConfig {
        RecordedConfig {
            text: loaded.text.clone(),
            hash: loaded.hash.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct BaselineOutcome {
    /// False when `if_missing` found one already.
    pub created: bool,
    pub path: PathBuf,
    pub session: String,
}

pub fn baselines_dir(root: &Path) -> PathBuf {
    state::state_dir(root).join("baselines")
}

/// File name for a session id: readable when it is safe, hashed otherwise.
pub fn file_for(root: &Path, session: &str) -> PathBuf {
    baselines_dir(root).join(format!("{}.json", file_stem(session)))
}

/// A file-name stem for an id that came from outside: the id itself when it is plainly
/// safe, a hash of it otherwise (no separators, no leading dot, bounded length).
pub fn file_stem(id: &str) -> String {
    let safe = !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !id.starts_with('.');
    if safe {
        id.to_string()
    } else {
        format!("h-{}", &blake3::hash(id.as_bytes()).to_hex()[..32])
    }
}

/// Paths under `.loopgate/`, the state directory.
pub fn is_state_path(path: &str) -> bool {
    path == state::DIR_NAME || path.starts_with(".loopgate/")
}

/// The hash of a regular file; `None` for anything else (a FIFO or a device planted in a
/// gate file's place must not block the hook, and has no content to compare).
pub fn hash_file(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut file = state::open_regular(path, state::Follow::Yes).ok()?;
    let mut hasher = blake3::Hasher::new();
    // A small buffer of our own: `update_reader` zeroes 64 KiB for every file, which costs
    // more than hashing the few-KiB gate files a hook call hashes by the dozen.
    let mut buf = [0u8; 8192];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                hasher.update(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(hasher.finalize().to_hex().to_string())
}

/// Read a file as text when it is UTF-8 and not too large.
pub fn read_text(path: &Path) -> Option<String> {
    String::from_utf8(state::read_bounded(path, MAX_TEXT_BYTES, state::Follow::Yes).ok()?).ok()
}

/// The gate files that exist (or not) now: the fixed list plus `loopgate.toml`, and each
/// entry of the repository's git hooks directory (`.git/hooks/<name>`, following a linked
/// worktree's `.git` file to the common directory).
pub fn gate_file_hashes(root: &Path) -> BTreeMap<String, Option<String>> {
    let mut out: BTreeMap<String, Option<String>> = GATE_FILES
        .iter()
        .filter(|p| !p.contains('*') && !p.starts_with(".git/"))
        .map(|p| (p.to_string(), hash_file(&root.join(p))))
        .collect();
    for path in sandbox::mounts::git_code_paths(root) {
        match path.file_name().and_then(|n| n.to_str()) {
            Some("config") => {
                out.insert(".git/config".into(), hash_file(&path));
                // The ignore and attribute rules of the common directory sit beside its
                // config; they are recorded even when missing, so a later one shows.
                if let Some(common) = path.parent() {
                    for name in GIT_INFO_FILES {
                        out.insert(format!(".git/{name}"), hash_file(&common.join(name)));
                    }
                }
            }
            Some("hooks") => {
                let Ok(entries) = std::fs::read_dir(&path) else {
                    continue;
                };
                for e in entries.flatten().take(MAX_HOOK_ENTRIES) {
                    if let Some(name) = e.file_name().to_str() {
                        // A link is hashed as the file it points to, or as missing.
                        out.insert(format!(".git/hooks/{name}"), hash_file(&e.path()));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Files of `.git/info` that decide what git status reports (`GATE_FILES` lists them).
const GIT_INFO_FILES: [&str; 2] = ["info/exclude", "info/attributes"];

/// Whether a baseline's gate-file hashes cover `.git/info` (baselines recorded before it
/// was added do not, and must not report an existing exclude file as new).
pub fn covers_git_info(hashes: &BTreeMap<String, Option<String>>) -> bool {
    hashes.contains_key(".git/info/exclude")
}

/// A bound on the hooks directory read at each baseline and check.
const MAX_HOOK_ENTRIES: usize = 1000;

/// Whether a baseline's gate-file hashes cover the git files (baselines recorded before
/// they were added do not, and must not report every hook as new).
pub fn covers_git_files(hashes: &BTreeMap<String, Option<String>>) -> bool {
    hashes.contains_key(".git/config")
}

/// Capture the baseline for `repo` now (no file written).
pub fn capture(
    repo: &Repo,
    session: &str,
    test_globs: &[String],
    test_macros: &[String],
) -> anyhow::Result<Baseline> {
    let macros = TestMacros::new(test_macros);
    // The start itself: nothing before it is the session's to answer for.
    let state = repo.work_state(None)?;
    let head = state.head.clone();
    let base = head
        .clone()
        .unwrap_or_else(|| crate::git::EMPTY_TREE.to_string());
    // loopgate's own state changes on every run; tampering with it is the tool gate's job.
    let status: Vec<_> = state
        .entries
        .iter()
        .filter(|e| !is_state_path(&e.path))
        .cloned()
        .collect();
    let tracked_dirty: Vec<String> = status
        .iter()
        .filter(|e| e.code != "??")
        .map(|e| e.path.clone())
        .collect();
    let blobs = repo.blobs_at(&base, &tracked_dirty)?;
    let old_texts: BTreeMap<&String, String> = tracked_dirty
        .iter()
        .zip(blobs)
        .filter_map(|(p, b)| Some((p, String::from_utf8(b?).ok()?)))
        .collect();
    let mut dirty = BTreeMap::new();
    for entry in &status {
        let abs = repo.root.join(&entry.path);
        let text = read_text(&abs);
        let added_lines = if entry.code == "??" {
            text.as_deref()
                .map(|t| t.lines().map(String::from).collect())
                .unwrap_or_default()
        } else {
            match (old_texts.get(&entry.path), &text) {
                (Some(old), Some(new)) => crate::comparison::added_lines(old, new)
                    .into_iter()
                    .map(|(_, t)| t)
                    .collect(),
                (None, Some(new)) => new.lines().map(String::from).collect(),
                _ => Vec::new(),
            }
        };
        let counts = match (&text, is_counted_path(&entry.path, test_globs)) {
            (Some(t), true) => Some(count_tests_with(&entry.path, t, &macros)),
            _ => None,
        };
        dirty.insert(
            entry.path.clone(),
            DirtyFile {
                hash: hash_file(&abs),
                added_lines,
                counts,
            },
        );
    }
    Ok(Baseline {
        version: BASELINE_VERSION,
        session: session.to_string(),
        created_at: jiff::Timestamp::now().to_string(),
        head,
        branch: state.branch.clone(),
        config_hash: hash_file(&repo.root.join(crate::config::FILE_NAME)),
        dirty,
        gate_files: gate_file_hashes(&repo.root),
        config: None,
        snapshot: None,
    })
}

/// Record the baseline for `session` in the repository containing `dir`, anchored to the
/// working tree's config as it is now.
pub fn record(dir: &Path, session: &str, if_missing: bool) -> anyhow::Result<BaselineOutcome> {
    let repo = discover(dir)?;
    let loaded = crate::config::load(&repo.root, Vec::new)?;
    record_anchored(&repo, session, if_missing, &loaded)
}

/// Record the baseline for `session`, anchored to `loaded` (the config a hook pinned when
/// the session started).
pub fn record_anchored(
    repo: &Repo,
    session: &str,
    if_missing: bool,
    loaded: &crate::config::Loaded,
) -> anyhow::Result<BaselineOutcome> {
    let path = file_for(&repo.root, session);
    if if_missing && path.exists() {
        return Ok(BaselineOutcome {
            created: false,
            path,
            session: session.to_string(),
        });
    }
    let guards = &loaded.config.guards;
    let mut baseline = capture(repo, session, &guards.test_globs, &guards.test_macros)?;
    baseline.config = Some(RecordedConfig::of(loaded));
    baseline.snapshot = crate::escape::snapshot_for_baseline(repo, &loaded.config);
    state::write_json(&path, &baseline)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(BaselineOutcome {
        created: true,
        path,
        session: session.to_string(),
    })
}

pub fn discover(dir: &Path) -> anyhow::Result<Repo> {
    Repo::discover(dir).with_context(|| {
        format!(
            "{} is not inside a git repository: a baseline needs git (run `git init` first)",
            dir.display()
        )
    })
}

/// Load one session's baseline. A corrupt file is an error, never an empty baseline.
pub fn load(root: &Path, session: &str) -> anyhow::Result<Option<Baseline>> {
    let path = file_for(root, session);
    match state::read_json::<Baseline>(&path) {
        Ok(b) => Ok(Some(b)),
        Err(state::ReadError::Missing) => Ok(None),
        Err(e) => anyhow::bail!(
            "{}: {e}; delete it and run `loopgate baseline --session {session}` to record a new one",
            path.display()
        ),
    }
}

/// The session a bare `loopgate baseline` records, and the only one a bare `loopgate
/// check` compares with (docs/config.md, "Comparison point").
pub const MANUAL_SESSION: &str = "manual";

/// The newest baseline of any session, if there is one.
pub fn newest(root: &Path) -> anyhow::Result<Option<Baseline>> {
    let dir = baselines_dir(root);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", dir.display())),
    };
    let mut best: Option<Baseline> = None;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let baseline: Baseline = match state::read_json(&path) {
            Ok(b) => b,
            Err(e) => anyhow::bail!(
                "{}: {e}; delete it or record a new baseline with `loopgate baseline`",
                path.display()
            ),
        };
        if best
            .as_ref()
            .is_none_or(|b| b.created_at < baseline.created_at)
        {
            best = Some(baseline);
        }
    }
    Ok(best)
}

#[cfg(test)]
mod hash_tests {
    use super::*;

    #[test]
    fn hash_file_is_the_blake3_of_the_whole_content() {
        let dir = tempfile::tempdir().unwrap();
        // Longer than the read buffer, and not a multiple of it.
        let body: Vec<u8> = (0..20_001u32).map(|i| (i % 251) as u8).collect();
        for (name, bytes) in [("big", &body[..]), ("empty", &[][..]), ("one", &b"x"[..])] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(
                hash_file(&path),
                Some(blake3::hash(bytes).to_hex().to_string()),
                "{name}"
            );
        }
        assert_eq!(hash_file(dir.path()), None, "a directory has no hash");
        assert_eq!(hash_file(&dir.path().join("missing")), None);
    }
}

#[cfg(test)]
mod stored_snapshot {
    use super::*;
    use sandbox::snapshot::{self, ScanOptions};

    #[test]
    fn a_stored_snapshot_reads_back_whatever_its_layout() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("f"), "x").unwrap();
        let taken = snapshot::take(&[tmp.path().to_path_buf()], &ScanOptions::default());
        let compact = StoredSnapshot::of(&taken).unwrap();
        assert_eq!(compact.read(), Some(taken.clone()));
        // A baseline written before, with the snapshot laid out over many lines.
        let pretty = serde_json::to_string_pretty(&taken).unwrap();
        let text = format!(
            r#"{{"version":1,"session":"s","created_at":"t","head":null,"branch":null,"config_hash":null,"dirty":{{}},"gate_files":{{}},"snapshot":{pretty}}}"#
        );
        let old: Baseline = serde_json::from_str(&text).unwrap();
        let stored = old.snapshot.clone().unwrap();
        assert_eq!(stored.read(), Some(taken));
        assert_eq!(stored, compact, "the same snapshot, laid out differently");
        // Written again, it is read again the same.
        let again: Baseline =
            serde_json::from_slice(&serde_json::to_vec_pretty(&old).unwrap()).unwrap();
        assert_eq!(again, old);
        // Not a snapshot: read as none (the guard then says there is nothing to compare).
        let odd: Baseline =
            serde_json::from_str(&text.replace(&pretty, r#"{"roots": 3}"#)).unwrap();
        assert_eq!(odd.snapshot.unwrap().read(), None);
    }
}
