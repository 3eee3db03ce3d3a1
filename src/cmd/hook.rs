//! `loopgate hook <agent>`: one agent hook call. Reads the agent's JSON on stdin, decides
//! by event, answers in the agent's protocol on stdout (one JSON object or nothing),
//! diagnostics on stderr. The answers for bad input are in docs/hooks-wiring.md.

mod budget_gate;
mod deadline;
mod evidence;
mod reason;
pub(crate) mod rewrite;
mod rules;
mod session;
mod stop;
mod tool_gate;
pub(crate) mod workspace;

use crate::cli::{Agent, HookArgs};
use crate::exit::Exit;
use agents::{AgentKind, Event, HookInput, Response};
use std::io::{Read, Write};
use std::path::Path;

/// Payloads above this are refused as bad input (a real hook payload is far smaller; the
/// bound keeps a hostile or broken agent from making the hook read without end).
pub const MAX_PAYLOAD: u64 = 16 * 1024 * 1024;

pub fn run(dir: &Path, args: &HookArgs) -> anyhow::Result<Exit> {
    let kind = agent_kind(args.agent);
    let input = match read_stdin().and_then(|bytes| parse(kind, &bytes)) {
        Ok(input) => input,
        // Without a parsed event we cannot tell a tool call from a stop, so the one answer
        // that fails closed for both in every supported protocol is exit 2 with the reason
        // on stderr: it blocks the tool call, and it refuses the stop.
        Err(message) => {
            eprintln!("loopgate: hook {}: bad input: {message}", kind.name());
            return Ok(Exit::Usage);
        }
    };
    let response = dispatch(dir, &input);
    if let Some(json) = agents::render(kind, &input.event_name, &response) {
        let mut out = std::io::stdout().lock();
        // A closed stdout means the agent is gone; nothing useful is left to do.
        let _ = writeln!(out, "{json}");
        let _ = out.flush();
    }
    Ok(Exit::Pass)
}

fn agent_kind(agent: Agent) -> AgentKind {
    match agent {
        Agent::Claude => AgentKind::Claude,
        Agent::Codex => AgentKind::Codex,
        Agent::Cursor => AgentKind::Cursor,
        Agent::Gemini => AgentKind::Gemini,
    }
}

fn read_stdin() -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_PAYLOAD + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    if bytes.len() as u64 > MAX_PAYLOAD {
        return Err(format!(
            "the payload is larger than {} MiB",
            MAX_PAYLOAD / (1024 * 1024)
        ));
    }
    Ok(bytes)
}

fn parse(kind: AgentKind, bytes: &[u8]) -> Result<HookInput, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("stdin is empty".into());
    }
    agents::parse(kind, bytes).map_err(|e| e.to_string())
}

/// Pick the seat by event. Every branch answers; none panics on odd input. The session's
/// frame (root, config, write roots) is pinned once and shared by every seat.
fn dispatch(dir: &Path, input: &HookInput) -> Response {
    let pinned = workspace::Workspace::pinned(input, dir);
    let frame: workspace::Frame = match &pinned {
        Ok((ws, _)) => Ok(ws),
        Err(e) => Err(e),
    };
    if let Ok((ws, true)) = &pinned {
        // A session that never sent SessionStart is baselined at its first call.
        if ws.in_repo && !matches!(input.event, Event::SessionStart) {
            let session = evidence::session_of(input);
            if let Err(e) = workspace::record_baseline(ws, &session) {
                eprintln!("loopgate: warning: cannot record the session baseline: {e:#}");
            }
        }
    }
    match &input.event {
        Event::PreTool { call } => tool_gate::handle(frame, input, call),
        Event::Stop { active, completed } => {
            if !completed {
                // Cursor reports aborted or errored loops as stops too; those are not
                // "I am done" claims, so there is nothing to gate.
                evidence::gate_event(frame, input, "stop.not-completed", "allow", "");
                return Response::Nothing;
            }
            stop::handle(frame, input, stop::Seat::Main, *active)
        }
        Event::SubagentStop { agent_id, active } => stop::handle(
            frame,
            input,
            stop::Seat::Subagent(agent_id.clone()),
            *active,
        ),
        Event::SessionStart => session::handle(frame, input),
        Event::PostEdit { paths } => {
            let listed: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            evidence::gate_event(frame, input, "post-edit", "record", &listed.join(", "));
            Response::Nothing
        }
        Event::Other { name } => {
            evidence::gate_event(frame, input, "ignored", "none", name);
            Response::Nothing
        }
    }
}
