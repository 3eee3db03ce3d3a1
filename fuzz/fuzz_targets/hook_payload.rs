//! Any bytes on a hook's stdin: every agent's parser must answer (a `HookInput` or a
//! `ParseError`) without panicking, and whatever parses must render every response kind
//! into at most one line holding one JSON object (its validity is pinned by the contract
//! tests in crates/agents/tests).

#![no_main]

use agents::{AgentKind, Response};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let responses = [
        Response::Nothing,
        Response::Allow { reason: None },
        Response::Ask { reason: "a".into() },
        Response::Deny {
            reason: String::new(),
        },
        Response::Halt { reason: "h".into() },
        Response::Block { reason: "b".into() },
        Response::Context { text: "c".into() },
    ];
    for agent in AgentKind::ALL {
        let Ok(input) = agents::parse(agent, data) else {
            continue;
        };
        for response in &responses {
            if let Some(text) = agents::render(agent, &input.event_name, response) {
                assert!(!text.contains('\n'));
                assert!(text.starts_with('{') && text.ends_with('}'));
            }
        }
    }
});
