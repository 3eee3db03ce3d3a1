//! `loopgate install|uninstall`: pure functions from a settings file's text to its new
//! text. The caller (the binary's `install` command) reads and writes the files; nothing
//! here touches the file system except [`write_atomic`], the one file edge shared with it.
//!
//! Guarantees: everything that is not loopgate's (other hooks, permissions, unknown keys,
//! key order, indentation unit) is kept; installing twice equals installing once; an entry
//! is loopgate's when its command runs a program named `loopgate` with ` hook <agent>`, so
//! a stale path is replaced; text that does not parse is refused, never rewritten.

mod codex_config;
mod command;
mod file;
mod gitignore;
mod hooks_table;
mod json_text;
pub mod workflow;

pub use codex_config::{disable as codex_features_off, enable as codex_features_on, FeatureSwitch};
pub use command::{hook_command, is_own_command, shell_quote, BINARY_NAME};
pub use file::write_atomic;
pub use gitignore::add_state_dir as gitignore_add_state_dir;

use crate::AgentKind;
use hooks_table::{Layout, Planned};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Seconds an agent waits for a PreToolUse-style hook. The tool gate decides in
/// milliseconds; this only has to outlast a slow disk, never loopgate's own deadline logic.
pub const PRE_TOOL_TIMEOUT_SECS: u64 = 30;
/// Margin added to `[gate] hook_deadline` for the hooks that run checks (Stop and kin), so
/// loopgate's own deadline always fires first and the agent's timeout (which fails open)
/// never does.
pub const DEADLINE_MARGIN_SECS: u64 = 60;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// `[gate] hook_deadline` of the repository's configuration.
    pub hook_deadline: Duration,
}

impl Options {
    /// The agent-side timeout of the hooks that may run checks or record a baseline.
    pub fn long_timeout_secs(&self) -> u64 {
        self.hook_deadline.as_secs_f64().ceil() as u64 + DEADLINE_MARGIN_SECS
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstallError {
    #[error("cannot parse it: {0}")]
    Parse(String),
    #[error("unexpected shape: {0}")]
    Shape(String),
}

/// What uninstall leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Uninstalled {
    /// Nothing of loopgate's was there: leave the file as it is, byte for byte.
    Unchanged,
    /// The file without loopgate's entries.
    Rewrite(String),
    /// Only containers loopgate created were left: delete the file.
    Remove,
}

/// The settings file holding `agent`'s hooks under `base` (a repository root, or `$HOME`
/// for a global install: the layouts are the same).
pub fn settings_path(agent: AgentKind, base: &Path) -> PathBuf {
    base.join(match agent {
        AgentKind::Claude => ".claude/settings.json",
        AgentKind::Codex => ".codex/hooks.json",
        AgentKind::Cursor => ".cursor/hooks.json",
        AgentKind::Gemini => ".gemini/settings.json",
    })
}

/// Codex's config file (the hooks feature switch) under `base`.
pub fn codex_config_path(base: &Path) -> PathBuf {
    base.join(".codex/config.toml")
}

/// `existing` (the file's text, `None` when it does not exist) with loopgate's hooks for
/// `agent` installed, pointing at `binary`.
pub fn install(
    agent: AgentKind,
    existing: Option<&str>,
    binary: &Path,
    opts: &Options,
) -> Result<String, InstallError> {
    let mut root = json_text::parse_object(existing.unwrap_or(""))?;
    let layout = layout(agent);
    if agent == AgentKind::Cursor {
        match root.get("version") {
            None => {
                root.insert("version".into(), json!(1));
            }
            Some(v) if v == &json!(1) => {}
            Some(v) => {
                return Err(InstallError::Shape(format!(
                    "`version` is {v}; loopgate writes Cursor hooks version 1"
                )))
            }
        }
    }
    if let Some(hooks) = root.get("hooks") {
        if !hooks.is_object() {
            return Err(InstallError::Shape("`hooks` is not a JSON object".into()));
        }
    }
    hooks_table::strip_own(&mut root, agent, layout);
    hooks_table::add(&mut root, &plan(agent, binary, opts), layout)?;
    Ok(json_text::print(&root, existing))
}

/// `existing` without loopgate's hooks for `agent`.
pub fn uninstall(agent: AgentKind, existing: &str) -> Result<Uninstalled, InstallError> {
    let mut root = json_text::parse_object(existing)?;
    if !hooks_table::strip_own(&mut root, agent, layout(agent)) {
        return Ok(Uninstalled::Unchanged);
    }
    let only_ours_left = root.is_empty()
        || (agent == AgentKind::Cursor
            && root.len() == 1
            && root.get("version") == Some(&json!(1)));
    if only_ours_left {
        Ok(Uninstalled::Remove)
    } else {
        Ok(Uninstalled::Rewrite(json_text::print(
            &root,
            Some(existing),
        )))
    }
}

fn layout(agent: AgentKind) -> Layout {
    match agent {
        AgentKind::Cursor => Layout::Flat,
        _ => Layout::Grouped,
    }
}

/// The hooks each agent gets, with their timeouts (see `docs/agents.md`).
fn plan(agent: AgentKind, binary: &Path, opts: &Options) -> Vec<Planned> {
    let command = hook_command(binary, agent);
    let long = opts.long_timeout_secs();
    let short = PRE_TOOL_TIMEOUT_SECS;
    let events: &[(&'static str, Option<&'static str>, u64)] = match agent {
        AgentKind::Claude => &[
            ("SessionStart", None, long),
            ("PreToolUse", Some("*"), short),
            ("Stop", None, long),
            ("SubagentStop", None, long),
        ],
        // Codex matchers are regular expressions: no matcher matches every tool.
        AgentKind::Codex => &[
            ("SessionStart", None, long),
            ("PreToolUse", None, short),
            ("Stop", None, long),
            ("SubagentStop", None, long),
        ],
        AgentKind::Cursor => &[
            ("sessionStart", None, long),
            ("beforeShellExecution", None, short),
            ("beforeMCPExecution", None, short),
            ("beforeReadFile", None, short),
            ("afterFileEdit", None, short),
            ("stop", None, long),
        ],
        AgentKind::Gemini => &[
            ("SessionStart", None, long),
            ("BeforeTool", Some("*"), short),
            ("AfterAgent", None, long),
        ],
    };
    events
        .iter()
        .map(|&(event, matcher, secs)| Planned {
            event,
            matcher,
            entry: entry(agent, event, &command, secs),
        })
        .collect()
}

fn entry(agent: AgentKind, event: &str, command: &str, secs: u64) -> Value {
    match agent {
        AgentKind::Claude | AgentKind::Codex => {
            json!({"type": "command", "command": command, "timeout": secs})
        }
        AgentKind::Cursor => json!({"command": command, "timeout": secs}),
        // Gemini counts milliseconds and identifies hooks by name in `/hooks`.
        AgentKind::Gemini => json!({
            "name": format!("loopgate-{event}"),
            "type": "command",
            "command": command,
            "timeout": secs * 1000,
            "description": "loopgate: the deterministic referee (tool gate and done gate)",
        }),
    }
}
