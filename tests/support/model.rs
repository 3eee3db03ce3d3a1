//! A scripted stand-in for the Anthropic Messages API, on 127.0.0.1:0, so the real Claude
//! Code client can be driven headless and deterministically. Each streaming POST to
//! `/v1/messages` takes the next turn of a script and answers it as server-sent events
//! (message_start, content_block_start/delta/stop, message_delta with usage,
//! message_stop). Every request body is recorded so a test can assert what the model was
//! sent. Plain std networking: one request per connection (`Connection: close`).

use super::http::{read_request, respond_json};
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One assistant turn.
#[derive(Debug, Clone)]
pub enum Turn {
    /// A tool call: `Bash`, `Write`, `Edit`, `Read`, `Agent`, ... with its input.
    Tool { name: String, input: Value },
    /// Plain text; the client ends its turn (and fires Stop).
    Text(String),
}

impl Turn {
    pub fn tool(name: &str, input: Value) -> Turn {
        Turn::Tool {
            name: name.into(),
            input,
        }
    }
    pub fn bash(command: &str) -> Turn {
        Turn::tool(
            "Bash",
            json!({"command": command, "description": "run a command"}),
        )
    }
    pub fn write(path: &str, content: &str) -> Turn {
        Turn::tool("Write", json!({"file_path": path, "content": content}))
    }
    pub fn edit(path: &str, old: &str, new: &str) -> Turn {
        Turn::tool(
            "Edit",
            json!({"file_path": path, "old_string": old, "new_string": new}),
        )
    }
    pub fn text(t: &str) -> Turn {
        Turn::Text(t.into())
    }
}

/// Token usage reported on every turn (so the transcript accumulates real numbers).
#[derive(Debug, Clone, Copy)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Default for Usage {
    fn default() -> Self {
        Usage {
            input_tokens: 100,
            output_tokens: 50,
        }
    }
}

#[derive(Default)]
struct Script {
    main: VecDeque<Turn>,
    /// Requests whose first user message contains the key draw from that lane (subagents).
    lanes: Vec<(String, VecDeque<Turn>)>,
}

#[derive(Default)]
struct Shared {
    script: Script,
    requests: Vec<Value>,
    log: Vec<String>,
    served: HashMap<String, usize>,
}

pub struct ModelServer {
    pub port: u16,
    shared: Arc<Mutex<Shared>>,
    usage: Usage,
}

/// Answer when a lane runs dry: ends the turn, so a stuck loop ends at the bounce budget.
pub const FALLBACK_TEXT: &str = "I have nothing more to do.";

impl ModelServer {
    pub fn start(main: Vec<Turn>) -> ModelServer {
        ModelServer::with_usage(main, Usage::default())
    }

    pub fn with_usage(main: Vec<Turn>, usage: Usage) -> ModelServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the model server");
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Mutex::new(Shared {
            script: Script {
                main: main.into(),
                lanes: Vec::new(),
            },
            ..Default::default()
        }));
        let server = ModelServer {
            port,
            shared: shared.clone(),
            usage,
        };
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let shared = shared.clone();
                std::thread::spawn(move || {
                    if let Err(e) = serve(stream, &shared, usage) {
                        shared
                            .lock()
                            .unwrap()
                            .log
                            .push(format!("connection error: {e}"));
                    }
                });
            }
        });
        server
    }

    /// Turns for requests whose first user message contains `marker` (a subagent's prompt).
    pub fn lane(&self, marker: &str, turns: Vec<Turn>) {
        self.shared
            .lock()
            .unwrap()
            .script
            .lanes
            .push((marker.into(), turns.into()));
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request body received on `/v1/messages` (count_tokens excluded), in order.
    pub fn requests(&self) -> Vec<Value> {
        self.shared.lock().unwrap().requests.clone()
    }

    pub fn log(&self) -> String {
        self.shared.lock().unwrap().log.join("\n")
    }

    pub fn usage(&self) -> Usage {
        self.usage
    }

    /// Turns left unserved in the main lane (a test that expected its script to be used up
    /// can say so).
    pub fn main_left(&self) -> usize {
        self.shared.lock().unwrap().script.main.len()
    }

    /// Every text the model was sent, flattened (message contents, tool results, system
    /// messages), for substring assertions.
    /// The Stop hook reasons the model was sent, in order, each once.
    pub fn stop_feedback(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for text in self.sent_texts() {
            if let Some(reason) = text.strip_prefix("Stop hook feedback:\n") {
                if !out.iter().any(|r| r == reason) {
                    out.push(reason.to_string());
                }
            }
        }
        out
    }

    pub fn sent_texts(&self) -> Vec<String> {
        let mut out = Vec::new();
        for req in self.requests() {
            if let Some(messages) = req.get("messages").and_then(Value::as_array) {
                for m in messages {
                    collect_text(m.get("content").unwrap_or(&Value::Null), &mut out);
                }
            }
        }
        out
    }

    /// The `tool_result` blocks the client sent back in any request, as (is_error, text),
    /// each once.
    pub fn tool_results(&self) -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        let requests = self.requests();
        let messages = requests.iter().flat_map(|r| {
            r.get("messages")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        });
        for m in messages {
            for block in m
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                    let mut texts = Vec::new();
                    collect_text(block.get("content").unwrap_or(&Value::Null), &mut texts);
                    let is_error = block
                        .get("is_error")
                        .and_then(Value::as_bool)
                        .unwrap_or(false);
                    let item = (is_error, texts.join("\n"));
                    if !out.contains(&item) {
                        out.push(item);
                    }
                }
            }
        }
        out
    }
}

pub(crate) fn collect_text(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| collect_text(i, out)),
        Value::Object(map) => {
            if let Some(t) = map.get("text").and_then(Value::as_str) {
                out.push(t.to_string());
            }
            if let Some(c) = map.get("content") {
                collect_text(c, out);
            }
        }
        _ => {}
    }
}

fn first_user_text(body: &Value) -> String {
    let Some(first) = body
        .get("messages")
        .and_then(Value::as_array)
        .and_then(|m| m.first())
    else {
        return String::new();
    };
    let mut texts = Vec::new();
    collect_text(first.get("content").unwrap_or(&Value::Null), &mut texts);
    texts.join("\n")
}

fn serve(mut stream: TcpStream, shared: &Mutex<Shared>, usage: Usage) -> std::io::Result<()> {
    let req = read_request(&mut stream)?;
    let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
    let path = req.path.split('?').next().unwrap_or("").to_string();
    if req.method != "POST" || path != "/v1/messages" {
        shared
            .lock()
            .unwrap()
            .log
            .push(format!("{} {} (harmless answer)", req.method, req.path));
        let answer = if path.ends_with("/count_tokens") {
            json!({"input_tokens": 10})
        } else {
            json!({})
        };
        return respond_json(&mut stream, "200 OK", &answer);
    }
    let model = body.get("model").cloned().unwrap_or(json!("claude-test"));
    let (turn, n, lane) = {
        let mut s = shared.lock().unwrap();
        s.requests.push(body.clone());
        let first = first_user_text(&body);
        let Shared { script, served, .. } = &mut *s;
        let (lane_name, queue) = match script
            .lanes
            .iter_mut()
            .find(|(marker, _)| first.contains(marker.as_str()))
        {
            Some((marker, queue)) => (marker.clone(), queue),
            None => ("main".to_string(), &mut script.main),
        };
        let turn = queue
            .pop_front()
            .unwrap_or_else(|| Turn::text(FALLBACK_TEXT));
        let count = served.entry(lane_name.clone()).or_insert(0);
        *count += 1;
        let n = *count;
        let summary = format!(
            "POST {} lane={lane_name} #{n} stream={} -> {turn:?}",
            req.path,
            body.get("stream").is_some()
        );
        s.log.push(summary);
        (turn, s.requests.len(), lane_name)
    };
    let id =
        format!("msg_{lane}_{n}").replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_");
    let (block, delta, stop_reason) = match &turn {
        Turn::Tool { name, input } => (
            json!({"type": "tool_use", "id": format!("toolu_{n}"), "name": name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": input.to_string()}),
            "tool_use",
        ),
        Turn::Text(t) => (
            json!({"type": "text", "text": ""}),
            json!({"type": "text_delta", "text": t}),
            "end_turn",
        ),
    };
    if body.get("stream").and_then(Value::as_bool) != Some(true) {
        let content = match &turn {
            Turn::Tool { name, input } => {
                json!([{"type": "tool_use", "id": format!("toolu_{n}"), "name": name, "input": input}])
            }
            Turn::Text(t) => json!([{"type": "text", "text": t}]),
        };
        return respond_json(
            &mut stream,
            "200 OK",
            &json!({
                "id": id, "type": "message", "role": "assistant", "model": model, "content": content,
                "stop_reason": stop_reason, "stop_sequence": null,
                "usage": {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
            }),
        );
    }
    write!(stream, "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n")?;
    let events = [
        (
            "message_start",
            json!({"type": "message_start", "message": {
            "id": id, "type": "message", "role": "assistant", "model": model, "content": [],
            "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": usage.input_tokens, "output_tokens": 1,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}}),
        ),
        (
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": block}),
        ),
        (
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        (
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        (
            "message_delta",
            json!({"type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": null},
            "usage": {"output_tokens": usage.output_tokens}}),
        ),
        ("message_stop", json!({"type": "message_stop"})),
    ];
    for (name, data) in events {
        write!(stream, "event: {name}\ndata: {data}\n\n")?;
    }
    stream.flush()
}
