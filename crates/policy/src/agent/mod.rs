//! Agent-mode shell vetting: every command a shell string can run, against the rule packs.
//!
//! The string is parsed with brush-parser ([`crate::shell`]); [`walk`] visits every command
//! it can reach (lists, pipelines, subshells, substitutions, heredocs fed to shells,
//! `bash -c` and `eval` strings, `find -exec` and `xargs` targets, wrappers) while tracking
//! the working directory; [`commands`] peels wrappers and knows what each program runs,
//! [`writes`] what it writes, [`git`] the git rules; [`checks`] holds the path rules.
//! The outcome is the most severe finding. See `docs/rule-packs.md`.

mod args;
mod builtins;
mod checks;
mod commands;
mod find_select;
mod git;
mod git_refs;
mod hook_managers;
mod inline;
mod makefile;
mod opaque_code;
mod output_options;
mod patches;
mod processes;
mod publish;
mod remote;
mod secrets;
mod spawn_literals;
mod tool_config;
mod walk;
mod windows;
mod windows_host;
mod writes;
mod written_code;

use crate::{Decision, Profile, Verdict};
use std::path::PathBuf;

/// Everything agent-mode vetting needs to know about where a command runs.
#[derive(Debug, Clone)]
pub struct AgentContext {
    /// Where the command starts (the agent's cwd), absolute.
    pub cwd: PathBuf,
    pub repo_root: PathBuf,
    pub home: Option<PathBuf>,
    /// Resolved, absolute write roots (the temp dir included when writable).
    pub write_roots: Vec<PathBuf>,
    /// Extra protected globs (`[guards] protect`), relative to the repo root.
    pub protected: Vec<String>,
    /// `[sandbox] deny_read` patterns (`~/x`, absolute, or relative to the repo root; `*`
    /// in a part): a command that names one and sends data over the network is asked about.
    pub secret_paths: Vec<String>,
    pub profile: Profile,
}

/// Stable rule ids of agent mode, most important first (the order breaks ties between
/// findings of the same verdict).
pub mod rule {
    pub const OBSERVER: &str = "profile.observer";
    pub const BOUNDS: &str = "parse.bounds";
    pub const DESTRUCTIVE: &str = "fs.destructive";
    pub const TAMPER: &str = "gate.tamper";
    pub const GIT: &str = "git.destructive";
    pub const REMOTE_DESTRUCTIVE: &str = "remote.destructive";
    pub const PROCESSES: &str = "proc.destructive";
    pub const REMOTE: &str = "exec.remote";
    pub const SECRET: &str = "net.secret";
    pub const ESCAPE: &str = "fs.escape";
    pub const INLINE: &str = "exec.inline";
    pub const DYNAMIC: &str = "exec.dynamic";
    pub const PARSE: &str = "parse.error";
    pub const ALLOW: &str = "allow.default";

    pub(crate) const ORDER: [&str; 13] = [
        OBSERVER,
        BOUNDS,
        DESTRUCTIVE,
        TAMPER,
        GIT,
        REMOTE_DESTRUCTIVE,
        PROCESSES,
        REMOTE,
        SECRET,
        ESCAPE,
        INLINE,
        DYNAMIC,
        PARSE,
    ];
}

/// One rule that fired on one command.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub verdict: Verdict,
    pub rule: &'static str,
    pub reason: String,
    pub suggestion: String,
}

impl Finding {
    pub fn deny(rule: &'static str, reason: String, suggestion: &str) -> Finding {
        Finding {
            verdict: Verdict::Deny,
            rule,
            reason,
            suggestion: suggestion.to_string(),
        }
    }

    /// Needs a human in `standard`; refused outright in `strict`.
    pub fn ask(rule: &'static str, reason: String, suggestion: &str) -> Finding {
        Finding {
            verdict: Verdict::Ask,
            rule,
            reason,
            suggestion: suggestion.to_string(),
        }
    }

    fn rank(&self) -> (Verdict, std::cmp::Reverse<usize>) {
        let order = rule::ORDER
            .iter()
            .position(|r| *r == self.rule)
            .unwrap_or(usize::MAX);
        (self.verdict, std::cmp::Reverse(order))
    }
}

/// Decide one shell command string an agent asks to run.
pub fn decide(command: &str, ctx: &AgentContext) -> Decision {
    if ctx.profile == Profile::Observer {
        return Decision {
            decision: Verdict::Deny,
            rule: rule::OBSERVER.into(),
            reason: "profile observer: no tool may run, shell commands included".into(),
            commands: vec![command.to_string()],
            suggestion: Some("switch [policy] profile to standard to let the agent act".into()),
        };
    }
    let ctx = &normalized(ctx);
    crate::shell::contain(|| {
        let mut analyzer = walk::Analyzer::new(ctx);
        analyzer.analyse(command);
        let (findings, commands) = analyzer.finish();
        verdict_of(findings, commands, ctx.profile)
    })
    .unwrap_or_else(|failure| Decision {
        decision: if ctx.profile == Profile::Standard {
            Verdict::Ask
        } else {
            Verdict::Deny
        },
        rule: rule::PARSE.into(),
        reason: failure,
        commands: vec![command.to_string()],
        suggestion: Some("rewrite the command in plain bash a human can read".into()),
    })
}

/// Paths compared component by component must be spelled one way: `/a/b/` and `/a/./b`
/// are `/a/b`.
fn normalized(ctx: &AgentContext) -> AgentContext {
    let root = std::path::Path::new("/");
    let norm = |p: &std::path::Path| roots::normalize(p, root, None);
    AgentContext {
        cwd: norm(&ctx.cwd),
        repo_root: norm(&ctx.repo_root),
        home: ctx.home.as_deref().map(norm),
        write_roots: ctx.write_roots.iter().map(|r| norm(r)).collect(),
        protected: ctx.protected.clone(),
        secret_paths: ctx.secret_paths.clone(),
        profile: ctx.profile,
    }
}

fn verdict_of(findings: Vec<Finding>, commands: Vec<String>, profile: Profile) -> Decision {
    let strict = profile == Profile::Strict;
    let best = findings.into_iter().max_by(|a, b| {
        // `max_by` keeps the last of equals: compare reversed positions so the first
        // finding of the best rank wins.
        let (ra, rb) = (promote(a, strict).rank(), promote(b, strict).rank());
        ra.cmp(&rb).then(std::cmp::Ordering::Greater)
    });
    match best {
        None => Decision {
            decision: Verdict::Allow,
            rule: rule::ALLOW.into(),
            reason: format!("no rule matched the {} command(s) analysed", commands.len()),
            commands,
            suggestion: None,
        },
        Some(f) => {
            let was_ask = f.verdict == Verdict::Ask;
            let f = promote(&f, strict);
            let mut reason = f.reason;
            if strict && was_ask {
                reason.push_str(" (profile strict: refused instead of asked)");
            }
            Decision {
                decision: f.verdict,
                rule: f.rule.into(),
                reason,
                commands,
                suggestion: Some(f.suggestion),
            }
        }
    }
}

/// `strict` turns every `ask` into `deny`.
fn promote(f: &Finding, strict: bool) -> Finding {
    let mut f = f.clone();
    if strict && f.verdict == Verdict::Ask {
        f.verdict = Verdict::Deny;
    }
    f
}
