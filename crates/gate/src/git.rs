//! The git edge: every question the gate asks git goes through here, via the git CLI
//! (one process per question), except the old contents of files, which are read from the
//! object store in-process when that is plain ([`objects`]): a process start costs more
//! than the read on a busy machine, see bench/check.sh.

use anyhow::{anyhow, bail, Context};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;
use std::sync::{Arc, Mutex, OnceLock};

pub use stat_anchor::StatAnchor;

mod batch;
mod decoded;
mod hardened;
mod head_ref;
pub mod hidden;
mod index_tree;
mod objects;
pub mod stat_anchor;
mod tracked;

/// The tree of an empty repository: what a commit-less repo is compared against.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

#[derive(Debug, Clone)]
pub struct Repo {
    pub root: PathBuf,
    /// The shared `.git` directory (the main checkout's when this is a linked worktree).
    pub common_dir: PathBuf,
    /// This work tree's own git directory (`.git/worktrees/NAME` for a linked worktree).
    git_dir: PathBuf,
    /// Filter drivers to neutralise, looked up once (see [`hardened::command`]).
    filters: OnceLock<Result<Vec<String>, String>>,
    /// The one `git cat-file --batch` every old content the object store does not answer
    /// is read through (see [`batch`]); clones share it.
    batch: Arc<Mutex<Option<batch::Batch>>>,
    /// The object store read in-process (see [`objects`]); clones share it. gix's store
    /// handle is single-threaded, and so is every use of a `Repo`.
    store: Rc<RefCell<objects::Store>>,
    /// The untracked listing started ahead of the walk ([`Repo::list_untracked_early`]);
    /// clones share it, and the first work state takes it.
    untracked_early: Rc<RefCell<Early>>,
}

/// `git ls-files` asked for the untracked files, as [`Repo::work_state`] asks it.
const UNTRACKED_ARGS: [&str; 4] = ["ls-files", "-z", "--others", "--exclude-standard"];

/// Run a hardened git command, return stdout bytes; a non-zero exit is an error carrying
/// git's stderr.
fn output<I, S>(cmd: Command, args: I) -> anyhow::Result<Vec<u8>>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    start(cmd, args)?.finish()
}

/// A hardened git command started, its output collected by [`Started::finish`]: the
/// caller works meanwhile, with no thread of its own waiting on git. (A child whose output
/// outgrows the pipe waits for `finish`: later, never wrong.)
#[derive(Debug)]
struct Started {
    child: std::process::Child,
    args: Vec<std::ffi::OsString>,
}

/// An untracked listing started early and not (yet) taken. One never taken (the work
/// state went to `git status`, or the gate stopped on an error first) is killed and
/// reaped: it must not keep walking the tree beside the process that gave it up.
#[derive(Debug, Default)]
struct Early(Option<Started>);

impl Drop for Early {
    fn drop(&mut self) {
        if let Some(mut started) = self.0.take() {
            let _ = started.child.kill();
            let _ = started.child.wait();
        }
    }
}

fn start<I, S>(mut cmd: Command, args: I) -> anyhow::Result<Started>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<_> = args
        .into_iter()
        .map(|a| a.as_ref().to_os_string())
        .collect();
    // Never the caller's stdin: a hook's stdin is the agent's payload.
    let child = cmd
        .args(&args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .with_context(|| "cannot run git: is it installed and on PATH?")?;
    Ok(Started { child, args })
}

impl Started {
    /// What [`output`] gives for the same command.
    fn finish(self) -> anyhow::Result<Vec<u8>> {
        let out = self
            .child
            .wait_with_output()
            .with_context(|| "cannot run git: is it installed and on PATH?")?;
        if !out.status.success() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            bail!(
                "git {} failed: {}",
                hardened::shown(&self.args),
                stderr.trim()
            );
        }
        Ok(out.stdout)
    }
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes)
        .trim_end_matches('\n')
        .to_string()
}

impl Repo {
    /// The repository containing `dir`, or `None` when `dir` is not in a git work tree.
    /// Found by walking up to a `.git` directory, or a `.git` file naming the gitdir of a
    /// linked worktree: no process, since every hook call pays for this.
    pub fn discover(dir: &Path) -> Option<Repo> {
        std::fs::canonicalize(dir).ok()?;
        let root = root_of(dir)?;
        let dot_git = root.join(".git");
        let (git_dir, common_dir) = if dot_git.is_dir() {
            (dot_git.clone(), dot_git)
        } else {
            let gitdir = read_gitdir_file(&dot_git, &root)?;
            let common = match std::fs::read_to_string(gitdir.join("commondir")) {
                Ok(common) => {
                    let common = gitdir.join(common.trim());
                    std::fs::canonicalize(&common).unwrap_or(common)
                }
                Err(_) => gitdir.clone(),
            };
            (gitdir, common)
        };
        let store = Rc::new(RefCell::new(objects::Store::new(
            &common_dir.join("objects"),
        )));
        Some(Repo {
            root,
            common_dir,
            git_dir,
            filters: OnceLock::new(),
            batch: Arc::default(),
            store,
            untracked_early: Rc::default(),
        })
    }

    /// Start listing the untracked files now, for the next [`Repo::work_state`] to take:
    /// that listing (one git process walking the whole tree) is the longest part of the
    /// work state, so it runs while loopgate reads the baseline, the index and HEAD
    /// instead of after. A listing that cannot start here is started again, and its error
    /// reported, where it is needed.
    pub fn list_untracked_early(&self) {
        let mut early = self.untracked_early.borrow_mut();
        if early.0.is_none() {
            early.0 = start(self.git(), UNTRACKED_ARGS).ok();
        }
    }

    /// The untracked listing: the one started early, else one started now.
    fn untracked_listing(&self) -> anyhow::Result<Started> {
        let early = self.untracked_early.borrow_mut().0.take();
        match early {
            Some(started) => Ok(started),
            None => start(self.git(), UNTRACKED_ARGS),
        }
    }

    /// Give up an early listing nobody will take (killed and reaped, see [`Early`]).
    fn drop_early_listing(&self) {
        let early = std::mem::take(&mut *self.untracked_early.borrow_mut());
        drop(early);
    }

    /// A hardened git command for questions about objects and refs only.
    fn git(&self) -> Command {
        hardened::command(&self.root, &[])
    }

    /// A hardened git command for questions that hash work-tree files (status, a diff
    /// against the work tree): those run filter drivers, so every configured one is
    /// neutralised as well.
    fn git_on_worktree(&self) -> anyhow::Result<Command> {
        let filters = self
            .filters
            .get_or_init(|| self.filter_drivers())
            .as_ref()
            .map_err(|e| anyhow!("{e}"))?;
        Ok(hardened::command(&self.root, filters))
    }

    /// One `git config` process, and only when a config file outside the system one could
    /// define a filter (most repositories define none: no process at all).
    fn filter_drivers(&self) -> Result<Vec<String>, String> {
        if !hardened::may_define_filters(&self.common_dir, &self.git_dir) {
            return Ok(Vec::new());
        }
        let out = self
            .git()
            .args([
                "config",
                "--show-scope",
                "--null",
                "--name-only",
                "--get-regexp",
                r"^filter\.",
            ])
            .output()
            .map_err(|e| format!("cannot run git config: {e}"))?;
        // Exit 1: no such key, so no filter driver.
        match out.status.code() {
            Some(0) => Ok(hardened::parse_filter_drivers(&out.stdout)),
            Some(1) => Ok(Vec::new()),
            _ => Err(format!(
                "cannot read the filter drivers of {}: {}",
                self.root.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            )),
        }
    }

    /// Resolve a user-given ref to a commit id; an unknown ref is an error naming it.
    pub fn resolve(&self, reference: &str) -> anyhow::Result<String> {
        if reference.starts_with('-') || reference.contains('\0') {
            bail!("`{reference}` is not a git ref");
        }
        let spec = format!("{reference}^{{commit}}");
        let out = output(
            self.git(),
            [
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                &spec,
            ],
        )
        .map_err(|_| {
            anyhow!(
                "`{reference}` does not resolve to a commit in {}",
                self.root.display()
            )
        })?;
        let id = text(out);
        if id.is_empty() {
            bail!(
                "`{reference}` does not resolve to a commit in {}",
                self.root.display()
            );
        }
        Ok(id)
    }

    /// Resolve the `--against` of judge mode to a commit, refusing a name that git would
    /// resolve by its search order when more than one thing answers to it: a tag, a branch,
    /// or a bare file under `.git` named like the remote-tracking ref CI meant (the judged
    /// tree can create all three). A commit id or a full ref (`refs/remotes/origin/main`)
    /// is taken as written.
    pub fn resolve_against(&self, reference: &str) -> anyhow::Result<String> {
        if reference.is_empty() || reference.starts_with('-') || reference.contains('\0') {
            bail!("`{reference}` is not a git ref");
        }
        let cut = reference
            .find(['~', '^', ':'])
            .into_iter()
            .chain(reference.find("@{"))
            .min()
            .unwrap_or(reference.len());
        let (base, suffix) = reference.split_at(cut);
        let full_id = matches!(base.len(), 40 | 64) && base.bytes().all(|b| b.is_ascii_hexdigit());
        if full_id || matches!(base, "" | "@" | "HEAD") {
            return self.resolve(reference);
        }
        if base.starts_with("refs/") {
            if !self
                .existing_refs(&[base.to_string()])?
                .contains(&base.to_string())
            {
                bail!("`{base}` is not a ref in {}", self.root.display());
            }
            return self.resolve(reference);
        }
        let rules = [
            format!("refs/{base}"),
            format!("refs/tags/{base}"),
            format!("refs/heads/{base}"),
            format!("refs/remotes/{base}"),
            format!("refs/remotes/{base}/HEAD"),
        ];
        let mut found: Vec<String> = self.existing_refs(&rules)?;
        // Git looks in the git directory itself first: `.git/origin/main` shadows
        // `refs/remotes/origin/main`. Only the pseudo-refs (`FETCH_HEAD`, `ORIG_HEAD`) are
        // meant to live there.
        let pseudo =
            base.ends_with("HEAD") && base.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
        let bare = [&self.git_dir, &self.common_dir]
            .iter()
            .any(|dir| std::fs::symlink_metadata(dir.join(base)).is_ok());
        if bare && !pseudo {
            found.push(format!(".git/{base} (a file, not a ref)"));
        }
        // A short hex name may also be an abbreviated commit id (git prefers the ref).
        let abbreviated = base.len() >= 4
            && base.bytes().all(|b| b.is_ascii_hexdigit())
            && output(self.git(), ["rev-parse", &format!("--disambiguate={base}")])
                .is_ok_and(|o| !o.is_empty());
        let advice = "pass a commit id (`git rev-parse` it where the ref is trusted) or a full ref name such as `refs/remotes/origin/main`";
        match found.as_slice() {
            [] if abbreviated || pseudo => self.resolve(reference),
            [] => bail!(
                "`{reference}` does not resolve to a commit in {}",
                self.root.display()
            ),
            [only] if !only.starts_with(".git/") && !abbreviated => {
                self.resolve(&format!("{only}{suffix}"))
            }
            [only] if only.starts_with(".git/") => bail!(
                "`--against {reference}` names {only} in {}; {advice}",
                self.root.display()
            ),
            _ => bail!(
                "`--against {reference}` is ambiguous in {}: it names {}{}; {advice}",
                self.root.display(),
                found.join(", "),
                if abbreviated {
                    " and an abbreviated commit id"
                } else {
                    ""
                }
            ),
        }
    }

    /// Which of the full ref names `names` exist (one git process).
    fn existing_refs(&self, names: &[String]) -> anyhow::Result<Vec<String>> {
        let mut args = vec![
            "for-each-ref".to_string(),
            "--format=%(refname)".to_string(),
        ];
        args.extend(names.iter().cloned());
        let out = text(output(self.git(), &args)?);
        Ok(out
            .lines()
            .filter(|l| names.iter().any(|n| n == l))
            .map(str::to_string)
            .collect())
    }

    /// The default branch: origin's HEAD, else the first of origin/main, origin/master,
    /// main, master that exists (one git process for all of them).
    pub fn default_branch(&self) -> Option<String> {
        const CANDIDATES: [&str; 5] = [
            "refs/remotes/origin/HEAD",
            "refs/remotes/origin/main",
            "refs/remotes/origin/master",
            "refs/heads/main",
            "refs/heads/master",
        ];
        let mut args = vec!["for-each-ref", "--format=%(refname) %(symref)"];
        args.extend(CANDIDATES);
        let out = text(output(self.git(), args).ok()?);
        let found: Vec<(&str, &str)> = out.lines().filter_map(|l| l.split_once(' ')).collect();
        CANDIDATES.iter().find_map(|want| {
            found
                .iter()
                .find(|(name, _)| name == want)
                .map(|(name, symref)| {
                    if symref.is_empty() {
                        name.to_string()
                    } else {
                        symref.to_string()
                    }
                })
        })
    }

    pub fn merge_base(&self, a: &str, b: &str) -> Option<String> {
        output(self.git(), ["merge-base", a, b]).ok().map(text)
    }

    /// The main checkout when this work tree is a linked worktree (`git worktree add`).
    pub fn main_checkout(&self) -> Option<PathBuf> {
        let main = self.common_dir.parent()?.to_path_buf();
        let main = std::fs::canonicalize(&main).unwrap_or(main);
        let here = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        (self.common_dir.file_name().is_some_and(|n| n == ".git") && main != here).then_some(main)
    }

    /// One walk of the work tree: HEAD, branch, and every path that differs from HEAD in
    /// the index or work tree, plus untracked files that are not ignored. Renames are off
    /// (a staged rename is a deletion and an addition): loopgate pairs them itself, the
    /// same way whatever the repository's config says. A tracked file changed since
    /// `anchor` (a moment loopgate recorded itself) is hashed, whatever the index's stat
    /// cache says (see [`stat_anchor`]).
    pub fn work_state(&self, anchor: Option<StatAnchor>) -> anyhow::Result<WorkState> {
        self.work_state_from(tracked::MIN_ENTRIES, anchor)
    }

    /// [`Self::work_state`], comparing tracked files itself from `min_entries` index
    /// entries on.
    fn work_state_from(
        &self,
        min_entries: usize,
        anchor: Option<StatAnchor>,
    ) -> anyhow::Result<WorkState> {
        if let Some(state) = self.work_state_own(min_entries, anchor)? {
            return Ok(state);
        }
        // `git status` lists the untracked files itself.
        self.drop_early_listing();
        let out = output(
            self.git_on_worktree()?,
            [
                "status",
                "--porcelain=v2",
                "-z",
                "--branch",
                "--untracked-files=all",
                "--no-renames",
                "--ignore-submodules=dirty",
                // The upstream's ahead/behind counts are never read: not worth a walk.
                "--no-ahead-behind",
            ],
        )?;
        if let Some(rec) = first_non_utf8(&out) {
            return Err(not_utf8(status_path(rec)));
        }
        let mut state = parse_status_v2(&out);
        self.add_hidden(&mut state, anchor)?;
        Ok(state)
    }

    /// The work state, its tracked files compared by loopgate itself (see [`tracked`])
    /// while git lists, at the same time, the untracked files. What the index stages and
    /// HEAD's id are read in-process when that is plain (see [`index_tree`],
    /// [`head_ref`]), else asked of git too. A tree below `min_entries` entries takes this
    /// path only when nothing is staged (one process, as `git status` is). `None` leaves
    /// it to `git status`: a small tree with something staged, an index this reader does
    /// not know, a submodule, or a repository with no commit yet.
    fn work_state_own(
        &self,
        min_entries: usize,
        anchor: Option<StatAnchor>,
    ) -> anyhow::Result<Option<WorkState>> {
        let index_path = self.git_dir.join("index");
        let Ok(meta) = std::fs::metadata(&index_path) else {
            return Ok(None);
        };
        if !meta.is_file() {
            return Ok(None);
        }
        let Some(entries) = std::fs::read(&index_path)
            .ok()
            .and_then(|bytes| hidden::read_index(&bytes))
        else {
            return Ok(None);
        };
        // A path that is not UTF-8 is left to git: the lossy reading of its name would
        // be stat'ed instead, and a pristine copy there would read as the tracked file.
        if entries
            .iter()
            .any(|e| e.mode & 0o170000 == 0o160000 || e.raw.is_some())
        {
            return Ok(None);
        }
        let head_here = head_ref::head_id(&self.git_dir, &self.common_dir);
        // A small tree's choice is made before any process starts here (a listing started
        // early is given up when this returns `None`).
        let small = entries.len() < min_entries;
        if small && !self.stages_nothing(&entries, head_here.as_deref()) {
            return Ok(None);
        }
        use std::os::unix::fs::MetadataExt;
        let index_mtime = (meta.mtime() as u32, meta.mtime_nsec() as u32);
        let staged_cmd = self.git();
        let head_cmd = self.git();
        let untracked = self.untracked_listing();
        let (untracked, staged, head, compared) = std::thread::scope(|s| {
            let nothing_staged = small || self.stages_nothing(&entries, head_here.as_deref());
            let staged = (!nothing_staged).then(|| {
                s.spawn(move || {
                    output(
                        staged_cmd,
                        [
                            "diff-index",
                            "--cached",
                            "--no-renames",
                            "--ignore-submodules=dirty",
                            "--name-status",
                            "-z",
                            "HEAD",
                            "--",
                        ],
                    )
                })
            });
            let head = head_here.is_none().then(|| {
                s.spawn(move || output(head_cmd, ["rev-parse", "--verify", "-q", "HEAD"]))
            });
            let plain: Vec<&hidden::IndexEntry> = entries
                .iter()
                .filter(|e| e.stage == 0 && !e.hidden && !e.intent_to_add)
                .collect();
            let compared = tracked::compare(&self.root, &plain, index_mtime, anchor)
                .map(|found| plain.into_iter().zip(found).collect::<Vec<_>>());
            let join = |h: std::thread::ScopedJoinHandle<'_, anyhow::Result<Vec<u8>>>| {
                h.join()
                    .unwrap_or_else(|_| Err(anyhow!("a git reader thread panicked")))
            };
            let staged = staged.map_or(Ok(Vec::new()), join);
            let head = match head {
                Some(h) => join(h),
                None => Ok(head_here.clone().unwrap_or_default().into_bytes()),
            };
            (untracked.and_then(Started::finish), staged, head, compared)
        });
        // No commit yet (no HEAD to stage against), or a kernel without openat2.
        let (Ok(head), Some(compared)) = (head, compared) else {
            return Ok(None);
        };
        let head = text(head);
        if head.is_empty() {
            return Ok(None);
        }
        let (untracked, staged) = (untracked?, staged?);
        if let Some(name) = first_non_utf8(&untracked).or(first_non_utf8(&staged)) {
            return Err(not_utf8(name));
        }
        let mut codes: std::collections::BTreeMap<String, [char; 2]> = Default::default();
        let mut hidden_paths = Vec::new();
        for change in parse_name_status_z(&staged) {
            let x = match change.kind {
                ChangeKind::Added => 'A',
                ChangeKind::Deleted => 'D',
                _ => 'M',
            };
            codes.entry(change.path).or_insert(['.', '.'])[0] = x;
        }
        for e in &entries {
            if e.stage != 0 {
                codes.insert(e.path.clone(), ['U', 'U']);
            } else if e.intent_to_add {
                // Status reads `git add -N` as not staged yet: added in the work tree, or
                // deleted from it when the file is gone; a path HEAD holds is deleted from
                // the index (diff-index says `A` for a new path and `M` for that one).
                let x = match codes.get(&e.path) {
                    Some(['M', _]) => 'D',
                    _ => '.',
                };
                let on_disk = std::fs::symlink_metadata(self.root.join(&e.path)).is_ok();
                codes.insert(e.path.clone(), [x, if on_disk { 'A' } else { 'D' }]);
            } else if e.hidden {
                let on_disk = std::fs::symlink_metadata(self.root.join(&e.path)).is_ok();
                let y = hidden::status_code(on_disk).chars().nth(1).unwrap_or('M');
                codes.entry(e.path.clone()).or_insert(['.', '.'])[1] = y;
                hidden_paths.push(e.path.clone());
            }
        }
        for (e, found) in compared {
            let y = match found {
                tracked::OnDisk::Same => continue,
                tracked::OnDisk::Modified => 'M',
                tracked::OnDisk::Deleted => 'D',
            };
            codes.entry(e.path.clone()).or_insert(['.', '.'])[1] = y;
            // Found by loopgate, not by git: never left to git's diff either.
            hidden_paths.push(e.path.clone());
        }
        let mut state = WorkState {
            head: Some(head),
            branch: self.branch_name(),
            ..WorkState::default()
        };
        state.entries = codes
            .into_iter()
            .map(|(path, [x, y])| StatusEntry {
                path,
                code: format!("{x}{y}"),
                orig: None,
            })
            .collect();
        for path in untracked.split(|b| *b == 0).filter(|p| !p.is_empty()) {
            state.entries.push(StatusEntry {
                path: lossy(path),
                code: "??".into(),
                orig: None,
            });
        }
        state.hidden = hidden_paths;
        Ok(Some(state))
    }

    /// Whether the index stages nothing against `head`: the tree its entries make is
    /// HEAD's tree. `false` when that cannot be told here.
    fn stages_nothing(&self, entries: &[hidden::IndexEntry], head: Option<&str>) -> bool {
        let Some(head) = head else {
            return false;
        };
        let Some(ours) = index_tree::tree_id(entries) else {
            return false;
        };
        self.store.borrow_mut().tree_of_commit(head) == Some(ours)
    }

    /// The branch HEAD names, as `git status` gives it: `None` when detached.
    fn branch_name(&self) -> Option<String> {
        let head = std::fs::read_to_string(self.git_dir.join("HEAD")).ok()?;
        let name = head.trim_end().strip_prefix("ref: refs/heads/")?;
        (!name.is_empty()).then(|| name.to_string())
    }

    /// Files whose change git's status would not report join it as changed: tracked
    /// files carrying the assume-unchanged or skip-worktree bit, and files whose stat data
    /// no longer matches the index to the nanosecond, or that changed since `anchor`,
    /// while their content differs from the index's blob (see [`hidden`], [`stat_anchor`]).
    fn add_hidden(&self, state: &mut WorkState, anchor: Option<StatAnchor>) -> anyhow::Result<()> {
        // No index (a repository with no commits yet) has nothing to vouch for.
        let index = std::fs::read(self.git_dir.join("index")).unwrap_or_default();
        if index.is_empty() {
            return Ok(());
        }
        let (hidden_paths, unvouched) = match hidden::read_index(&index) {
            Some(entries) => self.unvouched(entries, state, anchor)?,
            // An index this reader does not know: git names the flagged files; the stat
            // check is left to git (docs/threat-model.md).
            None => (
                hidden::parse_ls_files_v(&output(self.git(), ["ls-files", "-v", "-z"])?)
                    .map_err(|name| not_utf8(&name))?,
                Vec::new(),
            ),
        };
        for path in &hidden_paths {
            if !state.entries.iter().any(|e| &e.path == path) {
                let on_disk = std::fs::symlink_metadata(self.root.join(path)).is_ok();
                state.entries.push(StatusEntry {
                    path: path.clone(),
                    code: hidden::status_code(on_disk).into(),
                    orig: None,
                });
            }
        }
        for path in &unvouched {
            state.entries.push(StatusEntry {
                path: path.clone(),
                code: ".M".into(),
                orig: None,
            });
        }
        state.hidden = hidden_paths;
        state.hidden.extend(unvouched);
        Ok(())
    }

    /// The flagged paths, and the paths status did not name whose content differs from
    /// the index although git's stat cache said it could not have (or the file changed
    /// since `anchor`, when a cache written by hand could have said so).
    fn unvouched(
        &self,
        entries: Vec<hidden::IndexEntry>,
        state: &WorkState,
        anchor: Option<StatAnchor>,
    ) -> anyhow::Result<(Vec<String>, Vec<String>)> {
        use std::os::unix::ffi::OsStrExt;
        let named: BTreeSet<&str> = state.entries.iter().map(|e| e.path.as_str()).collect();
        let mut flagged = Vec::new();
        let mut changed = Vec::new();
        for e in entries {
            if e.hidden {
                if let Some(raw) = &e.raw {
                    return Err(not_utf8(raw));
                }
                flagged.push(e.path);
                continue;
            }
            // Gitlinks (submodules) have no content here; status compares their commit.
            // A name that is not UTF-8 is never taken as named: its lossy reading may be
            // another file's.
            if e.mode & 0o170000 == 0o160000 || (e.raw.is_none() && named.contains(e.path.as_str()))
            {
                continue;
            }
            let full = match &e.raw {
                Some(raw) => self.root.join(OsStr::from_bytes(raw)),
                None => self.root.join(&e.path),
            };
            // A file gone from disk, or a directory in its place, is a deletion status
            // reports itself; status has applied git's racy rule.
            let same = match tracked::compare_one(rustix::fs::CWD, &full, &e, None, anchor) {
                tracked::OnDisk::Same | tracked::OnDisk::Deleted => true,
                tracked::OnDisk::Modified => false,
            };
            if !same {
                if let Some(raw) = &e.raw {
                    return Err(not_utf8(raw));
                }
                changed.push(e.path);
            }
        }
        Ok((flagged, changed))
    }

    /// Paths changed between `commit` and the work tree, as additions, modifications and
    /// deletions: renames are never asked of git (its answer depends on the repository's
    /// config); [`crate::renames`] pairs them. `state` is the work tree's status (so the
    /// tree is walked once); only the paths it names, plus those that differ between
    /// `commit` and HEAD, are compared.
    pub fn changes_since(&self, commit: &str, state: &WorkState) -> anyhow::Result<Vec<Change>> {
        if state.head.as_deref() == Some(commit) {
            return Ok(changes_from_status(&self.root, state));
        }
        let mut candidates: BTreeSet<String> = BTreeSet::new();
        for e in &state.entries {
            candidates.insert(e.path.clone());
            if let Some(orig) = &e.orig {
                candidates.insert(orig.clone());
            }
        }
        if let Some(head) = &state.head {
            if head != commit {
                let out = output(
                    self.git(),
                    [
                        "diff",
                        "--no-ext-diff",
                        "--no-textconv",
                        "--no-renames",
                        "--name-only",
                        "-z",
                        commit,
                        head,
                        "--",
                    ],
                )?;
                if let Some(name) = first_non_utf8(&out) {
                    return Err(not_utf8(name));
                }
                for p in out.split(|b| *b == 0).filter(|p| !p.is_empty()) {
                    candidates.insert(lossy(p));
                }
            }
        }
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        let mut args: Vec<String> = [
            "diff",
            "--no-ext-diff",
            "--no-textconv",
            "--no-renames",
            "--ignore-submodules=dirty",
            "--name-status",
            "-z",
            commit,
            "--",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Past a few thousand paths the command line gets long; diffing the whole tree is
        // then no slower than naming every path.
        if candidates.len() <= MAX_PATHSPECS {
            args.extend(candidates.iter().map(|p| format!(":(literal){p}")));
        }
        let out = output(self.git_on_worktree()?, &args)?;
        if let Some(name) = first_non_utf8(&out) {
            return Err(not_utf8(name));
        }
        let mut changes = parse_name_status_z(&out);
        for path in &state.hidden {
            if !changes.iter().any(|c| &c.path == path) {
                let on_disk = std::fs::symlink_metadata(self.root.join(path)).is_ok();
                changes.push(Change {
                    path: path.clone(),
                    kind: if on_disk {
                        ChangeKind::Modified
                    } else {
                        ChangeKind::Deleted
                    },
                });
            }
        }
        for e in state.entries.iter().filter(|e| e.code == "??") {
            changes.push(Change {
                path: e.path.clone(),
                kind: ChangeKind::Added,
            });
        }
        changes.sort_by(|a, b| a.path.cmp(&b.path));
        changes.dedup_by(|a, b| a.path == b.path);
        Ok(changes)
    }

    /// The contents of `path` at `commit` for many paths at once. Missing paths map to
    /// `None`. Read from the object store where it answers; every other path of a run goes
    /// to the same `git cat-file` process.
    pub fn blobs_at(&self, commit: &str, paths: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        let mut answers: Vec<Option<Vec<u8>>> = Vec::with_capacity(paths.len());
        let mut unsure: Vec<usize> = Vec::new();
        {
            let mut store = self.store.borrow_mut();
            for (i, path) in paths.iter().enumerate() {
                answers.push(match store.lookup(commit, path) {
                    objects::Lookup::Blob(bytes) => Some(bytes),
                    objects::Lookup::Absent => None,
                    objects::Lookup::Unsure => {
                        unsure.push(i);
                        None
                    }
                });
            }
        }
        if unsure.is_empty() {
            return Ok(answers);
        }
        let asked: Vec<String> = unsure.iter().map(|i| paths[*i].clone()).collect();
        for (i, blob) in unsure.into_iter().zip(self.cat_file(commit, &asked)?) {
            answers[i] = blob;
        }
        Ok(answers)
    }

    fn cat_file(&self, commit: &str, paths: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        let mut slot = self.batch.lock().unwrap_or_else(|e| e.into_inner());
        let running = match slot.take() {
            Some(running) => running,
            None => batch::Batch::start(self.git())?,
        };
        let batch = slot.insert(running);
        let answers = batch.read(commit, paths);
        if answers.is_err() {
            // Out of step with its answers: never asked again.
            *slot = None;
        }
        answers
    }

    /// A handle for reading old contents ([`Repo::blobs_at`]). No process is started for
    /// it: the object store answers most reads, and `git cat-file` starts at the first it
    /// does not.
    pub fn blob_reader(&self) -> BlobReader {
        BlobReader { repo: self.clone() }
    }
}

/// A handle on the repository's old contents.
pub struct BlobReader {
    repo: Repo,
}

impl BlobReader {
    /// The contents of each `commit:path`; a path missing there maps to `None`.
    pub fn read(self, commit: &str, paths: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        self.repo.blobs_at(commit, paths)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
    /// Only ever made by loopgate's own pairing ([`crate::renames`]), never read from git.
    Renamed {
        from: String,
    },
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
    /// Tracked files whose change git does not see: told not to look (assume-unchanged,
    /// skip-worktree), or changed behind its stat cache. Also in `entries`, and never left
    /// to git's diff.
    pub hidden: Vec<String>,
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

/// The refusal for a changed file whose name is not UTF-8. Every path the guards read is
/// text, and the lossy reading of such a name names another file: an agent could empty
/// `tests/b\xff.test.js` and leave a harmless file at `tests/b\u{fffd}.test.js` for the
/// guards to read. Judging what cannot be named is not possible; passing it is a hole.
fn not_utf8(name: &[u8]) -> anyhow::Error {
    anyhow!(
        "cannot judge the changed file `{}`: its name is not UTF-8, and loopgate reads every path as UTF-8; rename it (`git mv`) or restore it",
        name.escape_ascii()
    )
}

/// The first NUL-separated field of git's output that is not UTF-8. Only paths can be:
/// codes, modes and ids are ASCII.
fn first_non_utf8(out: &[u8]) -> Option<&[u8]> {
    out.split(|b| *b == 0)
        .find(|field| std::str::from_utf8(field).is_err())
}

/// The path of a `git status --porcelain=v2` record, past its fixed fields.
fn status_path(rec: &[u8]) -> &[u8] {
    let fixed = match rec.get(..2) {
        Some(b"1 ") => 8,
        Some(b"2 ") => 9,
        Some(b"u ") => 10,
        Some(b"? " | b"! ") => 1,
        _ => 0,
    };
    rec.splitn(fixed + 1, |b| *b == b' ')
        .nth(fixed)
        .unwrap_or(rec)
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

/// Parse `git diff --name-status -z`. Renames are never asked for; should git report one
/// anyway, it reads as the deletion and the addition it is, and [`crate::renames`] pairs
/// them like any other.
pub fn parse_name_status_z(out: &[u8]) -> Vec<Change> {
    let mut fields = out.split(|b| *b == 0).filter(|f| !f.is_empty());
    let mut changes = Vec::new();
    let mut push = |path: &[u8], kind: ChangeKind| {
        changes.push(Change {
            path: lossy(path),
            kind,
        })
    };
    while let Some(status) = fields.next() {
        let code = status.first().copied().unwrap_or(b'?');
        let Some(path) = fields.next() else { break };
        match code {
            b'R' | b'C' => {
                let Some(new) = fields.next() else { break };
                if code == b'R' {
                    push(path, ChangeKind::Deleted);
                }
                push(new, ChangeKind::Added);
            }
            b'A' => push(path, ChangeKind::Added),
            b'D' => push(path, ChangeKind::Deleted),
            _ => push(path, ChangeKind::Modified),
        }
    }
    changes
}

/// The work tree root around `dir`: the nearest directory at or above it (symlinks
/// resolved, as git resolves them) holding `.git`, a directory or a linked worktree's file.
/// A walk, not `git rev-parse`: every hook call pays for this.
pub fn root_of(dir: &Path) -> Option<PathBuf> {
    let start = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    start
        .ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
}

/// The gitdir a `.git` file points at (`gitdir: PATH`, relative to the work tree).
fn read_gitdir_file(dot_git: &Path, worktree: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(dot_git).ok()?;
    let target = text.trim().strip_prefix("gitdir:")?.trim();
    let path = worktree.join(target);
    Some(std::fs::canonicalize(&path).unwrap_or(path))
}

/// Changes relative to HEAD straight from `git status`: no second walk of the tree.
fn changes_from_status(root: &Path, state: &WorkState) -> Vec<Change> {
    let mut changes: Vec<Change> = state
        .entries
        .iter()
        .flat_map(|e| {
            let kind = if e.code == "??" || e.code.starts_with('A') || e.orig.is_some() {
                ChangeKind::Added
            } else if e.code.contains('D') && !root.join(&e.path).exists() {
                ChangeKind::Deleted
            } else {
                ChangeKind::Modified
            };
            // A rename git reported despite `--no-renames`: its source is a deletion.
            let source = e
                .orig
                .as_ref()
                .filter(|o| !root.join(o).exists())
                .map(|o| Change {
                    path: o.clone(),
                    kind: ChangeKind::Deleted,
                });
            source.into_iter().chain([Change {
                path: e.path.clone(),
                kind,
            }])
        })
        .collect();
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    changes.dedup_by(|a, b| a.path == b.path);
    changes
}

/// `git ARGS` in `dir` for a test, with a fixed identity: its stdout. Fails the test when
/// git does.
#[cfg(test)]
fn test_git(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}");
    out.stdout
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_status_reads_a_rename_as_a_deletion_and_an_addition() {
        let out = b"M\0a.rs\0R087\0old.test.js\0new.test.js\0D\0gone.py\0A\0new.go\0";
        let changes = parse_name_status_z(out);
        let got: Vec<(&str, &ChangeKind)> =
            changes.iter().map(|c| (c.path.as_str(), &c.kind)).collect();
        assert_eq!(
            got,
            vec![
                ("a.rs", &ChangeKind::Modified),
                ("old.test.js", &ChangeKind::Deleted),
                ("new.test.js", &ChangeKind::Added),
                ("gone.py", &ChangeKind::Deleted),
                ("new.go", &ChangeKind::Added),
            ]
        );
    }

    #[test]
    fn discovers_repos_and_linked_worktrees() {
        let tmp = tempfile::tempdir().unwrap();
        let main = tmp.path().join("main");
        std::fs::create_dir_all(main.join("sub/deeper")).unwrap();
        let git = |dir: &Path, args: &[&str]| {
            test_git(dir, args);
        };
        git(&main, &["init", "-q"]);
        git(&main, &["commit", "-q", "--allow-empty", "-m", "x"]);
        let repo = Repo::discover(&main.join("sub/deeper")).unwrap();
        assert_eq!(repo.root, main.canonicalize().unwrap());
        assert!(repo.main_checkout().is_none());
        git(&main, &["worktree", "add", "-q", "../wt"]);
        let wt = Repo::discover(&tmp.path().join("wt")).unwrap();
        assert_eq!(wt.root, tmp.path().join("wt").canonicalize().unwrap());
        assert_eq!(wt.main_checkout(), Some(main.canonicalize().unwrap()));
        assert!(Repo::discover(tmp.path()).is_none());
    }

    #[test]
    fn old_contents_come_from_the_store_and_git_only_answers_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let git = |dir: &Path, args: &[&str]| {
            String::from_utf8(test_git(dir, args))
                .unwrap()
                .trim()
                .to_string()
        };
        let main = tmp.path().join("main");
        std::fs::create_dir_all(main.join("src")).unwrap();
        std::fs::write(main.join("src/a.rs"), "fn a() {}\n").unwrap();
        git(&main, &["init", "-q"]);
        git(&main, &["add", "-A"]);
        git(&main, &["commit", "-q", "-m", "x"]);
        let head = git(&main, &["rev-parse", "HEAD"]);
        let paths = [
            "src/a.rs".to_string(),
            "gone.rs".to_string(),
            "src".to_string(),
        ];
        let want = vec![Some(b"fn a() {}\n".to_vec()), None, None];
        // A plain repository: every answer from the store, no git process started.
        let repo = Repo::discover(&main).unwrap();
        assert_eq!(repo.blobs_at(&head, &paths).unwrap(), want);
        assert!(repo.batch.lock().unwrap().is_none(), "cat-file was started");
        // A clone sharing the first one's objects (an alternate store): the store follows
        // the alternate.
        let shared = tmp.path().join("shared");
        git(tmp.path(), &["clone", "-q", "--shared", "main", "shared"]);
        let repo = Repo::discover(&shared).unwrap();
        assert_eq!(repo.blobs_at(&head, &paths).unwrap(), want);
        assert!(repo.batch.lock().unwrap().is_none(), "cat-file was started");
        // What the store does not answer (a name, not an id) goes to git, same answers.
        assert_eq!(repo.blobs_at("HEAD", &paths).unwrap(), want);
        assert!(repo.batch.lock().unwrap().is_some(), "git was not asked");
    }

    #[test]
    fn status_v2_head_branch_and_entries() {
        let out: Vec<u8> = [
            "# branch.oid abc123",
            "# branch.head main",
            "1 .M N... 100644 100644 100644 h1 h2 src/a b.rs",
            "2 R. N... 100644 100644 100644 h1 h2 R100 new.js",
            "old.js",
            "? t/x.test.js",
        ]
        .iter()
        .flat_map(|r| r.bytes().chain([0u8]))
        .collect();
        let s = parse_status_v2(&out);
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

    /// The work state loopgate assembles itself for large trees agrees with `git status`
    /// (plus the stat check) on every kind of change, in a tree small enough for a test.
    #[test]
    fn the_own_comparison_agrees_with_git_status() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |p: &str, body: &str| {
            let path = root.join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, body).unwrap();
        };
        test_git(root, &["init", "-q", "-b", "main"]);
        for f in [
            "a.txt",
            "b.txt",
            "c.txt",
            "d.sh",
            "e.txt",
            "g.txt",
            "i.txt",
            "j.txt",
            "k.txt",
            "dir/h.txt",
            "keep/l.txt",
            "m.txt",
            "o.txt",
            "p.txt",
            "q.txt",
            "r.txt",
            "-dash",
            "new\nline",
            "Case.txt",
        ] {
            write(f, &format!("{f} body\n"));
        }
        symlink("a.txt", root.join("link")).unwrap();
        write(".gitignore", "*.log\n");
        test_git(root, &["add", "-A"]);
        test_git(root, &["commit", "-qm", "one"]);
        let repo = Repo::discover(root).unwrap();
        let both = |what: &str| {
            let by_git = repo.work_state_from(usize::MAX, None).unwrap();
            let own = repo
                .work_state_own(0, None)
                .unwrap()
                .expect("the own comparison answers");
            let codes = |s: &WorkState| {
                let mut v: Vec<(String, String)> = s
                    .entries
                    .iter()
                    .map(|e| (e.path.clone(), e.code.clone()))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(codes(&own), codes(&by_git), "{what}");
            assert_eq!(own.head, by_git.head, "{what}");
            assert_eq!(own.branch, by_git.branch, "{what}");
            codes(&own)
        };
        assert!(both("clean").is_empty());
        write("a.txt", "a body, longer now\n");
        std::fs::remove_file(root.join("c.txt")).unwrap();
        std::fs::set_permissions(root.join("d.sh"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        write("e.txt", "e staged\n");
        test_git(root, &["add", "e.txt"]);
        write("e.txt", "e staged, then changed\n");
        write("f.txt", "f new\n");
        test_git(root, &["add", "f.txt"]);
        test_git(root, &["rm", "-q", "--cached", "g.txt"]);
        test_git(root, &["update-index", "--skip-worktree", "i.txt"]);
        write("i.txt", "i hidden\n");
        let j = std::fs::read(root.join("j.txt")).unwrap();
        std::fs::write(root.join("j.txt"), j).unwrap();
        std::fs::remove_file(root.join("k.txt")).unwrap();
        write("k.txt/inside", "now a directory\n");
        std::fs::remove_file(root.join("link")).unwrap();
        symlink("b.txt", root.join("link")).unwrap();
        std::fs::rename(root.join("dir"), root.join("elsewhere")).unwrap();
        symlink("elsewhere", root.join("dir")).unwrap();
        write("n.txt", "intent\n");
        test_git(root, &["add", "-N", "n.txt"]);
        write("u.txt", "untracked\n");
        write("x.log", "ignored\n");
        // `git add -N` over a path HEAD holds, kept and removed from disk; a new one removed.
        test_git(root, &["rm", "-q", "--cached", "m.txt", "o.txt"]);
        test_git(root, &["add", "-N", "m.txt", "o.txt"]);
        std::fs::remove_file(root.join("o.txt")).unwrap();
        write("s.txt", "intent, then gone\n");
        test_git(root, &["add", "-N", "s.txt"]);
        std::fs::remove_file(root.join("s.txt")).unwrap();
        // A FIFO in a file's place; an exec bit set in the index only; odd names.
        std::fs::remove_file(root.join("p.txt")).unwrap();
        let fifo = Command::new("mkfifo").arg(root.join("p.txt")).status();
        assert!(fifo.unwrap().success());
        test_git(root, &["update-index", "--chmod=+x", "q.txt"]);
        write("-dash", "changed\n");
        write("new\nline", "changed\n");
        std::fs::rename(root.join("Case.txt"), root.join("case.txt")).unwrap();
        let got = both("every kind of change");
        let want: Vec<(String, String)> = [
            ("a.txt", ".M"),
            ("c.txt", ".D"),
            ("d.sh", ".M"),
            ("dir", "??"),
            ("dir/h.txt", ".D"),
            ("e.txt", "MM"),
            ("elsewhere/h.txt", "??"),
            ("f.txt", "A."),
            ("g.txt", "D."),
            ("g.txt", "??"),
            ("i.txt", ".M"),
            ("k.txt", ".D"),
            ("k.txt/inside", "??"),
            ("link", ".M"),
            ("n.txt", ".A"),
            ("u.txt", "??"),
            ("m.txt", "DA"),
            ("o.txt", "DD"),
            ("s.txt", ".D"),
            ("p.txt", ".M"),
            ("q.txt", "MM"),
            ("-dash", ".M"),
            ("new\nline", ".M"),
            ("Case.txt", ".D"),
            ("case.txt", "??"),
        ]
        .iter()
        .map(|(p, c)| (p.to_string(), c.to_string()))
        .collect();
        let mut want = want;
        want.sort();
        assert_eq!(got, want);
        // A same-size edit whose mtime is put back: git's status is blind to it when made
        // within the second of the file's last change; both answers still name it.
        let before = std::fs::symlink_metadata(root.join("b.txt")).unwrap();
        std::fs::write(root.join("b.txt"), "B.txt body\n").unwrap();
        let times = std::fs::FileTimes::new().set_modified(before.modified().unwrap());
        std::fs::File::options()
            .write(true)
            .open(root.join("b.txt"))
            .unwrap()
            .set_times(times)
            .unwrap();
        assert!(both("same-size edit").contains(&("b.txt".to_string(), ".M".to_string())));
    }

    /// An index with no stat data (`read-tree`; git records no size for a racily clean
    /// entry either): every file is hashed, the unchanged read as unchanged (the size rule
    /// must not call them changed), a changed one as changed, the empty one too.
    #[test]
    fn entries_without_stat_data_are_hashed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        test_git(root, &["init", "-q", "-b", "main"]);
        for (f, body) in [("a", "a\n"), ("b", "b\n"), ("empty", ""), ("empty2", "")] {
            std::fs::write(root.join(f), body).unwrap();
        }
        test_git(root, &["add", "-A"]);
        test_git(root, &["commit", "-qm", "a"]);
        test_git(root, &["read-tree", "HEAD"]);
        std::fs::write(root.join("b"), "b, longer now\n").unwrap();
        std::fs::write(root.join("empty2"), "no longer empty\n").unwrap();
        let repo = Repo::discover(root).unwrap();
        let own = repo.work_state_own(0, None).unwrap().expect("answers");
        let codes: Vec<(&str, &str)> = own
            .entries
            .iter()
            .map(|e| (e.path.as_str(), e.code.as_str()))
            .collect();
        assert_eq!(codes, [("b", ".M"), ("empty2", ".M")]);
        let by_git = repo.work_state_from(usize::MAX, None).unwrap();
        assert_eq!(own.entries, by_git.entries);
    }

    /// A tracked file whose name is not UTF-8 cannot be named to the guards (its lossy
    /// reading names another file, where an agent can leave a harmless one): a change to
    /// it is refused, by either path, naming it. Unchanged, it is no obstacle; a name that
    /// really holds U+FFFD is an ordinary name.
    #[test]
    fn a_changed_name_that_is_not_utf8_is_refused() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let odd = root.join(OsStr::from_bytes(b"t\xff.js"));
        let decoy = root.join("t\u{fffd}.js");
        test_git(root, &["init", "-q", "-b", "main"]);
        std::fs::write(&odd, "test('b', () => { throw 'FAIL' });\n").unwrap();
        std::fs::write(root.join("k\u{fffd}.js"), "k\n").unwrap();
        test_git(root, &["add", "-A"]);
        test_git(root, &["commit", "-qm", "a"]);
        let repo = Repo::discover(root).unwrap();
        assert!(
            repo.work_state_own(0, None).unwrap().is_none(),
            "left to git"
        );
        assert!(!repo.work_state_from(0, None).unwrap().dirty());
        std::fs::write(root.join("k\u{fffd}.js"), "k changed\n").unwrap();
        let state = repo.work_state_from(0, None).unwrap();
        assert_eq!(state.entries[0].path, "k\u{fffd}.js");
        std::fs::write(&odd, "test('b', () => {  /* gone   */ });\n").unwrap();
        std::fs::write(&decoy, "test('c', () => {});\n").unwrap();
        let refusal = |min: usize| repo.work_state_from(min, None).unwrap_err().to_string();
        for min in [0, usize::MAX] {
            let said = refusal(min);
            assert!(
                said.contains(r"`t\xff.js`") && said.contains("not UTF-8"),
                "{said}"
            );
        }
        // Hidden from git's status by the skip-worktree bit: the index reader refuses it.
        let flag = Command::new("git")
            .current_dir(root)
            .args(["update-index", "--skip-worktree", "--"])
            .arg(OsStr::from_bytes(b"t\xff.js"))
            .status()
            .unwrap();
        assert!(flag.success());
        assert!(refusal(usize::MAX).contains(r"`t\xff.js`"));
    }

    /// The own comparison in less usual repositories agrees with `git status`: a linked
    /// worktree (its `.git` a file, its index in the common directory's `worktrees/`),
    /// more entries than one thread's share, an fsmonitor hook that lies (git never asks
    /// it), and an index extension the reader does not know (skipped when git may skip
    /// it, an error when git must understand it).
    #[test]
    fn the_own_comparison_holds_in_odd_repositories() {
        let tmp = tempfile::tempdir().unwrap();
        let main = tmp.path().join("main");
        std::fs::create_dir_all(&main).unwrap();
        test_git(&main, &["init", "-q", "-b", "main"]);
        for i in 0..2_500 {
            let path = main.join(format!("d{}/f{i}.txt", i / 300));
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, format!("{i}\n")).unwrap();
        }
        test_git(&main, &["add", "-A"]);
        test_git(&main, &["commit", "-qm", "many"]);
        test_git(&main, &["worktree", "add", "-q", "../wt"]);
        let codes = |s: &WorkState| -> Vec<(String, String)> {
            let mut v: Vec<_> = s
                .entries
                .iter()
                .map(|e| (e.path.clone(), e.code.clone()))
                .collect();
            v.sort();
            v
        };
        let both = |root: &Path| {
            let repo = Repo::discover(root).unwrap();
            let own = repo.work_state_own(0, None).unwrap().expect("answers");
            let by_git = repo.work_state_from(usize::MAX, None).unwrap();
            assert_eq!(codes(&own), codes(&by_git));
            codes(&own)
        };
        // Edits at both ends of every thread's share of the entries (2,500 entries, at
        // least 1,024 a thread).
        let changed = [0, 1, 1_023, 1_024, 1_025, 1_249, 1_250, 2_047, 2_048, 2_499];
        let wt = tmp.path().join("wt");
        for i in changed {
            std::fs::write(wt.join(format!("d{}/f{i}.txt", i / 300)), "edited\n").unwrap();
        }
        let mut want: Vec<(String, String)> = changed
            .iter()
            .map(|i| (format!("d{}/f{i}.txt", i / 300), ".M".to_string()))
            .collect();
        want.sort();
        assert_eq!(both(&wt), want, "linked worktree, many entries");
        assert!(both(&main).is_empty(), "the main checkout is untouched");
        // An fsmonitor hook that says nothing changed: git's own status believes it.
        let hook = tmp.path().join("fsmonitor.sh");
        std::fs::write(&hook, "#!/bin/sh\nprintf 'token\\0'\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        let hook = hook.to_str().unwrap();
        test_git(&main, &["config", "core.fsmonitor", hook]);
        test_git(&main, &["status", "--porcelain"]);
        std::fs::write(main.join("d0/f7.txt"), "seven, edited\n").unwrap();
        let lied = test_git(&main, &["status", "--porcelain", "--untracked-files=no"]);
        assert_eq!(String::from_utf8_lossy(&lied), "", "the hook lies to git");
        assert_eq!(both(&main), [("d0/f7.txt".to_string(), ".M".to_string())]);
        // Extensions: an optional one (upper case) is skipped by git and the reader alike;
        // a required one (lower case) git refuses, and so the own comparison fails too.
        let index_path = main.join(".git/index");
        let index = std::fs::read(&index_path).unwrap();
        let with = |sig: &[u8]| {
            let (body, _sum) = index.split_at(index.len() - 20);
            let mut out = body.to_vec();
            out.extend_from_slice(sig);
            out.extend_from_slice(&4u32.to_be_bytes());
            out.extend_from_slice(b"junk");
            out.extend_from_slice(&[0; 20]);
            std::fs::write(&index_path, out).unwrap();
        };
        with(b"ZZZZ");
        assert_eq!(both(&main), [("d0/f7.txt".to_string(), ".M".to_string())]);
        with(b"zzzz");
        let repo = Repo::discover(&main).unwrap();
        assert!(repo.work_state_own(0, None).is_err());
        assert!(repo.work_state_from(usize::MAX, None).is_err());
    }

    /// `core.ignorecase=true` in the repository's config (this file system tells case
    /// apart): a new `makefile` beside the tracked `Makefile` is an untracked file on both
    /// paths, as is the new name of a case-only rename.
    #[test]
    fn a_name_differing_only_in_case_is_its_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        test_git(root, &["init", "-q", "-b", "main"]);
        std::fs::write(root.join("Makefile"), "test:\n\tfalse\n").unwrap();
        std::fs::write(root.join("a.txt"), "a\n").unwrap();
        test_git(root, &["add", "-A"]);
        test_git(root, &["commit", "-qm", "a"]);
        test_git(root, &["config", "core.ignorecase", "true"]);
        std::fs::write(root.join("makefile"), "test:\n\ttrue\n").unwrap();
        std::fs::rename(root.join("a.txt"), root.join("A.txt")).unwrap();
        let repo = Repo::discover(root).unwrap();
        let want = [
            ("A.txt".to_string(), "??".to_string()),
            ("a.txt".to_string(), ".D".to_string()),
            ("makefile".to_string(), "??".to_string()),
        ];
        for state in [
            repo.work_state_own(0, None).unwrap().expect("answers"),
            repo.work_state_from(usize::MAX, None).unwrap(),
        ] {
            let mut codes: Vec<(String, String)> = state
                .entries
                .iter()
                .map(|e| (e.path.clone(), e.code.clone()))
                .collect();
            codes.sort();
            assert_eq!(codes, want);
        }
    }

    /// An unresolved merge reads as unmerged either way.
    #[test]
    fn the_own_comparison_reads_an_unresolved_merge() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        test_git(root, &["init", "-q", "-b", "main"]);
        std::fs::write(root.join("m.txt"), "base\n").unwrap();
        test_git(root, &["add", "-A"]);
        test_git(root, &["commit", "-qm", "base"]);
        test_git(root, &["checkout", "-q", "-b", "side"]);
        std::fs::write(root.join("m.txt"), "side\n").unwrap();
        test_git(root, &["commit", "-qam", "side"]);
        test_git(root, &["checkout", "-q", "main"]);
        std::fs::write(root.join("m.txt"), "main\n").unwrap();
        test_git(root, &["commit", "-qam", "main"]);
        let merged = Command::new("git")
            .current_dir(root)
            .args(["merge", "-q", "side"])
            .output()
            .unwrap();
        assert!(!merged.status.success(), "the merge conflicts");
        let repo = Repo::discover(root).unwrap();
        let own = repo.work_state_own(0, None).unwrap().expect("answers");
        let by_git = repo.work_state_from(usize::MAX, None).unwrap();
        let codes = |s: &WorkState| -> Vec<(String, String)> {
            s.entries
                .iter()
                .map(|e| (e.path.clone(), e.code.clone()))
                .collect()
        };
        assert_eq!(codes(&own), [("m.txt".to_string(), "UU".to_string())]);
        assert_eq!(codes(&own), codes(&by_git));
    }

    /// Below the threshold with something staged, or with an index the reader does not
    /// know, git answers. Below it with nothing staged, the own comparison does.
    #[test]
    fn small_or_split_indexes_are_left_to_git() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        test_git(root, &["init", "-q", "-b", "main"]);
        std::fs::write(root.join("a"), "a\n").unwrap();
        test_git(root, &["add", "-A"]);
        test_git(root, &["commit", "-qm", "a"]);
        let repo = Repo::discover(root).unwrap();
        std::fs::write(root.join("a"), "a, edited\n").unwrap();
        assert!(repo.work_state_own(2, None).unwrap().is_some());
        test_git(root, &["add", "a"]);
        assert!(repo.work_state_own(2, None).unwrap().is_none());
        assert!(repo.work_state_own(0, None).unwrap().is_some());
        test_git(root, &["update-index", "--split-index"]);
        assert!(repo.work_state_own(0, None).unwrap().is_none());
    }
}
