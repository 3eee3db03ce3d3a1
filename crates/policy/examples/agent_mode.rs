//! Agent-mode vetting from the command line, and its in-process corpus benchmark.
//!
//! `cargo run -p policy --example agent_mode -- 'rm -rf /'` prints the decision as JSON
//! (cwd and repo `/home/dev/project`, home `/home/dev`, write roots the repo and the temp
//! dir, like the corpus test; `LOOPGATE_PROFILE=strict` switches profile).
//! `... --example agent_mode -- --bench DIR` decides every `command` of every TOML under
//! DIR 200 times and prints per-decision p50/p99/max.
//! `... -- --spawn DIR PROGRAM ARGS...` runs `PROGRAM ARGS... COMMAND` as a whole process
//! for every corpus command (5 rounds), then `/bin/true` as often, and prints both
//! distributions and their ratio (bench/policy.sh).

use policy::agent::{decide, AgentContext};
use policy::Profile;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn ctx() -> AgentContext {
    let profile = match std::env::var("LOOPGATE_PROFILE").as_deref() {
        Ok("strict") => Profile::Strict,
        Ok("observer") => Profile::Observer,
        _ => Profile::Standard,
    };
    AgentContext {
        cwd: PathBuf::from("/home/dev/project"),
        repo_root: PathBuf::from("/home/dev/project"),
        home: Some(PathBuf::from("/home/dev")),
        write_roots: vec![PathBuf::from("/home/dev/project"), std::env::temp_dir()],
        protected: vec![],
        secret_paths: vec![],
        profile,
    }
}

fn commands_under(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            commands_under(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            let Ok(doc) = toml::from_str::<toml::Table>(&text) else {
                continue;
            };
            for c in doc
                .get("case")
                .and_then(|c| c.as_array())
                .into_iter()
                .flatten()
            {
                if let Some(cmd) = c.get("command").and_then(|v| v.as_str()) {
                    out.push(cmd.to_string());
                }
            }
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ctx = ctx();
    if args.first().map(String::as_str) == Some("--bench") {
        let dir = args
            .get(1)
            .map(String::as_str)
            .expect("usage: agent_mode --bench CORPUS_DIR");
        let mut commands = Vec::new();
        commands_under(Path::new(dir), &mut commands);
        let mut samples = Vec::with_capacity(commands.len() * 200);
        let mut per_command = vec![Duration::ZERO; commands.len()];
        for _ in 0..200 {
            for (i, c) in commands.iter().enumerate() {
                let t = Instant::now();
                std::hint::black_box(decide(c, &ctx));
                let took = t.elapsed();
                per_command[i] += took;
                samples.push(took);
            }
        }
        let mut slowest: Vec<(Duration, &String)> = per_command
            .iter()
            .map(|d| *d / 200)
            .zip(commands.iter())
            .collect();
        slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
        for (mean, c) in slowest.iter().take(5) {
            let shown: String = c.chars().take(80).collect();
            println!("  slowest: {mean:?} mean  {shown:?}");
        }
        samples.sort();
        println!(
            "in-process decide over {} corpus commands x200: p50 {:?} p99 {:?} max {:?}",
            commands.len(),
            percentile(&samples, 0.50),
            percentile(&samples, 0.99),
            samples[samples.len() - 1]
        );
        return;
    }
    if args.first().map(String::as_str) == Some("--spawn") && args.len() >= 3 {
        spawn_bench(&args[1], &args[2..]);
        return;
    }
    for command in args {
        let d = decide(&command, &ctx);
        println!("{}", serde_json::to_string(&d).unwrap_or_default());
    }
}

fn run_all(program: &str, fixed: &[String], commands: &[String], rounds: usize) -> Vec<Duration> {
    let mut samples = Vec::with_capacity(commands.len() * rounds);
    for _ in 0..rounds {
        for c in commands {
            let mut cmd = std::process::Command::new(program);
            cmd.args(fixed);
            cmd.arg(c);
            cmd.stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            let t = Instant::now();
            let _ = cmd.status();
            samples.push(t.elapsed());
        }
    }
    samples.sort();
    samples
}

fn spawn_bench(dir: &str, subject: &[String]) {
    let mut commands = Vec::new();
    commands_under(Path::new(dir), &mut commands);
    // Commands longer than the kernel's single-argument limit cannot be passed as argv.
    commands.retain(|c| c.len() < 128 * 1024 && !c.contains('\0'));
    let rounds = 5;
    let ours = run_all(&subject[0], &subject[1..], &commands, rounds);
    let base = run_all("/bin/true", &[], &commands, rounds);
    let (p50, p99, max) = (
        percentile(&ours, 0.5),
        percentile(&ours, 0.99),
        ours[ours.len() - 1],
    );
    let (b50, b99, bmax) = (
        percentile(&base, 0.5),
        percentile(&base, 0.99),
        base[base.len() - 1],
    );
    println!(
        "whole process, {} corpus commands x{rounds}: {}",
        commands.len(),
        subject.join(" ")
    );
    println!("  subject   p50 {p50:?} p99 {p99:?} max {max:?}");
    println!("  /bin/true p50 {b50:?} p99 {b99:?} max {bmax:?}");
    println!(
        "  ratio     p50 {:.2}x p99 {:.2}x",
        p50.as_secs_f64() / b50.as_secs_f64(),
        p99.as_secs_f64() / b99.as_secs_f64()
    );
}
