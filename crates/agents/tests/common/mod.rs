//! Shared by the contract tests: read a fixture and parse it as its agent would send it.

#![allow(dead_code)]

use agents::{AgentKind, HookInput, Response};
use std::path::PathBuf;

pub fn fixture(agent: AgentKind, name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(agent.name())
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn parsed(agent: AgentKind, name: &str) -> HookInput {
    agents::parse(agent, &fixture(agent, name)).expect("fixture parses")
}

/// The rendered answer as JSON (panics when the renderer prints nothing).
pub fn rendered(agent: AgentKind, event: &str, response: Response) -> serde_json::Value {
    let text = agents::render(agent, event, &response).expect("an answer is printed");
    assert!(!text.contains('\n'), "one JSON object on one line: {text}");
    serde_json::from_str(&text).expect("the answer is JSON")
}

pub fn deny(reason: &str) -> Response {
    Response::Deny {
        reason: reason.into(),
    }
}
