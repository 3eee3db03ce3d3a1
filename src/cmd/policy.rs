//! `loopgate policy check|lint`: expose the vetting decisions on the command line.

use super::hook::workspace::Workspace;
use crate::cli::{PolicyCheckArgs, PolicyCommand, PolicyLintArgs, PolicyMode};
use crate::exit::Exit;
use owo_colors::OwoColorize;
use policy::agent::AgentContext;
use policy::check_mode::{self, CheckModeOptions};
use policy::{Decision, Verdict};
use std::path::{Path, PathBuf};

pub fn run(dir: &Path, cmd: &PolicyCommand) -> anyhow::Result<Exit> {
    match cmd {
        PolicyCommand::Check(args) => check(dir, args),
        PolicyCommand::Lint(args) => lint(dir, args),
    }
}

fn check(dir: &Path, args: &PolicyCheckArgs) -> anyhow::Result<Exit> {
    let command = args.command.join(" ");
    let cwd = absolute(
        &args
            .cwd
            .clone()
            .map(|c| dir.join(c))
            .unwrap_or_else(|| dir.to_path_buf()),
    );
    if !cwd.is_dir() {
        anyhow::bail!("--cwd {} is not a directory", cwd.display());
    }
    // The same view of the repository the tool gate's hook takes.
    let ws = Workspace::load(&cwd).map_err(|e| anyhow::anyhow!("{e}"))?;
    let decision = match args.mode {
        PolicyMode::Check => {
            let opts = CheckModeOptions {
                extra_programs: ws.config.gate.programs.clone(),
                root: ws.root.clone(),
            };
            match check_mode::vet(&command, &opts) {
                Ok(commands) => check_mode::allowed_decision(&commands),
                Err(refusal) => refusal.to_decision(&command),
            }
        }
        PolicyMode::Agent => {
            let ctx = AgentContext {
                protected: ws.config.protect_globs(),
                secret_paths: ws.config.sandbox.deny_read.clone(),
                profile: ws.config.policy.profile,
                cwd,
                repo_root: ws.root,
                home: ws.home,
                write_roots: ws.write_roots,
            };
            policy::agent::decide(&command, &ctx)
        }
    };
    if args.json {
        println!("{}", serde_json::to_string(&decision)?);
    } else {
        print_decision(&decision);
    }
    Ok(match decision.decision {
        Verdict::Allow => Exit::Pass,
        Verdict::Ask | Verdict::Deny => Exit::Refused,
    })
}

fn print_decision(d: &Decision) {
    let verdict = match d.decision {
        Verdict::Allow => "allow".green().bold().to_string(),
        Verdict::Ask => "ask".yellow().bold().to_string(),
        Verdict::Deny => "deny".red().bold().to_string(),
    };
    anstream::println!("{verdict} [{}]: {}", d.rule, d.reason);
    for c in &d.commands {
        anstream::println!("  {} {c}", "command:".dimmed());
    }
    if let Some(s) = &d.suggestion {
        anstream::println!("  {} {s}", "instead:".cyan());
    }
}

fn absolute(dir: &Path) -> PathBuf {
    if dir.is_absolute() {
        return sandbox::normalize(dir, Path::new("/"), None);
    }
    match std::env::current_dir() {
        Ok(cwd) => sandbox::normalize(dir, &cwd, None),
        Err(_) => dir.to_path_buf(),
    }
}

/// One finding of `policy lint`.
#[derive(Debug, serde::Serialize)]
struct LintFinding {
    /// `check <name>` or `[gate] programs`.
    item: String,
    command: String,
    rule: String,
    reason: String,
    suggestion: String,
}

fn lint(dir: &Path, args: &PolicyLintArgs) -> anyhow::Result<Exit> {
    let path = dir.join(&args.file);
    let bytes = state::read_bounded(&path, gate::config::MAX_FILE_BYTES, state::Follow::Yes)
        .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{}: the file is not UTF-8 text", path.display()))?;
    let config = gate::config::Config::parse(&text, &path).map_err(|e| anyhow::anyhow!("{e}"))?;
    // Scripts are looked up next to the config, where the repository would hold them.
    let root = absolute(
        path.parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new(".")),
    );
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let findings = lint_config(&config, &root);
    let clean = config.checks.len()
        - findings
            .iter()
            .filter(|f| f.item.starts_with("check "))
            .count();
    if args.json {
        let out = serde_json::json!({
            "file": path.display().to_string(),
            "checks": config.checks.len(),
            "clean": clean,
            "findings": findings,
        });
        println!("{}", serde_json::to_string(&out)?);
    } else {
        for check in &config.checks {
            match findings
                .iter()
                .find(|f| f.item == format!("check {}", check.name))
            {
                Some(f) => {
                    anstream::println!(
                        "{} check `{}`: {} [{}]",
                        "refused".red().bold(),
                        check.name,
                        f.reason,
                        f.rule
                    );
                    anstream::println!("  {} {}", "run:".dimmed(), f.command);
                    anstream::println!("  {} {}", "instead:".cyan(), f.suggestion);
                }
                None => anstream::println!(
                    "{} check `{}`: {}",
                    "ok".green().bold(),
                    check.name,
                    check.run
                ),
            }
        }
        for f in findings.iter().filter(|f| !f.item.starts_with("check ")) {
            anstream::println!(
                "{} {} `{}`: {} [{}]",
                "suspicious".red().bold(),
                f.item,
                f.command,
                f.reason,
                f.rule
            );
            anstream::println!("  {} {}", "instead:".cyan(), f.suggestion);
        }
        if findings.is_empty() {
            println!(
                "{}: {} check(s), all vetted clean",
                path.display(),
                config.checks.len()
            );
        }
    }
    Ok(if findings.is_empty() {
        Exit::Pass
    } else {
        Exit::Refused
    })
}

/// Every check vetted in check mode (an untrusted config's `programs` additions are not
/// trusted to widen the allowlist), `shell = true` reported as unvetted, and every
/// `programs` addition that names a shell, wrapper or inline-code interpreter.
fn lint_config(config: &gate::config::Config, root: &Path) -> Vec<LintFinding> {
    let mut out = Vec::new();
    let opts = CheckModeOptions {
        extra_programs: config
            .gate
            .programs
            .iter()
            .filter(|p| check_mode::suspicious_program(p).is_none())
            .cloned()
            .collect(),
        root: root.to_path_buf(),
    };
    for check in &config.checks {
        let item = format!("check {}", check.name);
        if check.shell {
            out.push(LintFinding {
                item,
                command: check.run.clone(),
                rule: "check.unvetted".into(),
                reason: "`shell = true` runs the string through a shell without vetting; in an untrusted config that is arbitrary code".into(),
                suggestion: "remove `shell = true` and write the check as simple commands joined by `&&`, or call a script file in the repository".into(),
            });
            continue;
        }
        if let Err(r) = check_mode::vet(&check.run, &opts) {
            out.push(LintFinding {
                item,
                command: check.run.clone(),
                rule: r.rule,
                reason: r.reason,
                suggestion: r.suggestion,
            });
        }
    }
    for program in &config.gate.programs {
        if let Some(why) = check_mode::suspicious_program(program) {
            out.push(LintFinding {
                item: "[gate] programs".into(),
                command: program.clone(),
                rule: "check.suspicious_program".into(),
                reason: why,
                suggestion:
                    "remove it from `[gate] programs`; call a script file in the repository instead"
                        .into(),
            });
        }
    }
    out
}
