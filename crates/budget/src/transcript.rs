//! What one line of an agent's JSONL transcript means for a budget. One pass of serde reads
//! the fields any of the three formats uses (Claude Code `message`, Codex rollout
//! `payload`, Gemini CLI chat recording `tokens`/`$set`); everything else is skipped
//! without being built. The per-format meaning lives in `claude_line`, `codex_line` and
//! `gemini_line`. A line is read by its own shape, so a file that changes format
//! mid-way is still counted line by line.

use serde::de::{self, Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

/// Token counts as the API reports them for one message.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub struct ApiUsage {
    #[serde(default, deserialize_with = "count")]
    pub input_tokens: u64,
    #[serde(default, deserialize_with = "count")]
    pub output_tokens: u64,
    #[serde(default, deserialize_with = "count")]
    pub cache_creation_input_tokens: u64,
    #[serde(default, deserialize_with = "count")]
    pub cache_read_input_tokens: u64,
}

/// A missing or null count is 0; anything else that is not a non-negative integer makes
/// the line malformed.
fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(Option::<u64>::deserialize(d)?.unwrap_or(0))
}

fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    })
}

/// The budget-relevant meaning of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    /// A model response carrying usage; `id` names the response when the format has one
    /// (Claude `message.id`, Codex `response_id`, Gemini message `id`). `calls` are the
    /// tool calls this very line asked for (Claude `tool_use` blocks).
    Usage {
        id: Option<String>,
        usage: ApiUsage,
        calls: Vec<String>,
    },
    /// A running total of the whole thread (Codex `token_count`): never summed, only the
    /// largest one seen stands in when it is above the sum of the responses.
    Cumulative(ApiUsage),
    /// A tool call whose response's usage is on the next usage line (Codex writes the
    /// `function_call` item, then the `token_usage_record` of the response).
    Call(String),
    /// A user line that a person typed (or a new Codex task): it starts a turn.
    Prompt,
    /// Several lines in one (a Gemini `$set` of the whole message list).
    Many(Vec<LineKind>),
    /// Anything else: tool results, metadata, summaries, sidechain prompts.
    Other,
}

#[derive(Deserialize)]
pub(crate) struct RawLine {
    #[serde(rename = "type")]
    pub(crate) kind: Option<String>,
    #[serde(rename = "isMeta", default)]
    pub(crate) is_meta: Option<bool>,
    #[serde(rename = "isSidechain", default)]
    pub(crate) is_sidechain: Option<bool>,
    #[serde(rename = "isCompactSummary", default)]
    pub(crate) is_compact_summary: Option<bool>,
    /// Claude Code.
    pub(crate) message: Option<RawMessage>,
    /// Codex rollout items.
    pub(crate) payload: Option<crate::codex_line::Payload>,
    /// Gemini CLI messages (read leniently: another format's `id` of another type must
    /// not make its line malformed).
    #[serde(default, deserialize_with = "lenient_string")]
    pub(crate) id: Option<String>,
    pub(crate) tokens: Option<crate::gemini_line::Tokens>,
    #[serde(default)]
    pub(crate) content: Content,
    #[serde(rename = "$set")]
    pub(crate) set: Option<crate::gemini_line::Set>,
}

#[derive(Deserialize)]
pub(crate) struct RawMessage {
    pub(crate) id: Option<String>,
    pub(crate) usage: Option<ApiUsage>,
    #[serde(default)]
    pub(crate) content: Content,
}

/// Whether a message's content is something a person wrote, and the tool calls it asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Content {
    pub(crate) kind: ContentKind,
    /// Ids of `tool_use` blocks.
    pub(crate) calls: Vec<String>,
}

#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) enum ContentKind {
    #[default]
    Absent,
    /// A string, or blocks of which at least one is not a tool result.
    Written,
    /// Only tool results (Claude `tool_result` blocks, Gemini `functionResponse` parts):
    /// the loop feeding tool output back, not a person.
    ToolResults,
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Content, D::Error> {
        d.deserialize_any(ContentVisitor)
    }
}

struct ContentVisitor;

#[derive(Deserialize)]
struct Block {
    #[serde(rename = "type")]
    kind: Option<String>,
    id: Option<String>,
    #[serde(rename = "functionResponse")]
    function_response: Option<IgnoredAny>,
}

impl<'de> Visitor<'de> for ContentVisitor {
    type Value = Content;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("message content")
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Content, E> {
        Ok(Content {
            kind: ContentKind::Written,
            calls: Vec::new(),
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content, A::Error> {
        let mut written = false;
        let mut any = false;
        let mut calls = Vec::new();
        while let Some(block) = seq.next_element::<Option<Block>>()? {
            any = true;
            let Some(block) = block else {
                written = true;
                continue;
            };
            let tool_result =
                block.kind.as_deref() == Some("tool_result") || block.function_response.is_some();
            written |= !tool_result;
            if block.kind.as_deref() == Some("tool_use") {
                calls.extend(block.id);
            }
        }
        let kind = match (any, written) {
            (_, true) => ContentKind::Written,
            (true, false) => ContentKind::ToolResults,
            (false, false) => ContentKind::Absent,
        };
        Ok(Content { kind, calls })
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Content, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Content::default())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Content, E> {
        Ok(Content::default())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Content, E> {
        Ok(Content::default())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Content, E> {
        Ok(Content::default())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Content, E> {
        Ok(Content::default())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Content, E> {
        Ok(Content::default())
    }
}

/// Classify one line (without its newline), whichever agent wrote it. `Err` means the
/// line is not a JSON object of the expected shape; the caller counts it and moves on.
pub fn parse_line(line: &[u8]) -> Result<LineKind, String> {
    let raw: RawLine = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    Ok(classify(raw))
}

pub(crate) fn classify(raw: RawLine) -> LineKind {
    if raw.message.is_some() {
        return crate::claude_line::classify(raw);
    }
    if raw.payload.is_some() {
        return crate::codex_line::classify(raw);
    }
    crate::gemini_line::classify(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assistant_usage_is_read() {
        let line = br#"{"type":"assistant","uuid":"u","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":3,"output_tokens":7,"cache_creation_input_tokens":11,"cache_read_input_tokens":13,"service_tier":"standard","cache_creation":{"ephemeral_5m_input_tokens":11}}}}"#;
        assert_eq!(
            parse_line(line).unwrap(),
            LineKind::Usage {
                id: Some("msg_1".into()),
                usage: ApiUsage {
                    input_tokens: 3,
                    output_tokens: 7,
                    cache_creation_input_tokens: 11,
                    cache_read_input_tokens: 13
                },
                calls: Vec::new(),
            }
        );
    }

    #[test]
    fn missing_and_null_counts_are_zero() {
        let line = br#"{"type":"assistant","message":{"id":"m","usage":{"input_tokens":null,"output_tokens":2}}}"#;
        let LineKind::Usage { usage, .. } = parse_line(line).unwrap() else {
            panic!()
        };
        assert_eq!((usage.input_tokens, usage.output_tokens), (0, 2));
    }

    #[test]
    fn typed_prompts_start_turns_and_tool_results_do_not() {
        let typed = br#"{"type":"user","message":{"role":"user","content":"fix the bug"}}"#;
        let blocks =
            br#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"go"}]}}"#;
        let result = br#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}"#;
        let meta = br#"{"type":"user","isMeta":true,"message":{"role":"user","content":"Caveat"}}"#;
        let side =
            br#"{"type":"user","isSidechain":true,"message":{"role":"user","content":"sub task"}}"#;
        let summary = br#"{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"summary"}}"#;
        assert_eq!(parse_line(typed).unwrap(), LineKind::Prompt);
        assert_eq!(parse_line(blocks).unwrap(), LineKind::Prompt);
        for other in [&result[..], meta, side, summary] {
            assert_eq!(parse_line(other).unwrap(), LineKind::Other);
        }
    }

    #[test]
    fn bad_shapes_are_errors_not_panics() {
        for bad in [
            &b"{"[..],
            b"[1,2]",
            b"\"x\"",
            b"\xff\xfe",
            br#"{"type":"assistant","message":{"usage":{"input_tokens":-1}}}"#,
            br#"{"type":"assistant","message":{"usage":{"input_tokens":"9"}}}"#,
        ] {
            assert!(
                parse_line(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        assert_eq!(
            parse_line(br#"{"type":"summary","summary":"x"}"#).unwrap(),
            LineKind::Other
        );
    }
}
