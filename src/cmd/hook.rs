//! `loopgate hook <agent>`: one agent hook call. Reads the agent's JSON on stdin, decides
//! by event, answers in the agent's protocol on stdout (one JSON object or nothing),
//! diagnostics on stderr. The answers for bad input are in docs/hooks-wiring.md.
//!
//! Fail closed inside our own deadline (DESIGN section 0): before anything is read, a
//! watchdog is armed (`watchdog`) and every crash is turned into exit 2 (`crash`).

mod budget_gate;
mod crash;
mod deadline;
mod evidence;
mod reason;
pub(crate) mod rewrite;
mod session;
mod stop;
mod tool_gate;
mod watchdog;
pub(crate) mod workspace;

use crate::cli::{Agent, HookArgs};
use crate::exit::Exit;
use agents::{AgentKind, Event, HookInput, Response};
use std::io::{Read, Write};
use std::path::Path;

/// Payloads above this are refused as bad input (a real hook payload is far smaller; the
/// bound keeps a hostile or broken agent from making the hook read without end).
pub const MAX_PAYLOAD: u64 = 16 * 1024 * 1024;

/// Time allowed to a stop or session start beyond `[gate] hook_deadline` (the done gate
/// itself ends inside it) for the ledger, the audit line and the answer. Well under the
/// margin `loopgate install` adds to the agent's own timeout.
pub(crate) const STOP_SLACK: std::time::Duration = std::time::Duration::from_secs(30);

/// The switch that shortens a hook's process deadline (tests), forwarded by a supervised hook.
pub(crate) const DEADLINE_ENV: &str = watchdog::ENV_DEADLINE_MS;
pub(crate) use deadline::TOOL_CALL_CAP;

/// Time left before this hook's watchdog ends it.
pub(crate) fn watchdog_remaining() -> Option<std::time::Duration> {
    watchdog::remaining()
}

/// Give this hook `from_now` more before its watchdog ends it (a supervised call waits for
/// the supervisor, which has the call's own deadline).
pub(crate) fn extend_watchdog(from_now: std::time::Duration) {
    watchdog::set_limit_from_now(from_now);
}

pub fn run(dir: &Path, args: &HookArgs) -> anyhow::Result<Exit> {
    one_heap();
    let kind = agent_kind(args.agent);
    crash::install(kind.name());
    // Until the event is known, the tool call's deadline: the shortest of them.
    if let Err(e) = watchdog::arm(kind.name(), deadline::TOOL_CALL_CAP) {
        eprintln!("loopgate: hook {}: {e}: refusing", kind.name());
        return Ok(Exit::Usage);
    }
    watchdog::stage("reading stdin");
    if let Some(socket) = std::env::var_os(crate::cmd::supervisor::ENV).filter(|v| !v.is_empty()) {
        // Under `loopgate run --confine`: the referee's state is read-only here, so the
        // call is decided by the supervisor outside the jail.
        let payload = match read_stdin() {
            Ok(bytes) => bytes,
            Err(message) => {
                eprintln!("loopgate: hook {}: bad input: {message}", kind.name());
                return Ok(Exit::Usage);
            }
        };
        watchdog::stage("waiting for the supervisor");
        let code =
            crate::cmd::supervisor::forward::forward(kind.name(), dir, Path::new(&socket), payload);
        std::process::exit(code);
    }
    let input = match read_stdin().and_then(|bytes| {
        watchdog::stage("parsing the payload");
        parse(kind, &bytes)
    }) {
        Ok(input) => input,
        // Without a parsed event we cannot tell a tool call from a stop, so the one answer
        // that fails closed for both in every supported protocol is exit 2 with the reason
        // on stderr: it blocks the tool call, and it refuses the stop.
        Err(message) => {
            eprintln!("loopgate: hook {}: bad input: {message}", kind.name());
            return Ok(Exit::Usage);
        }
    };
    crash::test_fault();
    let response = dispatch(dir, &input);
    watchdog::stage("writing the answer");
    if let Some(json) = agents::render(kind, &input.event_name, &response) {
        let mut out = std::io::stdout().lock();
        // A closed stdout means the agent is gone; nothing useful is left to do.
        let _ = writeln!(out, "{json}");
        let _ = out.flush();
    }
    Ok(Exit::Pass)
}

/// Keep every thread of this short process on the main heap. By default glibc gives the
/// watchdog and the decision worker an arena each: a 128 MiB reservation trimmed by
/// `munmap`, and fresh pages faulted in for allocations the main heap has room for. A hook
/// call allocates little and its threads barely overlap, so one arena costs no contention.
fn one_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only tunes the allocator; called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
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
    let judging = matches!(
        input.event,
        Event::Stop { .. } | Event::SubagentStop { .. } | Event::SessionStart
    );
    if judging {
        watchdog::stage("loading the configuration");
    }
    // Only the events that come before the agent acts may pin the session's frame.
    let may_pin = matches!(input.event, Event::SessionStart | Event::PreTool { .. });
    let pinned = workspace::Workspace::pinned(input, dir, may_pin);
    let frame: workspace::Frame = match &pinned {
        Ok((ws, _)) => Ok(ws),
        Err(e) => Err(e),
    };
    if judging {
        watchdog::set_limit(stop_limit(frame));
    }
    if let Ok((ws, true)) = &pinned {
        // A session that never sent SessionStart is baselined at its first call.
        if ws.in_repo && !matches!(input.event, Event::SessionStart) {
            watchdog::stage("recording the session baseline");
            let session = evidence::session_of(input);
            if let Err(e) = workspace::record_baseline(ws, &session) {
                eprintln!("loopgate: warning: cannot record the session baseline: {e:#}");
            }
        }
    }
    watchdog::stage(match &input.event {
        Event::PreTool { .. } => "deciding the tool call",
        Event::Stop { .. } | Event::SubagentStop { .. } => "judging the stop",
        Event::SessionStart => "recording the session baseline",
        _ => "recording the event",
    });
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

/// The process deadline of a stop or session start: `[gate] hook_deadline` of the config
/// the stop gate will load (the default when it does not load, as the stop gate then uses
/// too), plus [`STOP_SLACK`]. Read under the tool-call deadline: a config that blocks is
/// refused by then.
fn stop_limit(frame: workspace::Frame) -> std::time::Duration {
    let hook_deadline = frame
        .map(|ws| ws.config.gate.hook_deadline)
        .unwrap_or_else(|_| gate::config::GateConfig::default().hook_deadline);
    hook_deadline.saturating_add(STOP_SLACK)
}
