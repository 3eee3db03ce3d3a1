//! The fuzz target's property (fuzz/fuzz_targets/hook_payload.rs), run as a test: any input
//! parses or errors, and every answer is one line of one JSON object.

use agents::{AgentKind, Response};
use proptest::prelude::*;

fn check(bytes: &[u8]) {
    let responses = [
        Response::Nothing,
        Response::Allow {
            reason: Some("r".into()),
        },
        Response::Ask {
            reason: "a\nb".into(),
        },
        Response::Deny {
            reason: String::new(),
        },
        Response::Halt { reason: "h".into() },
        Response::Block {
            reason: "\"quoted\"".into(),
        },
        Response::Context { text: "c".into() },
    ];
    for agent in AgentKind::ALL {
        let Ok(input) = agents::parse(agent, bytes) else {
            continue;
        };
        for response in &responses {
            if let Some(text) = agents::render(agent, &input.event_name, response) {
                assert!(!text.contains('\n'), "{text}");
                let value: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert!(value.is_object());
            }
        }
    }
}

/// Hook-shaped JSON with the interesting keys holding values of random types.
fn payload() -> impl Strategy<Value = String> {
    let events = prop::sample::select(vec![
        "PreToolUse",
        "Stop",
        "SubagentStop",
        "SessionStart",
        "BeforeTool",
        "AfterAgent",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "afterFileEdit",
        "stop",
        "preToolUse",
        "sessionStart",
        "Other",
    ]);
    let tools = prop::sample::select(vec![
        "Bash",
        "Write",
        "Edit",
        "MultiEdit",
        "NotebookEdit",
        "Read",
        "apply_patch",
        "shell",
        "run_shell_command",
        "write_file",
        "replace",
        "read_file",
        "Shell",
        "Delete",
        "mcp__x__y",
    ]);
    let value = prop_oneof![
        Just("null".to_string()),
        Just("true".to_string()),
        Just("[\"bash\",\"-lc\",\"ls\"]".to_string()),
        Just("{\"command\":\"*** Update File: a\",\"file_path\":\"/x\"}".to_string()),
        "[a-z /*:.]{0,20}".prop_map(|s| format!("{s:?}")),
        any::<i64>().prop_map(|n| n.to_string()),
    ];
    (events, tools, value.clone(), value.clone(), value).prop_map(|(e, t, a, b, c)| {
        format!(
            "{{\"hook_event_name\":\"{e}\",\"tool_name\":\"{t}\",\"tool_input\":{a},\
             \"cwd\":{b},\"status\":{c},\"workspace_roots\":{a},\"loop_count\":{c},\
             \"command\":{b},\"file_path\":{a},\"stop_hook_active\":{c}}}"
        )
    })
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check(&bytes);
    }

    #[test]
    fn hook_shaped_payloads_never_panic(text in payload()) {
        check(text.as_bytes());
    }
}
