//! Human output of a receipt on a terminal (colored only when stdout is one, honoring
//! NO_COLOR through anstream).

use gate::guards::GuardStatus;
use gate::receipt::{CheckStatus, Receipt, Verdict};
use owo_colors::OwoColorize;

fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

pub fn print_receipt(r: &Receipt) {
    let verdict = match r.verdict {
        Verdict::Pass => "PASS".green().bold().to_string(),
        Verdict::Fail => "FAIL".red().bold().to_string(),
        Verdict::Tampered => "TAMPERED".red().bold().to_string(),
    };
    let kind = serde_json::to_value(r.baseline.kind)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let reference = r
        .baseline
        .reference
        .as_deref()
        .map(|x| format!(" {}", &x[..x.len().min(12)]))
        .unwrap_or_default();
    anstream::println!(
        "loopgate check: {verdict} (exit {})  compared with: {kind}{reference}",
        r.exit_code
    );
    if r.config.why.is_empty() {
        anstream::println!("  config: {}", r.config.source);
    } else {
        anstream::println!("  config: {} ({})", r.config.source, r.config.why);
    }
    if let Some(q) = &r.quarantine {
        anstream::println!("  {} {q}", "quarantine:".red().bold());
    }
    if r.checks.is_empty() && r.guards.is_empty() {
        anstream::println!("  nothing to run: no checks declared or detected, guards off");
    }
    for c in &r.checks {
        let mark = match c.status {
            CheckStatus::Pass => "✓".green().to_string(),
            _ => "✗".red().to_string(),
        };
        let status = serde_json::to_value(c.status)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default();
        let exit = c
            .exit_code
            .map(|e| format!(", exit {e}"))
            .unwrap_or_default();
        let vetted = if c.vetted {
            ""
        } else {
            " [unvetted: shell = true]"
        };
        anstream::println!(
            "  {mark} check {}: {status}{exit}, {} ms{vetted}",
            c.name.bold(),
            c.duration_ms
        );
        if let Some(reason) = &c.reason {
            anstream::println!("      {reason}");
        }
        if c.status != CheckStatus::Pass && !c.output_tail.is_empty() {
            anstream::print!("{}", indent(&c.output_tail, "      │ ").dimmed());
        }
    }
    for g in &r.guards {
        let (mark, label) = match g.status {
            GuardStatus::Pass => ("✓".green().to_string(), "pass"),
            GuardStatus::Warn => ("!".yellow().to_string(), "warn"),
            GuardStatus::Fail => ("✗".red().to_string(), "fail"),
            GuardStatus::Skipped => ("-".dimmed().to_string(), "skipped (nothing to compare)"),
            GuardStatus::Off => continue,
        };
        anstream::println!("  {mark} guard {}: {label}", g.name.bold());
        for f in &g.findings {
            let at = f
                .line
                .map(|l| format!("{}:{l}", f.path))
                .unwrap_or_else(|| f.path.clone());
            anstream::println!("      {at}: {}  {}", f.message, f.snippet.dimmed());
        }
    }
    if !r.skipped_files.is_empty() {
        anstream::println!(
            "  {} the guards could not fully read {} changed file{}:",
            "note:".yellow().bold(),
            r.skipped_files.len(),
            if r.skipped_files.len() == 1 { "" } else { "s" }
        );
        for f in &r.skipped_files {
            anstream::println!("      {}: {}", f.path, f.note);
        }
    }
}

/// GitHub Actions: findings and failing checks as annotations, the Markdown receipt in the
/// job summary.
pub fn github_actions(r: &Receipt) {
    if std::env::var_os("GITHUB_ACTIONS").is_none_or(|v| v != "true") {
        return;
    }
    let esc = |s: &str| {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let prop = |s: &str| esc(s).replace(':', "%3A").replace(',', "%2C");
    for c in r.checks.iter().filter(|c| c.status != CheckStatus::Pass) {
        println!(
            "::error title=loopgate check {}::{}",
            prop(&c.name),
            esc(&c.output_tail)
        );
    }
    for g in &r.guards {
        let level = match g.status {
            GuardStatus::Fail => "error",
            GuardStatus::Warn => "warning",
            _ => continue,
        };
        for f in &g.findings {
            let line = f.line.map(|l| format!(",line={l}")).unwrap_or_default();
            println!(
                "::{level} file={}{line},title=loopgate {}::{}",
                prop(&f.path),
                prop(&g.name),
                esc(&f.message)
            );
        }
    }
    if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY") {
        use std::io::Write;
        let md = gate::markdown::render(r);
        match std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&path)
        {
            Ok(mut f) => {
                let _ = f.write_all(md.as_bytes());
            }
            Err(e) => eprintln!("loopgate: cannot append to the job summary: {e}"),
        }
    }
}
