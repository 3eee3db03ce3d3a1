//! A scripted stand-in for the OpenAI Responses API (`POST /v1/responses`, streamed as
//! server-sent events), on 127.0.0.1:0, for the real Codex client. A tool turn becomes a
//! `function_call` item (`exec_command {cmd, workdir}`), or a `custom_tool_call` when its
//! input is a string (`apply_patch` takes the raw patch); every response reports the same
//! usage, so the rollout accumulates known numbers.

use super::http::{read_request, respond_json, sse_event, start_sse};
use super::model::{Turn, Usage};
use super::script::Script;
use serde_json::{json, Value};
use std::net::TcpStream;

pub struct ResponsesServer {
    pub port: u16,
    pub script: Script,
}

impl ResponsesServer {
    pub fn start(turns: Vec<Turn>, usage: Usage) -> ResponsesServer {
        let (port, script) = super::script::start_server(turns, usage, serve);
        ResponsesServer { port, script }
    }

    /// The provider's `base_url`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

/// `exec_command` as Codex 0.169 offers it.
pub fn exec(cmd: &str, workdir: Option<&str>) -> Turn {
    let mut input = json!({ "cmd": cmd });
    if let Some(dir) = workdir {
        input["workdir"] = json!(dir);
    }
    Turn::tool("exec_command", input)
}

/// A subagent: `spawn_agent` of Codex's `multi_agent_v1` tools, with `prompt` as its task.
pub fn spawn_agent(prompt: &str) -> Turn {
    Turn::tool(
        &format!("{MULTI_AGENT}/spawn_agent"),
        json!({ "message": prompt }),
    )
}

/// Wait for the subagent the previous `spawn_agent` started (its id is read from the
/// tool output the client sends back).
pub fn wait_spawned() -> Turn {
    Turn::tool(
        &format!("{MULTI_AGENT}/wait_agent"),
        json!({"targets": [SPAWNED], "timeout_ms": 120000}),
    )
}

const MULTI_AGENT: &str = "multi_agent_v1";
const SPAWNED: &str = "$SPAWNED";

/// The freeform `apply_patch` tool (its input is the patch text itself).
pub fn apply_patch(patch: &str) -> Turn {
    Turn::tool("apply_patch", Value::String(patch.into()))
}

/// The lane of a request: a marker found in one of its user messages (a subagent's task
/// arrives as its user message; the parent only has it inside a tool call's arguments).
fn lane_of(body: &Value, markers: &[String]) -> Option<String> {
    let items = body.get("input").and_then(Value::as_array)?;
    let user_texts: Vec<String> = items
        .iter()
        .filter(|i| i["type"] == "message" && i["role"] == "user")
        .map(|i| i["content"].to_string())
        .collect();
    markers
        .iter()
        .find(|m| user_texts.iter().any(|t| t.contains(m.as_str())))
        .cloned()
}

/// The agent id in the latest `spawn_agent` output the client sent back.
fn spawned_id(body: &Value) -> Option<String> {
    let items = body.get("input").and_then(Value::as_array)?;
    items.iter().rev().find_map(|i| {
        let output = i.get("output")?.as_str()?;
        let parsed: Value = serde_json::from_str(output).ok()?;
        parsed.get("agent_id")?.as_str().map(String::from)
    })
}

fn serve(mut stream: TcpStream, script: &Script, usage: Usage) -> std::io::Result<()> {
    let req = read_request(&mut stream)?;
    if req.method != "POST" || !req.route().ends_with("/responses") {
        script.note(format!("{} {} (harmless answer)", req.method, req.path));
        return respond_json(&mut stream, "200 OK", &json!({"data": [], "models": []}));
    }
    let body = req.json();
    let lane = lane_of(&body, &script.markers());
    let (turn, n) = script.next_in(lane.as_deref(), req.route(), body.clone());
    let turn = match turn {
        Turn::Tool { name, input } if input.to_string().contains(SPAWNED) => Turn::Tool {
            input: serde_json::from_str(
                &input
                    .to_string()
                    .replace(SPAWNED, &spawned_id(&body).unwrap_or_default()),
            )
            .unwrap_or(input),
            name,
        },
        other => other,
    };
    let item = match &turn {
        Turn::Tool {
            name,
            input: Value::String(text),
        } => json!({
            "type": "custom_tool_call", "id": format!("ctc_{n}"), "call_id": format!("call_{n}"),
            "name": name, "input": text, "status": "completed"
        }),
        Turn::Tool { name, input } => {
            let mut item = json!({
                "type": "function_call", "id": format!("fc_{n}"), "call_id": format!("call_{n}"),
                "name": name, "arguments": input.to_string(), "status": "completed"
            });
            if let Some((namespace, tool)) = name.split_once('/') {
                item["namespace"] = json!(namespace);
                item["name"] = json!(tool);
            }
            item
        }
        Turn::Text(text) => json!({
            "type": "message", "id": format!("msg_{n}"), "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]
        }),
    };
    let id = format!("resp_{n}");
    start_sse(&mut stream)?;
    let events = [
        json!({"type": "response.created", "response": {"id": id}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        json!({"type": "response.completed", "response": {"id": id, "usage": {
            "input_tokens": usage.input_tokens, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": usage.output_tokens, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": usage.input_tokens + usage.output_tokens}}}),
    ];
    for data in events {
        let name = data["type"].as_str().unwrap_or("").to_string();
        sse_event(&mut stream, Some(&name), &data)?;
    }
    std::io::Write::flush(&mut stream)
}
