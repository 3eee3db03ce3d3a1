//! Claude Code JSONL: `assistant` lines carry `message.usage` (one line per content block,
//! each repeating the message id); `user` lines a person typed start a turn.

use crate::transcript::{ContentKind, LineKind, RawLine};

pub(crate) fn classify(raw: RawLine) -> LineKind {
    let Some(message) = raw.message else {
        return LineKind::Other;
    };
    match raw.kind.as_deref() {
        Some("assistant") => match message.usage {
            Some(usage) => LineKind::Usage {
                id: message.id,
                usage,
                calls: message.content.calls,
            },
            None => LineKind::Other,
        },
        Some("user") => {
            let flagged = raw.is_meta == Some(true)
                || raw.is_sidechain == Some(true)
                || raw.is_compact_summary == Some(true);
            if !flagged && message.content.kind == ContentKind::Written {
                LineKind::Prompt
            } else {
                LineKind::Other
            }
        }
        _ => LineKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use crate::transcript::{parse_line, LineKind};

    #[test]
    fn the_tool_calls_a_message_asks_for_are_named() {
        let line = br#"{"type":"assistant","message":{"id":"msg_1","content":[{"type":"text","text":"x"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}},{"type":"tool_use","id":"toolu_2","name":"Read","input":{}}],"usage":{"input_tokens":1,"output_tokens":2}}}"#;
        let LineKind::Usage { calls, .. } = parse_line(line).unwrap() else {
            panic!()
        };
        assert_eq!(calls, ["toolu_1", "toolu_2"]);
    }
}
