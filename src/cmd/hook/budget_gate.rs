//! The token budget at the hook seats: a tool call over budget is halted, and a stop is
//! never bounced for more work once the budget is spent. Usage comes from the agent's own
//! transcript (the `budget` crate reads it incrementally); nothing is estimated.
//!
//! Exact for a tool call: when the agent names the call (Claude Code and Codex send
//! `tool_use_id`), the usage is waited for (bounded) until the response that asked for the
//! call is on record, so the call is denied exactly when the usage up to and including
//! that response is over the limit, however far the agent's transcript writer lags.

use super::evidence;
use super::workspace::Workspace;
use agents::HookInput;
use serde_json::{json, Map, Value};

/// How long a tool call waits for its asking response to reach the transcript: the lag
/// seen on a loaded machine is a response or two (well under a second); a third of the
/// tool-call deadline caps it so the decision still answers in time.
const CALL_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

pub struct Halt {
    /// Names loopgate, both numbers and both limits.
    pub reason: String,
    /// The same facts for the audit line.
    pub extra: Map<String, Value>,
}

pub enum Budget {
    /// No budget configured, or within it.
    Within,
    /// Over a limit now or earlier in the session (the session stays exhausted).
    Over(Halt),
    /// A budget is configured but cannot be measured (no transcript, unreadable).
    Unmeasurable(String),
}

pub fn assess(ws: &Workspace, input: &HookInput) -> Budget {
    let limits = budget::Limits::new(
        ws.config.budget.session_tokens,
        ws.config.budget.turn_tokens,
    );
    if limits.is_unlimited() {
        return Budget::Within;
    }
    let state_dir = state::state_dir(&ws.root);
    let session = evidence::session_of(input);
    let Some(transcript) = input.transcript_path.as_deref() else {
        return Budget::Unmeasurable(
            "a token budget is configured but the agent sent no transcript path, so it cannot be measured".into(),
        );
    };
    let call = match &input.event {
        agents::Event::PreTool { .. } => input.tool_use_id.as_deref().map(|id| budget::Call {
            id,
            // Claude Code's assistant lines always carry their `tool_use` blocks; Codex
            // settles a call only in the rollouts of releases that write usage records.
            always_named: input.agent == agents::AgentKind::Claude,
        }),
        _ => None,
    };
    let wait = super::deadline::for_tool_call(ws.config.gate.hook_deadline) / 3;
    let usage =
        match budget::account_until(transcript, &state_dir, &session, call, wait.min(CALL_WAIT)) {
            Ok(usage) => usage,
            Err(e) => {
                return Budget::Unmeasurable(format!(
                    "a token budget is configured but cannot be measured: {e}"
                ))
            }
        };
    let verdict = budget::check(&usage, &limits);
    let message = match (&verdict, usage.exhausted) {
        (budget::BudgetVerdict::Exceeded { message, .. }, _) => message.clone(),
        (budget::BudgetVerdict::Within, true) => format!(
            "the token budget of this session was exceeded earlier and stays spent: session {} tokens (limit {}), turn {} tokens (limit {}). Stop here and report your progress to the user.",
            usage.session_tokens,
            limit_text(limits.session_tokens),
            usage.turn_tokens,
            limit_text(limits.turn_tokens)
        ),
        (budget::BudgetVerdict::Within, false) => return Budget::Within,
    };
    if let Err(e) = budget::mark_exhausted(&state_dir, &session, &message) {
        eprintln!("loopgate: warning: {e}");
    }
    let mut extra = Map::new();
    extra.insert("session_tokens".into(), json!(usage.session_tokens));
    extra.insert("turn_tokens".into(), json!(usage.turn_tokens));
    extra.insert("session_limit".into(), json!(limits.session_tokens));
    extra.insert("turn_limit".into(), json!(limits.turn_tokens));
    if let Some(counted) = usage.call_counted {
        extra.insert("call_counted".into(), json!(counted));
    }
    Budget::Over(Halt {
        reason: format!("loopgate: {message}"),
        extra,
    })
}

fn limit_text(limit: Option<u64>) -> String {
    limit
        .map(|l| l.to_string())
        .unwrap_or_else(|| "none".into())
}

/// For a stop: was the budget ever spent in this session? Only the marker and the
/// transcript count; a stop is never refused because the budget cannot be measured.
pub fn spent(ws: &Workspace, input: &HookInput) -> Option<Halt> {
    let state_dir = state::state_dir(&ws.root);
    let session = evidence::session_of(input);
    let limits = budget::Limits::new(
        ws.config.budget.session_tokens,
        ws.config.budget.turn_tokens,
    );
    match assess(ws, input) {
        Budget::Over(halt) => Some(halt),
        // The marker counts only where a budget is in effect: without one, a file in
        // `.loopgate/budget/` must not wave a red stop through.
        _ if !limits.is_unlimited() && budget::exhausted(&state_dir, &session) => Some(Halt {
            reason: "loopgate: the token budget of this session was exceeded earlier".into(),
            extra: Map::new(),
        }),
        _ => None,
    }
}
