//! Budget accounting on a generated Claude Code transcript: the first call, then calls
//! after a few lines were appended (the hook's steady state), then a call with nothing new.
//! Usage: budget_bench [DIR] [MEGABYTES]  (DIR defaults to a temp dir).

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::time::{Duration, Instant};

/// A deterministic mix of prompts, streamed assistant messages and tool results.
struct Gen {
    state: u64,
    msg: u64,
}

impl Gen {
    fn next(&mut self) -> u64 {
        // xorshift: reproducible sizes without a dependency.
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }

    fn exchange(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        self.msg += 1;
        let id = format!("msg_{:024}", self.msg);
        if self.next().is_multiple_of(10) {
            writeln!(
                out,
                r#"{{"type":"user","uuid":"u{}","message":{{"role":"user","content":"please continue with the next step"}}}}"#,
                self.msg
            )?;
        }
        let text = "lorem ipsum ".repeat(20 + (self.next() % 200) as usize);
        let input = 3 + self.next() % 50;
        let cc = self.next() % 5000;
        let cr = 20_000 + self.next() % 100_000;
        let blocks = 1 + self.next() % 3;
        for b in 0..blocks {
            let output = if b + 1 == blocks {
                50 + self.next() % 2000
            } else {
                1
            };
            writeln!(
                out,
                r#"{{"parentUuid":"p","isSidechain":false,"type":"assistant","uuid":"a{}-{b}","timestamp":"2026-01-01T00:00:00.000Z","message":{{"id":"{id}","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"text","text":"{text}"}}],"stop_reason":null,"usage":{{"input_tokens":{input},"cache_creation_input_tokens":{cc},"cache_read_input_tokens":{cr},"output_tokens":{output},"service_tier":"standard"}}}},"requestId":"req_{}"}}"#,
                self.msg, self.msg
            )?;
        }
        let result = "x".repeat(200 + (self.next() % 6000) as usize);
        writeln!(
            out,
            r#"{{"type":"user","uuid":"r{}","message":{{"role":"user","content":[{{"tool_use_id":"toolu_{}","type":"tool_result","content":"{result}"}}]}}}}"#,
            self.msg, self.msg
        )
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2}ms", d.as_secs_f64() * 1e3)
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let base = args.next().map(std::path::PathBuf::from);
    let megabytes: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(50);
    let tmp = match &base {
        Some(b) => tempfile::tempdir_in(b)?,
        None => tempfile::tempdir()?,
    };
    let transcript = tmp.path().join("session.jsonl");
    let state = tmp.path().join(".loopgate");
    let mut gen = Gen {
        state: 0x9e3779b97f4a7c15,
        msg: 0,
    };
    {
        let mut out = BufWriter::new(std::fs::File::create(&transcript)?);
        while out.get_ref().metadata()?.len() < megabytes * 1024 * 1024 {
            for _ in 0..100 {
                gen.exchange(&mut out)?;
            }
            out.flush()?;
        }
    }
    let size = std::fs::metadata(&transcript)?.len();

    let start = Instant::now();
    let usage = budget::account(&transcript, &state, "bench").expect("account");
    println!(
        "budget first call: {:.1} MB transcript, {} messages, {} tokens counted: {}",
        size as f64 / 1e6,
        usage.messages,
        usage.session_tokens,
        ms(start.elapsed())
    );
    let cache = std::fs::metadata(budget::cache_path(&state, "bench"))?.len();
    println!("budget cache file: {:.1} KB", cache as f64 / 1e3);

    let mut times = Vec::new();
    for _ in 0..200 {
        {
            let mut out = OpenOptions::new().append(true).open(&transcript)?;
            gen.exchange(&mut out)?;
        }
        let start = Instant::now();
        budget::account(&transcript, &state, "bench").expect("account");
        times.push(start.elapsed());
    }
    times.sort();
    println!(
        "budget later call (a few new lines, n=200): p50={} p90={} p99={} max={}",
        ms(times[times.len() / 2]),
        ms(times[(times.len() * 90) / 100]),
        ms(times[(times.len() * 99) / 100]),
        ms(*times.last().unwrap())
    );
    let start = Instant::now();
    budget::account(&transcript, &state, "bench").expect("account");
    println!("budget call with nothing new: {}", ms(start.elapsed()));
    Ok(())
}
