//! `loopgate install|uninstall`: the file edge around `agents::install`. Every new text is
//! computed before anything is written, so a file that cannot be parsed stops the whole
//! command with nothing changed (exit 2, the message names the file).

use crate::cli::{InstallArgs, InstallTarget};
use crate::exit::Exit;
use agents::install::{self as plan, FeatureSwitch, Options, Uninstalled};
use agents::AgentKind;
use anyhow::{anyhow, bail, Context};
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// Codex hooks can refuse a shell command but not rewrite it, so the per-command jail that
/// Claude Code and Gemini CLI get is not available there (docs/agents.md).
const CODEX_CONFINE: &str = "Codex hooks cannot rewrite a shell command, so loopgate cannot \
     confine Codex's commands one by one: start Codex as `loopgate run --confine -- codex` to \
     run it, and every command it runs, under the kernel's jail.";
const CODEX_TRUST: &str = "Codex runs a hook only once you trust it: start Codex, open `/hooks` \
     and trust the loopgate entries (again after any change to them). Project hooks also \
     need the project's `.codex/` layer to be trusted.";

pub fn install(dir: &Path, args: &InstallArgs) -> anyhow::Result<Exit> {
    let scope = Scope::resolve(dir, args.global)?;
    let (agents, ci) = targets(args)?;
    let binary = std::env::current_exe()
        .and_then(fs::canonicalize)
        .context("cannot find the path of the running loopgate binary")?;
    let opts = Options {
        hook_deadline: hook_deadline(&scope.config_root)?,
    };
    let mut changes = Vec::new();
    let mut notes = Vec::new();
    for &agent in &agents {
        let path = plan::settings_path(agent, &scope.base);
        let existing = read_optional(&path)?;
        let text = plan::install(agent, existing.as_deref(), &binary, &opts)
            .map_err(|e| anyhow!("{}: {e}", path.display()))?;
        changes.push(Change::write_if_new(path, existing, text, agent.name()));
        if agent == AgentKind::Codex {
            let path = plan::codex_config_path(&scope.base);
            let existing = read_optional(&path)?;
            match plan::codex_features_on(existing.as_deref())
                .map_err(|e| anyhow!("{}: {e}", path.display()))?
            {
                FeatureSwitch::Write(text) => {
                    changes.push(Change::write_if_new(path, existing, text, "codex"))
                }
                FeatureSwitch::AlreadyOn => {}
                FeatureSwitch::DisabledByUser(key) => notes.push(format!(
                    "warning: {} sets `[features] {key} = false`: Codex will not run the \
                     loopgate hooks until you remove that line",
                    path.display()
                )),
            }
            notes.push(CODEX_TRUST.to_string());
            notes.push(CODEX_CONFINE.to_string());
        }
    }
    if ci {
        let path = scope.base.join(plan::workflow::PATH);
        let existing = read_optional(&path)?;
        if let Some(text) = &existing {
            if !plan::workflow::is_ours(text) {
                bail!(
                    "{}: exists and was not written by loopgate; move it away or add the \
                     judge step yourself: loopgate check --against refs/remotes/origin/<base branch>",
                    path.display()
                );
            }
        }
        let text = plan::workflow::render(env!("CARGO_PKG_VERSION"));
        changes.push(Change::write_if_new(path, existing, text, "ci"));
    }
    if !args.global {
        let path = scope.base.join(".gitignore");
        let existing = read_optional(&path)?;
        if let Some(text) = plan::gitignore_add_state_dir(existing.as_deref()) {
            changes.push(Change::write_if_new(path, existing, text, "gitignore"));
        }
    }
    apply(&changes)?;
    for change in &changes {
        let verb = if change.action.is_some() {
            "installed"
        } else {
            "already installed"
        };
        println!("{verb}: {} ({})", change.path.display(), change.what);
    }
    for note in notes {
        eprintln!("loopgate: {note}");
    }
    Ok(Exit::Pass)
}

pub fn uninstall(dir: &Path, args: &InstallArgs) -> anyhow::Result<Exit> {
    let scope = Scope::resolve(dir, args.global)?;
    let (agents, ci) = targets(args)?;
    let mut changes = Vec::new();
    for &agent in &agents {
        let path = plan::settings_path(agent, &scope.base);
        if let Some(existing) = read_optional(&path)? {
            let action = match plan::uninstall(agent, &existing)
                .map_err(|e| anyhow!("{}: {e}", path.display()))?
            {
                Uninstalled::Unchanged => None,
                Uninstalled::Rewrite(text) => Some(Action::Write(text)),
                Uninstalled::Remove => Some(Action::Delete),
            };
            changes.push(Change {
                path,
                action,
                what: agent.name(),
            });
        }
        if agent == AgentKind::Codex {
            let path = plan::codex_config_path(&scope.base);
            if let Some(existing) = read_optional(&path)? {
                let left = plan::codex_features_off(&existing)
                    .map_err(|e| anyhow!("{}: {e}", path.display()))?;
                let action = left.map(|text| match text.trim().is_empty() {
                    true => Action::Delete,
                    false => Action::Write(text),
                });
                changes.push(Change {
                    path,
                    action,
                    what: "codex",
                });
            }
        }
    }
    if ci {
        let path = scope.base.join(plan::workflow::PATH);
        if let Some(existing) = read_optional(&path)? {
            if plan::workflow::is_ours(&existing) {
                changes.push(Change {
                    path,
                    action: Some(Action::Delete),
                    what: "ci",
                });
            } else {
                eprintln!(
                    "loopgate: {} was not written by loopgate: left alone",
                    path.display()
                );
            }
        }
    }
    apply(&changes)?;
    if !args.global {
        remove_empty_agent_dirs(&scope.base, &changes);
    }
    let mut any = false;
    for change in changes.iter().filter(|c| c.action.is_some()) {
        any = true;
        println!("uninstalled: {} ({})", change.path.display(), change.what);
    }
    if !any {
        println!("nothing of loopgate's to remove");
    }
    Ok(Exit::Pass)
}

/// Where the settings live and which configuration sets the hook deadline.
struct Scope {
    base: PathBuf,
    config_root: PathBuf,
}

impl Scope {
    fn resolve(dir: &Path, global: bool) -> anyhow::Result<Scope> {
        let repo = gate::git::root_of(dir)
            .unwrap_or_else(|| fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()));
        let base = if global {
            match std::env::var_os("HOME") {
                Some(home) if !home.is_empty() => PathBuf::from(home),
                _ => bail!("--global needs $HOME to find the user's agent settings"),
            }
        } else {
            repo.clone()
        };
        Ok(Scope {
            base,
            config_root: repo,
        })
    }
}

fn targets(args: &InstallArgs) -> anyhow::Result<(Vec<AgentKind>, bool)> {
    let (agents, ci) = match args.target {
        InstallTarget::Claude => (vec![AgentKind::Claude], false),
        InstallTarget::Codex => (vec![AgentKind::Codex], false),
        InstallTarget::Cursor => (vec![AgentKind::Cursor], false),
        InstallTarget::Gemini => (vec![AgentKind::Gemini], false),
        InstallTarget::Ci => (Vec::new(), true),
        // CI belongs to a repository: `all --global` means every agent's user settings.
        InstallTarget::All => (AgentKind::ALL.to_vec(), !args.global),
    };
    if ci && args.global {
        bail!("`ci` has no global form: run it inside the repository, without --global");
    }
    Ok((agents, ci))
}

fn hook_deadline(root: &Path) -> anyhow::Result<std::time::Duration> {
    let loaded = gate::config::load(root, Vec::new)?;
    Ok(loaded.config.gate.hook_deadline)
}

fn read_optional(path: &Path) -> anyhow::Result<Option<String>> {
    match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| {
            anyhow!(
                "{}: cannot parse it: the file is not UTF-8 text",
                path.display()
            )
        }),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(anyhow!("{}: cannot read it: {e}", path.display())),
    }
}

enum Action {
    Write(String),
    Delete,
}

struct Change {
    path: PathBuf,
    /// `None`: the file already says what it should.
    action: Option<Action>,
    what: &'static str,
}

impl Change {
    fn write_if_new(path: PathBuf, old: Option<String>, new: String, what: &'static str) -> Change {
        let action = (old.as_deref() != Some(new.as_str())).then_some(Action::Write(new));
        Change { path, action, what }
    }
}

fn apply(changes: &[Change]) -> anyhow::Result<()> {
    for change in changes {
        match &change.action {
            None => {}
            Some(Action::Write(text)) => plan::write_atomic(&change.path, text.as_bytes())
                .with_context(|| format!("{}: cannot write it", change.path.display()))?,
            Some(Action::Delete) => match fs::remove_file(&change.path) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => bail!("{}: cannot remove it: {e}", change.path.display()),
            },
        }
    }
    Ok(())
}

/// `.claude/`, `.codex/`, ... left empty by an uninstall go too (never anything else).
fn remove_empty_agent_dirs(base: &Path, changes: &[Change]) {
    for change in changes {
        if let Some(Action::Delete) = change.action {
            if let Some(parent) = change.path.parent() {
                let is_agent_dir = [".claude", ".codex", ".cursor", ".gemini"]
                    .iter()
                    .any(|d| parent == base.join(d));
                if is_agent_dir {
                    let _ = fs::remove_dir(parent);
                }
            }
        }
    }
}
