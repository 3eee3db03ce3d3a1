//! The tool gate (PreToolUse and kin): profile, user rules, shell vetting, write roots and
//! gate files, token budget; every attempt audited. Fails closed: a configuration that
//! does not load, an internal error or an overrun deadline is a deny naming the cause.

use super::budget_gate::{self, Budget};
use super::deadline;
use super::evidence::{self, Attempt};
use super::workspace::{self, Workspace};
use agents::{HookInput, Response, ToolCall};
use policy::{Decision, Profile, Verdict};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub fn handle(frame: workspace::Frame, input: &HookInput, call: &ToolCall) -> Response {
    let ws = match frame {
        Ok(ws) => ws,
        Err(e) => {
            let reason = format!(
                "loopgate: the session's configuration does not load, so no tool call is allowed: {}",
                e.message
            );
            if let Some(root) = &e.root {
                let decision = deny("config.invalid", reason.clone());
                audit(root, None, input, call, &decision, Map::new());
            }
            return Response::Deny { reason };
        }
    };
    match budget_gate::assess(ws, input) {
        Budget::Within => {}
        Budget::Over(halt) => {
            let decision = deny("budget.exhausted", halt.reason.clone());
            audit(
                &ws.root,
                Some(&ws.config),
                input,
                call,
                &decision,
                halt.extra,
            );
            return Response::Halt {
                reason: halt.reason,
            };
        }
        Budget::Unmeasurable(why) => {
            let decision = deny("budget.unmeasurable", why);
            audit(
                &ws.root,
                Some(&ws.config),
                input,
                call,
                &decision,
                Map::new(),
            );
            return Response::Deny {
                reason: reason_text(&decision),
            };
        }
    }
    let limit = deadline::for_tool_call(ws.config.gate.hook_deadline);
    let owned_call = call.clone();
    let view = View::of(ws);
    let outcome =
        deadline::within(limit, move || decide(&owned_call, &view)).unwrap_or_else(|| {
            deny(
                "hook.deadline",
                format!(
                    "the decision did not finish within the hook deadline ({}); refused to be safe",
                    deadline::describe(limit)
                ),
            )
        });
    let (outcome, extra, rewritten) = super::rewrite::apply(ws, input, call, outcome);
    audit(&ws.root, Some(&ws.config), input, call, &outcome, extra);
    match rewritten {
        Some(response) => response,
        None => respond(&outcome),
    }
}

/// The plain data a decision needs (owned, so it can move to the worker thread).
#[derive(Debug, Clone)]
pub struct View {
    pub root: PathBuf,
    pub cwd: PathBuf,
    pub home: Option<PathBuf>,
    pub write_roots: Vec<PathBuf>,
    pub protect: Vec<String>,
    pub profile: Profile,
    pub rules: super::rules::UserRules,
}

impl View {
    fn of(ws: &Workspace) -> View {
        View {
            root: ws.root.clone(),
            cwd: workspace::canonical(&ws.cwd),
            home: ws.home.clone(),
            write_roots: ws.write_roots.clone(),
            protect: ws.config.guards.protect.clone(),
            profile: ws.config.policy.profile,
            rules: super::rules::UserRules::from_config(&ws.config.policy),
        }
    }
}

/// The decision for one tool call: deny > ask > allow across the profile, the user's rules
/// and loopgate's own rules. User `allow` rules never unlock loopgate's own denials.
pub fn decide(call: &ToolCall, view: &View) -> Decision {
    if view.profile == Profile::Observer {
        return deny(
            "profile.observer",
            format!(
                "profile `observer` refuses every tool call ({} was attempted and recorded)",
                call.tool_name()
            ),
        );
    }
    let user = view
        .rules
        .decide(call, &view.cwd, &view.root, view.home.as_deref());
    let builtin = match call {
        ToolCall::Shell { command, cwd, .. } => {
            let start = cwd
                .as_deref()
                .map(|c| sandbox::normalize(c, &view.cwd, view.home.as_deref()))
                .unwrap_or_else(|| view.cwd.clone());
            let ctx = policy::agent::AgentContext {
                cwd: start,
                repo_root: view.root.clone(),
                home: view.home.clone(),
                write_roots: view.write_roots.clone(),
                protected: view.protect.clone(),
                profile: view.profile,
            };
            policy::agent::decide(command, &ctx)
        }
        ToolCall::FileWrite { paths, .. } => {
            let resolved: Vec<PathBuf> = paths
                .iter()
                .map(|p| workspace::resolve_target(p, &view.cwd, view.home.as_deref()))
                .collect();
            check_writes(&resolved, &view.root, &view.write_roots, &view.protect)
        }
        ToolCall::FileRead { .. } | ToolCall::Other { .. } => {
            Decision::allow("allow.default", "no loopgate rule applies", Vec::new())
        }
    };
    combine(builtin, user, view.profile, call.tool_name())
}

fn combine(builtin: Decision, user: Option<Decision>, profile: Profile, tool: &str) -> Decision {
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
/// `paths` are absolute and resolved.
pub fn check_writes(
    paths: &[PathBuf],
    root: &Path,
    roots: &[PathBuf],
    protect: &[String],
) -> Decision {
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    if paths.is_empty() {
        return deny(
            "fs.unknown-target",
            "cannot tell which files this edit writes, so it is refused".to_string(),
        );
    }
    for path in paths {
        if !sandbox::is_inside(path, roots) {
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
            if let Some(pattern) = gate_file_pattern(rel, protect) {
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

/// The gate-file or `[guards] protect` pattern `rel` (repo-relative) matches, with the
/// guards' own gitignore-style semantics (so the tool gate and `config_edits` /
/// `protected_edits` agree on what is protected). Gate files are anchored at the root.
pub fn gate_file_pattern(rel: &str, protect: &[String]) -> Option<String> {
    let rel = rel.trim_start_matches('/');
    if rel.is_empty() {
        return None;
    }
    let anchored: Vec<String> = gate::guards::GATE_FILES
        .iter()
        .map(|g| format!("/{g}"))
        .collect();
    if let Some(p) = gate::guards::PathSet::new(&anchored).first_match(rel) {
        return Some(p.text.trim_start_matches('/').to_string());
    }
    gate::guards::PathSet::new(protect)
        .first_match(rel)
        .map(|p| p.text.clone())
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

/// The agent-facing text: names loopgate and the rule, and says what to do instead.
pub fn reason_text(d: &Decision) -> String {
    let mut text = format!("loopgate refused this ({}): {}", d.rule, d.reason);
    if d.decision == Verdict::Ask {
        text = format!("loopgate asks for a human ({}): {}", d.rule, d.reason);
    }
    if let Some(s) = d.suggestion.as_deref().filter(|s| !s.is_empty()) {
        text.push_str(&format!(". Instead: {s}"));
    }
    text
}

fn respond(d: &Decision) -> Response {
    match d.decision {
        Verdict::Deny => Response::Deny {
            reason: reason_text(d),
        },
        Verdict::Ask => Response::Ask {
            reason: reason_text(d),
        },
        // Only an explicit user rule pre-approves a call; otherwise the agent's own
        // permission system still has its say.
        Verdict::Allow if d.rule.starts_with("user.") => Response::Allow {
            reason: Some(format!("loopgate: allowed by {}", d.reason)),
        },
        Verdict::Allow => Response::Nothing,
    }
}

fn audit(
    root: &Path,
    config: Option<&gate::config::Config>,
    input: &HookInput,
    call: &ToolCall,
    d: &Decision,
    extra: Map<String, Value>,
) {
    let verdict = match d.decision {
        Verdict::Allow => "allow",
        Verdict::Ask => "ask",
        Verdict::Deny => "deny",
    };
    evidence::tool_call(
        root,
        config,
        input,
        Attempt {
            call,
            decision: verdict,
            rule: &d.rule,
            reason: &d.reason,
            extra,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn writes_outside_roots_name_the_path_and_rule() {
        let d = check_writes(
            &[p("/repo/a"), p("/etc/passwd")],
            &p("/repo"),
            &[p("/repo")],
            &[],
        );
        assert_eq!(d.decision, Verdict::Deny);
        assert_eq!(d.rule, "fs.escape");
        assert!(
            d.reason.contains("/etc/passwd") && d.reason.contains("/repo"),
            "{}",
            d.reason
        );
    }

    #[test]
    fn gate_files_and_protect_globs_are_refused() {
        let roots = [p("/repo")];
        for (path, pattern) in [
            ("/repo/loopgate.toml", "loopgate.toml"),
            ("/repo/.loopgate/ledger.json", ".loopgate/**"),
            ("/repo/.claude/settings.json", ".claude/settings.json"),
            ("/repo/crates/x/Cargo.toml", "Cargo.toml"),
        ] {
            let d = check_writes(&[p(path)], &p("/repo"), &roots, &["Cargo.toml".into()]);
            assert_eq!(d.rule, "gate.tamper", "{path}");
            assert!(d.reason.contains(pattern), "{path}: {}", d.reason);
        }
        let ok = check_writes(
            &[p("/repo/src/lib.rs")],
            &p("/repo"),
            &roots,
            &["Cargo.toml".into()],
        );
        assert_eq!(ok.decision, Verdict::Allow);
    }

    #[test]
    fn an_edit_with_no_paths_is_refused() {
        let d = check_writes(&[], &p("/repo"), &[p("/repo")], &[]);
        assert_eq!(
            (d.decision, d.rule.as_str()),
            (Verdict::Deny, "fs.unknown-target")
        );
    }

    #[test]
    fn anchored_protect_globs_only_match_from_the_root() {
        assert_eq!(
            gate_file_pattern("ci/deploy.yml", &["/ci/*.yml".into()]).as_deref(),
            Some("/ci/*.yml")
        );
        assert_eq!(
            gate_file_pattern("x/ci/deploy.yml", &["/ci/*.yml".into()]),
            None
        );
        assert_eq!(gate_file_pattern("", &[]), None);
    }

    #[test]
    fn deny_beats_ask_beats_allow() {
        let allow = Decision::allow("user.allow", "rule Bash(ls)", vec![]);
        let builtin_deny = deny("fs.escape", "x".into());
        assert_eq!(
            combine(
                builtin_deny.clone(),
                Some(allow.clone()),
                Profile::Standard,
                "Bash"
            )
            .rule,
            "fs.escape"
        );
        let user_deny = deny("user.deny", "rule Read(.env)".into());
        let builtin_allow = Decision::allow("allow.default", "", vec![]);
        assert_eq!(
            combine(
                builtin_allow.clone(),
                Some(user_deny),
                Profile::Standard,
                "Read"
            )
            .rule,
            "user.deny"
        );
        assert_eq!(
            combine(builtin_allow.clone(), Some(allow), Profile::Strict, "Bash").rule,
            "user.allow"
        );
        let strict = combine(builtin_allow, None, Profile::Strict, "Bash");
        assert_eq!(
            (strict.decision, strict.rule.as_str()),
            (Verdict::Deny, "profile.strict")
        );
    }

    #[test]
    fn observer_refuses_everything() {
        let view = View {
            root: p("/repo"),
            cwd: p("/repo"),
            home: None,
            write_roots: vec![p("/repo")],
            protect: vec![],
            profile: Profile::Observer,
            rules: Default::default(),
        };
        let call = ToolCall::FileRead {
            tool: "Read".into(),
            path: p("/repo/a"),
        };
        let d = decide(&call, &view);
        assert_eq!(
            (d.decision, d.rule.as_str()),
            (Verdict::Deny, "profile.observer")
        );
        assert!(reason_text(&d).starts_with("loopgate refused this (profile.observer)"));
    }
}
