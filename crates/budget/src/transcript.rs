//! What one line of a Claude Code JSONL transcript means for a budget. Only the fields
//! that matter are read; everything else is skipped without being built.

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

/// The budget-relevant meaning of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    /// An assistant line carrying usage; `id` is `message.id` when present.
    Usage { id: Option<String>, usage: ApiUsage },
    /// A user line that a person typed: it starts a turn.
    Prompt,
    /// Anything else: tool results, metadata, summaries, sidechain prompts.
    Other,
}

#[derive(Deserialize)]
struct RawLine {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(rename = "isMeta", default)]
    is_meta: Option<bool>,
    #[serde(rename = "isSidechain", default)]
    is_sidechain: Option<bool>,
    #[serde(rename = "isCompactSummary", default)]
    is_compact_summary: Option<bool>,
    message: Option<RawMessage>,
}

#[derive(Deserialize)]
struct RawMessage {
    id: Option<String>,
    usage: Option<ApiUsage>,
    #[serde(default)]
    content: Content,
}

/// Whether a user message's content is something a person wrote.
#[derive(Debug, Default, PartialEq, Eq)]
enum Content {
    #[default]
    Absent,
    /// A string, or blocks of which at least one is not a tool result.
    Written,
    /// Only `tool_result` blocks: the loop feeding tool output back, not a person.
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
}

impl<'de> Visitor<'de> for ContentVisitor {
    type Value = Content;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("message content")
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Content, E> {
        Ok(Content::Written)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content, A::Error> {
        let mut written = false;
        let mut any = false;
        while let Some(block) = seq.next_element::<Option<Block>>()? {
            any = true;
            let tool_result = block.and_then(|b| b.kind).as_deref() == Some("tool_result");
            written |= !tool_result;
        }
        Ok(match (any, written) {
            (_, true) => Content::Written,
            (true, false) => Content::ToolResults,
            (false, false) => Content::Absent,
        })
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Content, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Content::Absent)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Content, E> {
        Ok(Content::Absent)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Content, E> {
        Ok(Content::Absent)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Content, E> {
        Ok(Content::Absent)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Content, E> {
        Ok(Content::Absent)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Content, E> {
        Ok(Content::Absent)
    }
}

/// Classify one line (without its newline). `Err` means the line is not a JSON object of
/// the expected shape; the caller counts it and moves on.
pub fn parse_line(line: &[u8]) -> Result<LineKind, String> {
    let raw: RawLine = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    let Some(message) = raw.message else {
        return Ok(LineKind::Other);
    };
    match raw.kind.as_deref() {
        Some("assistant") => Ok(match message.usage {
            Some(usage) => LineKind::Usage {
                id: message.id,
                usage,
            },
            None => LineKind::Other,
        }),
        Some("user") => {
            let flagged = raw.is_meta == Some(true)
                || raw.is_sidechain == Some(true)
                || raw.is_compact_summary == Some(true);
            if !flagged && message.content == Content::Written {
                Ok(LineKind::Prompt)
            } else {
                Ok(LineKind::Other)
            }
        }
        _ => Ok(LineKind::Other),
    }
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
                }
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
