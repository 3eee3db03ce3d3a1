//! Times the done gate's first git question, "what differs from HEAD, untracked included",
//! answered in-process by gix and by spawning `git status`, on the repository given.
//! Usage: gitprobe REPO [RUNS]

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

fn gix_status(repo: &gix::Repository) -> usize {
    let status = repo
        .status(gix::progress::Discard)
        .expect("status platform")
        .untracked_files(gix::status::UntrackedFiles::Files)
        .into_iter(None)
        .expect("status iterator");
    status.filter_map(Result::ok).count()
}

fn cli_status(root: &PathBuf) -> usize {
    let out = Command::new("git")
        .current_dir(root)
        .args(["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"])
        .output()
        .expect("git runs");
    out.stdout.split(|b| *b == 0).filter(|r| !r.is_empty() && r[0] != b'#').count()
}

fn percentile(xs: &mut [f64], p: f64) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    xs[((xs.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let root = PathBuf::from(args.next().expect("usage: gitprobe REPO [RUNS]"));
    let runs: usize = args.next().map(|r| r.parse().expect("RUNS is a number")).unwrap_or(20);
    let (mut gix_ms, mut cli_ms) = (Vec::new(), Vec::new());
    let (mut n_gix, mut n_cli) = (0, 0);
    for _ in 0..runs {
        let t = Instant::now();
        // Opening the repository is part of the cost a fresh hook process pays.
        let repo = gix::open(&root).expect("open repo");
        n_gix = gix_status(&repo);
        gix_ms.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        n_cli = cli_status(&root);
        cli_ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let (g50, c50) = (percentile(&mut gix_ms, 0.5), percentile(&mut cli_ms, 0.5));
    println!("entries: gix {n_gix}, git CLI {n_cli}");
    println!("gix in-process status  p50 {g50:8.2} ms  p99 {:8.2} ms", percentile(&mut gix_ms, 0.99));
    println!("git CLI status         p50 {c50:8.2} ms  p99 {:8.2} ms", percentile(&mut cli_ms, 0.99));
    println!("gix / CLI p50 ratio    {:.2}x", g50 / c50);
}
