//! Choosing the comparison point and turning the differences into [`FileDelta`]s for the
//! guards. This is the edge between git and the pure guards.

use crate::baseline::{self, read_text, Baseline};
use crate::git::{BlobReader, ChangeKind, Repo, WorkState};
use crate::guards::{count_tests, is_counted_path, DeltaKind, FileDelta, Line};
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

/// Pick the comparison point: explicit ref, named session, newest session, HEAD (dirty
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
    if let Some(reference) = &req.against {
        let commit = repo.resolve(reference)?;
        return Ok(Point {
            info: BaselineInfo {
                kind: BaselineKind::Explicit,
                reference: Some(commit.clone()),
                session: None,
            },
            commit: Some(commit),
            baseline: None,
        });
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
        None if req.session.is_none() || !req.require_session => baseline::newest(&repo.root)?
            .filter(|b| req.session.is_none() || Some(&b.session) == req.session.as_ref()),
        None => None,
    };
    if let Some(b) = session_baseline {
        let commit = b
            .head
            .clone()
            .unwrap_or_else(|| crate::git::EMPTY_TREE.to_string());
        return Ok(Point {
            info: BaselineInfo {
                kind: BaselineKind::Session,
                reference: b.head.clone(),
                session: Some(b.session.clone()),
            },
            commit: Some(commit),
            baseline: Some(b),
        });
    }
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

/// Build the deltas between `point` and the work tree.
pub fn deltas(
    repo: &Repo,
    state: &WorkState,
    point: &Point,
    test_globs: &[String],
    blobs: BlobReader,
) -> anyhow::Result<Vec<FileDelta>> {
    let Some(commit) = &point.commit else {
        return Ok(Vec::new());
    };
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
    let count = |want: ChangeKind| changes.values().filter(|k| **k == want).count();
    let (n_added, n_deleted) = (count(ChangeKind::Added), count(ChangeKind::Deleted));
    let follow = n_added > 0 && n_added <= MAX_RENAME_SIDE && n_deleted <= MAX_RENAME_SIDE;
    let wanted: Vec<String> = changes
        .iter()
        .filter(|(path, kind)| match kind {
            ChangeKind::Added => false,
            ChangeKind::Deleted => {
                follow || (is_counted_path(path, test_globs) && !dirty.contains_key(*path))
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
    let old_texts: HashMap<String, String> = old_bytes
        .into_iter()
        .filter(|(_, b)| b.len() as u64 <= baseline::MAX_TEXT_BYTES)
        .filter_map(|(path, b)| Some((path, String::from_utf8(b).ok()?)))
        .collect();
    let mut out = Vec::with_capacity(changes.len());
    for (path, kind) in changes {
        let abs = root.join(&path);
        let new_text = match kind {
            ChangeKind::Deleted => None,
            _ => read_text(&abs),
        };
        let mut lines: Vec<Line> = match &kind {
            ChangeKind::Deleted => Vec::new(),
            ChangeKind::Added => new_text
                .as_deref()
                .map(|t| {
                    t.lines()
                        .enumerate()
                        .map(|(i, l)| Line {
                            number: i as u32 + 1,
                            text: l.to_string(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
            _ => match (old_texts.get(&path), &new_text) {
                (Some(old), Some(new)) => added_lines(old, new)
                    .into_iter()
                    .map(|(number, text)| Line { number, text })
                    .collect(),
                _ => Vec::new(),
            },
        };
        let old_path = match &kind {
            ChangeKind::Renamed { from } => from.clone(),
            _ => path.clone(),
        };
        if let Some(then) = dirty.get(&old_path) {
            lines = subtract_lines(lines, &then.added_lines);
        }
        lines.truncate(MAX_LINES_PER_FILE);
        let delta_kind = match kind {
            ChangeKind::Added => DeltaKind::Added,
            ChangeKind::Modified => DeltaKind::Modified,
            ChangeKind::Deleted => DeltaKind::Deleted,
            ChangeKind::Renamed { from } => DeltaKind::Renamed { from },
        };
        let old_counts = match &delta_kind {
            DeltaKind::Added => None,
            _ => dirty.get(&old_path).and_then(|d| d.counts).or_else(|| {
                let old = old_texts.get(&path)?;
                is_counted_path(&old_path, test_globs).then(|| count_tests(&old_path, old))
            }),
        };
        out.push(FileDelta {
            old_counts,
            path,
            kind: delta_kind,
            added_lines: lines,
            new_text,
        });
    }
    Ok(out)
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
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_millis(200))
        .diff_lines(old, new);
    diff.iter_all_changes()
        .filter(|c| c.tag() == similar::ChangeTag::Insert)
        .filter_map(|c| {
            let number = c.new_index()? as u32 + 1;
            let text = c.value().trim_end_matches(['\n', '\r']).to_string();
            Some((number, text))
        })
        .collect()
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
