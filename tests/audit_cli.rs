//! `loopgate audit` end to end: a real git repo in a temp dir, lines written with the
//! audit library (as the hooks will), the real binary reading them.

use assert_cmd::Command;
use audit::{AuditLog, AuditSettings, Record};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};

const WRITER_ENV: &str = "LOOPGATE_AUDIT_TEST_WRITER";
const WRITES_PER_PROCESS: usize = 60;

fn repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let ok = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(tmp.path())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        fs::create_dir(tmp.path().join(".git")).unwrap();
    }
    tmp
}

fn log_in(root: &Path, settings: AuditSettings) -> AuditLog {
    AuditLog::new(&root.join(".loopgate"), settings)
}

fn record(session: &str, decision: &str, rule: Option<&str>) -> Record {
    Record {
        session: session.into(),
        agent: "claude".into(),
        event: "PreToolUse".into(),
        tool: Some("Bash".into()),
        input: json!({"command": "git push --force"}),
        decision: Some(decision.into()),
        rule: rule.map(str::to_string),
        reason: rule.map(|r| format!("refused by {r}")),
        ..Record::default()
    }
}

fn write_three(root: &Path) -> PathBuf {
    let log = log_in(root, AuditSettings::default());
    log.append(record("s1", "allow", None)).unwrap();
    log.append(record("s1", "deny", Some("git.destructive")))
        .unwrap();
    log.append(record("s2", "allow", None)).unwrap();
    log.path()
}

fn loopgate(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("loopgate").unwrap();
    cmd.arg("-C").arg(dir).env("NO_COLOR", "1");
    cmd
}

fn stdout_of(cmd: &mut Command, code: i32) -> String {
    let out = cmd.assert().code(code).get_output().clone();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn an_intact_log_verifies_from_any_subdirectory() {
    let repo = repo();
    write_three(repo.path());
    let sub = repo.path().join("src/deep");
    fs::create_dir_all(&sub).unwrap();
    let out = stdout_of(loopgate(&sub).args(["audit", "verify"]), 0);
    assert!(
        out.contains("audit log intact: 3 line(s) in 1 file(s), last seq 3"),
        "{out}"
    );
    let json: Value = serde_json::from_str(&stdout_of(
        loopgate(repo.path()).args(["audit", "verify", "--json"]),
        0,
    ))
    .unwrap();
    assert_eq!(json["intact"], true);
    assert_eq!(json["lines"], 3);
    assert_eq!(json["broken"], Value::Null);
}

#[test]
fn no_log_yet_is_nothing_to_verify() {
    let repo = repo();
    let out = stdout_of(loopgate(repo.path()).args(["audit", "verify"]), 0);
    assert_eq!(out.trim(), "no audit log yet: nothing to verify");
    assert_eq!(
        stdout_of(loopgate(repo.path()).args(["audit", "tail"]), 0),
        ""
    );
    let stats: Value = serde_json::from_str(&stdout_of(
        loopgate(repo.path()).args(["audit", "stats", "--json"]),
        0,
    ))
    .unwrap();
    assert_eq!(stats["lines"], 0);
    assert!(
        !repo.path().join(".loopgate").exists(),
        "reading never creates state"
    );
}

fn damaged(damage: impl Fn(&str) -> String) -> (tempfile::TempDir, String, Value) {
    let repo = repo();
    let path = write_three(repo.path());
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, damage(&text)).unwrap();
    let human = stdout_of(loopgate(repo.path()).args(["audit", "verify"]), 3);
    let json = serde_json::from_str(&stdout_of(
        loopgate(repo.path()).args(["audit", "verify", "--json"]),
        3,
    ))
    .unwrap();
    (repo, human, json)
}

#[test]
fn an_edited_line_is_named() {
    let (_repo, human, json) = damaged(|t| t.replacen("\"deny\"", "\"allow\"", 1));
    assert!(human.contains("audit log broken:"), "{human}");
    assert!(
        human.contains("audit.ndjson:2: edited: the line's content does not match its hash"),
        "{human}"
    );
    assert_eq!(json["broken"]["line"], 2);
    assert_eq!(json["broken"]["kind"], "edited");
    assert_eq!(json["intact"], false);
}

#[test]
fn a_deleted_line_is_named() {
    let (_repo, human, json) = damaged(|t| {
        let lines: Vec<&str> = t.lines().collect();
        format!("{}\n{}\n", lines[0], lines[2])
    });
    assert!(
        human.contains("audit.ndjson:2: deleted: seq jumps from 1 to 3: 1 line(s) missing"),
        "{human}"
    );
    assert_eq!(json["broken"]["kind"], "deleted");
}

#[test]
fn a_truncated_file_is_named() {
    let (_repo, human, json) = damaged(|t| t[..t.len() - 25].to_string());
    assert!(human.contains("audit.ndjson:3: truncated:"), "{human}");
    assert_eq!(json["broken"]["line"], 3);
    assert_eq!(json["lines"], 2);
}

#[test]
fn rotation_from_the_config_keeps_the_chain() {
    let repo = repo();
    fs::write(
        repo.path().join("loopgate.toml"),
        "version = 1\n[audit]\nmax_bytes = \"2KiB\"\nkeep = 2\n",
    )
    .unwrap();
    let log = log_in(
        repo.path(),
        AuditSettings {
            max_bytes: 2048,
            keep: 2,
            max_field_bytes: 4096,
        },
    );
    for i in 0..40 {
        log.append(record(&format!("s{}", i % 3), "allow", None))
            .unwrap();
    }
    let json: Value = serde_json::from_str(&stdout_of(
        loopgate(repo.path()).args(["audit", "verify", "--json"]),
        0,
    ))
    .unwrap();
    assert_eq!(json["files"].as_array().unwrap().len(), 3, "{json}");
    assert_eq!(json["last_seq"], 40);
    // Removing the middle generation breaks the chain at the next file's first line.
    fs::remove_file(repo.path().join(".loopgate/audit.1.ndjson")).unwrap();
    let human = stdout_of(loopgate(repo.path()).args(["audit", "verify"]), 3);
    assert!(human.contains("audit.ndjson:1: deleted:"), "{human}");
}

#[test]
fn tail_and_stats_report_what_happened() {
    let repo = repo();
    write_three(repo.path());
    let tail: Value = serde_json::from_str(&stdout_of(
        loopgate(repo.path()).args(["audit", "tail", "-n", "2", "--json"]),
        0,
    ))
    .unwrap();
    let seqs: Vec<u64> = tail
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(seqs, vec![2, 3]);
    let human = stdout_of(loopgate(repo.path()).args(["audit", "tail"]), 0);
    assert_eq!(human.lines().count(), 3);
    assert!(
        human.contains(
            "#2 s1 claude PreToolUse Bash deny [git.destructive] refused by git.destructive"
        ),
        "{human}"
    );
    let stats: Value = serde_json::from_str(&stdout_of(
        loopgate(repo.path()).args(["audit", "stats", "--json"]),
        0,
    ))
    .unwrap();
    assert_eq!(stats["attempts"], 3);
    assert_eq!(stats["denials_by_rule"]["git.destructive"], 1);
    assert_eq!(stats["sessions"]["s1"]["denials"], 1);
    assert_eq!(stats["sessions"]["s2"]["attempts"], 1);
    let human = stdout_of(loopgate(repo.path()).args(["audit", "stats"]), 0);
    assert!(human.contains("git.destructive: 1"), "{human}");
}

#[test]
fn a_bad_config_is_exit_2() {
    let repo = repo();
    write_three(repo.path());
    fs::write(
        repo.path().join("loopgate.toml"),
        "version = 1\n[audit]\nkeep = 0\n",
    )
    .unwrap();
    let out = loopgate(repo.path())
        .args(["audit", "verify"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("[audit] keep = 0 is out of range: it must be between 1 and 100"));
}

/// Not a test on its own: the body of each concurrent writer process below.
#[test]
fn writer_child() {
    let Ok(root) = std::env::var(WRITER_ENV) else {
        return;
    };
    let id = std::process::id();
    let log = log_in(
        Path::new(&root),
        AuditSettings {
            max_bytes: 16 * 1024,
            keep: 100,
            max_field_bytes: 4096,
        },
    );
    for _ in 0..WRITES_PER_PROCESS {
        log.append(record(&format!("p{id}"), "allow", None))
            .unwrap();
    }
}

#[test]
fn concurrent_processes_lose_and_tear_nothing() {
    let repo = repo();
    let me = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..6)
        .map(|_| {
            std::process::Command::new(&me)
                .args([
                    "writer_child",
                    "--exact",
                    "--nocapture",
                    "--test-threads",
                    "1",
                ])
                .env(WRITER_ENV, repo.path())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let total = 6 * WRITES_PER_PROCESS;
    fs::write(
        repo.path().join("loopgate.toml"),
        "version = 1\n[audit]\nmax_bytes = \"16KiB\"\nkeep = 100\n",
    )
    .unwrap();
    let json: Value = serde_json::from_str(&stdout_of(
        loopgate(repo.path()).args(["audit", "verify", "--json"]),
        0,
    ))
    .unwrap();
    assert_eq!(json["lines"], total as u64, "{json}");
    assert_eq!(json["last_seq"], total as u64);
    assert!(
        json["files"].as_array().unwrap().len() > 1,
        "rotation happened under contention"
    );
    let stats: Value = serde_json::from_str(&stdout_of(
        loopgate(repo.path()).args(["audit", "stats", "--json"]),
        0,
    ))
    .unwrap();
    let sessions = stats["sessions"].as_object().unwrap();
    assert_eq!(sessions.len(), 6);
    assert!(sessions
        .values()
        .all(|s| s["attempts"] == WRITES_PER_PROCESS as u64));
}
