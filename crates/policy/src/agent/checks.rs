//! The path rules: `gate.tamper`, `fs.destructive` and `fs.escape` for every write target.

use super::args::{is_sink, targets_of, Arg, Target, PROCESS_SUBSTITUTION};
use super::walk::{Analyzer, ShellState};
use super::{rule, AgentContext, Finding};
use crate::globs::{
    gate_files, home_gate_files, literal_prefix, PathSet, GATE_FILES, HOME_GATE_FILES,
};
use globset::{Glob, GlobBuilder};
use roots::{is_inside, Landing};
use std::path::{Path, PathBuf};

/// What a command does to a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// Create, modify or change metadata.
    Write,
    Delete {
        recursive: bool,
    },
    /// The source of a move: gone from where it was, with everything below it.
    MoveSource,
    /// A directory tree copied or moved in: every path below is (over)written.
    WriteTree,
}

impl Op {
    fn removes_tree(self) -> bool {
        matches!(self, Op::Delete { recursive: true } | Op::MoveSource)
    }

    fn removes(self) -> bool {
        matches!(self, Op::Delete { .. } | Op::MoveSource)
    }
}

fn glob(pattern: &str) -> Option<Glob> {
    glob_folded(pattern, false)
}

/// A bash pattern, extglob groups included (bash parses them once `shopt -s extglob` is
/// on): `@(a|b)` is `{a,b}`, `?(a|b)` is `{a,b,}`, and `!(...)`, `*(...)`, `+(...)`
/// may match any name, so they stand for `*`.
fn glob_folded(pattern: &str, fold_case: bool) -> Option<Glob> {
    GlobBuilder::new(&extglob_to_globset(pattern))
        .literal_separator(true)
        .case_insensitive(fold_case)
        .build()
        .ok()
}

fn extglob_to_globset(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let group = matches!(c, '@' | '?' | '!' | '*' | '+') && chars.get(i + 1) == Some(&'(');
        let close = if group {
            chars[i + 2..]
                .iter()
                .position(|&x| x == ')')
                .map(|p| i + 2 + p)
        } else {
            None
        };
        match close {
            Some(end) => {
                let inner: String = chars[i + 2..end].iter().collect();
                let plain = !inner.contains(['(', '{', '}']);
                match c {
                    '@' if plain => out.push_str(&format!("{{{}}}", inner.replace('|', ","))),
                    '?' if plain => out.push_str(&format!("{{{},}}", inner.replace('|', ","))),
                    _ => out.push('*'),
                }
                i = end + 1;
            }
            None => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// The protected set of one context, compiled at most once per decision: the gate files
/// and `[guards] protect` globs in the one dialect of [`crate::globs`], and the concrete
/// paths whose removal removes them (a pattern's literal directory: `ci/*.yml` -> `ci`).
pub(crate) struct Protected {
    repo_root: PathBuf,
    home: Option<PathBuf>,
    repo: &'static PathSet,
    protect: PathSet,
    home_set: &'static PathSet,
    anchors: Vec<PathBuf>,
    /// `shopt -s nocaseglob` was seen: shell patterns match without case from then on.
    pub fold_case: bool,
}

impl Protected {
    pub fn new(ctx: &AgentContext) -> Protected {
        let mut anchors: Vec<PathBuf> = Vec::new();
        let rooted = GATE_FILES
            .iter()
            .copied()
            .chain(ctx.protected.iter().map(String::as_str));
        for p in rooted {
            if let Some(prefix) = literal_prefix(p.trim_start_matches("./")) {
                anchors.push(ctx.repo_root.join(prefix));
            }
        }
        if let Some(home) = &ctx.home {
            for p in HOME_GATE_FILES {
                if let Some(prefix) = literal_prefix(p) {
                    anchors.push(home.join(prefix));
                }
            }
        }
        let protect: Vec<String> = ctx
            .protected
            .iter()
            .map(|p| p.trim_start_matches("./").to_string())
            .collect();
        Protected {
            repo_root: ctx.repo_root.clone(),
            home: ctx.home.clone(),
            repo: gate_files(),
            protect: PathSet::new(&protect),
            home_set: home_gate_files(),
            anchors,
            fold_case: false,
        }
    }

    /// The path itself is a gate file or lies in a gate directory.
    fn is_gate_file(&self, path: &Path) -> bool {
        if self.anchors.iter().any(|a| a == path) {
            return true;
        }
        // The repository's own hooks and git configuration run code at every git call
        // (DESIGN 0: out of reach of confined processes).
        let git = self.repo_root.join(".git");
        if path.starts_with(git.join("hooks")) || path == git.join("config") {
            return true;
        }
        if let Some(rel) = path
            .strip_prefix(&self.repo_root)
            .ok()
            .and_then(|r| r.to_str())
        {
            if !rel.is_empty() && (self.repo.is_match(rel) || self.protect.is_match(rel)) {
                return true;
            }
        }
        match self
            .home
            .as_ref()
            .and_then(|h| path.strip_prefix(h).ok())
            .and_then(|r| r.to_str())
        {
            Some(rel) => !rel.is_empty() && self.home_set.is_match(rel),
            None => false,
        }
    }

    /// The gate file a write of `path` with `op` would touch, if any.
    fn hit(&self, path: &Path, op: Op) -> Option<PathBuf> {
        if self.is_gate_file(path) {
            return Some(path.to_path_buf());
        }
        if op.removes() || op == Op::WriteTree {
            return self.anchors.iter().find(|a| a.starts_with(path)).cloned();
        }
        None
    }

    /// The gate files (and the directories holding them) an absolute git wildcard
    /// pathspec selects; git's `*` crosses `/`, and a pattern naming a path below a gate
    /// directory selects that directory's files.
    pub fn selected_by_git_wildcard(&self, pattern: &str, fold_case: bool) -> Vec<PathBuf> {
        let Some(g) = GlobBuilder::new(pattern)
            .literal_separator(false)
            .case_insensitive(fold_case)
            .build()
            .ok()
            .map(|g| g.compile_matcher())
        else {
            return self.anchors.clone();
        };
        let fold = |t: &str| {
            if fold_case {
                t.to_lowercase()
            } else {
                t.to_string()
            }
        };
        let literal: String = fold(
            &pattern
                .chars()
                .take_while(|c| !matches!(c, '*' | '?' | '['))
                .collect::<String>(),
        );
        self.anchors
            .iter()
            .filter(|a| {
                let anchor = PathBuf::from(fold(&a.display().to_string()));
                g.is_match(a)
                    || Path::new(&literal).starts_with(&anchor)
                        && literal.len() > anchor.as_os_str().len()
            })
            .cloned()
            .collect()
    }

    /// The gate files strictly below `dir`, and the directories between that hold them.
    pub fn all_below(&self, dir: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        for anchor in &self.anchors {
            for p in anchor.ancestors() {
                if p == dir || !p.starts_with(dir) {
                    break;
                }
                if !out.iter().any(|o| o == p) {
                    out.push(p.to_path_buf());
                }
            }
        }
        out
    }

    /// The gate file an absolute pattern may select, if any.
    fn hit_pattern(&self, pattern: &str, op: Op) -> Option<PathBuf> {
        let g = glob_folded(pattern, self.fold_case)?.compile_matcher();
        for anchor in &self.anchors {
            let mut p = anchor.as_path();
            loop {
                if g.is_match(p) && (p == anchor.as_path() || op.removes()) {
                    return Some(anchor.clone());
                }
                match p.parent() {
                    Some(parent)
                        if parent.starts_with(&self.repo_root)
                            || self.home.as_ref().is_some_and(|h| parent.starts_with(h)) =>
                    {
                        p = parent
                    }
                    _ => break,
                }
            }
        }
        None
    }
}

impl Analyzer<'_> {
    /// Apply the path rules to every target of `args`.
    pub(crate) fn check_writes(&mut self, args: &[Arg], op: Op, display: &str, st: &ShellState) {
        let home = self.ctx.home.clone();
        for arg in args {
            if arg.dynamic.as_deref() == Some(PROCESS_SUBSTITUTION) {
                // `tee >(wc -l)`: the name is a pipe (`/dev/fd/N`) to a command, whose own
                // writes are judged where it is walked.
                continue;
            }
            for target in targets_of(arg, &st.cwd, home.as_deref()) {
                if let Target::Below { dir, .. } = &target {
                    // `ln -s ~ h; rm -rf h/*`: a pattern below a link this command makes.
                    if let Some(link) = st.links.iter().find(|l| dir.starts_with(l)) {
                        self.add(Finding::ask(
                            rule::ESCAPE,
                            format!(
                                "`{display}` writes through `{}`, a symlink this same command creates, so where it lands is not known before it runs",
                                link.display()
                            ),
                            "create the link in one command and write in the next, so the target can be checked",
                        ));
                    }
                }
                if let Target::Path(p) = target.clone() {
                    self.written.push(p.clone());
                    let p = &p;
                    if is_sink(p) {
                        continue;
                    }
                    if let Some(link) = st.links.iter().find(|l| p.starts_with(l)) {
                        self.add(Finding::ask(
                            rule::ESCAPE,
                            format!(
                                "`{display}` writes through `{}`, a symlink this same command creates, so where it lands is not known before it runs",
                                link.display()
                            ),
                            "create the link in one command and write in the next, so the target can be checked",
                        ));
                        continue;
                    }
                    match roots::resolve_links(p) {
                        Landing::Real(real) if &real != p => {
                            // Judge both spellings: the rule names what the user wrote,
                            // the kernel writes where the link points.
                            self.check_target(&target, op, display);
                            self.check_target(&Target::Path(real), op, display);
                            continue;
                        }
                        Landing::Dangling(link) => {
                            self.add(Finding::ask(
                                rule::ESCAPE,
                                format!(
                                    "`{display}` writes through `{}`, a symlink whose target does not exist yet",
                                    link.display()
                                ),
                                "write to a path that exists, or spell the symlink's target out",
                            ));
                            continue;
                        }
                        Landing::Real(_) => {}
                    }
                }
                self.check_target(&target, op, display);
            }
        }
    }

    fn check_target(&mut self, target: &Target, op: Op, display: &str) {
        let ctx = self.ctx;
        match target {
            Target::Path(p) => {
                if is_sink(p) {
                    return;
                }
                if op.removes_tree() {
                    if let Some(what) = critical(p, ctx, true) {
                        self.add(destructive(display, op, &what));
                    }
                }
                if let Some(hit) = self.protected().hit(p, op) {
                    self.add(tamper(display, &hit));
                } else if in_git_database(p, ctx) {
                    self.add(git_database(display, p));
                }
                if !is_inside(p, &ctx.write_roots) {
                    self.add(escape(display, p));
                }
            }
            Target::Below { dir, pattern, all, climb } => {
                if op.removes_tree() && *all {
                    if let Some(what) = critical(dir, ctx, false) {
                        self.add(destructive(display, op, &format!("every entry of {what}")));
                    }
                }
                if op.removes_tree() {
                    // `rm -rf .gi?`, `rm -rf /hom?`: a pattern that selects a critical path.
                    if let Some(what) = pattern.as_deref().and_then(|p| critical_match(p, dir, ctx)) {
                        self.add(destructive(display, op, &what));
                    }
                }
                let protected = self.protected();
                let hit = if protected.is_gate_file(dir) {
                    Some(dir.clone())
                } else {
                    pattern.as_deref().and_then(|p| protected.hit_pattern(p, op))
                };
                if let Some(hit) = hit {
                    self.add(tamper(display, &hit));
                } else if in_git_database(&dir.join("x"), ctx) {
                    // `find .git -type f -delete`, `shred -u .git/objects/pack/*`.
                    self.add(git_database(display, dir));
                }
                let parent = dir.parent().unwrap_or(dir);
                if !is_inside(dir, &ctx.write_roots) {
                    self.add(escape(display, dir));
                } else if *climb && !is_inside(parent, &ctx.write_roots) {
                    self.add(escape(display, parent));
                }
            }
            Target::Unknown(part) => self.add(Finding::ask(
                rule::ESCAPE,
                format!("`{display}` writes to `{part}`, which cannot be resolved statically"),
                "spell the target path out literally (no variables or substitutions) so it can be checked against the write roots",
            )),
        }
    }
}

/// A path inside the repository's git directory that holds its history (objects, refs,
/// HEAD, the index, the reflogs): writing or deleting it by hand destroys commits. Lock
/// files and the message scratch files are not history (`rm -f .git/index.lock`).
fn in_git_database(path: &Path, ctx: &AgentContext) -> bool {
    let Ok(rel) = path.strip_prefix(ctx.repo_root.join(".git")) else {
        return false;
    };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !rel.as_os_str().is_empty()
        && !name.ends_with(".lock")
        && !matches!(
            name,
            "COMMIT_EDITMSG" | "MERGE_MSG" | "SQUASH_MSG" | "TAG_EDITMSG" | "FETCH_HEAD" | "gc.log"
        )
}

fn git_database(display: &str, path: &Path) -> Finding {
    Finding::deny(
        rule::GIT,
        format!(
            "`{display}` changes `{}` inside the git directory by hand, where the repository's history lives",
            path.display()
        ),
        "use git's own commands (a stale `.git/index.lock` may be removed)",
    )
}

/// Why deleting `path` recursively would be a disaster, if it would, naming the path.
/// `exact` is false for "every entry of": the temp dir's entries are scratch, the temp
/// dir itself is not.
fn critical(path: &Path, ctx: &AgentContext, exact: bool) -> Option<String> {
    let shown = path.display();
    if path == Path::new("/") {
        return Some("the file-system root `/`".into());
    }
    if ctx.home.as_deref() == Some(path) {
        return Some(format!("the home directory `{shown}`"));
    }
    if path.file_name().is_some_and(|n| n == ".git") {
        return Some(format!("the git directory `{shown}`"));
    }
    if path == ctx.repo_root {
        return Some(format!("the repository root `{shown}`"));
    }
    if exact && ctx.write_roots.iter().any(|r| r == path) {
        return Some(format!("the write root `{shown}`"));
    }
    let guarded = ctx
        .write_roots
        .iter()
        .chain(std::iter::once(&ctx.repo_root))
        .chain(ctx.home.iter());
    for g in guarded {
        if g.starts_with(path) && g != path {
            return Some(format!("`{shown}`, a parent of `{}`", g.display()));
        }
    }
    None
}

/// A critical path (a `.git`, the root, the home, the repository, a write root, or one of
/// their parents) that the absolute shell pattern `pattern` selects below `dir`.
fn critical_match(pattern: &str, dir: &Path, ctx: &AgentContext) -> Option<String> {
    let g = glob(pattern)?.compile_matcher();
    let mut candidates: Vec<PathBuf> = vec![dir.join(".git")];
    for guarded in ctx
        .write_roots
        .iter()
        .chain(std::iter::once(&ctx.repo_root))
        .chain(ctx.home.iter())
    {
        candidates.extend(guarded.ancestors().map(Path::to_path_buf));
    }
    // Like bash without `dotglob`, a pattern selects a dot-name only when it says so.
    let dotted = pattern
        .rsplit('/')
        .next()
        .is_some_and(|last| last.starts_with('.'));
    candidates
        .iter()
        .filter(|c| c.parent() == Some(dir))
        .filter(|c| {
            dotted
                || !c
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .find(|c| g.is_match(c))
        .and_then(|c| critical(c, ctx, true))
}

fn destructive(display: &str, op: Op, what: &str) -> Finding {
    let verb = if op == Op::MoveSource {
        "moves away"
    } else {
        "recursively deletes"
    };
    Finding::deny(
        rule::DESTRUCTIVE,
        format!("`{display}` {verb} {what}"),
        "delete only the specific build or scratch directory you mean (e.g. `rm -rf ./target`), never a root, a home or a .git",
    )
}

fn tamper(display: &str, hit: &Path) -> Finding {
    Finding::deny(
        rule::TAMPER,
        format!("`{display}` modifies `{}`, a file the gate protects", hit.display()),
        "gate configuration and hook settings are changed by a human: describe the change you need instead",
    )
}

fn escape(display: &str, path: &Path) -> Finding {
    Finding::deny(
        rule::ESCAPE,
        format!(
            "`{display}` writes `{}`, outside the write roots",
            path.display()
        ),
        "write inside the repository or the temp dir, or ask a human to run this command",
    )
}
