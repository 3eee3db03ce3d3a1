//! The pure install/uninstall functions on real-looking settings files.

use agents::install::{self, InstallError, Options, Uninstalled};
use agents::AgentKind;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

const BIN: &str = "/opt/loopgate/bin/loopgate";

fn opts() -> Options {
    Options {
        hook_deadline: Duration::from_secs(540),
    }
}

fn installed(agent: AgentKind, existing: Option<&str>) -> String {
    install::install(agent, existing, Path::new(BIN), &opts()).unwrap()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// A Claude Code project settings file as people write them (2-space JSON, serde layout).
const CLAUDE_SETTINGS: &str = r#"{
  "permissions": {
    "allow": [
      "Bash(npm run lint)"
    ],
    "deny": [
      "Read(./.env)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "python3 .claude/hooks/check.py",
            "timeout": 10
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Write|Edit",
        "hooks": [
          {
            "type": "command",
            "command": "npx prettier --write"
          }
        ]
      }
    ]
  },
  "env": {
    "FOO": "1"
  },
  "someFutureKey": true
}
"#;

#[test]
fn claude_install_adds_its_four_hooks_and_keeps_everything_else() {
    let text = installed(AgentKind::Claude, Some(CLAUDE_SETTINGS));
    let v = json(&text);
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["permissions", "hooks", "env", "someFutureKey"],
        "key order kept"
    );
    assert_eq!(v["permissions"], json(CLAUDE_SETTINGS)["permissions"]);
    assert_eq!(
        v["hooks"]["PostToolUse"],
        json(CLAUDE_SETTINGS)["hooks"]["PostToolUse"]
    );
    let pre = v["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(
        pre[0]["hooks"][0]["command"], "python3 .claude/hooks/check.py",
        "user hook first"
    );
    assert_eq!(
        pre[1],
        json!({"matcher": "*", "hooks": [{"type": "command",
            "command": "/opt/loopgate/bin/loopgate hook claude", "timeout": 30}]})
    );
    for event in ["SessionStart", "Stop", "SubagentStop"] {
        assert_eq!(
            v["hooks"][event],
            json!([{"hooks": [{"type": "command",
                "command": "/opt/loopgate/bin/loopgate hook claude", "timeout": 600}]}]),
            "{event}"
        );
    }
}

#[test]
fn installing_twice_is_installing_once() {
    for agent in AgentKind::ALL {
        let once = installed(agent, Some(CLAUDE_SETTINGS));
        assert_eq!(installed(agent, Some(&once)), once, "{agent:?}");
        let fresh = installed(agent, None);
        assert_eq!(installed(agent, Some(&fresh)), fresh, "{agent:?}");
    }
}

#[test]
fn an_old_install_path_is_replaced_not_duplicated() {
    let old = install::install(
        AgentKind::Claude,
        Some(CLAUDE_SETTINGS),
        Path::new("/old place/loopgate"),
        &opts(),
    )
    .unwrap();
    assert!(old.contains("'/old place/loopgate' hook claude"));
    let new = installed(AgentKind::Claude, Some(&old));
    assert!(!new.contains("old place"));
    assert_eq!(new, installed(AgentKind::Claude, Some(CLAUDE_SETTINGS)));
}

const CURSOR_HOOKS: &str = r#"{
    "version": 1,
    "hooks": {
        "afterFileEdit": [
            {
                "command": "./hooks/format.sh"
            }
        ]
    }
}
"#;

#[test]
fn uninstall_round_trips_byte_for_byte() {
    for agent in AgentKind::ALL {
        // Cursor files always carry `version: 1` (install adds it when missing).
        let original = match agent {
            AgentKind::Cursor => CURSOR_HOOKS,
            _ => CLAUDE_SETTINGS,
        };
        let with = installed(agent, Some(original));
        assert_ne!(with, original);
        assert_eq!(
            install::uninstall(agent, &with).unwrap(),
            Uninstalled::Rewrite(original.to_string()),
            "{agent:?}"
        );
    }
}

#[test]
fn uninstall_leaves_foreign_files_alone_and_removes_files_it_created() {
    for agent in AgentKind::ALL {
        assert_eq!(
            install::uninstall(agent, CLAUDE_SETTINGS).unwrap(),
            Uninstalled::Unchanged
        );
        let created = installed(agent, None);
        assert_eq!(
            install::uninstall(agent, &created).unwrap(),
            Uninstalled::Remove,
            "{agent:?}"
        );
    }
    // Another agent's loopgate entry is not this agent's to remove.
    let claude = installed(AgentKind::Claude, None);
    assert_eq!(
        install::uninstall(AgentKind::Codex, &claude).unwrap(),
        Uninstalled::Unchanged
    );
}

#[test]
fn a_user_hook_sharing_a_group_with_loopgate_survives_uninstall() {
    let shared = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "notify-send done"},
        {"type": "command", "command": "/usr/bin/loopgate hook claude", "timeout": 600}
    ]}]}});
    let text = serde_json::to_string_pretty(&shared).unwrap();
    let Uninstalled::Rewrite(left) = install::uninstall(AgentKind::Claude, &text).unwrap() else {
        panic!()
    };
    assert_eq!(
        json(&left),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}})
    );
}

#[test]
fn codex_hooks_json() {
    let v = json(&installed(AgentKind::Codex, None));
    assert_eq!(
        v,
        json!({"hooks": {
            "SessionStart": [{"hooks": [{"type": "command", "command": "/opt/loopgate/bin/loopgate hook codex", "timeout": 600}]}],
            "PreToolUse": [{"hooks": [{"type": "command", "command": "/opt/loopgate/bin/loopgate hook codex", "timeout": 30}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "/opt/loopgate/bin/loopgate hook codex", "timeout": 600}]}],
            "SubagentStop": [{"hooks": [{"type": "command", "command": "/opt/loopgate/bin/loopgate hook codex", "timeout": 600}]}]
        }})
    );
}

#[test]
fn cursor_hooks_json_is_version_1_and_flat() {
    let v = json(&installed(AgentKind::Cursor, None));
    let cmd = "/opt/loopgate/bin/loopgate hook cursor";
    assert_eq!(
        v,
        json!({"version": 1, "hooks": {
            "sessionStart": [{"command": cmd, "timeout": 600}],
            "beforeShellExecution": [{"command": cmd, "timeout": 30}],
            "beforeMCPExecution": [{"command": cmd, "timeout": 30}],
            "beforeReadFile": [{"command": cmd, "timeout": 30}],
            "afterFileEdit": [{"command": cmd, "timeout": 30}],
            "stop": [{"command": cmd, "timeout": 600}]
        }})
    );
    let mine = r#"{"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}]}}"#;
    let v = json(&installed(AgentKind::Cursor, Some(mine)));
    assert_eq!(
        v["hooks"]["afterFileEdit"][0],
        json!({"command": "./format.sh"})
    );
    assert_eq!(v["hooks"]["afterFileEdit"][1]["command"], cmd);
    let err = install::install(
        AgentKind::Cursor,
        Some(r#"{"version": 2}"#),
        Path::new(BIN),
        &opts(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("version"), "{err}");
}

#[test]
fn gemini_settings_use_milliseconds_and_names() {
    let existing = r#"{"general": {"vimMode": true}, "hooksConfig": {"enabled": true}}"#;
    let v = json(&installed(AgentKind::Gemini, Some(existing)));
    assert_eq!(v["general"], json!({"vimMode": true}));
    assert_eq!(v["hooksConfig"], json!({"enabled": true}));
    let before = &v["hooks"]["BeforeTool"][0];
    assert_eq!(before["matcher"], "*");
    assert_eq!(before["hooks"][0]["name"], "loopgate-BeforeTool");
    assert_eq!(before["hooks"][0]["timeout"], 30_000);
    assert_eq!(
        before["hooks"][0]["command"],
        "/opt/loopgate/bin/loopgate hook gemini"
    );
    assert_eq!(v["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"], 600_000);
    assert!(v["hooks"]["SessionStart"].is_array());
}

#[test]
fn stop_timeouts_outlast_the_configured_deadline() {
    let short = Options {
        hook_deadline: Duration::from_millis(1500),
    };
    assert_eq!(short.long_timeout_secs(), 62);
    let text = install::install(AgentKind::Claude, None, Path::new(BIN), &short).unwrap();
    assert_eq!(json(&text)["hooks"]["Stop"][0]["hooks"][0]["timeout"], 62);
}

#[test]
fn unparseable_or_misshapen_files_are_refused() {
    for agent in AgentKind::ALL {
        let err =
            install::install(agent, Some("{\"hooks\": "), Path::new(BIN), &opts()).unwrap_err();
        assert!(matches!(err, InstallError::Parse(_)));
        assert!(err.to_string().starts_with("cannot parse it: "), "{err}");
        assert!(matches!(
            install::uninstall(agent, "{,}"),
            Err(InstallError::Parse(_))
        ));
        let err =
            install::install(agent, Some(r#"{"hooks": []}"#), Path::new(BIN), &opts()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unexpected shape: `hooks` is not a JSON object"
        );
        assert!(install::install(agent, Some("[]"), Path::new(BIN), &opts()).is_err());
    }
    let err = install::install(
        AgentKind::Claude,
        Some(r#"{"hooks": {"Stop": {"oops": 1}}}"#),
        Path::new(BIN),
        &opts(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "unexpected shape: `hooks.Stop` is not a JSON array"
    );
}
