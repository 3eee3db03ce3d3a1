//! Gemini CLI hooks (geminicli.com/docs/hooks/reference; google-gemini/gemini-cli
//! `docs/hooks/`). Input: `session_id`, `transcript_path`, `cwd`, `hook_event_name`,
//! `timestamp`; `BeforeTool` adds `tool_name`/`tool_input` (`run_shell_command` {command,
//! dir_path}, `write_file` {file_path}, `replace` {file_path}, `read_file` {file_path});
//! `AfterAgent` adds `prompt`, `prompt_response`, `stop_hook_active`.
//!
//! Output: `{"decision":"allow|deny","reason"}` for BeforeTool. Gemini's `ask` would force
//! its confirmation prompt, but a headless run (`gemini -p`, 0.61.0) waits on that prompt
//! until it is killed, and the hook cannot tell a headless run from an interactive one; so
//! an ask is answered as a deny saying a human must approve first. `{"decision":"deny","reason"}`
//! for AfterAgent (the reason goes back to the model as a new prompt: the retry),
//! `continue: false` + `stopReason` to end the loop, and
//! `hookSpecificOutput.additionalContext` for SessionStart.

use crate::claude::non_empty;
use crate::fields::{self, Object};
use crate::{AgentKind, Event, HookInput, ParseError, Response, ToolCall};
use serde_json::{json, Value};
use std::path::Path;

pub(crate) fn parse(object: &Object) -> Result<HookInput, ParseError> {
    let event_name = fields::event_name(object)?;
    let cwd = fields::path(object, "cwd");
    let event = match event_name.as_str() {
        "SessionStart" => Event::SessionStart,
        "BeforeTool" => Event::PreTool {
            call: tool_call(object, cwd.as_deref()),
        },
        "AfterAgent" => Event::Stop {
            active: fields::flag(object, "stop_hook_active"),
            completed: true,
        },
        _ => Event::Other {
            name: event_name.clone(),
        },
    };
    Ok(HookInput {
        agent: AgentKind::Gemini,
        event_name,
        event,
        session_id: fields::string(object, "session_id"),
        cwd,
        transcript_path: fields::path(object, "transcript_path"),
        tool_use_id: None,
        tool_input: object.get("tool_input").cloned(),
    })
}

fn tool_call(object: &Object, cwd: Option<&Path>) -> ToolCall {
    let tool = fields::string(object, "tool_name").unwrap_or_default();
    let input = fields::nested(object, "tool_input");
    // `absolute_path` is the older name of `read_file`'s argument.
    let path = fields::path(&input, "file_path").or_else(|| fields::path(&input, "absolute_path"));
    match tool.as_str() {
        "run_shell_command" => ToolCall::Shell {
            command: fields::string(&input, "command").unwrap_or_default(),
            cwd: fields::path(&input, "dir_path")
                .or_else(|| fields::path(&input, "directory"))
                .map(|dir| fields::under(cwd, dir))
                .or_else(|| cwd.map(Path::to_path_buf)),
            tool,
        },
        "write_file" | "replace" => ToolCall::FileWrite {
            paths: path.into_iter().collect(),
            content: Some(serde_json::Value::Object(input.clone())),
            tool,
        },
        "read_file" => match path {
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
        "BeforeTool" => before_tool(response),
        "AfterAgent" => after_agent(response),
        "SessionStart" => match response {
            Response::Context { text } => Some(json!({
                "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}
            })),
            _ => None,
        },
        _ => None,
    }
}

fn before_tool(response: &Response) -> Option<Value> {
    match response {
        Response::Nothing | Response::Context { .. } => None,
        Response::Allow { reason } => Some(match reason {
            Some(reason) => json!({"decision": "allow", "reason": reason}),
            None => json!({"decision": "allow"}),
        }),
        Response::Ask { reason } => Some(ask_as_deny(reason)),
        Response::Deny { reason } | Response::Block { reason } => {
            Some(json!({"decision": "deny", "reason": non_empty(reason)}))
        }
        Response::Halt { reason } => Some(json!({
            "decision": "deny", "reason": non_empty(reason), "continue": false, "stopReason": reason
        })),
        // A jailed command that still needs a human: headless Gemini hangs on an ask, so
        // it is refused like every other ask.
        Response::Rewrite {
            reason, ask: true, ..
        } => Some(ask_as_deny(reason)),
        // Gemini CLI merges `hookSpecificOutput.tool_input` into the call's arguments.
        Response::Rewrite {
            tool_input, reason, ..
        } => Some(json!({
            "decision": "allow",
            "reason": non_empty(reason),
            "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": tool_input},
        })),
    }
}

/// Headless Gemini waits forever on an ask, and a hook cannot tell headless from
/// interactive: an ask is answered as a deny that says a human must approve first.
fn ask_as_deny(reason: &str) -> Value {
    let reason = format!(
        "a human must approve this first (loopgate cannot ask in a headless Gemini run): {}",
        non_empty(reason)
    );
    json!({"decision": "deny", "reason": reason, "systemMessage": reason})
}

fn after_agent(response: &Response) -> Option<Value> {
    match response {
        Response::Nothing
        | Response::Allow { .. }
        | Response::Context { .. }
        | Response::Rewrite { .. } => None,
        Response::Block { reason } | Response::Deny { reason } | Response::Ask { reason } => {
            Some(json!({"decision": "deny", "reason": non_empty(reason)}))
        }
        Response::Halt { reason } => Some(json!({"continue": false, "stopReason": reason})),
    }
}
