//! Time a snapshot and a re-scan + diff of the given roots (used by bench/sandbox.sh).
//!
//! usage: snapshot_bench [--runs N] [--main DIR] [ROOT...]
//! `--main DIR` scans the default watch roots (the user's dotfiles from `$HOME`) plus DIR as
//! the main checkout of a linked worktree, with the default exclusions.
//! Prints one `key=value` line per figure.

use sandbox::snapshot::{diff, take, ScanOptions};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut runs = 5usize;
    let mut roots: Vec<PathBuf> = Vec::new();
    let mut opts = ScanOptions::default();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(5).max(1),
            "--main" => {
                let main = PathBuf::from(args.next().expect("--main DIR"));
                let home = std::env::var_os("HOME").map(PathBuf::from);
                // The worktree itself is elsewhere; only the main checkout and dotfiles are scanned.
                let worktree = std::path::Path::new("/nonexistent/worktree");
                roots.extend(sandbox::default_watch_roots(
                    home.as_deref(),
                    worktree,
                    Some(main.clone()),
                ));
                opts.exclude.extend(sandbox::default_excludes(
                    home.as_deref(),
                    worktree,
                    Some(&main),
                ));
            }
            _ => roots.push(PathBuf::from(arg)),
        }
    }
    if roots.is_empty() {
        eprintln!("usage: snapshot_bench [--runs N] [--main DIR] [ROOT...]");
        std::process::exit(2);
    }
    let baseline = take(&roots, &opts);
    let entries = baseline.entry_count();
    let mut scans = Vec::new();
    let mut rescans = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let s = take(&roots, &opts);
        scans.push(t.elapsed());
        let t = Instant::now();
        let again = take(&roots, &opts);
        let changed = diff(&s, &again);
        rescans.push(t.elapsed());
        if !changed.is_empty() {
            eprintln!(
                "the tree changed during the benchmark ({} paths, first: {:?})",
                changed.len(),
                changed[0]
            );
            std::process::exit(1);
        }
    }
    let t = Instant::now();
    let json = serde_json::to_vec(&baseline).expect("snapshot serializes");
    let ser = t.elapsed();
    let t = Instant::now();
    let _: sandbox::Snapshot = serde_json::from_slice(&json).expect("snapshot parses");
    let de = t.elapsed();
    let scan = median(scans);
    let rescan = median(rescans);
    println!("roots={}", baseline.roots.len());
    println!("entries={entries}");
    println!("snapshot_ms={:.2}", scan.as_secs_f64() * 1e3);
    println!("rescan_and_diff_ms={:.2}", rescan.as_secs_f64() * 1e3);
    println!(
        "ns_per_entry={:.0}",
        scan.as_nanos() as f64 / entries.max(1) as f64
    );
    println!("serialized_bytes={}", json.len());
    println!("serialize_ms={:.2}", ser.as_secs_f64() * 1e3);
    println!("deserialize_ms={:.2}", de.as_secs_f64() * 1e3);
    let notes = baseline.notes();
    println!("notes={} (missing or unobserved roots)", notes.len());
    for note in notes.iter().filter(|n| !n.contains("does not exist")) {
        println!("note={note}");
    }
}
