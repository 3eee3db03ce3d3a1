//! Codex hooks (developers.openai.com/codex/hooks; wire types in openai/codex
//! `codex-rs/hooks/src/schema.rs` and `schema/generated/*.json`). Input is Claude-shaped:
//! `session_id`, `turn_id`, `transcript_path`, `cwd`, `hook_event_name`, `model`; shell
//! calls arrive as `tool_name: "Bash"` with `tool_input.command`, patches as
//! `tool_name: "apply_patch"` with the raw envelope in `tool_input.command`, MCP tools by
//! their `mcp__server__tool` name. `SubagentStop` adds `agent_id`, `agent_type`,
//! `agent_transcript_path`.
//!
//! Output, only what Codex accepts today: PreToolUse takes `permissionDecision: "deny"` with
//! a non-empty reason; `allow` without `updatedInput`, `ask`, `continue: false` and
//! `stopReason` are rejected there as unsupported (so an ask is answered as a deny that
//! says a human must approve). Stop and SubagentStop always get a JSON object:
//! `{"decision":"block","reason"}`, `{"continue":false,"stopReason"}` or `{}`.

use crate::fields::{self, Object};
use crate::{claude, patch_paths, AgentKind, HookInput, ParseError, Response, ToolCall};
use serde_json::{json, Value};
use std::path::Path;

pub(crate) fn parse(object: &Object) -> Result<HookInput, ParseError> {
    claude::parse_shaped(object, AgentKind::Codex, tool_call)
}

fn tool_call(object: &Object, cwd: Option<&Path>) -> ToolCall {
    let tool = fields::string(object, "tool_name").unwrap_or_default();
    let input = fields::nested(object, "tool_input");
    match tool.as_str() {
        // Codex reports every shell-like tool as `Bash`; the older names are kept so a
        // payload from another build is still vetted as a shell command.
        "Bash" | "shell" | "exec" | "exec_command" | "local_shell" | "shell_command" => {
            ToolCall::Shell {
                command: shell_command(&input),
                cwd: fields::path(&input, "workdir")
                    .map(|dir| fields::under(cwd, dir))
                    .or_else(|| cwd.map(Path::to_path_buf)),
                tool,
            }
        }
        "apply_patch" => {
            let patch = fields::string(&input, "command")
                .or_else(|| fields::string(&input, "input"))
                .or_else(|| fields::string(&input, "patch"))
                .unwrap_or_default();
            ToolCall::FileWrite {
                paths: patch_paths(&patch),
                content: Some(Value::String(patch)),
                tool,
            }
        }
        _ => ToolCall::Other {
            input: object.get("tool_input").cloned().unwrap_or(Value::Null),
            tool,
        },
    }
}

/// The command string; older Codex builds sent an argv array, usually `bash -lc SCRIPT`.
fn shell_command(input: &Object) -> String {
    match input.get("command").or_else(|| input.get("cmd")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => {
            let argv: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            match argv.as_slice() {
                [shell, flag, script]
                    if is_shell(shell) && matches!(*flag, "-c" | "-lc" | "-ic") =>
                {
                    script.to_string()
                }
                _ => argv
                    .iter()
                    .map(|arg| crate::install::shell_quote(arg))
                    .collect::<Vec<_>>()
                    .join(" "),
            }
        }
        _ => String::new(),
    }
}

fn is_shell(program: &str) -> bool {
    let name = program.rsplit('/').next().unwrap_or(program);
    matches!(name, "bash" | "sh" | "zsh" | "dash")
}

pub(crate) fn render(event_name: &str, response: &Response) -> Option<Value> {
    match event_name {
        "PreToolUse" => pre_tool_use(response),
        "Stop" | "SubagentStop" => Some(stop(response)),
        "SessionStart" => claude::session_start(response),
        _ => None,
    }
}

fn pre_tool_use(response: &Response) -> Option<Value> {
    match response {
        Response::Nothing | Response::Allow { .. } | Response::Context { .. } => None,
        Response::Deny { reason } | Response::Block { reason } | Response::Halt { reason } => {
            Some(claude::permission("deny", reason))
        }
        Response::Rewrite { .. } => Some(claude::permission("deny", crate::REWRITE_UNSUPPORTED)),
        Response::Ask { reason } => Some(claude::permission(
            "deny",
            &format!(
                "a human must approve this first (Codex hooks cannot ask): {}",
                claude::non_empty(reason)
            ),
        )),
    }
}

fn stop(response: &Response) -> Value {
    match response {
        Response::Nothing
        | Response::Allow { .. }
        | Response::Context { .. }
        | Response::Rewrite { .. } => json!({}),
        Response::Block { reason } | Response::Deny { reason } | Response::Ask { reason } => {
            claude::block(reason)
        }
        Response::Halt { reason } => claude::halt(reason),
    }
}
