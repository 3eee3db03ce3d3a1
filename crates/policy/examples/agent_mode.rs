//! Agent-mode vetting from the command line, and its in-process corpus benchmark.
//!
//! `cargo run -p policy --example agent_mode -- 'rm -rf /'` prints the decision as JSON
//! (cwd and repo `/home/dev/project`, home `/home/dev`, write roots the repo and the temp
//! dir, like the corpus test; `LOOPGATE_PROFILE=strict` switches profile).
//! `... --example agent_mode -- --bench DIR` decides every `command` of every TOML under
//! DIR 200 times and prints per-decision p50/p99/max.

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
        profile,
    }
}

fn commands_under(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            commands_under(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            let Ok(doc) = toml::from_str::<toml::Table>(&text) else { continue };
            for c in doc.get("case").and_then(|c| c.as_array()).into_iter().flatten() {
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
        let dir = args.get(1).map(String::as_str).unwrap_or("/work/shared/corpora/dcg");
        let mut commands = Vec::new();
        commands_under(Path::new(dir), &mut commands);
        let mut samples = Vec::with_capacity(commands.len() * 200);
        for _ in 0..200 {
            for c in &commands {
                let t = Instant::now();
                std::hint::black_box(decide(c, &ctx));
                samples.push(t.elapsed());
            }
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
    for command in args {
        let d = decide(&command, &ctx);
        println!("{}", serde_json::to_string(&d).unwrap_or_default());
    }
}
