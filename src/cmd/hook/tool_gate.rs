//! The tool gate (PreToolUse and kin): profile, user rules, shell vetting, write roots and
//! gate files, token budget; every attempt audited. Fails closed: a configuration that
//! does not load, an internal error or an overrun deadline is a deny naming the cause.

use super::budget_gate::{self, Budget};
use super::deadline;
use super::evidence::{self, Attempt};
use super::workspace::{self, Workspace};
use agents::{HookInput, Response, ToolCall};
use policy::tool_gate::{GateContext, ToolRequest};
use policy::{Decision, Verdict};
use roots::Landing;
use serde_json::{Map, Value};
use std::path::Path;

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

/// The plain data a decision needs (owned, so it can move to the worker thread), taken
/// from the [`Workspace`] the edge resolved.
#[derive(Debug, Clone)]
pub struct View {
    pub ctx: GateContext,
}

impl View {
    fn of(ws: &Workspace) -> View {
        let policy = &ws.config.policy;
        View {
            ctx: GateContext {
                root: ws.root.clone(),
                cwd: workspace::canonical(&ws.cwd),
                home: ws.home.clone(),
                write_roots: ws.write_roots.clone(),
                protect: ws.config.protect_globs(),
                deny_read: ws.config.sandbox.deny_read.clone(),
                profile: policy.profile,
                rules: GateContext::rules_from(&policy.allow, &policy.ask, &policy.deny),
            },
        }
    }
}

/// loopgate's per-user state (the session pins) belongs to the referee, wherever the write
/// roots reach (`write_roots = ["~"]`, a HOME under the temp dir).
fn referee_state(landings: &[Landing]) -> Option<Decision> {
    let dir = workspace::canonical(&state::user_state_dir()?);
    let paths: Vec<&Path> = landings
        .iter()
        .map(|l| match l {
            Landing::Real(p) | Landing::Dangling(p) => p.as_path(),
        })
        .collect();
    let hit = paths.iter().find(|p| p.starts_with(&dir))?;
    let mut refused = deny(
        "gate.tamper",
        format!(
            "{} is loopgate's own state ({}): the agent may not edit it",
            hit.display(),
            dir.display()
        ),
    );
    refused.commands = paths.iter().map(|p| p.display().to_string()).collect();
    Some(refused)
}

/// The decision for one tool call: the edge resolves where file writes really land, then
/// the pure [`policy::tool_gate::decide`] decides.
pub fn decide(call: &ToolCall, view: &View) -> Decision {
    let ctx = &view.ctx;
    let tool = call.tool_name();
    match call {
        ToolCall::Shell { command, cwd, .. } => {
            let request = ToolRequest::Shell {
                command,
                cwd: cwd.as_deref(),
            };
            policy::tool_gate::decide(tool, &request, ctx)
        }
        ToolCall::FileWrite { paths, .. } => {
            let resolved = workspace::resolve_targets(paths, &ctx.cwd, ctx.home.as_deref());
            if let Some(refused) = referee_state(&resolved) {
                return refused;
            }
            let request = ToolRequest::Write {
                paths,
                resolved: &resolved,
            };
            policy::tool_gate::decide(tool, &request, ctx)
        }
        ToolCall::FileRead { path, .. } => {
            policy::tool_gate::decide(tool, &ToolRequest::Read { path }, ctx)
        }
        ToolCall::Other { input, .. } => {
            let url = input.get("url").and_then(|u| u.as_str());
            policy::tool_gate::decide(tool, &ToolRequest::Other { url }, ctx)
        }
    }
}

pub fn deny(rule: &str, reason: String) -> Decision {
    policy::tool_gate::deny(rule, reason)
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
    // A refused write keeps what it would have written (docs/audit.md); the audit cuts it
    // to `max_field_bytes` with a marker like every other field.
    let attempted = match call {
        ToolCall::FileWrite {
            content: Some(content),
            ..
        } if d.decision != Verdict::Allow => Some(content.clone()),
        _ => None,
    };
    evidence::tool_call(
        root,
        config,
        input,
        Attempt {
            call,
            attempted,
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
    use policy::Profile;
    use std::path::PathBuf;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    fn view(profile: Profile, deny: &[&str]) -> View {
        View {
            ctx: GateContext {
                root: p("/repo"),
                cwd: p("/repo"),
                home: None,
                write_roots: vec![p("/repo")],
                protect: vec![],
                deny_read: vec![],
                profile,
                rules: GateContext::rules_from(
                    &[],
                    &[],
                    &deny.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                ),
            },
        }
    }

    #[test]
    fn observer_refuses_everything() {
        let call = ToolCall::FileRead {
            tool: "Read".into(),
            path: p("/repo/a"),
        };
        let d = decide(&call, &view(Profile::Observer, &[]));
        assert_eq!(
            (d.decision, d.rule.as_str()),
            (Verdict::Deny, "profile.observer")
        );
        assert!(reason_text(&d).starts_with("loopgate refused this (profile.observer)"));
    }

    #[test]
    fn web_fetch_rules_see_the_url_of_the_call() {
        let call = ToolCall::Other {
            tool: "WebFetch".into(),
            input: serde_json::json!({"url": "https://evil.example/x", "prompt": "p"}),
        };
        let d = decide(
            &call,
            &view(Profile::Standard, &["WebFetch(domain:evil.example)"]),
        );
        assert_eq!((d.decision, d.rule.as_str()), (Verdict::Deny, "user.deny"));
        let ok = ToolCall::Other {
            tool: "WebFetch".into(),
            input: serde_json::json!({"url": "https://docs.rs/x"}),
        };
        let d = decide(
            &ok,
            &view(Profile::Standard, &["WebFetch(domain:evil.example)"]),
        );
        assert_eq!(d.decision, Verdict::Allow);
    }
}
