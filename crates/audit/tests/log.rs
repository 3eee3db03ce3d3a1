//! The log on real files: append, chain, rotation, damage, concurrency, failure.

use audit::{AuditLog, AuditSettings, BreakKind, Record, GENESIS};
use serde_json::json;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

fn record(session: &str, tool: &str, decision: &str, rule: Option<&str>) -> Record {
    Record {
        session: session.into(),
        agent: "claude".into(),
        event: "PreToolUse".into(),
        tool: Some(tool.into()),
        input: json!({"command": "rm -rf /"}),
        decision: Some(decision.into()),
        rule: rule.map(str::to_string),
        reason: Some("because".into()),
        ..Record::default()
    }
}

fn settings(max_bytes: u64, keep: u32) -> AuditSettings {
    AuditSettings {
        max_bytes,
        keep,
        max_field_bytes: 4096,
    }
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn appends_chain_and_set_modes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".loopgate");
    let log = AuditLog::new(&dir, AuditSettings::default());
    let a = log.append(record("s1", "Bash", "allow", None)).unwrap();
    let b = log
        .append(record("s1", "Bash", "deny", Some("fs.destructive")))
        .unwrap();
    assert_eq!((a.seq, b.seq), (1, 2));
    assert_eq!(a.prev, GENESIS);
    assert_eq!(b.prev, a.hash);
    assert!(a.time.ends_with('Z'), "{}", a.time);
    assert_eq!(
        fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
        0o700
    );
    assert_eq!(
        fs::metadata(log.path()).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let report = log.verify().unwrap();
    assert!(report.intact(), "{report:?}");
    assert_eq!(report.lines, 2);
    assert_eq!(lines(&log.path()).len(), 2);
}

#[test]
fn a_loose_log_file_is_tightened() {
    let tmp = tempfile::tempdir().unwrap();
    let log = AuditLog::new(tmp.path(), AuditSettings::default());
    fs::write(log.path(), b"").unwrap();
    fs::set_permissions(log.path(), fs::Permissions::from_mode(0o644)).unwrap();
    log.append(record("s", "Bash", "allow", None)).unwrap();
    assert_eq!(
        fs::metadata(log.path()).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[test]
fn a_line_moved_to_a_later_generation_is_a_reorder() {
    let tmp = tempfile::tempdir().unwrap();
    let log = AuditLog::new(tmp.path(), settings(1_500, 3));
    for _ in 0..12 {
        log.append(record("s", "Bash", "allow", None)).unwrap();
    }
    let older = tmp.path().join("audit.1.ndjson");
    let mut old = lines(&older);
    let moved = old.pop().unwrap();
    fs::write(&older, old.join("\n") + "\n").unwrap();
    let mut current = lines(&log.path());
    current.push(moved);
    fs::write(log.path(), current.join("\n") + "\n").unwrap();
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(broken.kind, BreakKind::Reordered, "{broken}");
    assert_eq!((broken.file, broken.line), (log.path(), 1));
}

#[test]
fn long_fields_are_truncated_with_a_marker() {
    let tmp = tempfile::tempdir().unwrap();
    let log = AuditLog::new(
        tmp.path(),
        AuditSettings {
            max_field_bytes: 16,
            ..AuditSettings::default()
        },
    );
    let mut r = record("s", "Write", "allow", None);
    r.input = json!({"content": "y".repeat(10_000)});
    r.reason = Some("z".repeat(100));
    let e = log.append(r).unwrap();
    let content = e.input["content"].as_str().unwrap();
    assert!(content.starts_with(&"y".repeat(16)));
    assert!(content.ends_with("…[truncated: 10000 bytes]"), "{content}");
    assert!(e.reason.unwrap().ends_with("[truncated: 100 bytes]"));
    assert!(fs::metadata(log.path()).unwrap().len() < 1000);
    assert!(log.verify().unwrap().intact());
}

#[test]
fn rotation_keeps_generations_and_the_chain_continues() {
    let tmp = tempfile::tempdir().unwrap();
    let log = AuditLog::new(tmp.path(), settings(2_000, 2));
    let mut last = None;
    for i in 0..40 {
        let e = log.append(record("s", "Bash", "allow", None)).unwrap();
        assert_eq!(e.seq, i + 1);
        if let Some(prev) = &last {
            assert_eq!(&e.prev, prev);
        }
        last = Some(e.hash);
    }
    assert!(tmp.path().join("audit.1.ndjson").exists());
    assert!(tmp.path().join("audit.2.ndjson").exists());
    assert!(
        !tmp.path().join("audit.3.ndjson").exists(),
        "only keep=2 rotated files"
    );
    for f in ["audit.ndjson", "audit.1.ndjson", "audit.2.ndjson"] {
        assert!(
            fs::metadata(tmp.path().join(f)).unwrap().len() <= 2_000,
            "{f}"
        );
    }
    let report = log.verify().unwrap();
    assert!(report.intact(), "{report:?}");
    assert_eq!(report.files.len(), 3);
    assert_eq!(report.last_seq, Some(40));
    // The oldest kept file starts mid-chain: it is accepted as it is.
    let first = lines(&tmp.path().join("audit.2.ndjson"))[0].clone();
    assert!(!first.contains("\"seq\":1,"), "{first}");
    // The first line of the current file chains to the last of audit.1.
    let old_last = lines(&tmp.path().join("audit.1.ndjson")).pop().unwrap();
    let old: serde_json::Value = serde_json::from_str(&old_last).unwrap();
    let new: serde_json::Value =
        serde_json::from_str(&lines(&tmp.path().join("audit.ndjson"))[0]).unwrap();
    assert_eq!(new["prev"], old["hash"]);
    assert_eq!(
        new["seq"].as_u64().unwrap(),
        old["seq"].as_u64().unwrap() + 1
    );
}

#[test]
fn a_deleted_middle_generation_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    let log = AuditLog::new(tmp.path(), settings(1_500, 3));
    for _ in 0..30 {
        log.append(record("s", "Bash", "allow", None)).unwrap();
    }
    fs::remove_file(tmp.path().join("audit.2.ndjson")).unwrap();
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(broken.kind, BreakKind::Deleted);
    assert_eq!(broken.file, tmp.path().join("audit.1.ndjson"));
    assert_eq!(broken.line, 1);
}

fn three_lines(dir: &Path) -> AuditLog {
    let log = AuditLog::new(dir, AuditSettings::default());
    for i in 0..3 {
        log.append(record(&format!("s{i}"), "Bash", "allow", None))
            .unwrap();
    }
    log
}

#[test]
fn damage_is_named_by_kind_and_line() {
    type Damage = fn(Vec<String>) -> String;
    let cases: Vec<(&str, Damage, BreakKind, u64)> = vec![
        (
            "edit",
            |l| format!("{}\n{}\n{}\n", l[0], l[1].replace("allow", "deny!"), l[2]),
            BreakKind::Edited,
            2,
        ),
        (
            "delete",
            |l| format!("{}\n{}\n", l[0], l[2]),
            BreakKind::Deleted,
            2,
        ),
        (
            "swap",
            |l| format!("{}\n{}\n{}\n", l[0], l[2], l[1]),
            BreakKind::Reordered,
            2,
        ),
        (
            "truncate",
            |l| format!("{}\n{}\n{}", l[0], l[1], &l[2][..40]),
            BreakKind::Truncated,
            3,
        ),
        (
            "garbage",
            |l| format!("{}\nhello\n{}\n", l[0], l[2]),
            BreakKind::Malformed,
            2,
        ),
    ];
    for (name, damage, kind, line) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let log = three_lines(tmp.path());
        fs::write(log.path(), damage(lines(&log.path()))).unwrap();
        let report = log.verify().unwrap();
        let broken = report
            .broken
            .clone()
            .unwrap_or_else(|| panic!("{name}: {report:?}"));
        assert_eq!((broken.kind, broken.line), (kind, line), "{name}: {broken}");
        assert_eq!(broken.file, log.path());
        assert_eq!(report.lines, line - 1, "{name}");
    }
}

#[test]
fn writing_after_damage_keeps_lines_whole_and_the_damage_visible() {
    let tmp = tempfile::tempdir().unwrap();
    let log = three_lines(tmp.path());
    let text = fs::read_to_string(log.path()).unwrap();
    fs::write(log.path(), &text[..text.len() - 30]).unwrap();
    let e = log.append(record("s", "Bash", "allow", None)).unwrap();
    // The torn third line is cut (and the cut recorded as seq 4); the anchor remembers
    // seq 3, so no number is used twice and the lost line stays visible as a gap.
    assert_eq!(e.seq, 5);
    let after = lines(&log.path());
    assert_eq!(after.len(), 4);
    let repair: serde_json::Value = serde_json::from_str(&after[2]).unwrap();
    assert_eq!(repair["event"], "audit_repair");
    assert_eq!(repair["seq"], 4);
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(
        (broken.kind, broken.line),
        (BreakKind::Deleted, 3),
        "{broken}"
    );
    assert!(broken.detail.contains("seq jumps from 2 to 4"), "{broken}");
}

#[test]
fn tail_and_stats_span_generations() {
    let tmp = tempfile::tempdir().unwrap();
    let log = AuditLog::new(tmp.path(), settings(1_500, 5));
    for i in 0..20u64 {
        let (decision, rule) = if i % 4 == 0 {
            ("deny", Some("git.destructive"))
        } else {
            ("allow", None)
        };
        log.append(record(
            if i < 10 { "a" } else { "b" },
            "Bash",
            decision,
            rule,
        ))
        .unwrap();
    }
    let mut gate = record("b", "x", "block", None);
    gate.tool = None;
    gate.event = "Stop".into();
    log.append(gate).unwrap();
    let tail = log.tail(5).unwrap();
    assert_eq!(
        tail.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![17, 18, 19, 20, 21]
    );
    assert_eq!(log.tail(100).unwrap().len(), 21);
    let stats = log.stats().unwrap();
    assert_eq!(stats.lines, 21);
    assert_eq!(stats.attempts, 20);
    assert_eq!(stats.denials, 5);
    assert_eq!(stats.denials_by_rule["git.destructive"], 5);
    assert_eq!(stats.sessions["a"].attempts, 10);
    assert_eq!(stats.sessions["a"].denials, 3);
    assert_eq!(stats.sessions["b"].denials, 2);
    assert_eq!(stats.events["Stop"], 1);
}

#[test]
fn concurrent_writers_lose_and_tear_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let dir = dir.clone();
            std::thread::spawn(move || {
                // A separate log object per thread, as separate hook processes would have.
                let log = AuditLog::new(&dir, settings(20_000, 50));
                for _ in 0..50 {
                    log.append(record(&format!("t{t}"), "Bash", "allow", None))
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let log = AuditLog::new(&dir, settings(20_000, 50));
    let report = log.verify().unwrap();
    assert!(report.intact(), "{report:?}");
    assert_eq!(report.lines, 400);
    assert_eq!(report.last_seq, Some(400));
}

#[test]
fn a_read_only_directory_is_an_error_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(".loopgate");
    fs::create_dir(&dir).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o500)).unwrap();
    let log = AuditLog::new(&dir, AuditSettings::default());
    let result = log.append(record("s", "Bash", "allow", None));
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    // Root ignores permissions; the assertion only holds for ordinary users.
    if !is_root() {
        assert!(result.is_err());
    }
}

#[test]
fn a_log_symlinked_to_a_device_is_an_error() {
    // The log is opened without following symlinks and only as a regular file, so a link
    // to /dev/full (every write ENOSPC) or /dev/null (every line lost) is refused up front.
    if !Path::new("/dev/full").exists() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/dev/full", tmp.path().join("audit.ndjson")).unwrap();
    let log = AuditLog::new(tmp.path(), AuditSettings::default());
    let err = log.append(record("s", "Bash", "allow", None)).unwrap_err();
    assert!(err.to_string().contains("symbolic link"), "{err}");
}

#[test]
fn no_log_verifies_as_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let log = AuditLog::new(&tmp.path().join("missing"), AuditSettings::default());
    assert!(!log.exists().unwrap());
    let report = log.verify().unwrap();
    assert!(report.intact());
    assert_eq!(report.lines, 0);
    assert!(log.tail(3).unwrap().is_empty());
    assert_eq!(log.stats().unwrap().lines, 0);
}

fn is_root() -> bool {
    fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}
