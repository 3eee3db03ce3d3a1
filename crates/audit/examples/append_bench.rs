//! One audit append, timed: alone, then with writers contending for the lock.
//! Usage: append_bench [DIR] [APPENDS]  (DIR defaults to a temp dir; the log is removed).

use audit::{AuditLog, AuditSettings, Record};
use std::time::{Duration, Instant};

fn record(i: usize) -> Record {
    Record {
        session: "bench-session".into(),
        agent: "claude".into(),
        event: "PreToolUse".into(),
        tool: Some("Bash".into()),
        input: serde_json::json!({"command": format!("cargo test --quiet -- case_{i}"), "description": "run the tests"}),
        decision: Some("allow".into()),
        rule: None,
        reason: None,
        ..Record::default()
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn report(label: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "audit append {label}: n={} p50={:.1}us p99={:.1}us max={:.1}us",
        times.len(),
        percentile(&times, 0.50).as_secs_f64() * 1e6,
        percentile(&times, 0.99).as_secs_f64() * 1e6,
        times.last().unwrap().as_secs_f64() * 1e6
    );
}

fn run(dir: &std::path::Path, n: usize) -> Vec<Duration> {
    let log = AuditLog::new(dir, AuditSettings::default());
    (0..n)
        .map(|i| {
            let start = Instant::now();
            log.append(record(i)).expect("append");
            start.elapsed()
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let base = args.next().map(std::path::PathBuf::from);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let tmp = match &base {
        Some(b) => tempfile::tempdir_in(b),
        None => tempfile::tempdir(),
    }
    .expect("temp dir");

    let alone = tmp.path().join("alone");
    report("alone", run(&alone, n));

    let shared = tmp.path().join("shared");
    let writers = 4;
    let handles: Vec<_> = (0..writers)
        .map(|_| {
            let dir = shared.clone();
            std::thread::spawn(move || run(&dir, n / writers))
        })
        .collect();
    let times: Vec<Duration> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    report(&format!("{writers} contending writers"), times);

    let verify = Instant::now();
    let rep = AuditLog::new(&shared, AuditSettings::default())
        .verify()
        .expect("verify");
    println!(
        "audit verify after contention: intact={} lines={} in {:.1}ms",
        rep.intact(),
        rep.lines,
        verify.elapsed().as_secs_f64() * 1e3
    );
}
