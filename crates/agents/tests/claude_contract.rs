//! Claude Code payloads and answers (shapes: tests/fixtures/SOURCES.md).

mod common;

use agents::{AgentKind, Event, Response, ToolCall};
use common::{deny, parsed, rendered};
use serde_json::json;
use std::path::PathBuf;

const A: AgentKind = AgentKind::Claude;

#[test]
fn session_start_carries_session_cwd_and_transcript() {
    let input = parsed(A, "session_start.json");
    assert_eq!(input.event, Event::SessionStart);
    assert_eq!(input.event_name, "SessionStart");
    assert_eq!(
        input.session_id.as_deref(),
        Some("a1b2c3d4-0000-4000-8000-claude000001")
    );
    assert_eq!(input.cwd, Some(PathBuf::from("/home/dev/app")));
    assert!(input
        .transcript_path
        .unwrap()
        .ends_with("a1b2c3d4-0000-4000-8000-claude000001.jsonl"));
}

#[test]
fn bash_is_a_shell_call_in_the_session_cwd() {
    let input = parsed(A, "pre_tool_use_bash.json");
    assert_eq!(
        input.event,
        Event::PreTool {
            call: ToolCall::Shell {
                tool: "Bash".into(),
                command: "cargo test --quiet 2>&1 | tail -n 20".into(),
                cwd: Some(PathBuf::from("/home/dev/app")),
            }
        }
    );
}

#[test]
fn every_file_tool_names_its_path() {
    for (fixture, tool, path) in [
        (
            "pre_tool_use_write.json",
            "Write",
            "/home/dev/app/src/new.rs",
        ),
        ("pre_tool_use_edit.json", "Edit", "/home/dev/app/src/lib.rs"),
        (
            "pre_tool_use_multiedit.json",
            "MultiEdit",
            "/home/dev/app/src/lib.rs",
        ),
        (
            "pre_tool_use_notebook_edit.json",
            "NotebookEdit",
            "/home/dev/app/nb.ipynb",
        ),
    ] {
        let Event::PreTool { call } = parsed(A, fixture).event else {
            panic!("{fixture}")
        };
        let ToolCall::FileWrite {
            tool: t,
            paths,
            content,
        } = call
        else {
            panic!("{fixture}: {call:?}")
        };
        assert_eq!(
            (t.as_str(), paths),
            (tool, vec![PathBuf::from(path)]),
            "{fixture}"
        );
        // The attempted content is kept for the audit of a refusal.
        assert!(content.is_some_and(|c| c.is_object()), "{fixture}");
    }
    let Event::PreTool { call } = parsed(A, "pre_tool_use_read.json").event else {
        panic!()
    };
    assert_eq!(
        call,
        ToolCall::FileRead {
            tool: "Read".into(),
            path: "/home/dev/app/.env".into()
        }
    );
}

#[test]
fn other_tools_keep_their_raw_input() {
    let Event::PreTool { call } = parsed(A, "pre_tool_use_mcp.json").event else {
        panic!()
    };
    assert_eq!(
        call,
        ToolCall::Other {
            tool: "mcp__github__create_issue".into(),
            input: json!({"title": "t", "body": "b"}),
        }
    );
}

#[test]
fn stop_and_subagent_stop() {
    assert_eq!(
        parsed(A, "stop.json").event,
        Event::Stop {
            active: false,
            completed: true
        }
    );
    assert_eq!(
        parsed(A, "subagent_stop.json").event,
        Event::SubagentStop {
            agent_id: Some("agent-7f3e".into()),
            active: true
        }
    );
}

#[test]
fn pre_tool_use_answers() {
    assert_eq!(
        rendered(A, "PreToolUse", deny("loopgate: gate.tamper")),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "loopgate: gate.tamper"}})
    );
    assert_eq!(
        rendered(
            A,
            "PreToolUse",
            Response::Ask {
                reason: "why".into()
            }
        ),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "ask", "permissionDecisionReason": "why"}})
    );
    assert_eq!(
        rendered(
            A,
            "PreToolUse",
            Response::Allow {
                reason: Some("rule".into())
            }
        ),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "allow", "permissionDecisionReason": "rule"}})
    );
    assert_eq!(
        rendered(A, "PreToolUse", Response::Allow { reason: None }),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}})
    );
    assert_eq!(
        rendered(
            A,
            "PreToolUse",
            Response::Halt {
                reason: "budget".into()
            }
        ),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "budget"},
            "continue": false, "stopReason": "budget"})
    );
    assert_eq!(agents::render(A, "PreToolUse", &Response::Nothing), None);
}

#[test]
fn stop_answers() {
    for event in ["Stop", "SubagentStop"] {
        assert_eq!(
            rendered(
                A,
                event,
                Response::Block {
                    reason: "test failed (attempt 1/3)".into()
                }
            ),
            json!({"decision": "block", "reason": "test failed (attempt 1/3)"})
        );
        assert_eq!(
            rendered(
                A,
                event,
                Response::Halt {
                    reason: "budget spent".into()
                }
            ),
            json!({"continue": false, "stopReason": "budget spent"})
        );
        assert_eq!(agents::render(A, event, &Response::Nothing), None);
        assert_eq!(
            agents::render(A, event, &Response::Allow { reason: None }),
            None
        );
    }
    // A blank reason would be dropped by the agent: a refusal always carries words.
    assert_eq!(
        rendered(A, "Stop", Response::Block { reason: " ".into() }),
        json!({"decision": "block", "reason": "refused by loopgate"})
    );
}

#[test]
fn session_start_context() {
    assert_eq!(
        rendered(
            A,
            "SessionStart",
            Response::Context {
                text: "loopgate is active".into()
            }
        ),
        json!({"hookSpecificOutput": {"hookEventName": "SessionStart",
            "additionalContext": "loopgate is active"}})
    );
    assert_eq!(agents::render(A, "Notification", &deny("x")), None);
}
