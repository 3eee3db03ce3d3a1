//! Claude Code hooks (code.claude.com/docs/en/hooks). Input: `session_id`,
//! `transcript_path`, `cwd`, `hook_event_name`, and per event `tool_name`/`tool_input`
//! (PreToolUse), `stop_hook_active` (Stop, SubagentStop), `agent_id` (SubagentStop).
//! Output: `hookSpecificOutput.permissionDecision` allow|deny|ask with
//! `permissionDecisionReason` (PreToolUse), `{"decision":"block","reason"}` (Stop,
//! SubagentStop), `hookSpecificOutput.additionalContext` (SessionStart), and the universal
//! `continue: false` + `stopReason` to end the session.

use crate::fields::{self, Object};
use crate::{AgentKind, Event, HookInput, ParseError, Response, ToolCall};
use serde_json::{json, Value};

pub(crate) fn parse(object: &Object) -> Result<HookInput, ParseError> {
    parse_shaped(object, AgentKind::Claude, tool_call)
}

/// Claude Code's payload shape, which Codex's hooks follow too: the same event names and
/// fields; only the tool names and inputs differ, so each agent brings its `tool_call`.
pub(crate) fn parse_shaped(
    object: &Object,
    agent: AgentKind,
    tool_call: fn(&Object, Option<&std::path::Path>) -> ToolCall,
) -> Result<HookInput, ParseError> {
    let event_name = fields::event_name(object)?;
    let cwd = fields::path(object, "cwd");
    let event = match event_name.as_str() {
        "SessionStart" => Event::SessionStart,
        "PreToolUse" => Event::PreTool {
            call: tool_call(object, cwd.as_deref()),
        },
        "Stop" => Event::Stop {
            active: fields::flag(object, "stop_hook_active"),
            completed: true,
        },
        "SubagentStop" => Event::SubagentStop {
            agent_id: fields::string(object, "agent_id"),
            active: fields::flag(object, "stop_hook_active"),
        },
        _ => Event::Other {
            name: event_name.clone(),
        },
    };
    Ok(HookInput {
        agent,
        event_name,
        event,
        session_id: fields::string(object, "session_id"),
        cwd,
        transcript_path: fields::path(object, "transcript_path"),
        tool_use_id: fields::string(object, "tool_use_id"),
        tool_input: object.get("tool_input").cloned(),
    })
}

fn tool_call(object: &Object, cwd: Option<&std::path::Path>) -> ToolCall {
    let tool = fields::string(object, "tool_name").unwrap_or_default();
    let input = fields::nested(object, "tool_input");
    match tool.as_str() {
        "Bash" => ToolCall::Shell {
            command: fields::string(&input, "command").unwrap_or_default(),
            cwd: cwd.map(|c| c.to_path_buf()),
            tool,
        },
        "Write" | "Edit" | "MultiEdit" => ToolCall::FileWrite {
            paths: fields::path(&input, "file_path").into_iter().collect(),
            content: Some(Value::Object(input.clone())),
            tool,
        },
        "NotebookEdit" => ToolCall::FileWrite {
            paths: fields::path(&input, "notebook_path").into_iter().collect(),
            content: Some(Value::Object(input.clone())),
            tool,
        },
        "Read" => match fields::path(&input, "file_path") {
            Some(path) => ToolCall::FileRead { tool, path },
            None => other(tool, object),
        },
        _ => other(tool, object),
    }
}

fn other(tool: String, object: &Object) -> ToolCall {
    ToolCall::Other {
        tool,
        input: object.get("tool_input").cloned().unwrap_or(Value::Null),
    }
}

pub(crate) fn render(event_name: &str, response: &Response) -> Option<Value> {
    match event_name {
        "PreToolUse" => pre_tool_use(response),
        "Stop" | "SubagentStop" => stop(response),
        "SessionStart" => session_start(response),
        _ => None,
    }
}

fn pre_tool_use(response: &Response) -> Option<Value> {
    match response {
        Response::Nothing => None,
        Response::Allow { reason } => {
            let mut out = json!({"hookEventName": "PreToolUse", "permissionDecision": "allow"});
            if let Some(reason) = reason {
                out["permissionDecisionReason"] = json!(reason);
            }
            Some(json!({ "hookSpecificOutput": out }))
        }
        Response::Ask { reason } => Some(permission("ask", reason)),
        Response::Deny { reason } | Response::Block { reason } => Some(permission("deny", reason)),
        Response::Halt { reason } => {
            let mut out = permission("deny", reason);
            out["continue"] = json!(false);
            out["stopReason"] = json!(reason);
            Some(out)
        }
        Response::Context { text } => Some(json!({
            "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": text}
        })),
        // Verified against the client (tests/claude_kernel.rs): with `allow` the rewritten
        // input runs as given; without a decision the client re-vets the rewritten text
        // with its own permission rules, which would ask about loopgate's wrapper.
        Response::Rewrite {
            tool_input,
            reason,
            ask,
        } => Some(json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": if *ask { "ask" } else { "allow" },
                "permissionDecisionReason": non_empty(reason),
                "updatedInput": tool_input,
            }
        })),
    }
}

/// A PreToolUse decision in the `hookSpecificOutput` form Claude Code and Codex share.
pub(crate) fn permission(decision: &str, reason: &str) -> Value {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision,
            "permissionDecisionReason": non_empty(reason),
        }
    })
}

/// Stop and SubagentStop: a refusal of any kind keeps the agent working (no silent pass).
fn stop(response: &Response) -> Option<Value> {
    match response {
        Response::Nothing
        | Response::Allow { .. }
        | Response::Context { .. }
        | Response::Rewrite { .. } => None,
        Response::Block { reason } | Response::Deny { reason } | Response::Ask { reason } => {
            Some(block(reason))
        }
        Response::Halt { reason } => Some(halt(reason)),
    }
}

pub(crate) fn block(reason: &str) -> Value {
    json!({"decision": "block", "reason": non_empty(reason)})
}

pub(crate) fn halt(reason: &str) -> Value {
    json!({"continue": false, "stopReason": non_empty(reason)})
}

pub(crate) fn session_start(response: &Response) -> Option<Value> {
    match response {
        Response::Context { text } => Some(json!({
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
        })),
        _ => None,
    }
}

/// Claude Code and Codex drop a deny or block whose reason is blank (Codex lets the call
/// through), so a refusal always carries words.
pub(crate) fn non_empty(reason: &str) -> &str {
    if reason.trim().is_empty() {
        "refused by loopgate"
    } else {
        reason
    }
}
