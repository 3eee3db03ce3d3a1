//! The anchor on real files: what removing lines from the end, emptying a file, deleting a
//! generation or editing the anchor looks like to `verify`, and how a torn last line is
//! repaired by the next append.

use audit::{AuditLog, AuditSettings, BreakKind, Record, Witness};
use serde_json::{json, Value};
use std::fs;
use std::path::Path;

fn record(i: usize) -> Record {
    Record {
        session: format!("s{i}"),
        agent: "claude".into(),
        event: "PreToolUse".into(),
        tool: Some("Bash".into()),
        input: json!({"command": format!("echo {i}")}),
        decision: Some("allow".into()),
        ..Record::default()
    }
}

fn log_with(dir: &Path, n: usize, settings: AuditSettings) -> AuditLog {
    let log = AuditLog::new(dir, settings);
    for i in 0..n {
        log.append(record(i)).unwrap();
    }
    log
}

fn small(max_bytes: u64, keep: u32) -> AuditSettings {
    AuditSettings {
        max_bytes,
        keep,
        max_field_bytes: 4096,
    }
}

fn lines(path: &Path) -> Vec<Value> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn cut_last_line(path: &Path) {
    let text = fs::read_to_string(path).unwrap();
    let body = &text[..text.len() - 1];
    let keep = body.rfind('\n').map(|i| i + 1).unwrap_or(0);
    fs::write(path, &text[..keep]).unwrap();
}

#[test]
fn a_removed_last_line_is_missing_and_its_number_is_never_reused() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 3, AuditSettings::default());
    cut_last_line(&log.path());
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(
        (broken.kind, broken.line),
        (BreakKind::Deleted, 3),
        "{broken}"
    );
    assert!(
        broken
            .detail
            .contains("the log ends at seq 2, but the anchor records seq 3: 1 line(s) missing"),
        "{broken}"
    );
    let next = log.append(record(9)).unwrap();
    assert_eq!(next.seq, 4, "continues after the anchored seq 3");
    let broken = log.verify().unwrap().broken.unwrap();
    assert!(broken.detail.contains("seq jumps from 2 to 4"), "{broken}");
}

#[test]
fn an_emptied_file_stays_visible_after_the_next_append() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 3, AuditSettings::default());
    fs::write(log.path(), b"").unwrap();
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(broken.kind, BreakKind::Deleted, "{broken}");
    assert!(
        broken
            .detail
            .contains("the log holds no line, but the anchor records seq 3"),
        "{broken}"
    );
    assert_eq!(log.append(record(9)).unwrap().seq, 4);
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(
        (broken.kind, broken.line),
        (BreakKind::Deleted, 1),
        "{broken}"
    );
    assert!(
        broken.detail.contains(
            "starts at seq 4, but the anchor records that it starts at seq 1: 3 line(s) missing"
        ),
        "{broken}"
    );
}

#[test]
fn a_torn_last_line_is_cut_by_the_next_append_and_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 2, AuditSettings::default());
    let mut text = fs::read(log.path()).unwrap();
    text.extend_from_slice(b"{\"time\":\"2026-11-22T00:00:00Z\",\"seq\":3,\"sess");
    fs::write(log.path(), &text).unwrap();
    assert_eq!(
        log.verify().unwrap().broken.unwrap().kind,
        BreakKind::Truncated
    );
    let e = log.append(record(7)).unwrap();
    assert_eq!(e.seq, 4);
    let report = log.verify().unwrap();
    assert!(report.intact(), "{report:?}");
    let all = lines(&log.path());
    assert_eq!(all.len(), 4);
    assert_eq!(all[2]["event"], "audit_repair");
    assert_eq!(all[2]["extra"]["cut_bytes"], 44);
    assert_eq!(all[2]["seq"], 3);
}

#[test]
fn each_deleted_generation_is_named() {
    for (victim, expect) in [
        (
            "audit.3.ndjson",
            "this generation is missing: the anchor records 3 rotated",
        ),
        ("audit.1.ndjson", "seq jumps"),
        ("audit.ndjson", "missing from its end"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let log = log_with(tmp.path(), 40, small(1_500, 3));
        assert!(log.verify().unwrap().intact());
        fs::remove_file(tmp.path().join(victim)).unwrap();
        let broken = log.verify().unwrap().broken.unwrap();
        assert!(broken.detail.contains(expect), "{victim}: {broken}");
        assert_eq!(broken.kind, BreakKind::Deleted, "{victim}: {broken}");
    }
}

#[test]
fn lines_removed_from_the_start_of_the_oldest_generation_are_found() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 40, small(1_500, 2));
    let oldest = tmp.path().join("audit.2.ndjson");
    let text = fs::read_to_string(&oldest).unwrap();
    let rest = &text[text.find('\n').unwrap() + 1..];
    fs::write(&oldest, rest).unwrap();
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(broken.file, oldest);
    assert!(
        broken.detail.contains("lines were removed from its start"),
        "{broken}"
    );
}

#[test]
fn an_edited_anchor_is_reported_and_kept_aside_by_the_next_append() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 3, AuditSettings::default());
    let anchor = tmp.path().join("audit.anchor.json");
    let text = fs::read_to_string(&anchor).unwrap();
    // Lower the anchored seq to hide a removed line: the seal gives it away.
    fs::write(&anchor, text.replace("\"seq\":3", "\"seq\":2")).unwrap();
    cut_last_line(&log.path());
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(broken.kind, BreakKind::Anchor, "{broken}");
    assert!(broken.detail.contains("seal does not match"), "{broken}");
    let e = log.append(record(5)).unwrap();
    assert_eq!(e.seq, 4, "an event about the damage (3), then the line (4)");
    let all = lines(&log.path());
    assert_eq!(all[2]["event"], "audit_anchor_damaged");
    assert!(tmp.path().join("audit.anchor.damaged.json").exists());
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(broken.kind, BreakKind::Anchor, "still reported: {broken}");
    assert!(broken.detail.contains("kept aside"), "{broken}");
    // A human compares, then accepts by deleting the kept copy.
    fs::remove_file(tmp.path().join("audit.anchor.damaged.json")).unwrap();
    assert!(log.verify().unwrap().intact());
}

#[test]
fn a_torn_anchor_is_damage() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 3, AuditSettings::default());
    let anchor = tmp.path().join("audit.anchor.json");
    let bytes = fs::read(&anchor).unwrap();
    fs::write(&anchor, &bytes[..100]).unwrap();
    let broken = log.verify().unwrap().broken.unwrap();
    assert_eq!(broken.kind, BreakKind::Anchor);
    assert!(broken.detail.contains("100 bytes"), "{broken}");
}

#[test]
fn a_log_without_an_anchor_gains_one_at_the_next_append() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 3, AuditSettings::default());
    fs::remove_file(tmp.path().join("audit.anchor.json")).unwrap();
    let broken = log.verify().unwrap().broken.unwrap();
    assert!(broken.detail.contains("the anchor is missing"), "{broken}");
    assert_eq!(log.append(record(4)).unwrap().seq, 5);
    let report = log.verify().unwrap();
    assert!(report.intact(), "{report:?}");
    assert_eq!(report.anchor.unwrap().since, 3);
    assert_eq!(lines(&log.path())[3]["event"], "audit_anchor_created");
}

#[test]
fn lines_written_after_the_anchor_was_last_moved_are_kept() {
    // A writer killed between its line and its anchor update.
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 2, AuditSettings::default());
    let anchor = tmp.path().join("audit.anchor.json");
    let stale = fs::read(&anchor).unwrap();
    log.append(record(3)).unwrap();
    fs::write(&anchor, stale).unwrap();
    assert!(log.verify().unwrap().intact(), "a log ahead of its anchor");
    assert_eq!(log.append(record(4)).unwrap().seq, 4);
    assert!(log.verify().unwrap().intact());
}

#[test]
fn a_witness_beyond_the_log_or_with_another_hash_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 3, AuditSettings::default());
    let second = lines(&log.path())[1]["hash"].as_str().unwrap().to_string();
    let good = Witness {
        seq: 2,
        hash: second,
        source: "receipt a".into(),
    };
    assert!(log
        .verify_with(std::slice::from_ref(&good))
        .unwrap()
        .intact());
    let ahead = Witness {
        seq: 7,
        hash: "00".repeat(32),
        source: "receipt b".into(),
    };
    let broken = log.verify_with(&[good, ahead]).unwrap().broken.unwrap();
    assert!(
        broken
            .detail
            .contains("receipt b saw the log reach seq 7, but it ends at seq 3"),
        "{broken}"
    );
}

#[test]
fn rotation_moves_the_anchor_and_the_chain_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 60, small(1_500, 2));
    let report = log.verify().unwrap();
    assert!(report.intact(), "{report:?}");
    let anchor = report.anchor.unwrap();
    assert_eq!((anchor.seq, anchor.rotated, anchor.since), (60, 2, 0));
    let oldest = lines(&tmp.path().join("audit.2.ndjson"));
    assert_eq!(anchor.oldest_seq, oldest[0]["seq"].as_u64().unwrap());
}

#[test]
fn a_rotation_whose_line_was_never_written_is_no_damage() {
    // Rotation renamed the current file, then the new line failed (a full disk) or the
    // writer was killed: the anchor still describes the file before the rotation.
    let tmp = tempfile::tempdir().unwrap();
    let log = log_with(tmp.path(), 3, small(1_000_000, 2));
    fs::rename(log.path(), tmp.path().join("audit.1.ndjson")).unwrap();
    assert_eq!(log.append(record(4)).unwrap().seq, 4);
    let report = log.verify().unwrap();
    assert!(report.intact(), "{report:?}");
    assert_eq!(report.anchor.unwrap().rotated, 1);
}
