//! A scripted stand-in for the Gemini API (`models/<m>:streamGenerateContent?alt=sse`), on
//! 127.0.0.1:0, for the real Gemini CLI. A tool turn becomes a `functionCall` part; every
//! response reports the same `usageMetadata`. The CLI's routing call
//! (`models/<m>:generateContent`, asking which model a task needs) gets a fixed JSON
//! classification and does not consume a turn.

use super::http::{read_request, respond_json, sse_event, start_sse};
use super::model::{Turn, Usage};
use super::script::Script;
use serde_json::json;
use std::net::TcpStream;

pub struct GeminiServer {
    pub port: u16,
    pub script: Script,
}

impl GeminiServer {
    pub fn start(turns: Vec<Turn>, usage: Usage) -> GeminiServer {
        let (port, script) = super::script::start_server(turns, usage, serve);
        GeminiServer { port, script }
    }

    /// `GOOGLE_GEMINI_BASE_URL`.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

fn serve(mut stream: TcpStream, script: &Script, usage: Usage) -> std::io::Result<()> {
    let req = read_request(&mut stream)?;
    let route = req.route().to_string();
    if route.ends_with(":streamGenerateContent") {
        let (turn, n) = script.next(&route, req.json());
        let part = match &turn {
            Turn::Tool { name, input } => json!({"functionCall": {"name": name, "args": input}}),
            Turn::Text(text) => json!({ "text": text }),
        };
        start_sse(&mut stream)?;
        let data = json!({
            "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": usage.input_tokens, "candidatesTokenCount": usage.output_tokens,
                              "totalTokenCount": usage.input_tokens + usage.output_tokens},
            "modelVersion": "gemini-2.5-pro", "responseId": format!("r{n}")
        });
        sse_event(&mut stream, None, &data)?;
        return std::io::Write::flush(&mut stream);
    }
    script.note(format!(
        "{} {} (routing or harmless answer)",
        req.method, req.path
    ));
    if route.ends_with(":generateContent") {
        // Both classifier shapes 0.61.0 may ask for; each strategy reads its own keys.
        let choice = json!({"reasoning": "a bounded task", "model_choice": "flash",
                            "complexity_reasoning": "a bounded task", "complexity_score": 10});
        return respond_json(
            &mut stream,
            "200 OK",
            &json!({
                "candidates": [{"content": {"role": "model", "parts": [{"text": choice.to_string()}]},
                                "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 0, "candidatesTokenCount": 0, "totalTokenCount": 0}
            }),
        );
    }
    if route.ends_with(":countTokens") {
        return respond_json(&mut stream, "200 OK", &json!({"totalTokens": 10}));
    }
    respond_json(&mut stream, "200 OK", &json!({}))
}
