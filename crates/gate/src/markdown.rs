//! The receipt rendered for a pull request or a job summary.

use crate::guards::GuardStatus;
use crate::receipt::{CheckStatus, Receipt, Verdict};
use std::fmt::Write;

fn verdict_line(r: &Receipt) -> &'static str {
    match r.verdict {
        Verdict::Pass => "✅ **pass**: checks green, no guard tripped",
        Verdict::Fail => "❌ **fail**: a check failed, the work is not done",
        Verdict::Tampered => {
            "🛑 **tampered**: a guard tripped or a check was refused; a human should look"
        }
    }
}

/// Fence text so that nothing in a check's output can close the code block.
fn fence(text: &str) -> String {
    let mut ticks = 3;
    while text.contains(&"`".repeat(ticks)) {
        ticks += 1;
    }
    let f = "`".repeat(ticks);
    format!("{f}text\n{text}\n{f}\n")
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

pub fn render(r: &Receipt) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## loopgate receipt\n\n{}\n", verdict_line(r));
    let head = r
        .repo
        .head
        .as_deref()
        .map(|h| &h[..h.len().min(12)])
        .unwrap_or("(no commit)");
    let _ = writeln!(
        s,
        "- repo: `{}` at `{head}`{}{}",
        r.repo.root,
        r.repo
            .branch
            .as_deref()
            .map(|b| format!(" on `{b}`"))
            .unwrap_or_default(),
        if r.repo.dirty { " (dirty)" } else { "" }
    );
    let base = serde_json::to_value(r.baseline.kind)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "- compared with: {base}{}",
        r.baseline
            .reference
            .as_deref()
            .map(|x| format!(" `{}`", &x[..x.len().min(12)]))
            .unwrap_or_default()
    );
    let _ = writeln!(
        s,
        "- config: {} (`{}`)",
        r.config.source,
        &r.config.hash[..r.config.hash.len().min(12)]
    );
    let _ = writeln!(
        s,
        "- via: {}, {} ms, loopgate {}",
        r.via, r.duration_ms, r.environment.loopgate_version
    );
    if let Some(q) = &r.quarantine {
        let _ = writeln!(s, "- **quarantine**: {q}");
    }
    if !r.checks.is_empty() {
        let _ = writeln!(
            s,
            "\n### Checks\n\n| check | status | exit | time | vetted |\n|---|---|---|---|---|"
        );
        for c in &r.checks {
            let status = serde_json::to_value(c.status)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "| {} | {status} | {} | {} ms | {} |",
                cell(&c.name),
                c.exit_code
                    .map(|e| e.to_string())
                    .unwrap_or_else(|| "-".into()),
                c.duration_ms,
                if c.vetted {
                    "yes"
                } else {
                    "**no** (shell = true)"
                }
            );
        }
        for c in r.checks.iter().filter(|c| c.status != CheckStatus::Pass) {
            let _ = writeln!(
                s,
                "\n<details><summary>{}: {}</summary>\n",
                cell(&c.name),
                cell(c.reason.as_deref().unwrap_or("output tail"))
            );
            s.push_str(&fence(&c.output_tail));
            s.push_str("\n</details>\n");
        }
    }
    if !r.guards.is_empty() {
        let _ = writeln!(
            s,
            "\n### Guards\n\n| guard | level | status | findings |\n|---|---|---|---|"
        );
        for g in &r.guards {
            let level = serde_json::to_value(g.level)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
            let status = serde_json::to_value(g.status)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "| {} | {level} | {status} | {} |",
                g.name,
                g.findings.len()
            );
        }
        let findings: Vec<_> = r
            .guards
            .iter()
            .filter(|g| matches!(g.status, GuardStatus::Fail | GuardStatus::Warn))
            .flat_map(|g| g.findings.iter().map(move |f| (g, f)))
            .collect();
        if !findings.is_empty() {
            s.push_str("\n#### Findings\n\n");
            for (g, f) in findings {
                let at = f
                    .line
                    .map(|l| format!("{}:{l}", f.path))
                    .unwrap_or_else(|| f.path.clone());
                let _ = writeln!(
                    s,
                    "- `{}` `{}`: {} (`{}`)",
                    g.name,
                    cell(&at),
                    cell(&f.message),
                    cell(&f.snippet).replace('`', "'")
                );
            }
        }
    }
    if !r.skipped_files.is_empty() {
        s.push_str("\n#### Files the guards could not fully read\n\n");
        for f in &r.skipped_files {
            let _ = writeln!(
                s,
                "- `{}`: {}",
                cell(&f.path).replace('`', "'"),
                cell(&f.note)
            );
        }
    }
    let _ = writeln!(s, "\n<sub>receipt hash `{}`</sub>", r.body_hash);
    s
}
