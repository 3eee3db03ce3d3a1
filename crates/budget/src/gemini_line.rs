//! Gemini CLI chat recording (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, as 0.61.0
//! writes it): one message object per line, re-written with the same `id` as it grows
//! (tool calls and results added), and `{"$set": {...}}` lines that update metadata or set
//! the whole `messages` list at once.
//!
//! - `type: "gemini"` with `tokens` {input, output, cached, thoughts, tool, total}: one
//!   model response, counted once per `id`. The line is on disk before the response's
//!   tools are called.
//! - `type: "user"` with text parts: a prompt (a turn); parts that are only
//!   `functionResponse` are tool results.
//!
//! `input` includes the cached part; a budget counts uncached input, tool-use prompt
//! tokens, output and thoughts (that is `total - cached`).

use crate::transcript::{classify as classify_any, ApiUsage, ContentKind, LineKind, RawLine};
use serde::{Deserialize, Deserializer};

#[derive(Deserialize)]
pub(crate) struct Tokens {
    #[serde(default, deserialize_with = "count")]
    input: u64,
    #[serde(default, deserialize_with = "count")]
    output: u64,
    #[serde(default, deserialize_with = "count")]
    cached: u64,
    #[serde(default, deserialize_with = "count")]
    thoughts: u64,
    #[serde(default, deserialize_with = "count")]
    tool: u64,
}

#[derive(Deserialize)]
pub(crate) struct Set {
    messages: Option<Vec<RawLine>>,
}

fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(Option::<u64>::deserialize(d)?.unwrap_or(0))
}

pub(crate) fn classify(raw: RawLine) -> LineKind {
    if let Some(set) = raw.set {
        return match set.messages {
            Some(messages) => LineKind::Many(messages.into_iter().map(classify_any).collect()),
            None => LineKind::Other,
        };
    }
    match (raw.kind.as_deref(), raw.tokens) {
        (Some("gemini"), Some(tokens)) => LineKind::Usage {
            id: raw.id,
            usage: ApiUsage {
                input_tokens: tokens
                    .input
                    .saturating_sub(tokens.cached)
                    .saturating_add(tokens.tool),
                output_tokens: tokens.output.saturating_add(tokens.thoughts),
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: tokens.cached,
            },
            calls: Vec::new(),
        },
        (Some("user"), _) if raw.content.kind == ContentKind::Written => LineKind::Prompt,
        _ => LineKind::Other,
    }
}

/// One Gemini chat-recording line; the fuzz target's entry point.
pub fn parse_gemini_line(line: &[u8]) -> Result<LineKind, String> {
    crate::transcript::parse_line(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::parse_line;

    // Shapes copied from a recording Gemini CLI 0.61.0 wrote against the test server.
    const GEMINI: &[u8] = br#"{"id":"1eb4c1f4","timestamp":"2026-11-22T19:39:19.548Z","type":"gemini","content":"","thoughts":[],"tokens":{"input":100,"output":20,"cached":40,"thoughts":3,"tool":2,"total":125},"model":"gemini-3.1-pro-preview"}"#;

    #[test]
    fn a_response_counts_total_minus_cached() {
        let LineKind::Usage { id, usage, .. } = parse_line(GEMINI).unwrap() else {
            panic!()
        };
        assert_eq!(id.as_deref(), Some("1eb4c1f4"));
        assert_eq!(usage.input_tokens + usage.output_tokens, 85);
        assert_eq!(usage.cache_read_input_tokens, 40);
    }

    #[test]
    fn prompts_tool_results_and_sets() {
        let typed = br#"{"id":"u1","type":"user","content":[{"text":"do the task"}]}"#;
        let result = br#"{"id":"u2","type":"user","content":[{"functionResponse":{"id":"x","name":"run_shell_command","response":{"output":"ok"}}}]}"#;
        assert_eq!(parse_gemini_line(typed).unwrap(), LineKind::Prompt);
        assert_eq!(parse_gemini_line(result).unwrap(), LineKind::Other);
        let meta = br#"{"$set":{"lastUpdated":"2026-11-22T19:39:19.548Z"}}"#;
        assert_eq!(parse_gemini_line(meta).unwrap(), LineKind::Other);
        let head = br#"{"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"}"#;
        assert_eq!(parse_gemini_line(head).unwrap(), LineKind::Other);
        let set = br#"{"$set":{"messages":[{"id":"u","type":"user","content":[{"text":"hi"}]},{"id":"g","type":"gemini","content":"x","tokens":{"input":5,"output":1,"cached":0,"thoughts":0,"tool":0,"total":6}}]}}"#;
        let LineKind::Many(kinds) = parse_gemini_line(set).unwrap() else {
            panic!()
        };
        assert_eq!(kinds.len(), 2);
        assert_eq!(kinds[0], LineKind::Prompt);
    }
}
