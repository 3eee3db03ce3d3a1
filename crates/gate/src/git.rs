//! The git edge: every question the gate asks git goes through here, via the git CLI
//! (one process per question; measured faster than opening the repo in-process for the
//! handful of questions a check asks, see bench/check.sh).

use anyhow::{anyhow, bail, Context};
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The tree of an empty repository: what a commit-less repo is compared against.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

#[derive(Debug, Clone)]
pub struct Repo {
    pub root: PathBuf,
}

fn git(root: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(root)
        .arg("-c")
        .arg("core.quotePath=false")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null());
    cmd
}

/// Run git, return stdout bytes; a non-zero exit is an error carrying git's stderr.
fn output<I, S>(root: &Path, args: I) -> anyhow::Result<Vec<u8>>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<_> = args.into_iter().map(|a| a.as_ref().to_os_string()).collect();
    let out = git(root)
        .args(&args)
        .output()
        .with_context(|| "cannot run git: is it installed and on PATH?")?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        bail!(
            "git {} failed: {}",
            args.iter()
                .map(|a| a.to_string_lossy())
                .collect::<Vec<_>>()
                .join(" "),
            stderr.trim()
        );
    }
    Ok(out.stdout)
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).trim_end_matches('\n').to_string()
}

impl Repo {
    /// The repository containing `dir`, or `None` when `dir` is not in a git work tree
    /// (or git is not installed).
    pub fn discover(dir: &Path) -> Option<Repo> {
        let out = git(dir)
            .args(["rev-parse", "--show-toplevel"])
            .stderr(Stdio::null())
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        let root = PathBuf::from(text(out.stdout));
        Some(Repo { root })
    }

    /// The commit HEAD points at, or `None` in a repository with no commits.
    pub fn head(&self) -> Option<String> {
        self.resolve("HEAD").ok()
    }

    pub fn branch(&self) -> Option<String> {
        let out = output(&self.root, ["symbolic-ref", "--quiet", "--short", "HEAD"]).ok()?;
        let name = text(out);
        (!name.is_empty()).then_some(name)
    }

    /// Resolve a user-given ref to a commit id; an unknown ref is an error naming it.
    pub fn resolve(&self, reference: &str) -> anyhow::Result<String> {
        if reference.starts_with('-') || reference.contains('\0') {
            bail!("`{reference}` is not a git ref");
        }
        let spec = format!("{reference}^{{commit}}");
        let out = output(&self.root, ["rev-parse", "--verify", "--quiet", "--end-of-options", &spec])
            .map_err(|_| anyhow!("`{reference}` does not resolve to a commit in {}", self.root.display()))?;
        let id = text(out);
        if id.is_empty() {
            bail!("`{reference}` does not resolve to a commit in {}", self.root.display());
        }
        Ok(id)
    }

    /// The default branch (origin's HEAD, else main/master locally or on origin).
    pub fn default_branch(&self) -> Option<String> {
        if let Ok(out) = output(&self.root, ["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"]) {
            let name = text(out);
            if !name.is_empty() {
                return Some(name);
            }
        }
        ["origin/main", "origin/master", "main", "master"]
            .into_iter()
            .find(|r| self.resolve(r).is_ok())
            .map(String::from)
    }

    pub fn merge_base(&self, a: &str, b: &str) -> Option<String> {
        output(&self.root, ["merge-base", a, b]).ok().map(text)
    }

    /// The main checkout when this work tree is a linked worktree (`git worktree add`).
    pub fn main_checkout(&self) -> Option<PathBuf> {
        let out = output(&self.root, ["rev-parse", "--path-format=absolute", "--git-common-dir"]).ok()?;
        let common = PathBuf::from(text(out));
        let main = common.parent()?.to_path_buf();
        let main = std::fs::canonicalize(&main).unwrap_or(main);
        let here = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        (common.file_name().is_some_and(|n| n == ".git") && main != here).then_some(main)
    }

    /// One walk of the work tree: HEAD, branch, and every path that differs from HEAD in
    /// the index or work tree, plus untracked files that are not ignored.
    pub fn work_state(&self) -> anyhow::Result<WorkState> {
        let out = output(
            &self.root,
            ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"],
        )?;
        Ok(parse_status_v2(&out))
    }

    /// Paths changed between `commit` and the work tree, renames followed. `state` is the
    /// work tree's status (so the tree is walked once); only the paths it names, plus those
    /// that differ between `commit` and HEAD, are compared.
    pub fn changes_since(&self, commit: &str, state: &WorkState) -> anyhow::Result<Vec<Change>> {
        let mut candidates: BTreeSet<String> = BTreeSet::new();
        for e in &state.entries {
            candidates.insert(e.path.clone());
            if let Some(orig) = &e.orig {
                candidates.insert(orig.clone());
            }
        }
        if let Some(head) = &state.head {
            if head != commit {
                let out = output(&self.root, ["diff", "--no-ext-diff", "--name-only", "-z", commit, head, "--"])?;
                for p in out.split(|b| *b == 0).filter(|p| !p.is_empty()) {
                    candidates.insert(lossy(p));
                }
            }
        }
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        let mut args: Vec<String> = ["diff", "--no-ext-diff", "--no-textconv", "-M", "--name-status", "-z", commit, "--"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        // Past a few thousand paths the command line gets long; diffing the whole tree is
        // then no slower than naming every path.
        if candidates.len() <= MAX_PATHSPECS {
            args.extend(candidates.iter().map(|p| format!(":(literal){p}")));
        }
        let out = output(&self.root, &args)?;
        let mut changes = parse_name_status_z(&out);
        for e in state.entries.iter().filter(|e| e.code == "??") {
            changes.push(Change {
                path: e.path.clone(),
                kind: ChangeKind::Added,
            });
        }
        changes.sort_by(|a, b| a.path.cmp(&b.path));
        changes.dedup_by(|a, b| a.path == b.path);
        Ok(pair_untracked_renames(changes))
    }

    /// Lines added in the work tree since `commit`, per path (tracked files only).
    pub fn added_lines_since(&self, commit: &str, paths: &[String]) -> anyhow::Result<Vec<(String, Vec<(u32, String)>)>> {
        if paths.is_empty() {
            return Ok(Vec::new());
        }
        let mut args: Vec<String> = ["diff", "--no-ext-diff", "--no-textconv", "--no-color", "-M", "-U0", commit, "--"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(paths.iter().map(|p| format!(":(literal){p}")));
        let out = output(&self.root, &args)?;
        Ok(parse_unified_added(&out))
    }

    /// The contents of `path` at `commit` for many paths at once (one git process).
    /// Missing paths map to `None`.
    pub fn blobs_at(&self, commit: &str, paths: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        if paths.is_empty() {
            return Ok(Vec::new());
        }
        let mut child = git(&self.root)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot run git cat-file")?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let request: Vec<u8> = paths
            .iter()
            .filter(|p| !p.contains('\n'))
            .flat_map(|p| format!("{commit}:{p}\n").into_bytes())
            .collect();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&request);
        });
        let mut out = Vec::new();
        child
            .stdout
            .take()
            .expect("piped stdout")
            .read_to_end(&mut out)?;
        let _ = writer.join();
        child.wait()?;
        let mut blobs = Vec::with_capacity(paths.len());
        let mut rest: &[u8] = &out;
        for path in paths {
            if path.contains('\n') {
                blobs.push(None);
                continue;
            }
            let Some(nl) = rest.iter().position(|b| *b == b'\n') else {
                blobs.push(None);
                continue;
            };
            let header = String::from_utf8_lossy(&rest[..nl]).into_owned();
            rest = &rest[nl + 1..];
            let parts: Vec<&str> = header.split(' ').collect();
            if parts.len() == 3 && parts[1] == "blob" {
                let size: usize = parts[2].parse().unwrap_or(0);
                let size = size.min(rest.len());
                blobs.push(Some(rest[..size].to_vec()));
                rest = &rest[(size + 1).min(rest.len())..];
            } else {
                blobs.push(None);
            }
        }
        Ok(blobs)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
    Renamed { from: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub path: String,
    pub kind: ChangeKind,
}

/// One path of `git status`: its two-letter code (`.M`, `A.`, `??`, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusEntry {
    pub path: String,
    pub code: String,
    /// The source path of a staged rename or copy.
    pub orig: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WorkState {
    /// `None` in a repository with no commits.
    pub head: Option<String>,
    /// `None` on a detached HEAD.
    pub branch: Option<String>,
    pub entries: Vec<StatusEntry>,
}

impl WorkState {
    pub fn dirty(&self) -> bool {
        !self.entries.is_empty()
    }
}

const MAX_PATHSPECS: usize = 2000;

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Parse `git status --porcelain=v2 -z --branch`.
pub fn parse_status_v2(out: &[u8]) -> WorkState {
    let mut state = WorkState::default();
    let mut fields = out.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let Some(rec) = fields.next() {
        let line = lossy(rec);
        if let Some(oid) = line.strip_prefix("# branch.oid ") {
            state.head = (oid != "(initial)").then(|| oid.to_string());
        } else if let Some(name) = line.strip_prefix("# branch.head ") {
            state.branch = (name != "(detached)").then(|| name.to_string());
        } else if let Some(path) = line.strip_prefix("? ") {
            state.entries.push(StatusEntry {
                path: path.to_string(),
                code: "??".into(),
                orig: None,
            });
        } else if line.starts_with("1 ") || line.starts_with("u ") {
            let skip = if line.starts_with("1 ") { 8 } else { 10 };
            if let Some(path) = line.splitn(skip + 1, ' ').nth(skip) {
                state.entries.push(StatusEntry {
                    path: path.to_string(),
                    code: line[2..4].to_string(),
                    orig: None,
                });
            }
        } else if line.starts_with("2 ") {
            let orig = fields.next().map(lossy);
            if let Some(path) = line.splitn(10, ' ').nth(9) {
                state.entries.push(StatusEntry {
                    path: path.to_string(),
                    code: line[2..4].to_string(),
                    orig,
                });
            }
        }
    }
    state
}

/// A file moved with plain `mv` shows as deleted plus untracked; pair them back into a
/// rename when the name is the same (moved to another directory) or the content is.
fn pair_untracked_renames(changes: Vec<Change>) -> Vec<Change> {
    let deleted: Vec<String> = changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Deleted)
        .map(|c| c.path.clone())
        .collect();
    if deleted.is_empty() {
        return changes;
    }
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::with_capacity(changes.len());
    for change in &changes {
        if change.kind == ChangeKind::Added {
            let from = deleted
                .iter()
                .find(|d| !used.contains(*d) && base(d) == base(&change.path));
            if let Some(from) = from {
                used.insert(from.clone());
                out.push(Change {
                    path: change.path.clone(),
                    kind: ChangeKind::Renamed { from: from.clone() },
                });
                continue;
            }
        }
        out.push(change.clone());
    }
    out.retain(|c| !(c.kind == ChangeKind::Deleted && used.contains(&c.path)));
    out
}

pub fn parse_name_status_z(out: &[u8]) -> Vec<Change> {
    let mut fields = out.split(|b| *b == 0).filter(|f| !f.is_empty());
    let mut changes = Vec::new();
    while let Some(status) = fields.next() {
        let code = status.first().copied().unwrap_or(b'?');
        let Some(path) = fields.next() else { break };
        let change = match code {
            b'R' | b'C' => {
                let Some(new) = fields.next() else { break };
                if code == b'R' {
                    Change {
                        path: lossy(new),
                        kind: ChangeKind::Renamed { from: lossy(path) },
                    }
                } else {
                    Change {
                        path: lossy(new),
                        kind: ChangeKind::Added,
                    }
                }
            }
            b'A' => Change {
                path: lossy(path),
                kind: ChangeKind::Added,
            },
            b'D' => Change {
                path: lossy(path),
                kind: ChangeKind::Deleted,
            },
            _ => Change {
                path: lossy(path),
                kind: ChangeKind::Modified,
            },
        };
        changes.push(change);
    }
    changes
}

/// Undo git's C-style quoting of a path in diff headers (`"a\tb"`, octal escapes).
fn unquote_path(raw: &str) -> String {
    let Some(inner) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
        return raw.to_string();
    };
    let mut bytes = Vec::new();
    let mut chars = inner.bytes().peekable();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match chars.next() {
            Some(b'n') => bytes.push(b'\n'),
            Some(b't') => bytes.push(b'\t'),
            Some(b'"') => bytes.push(b'"'),
            Some(b'\\') => bytes.push(b'\\'),
            Some(d @ b'0'..=b'7') => {
                let mut v = u32::from(d - b'0');
                for _ in 0..2 {
                    if let Some(&n @ b'0'..=b'7') = chars.peek() {
                        v = v * 8 + u32::from(n - b'0');
                        chars.next();
                    }
                }
                bytes.push(v as u8);
            }
            Some(other) => bytes.push(other),
            None => {}
        }
    }
    lossy(&bytes)
}

/// Added lines per file from `git diff -U0` output, numbered in the new file.
pub fn parse_unified_added(out: &[u8]) -> Vec<(String, Vec<(u32, String)>)> {
    let mut files: Vec<(String, Vec<(u32, String)>)> = Vec::new();
    let mut next_line: u32 = 0;
    let mut in_hunk = false;
    for raw in out.split(|b| *b == b'\n') {
        if raw.starts_with(b"diff --git ") {
            in_hunk = false;
            continue;
        }
        if !in_hunk {
            if let Some(path) = raw.strip_prefix(b"+++ ") {
                let path = lossy(path);
                let path = unquote_path(&path);
                let path = path.strip_prefix("b/").unwrap_or(&path).to_string();
                files.push((path, Vec::new()));
                continue;
            }
        }
        if raw.starts_with(b"@@ ") {
            in_hunk = true;
            next_line = parse_hunk_new_start(&lossy(raw)).unwrap_or(1);
            continue;
        }
        if !in_hunk {
            continue;
        }
        if let Some(added) = raw.strip_prefix(b"+") {
            if let Some((_, lines)) = files.last_mut() {
                lines.push((next_line, lossy(added)));
            }
            next_line += 1;
        } else if raw.starts_with(b" ") {
            next_line += 1;
        }
    }
    files.retain(|(p, _)| p != "/dev/null");
    files
}

fn parse_hunk_new_start(header: &str) -> Option<u32> {
    let plus = header.split(' ').find(|w| w.starts_with('+'))?;
    plus[1..].split(',').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_status_with_renames() {
        let out = b"M\0a.rs\0R087\0old.test.js\0new.test.js\0D\0gone.py\0A\0new.go\0";
        let changes = parse_name_status_z(out);
        assert_eq!(changes.len(), 4);
        assert_eq!(
            changes[1].kind,
            ChangeKind::Renamed {
                from: "old.test.js".into()
            }
        );
        assert_eq!(changes[2].kind, ChangeKind::Deleted);
    }

    #[test]
    fn unified_added_lines_are_numbered() {
        let diff = b"diff --git a/x.js b/x.js\nindex 1..2 100644\n--- a/x.js\n+++ b/x.js\n@@ -3,0 +4,2 @@ fn\n+it.skip('a')\n+// +++ b/fake\n@@ -10 +12 @@\n-old\n+new\n";
        let files = parse_unified_added(diff);
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].0, "x.js");
        assert_eq!(
            files[0].1,
            vec![
                (4, "it.skip('a')".to_string()),
                (5, "// +++ b/fake".to_string()),
                (12, "new".to_string())
            ]
        );
    }

    #[test]
    fn status_v2_head_branch_and_entries() {
        let out = b"# branch.oid abc123\0# branch.head main\01 .M N... 100644 100644 100644 h1 h2 src/a b.rs\02 R. N... 100644 100644 100644 h1 h2 R100 new.js\0old.js\0? t/x.test.js\0";
        let s = parse_status_v2(out);
        assert_eq!(s.head.as_deref(), Some("abc123"));
        assert_eq!(s.branch.as_deref(), Some("main"));
        assert_eq!(s.entries.len(), 3);
        assert_eq!(s.entries[0].path, "src/a b.rs");
        assert_eq!(s.entries[0].code, ".M");
        assert_eq!(s.entries[1].orig.as_deref(), Some("old.js"));
        assert_eq!(s.entries[2].code, "??");
        let initial = parse_status_v2(b"# branch.oid (initial)\0# branch.head (detached)\0");
        assert!(initial.head.is_none() && initial.branch.is_none());
    }

    #[test]
    fn moved_files_pair_by_name() {
        let changes = vec![
            Change { path: "a/t.test.js".into(), kind: ChangeKind::Deleted },
            Change { path: "b/t.test.js".into(), kind: ChangeKind::Added },
            Change { path: "c.js".into(), kind: ChangeKind::Added },
        ];
        let out = pair_untracked_renames(changes);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].kind, ChangeKind::Renamed { from: "a/t.test.js".into() });
    }

    #[test]
    fn quoted_paths_are_unquoted() {
        assert_eq!(unquote_path("\"a\\tb\""), "a\tb");
        assert_eq!(unquote_path("\"caf\\303\\251\""), "café");
        assert_eq!(unquote_path("plain"), "plain");
    }
}
