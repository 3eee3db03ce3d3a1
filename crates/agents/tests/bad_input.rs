//! Bad payloads get a defined answer from every agent's parser, never a panic.

use agents::{AgentKind, Event, ParseError, ToolCall};
use serde_json::json;

fn parse(agent: AgentKind, bytes: &[u8]) -> Result<agents::HookInput, ParseError> {
    agents::parse(agent, bytes)
}

#[test]
fn non_json_and_non_objects_are_errors_with_a_message() {
    for agent in AgentKind::ALL {
        let err = parse(agent, b"not json").unwrap_err();
        assert!(matches!(err, ParseError::NotJson(_)));
        assert!(
            err.to_string().starts_with("the hook input is not JSON"),
            "{err}"
        );
        assert!(matches!(parse(agent, b""), Err(ParseError::NotJson(_))));
        assert!(matches!(
            parse(agent, b"\xff\xfe"),
            Err(ParseError::NotJson(_))
        ));
        for not_object in ["[]", "null", "42", "\"PreToolUse\""] {
            let err = parse(agent, not_object.as_bytes()).unwrap_err();
            assert_eq!(err.to_string(), "the hook input is not a JSON object");
        }
    }
}

#[test]
fn an_object_without_an_event_cannot_be_answered() {
    for agent in AgentKind::ALL {
        for payload in [
            json!({}),
            json!({"hook_event_name": 7}),
            json!({"hook_event_name": ""}),
        ] {
            let err = parse(agent, payload.to_string().as_bytes()).unwrap_err();
            assert!(
                matches!(err, ParseError::NoEvent("hook_event_name")),
                "{agent:?} {payload}"
            );
        }
    }
}

#[test]
fn an_unknown_event_is_other_not_an_error() {
    for agent in AgentKind::ALL {
        let input = parse(agent, br#"{"hook_event_name":"SomethingNew","extra":[1]}"#).unwrap();
        assert_eq!(
            input.event,
            Event::Other {
                name: "SomethingNew".into()
            }
        );
        assert_eq!(input.session_id, None);
        assert_eq!(input.cwd, None);
        assert_eq!(
            agents::render(
                agent,
                "SomethingNew",
                &agents::Response::Deny { reason: "x".into() }
            ),
            None
        );
    }
}

#[test]
fn a_wrong_event_for_the_agent_is_other() {
    // A Claude payload sent to the Cursor and Gemini hooks is not mistaken for their events.
    let claude =
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    for agent in [AgentKind::Cursor, AgentKind::Gemini] {
        assert_eq!(
            parse(agent, claude).unwrap().event,
            Event::Other {
                name: "PreToolUse".into()
            }
        );
    }
}

#[test]
fn fields_of_the_wrong_shape_degrade_alone() {
    let payload = json!({"hook_event_name": "PreToolUse", "session_id": 12, "cwd": ["x"],
        "transcript_path": null, "tool_name": "Bash", "tool_input": "not an object"});
    for agent in [AgentKind::Claude, AgentKind::Codex] {
        let input = parse(agent, payload.to_string().as_bytes()).unwrap();
        assert_eq!(input.session_id, None);
        assert_eq!(input.cwd, None);
        assert_eq!(
            input.event,
            Event::PreTool {
                call: ToolCall::Shell {
                    tool: "Bash".into(),
                    command: String::new(),
                    cwd: None
                }
            }
        );
    }
    let stop = json!({"hook_event_name": "Stop", "stop_hook_active": "yes"});
    assert_eq!(
        parse(AgentKind::Claude, stop.to_string().as_bytes())
            .unwrap()
            .event,
        Event::Stop {
            active: false,
            completed: true
        }
    );
}

#[test]
fn a_missing_tool_name_is_an_unnamed_other_call() {
    for (agent, event) in [
        (AgentKind::Claude, "PreToolUse"),
        (AgentKind::Codex, "PreToolUse"),
        (AgentKind::Gemini, "BeforeTool"),
    ] {
        let payload = json!({"hook_event_name": event});
        let input = parse(agent, payload.to_string().as_bytes()).unwrap();
        assert_eq!(
            input.event,
            Event::PreTool {
                call: ToolCall::Other {
                    tool: String::new(),
                    input: serde_json::Value::Null
                }
            }
        );
    }
}

#[test]
fn a_ten_megabyte_payload_parses() {
    let command = "x".repeat(10 * 1024 * 1024);
    let payload = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}});
    let input = parse(AgentKind::Claude, payload.to_string().as_bytes()).unwrap();
    let Event::PreTool {
        call: ToolCall::Shell { command: got, .. },
    } = input.event
    else {
        panic!()
    };
    assert_eq!(got.len(), 10 * 1024 * 1024);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!(
        "{{\"hook_event_name\":\"PreToolUse\",\"tool_input\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    for agent in AgentKind::ALL {
        assert!(matches!(
            parse(agent, deep.as_bytes()),
            Err(ParseError::NotJson(_))
        ));
    }
}
