//! One module per agent protocol: the agent's hook JSON in, an [`HookInput`] out; a
//! [`Response`] in, the agent's JSON out. Parsing is lenient (unknown and missing fields
//! are normal: these protocols change monthly); nothing here decides anything.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

mod apply_patch;
pub mod claude;
pub mod codex;
pub mod cursor;
mod fields;
pub mod gemini;
pub mod install;

pub use apply_patch::patch_paths;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AgentKind {
    Claude,
    Codex,
    Cursor,
    Gemini,
}

impl AgentKind {
    pub const ALL: [AgentKind; 4] = [
        AgentKind::Claude,
        AgentKind::Codex,
        AgentKind::Cursor,
        AgentKind::Gemini,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AgentKind::Claude => "claude",
            AgentKind::Codex => "codex",
            AgentKind::Cursor => "cursor",
            AgentKind::Gemini => "gemini",
        }
    }
}

/// A tool call, normalized across agents.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ToolCall {
    /// A shell command string (Claude `Bash`, Codex `shell`/`exec`, Cursor
    /// `beforeShellExecution`, Gemini `run_shell_command`).
    Shell {
        tool: String,
        command: String,
        cwd: Option<PathBuf>,
    },
    /// A file write or edit, with every path it touches.
    FileWrite {
        tool: String,
        paths: Vec<PathBuf>,
        /// What the call would write (the tool input as sent: content, edits, patch),
        /// kept as evidence when the call is refused; not part of the normal audit input.
        #[serde(skip)]
        content: Option<serde_json::Value>,
    },
    /// A file read.
    FileRead { tool: String, path: PathBuf },
    /// Anything else (MCP tools, web fetches, ...), with its raw input for rules and audit.
    Other {
        tool: String,
        input: serde_json::Value,
    },
}

impl ToolCall {
    pub fn tool_name(&self) -> &str {
        match self {
            ToolCall::Shell { tool, .. }
            | ToolCall::FileWrite { tool, .. }
            | ToolCall::FileRead { tool, .. }
            | ToolCall::Other { tool, .. } => tool,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Event {
    SessionStart,
    /// Before a tool runs (PreToolUse, BeforeTool, beforeShellExecution, ...).
    PreTool {
        call: ToolCall,
    },
    /// A file was edited (Cursor `afterFileEdit`): record only.
    PostEdit {
        paths: Vec<PathBuf>,
    },
    /// The main agent wants to stop. `active` is Claude's `stop_hook_active`;
    /// `completed` is false when the agent stopped for another reason (Cursor `status`).
    Stop {
        active: bool,
        completed: bool,
    },
    /// A subagent wants to stop.
    SubagentStop {
        agent_id: Option<String>,
        active: bool,
    },
    /// An event loopgate does not act on.
    Other {
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HookInput {
    pub agent: AgentKind,
    /// The event name exactly as the agent sent it (needed to answer in kind).
    pub event_name: String,
    pub event: Event,
    pub session_id: Option<String>,
    pub cwd: Option<PathBuf>,
    pub transcript_path: Option<PathBuf>,
    /// The id of the tool call a PreToolUse is about (Claude Code and Codex send it; it
    /// names the transcript message that asked for the call, which the budget waits for).
    pub tool_use_id: Option<String>,
    /// The tool call's raw input object, when the event has one: a rewrite of the call
    /// (see [`Response::Rewrite`]) keeps every field but the one it replaces.
    pub tool_input: Option<serde_json::Value>,
}

/// What loopgate wants to tell the agent; each protocol renders what it supports.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Response {
    /// Say nothing (the agent proceeds as it would without the hook).
    Nothing,
    Allow {
        reason: Option<String>,
    },
    Ask {
        reason: String,
    },
    Deny {
        reason: String,
    },
    /// Deny the tool call and tell the agent to stop altogether (budget exhausted).
    Halt {
        reason: String,
    },
    /// Refuse a stop and send the agent back to work with this reason.
    Block {
        reason: String,
    },
    /// Add context for the model (SessionStart).
    Context {
        text: String,
    },
    /// Run the tool call with this input instead (the shell command wrapped in loopgate's
    /// jail). `ask` carries loopgate's reason when a human must approve the call first;
    /// otherwise the rewritten call is approved. Only agents whose protocol can replace a
    /// tool's input render it; every other one refuses the call (it never runs unwrapped).
    Rewrite {
        tool_input: serde_json::Value,
        reason: String,
        ask: bool,
    },
}

/// The refusal sent by a protocol that cannot replace a tool's input, should a rewrite ever
/// reach it: the call must not run outside the jail it was promised.
pub const REWRITE_UNSUPPORTED: &str =
    "loopgate refused this: the command was to run confined, and this agent cannot run a rewritten command";

#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("the hook input is not JSON: {0}")]
    NotJson(String),
    #[error("the hook input is not a JSON object")]
    NotObject,
    #[error("the hook input has no event name (`{0}`)")]
    NoEvent(&'static str),
}

/// Parse an agent's hook payload. Lenient: unknown and missing fields are normal, a field
/// of the wrong shape is treated as missing; only input that is not a JSON object, or an
/// object without an event name, is an error (the hook command answers those fail-closed:
/// see `docs/agents.md`).
pub fn parse(agent: AgentKind, bytes: &[u8]) -> Result<HookInput, ParseError> {
    let object = fields::object(bytes)?;
    match agent {
        AgentKind::Claude => claude::parse(&object),
        AgentKind::Codex => codex::parse(&object),
        AgentKind::Cursor => cursor::parse(&object),
        AgentKind::Gemini => gemini::parse(&object),
    }
}

/// Render a response in the agent's protocol for the event it answers: exactly one JSON
/// object, or `None` for nothing on stdout.
///
/// `Response::Nothing` leaves the agent's own permission flow in charge; `Response::Allow`
/// actively approves where the protocol can (Claude Code skips its own prompt), so the hook
/// should answer `Allow` only when a user `allow` rule matched and `Nothing` otherwise.
pub fn render(agent: AgentKind, event_name: &str, response: &Response) -> Option<String> {
    let value = match agent {
        AgentKind::Claude => claude::render(event_name, response),
        AgentKind::Codex => codex::render(event_name, response),
        AgentKind::Cursor => cursor::render(event_name, response),
        AgentKind::Gemini => gemini::render(event_name, response),
    }?;
    Some(value.to_string())
}
