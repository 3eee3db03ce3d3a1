//! The path rules: `gate.tamper`, `fs.destructive` and `fs.escape` for every write target.

use super::args::{is_sink, targets_of, Arg, Target};
use super::walk::{Analyzer, ShellState};
use super::{rule, AgentContext, Finding};
use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use sandbox::roots::is_inside;
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
}

impl Op {
    fn removes_tree(self) -> bool {
        matches!(self, Op::Delete { recursive: true } | Op::MoveSource)
    }

    fn removes(self) -> bool {
        matches!(self, Op::Delete { .. } | Op::MoveSource)
    }
}

/// Gate files, relative to the repository root.
const REPO_GATE_FILES: [&str; 8] = [
    "loopgate.toml",
    ".loopgate",
    ".loopgate/**",
    ".claude/settings*.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/hooks.json",
    ".gemini/settings.json",
];
/// Agent hook settings, relative to the home directory (global installs).
const HOME_GATE_FILES: [&str; 5] = [
    ".claude/settings*.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/hooks.json",
    ".gemini/settings.json",
];
/// Concrete paths whose removal (or the removal of a parent) removes gate files.
const REPO_GATE_ANCHORS: [&str; 7] = [
    "loopgate.toml",
    ".loopgate",
    ".claude",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/hooks.json",
    ".gemini/settings.json",
];
const HOME_GATE_ANCHORS: [&str; 5] = [
    ".claude",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/hooks.json",
    ".gemini/settings.json",
];

fn glob(pattern: &str) -> Option<Glob> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .ok()
}

/// The protected set of one context, compiled at most once per decision.
pub(crate) struct Protected {
    repo_root: PathBuf,
    home: Option<PathBuf>,
    repo: GlobSet,
    home_set: GlobSet,
    anchors: Vec<PathBuf>,
}

impl Protected {
    pub fn new(ctx: &AgentContext) -> Protected {
        let mut repo = GlobSetBuilder::new();
        for p in REPO_GATE_FILES {
            if let Some(g) = glob(p) {
                repo.add(g);
            }
        }
        let mut anchors: Vec<PathBuf> = REPO_GATE_ANCHORS
            .iter()
            .map(|a| ctx.repo_root.join(a))
            .collect();
        for p in &ctx.protected {
            let p = p.trim_start_matches("./");
            for pattern in [p.to_string(), format!("{}/**", p.trim_end_matches('/'))] {
                if let Some(g) = glob(&pattern) {
                    repo.add(g);
                }
            }
            if !p.contains(['*', '?', '[', '{']) {
                anchors.push(ctx.repo_root.join(p));
            }
        }
        let mut home_set = GlobSetBuilder::new();
        for p in HOME_GATE_FILES {
            if let Some(g) = glob(p) {
                home_set.add(g);
            }
        }
        if let Some(home) = &ctx.home {
            anchors.extend(HOME_GATE_ANCHORS.iter().map(|a| home.join(a)));
        }
        Protected {
            repo_root: ctx.repo_root.clone(),
            home: ctx.home.clone(),
            repo: repo.build().unwrap_or_else(|_| GlobSet::empty()),
            home_set: home_set.build().unwrap_or_else(|_| GlobSet::empty()),
            anchors,
        }
    }

    /// The path itself is a gate file or lies in a gate directory.
    fn is_gate_file(&self, path: &Path) -> bool {
        if let Ok(rel) = path.strip_prefix(&self.repo_root) {
            if !rel.as_os_str().is_empty() && self.repo.is_match(rel) {
                return true;
            }
        }
        match (
            &self.home,
            self.home.as_ref().and_then(|h| path.strip_prefix(h).ok()),
        ) {
            (Some(_), Some(rel)) => !rel.as_os_str().is_empty() && self.home_set.is_match(rel),
            _ => false,
        }
    }

    /// The gate file a write of `path` with `op` would touch, if any.
    fn hit(&self, path: &Path, op: Op) -> Option<PathBuf> {
        if self.is_gate_file(path) {
            return Some(path.to_path_buf());
        }
        if op.removes() {
            return self.anchors.iter().find(|a| a.starts_with(path)).cloned();
        }
        None
    }

    /// The gate file an absolute pattern may select, if any.
    fn hit_pattern(&self, pattern: &str, op: Op) -> Option<PathBuf> {
        let g = glob(pattern)?.compile_matcher();
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
            for target in targets_of(arg, &st.cwd, home.as_deref()) {
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
                let protected = self.protected();
                let hit = if protected.is_gate_file(dir) {
                    Some(dir.clone())
                } else {
                    pattern.as_deref().and_then(|p| protected.hit_pattern(p, op))
                };
                if let Some(hit) = hit {
                    self.add(tamper(display, &hit));
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
