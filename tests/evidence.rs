//! Evidence that proves itself whole: the audit log checked against its anchor and the
//! receipts, a torn last line repaired, receipts that never mix under concurrency, a
//! quarantine release that is all or nothing, and a dead writer's temp files cleaned.
//! The real binary on real git repositories; one test per attack.

mod support;

use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::hook::{claude_payload, run as hook};
use support::repo::{TestRepo, LOOPGATE};

const NO_CHECKS: &str = "version = 1\n";

fn loopgate(r: &TestRepo, args: &[&str]) -> Output {
    Command::new(LOOPGATE)
        .args(args)
        .current_dir(r.path())
        .env("HOME", r.home())
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("loopgate runs")
}

fn text(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout ---\n{}--- stderr ---\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// One PreToolUse call through the binary: the way an agent's every attempt is audited.
fn tool_call(r: &TestRepo, command: &str) -> support::hook::HookRun {
    let payload = claude_payload(
        "PreToolUse",
        &r.path(),
        "s-evidence",
        json!({"tool_name": "Bash", "tool_input": {"command": command}}),
    );
    hook("claude", &r.path(), &r.home(), &payload)
}

fn audit_path(r: &TestRepo) -> PathBuf {
    r.file(".loopgate/audit.ndjson")
}

fn seqs(r: &TestRepo) -> Vec<u64> {
    r.audit_lines()
        .iter()
        .map(|l| l["seq"].as_u64().unwrap())
        .collect()
}

/// `audit verify`: its exit code and its one line of output.
fn verify(r: &TestRepo) -> (Option<i32>, String) {
    let out = loopgate(r, &["audit", "verify"]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    )
}

fn repo_with_calls(calls: usize) -> TestRepo {
    let r = TestRepo::with_files(&[("loopgate.toml", NO_CHECKS)]);
    for i in 0..calls {
        let out = tool_call(&r, &format!("ls {i}"));
        assert_eq!(out.code, 0, "{}", out.explain());
    }
    assert_eq!(seqs(&r), (1..=calls as u64).collect::<Vec<_>>());
    r
}

/// Attack: remove the last line of the audit log. Verify names the missing line, and the
/// next line takes the next number instead of reusing the removed one.
#[test]
fn a_removed_last_line_is_detected_and_its_number_never_reused() {
    let r = repo_with_calls(3);
    let log = audit_path(&r);
    let body = fs::read_to_string(&log).unwrap();
    let cut = body[..body.len() - 1].rfind('\n').unwrap() + 1;
    fs::write(&log, &body[..cut]).unwrap();
    let (code, out) = verify(&r);
    assert_eq!(code, Some(3), "{out}");
    assert!(
        out.contains("audit.ndjson:3: deleted: the log ends at seq 2, but the anchor records seq 3: 1 line(s) missing from its end"),
        "{out}"
    );
    tool_call(&r, "ls again");
    assert_eq!(seqs(&r), vec![1, 2, 4], "seq 3 is never written twice");
    let (code, out) = verify(&r);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("seq jumps from 2 to 4"), "{out}");
}

/// Attack: empty the audit log. Verify reports every anchored line missing, before and
/// after the next append.
#[test]
fn an_emptied_log_is_detected() {
    let r = repo_with_calls(2);
    fs::write(audit_path(&r), b"").unwrap();
    let (code, out) = verify(&r);
    assert_eq!(code, Some(3), "{out}");
    assert!(
        out.contains("the log holds no line, but the anchor records seq 2"),
        "{out}"
    );
    tool_call(&r, "ls");
    assert_eq!(seqs(&r), vec![3]);
    let (code, out) = verify(&r);
    assert_eq!(code, Some(3), "{out}");
    assert!(
        out.contains("starts at seq 3, but the anchor records that it starts at seq 1: 2 line(s) missing from its start"),
        "{out}"
    );
}

/// Attack: delete a whole generation of a rotated log, the newest (the current file) or
/// the oldest kept one, which leave a chain that is valid on its own.
#[test]
fn a_deleted_generation_is_detected() {
    for (victim, expect) in [
        (
            "audit.ndjson",
            "the anchor records seq 30",
        ),
        (
            "audit.2.ndjson",
            "audit.2.ndjson:1: deleted: this generation is missing: the anchor records 2 rotated generation(s)",
        ),
    ] {
        let r = TestRepo::with_files(&[(
            "loopgate.toml",
            "version = 1\n[audit]\nmax_bytes = \"2KiB\"\nkeep = 2\n",
        )]);
        for i in 0..30 {
            let out = tool_call(&r, &format!("ls {i}"));
            assert_eq!(out.code, 0, "{}", out.explain());
        }
        assert!(r.file(".loopgate/audit.2.ndjson").exists(), "rotated twice");
        assert_eq!(verify(&r).0, Some(0));
        fs::remove_file(r.file(&format!(".loopgate/{victim}"))).unwrap();
        let (code, out) = verify(&r);
        assert_eq!(code, Some(3), "{victim}: {out}");
        assert!(out.contains(expect), "{victim}: {out}");
    }
}

/// Attack: edit the anchor to hide a removed line. Its seal gives the edit away, and the
/// next append keeps the damaged anchor aside, so verify goes on reporting it.
#[test]
fn an_edited_anchor_is_detected() {
    let r = repo_with_calls(3);
    let anchor = r.file(".loopgate/audit.anchor.json");
    let body = fs::read_to_string(&anchor).expect("the anchor exists");
    fs::write(&anchor, body.replace("\"seq\":3", "\"seq\":2")).unwrap();
    let (code, out) = verify(&r);
    assert_eq!(code, Some(3), "{out}");
    assert!(
        out.contains("audit.anchor.json:1: anchor: the anchor is damaged: its seal does not match its content"),
        "{out}"
    );
    tool_call(&r, "ls");
    let lines = r.audit_lines();
    assert_eq!(lines[3]["event"], "audit_anchor_damaged", "{lines:#?}");
    let (code, out) = verify(&r);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("kept aside"), "{out}");
}

/// Attack: remove the whole log and its anchor. The receipt sealed after the log reached
/// seq N still says so, and verify holds the log to it.
#[test]
fn a_receipt_holds_the_log_to_the_line_it_saw() {
    let r = repo_with_calls(3);
    let out = loopgate(&r, &["check", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let receipt = r.latest_receipt().unwrap();
    assert_eq!(receipt["audit"]["seq"], 3, "{receipt}");
    assert_eq!(
        receipt["audit"]["hash"],
        r.audit_lines()[2]["hash"],
        "the receipt names the anchored line"
    );
    assert_eq!(verify(&r).0, Some(0));
    for f in ["audit.ndjson", "audit.anchor.json"] {
        fs::remove_file(r.file(&format!(".loopgate/{f}"))).unwrap();
    }
    let (code, out) = verify(&r);
    assert_eq!(code, Some(3), "{out}");
    assert!(
        out.contains("saw the log reach seq 3, but it ends at seq 0"),
        "{out}"
    );
}

/// Attack (accidental): a line torn by a crash or a full disk (a partial line, no newline
/// at the end). The next append cuts it, records the cut, and the log verifies again.
#[test]
fn a_torn_last_line_is_repaired_by_the_next_append() {
    let r = repo_with_calls(2);
    let log = audit_path(&r);
    let mut bytes = fs::read(&log).unwrap();
    let torn = b"{\"time\":\"2026-11-22T10:00:00Z\",\"seq\":3,\"session\":\"s-ev";
    bytes.extend_from_slice(torn);
    fs::write(&log, &bytes).unwrap();
    assert_eq!(verify(&r).0, Some(3), "torn until repaired");
    let out = tool_call(&r, "ls");
    assert_eq!(out.code, 0, "{}", out.explain());
    let (code, text) = verify(&r);
    assert_eq!(code, Some(0), "{text}");
    let lines = r.audit_lines();
    assert_eq!(lines.len(), 4, "{lines:#?}");
    assert_eq!(lines[2]["event"], "audit_repair");
    assert_eq!(lines[2]["extra"]["cut_bytes"], torn.len());
    assert_eq!(lines[3]["tool"], "Bash");
}

/// Attack (accidental): the disk fills up mid-line (RLIMIT_FSIZE stands in for ENOSPC: the
/// write stops part way and fails). The decision is the same as with room, stderr says
/// the audit failed, and once there is room again the next append repairs the tail.
#[test]
fn a_full_disk_mid_line_keeps_the_decision_and_is_repaired_later() {
    let r = repo_with_calls(2);
    let roomy = tool_call(&r, "rm -rf /");
    let roomy_decision = roomy.json();
    let len = fs::metadata(audit_path(&r)).unwrap().len();
    let payload = claude_payload(
        "PreToolUse",
        &r.path(),
        "s-evidence",
        json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}),
    );
    let mut child = Command::new("prlimit")
        .arg(format!("--fsize={}", len + 25))
        .arg("--")
        .arg(LOOPGATE)
        .args(["hook", "claude"])
        .current_dir(r.path())
        .env("HOME", r.home())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("prlimit (util-linux) runs");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&payload).unwrap();
    let full = child.wait_with_output().unwrap();
    assert_eq!(full.status.code(), Some(0), "{}", text(&full));
    let decision: Value = serde_json::from_slice(&full.stdout).unwrap_or_else(|e| {
        panic!("no decision ({e}): {}", text(&full));
    });
    assert_eq!(
        decision, roomy_decision,
        "the decision does not depend on the disk"
    );
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert!(
        stderr.contains("cannot write the audit log") && stderr.contains("the decision stands"),
        "{stderr}"
    );
    assert_eq!(
        fs::metadata(audit_path(&r)).unwrap().len(),
        len + 25,
        "a torn line was left"
    );
    assert_eq!(verify(&r).0, Some(3));
    tool_call(&r, "ls");
    let (code, out) = verify(&r);
    assert_eq!(code, Some(0), "{out}");
    let lines = r.audit_lines();
    let repair = lines
        .iter()
        .find(|l| l["event"] == "audit_repair")
        .expect("the repair is recorded");
    assert_eq!(repair["extra"]["cut_bytes"], 25);
}

/// Attack (accidental): 24 `loopgate check` runs at once, a few times over. Every history
/// receipt is named by its own hash and holds itself, sealed; `latest.json` is whole.
#[test]
fn parallel_checks_never_mix_receipts() {
    let r = TestRepo::with_files(&[("loopgate.toml", NO_CHECKS)]);
    for round in 0..4 {
        let children: Vec<_> = (0..24)
            .map(|_| {
                Command::new(LOOPGATE)
                    .args(["check", "--quiet"])
                    .current_dir(r.path())
                    .env("HOME", r.home())
                    .env_remove("GITHUB_ACTIONS")
                    .env_remove("GITHUB_STEP_SUMMARY")
                    .stdout(std::process::Stdio::null())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut c in children {
            assert_eq!(c.wait().unwrap().code(), Some(0));
        }
        receipts_hold_themselves(&r, round);
    }
}

fn receipts_hold_themselves(r: &TestRepo, round: usize) {
    let dir = r.file(".loopgate/receipts");
    let mut history = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            name.ends_with(".json"),
            "round {round}: only receipts are left in {}: {name}",
            dir.display()
        );
        let bytes = fs::read(&path).unwrap();
        let receipt: gate::receipt::Receipt = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("round {round}: {name} does not parse: {e}"));
        assert!(
            receipt.verify_seal(),
            "round {round}: {name}: its seal does not verify"
        );
        if name != "latest.json" {
            assert!(
                name.ends_with(&format!("-{}.json", &receipt.body_hash[..12])),
                "round {round}: {name} holds the receipt {}",
                receipt.body_hash
            );
            history += 1;
        }
    }
    assert_eq!(history, gate::store::HISTORY, "the history stays bounded");
    assert!(dir.join("latest.json").exists());
}

fn watched_repo() -> (TestRepo, tempfile::TempDir) {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("rc"), "original\n").unwrap();
    let r = TestRepo::with_files(&[(
        "loopgate.toml",
        &format!(
            "version = 1\n[sandbox]\ntemp_writable = false\nwatch_roots = [\"{}\"]\n",
            outside.path().display()
        ),
    )]);
    (r, outside)
}

fn listed(r: &TestRepo) -> Vec<Value> {
    let out = loopgate(r, &["quarantine", "list", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    serde_json::from_slice::<Vec<Value>>(&out.stdout).unwrap()
}

/// Attack (accidental): `quarantine release` killed at each of its steps. Afterwards the
/// repository is either still fully quarantined (listed, `check` exits 3, a second release
/// works) or fully released (`check` exits 0 with the released change acknowledged), never
/// "nothing to release" while `check` still exits 3.
#[test]
fn a_release_killed_at_any_step_is_all_or_nothing() {
    let steps = [
        ("release:snapshot-written", false),
        ("release:committed", true),
        ("release:baseline-written", true),
        ("release:audited", true),
        ("release:carried-out", true),
    ];
    for (step, released) in steps {
        let (r, outside) = watched_repo();
        let out = loopgate(&r, &["baseline"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        fs::write(outside.path().join("rc"), "reviewed change\n").unwrap();
        assert_eq!(loopgate(&r, &["check", "--quiet"]).status.code(), Some(3));
        assert_eq!(listed(&r).len(), 1);

        let killed = Command::new(LOOPGATE)
            .args(["quarantine", "release"])
            .current_dir(r.path())
            .env("HOME", r.home())
            .env("LOOPGATE_TEST_CRASH_AT", step)
            .output()
            .unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            killed.status.signal(),
            Some(6),
            "{step}: the release was killed there: {}",
            text(&killed)
        );

        if released {
            assert!(listed(&r).is_empty(), "{step}: released");
            let check = loopgate(&r, &["check", "--quiet"]);
            assert_eq!(check.status.code(), Some(0), "{step}: {}", text(&check));
            let again = loopgate(&r, &["quarantine", "release"]);
            assert!(
                String::from_utf8_lossy(&again.stdout).contains("nothing to release"),
                "{step}: {}",
                text(&again)
            );
        } else {
            assert_eq!(listed(&r).len(), 1, "{step}: still quarantined");
            assert_eq!(
                loopgate(&r, &["check", "--quiet"]).status.code(),
                Some(3),
                "{step}"
            );
            let release = loopgate(&r, &["quarantine", "release"]);
            assert!(
                String::from_utf8_lossy(&release.stdout).contains("released q"),
                "{step}: {}",
                text(&release)
            );
            let check = loopgate(&r, &["check", "--quiet"]);
            assert_eq!(check.status.code(), Some(0), "{step}: {}", text(&check));
        }
        let audit = r.audit_lines();
        assert!(
            audit.iter().any(|l| l["event"] == "quarantine_release"),
            "{step}: the release is audited"
        );
        assert_eq!(verify(&r).0, Some(0), "{step}");
        let leftovers: Vec<String> = fs::read_dir(r.file(".loopgate"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with("acknowledged-") || n.starts_with(".tmp-"))
            .collect();
        assert!(leftovers.is_empty(), "{step}: {leftovers:?}");
        // A later escape is still caught.
        fs::write(outside.path().join("rc"), "a later change\n").unwrap();
        assert_eq!(
            loopgate(&r, &["check", "--quiet"]).status.code(),
            Some(3),
            "{step}"
        );
    }
}

fn age(path: &Path, seconds: u64) {
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(seconds);
    let secs = when
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let ok = Command::new("touch")
        .arg("-d")
        .arg(format!("@{secs}"))
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok);
}

/// Attack (accidental): temp files left by killed writers pile up in the state directory.
/// The next `check` removes those whose writer is gone, and leaves a live writer's alone.
#[test]
fn a_dead_writers_temp_files_are_cleaned_by_the_next_check() {
    let r = TestRepo::with_files(&[("loopgate.toml", NO_CHECKS)]);
    assert_eq!(loopgate(&r, &["check", "--quiet"]).status.code(), Some(0));
    // A real writer killed: `sleep` stands in for a loopgate process that died after
    // creating its temp file; its pid is then gone.
    let mut writer = Command::new("sleep").arg("30").spawn().unwrap();
    let dead_pid = writer.id();
    writer.kill().unwrap();
    writer.wait().unwrap();
    let state = r.file(".loopgate");
    let dead = [
        state.join(format!(".tmp-{dead_pid}-a1B2c3")),
        state.join(format!("receipts/.tmp-{dead_pid}-d4E5f6")),
        state.join(".tmp-oldname"),
    ];
    for p in &dead {
        fs::write(p, b"{\"half\":").unwrap();
        age(p, 120);
    }
    age(&dead[2], 2 * 60 * 60);
    let live = [
        state.join(format!(".tmp-{}-g7H8i9", std::process::id())),
        state.join(format!("receipts/.tmp-{dead_pid}-justnow")),
    ];
    for p in &live {
        fs::write(p, b"{\"in progress\":").unwrap();
    }
    age(&live[0], 120);
    let out = loopgate(&r, &["check", "--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    for p in &dead {
        assert!(!p.exists(), "{} was left", p.display());
    }
    for p in &live {
        assert!(p.exists(), "{} was removed", p.display());
    }
}
