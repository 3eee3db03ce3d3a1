//! Gemini CLI payloads and answers (shapes: tests/fixtures/SOURCES.md).

mod common;

use agents::{AgentKind, Event, Response, ToolCall};
use common::{deny, parsed, rendered};
use serde_json::json;
use std::path::PathBuf;

const A: AgentKind = AgentKind::Gemini;

#[test]
fn shell_runs_in_its_directory_under_the_session_cwd() {
    let input = parsed(A, "before_tool_shell.json");
    assert_eq!(input.session_id.as_deref(), Some("e6f1c2a0-gemini-0001"));
    assert_eq!(
        input.event,
        Event::PreTool {
            call: ToolCall::Shell {
                tool: "run_shell_command".into(),
                command: "npm test".into(),
                cwd: Some(PathBuf::from("/home/dev/app/web")),
            }
        }
    );
}

#[test]
fn file_tools() {
    for (fixture, tool, path) in [
        (
            "before_tool_write_file.json",
            "write_file",
            "/home/dev/app/src/a.ts",
        ),
        (
            "before_tool_replace.json",
            "replace",
            "/home/dev/app/src/b.ts",
        ),
    ] {
        let Event::PreTool {
            call:
                ToolCall::FileWrite {
                    tool: t,
                    paths,
                    content,
                },
        } = parsed(A, fixture).event
        else {
            panic!("{fixture}")
        };
        assert_eq!((t.as_str(), paths), (tool, vec![PathBuf::from(path)]));
        assert!(content.is_some(), "{fixture}");
    }
    assert_eq!(
        parsed(A, "before_tool_read_file.json").event,
        Event::PreTool {
            call: ToolCall::FileRead {
                tool: "read_file".into(),
                path: "/home/dev/app/.env".into()
            }
        }
    );
    let Event::PreTool { call } = parsed(A, "before_tool_mcp.json").event else {
        panic!()
    };
    assert_eq!(
        call,
        ToolCall::Other {
            tool: "mcp__github__list_issues".into(),
            input: json!({"repo": "a/b"})
        }
    );
}

#[test]
fn after_agent_is_the_done_gate() {
    assert_eq!(
        parsed(A, "after_agent.json").event,
        Event::Stop {
            active: false,
            completed: true
        }
    );
    assert_eq!(parsed(A, "session_start.json").event, Event::SessionStart);
}

#[test]
fn before_tool_answers() {
    assert_eq!(
        rendered(A, "BeforeTool", deny("loopgate: gate.tamper")),
        json!({"decision": "deny", "reason": "loopgate: gate.tamper"})
    );
    assert_eq!(
        rendered(
            A,
            "BeforeTool",
            Response::Ask {
                reason: "confirm".into()
            }
        ),
        // A headless Gemini run hangs on an ask, so it is a deny naming the human step.
        json!({"decision": "deny",
               "reason": "a human must approve this first (loopgate cannot ask in a headless Gemini run): confirm",
               "systemMessage": "a human must approve this first (loopgate cannot ask in a headless Gemini run): confirm"})
    );
    assert_eq!(
        rendered(A, "BeforeTool", Response::Allow { reason: None }),
        json!({"decision": "allow"})
    );
    assert_eq!(
        rendered(
            A,
            "BeforeTool",
            Response::Halt {
                reason: "budget".into()
            }
        ),
        json!({"decision": "deny", "reason": "budget", "continue": false, "stopReason": "budget"})
    );
    assert_eq!(agents::render(A, "BeforeTool", &Response::Nothing), None);
}

#[test]
fn after_agent_retry_and_session_context() {
    assert_eq!(
        rendered(
            A,
            "AfterAgent",
            Response::Block {
                reason: "tests fail".into()
            }
        ),
        json!({"decision": "deny", "reason": "tests fail"})
    );
    assert_eq!(agents::render(A, "AfterAgent", &Response::Nothing), None);
    assert_eq!(
        rendered(
            A,
            "SessionStart",
            Response::Context {
                text: "gate on".into()
            }
        ),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "gate on"}})
    );
}

#[test]
fn a_real_before_tool_payload_has_a_jsonl_transcript_and_no_call_id() {
    // Captured from gemini-cli 0.61.0: the chat recording is `.jsonl`, and BeforeTool
    // names no tool call id.
    let input = parsed(A, "before_tool_shell_real.json");
    assert!(input
        .transcript_path
        .as_deref()
        .is_some_and(|p| p.extension().is_some_and(|e| e == "jsonl")));
    assert_eq!(input.tool_use_id, None);
    assert!(matches!(input.event, Event::PreTool { .. }));
}
