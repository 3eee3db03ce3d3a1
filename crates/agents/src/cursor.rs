//! Cursor hooks (cursor.com/docs/agent/hooks). Every payload carries `hook_event_name`,
//! `conversation_id`, `generation_id`, `workspace_roots` (and optionally `model`,
//! `cursor_version`, `user_email`, `transcript_path`). Events read here:
//! `beforeShellExecution` {command, cwd}, `beforeMCPExecution` {tool_name, tool_input},
//! `beforeReadFile` {file_path, content}, `afterFileEdit` {file_path, edits},
//! `stop` {status: completed|aborted|error, loop_count}, `sessionStart`, and the generic
//! `preToolUse` {tool_name, tool_input}.
//!
//! Output: `{"permission":"allow|deny|ask","user_message","agent_message"}` for the
//! before-events (`beforeReadFile` honours only allow|deny, so an ask is a deny there),
//! `{"followup_message"}` for `stop` (Cursor sends it as the next user message),
//! `{"additional_context"}` for `sessionStart`; `afterFileEdit` is record-only.

use crate::claude::non_empty;
use crate::fields::{self, Object};
use crate::{AgentKind, Event, HookInput, ParseError, Response, ToolCall};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The tool name loopgate reports for Cursor's shell events (Cursor's own name for it).
pub const SHELL_TOOL: &str = "Shell";

pub(crate) fn parse(object: &Object) -> Result<HookInput, ParseError> {
    let event_name = fields::event_name(object)?;
    let cwd = fields::path(object, "cwd").or_else(|| first_root(object));
    let event = match event_name.as_str() {
        "sessionStart" => Event::SessionStart,
        "beforeShellExecution" => Event::PreTool {
            call: ToolCall::Shell {
                tool: SHELL_TOOL.into(),
                command: fields::string(object, "command").unwrap_or_default(),
                cwd: cwd.clone(),
            },
        },
        "beforeMCPExecution" => Event::PreTool {
            call: ToolCall::Other {
                tool: fields::string(object, "tool_name").unwrap_or_default(),
                input: mcp_input(object),
            },
        },
        "beforeReadFile" => Event::PreTool {
            call: match fields::path(object, "file_path") {
                Some(path) => ToolCall::FileRead {
                    tool: "Read".into(),
                    path,
                },
                None => ToolCall::Other {
                    tool: "Read".into(),
                    input: Value::Null,
                },
            },
        },
        "preToolUse" => Event::PreTool {
            call: generic_tool(object, cwd.clone()),
        },
        "afterFileEdit" => Event::PostEdit {
            paths: fields::path(object, "file_path").into_iter().collect(),
        },
        "stop" => Event::Stop {
            active: loop_count(object) > 0,
            // Only a completed turn is gated; a missing status is gated too (no silent pass).
            completed: match object.get("status") {
                Some(Value::String(status)) => status == "completed",
                _ => true,
            },
        },
        _ => Event::Other {
            name: event_name.clone(),
        },
    };
    Ok(HookInput {
        agent: AgentKind::Cursor,
        event_name,
        event,
        session_id: fields::string(object, "conversation_id")
            .or_else(|| fields::string(object, "session_id")),
        cwd,
        transcript_path: fields::path(object, "transcript_path"),
        tool_use_id: None,
        tool_input: None,
    })
}

fn first_root(object: &Object) -> Option<PathBuf> {
    match object.get("workspace_roots") {
        Some(Value::Array(roots)) => roots
            .iter()
            .filter_map(Value::as_str)
            .find(|r| !r.is_empty())
            .map(PathBuf::from),
        _ => None,
    }
}

fn loop_count(object: &Object) -> u64 {
    object
        .get("loop_count")
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

/// Cursor has sent MCP arguments both as an object and as a JSON string.
fn mcp_input(object: &Object) -> Value {
    match object.get("tool_input") {
        Some(Value::String(text)) => {
            serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone()))
        }
        Some(other) => other.clone(),
        None => Value::Null,
    }
}

fn generic_tool(object: &Object, cwd: Option<PathBuf>) -> ToolCall {
    let tool = fields::string(object, "tool_name").unwrap_or_default();
    let input = fields::nested(object, "tool_input");
    let path = fields::path(&input, "file_path").or_else(|| fields::path(&input, "path"));
    match tool.as_str() {
        "Shell" | "Terminal" => ToolCall::Shell {
            command: fields::string(&input, "command").unwrap_or_default(),
            cwd,
            tool,
        },
        "Write" | "Edit" | "StrReplace" | "MultiEdit" | "Delete" | "EditNotebook" => {
            ToolCall::FileWrite {
                paths: path.into_iter().collect(),
                content: Some(Value::Object(input.clone())),
                tool,
            }
        }
        "Read" => match path {
            Some(path) => ToolCall::FileRead { tool, path },
            None => ToolCall::Other {
                tool,
                input: Value::Object(input),
            },
        },
        _ => ToolCall::Other {
            input: object.get("tool_input").cloned().unwrap_or(Value::Null),
            tool,
        },
    }
}

pub(crate) fn render(event_name: &str, response: &Response) -> Option<Value> {
    match event_name {
        "beforeShellExecution" | "beforeMCPExecution" | "preToolUse" => permission(response, true),
        "beforeReadFile" => permission(response, false),
        "stop" => match response {
            Response::Block { reason } | Response::Deny { reason } | Response::Ask { reason } => {
                Some(json!({ "followup_message": non_empty(reason) }))
            }
            _ => None,
        },
        "sessionStart" => match response {
            Response::Context { text } => Some(json!({ "additional_context": text })),
            _ => None,
        },
        _ => None,
    }
}

fn permission(response: &Response, can_ask: bool) -> Option<Value> {
    let (decision, reason) = match response {
        Response::Nothing | Response::Context { .. } => return None,
        Response::Allow { reason } => ("allow", reason.as_deref()),
        Response::Ask { reason } if can_ask => ("ask", Some(reason.as_str())),
        Response::Ask { reason }
        | Response::Deny { reason }
        | Response::Block { reason }
        | Response::Halt { reason } => ("deny", Some(reason.as_str())),
        Response::Rewrite { .. } => ("deny", Some(crate::REWRITE_UNSUPPORTED)),
    };
    let mut out = json!({ "permission": decision });
    if let Some(reason) = reason {
        out["user_message"] = json!(reason);
        out["agent_message"] = json!(reason);
    }
    Some(out)
}
