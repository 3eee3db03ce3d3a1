//! Cursor payloads and answers (shapes: tests/fixtures/SOURCES.md).

mod common;

use agents::{AgentKind, Event, Response, ToolCall};
use common::{deny, parsed, rendered};
use serde_json::json;
use std::path::PathBuf;

const A: AgentKind = AgentKind::Cursor;

#[test]
fn shell_execution_uses_its_own_cwd_and_conversation_id() {
    let input = parsed(A, "before_shell_execution.json");
    assert_eq!(
        input.session_id.as_deref(),
        Some("668320d2-2fd8-4888-b33c-2a466fec86e7")
    );
    assert_eq!(input.cwd, Some(PathBuf::from("/home/dev/app/web")));
    assert_eq!(
        input.event,
        Event::PreTool {
            call: ToolCall::Shell {
                tool: "Shell".into(),
                command: "npm install express".into(),
                cwd: Some(PathBuf::from("/home/dev/app/web")),
            }
        }
    );
}

#[test]
fn mcp_read_edit_and_session_start() {
    let input = parsed(A, "before_mcp_execution.json");
    // No cwd in the payload: the first workspace root stands in.
    assert_eq!(input.cwd, Some(PathBuf::from("/home/dev/app")));
    assert_eq!(
        input.event,
        Event::PreTool {
            call: ToolCall::Other {
                tool: "database_query".into(),
                input: json!({"query": "SELECT * FROM users"}),
            }
        }
    );
    assert_eq!(
        parsed(A, "before_read_file.json").event,
        Event::PreTool {
            call: ToolCall::FileRead {
                tool: "Read".into(),
                path: "/home/dev/app/secrets.env".into()
            }
        }
    );
    assert_eq!(
        parsed(A, "after_file_edit.json").event,
        Event::PostEdit {
            paths: vec![PathBuf::from("/home/dev/app/src/main.ts")]
        }
    );
    assert_eq!(parsed(A, "session_start.json").event, Event::SessionStart);
}

#[test]
fn only_a_completed_stop_is_gated() {
    assert_eq!(
        parsed(A, "stop_completed.json").event,
        Event::Stop {
            active: false,
            completed: true
        }
    );
    assert_eq!(
        parsed(A, "stop_aborted.json").event,
        Event::Stop {
            active: true,
            completed: false
        }
    );
    let no_status = json!({"hook_event_name": "stop", "conversation_id": "c"});
    assert_eq!(
        agents::parse(A, no_status.to_string().as_bytes())
            .unwrap()
            .event,
        Event::Stop {
            active: false,
            completed: true
        }
    );
}

#[test]
fn permission_answers() {
    for event in ["beforeShellExecution", "beforeMCPExecution"] {
        assert_eq!(
            rendered(A, event, deny("loopgate: fs.escape")),
            json!({"permission": "deny", "user_message": "loopgate: fs.escape",
                "agent_message": "loopgate: fs.escape"})
        );
        assert_eq!(
            rendered(
                A,
                event,
                Response::Ask {
                    reason: "check".into()
                }
            ),
            json!({"permission": "ask", "user_message": "check", "agent_message": "check"})
        );
        assert_eq!(
            rendered(A, event, Response::Allow { reason: None }),
            json!({"permission": "allow"})
        );
        assert_eq!(agents::render(A, event, &Response::Nothing), None);
    }
    // beforeReadFile honours only allow|deny: an ask is a deny there.
    assert_eq!(
        rendered(
            A,
            "beforeReadFile",
            Response::Ask {
                reason: "secret?".into()
            }
        ),
        json!({"permission": "deny", "user_message": "secret?", "agent_message": "secret?"})
    );
}

#[test]
fn stop_followup_and_record_only_edits() {
    assert_eq!(
        rendered(
            A,
            "stop",
            Response::Block {
                reason: "2 checks fail".into()
            }
        ),
        json!({"followup_message": "2 checks fail"})
    );
    assert_eq!(agents::render(A, "stop", &Response::Nothing), None);
    assert_eq!(agents::render(A, "afterFileEdit", &deny("x")), None);
    assert_eq!(
        rendered(
            A,
            "sessionStart",
            Response::Context {
                text: "gate on".into()
            }
        ),
        json!({"additional_context": "gate on"})
    );
}
