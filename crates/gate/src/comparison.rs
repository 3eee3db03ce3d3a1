//! Choosing the comparison point and turning the differences into [`FileDelta`]s for the
//! guards. This is the edge between git and the pure guards.

use crate::baseline::{self, Baseline};
use crate::git::{BlobReader, ChangeKind, Repo, StatAnchor, WorkState};
use crate::guards::unread::{self, Side, Unread};
use crate::guards::{count_tests_with, DeltaKind, FileDelta, Line, TestMacros, TestPaths};
use crate::receipt::{BaselineInfo, BaselineKind};
use crate::renames;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Added lines kept per file: a generated or gigantic file must not blow up the gate.
const MAX_LINES_PER_FILE: usize = 20_000;

#[derive(Debug, Clone, Default)]
pub struct PointRequest {
    pub against: Option<String>,
    pub session: Option<String>,
    /// `--session` named explicitly: a missing baseline is an error, not a fallback.
    pub require_session: bool,
}

#[derive(Debug, Clone)]
pub struct Point {
    pub info: BaselineInfo,
    /// The commit (or empty tree) to diff against; `None` for kind `none`.
    pub commit: Option<String>,
    pub baseline: Option<Baseline>,
}

impl Point {
    fn none() -> Point {
        Point {
            info: BaselineInfo {
                kind: BaselineKind::None,
                reference: None,
                session: None,
            },
            commit: None,
            baseline: None,
        }
    }
}

/// Where a pinned hook session started: the anchor its stops are judged against.
#[derive(Debug, Clone)]
pub struct PinnedStart {
    pub session: String,
    pub config: baseline::RecordedConfig,
    pub head: Option<String>,
    /// When the start's own baseline was recorded, where the holder of the start saw it
    /// (`loopgate run`): a baseline re-recorded later in the same state (same commit, same
    /// config) is then not taken for it.
    pub baseline_created_at: Option<String>,
    /// When the session started (RFC 3339), as the holder of the start recorded it: the
    /// pin's `pinned_at`, or the moment `loopgate run` began its baseline. Files changed
    /// since are hashed whatever the index's stat cache says.
    pub started_at: String,
}

/// The comparison point of a pinned session: its baseline when that is the one recorded
/// with the pin (same start commit, same config), else the pinned start commit itself. A
/// baseline deleted or re-recorded in the repository cannot move the start.
pub fn pinned_point(repo: Option<&Repo>, start: &PinnedStart) -> anyhow::Result<Point> {
    let Some(repo) = repo else {
        return Ok(Point::none());
    };
    let recorded = baseline::load(&repo.root, &start.session).ok().flatten();
    let genuine = recorded.filter(|b| {
        b.head == start.head
            && b.config.as_ref().map(|c| &c.text) == Some(&start.config.text)
            && start
                .baseline_created_at
                .as_ref()
                .is_none_or(|at| *at == b.created_at)
    });
    let commit = start
        .head
        .clone()
        .unwrap_or_else(|| crate::git::EMPTY_TREE.to_string());
    Ok(Point {
        info: BaselineInfo {
            kind: BaselineKind::Session,
            reference: start.head.clone(),
            session: Some(start.session.clone()),
        },
        commit: Some(commit),
        baseline: genuine,
    })
}

/// Pick the comparison point: explicit ref, named session, the manual baseline, HEAD (dirty
/// tree), merge-base with the default branch (clean tree), or none.
pub fn choose_point(
    repo: Option<(&Repo, &WorkState)>,
    req: &PointRequest,
) -> anyhow::Result<Point> {
    let Some((repo, state)) = repo else {
        if let Some(r) = &req.against {
            anyhow::bail!("`--against {r}` needs a git repository, and this is not one");
        }
        return Ok(Point::none());
    };
    match recorded_point(repo, req)? {
        Some(point) => Ok(point),
        None => point_of_tree(repo, state),
    }
}

/// The point the request names without looking at the work tree: the explicit ref, or a
/// session baseline. `None` leaves it to the tree ([`choose_point`]).
pub fn recorded_point(repo: &Repo, req: &PointRequest) -> anyhow::Result<Option<Point>> {
    if let Some(reference) = &req.against {
        let commit = repo.resolve_against(reference)?;
        return Ok(Some(Point {
            info: BaselineInfo {
                kind: BaselineKind::Explicit,
                reference: Some(commit.clone()),
                session: None,
            },
            commit: Some(commit),
            baseline: None,
        }));
    }
    let session_baseline = match &req.session {
        Some(id) => {
            let found = baseline::load(&repo.root, id)?;
            if found.is_none() && req.require_session {
                anyhow::bail!(
                    "no baseline for session `{id}`; record one with `loopgate baseline --session {id}`"
                );
            }
            found
        }
        None => None,
    };
    let session_baseline = match session_baseline {
        Some(b) => Some(b),
        // A bare check takes only the baseline a bare `loopgate baseline` records: any
        // session may record one (an agent that starts `loopgate run` or another agent
        // does), and the newest of them would forgive what was dirty when it was taken.
        None if req.session.is_none() => baseline::load(&repo.root, baseline::MANUAL_SESSION)?,
        None if !req.require_session => {
            baseline::newest(&repo.root)?.filter(|b| Some(&b.session) == req.session.as_ref())
        }
        None => None,
    };
    Ok(session_baseline.map(|b| {
        let commit = b
            .head
            .clone()
            .unwrap_or_else(|| crate::git::EMPTY_TREE.to_string());
        Point {
            info: BaselineInfo {
                kind: BaselineKind::Session,
                reference: b.head.clone(),
                session: Some(b.session.clone()),
            },
            commit: Some(commit),
            baseline: Some(b),
        }
    }))
}

/// The moment from which the index's stat cache vouches for no file (see
/// [`crate::git::stat_anchor`]): a pinned session's start; else the start of the session
/// whose baseline is the point. None for a point with no session (HEAD, the merge-base,
/// an explicit ref): loopgate recorded no time there, and one read from the judged tree
/// (the index's mtime, a commit's date) is the agent's to move.
pub fn stat_anchor(
    pinned: Option<&PinnedStart>,
    point: Option<&Point>,
    now: jiff::Timestamp,
) -> Option<StatAnchor> {
    let started = match pinned {
        Some(start) => Some(start.started_at.as_str()),
        None => point
            .and_then(|p| p.baseline.as_ref())
            .map(|b| b.created_at.as_str()),
    };
    started.map(|at| StatAnchor::recorded_at(at, now))
}

/// HEAD for a dirty tree, the merge-base with the default branch for a clean one.
pub fn point_of_tree(repo: &Repo, state: &WorkState) -> anyhow::Result<Point> {
    let Some(head) = state.head.clone() else {
        return Ok(Point::none());
    };
    if state.dirty() {
        return Ok(Point {
            info: BaselineInfo {
                kind: BaselineKind::Head,
                reference: Some(head.clone()),
                session: None,
            },
            commit: Some(head),
            baseline: None,
        });
    }
    match repo
        .default_branch()
        .and_then(|branch| repo.merge_base("HEAD", &branch))
    {
        Some(base) => Ok(Point {
            info: BaselineInfo {
                kind: BaselineKind::MergeBase,
                reference: Some(base.clone()),
                session: None,
            },
            commit: Some(base),
            baseline: None,
        }),
        None => Ok(Point::none()),
    }
}

/// The differences the guards judge, and the files among them they could not read.
#[derive(Debug, Default)]
pub struct Deltas {
    pub files: Vec<FileDelta>,
    /// Each path that could not be read as text, why, and on which side.
    pub unread: Vec<(String, Unread, Side)>,
}

/// Build the deltas between `point` and the work tree.
pub fn deltas(
    repo: &Repo,
    state: &WorkState,
    point: &Point,
    test_globs: &[String],
    test_macros: &[String],
    blobs: BlobReader,
) -> anyhow::Result<Deltas> {
    let macros = TestMacros::new(test_macros);
    let Some(commit) = &point.commit else {
        return Ok(Deltas::default());
    };
    let mut unread: Vec<(String, Unread, Side)> = Vec::new();
    let root = &repo.root;
    let mut changes: BTreeMap<String, ChangeKind> = repo
        .changes_since(commit, state)?
        .into_iter()
        .filter(|c| !baseline::is_state_path(&c.path))
        .map(|c| (c.path, c.kind))
        .collect();
    let empty = BTreeMap::new();
    let (dirty, gate_then) = match &point.baseline {
        Some(b) => (&b.dirty, Some(&b.gate_files)),
        None => (&empty, None),
    };
    // A file already dirty at baseline time and unchanged since is not the agent's doing;
    // one dirty then and clean now was reverted by the agent.
    for (path, then) in dirty.iter().filter(|(p, _)| !baseline::is_state_path(p)) {
        let now = baseline::hash_file(&root.join(path));
        if now == then.hash {
            changes.remove(path);
        } else if !changes.contains_key(path) {
            let kind = if now.is_none() {
                ChangeKind::Deleted
            } else {
                ChangeKind::Modified
            };
            changes.insert(path.clone(), kind);
        }
    }
    // Gate files may be ignored by git (settings.local.json): compare their hashes too.
    if let Some(gate_then) = gate_then {
        let mut now_hashes = baseline::gate_file_hashes(root);
        let git_too = baseline::covers_git_files(gate_then);
        if !git_too {
            now_hashes.retain(|p, _| !p.starts_with(".git/"));
        }
        if !baseline::covers_git_info(gate_then) {
            now_hashes.retain(|p, _| !p.starts_with(".git/info/"));
        }
        // A hook removed since the baseline is only in the baseline's list.
        for path in gate_then.keys().filter(|p| p.starts_with(".git/")) {
            now_hashes.entry(path.clone()).or_insert(None);
        }
        for (path, now) in now_hashes {
            let then = gate_then.get(&path).cloned().flatten();
            if then != now && !changes.contains_key(&path) {
                let kind = match (&then, &now) {
                    (None, _) => ChangeKind::Added,
                    (_, None) => ChangeKind::Deleted,
                    _ => ChangeKind::Modified,
                };
                changes.insert(path, kind);
            }
        }
    }
    // One `git cat-file --batch` fetches every old text the guards need: the old side of
    // modified files (for their added lines), of deleted test files (for their counts) and,
    // when something was added, of every deleted file (to follow renames). Files dirty at
    // baseline time have their counts in the baseline.
    // Built once: a configured glob list is compiled, and this asks about every path.
    let counted = TestPaths::new(test_globs);
    let count = |want: ChangeKind| changes.values().filter(|k| **k == want).count();
    let (n_added, n_deleted) = (count(ChangeKind::Added), count(ChangeKind::Deleted));
    let follow = n_added > 0 && n_added <= MAX_RENAME_SIDE && n_deleted <= MAX_RENAME_SIDE;
    // A deleted file's lines are what the change removed: a marker or test they held may
    // have moved to another file. With nothing but deletions nothing can have moved in;
    // past the bound they stay unread (judged more strictly).
    let removed_too = n_deleted <= MAX_RENAME_SIDE && n_deleted < changes.len();
    let wanted: Vec<String> = changes
        .iter()
        .filter(|(path, kind)| match kind {
            ChangeKind::Added => false,
            ChangeKind::Deleted => {
                follow || removed_too || (counted.is_counted(path) && !dirty.contains_key(*path))
            }
            _ => true,
        })
        .map(|(path, _)| path.clone())
        .collect();
    let blobs = blobs.read(commit, &wanted)?;
    let mut old_bytes: HashMap<String, Vec<u8>> = wanted
        .into_iter()
        .zip(blobs)
        .filter_map(|(path, blob)| Some((path, blob?)))
        .collect();
    let renames = if follow {
        follow_renames(root, &changes, &old_bytes, dirty)
    } else {
        Vec::new()
    };
    for r in renames {
        changes.remove(&r.from);
        changes.insert(
            r.to.clone(),
            ChangeKind::Renamed {
                from: r.from.clone(),
            },
        );
        if let Some(bytes) = old_bytes.remove(&r.from) {
            old_bytes.insert(r.to, bytes);
        }
    }
    let mut old_texts: HashMap<String, String> = HashMap::with_capacity(old_bytes.len());
    for (path, bytes) in old_bytes {
        let (text, why) = unread::decode(bytes, baseline::MAX_TEXT_BYTES);
        // A deleted file needs no note: `deleted_tests` fails closed on unknown counts.
        let judged = changes
            .get(&path)
            .is_some_and(|k| *k != ChangeKind::Deleted);
        if let Some(why) = why.filter(|_| judged) {
            unread.push((path.clone(), why, Side::Then));
        }
        if let Some(text) = text {
            old_texts.insert(path, text);
        }
    }
    let mut out = Vec::with_capacity(changes.len());
    let real_root = std::fs::canonicalize(root).ok();
    for (path, kind) in changes {
        let new_text = match kind {
            ChangeKind::Deleted => None,
            _ => {
                let (text, why) = read_now(root, real_root.as_deref(), &path);
                if let Some(why) = why {
                    unread.push((path.clone(), why, Side::Now));
                }
                text
            }
        };
        let old_path = match &kind {
            ChangeKind::Renamed { from } => from.clone(),
            _ => path.clone(),
        };
        let then = dirty.get(&old_path);
        let old_text = match &kind {
            ChangeKind::Added => None,
            _ => old_texts.remove(&path),
        };
        let (mut lines, removed): (Vec<Line>, Vec<Line>) = match &kind {
            ChangeKind::Added => (numbered(new_text.as_deref()), Vec::new()),
            ChangeKind::Deleted => (Vec::new(), numbered(old_text.as_deref())),
            _ => match (&old_text, &new_text) {
                (Some(old), Some(new)) => {
                    let (added, removed) = line_changes(old, new);
                    (as_lines(added), as_lines(removed))
                }
                _ => (Vec::new(), Vec::new()),
            },
        };
        // What was already removed at baseline time is not recorded, so a file dirty then
        // offers no removed lines: nothing of the agent's is netted against the user's.
        let removed = if then.is_some() { Vec::new() } else { removed };
        if let Some(then) = then {
            lines = subtract_lines(lines, &then.added_lines);
        }
        lines.truncate(MAX_LINES_PER_FILE);
        let mut removed = removed;
        removed.truncate(MAX_LINES_PER_FILE);
        let delta_kind = match kind {
            ChangeKind::Added => DeltaKind::Added,
            ChangeKind::Modified => DeltaKind::Modified,
            ChangeKind::Deleted => DeltaKind::Deleted,
            ChangeKind::Renamed { from } => DeltaKind::Renamed { from },
        };
        let old_counts = match &delta_kind {
            DeltaKind::Added => None,
            _ => then.and_then(|d| d.counts).or_else(|| {
                let old = old_text.as_ref()?;
                counted
                    .is_counted(&old_path)
                    .then(|| count_tests_with(&old_path, old, &macros))
            }),
        };
        out.push(FileDelta {
            old_counts,
            path,
            kind: delta_kind,
            added_lines: lines,
            removed_lines: removed,
            // The commit's text is not what a file dirty at baseline time held then.
            old_text: if then.is_some() { None } else { old_text },
            new_text,
        });
    }
    Ok(Deltas { files: out, unread })
}

/// The current text of `path`, and why it is not read when it is not (`None` for both
/// when the file is simply gone). A link is followed only within the repository; a
/// directory where git lists a path is a submodule.
fn read_now(root: &Path, real_root: Option<&Path>, path: &str) -> (Option<String>, Option<Unread>) {
    let abs = root.join(path);
    let Ok(mut meta) = std::fs::symlink_metadata(&abs) else {
        return (None, None);
    };
    if meta.file_type().is_symlink() {
        let inside = std::fs::canonicalize(&abs)
            .ok()
            .zip(real_root)
            .is_some_and(|(target, root)| target.starts_with(root));
        match std::fs::metadata(&abs) {
            Ok(target) if inside => meta = target,
            _ => return (None, Some(Unread::OutsideLink)),
        }
        if !meta.is_file() {
            return (None, Some(Unread::NotAFile));
        }
    }
    if meta.is_dir() {
        return (None, Some(Unread::Submodule));
    }
    if !meta.is_file() {
        return (None, Some(Unread::NotAFile));
    }
    if meta.len() > baseline::MAX_TEXT_BYTES {
        return (None, Some(Unread::TooLarge));
    }
    let Ok(bytes) = state::read_bounded(&abs, baseline::MAX_TEXT_BYTES, state::Follow::Yes) else {
        // Gone since the stat, or grown past the cap.
        return (None, None);
    };
    unread::decode(bytes, baseline::MAX_TEXT_BYTES)
}

/// Renames are followed when neither side has more paths than this; past it every path
/// stays a deletion or an addition (judged more strictly, never less).
const MAX_RENAME_SIDE: usize = 10_000;
/// Work-tree files larger than this are not read to follow a rename, nor once this many
/// bytes were read in all (they stay additions).
const MAX_RENAME_READ_BYTES: u64 = 4 * 1024 * 1024;
const MAX_RENAME_READ_TOTAL: u64 = 256 * 1024 * 1024;

/// Pair deleted paths with added ones by content ([`crate::renames`]). The old side is the
/// blob at the comparison point, or for a file dirty at baseline time the hash recorded
/// then; the new side is the work-tree file.
fn follow_renames(
    root: &Path,
    changes: &BTreeMap<String, ChangeKind>,
    old_bytes: &HashMap<String, Vec<u8>>,
    dirty: &BTreeMap<String, baseline::DirtyFile>,
) -> Vec<renames::Rename> {
    let of_kind = |want: ChangeKind| -> Vec<&String> {
        changes
            .iter()
            .filter(|(_, k)| **k == want)
            .map(|(p, _)| p)
            .collect()
    };
    let (deleted, added) = (of_kind(ChangeKind::Deleted), of_kind(ChangeKind::Added));
    if deleted.is_empty() || added.is_empty() {
        return Vec::new();
    }
    let mut budget = MAX_RENAME_READ_TOTAL;
    let new_bytes: Vec<Option<Vec<u8>>> = added
        .iter()
        .map(|p| {
            let abs = root.join(p);
            let meta = std::fs::symlink_metadata(&abs).ok()?;
            if !meta.is_file() || meta.len() > MAX_RENAME_READ_BYTES.min(budget) {
                return None;
            }
            budget -= meta.len();
            std::fs::read(&abs).ok()
        })
        .collect();
    let old_sides: Vec<renames::Side> = deleted
        .iter()
        .map(|p| renames::Side {
            path: p,
            bytes: old_bytes.get(*p).map(Vec::as_slice),
            hash: dirty.get(*p).and_then(|d| d.hash.as_deref()),
        })
        .collect();
    let new_sides: Vec<renames::Side> = added
        .iter()
        .zip(&new_bytes)
        .map(|(p, b)| renames::Side {
            path: p,
            bytes: b.as_deref(),
            hash: None,
        })
        .collect();
    renames::pair(&old_sides, &new_sides)
}

/// Lines of `new` that are not in `old`, numbered in `new` (1-based). A pathological pair
/// gets a coarser diff rather than an unbounded one.
pub fn added_lines(old: &str, new: &str) -> Vec<(u32, String)> {
    crate::line_diff::added_lines(old, new)
}

pub use crate::line_diff::Numbered;

/// One diff, both sides: the lines `new` added (numbered in `new`) and the lines it
/// removed from `old` (numbered in `old`), 1-based.
pub fn line_changes(old: &str, new: &str) -> (Numbered, Numbered) {
    crate::line_diff::changes(old, new)
}

fn as_lines(numbered: Numbered) -> Vec<Line> {
    numbered
        .into_iter()
        .map(|(number, text)| Line { number, text })
        .collect()
}

/// Every line of a whole file (added or removed with it).
fn numbered(text: Option<&str>) -> Vec<Line> {
    text.map(|t| {
        t.lines()
            .take(MAX_LINES_PER_FILE)
            .enumerate()
            .map(|(i, l)| Line {
                number: i as u32 + 1,
                text: l.to_string(),
            })
            .collect()
    })
    .unwrap_or_default()
}

/// Remove, as a multiset, the lines that were already added at baseline time.
fn subtract_lines(lines: Vec<Line>, already: &[String]) -> Vec<Line> {
    let mut budget: HashMap<&str, usize> = HashMap::new();
    for l in already {
        *budget.entry(l.as_str()).or_default() += 1;
    }
    lines
        .into_iter()
        .filter(|line| match budget.get_mut(line.text.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

/// Repository-relative form of an absolute path inside `root`, `/`-separated.
pub fn relative(root: &Path, path: &Path) -> Option<String> {
    path.strip_prefix(root)
        .ok()
        .map(|p| p.to_string_lossy().replace('\\', "/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session_point(created_at: &str) -> Point {
        Point {
            info: BaselineInfo {
                kind: BaselineKind::Session,
                reference: None,
                session: Some("s".into()),
            },
            commit: Some(crate::git::EMPTY_TREE.into()),
            baseline: Some(Baseline {
                version: baseline::BASELINE_VERSION,
                session: "s".into(),
                created_at: created_at.into(),
                head: None,
                branch: None,
                config_hash: None,
                dirty: BTreeMap::new(),
                gate_files: BTreeMap::new(),
                config: None,
                snapshot: None,
            }),
        }
    }

    /// The start a comparison trusts the stat cache up to: the pin's over any baseline
    /// (which the repository holds), the baseline's for a session point, none without one.
    #[test]
    fn the_stat_anchor_comes_from_loopgates_own_start() {
        let now: jiff::Timestamp = "2027-01-15T09:00:00Z".parse().unwrap();
        let pinned = PinnedStart {
            session: "s".into(),
            config: baseline::RecordedConfig {
                text: None,
                hash: String::new(),
            },
            head: None,
            baseline_created_at: None,
            started_at: "2027-01-15T08:00:00Z".into(),
        };
        let late = session_point("2027-01-15T08:59:00Z");
        let anchor = stat_anchor(Some(&pinned), Some(&late), now).unwrap();
        assert!(anchor.covers((1_800_000_000, 5)), "the pin's start");
        let anchor = stat_anchor(None, Some(&late), now).unwrap();
        assert!(!anchor.covers((1_800_000_000, 5)) && anchor.covers((1_800_003_540, 5)));
        assert_eq!(stat_anchor(None, Some(&Point::none()), now), None);
        assert_eq!(stat_anchor(None, None, now), None);
        let damaged = session_point("not a time");
        assert_eq!(
            stat_anchor(None, Some(&damaged), now),
            Some(StatAnchor::ALL)
        );
    }

    #[test]
    fn added_lines_are_numbered_in_the_new_text() {
        let old = "a\nb\nc\n";
        let new = "a\nx\nb\nc\ny";
        assert_eq!(
            added_lines(old, new),
            vec![(2, "x".to_string()), (5, "y".to_string())]
        );
        assert!(added_lines(new, new).is_empty());
        assert_eq!(added_lines("", "one\r\n").len(), 1);
    }

    #[test]
    fn subtract_is_a_multiset_difference() {
        let lines = ["a", "b", "a", "c"]
            .iter()
            .enumerate()
            .map(|(i, t)| Line {
                number: i as u32 + 1,
                text: t.to_string(),
            })
            .collect();
        let left = subtract_lines(lines, &["a".into(), "c".into()]);
        let texts: Vec<_> = left.iter().map(|l| (l.number, l.text.as_str())).collect();
        assert_eq!(texts, vec![(2, "b"), (3, "a")]);
    }
}
