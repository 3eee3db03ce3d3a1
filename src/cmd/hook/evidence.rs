//! The hook's evidence: one audit line per attempted tool call and per gate event. A
//! failure to audit is reported on stderr and never changes or delays a decision.

use agents::{HookInput, ToolCall};
use gate::config::Config;
use serde_json::{Map, Value};
use std::path::Path;

/// One attempted tool call as decided.
pub struct Attempt<'a> {
    pub call: &'a ToolCall,
    /// What a refused write would have written, recorded as `input.content`.
    pub attempted: Option<Value>,
    pub decision: &'a str,
    pub rule: &'a str,
    pub reason: &'a str,
    pub extra: Map<String, Value>,
}

pub fn tool_call(root: &Path, config: Option<&Config>, input: &HookInput, attempt: Attempt) {
    let record = audit::Record {
        session: session_of(input),
        agent: input.agent.name().into(),
        event: input.event_name.clone(),
        tool: Some(attempt.call.tool_name().to_string()),
        input: {
            let mut input = serde_json::to_value(attempt.call).unwrap_or(Value::Null);
            if let (Some(content), Some(map)) = (attempt.attempted, input.as_object_mut()) {
                map.insert("content".into(), content);
            }
            input
        },
        decision: Some(attempt.decision.into()),
        rule: Some(attempt.rule.into()),
        reason: Some(attempt.reason.into()),
        extra: attempt.extra,
    };
    append(root, config, record);
}

/// A gate event (stop decisions, session start, ignored events) in the session's
/// repository; outside a repository there is no state directory to write to, so nothing is
/// kept.
pub fn gate_event(
    frame: super::workspace::Frame,
    input: &HookInput,
    rule: &str,
    decision: &str,
    reason: &str,
) {
    match frame {
        Ok(ws) if ws.in_repo => gate_event_in(
            &ws.root,
            Some(&ws.config),
            input,
            rule,
            decision,
            reason,
            Map::new(),
        ),
        Ok(_) => {}
        Err(e) => {
            eprintln!("loopgate: {}", e.message);
            if let Some(root) = &e.root {
                gate_event_in(root, None, input, rule, decision, reason, Map::new());
            }
        }
    }
}

pub fn gate_event_in(
    root: &Path,
    config: Option<&Config>,
    input: &HookInput,
    rule: &str,
    decision: &str,
    reason: &str,
    extra: Map<String, Value>,
) {
    let record = audit::Record {
        session: session_of(input),
        agent: input.agent.name().into(),
        event: input.event_name.clone(),
        tool: None,
        input: Value::Null,
        decision: Some(decision.into()),
        rule: Some(rule.into()),
        reason: Some(reason.into()),
        extra,
    };
    append(root, config, record);
}

pub fn session_of(input: &HookInput) -> String {
    input
        .session_id
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

fn append(root: &Path, config: Option<&Config>, record: audit::Record) {
    gate::evidence::append(root, config, record);
}
