//! Whatever bytes the log files hold, verify, tail, stats and append answer without
//! panicking, and an append after garbage still leaves a whole last line.

use audit::{AuditLog, AuditSettings, Record};
use proptest::prelude::*;
use std::fs;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_bytes_are_answered(bytes in proptest::collection::vec(any::<u8>(), 0..600), older in proptest::collection::vec(any::<u8>(), 0..200)) {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("audit.ndjson"), &bytes).unwrap();
        fs::write(tmp.path().join("audit.1.ndjson"), &older).unwrap();
        let log = AuditLog::new(tmp.path(), AuditSettings { max_bytes: 100_000, keep: 2, max_field_bytes: 64 });
        let report = log.verify().unwrap();
        if !bytes.is_empty() || !older.is_empty() {
            prop_assert!(report.broken.is_some());
        }
        log.tail(5).unwrap();
        log.stats().unwrap();
        let entry = log.append(Record { session: "s".into(), ..Record::default() }).unwrap();
        let text = fs::read(log.path()).unwrap();
        let last = text[..text.len() - 1].split(|&b| b == b'\n').next_back().unwrap();
        let parsed: audit::Entry = serde_json::from_slice(last).unwrap();
        prop_assert_eq!(parsed.hash, entry.hash);
    }
}
