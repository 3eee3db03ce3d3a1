//! `loopgate audit verify|tail|stats`: read the hash-chained log of this repository.

use crate::cli::AuditCommand;
use crate::exit::Exit;
use anyhow::Context;
use audit::{AuditLog, AuditSettings, Entry, Stats, VerifyReport};
use owo_colors::OwoColorize;
use std::path::Path;

pub fn run(dir: &Path, cmd: &AuditCommand) -> anyhow::Result<Exit> {
    let root = gate::git::root_of(dir).unwrap_or_else(|| dir.to_path_buf());
    let loaded = gate::config::load(&root, Vec::new)?;
    let cfg = &loaded.config.audit;
    let log = AuditLog::new(
        &state::state_dir(&root),
        AuditSettings {
            max_bytes: cfg.max_bytes,
            keep: cfg.keep,
            max_field_bytes: cfg.max_field_bytes,
        },
    );
    let unreadable = || {
        format!(
            "cannot read the audit log in {}",
            state::state_dir(&root).display()
        )
    };
    match cmd {
        AuditCommand::Verify(args) => {
            let exists = log.exists().with_context(unreadable)?;
            let witnesses = gate::store::audit_witnesses(&root);
            let report = log.verify_with(&witnesses).with_context(unreadable)?;
            print_verify(&report, exists, args.json)?;
            Ok(if report.intact() {
                Exit::Pass
            } else {
                Exit::Refused
            })
        }
        AuditCommand::Tail(args) => {
            let entries = log.tail(args.lines).with_context(unreadable)?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&entries)?);
            } else {
                for entry in &entries {
                    anstream::println!("{}", tail_line(entry));
                }
            }
            Ok(Exit::Pass)
        }
        AuditCommand::Stats(args) => {
            let stats = log.stats().with_context(unreadable)?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&stats)?);
            } else {
                print_stats(&stats);
            }
            Ok(Exit::Pass)
        }
    }
}

fn print_verify(report: &VerifyReport, exists: bool, json: bool) -> anyhow::Result<()> {
    if json {
        let mut value = serde_json::to_value(report)?;
        value["intact"] = report.intact().into();
        value["exists"] = exists.into();
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    match &report.broken {
        None if !exists => println!("no audit log yet: nothing to verify"),
        None => anstream::println!(
            "{} {} line(s) in {} file(s), last seq {}{}",
            "audit log intact:".green().bold(),
            report.lines,
            report.files.len(),
            report
                .last_seq
                .map(|s| s.to_string())
                .unwrap_or_else(|| "-".into()),
            anchor_note(report)
        ),
        Some(broken) => anstream::println!(
            "{} {broken}\n  {} line(s) verified before it",
            "audit log broken:".red().bold(),
            report.lines
        ),
    }
    Ok(())
}

/// What the anchor and the receipts vouched for, after an intact verdict.
fn anchor_note(report: &VerifyReport) -> String {
    let Some(anchor) = &report.anchor else {
        return String::new();
    };
    let mut note = format!("; the anchor vouches for its end (seq {})", anchor.seq);
    if anchor.since > 0 {
        note.push_str(&format!(
            ", since seq {} (the anchor was created then; earlier lines rest on their chain alone)",
            anchor.since
        ));
    }
    if report.witnesses > 0 {
        note.push_str(&format!(
            "; {} receipt(s) agree with the log",
            report.witnesses
        ));
    }
    note
}

fn tail_line(e: &Entry) -> String {
    let decision = e.decision.as_deref().unwrap_or("-");
    let decision = match decision {
        "deny" => decision.red().to_string(),
        "ask" => decision.yellow().to_string(),
        _ => decision.to_string(),
    };
    let mut line = format!(
        "{} #{} {} {} {} {} {}",
        e.time,
        e.seq,
        e.session,
        e.agent,
        e.event,
        e.tool.as_deref().unwrap_or("-"),
        decision
    );
    if let Some(rule) = &e.rule {
        line.push_str(&format!(" [{rule}]"));
    }
    if let Some(reason) = &e.reason {
        line.push_str(&format!(" {reason}"));
    }
    line
}

fn print_stats(s: &Stats) {
    println!("lines: {}", s.lines);
    println!("attempts: {}", s.attempts);
    println!("denials: {}", s.denials);
    for (decision, n) in &s.decisions {
        println!("  decision {decision}: {n}");
    }
    if !s.denials_by_rule.is_empty() {
        println!("denials by rule:");
        for (rule, n) in &s.denials_by_rule {
            println!("  {rule}: {n}");
        }
    }
    if !s.sessions.is_empty() {
        println!("by session:");
        for (session, st) in &s.sessions {
            println!(
                "  {session}: {} attempt(s), {} denial(s)",
                st.attempts, st.denials
            );
        }
    }
    if s.unreadable > 0 {
        println!(
            "unreadable lines: {} (run `loopgate audit verify`)",
            s.unreadable
        );
    }
}
