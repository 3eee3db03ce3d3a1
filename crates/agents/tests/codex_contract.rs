//! Codex payloads and answers (shapes: tests/fixtures/SOURCES.md).

mod common;

use agents::{AgentKind, Event, Response, ToolCall};
use common::{deny, parsed, rendered};
use serde_json::json;
use std::path::PathBuf;

const A: AgentKind = AgentKind::Codex;

#[test]
fn session_and_shell_call() {
    let start = parsed(A, "session_start.json");
    assert_eq!(start.event, Event::SessionStart);
    assert_eq!(
        start.session_id.as_deref(),
        Some("019a6b2c-codex-thread-0001")
    );
    let input = parsed(A, "pre_tool_use_bash.json");
    assert_eq!(
        input.event,
        Event::PreTool {
            call: ToolCall::Shell {
                tool: "Bash".into(),
                command: "git status --short".into(),
                cwd: Some(PathBuf::from("/home/dev/app")),
            }
        }
    );
    assert!(input
        .transcript_path
        .unwrap()
        .ends_with("rollout-019a6b2c-codex-thread-0001.jsonl"));
}

#[test]
fn apply_patch_names_every_path_of_the_envelope() {
    let Event::PreTool { call } = parsed(A, "pre_tool_use_apply_patch.json").event else {
        panic!()
    };
    let ToolCall::FileWrite {
        tool,
        paths,
        content,
    } = call
    else {
        panic!("{call:?}")
    };
    assert_eq!(tool, "apply_patch");
    assert_eq!(
        paths,
        [
            "docs/new.md",
            "src/lib.rs",
            "src/core.rs",
            "tests/old_test.rs"
        ]
        .map(PathBuf::from)
        .to_vec()
    );
    // The patch itself is kept for the audit of a refusal.
    assert!(content
        .and_then(|c| c.as_str().map(|s| s.contains("*** Begin Patch")))
        .unwrap_or(false));
}

#[test]
fn mcp_tools_keep_their_input() {
    let Event::PreTool { call } = parsed(A, "pre_tool_use_mcp.json").event else {
        panic!()
    };
    assert_eq!(call.tool_name(), "mcp__memory__create_entities");
    assert!(matches!(call, ToolCall::Other { input, .. } if input["entities"][0]["name"] == "x"));
}

#[test]
fn older_argv_shell_calls_are_read_as_their_script() {
    let payload = json!({"hook_event_name": "PreToolUse", "tool_name": "shell",
        "tool_input": {"command": ["bash", "-lc", "rm -rf build"], "workdir": "sub"},
        "cwd": "/repo"});
    let input = agents::parse(A, payload.to_string().as_bytes()).unwrap();
    assert_eq!(
        input.event,
        Event::PreTool {
            call: ToolCall::Shell {
                tool: "shell".into(),
                command: "rm -rf build".into(),
                cwd: Some(PathBuf::from("/repo/sub")),
            }
        }
    );
    let payload = json!({"hook_event_name": "PreToolUse", "tool_name": "exec",
        "tool_input": {"command": ["git", "commit", "-m", "a b"]}});
    let Event::PreTool {
        call: ToolCall::Shell { command, .. },
    } = agents::parse(A, payload.to_string().as_bytes())
        .unwrap()
        .event
    else {
        panic!()
    };
    assert_eq!(command, "git commit -m 'a b'");
}

#[test]
fn stops() {
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
            agent_id: Some("019a6b2c-child-0002".into()),
            active: false
        }
    );
}

#[test]
fn pre_tool_use_only_ever_denies() {
    let denied = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "loopgate: no"}});
    assert_eq!(rendered(A, "PreToolUse", deny("loopgate: no")), denied);
    assert_eq!(
        rendered(
            A,
            "PreToolUse",
            Response::Halt {
                reason: "loopgate: no".into()
            }
        ),
        denied
    );
    // Codex rejects `ask` as unsupported and would then run the call: ask fails closed.
    let asked = rendered(
        A,
        "PreToolUse",
        Response::Ask {
            reason: "unresolved target".into(),
        },
    );
    assert_eq!(asked["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(
        asked["hookSpecificOutput"]["permissionDecisionReason"],
        "a human must approve this first (Codex hooks cannot ask): unresolved target"
    );
    // `allow` without updatedInput is rejected by Codex: say nothing instead.
    assert_eq!(
        agents::render(A, "PreToolUse", &Response::Allow { reason: None }),
        None
    );
    assert_eq!(agents::render(A, "PreToolUse", &Response::Nothing), None);
}

#[test]
fn stops_always_answer_json() {
    for event in ["Stop", "SubagentStop"] {
        assert_eq!(rendered(A, event, Response::Nothing), json!({}));
        assert_eq!(
            rendered(A, event, Response::Allow { reason: None }),
            json!({})
        );
        assert_eq!(
            rendered(
                A,
                event,
                Response::Block {
                    reason: "fix the test".into()
                }
            ),
            json!({"decision": "block", "reason": "fix the test"})
        );
        assert_eq!(
            rendered(
                A,
                event,
                Response::Halt {
                    reason: "budget".into()
                }
            ),
            json!({"continue": false, "stopReason": "budget"})
        );
    }
}

#[test]
fn session_start_context() {
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
fn a_real_exec_command_payload_names_its_call() {
    // Captured from codex-cli 0.169.0: `exec_command {cmd, workdir}` arrives as `Bash`
    // with the command only; `cwd` is the tool's workdir, `tool_use_id` the call id the
    // rollout's `function_call` item carries.
    let input = parsed(A, "pre_tool_use_exec_command_real.json");
    assert_eq!(input.tool_use_id.as_deref(), Some("call_1"));
    let Event::PreTool {
        call: ToolCall::Shell { command, cwd, .. },
    } = input.event
    else {
        panic!()
    };
    assert_eq!(command, "echo hello > out.txt");
    assert_eq!(cwd, Some(PathBuf::from("/tmp")));
}
