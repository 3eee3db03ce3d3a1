//! `loopgate install|uninstall` end to end: the real binary on real git repositories with
//! real pre-existing settings files.

use assert_cmd::Command;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as Process;

/// A Claude Code settings file someone already uses: other hooks, permissions, unknown keys.
const CLAUDE_SETTINGS: &str = r#"{
  "permissions": {
    "allow": [
      "Bash(npm run lint)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "python3 .claude/hooks/check.py"
          }
        ]
      }
    ]
  },
  "statusLine": {
    "type": "command",
    "command": "echo hi"
  }
}
"#;

struct Repo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
}

impl Repo {
    fn new() -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        let home = tmp.path().join("home");
        fs::create_dir_all(&root).unwrap();
        fs::create_dir_all(&home).unwrap();
        let status = Process::new("git")
            .args(["init", "-q"])
            .current_dir(&root)
            .status()
            .unwrap();
        assert!(status.success());
        Repo {
            _tmp: tmp,
            root,
            home,
        }
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.root.join(rel)).unwrap()
    }

    fn loopgate(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        Command::cargo_bin("loopgate")
            .unwrap()
            .args(args)
            .current_dir(&self.root)
            .env("HOME", &self.home)
            .env("NO_COLOR", "1")
            .assert()
    }
}

fn binary() -> PathBuf {
    fs::canonicalize(assert_cmd::cargo::cargo_bin("loopgate")).unwrap()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

#[test]
fn install_claude_merges_into_existing_settings() {
    let repo = Repo::new();
    repo.write(".claude/settings.json", CLAUDE_SETTINGS);
    repo.loopgate(&["install", "claude"]).success();
    let v = json(&repo.read(".claude/settings.json"));
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["permissions", "hooks", "statusLine"]);
    assert_eq!(v["permissions"], json(CLAUDE_SETTINGS)["permissions"]);
    assert_eq!(v["statusLine"], json(CLAUDE_SETTINGS)["statusLine"]);
    let command = format!("{} hook claude", binary().display());
    let pre = v["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert_eq!(
        pre[0]["hooks"][0]["command"],
        "python3 .claude/hooks/check.py"
    );
    assert_eq!(pre[1]["matcher"], "*");
    assert_eq!(pre[1]["hooks"][0]["command"], command.as_str());
    assert_eq!(pre[1]["hooks"][0]["timeout"], 30);
    for event in ["SessionStart", "Stop", "SubagentStop"] {
        let hook = &v["hooks"][event][0]["hooks"][0];
        assert_eq!(hook["command"], command.as_str(), "{event}");
        // Embedded default `[gate] hook_deadline` is 540 s: the agent waits 60 s longer.
        assert_eq!(hook["timeout"], 600, "{event}");
    }
    assert_eq!(repo.read(".gitignore"), ".loopgate/\n");
}

#[test]
fn installing_twice_changes_nothing_the_second_time() {
    let repo = Repo::new();
    repo.write(".claude/settings.json", CLAUDE_SETTINGS);
    repo.write(".gitignore", "target\n");
    repo.loopgate(&["install", "all"]).success();
    let files = [
        ".claude/settings.json",
        ".codex/hooks.json",
        ".codex/config.toml",
        ".cursor/hooks.json",
        ".gemini/settings.json",
        ".github/workflows/loopgate.yml",
        ".gitignore",
    ];
    let first: Vec<String> = files.iter().map(|f| repo.read(f)).collect();
    let again = repo.loopgate(&["install", "all"]).success();
    let second: Vec<String> = files.iter().map(|f| repo.read(f)).collect();
    assert_eq!(first, second);
    assert_eq!(repo.read(".gitignore"), "target\n.loopgate/\n");
    let out = String::from_utf8_lossy(&again.get_output().stdout).into_owned();
    assert!(
        !out.contains("\ninstalled:") && !out.starts_with("installed:"),
        "{out}"
    );
}

#[test]
fn uninstall_restores_the_original_bytes_and_removes_what_install_created() {
    let repo = Repo::new();
    repo.write(".claude/settings.json", CLAUDE_SETTINGS);
    repo.loopgate(&["install", "all"]).success();
    repo.loopgate(&["uninstall", "all"]).success();
    assert_eq!(repo.read(".claude/settings.json"), CLAUDE_SETTINGS);
    for gone in [
        ".codex",
        ".cursor",
        ".gemini",
        ".github/workflows/loopgate.yml",
    ] {
        assert!(!repo.root.join(gone).exists(), "{gone} should be gone");
    }
    // The state directory stays ignored: its files outlive an uninstall.
    assert_eq!(repo.read(".gitignore"), ".loopgate/\n");
    let again = repo.loopgate(&["uninstall", "all"]).success();
    assert!(String::from_utf8_lossy(&again.get_output().stdout).contains("nothing of loopgate's"));
    assert_eq!(repo.read(".claude/settings.json"), CLAUDE_SETTINGS);
}

#[test]
fn uninstall_keeps_a_codex_config_the_user_owns() {
    let repo = Repo::new();
    let config = "# mine\nmodel = \"gpt-5-codex\"\n";
    repo.write(".codex/config.toml", config);
    repo.loopgate(&["install", "codex"]).success();
    let installed = repo.read(".codex/config.toml");
    // Codex 0.169 names the switch `[features] hooks`; `codex_hooks` is deprecated there.
    assert!(installed.contains("\nhooks = true"), "{installed}");
    assert!(!installed.contains("codex_hooks"), "{installed}");
    repo.loopgate(&["uninstall", "codex"]).success();
    assert_eq!(repo.read(".codex/config.toml"), config);
    assert!(!repo.root.join(".codex/hooks.json").exists());
}

#[test]
fn an_unparseable_file_is_refused_and_nothing_is_written() {
    let repo = Repo::new();
    let broken = "{\n  \"hooks\": {,\n}\n";
    repo.write(".claude/settings.json", broken);
    let out = repo.loopgate(&["install", "all"]).code(2);
    let err = stderr(&out);
    assert!(
        err.contains(".claude/settings.json: cannot parse it:"),
        "{err}"
    );
    assert!(err.contains("line 2"), "the parse error is quoted: {err}");
    assert_eq!(repo.read(".claude/settings.json"), broken);
    for untouched in [".gitignore", ".codex", ".cursor", ".gemini", ".github"] {
        assert!(!repo.root.join(untouched).exists(), "{untouched} written");
    }
    let out = repo.loopgate(&["uninstall", "claude"]).code(2);
    assert!(stderr(&out).contains("cannot parse it"));
    assert_eq!(repo.read(".claude/settings.json"), broken);
}

#[test]
fn a_bad_codex_config_is_refused_too() {
    let repo = Repo::new();
    repo.write(".codex/config.toml", "[features\n");
    let out = repo.loopgate(&["install", "codex"]).code(2);
    assert!(
        stderr(&out).contains(".codex/config.toml: cannot parse it"),
        "{}",
        stderr(&out)
    );
    assert!(!repo.root.join(".codex/hooks.json").exists());
}

#[test]
fn codex_install_tells_the_user_to_trust_the_hooks() {
    let repo = Repo::new();
    let out = repo.loopgate(&["install", "codex"]).success();
    assert!(stderr(&out).contains("/hooks"), "{}", stderr(&out));
    let v = json(&repo.read(".codex/hooks.json"));
    assert_eq!(
        v["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        format!("{} hook codex", binary().display()).as_str()
    );
    repo.write(".codex/config.toml", "[features]\nhooks = false\n");
    let out = repo.loopgate(&["install", "codex"]).success();
    assert!(stderr(&out).contains("hooks = false"), "{}", stderr(&out));
    assert_eq!(
        repo.read(".codex/config.toml"),
        "[features]\nhooks = false\n"
    );
}

#[test]
fn timeouts_follow_the_configured_hook_deadline() {
    let repo = Repo::new();
    repo.write(
        "loopgate.toml",
        "version = 1\n\n[gate]\nhook_deadline = \"100s\"\n",
    );
    repo.loopgate(&["install", "gemini"]).success();
    let v = json(&repo.read(".gemini/settings.json"));
    assert_eq!(v["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"], 160_000);
    assert_eq!(v["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"], 30_000);
    repo.write(
        "loopgate.toml",
        "version = 1\n[gate]\nhook_deadline = \"soon\"\n",
    );
    let out = repo.loopgate(&["install", "claude"]).code(2);
    assert!(stderr(&out).contains("loopgate.toml"), "{}", stderr(&out));
}

#[test]
fn global_install_writes_the_users_files_only() {
    let repo = Repo::new();
    repo.loopgate(&["install", "all", "--global"]).success();
    for file in [
        ".claude/settings.json",
        ".codex/hooks.json",
        ".codex/config.toml",
        ".cursor/hooks.json",
        ".gemini/settings.json",
    ] {
        assert!(repo.home.join(file).is_file(), "{file}");
        assert!(!repo.root.join(file).exists(), "{file} in the repo");
    }
    assert!(!repo.root.join(".gitignore").exists());
    assert!(!repo.home.join(".github").exists());
    let cursor = json(&fs::read_to_string(repo.home.join(".cursor/hooks.json")).unwrap());
    assert_eq!(cursor["version"], 1);
    repo.loopgate(&["uninstall", "all", "--global"]).success();
    assert!(!repo.home.join(".claude/settings.json").exists());
    let out = repo.loopgate(&["install", "ci", "--global"]).code(2);
    assert!(stderr(&out).contains("no global form"), "{}", stderr(&out));
}

#[test]
fn ci_workflow_is_written_once_and_a_foreign_one_is_refused() {
    let repo = Repo::new();
    repo.loopgate(&["install", "ci"]).success();
    let text = repo.read(".github/workflows/loopgate.yml");
    assert!(text.contains("fetch-depth: 0"));
    assert!(
        text.contains(r#"loopgate check --against "refs/remotes/origin/${{ github.base_ref }}""#)
    );
    assert!(text.contains("pull_request"));

    let other = Repo::new();
    other.write(".github/workflows/loopgate.yml", "name: mine\n");
    let out = other.loopgate(&["install", "ci"]).code(2);
    assert!(
        stderr(&out).contains("not written by loopgate"),
        "{}",
        stderr(&out)
    );
    assert_eq!(other.read(".github/workflows/loopgate.yml"), "name: mine\n");
    other.loopgate(&["uninstall", "ci"]).success();
    assert_eq!(other.read(".github/workflows/loopgate.yml"), "name: mine\n");
}

#[test]
fn a_binary_path_with_spaces_is_quoted_and_replaces_the_old_entry() {
    let repo = Repo::new();
    repo.loopgate(&["install", "claude"]).success();
    let dir = repo.home.join("my tools");
    fs::create_dir_all(&dir).unwrap();
    let moved = dir.join("loopgate");
    fs::copy(binary(), &moved).unwrap();
    // Another test thread forking while the copy was open for writing leaves a child
    // holding it for a moment (ETXTBSY): wait that out instead of failing on it.
    let mut tries = 0;
    let out = loop {
        match std::process::Command::new(&moved)
            .args(["install", "claude"])
            .current_dir(&repo.root)
            .output()
        {
            Err(e) if e.raw_os_error() == Some(26) && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            other => break other.unwrap(),
        }
    };
    assert!(out.status.success(), "{out:?}");
    let v = json(&repo.read(".claude/settings.json"));
    let expected = format!(
        "'{}' hook claude",
        fs::canonicalize(&moved).unwrap().display()
    );
    assert_eq!(
        v["hooks"]["Stop"].as_array().unwrap().len(),
        1,
        "replaced, not duplicated"
    );
    assert_eq!(
        v["hooks"]["Stop"][0]["hooks"][0]["command"],
        expected.as_str()
    );
}

#[test]
fn install_works_from_a_subdirectory_of_the_repository() {
    let repo = Repo::new();
    let sub = repo.root.join("src/deep");
    fs::create_dir_all(&sub).unwrap();
    Command::cargo_bin("loopgate")
        .unwrap()
        .args(["install", "cursor"])
        .current_dir(&sub)
        .env("HOME", &repo.home)
        .assert()
        .success();
    assert!(repo.root.join(".cursor/hooks.json").is_file());
    assert!(!sub.join(".cursor").exists());
    assert!(Path::new(&repo.root.join(".gitignore")).is_file());
}
