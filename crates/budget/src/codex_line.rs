//! Codex rollout JSONL (`$CODEX_HOME/sessions/.../rollout-*.jsonl`, as 0.169.0 writes it):
//! each line is `{"timestamp","ordinal","type","payload"}`.
//!
//! - `token_usage_record` (payload `response_id`, `usage`): one per model response, written
//!   as soon as the response completes, before its tool calls run. This is what is summed,
//!   each `response_id` once.
//! - `event_msg` with payload `type: "token_count"` (`info.total_token_usage`): the thread's
//!   running total, written only after the tools of a response ran. It lags, so it never
//!   decides alone; the largest one stands in when it is above the sum (an older Codex that
//!   writes no usage records).
//! - `response_item` with payload `type` `function_call`, `custom_tool_call` or
//!   `local_shell_call` (`call_id`): a tool call; the usage record after it is the response
//!   that asked for it.
//! - `event_msg` with payload `type: "task_started"`: a new turn.
//!
//! OpenAI counts `input_tokens` including the cached part, and `output_tokens` including
//! reasoning; a budget counts the uncached input plus the output.

use crate::transcript::{ApiUsage, LineKind, RawLine};
use serde::{Deserialize, Deserializer};

#[derive(Deserialize)]
pub(crate) struct Payload {
    #[serde(rename = "type")]
    kind: Option<String>,
    response_id: Option<String>,
    usage: Option<Tokens>,
    call_id: Option<String>,
    info: Option<Info>,
}

#[derive(Deserialize)]
struct Info {
    total_token_usage: Option<Tokens>,
}

#[derive(Deserialize)]
struct Tokens {
    #[serde(default, deserialize_with = "count")]
    input_tokens: u64,
    #[serde(default, deserialize_with = "count")]
    cached_input_tokens: u64,
    #[serde(default, deserialize_with = "count")]
    cache_write_input_tokens: u64,
    #[serde(default, deserialize_with = "count")]
    output_tokens: u64,
}

fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    Ok(Option::<u64>::deserialize(d)?.unwrap_or(0))
}

impl Tokens {
    fn usage(&self) -> ApiUsage {
        ApiUsage {
            input_tokens: self
                .input_tokens
                .saturating_sub(self.cached_input_tokens)
                .saturating_sub(self.cache_write_input_tokens),
            output_tokens: self.output_tokens,
            cache_creation_input_tokens: self.cache_write_input_tokens,
            cache_read_input_tokens: self.cached_input_tokens,
        }
    }
}

pub(crate) fn classify(raw: RawLine) -> LineKind {
    let Some(payload) = raw.payload else {
        return LineKind::Other;
    };
    match (raw.kind.as_deref(), payload.kind.as_deref()) {
        (Some("token_usage_record"), _) => match payload.usage {
            Some(usage) => LineKind::Usage {
                id: payload.response_id,
                usage: usage.usage(),
                calls: Vec::new(),
            },
            None => LineKind::Other,
        },
        (Some("event_msg"), Some("token_count")) => {
            match payload.info.and_then(|i| i.total_token_usage) {
                Some(total) => LineKind::Cumulative(total.usage()),
                None => LineKind::Other,
            }
        }
        (Some("event_msg"), Some("task_started")) => LineKind::Prompt,
        (
            Some("response_item"),
            Some("function_call" | "custom_tool_call" | "local_shell_call"),
        ) => match payload.call_id {
            Some(id) => LineKind::Call(id),
            None => LineKind::Other,
        },
        _ => LineKind::Other,
    }
}

/// One Codex rollout line; the fuzz target's entry point.
pub fn parse_codex_line(line: &[u8]) -> Result<LineKind, String> {
    crate::transcript::parse_line(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::parse_line;

    // Shapes copied from a rollout Codex 0.169.0 wrote against the test server.
    const RECORD: &[u8] = br#"{"timestamp":"2026-11-22T19:38:46.978Z","ordinal":11,"type":"token_usage_record","payload":{"thread_id":"t","turn_id":"u","session_id":"t","root_turn_id":"u","response_id":"resp_1","usage":{"input_tokens":100,"cached_input_tokens":30,"cache_write_input_tokens":0,"output_tokens":20,"reasoning_output_tokens":5,"total_tokens":120},"turn_token_usage":{"input_tokens":100},"thread_token_usage":{"input_tokens":100}}}"#;
    const COUNT: &[u8] = br#"{"timestamp":"t","ordinal":14,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":200,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":40,"reasoning_output_tokens":0,"total_tokens":240},"last_token_usage":{"input_tokens":100},"model_context_window":258400},"rate_limits":{"limit_id":"codex","primary":null}}}"#;
    const CALL: &[u8] = br#"{"timestamp":"t","ordinal":10,"type":"response_item","payload":{"type":"function_call","id":"fc_1","name":"exec_command","arguments":"{\"cmd\":\"ls\"}","call_id":"call_1"}}"#;

    #[test]
    fn a_usage_record_is_one_response() {
        assert_eq!(
            parse_line(RECORD).unwrap(),
            LineKind::Usage {
                id: Some("resp_1".into()),
                usage: ApiUsage {
                    input_tokens: 70,
                    output_tokens: 20,
                    cache_creation_input_tokens: 0,
                    cache_read_input_tokens: 30
                },
                calls: Vec::new(),
            }
        );
    }

    #[test]
    fn token_count_is_a_running_total_and_calls_are_named() {
        let LineKind::Cumulative(total) = parse_line(COUNT).unwrap() else {
            panic!()
        };
        assert_eq!((total.input_tokens, total.output_tokens), (200, 40));
        assert_eq!(parse_line(CALL).unwrap(), LineKind::Call("call_1".into()));
        let empty = br#"{"type":"event_msg","payload":{"type":"token_count","info":null}}"#;
        assert_eq!(parse_line(empty).unwrap(), LineKind::Other);
        let task = br#"{"type":"event_msg","payload":{"type":"task_started","turn_id":"x"}}"#;
        assert_eq!(parse_line(task).unwrap(), LineKind::Prompt);
        let meta =
            br#"{"type":"session_meta","payload":{"id":"x","cwd":"/r","git":{"branch":"main"}}}"#;
        assert_eq!(parse_codex_line(meta).unwrap(), LineKind::Other);
    }
}
