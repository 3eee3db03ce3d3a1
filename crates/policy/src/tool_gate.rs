//! The tool gate's decision (PreToolUse and kin) as a pure function over plain data: the
//! profile, the user's `[policy]` rules, agent-mode shell vetting, and the write-root and
//! gate-file check of file tools. The binary resolves everything that needs the file
//! system or the session (the root, the write roots, symlinked write targets) and passes
//! it in a [`GateContext`]; this module reads nothing, so it is fuzzed (`fuzz/`) and
//! reusable by any caller.

use crate::rules::{RuleSet, ToolSubject};
use crate::{Decision, Profile, Verdict};
use roots::Landing;
use std::path::{Path, PathBuf};

/// What one tool call asks for, with paths already resolved by the caller.
#[derive(Debug, Clone, Copy)]
pub enum ToolRequest<'a> {
    /// A shell command; `cwd` is the directory the agent asked to run it in, if any
    /// (relative to the context's cwd).
    Shell {
        command: &'a str,
        cwd: Option<&'a Path>,
    },
    /// A file write or edit: `paths` as the agent named them, `resolved` the same paths
    /// absolute with symlinks followed (where the write really lands, or the dangling link
    /// that decides it).
    Write {
        paths: &'a [PathBuf],
        resolved: &'a [Landing],
    },
    Read {
        path: &'a Path,
    },
    /// Any other tool; `url` when it fetches one (`WebFetch(domain:...)` rules read it).
    Other {
        url: Option<&'a str>,
    },
}

/// Where and under which configuration the call is decided.
#[derive(Debug, Clone)]
pub struct GateContext {
    /// The repository root (pinned for the session).
    pub root: PathBuf,
    /// The agent's working directory, absolute.
    pub cwd: PathBuf,
    pub home: Option<PathBuf>,
    /// Absolute, resolved write roots.
    pub write_roots: Vec<PathBuf>,
    /// `[guards] protect` globs.
    pub protect: Vec<String>,
    /// `[sandbox] deny_read` patterns: the secrets a shell command may not send over the
    /// network unasked.
    pub deny_read: Vec<String>,
    pub profile: Profile,
    /// The user's `[policy]` rules; a rule that does not parse refuses every call.
    pub rules: Result<RuleSet, String>,
}

impl GateContext {
    /// The user rules compiled from `[policy] allow / ask / deny`.
    pub fn rules_from(
        allow: &[String],
        ask: &[String],
        deny: &[String],
    ) -> Result<RuleSet, String> {
        RuleSet::new(allow, ask, deny)
    }
}

/// The decision for one tool call: deny > ask > allow across the profile, the user's rules
/// and loopgate's own rules. User `allow` rules never unlock loopgate's own denials.
pub fn decide(tool: &str, request: &ToolRequest<'_>, ctx: &GateContext) -> Decision {
    if ctx.profile == Profile::Observer {
        return deny(
            "profile.observer",
            format!(
                "profile `observer` refuses every tool call ({tool} was attempted and recorded)"
            ),
        );
    }
    let user = user_decision(tool, request, ctx);
    let builtin = match request {
        ToolRequest::Shell { command, cwd } => {
            let start = cwd
                .map(|c| roots::normalize(c, &ctx.cwd, ctx.home.as_deref()))
                .unwrap_or_else(|| ctx.cwd.clone());
            let agent = crate::agent::AgentContext {
                cwd: start,
                repo_root: ctx.root.clone(),
                home: ctx.home.clone(),
                write_roots: ctx.write_roots.clone(),
                protected: ctx.protect.clone(),
                secret_paths: ctx.deny_read.clone(),
                profile: ctx.profile,
            };
            crate::agent::decide(command, &agent)
        }
        ToolRequest::Write { resolved, .. } => {
            check_writes(resolved, &ctx.root, &ctx.write_roots, &ctx.protect)
        }
        ToolRequest::Read { .. } | ToolRequest::Other { .. } => {
            Decision::allow("allow.default", "no loopgate rule applies", Vec::new())
        }
    };
    combine(builtin, user, ctx.profile, tool)
}

/// The strongest user rule matching the call (deny > ask > allow), as a decision whose
/// rule id starts with `user.`; `None` when no rule names it. A file tool touching several
/// paths is allowed only when every path is.
pub fn user_decision(tool: &str, request: &ToolRequest<'_>, ctx: &GateContext) -> Option<Decision> {
    let set = match &ctx.rules {
        Ok(set) if set.is_empty() => return None,
        Ok(set) => set,
        Err(e) => {
            return Some(deny(
                "user.invalid",
                format!("a [policy] rule does not parse: {e}"),
            ));
        }
    };
    let path = |p: &Path| {
        set.evaluate(
            tool,
            ToolSubject::Path {
                path: p,
                cwd: &ctx.cwd,
                root: &ctx.root,
                home: ctx.home.as_deref(),
            },
        )
    };
    let verdicts: Vec<Option<(Verdict, String)>> = match request {
        ToolRequest::Shell { command, .. } => {
            vec![set.evaluate(tool, ToolSubject::Command(command))]
        }
        ToolRequest::Write { paths, .. } => paths.iter().map(|p| path(p)).collect(),
        ToolRequest::Read { path: p } => vec![path(p)],
        ToolRequest::Other { url } => {
            let domain = url.and_then(crate::rules::fetch_subject);
            match domain {
                Some(d) => vec![set.evaluate(tool, ToolSubject::Text(&d))],
                None => vec![set.evaluate(tool, ToolSubject::None)],
            }
        }
    };
    strongest(verdicts).map(|(verdict, text)| {
        let (id, list) = match verdict {
            Verdict::Deny => ("user.deny", "deny"),
            Verdict::Ask => ("user.ask", "ask"),
            Verdict::Allow => ("user.allow", "allow"),
        };
        Decision {
            decision: verdict,
            rule: id.into(),
            reason: format!("the rule `{text}` in [policy] {list}"),
            commands: Vec::new(),
            suggestion: None,
        }
    })
}

/// Deny or ask from any part wins; allow only when every part is allowed.
fn strongest(verdicts: Vec<Option<(Verdict, String)>>) -> Option<(Verdict, String)> {
    let worst = verdicts.iter().flatten().max_by_key(|(v, _)| *v).cloned()?;
    if worst.0 == Verdict::Allow && verdicts.iter().any(Option::is_none) {
        return None;
    }
    Some(worst)
}

/// `strict` admits only what an allow rule names; otherwise the stronger verdict wins.
pub fn combine(
    builtin: Decision,
    user: Option<Decision>,
    profile: Profile,
    tool: &str,
) -> Decision {
    let user = match (user, profile) {
        (None, Profile::Strict) => Some(deny(
            "profile.strict",
            format!("profile `strict` allows only what an `allow` rule names, and no rule names this {tool} call"),
        )),
        (user, _) => user,
    };
    match user {
        Some(u) if u.decision > builtin.decision => u,
        Some(u) if u.decision == Verdict::Allow && builtin.decision == Verdict::Allow => u,
        _ => builtin,
    }
}

/// Every path of a file tool must lie inside the write roots and must not be a gate file.
/// `landings` are absolute and resolved. A write through a dangling symlink lands wherever
/// the link's target is created first, so it is asked, never judged by the link's path.
pub fn check_writes(
    landings: &[Landing],
    root: &Path,
    roots: &[PathBuf],
    protect: &[String],
) -> Decision {
    let shown: Vec<String> = landings
        .iter()
        .map(|l| match l {
            Landing::Real(p) | Landing::Dangling(p) => p.display().to_string(),
        })
        .collect();
    if landings.is_empty() {
        return deny(
            "fs.unknown-target",
            "cannot tell which files this edit writes, so it is refused".to_string(),
        );
    }
    let protect = crate::globs::PathSet::new(protect);
    let mut paths = Vec::with_capacity(landings.len());
    for landing in landings {
        match landing {
            Landing::Real(path) => paths.push(path),
            Landing::Dangling(link) => {
                return with_commands(
                    Decision {
                        decision: Verdict::Ask,
                        suggestion: Some(
                            "write to the path the link should point to, once it exists"
                                .to_string(),
                        ),
                        ..deny(
                            "fs.escape",
                            format!(
                                "the write goes through {}, a symlink whose target does not exist yet, so where it lands is not known",
                                link.display()
                            ),
                        )
                    },
                    shown,
                );
            }
        }
    }
    for path in paths {
        if !roots::is_inside(path, roots) {
            let listed: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
            return with_commands(
                deny(
                    "fs.escape",
                    format!(
                        "writing {} is outside the write roots ({})",
                        path.display(),
                        listed.join(", ")
                    ),
                ),
                shown,
            );
        }
        if let Some(rel) = path.strip_prefix(root).ok().and_then(|r| r.to_str()) {
            let git_internal = rel.starts_with(".git/hooks") || rel == ".git/config";
            let pattern = crate::globs::gate_file_pattern(rel, &protect)
                .or_else(|| git_internal.then(|| rel.to_string()));
            if let Some(pattern) = pattern {
                return with_commands(
                    deny(
                        "gate.tamper",
                        format!(
                            "{rel} is a gate file (matches `{pattern}`): the agent may not edit it; ask the user to change it"
                        ),
                    ),
                    shown,
                );
            }
        }
    }
    Decision::allow(
        "allow.write-roots",
        "every path is inside the write roots",
        shown,
    )
}

pub fn deny(rule: &str, reason: String) -> Decision {
    Decision {
        decision: Verdict::Deny,
        rule: rule.into(),
        reason,
        commands: Vec::new(),
        suggestion: None,
    }
}

fn with_commands(mut d: Decision, commands: Vec<String>) -> Decision {
    d.commands = commands;
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    fn real(paths: &[PathBuf]) -> Vec<Landing> {
        paths.iter().cloned().map(Landing::Real).collect()
    }

    #[test]
    fn a_write_through_a_dangling_link_is_asked_not_judged_by_the_links_path() {
        let c = ctx(Profile::Standard, &[], &[]);
        let paths = [p("/repo/src/out.txt")];
        let d = decide(
            "Write",
            &ToolRequest::Write {
                paths: &paths,
                resolved: &[Landing::Dangling(p("/repo/src/out.txt"))],
            },
            &c,
        );
        assert_eq!((d.decision, d.rule.as_str()), (Verdict::Ask, "fs.escape"));
        assert!(d.reason.contains("/repo/src/out.txt"), "{}", d.reason);
        assert!(d.reason.contains("does not exist yet"), "{}", d.reason);
    }

    fn ctx(profile: Profile, allow: &[&str], deny_rules: &[&str]) -> GateContext {
        let v = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        GateContext {
            root: p("/repo"),
            cwd: p("/repo"),
            home: Some(p("/home/u")),
            write_roots: vec![p("/repo"), p("/tmp")],
            protect: vec!["Cargo.toml".into()],
            deny_read: vec![],
            profile,
            rules: GateContext::rules_from(&v(allow), &[], &v(deny_rules)),
        }
    }

    #[test]
    fn writes_outside_roots_and_gate_files_are_refused() {
        let c = ctx(Profile::Standard, &[], &[]);
        let write = |path: &str| {
            let paths = [p(path)];
            decide(
                "Write",
                &ToolRequest::Write {
                    paths: &paths,
                    resolved: &real(&paths),
                },
                &c,
            )
        };
        assert_eq!(write("/etc/passwd").rule, "fs.escape");
        assert_eq!(write("/repo/loopgate.toml").rule, "gate.tamper");
        assert_eq!(
            write("/repo/.github/workflows/loopgate.yml").rule,
            "gate.tamper"
        );
        assert_eq!(write("/repo/.git/hooks/pre-commit").rule, "gate.tamper");
        assert_eq!(write("/repo/crates/a/Cargo.toml").rule, "gate.tamper");
        assert_eq!(write("/repo/src/lib.rs").decision, Verdict::Allow);
        let none: [PathBuf; 0] = [];
        let d = decide(
            "Write",
            &ToolRequest::Write {
                paths: &none,
                resolved: &[],
            },
            &c,
        );
        assert_eq!(d.rule, "fs.unknown-target");
    }

    #[test]
    fn profiles_and_user_rules_combine_deny_over_ask_over_allow() {
        let observer = ctx(Profile::Observer, &[], &[]);
        let read = ToolRequest::Read {
            path: Path::new("/repo/a"),
        };
        assert_eq!(decide("Read", &read, &observer).rule, "profile.observer");
        let strict = ctx(Profile::Strict, &["Bash(cargo test:*)"], &[]);
        let shell = |c: &'static str| ToolRequest::Shell {
            command: c,
            cwd: None,
        };
        assert_eq!(
            decide("Bash", &shell("cargo test -q"), &strict).rule,
            "user.allow"
        );
        assert_eq!(decide("Bash", &shell("ls"), &strict).rule, "profile.strict");
        // A user allow never unlocks loopgate's own denial.
        let lax = ctx(Profile::Standard, &["Bash"], &[]);
        assert_eq!(
            decide("Bash", &shell("rm -rf ~"), &lax).rule,
            "fs.destructive"
        );
        let secret = ctx(
            Profile::Standard,
            &[],
            &["Read(.env)", "WebFetch(domain:evil.com)"],
        );
        let env = ToolRequest::Read {
            path: Path::new("/repo/sub/.env"),
        };
        assert_eq!(decide("Read", &env, &secret).rule, "user.deny");
        let fetch = ToolRequest::Other {
            url: Some("https://evil.com/x"),
        };
        assert_eq!(decide("WebFetch", &fetch, &secret).rule, "user.deny");
        let bad = GateContext {
            rules: GateContext::rules_from(&["Bash(unclosed".into()], &[], &[]),
            ..ctx(Profile::Standard, &[], &[])
        };
        assert_eq!(decide("Bash", &shell("ls"), &bad).rule, "user.invalid");
    }

    #[test]
    fn an_edit_is_allowed_by_a_rule_only_when_every_path_is() {
        let c = ctx(Profile::Strict, &["Edit(src/**)"], &[]);
        let edit = |paths: &[PathBuf]| {
            decide(
                "Edit",
                &ToolRequest::Write {
                    paths,
                    resolved: &real(paths),
                },
                &c,
            )
        };
        assert_eq!(edit(&[p("/repo/src/a.rs")]).rule, "user.allow");
        assert_eq!(
            edit(&[p("/repo/src/a.rs"), p("/repo/README.md")]).rule,
            "profile.strict"
        );
    }
}
