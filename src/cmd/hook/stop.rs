//! Stop and SubagentStop: the done gate, the bounce ledger, and the answer. A stop never
//! passes silently: a red stop is bounced while the budget lasts and then let through
//! loudly; a stop the gate cannot judge (bad config, deadline) goes through the same
//! ledger with the error as its reason, so it is refused a bounded number of times.

use super::workspace::{Frame, FrameError, Workspace};
use super::{deadline, evidence, reason};
use agents::{HookInput, Response};
use gate::config::GateConfig;
use gate::done::DoneRequest;
use gate::ledger::{self, StopDecision};
use gate::receipt::{Receipt, Verdict};
use serde_json::{json, Map};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub enum Seat {
    Main,
    Subagent(Option<String>),
}

impl Seat {
    fn is_subagent(&self) -> bool {
        matches!(self, Seat::Subagent(_))
    }
}

/// Time kept back from `hook_deadline` to build and print the answer after the checks.
const ANSWER_MARGIN: Duration = Duration::from_secs(2);

pub fn handle(frame: Frame, input: &HookInput, seat: Seat, active: bool) -> Response {
    let started = Instant::now();
    let ws = match frame {
        Ok(ws) => ws,
        Err(FrameError {
            root: Some(root),
            message,
        }) => return unjudgeable(root, input, &seat, message, active),
        Err(e) => return frame_unavailable(&e.message, active),
    };
    if !ws.in_repo {
        let text = format!(
            "loopgate: {} is not inside a git repository: the done gate has nothing to compare, so this stop is not gated",
            ws.root.display()
        );
        eprintln!("{text}");
        return Response::Allow { reason: Some(text) };
    }
    let root = ws.root.clone();
    let session = evidence::session_of(input);
    let key = ledger_key(&session, &seat);
    // The pinned config: an edit made during the session cannot change the bounce budget.
    let gate_cfg: GateConfig = ws.config.gate.clone();
    let config = Some(&ws.config);
    if let Some(halt) = super::budget_gate::spent(ws, input) {
        let text = format!(
            "loopgate: the token budget is spent, so the stop is not bounced for more work: {}",
            halt.reason
        );
        eprintln!("{text}");
        evidence::gate_event_in(
            &root,
            config,
            input,
            "budget.exhausted",
            "allow",
            &text,
            halt.extra,
        );
        return Response::Allow { reason: Some(text) };
    }
    let judged: Result<Receipt, String> =
        run_done_gate(ws, input, &seat, &session, gate_cfg.hook_deadline, started);
    let store = Store {
        history_only: seat.is_subagent(),
        until: started + gate_cfg.hook_deadline,
        hook_deadline: gate_cfg.hook_deadline,
    };
    settle(
        &root,
        config,
        &gate_cfg,
        input,
        &seat,
        &key,
        judged,
        active,
        Some(store),
    )
}

/// Where and by when a judged stop's receipt is stored: inside the hook deadline the done
/// gate's worker was given, as when the gate stored the receipt itself (the checks stop
/// earlier, `ANSWER_MARGIN` before it).
struct Store {
    history_only: bool,
    until: Instant,
    hook_deadline: Duration,
}

fn answer_margin(hook_deadline: Duration) -> Duration {
    ANSWER_MARGIN.min(hook_deadline / 10)
}

fn late(hook_deadline: Duration) -> String {
    format!(
        "the done gate did not finish within the hook deadline ({}); raise [gate] hook_deadline or speed up the checks",
        deadline::describe(hook_deadline)
    )
}

/// The session's config does not load: the stop cannot be judged, and the refusal goes
/// through the same bounce ledger (default budget) so it is refused a bounded number of
/// times, never silently passed and never forever.
fn unjudgeable(
    root: &Path,
    input: &HookInput,
    seat: &Seat,
    message: &str,
    active: bool,
) -> Response {
    let session = evidence::session_of(input);
    let key = ledger_key(&session, seat);
    let gate_cfg = GateConfig::default();
    settle(
        root,
        None,
        &gate_cfg,
        input,
        seat,
        &key,
        Err(message.to_string()),
        active,
        None,
    )
}

fn ledger_key(session: &str, seat: &Seat) -> String {
    match seat {
        Seat::Main => ledger::key(session, None),
        Seat::Subagent(id) => ledger::key(session, Some(id.as_deref().unwrap_or("subagent"))),
    }
}

/// Count the stop in the ledger and answer.
#[allow(clippy::too_many_arguments)]
fn settle(
    root: &Path,
    config: Option<&gate::config::Config>,
    gate_cfg: &GateConfig,
    input: &HookInput,
    seat: &Seat,
    key: &str,
    judged: Result<Receipt, String>,
    active: bool,
    store: Option<Store>,
) -> Response {
    let (judged, recorded) = count(root, key, judged, gate_cfg.max_bounces, active, store);
    let recorded = match recorded {
        Ok(r) => r,
        Err(e) => return ledger_unavailable(root, config, input, &e.to_string(), active, &judged),
    };
    let (problems, _) = tally(&judged);
    if let Some(w) = &recorded.warning {
        eprintln!("loopgate: warning: {w}");
    }
    let decision = recorded.decision;
    let (response, verdict, text) = match (&decision, &judged) {
        (StopDecision::Allow, _) => (Response::Nothing, "allow", String::new()),
        (StopDecision::Bounce { .. }, Ok(r)) => {
            let text = reason::block_text(r, &decision, seat.is_subagent());
            (
                Response::Block {
                    reason: text.clone(),
                },
                "block",
                text,
            )
        }
        (StopDecision::Bounce { .. }, Err(e)) => {
            let text = reason::error_text(e, &decision);
            (
                Response::Block {
                    reason: text.clone(),
                },
                "block",
                text,
            )
        }
        (StopDecision::GiveUp { .. }, judged) => {
            let what = match judged {
                Ok(r) => format!("verdict {:?}", r.verdict).to_lowercase(),
                Err(e) => format!("the gate could not run: {e}"),
            };
            let text = format!(
                "loopgate: RED STOP LET THROUGH for {key}: {} ({what}); see .loopgate/receipts/latest.json",
                decision.budget_line()
            );
            eprintln!("{text}");
            (
                Response::Allow {
                    reason: Some(text.clone()),
                },
                "allow-red",
                text,
            )
        }
    };
    let mut extra = Map::new();
    extra.insert("ledger_key".into(), json!(key));
    extra.insert(
        "problems".into(),
        json!(if judged.is_ok() { Some(problems) } else { None }),
    );
    extra.insert("stop_hook_active".into(), json!(active));
    let rule = if seat.is_subagent() {
        "gate.subagent-stop"
    } else {
        "gate.stop"
    };
    evidence::gate_event_in(root, config, input, rule, verdict, &text, extra);
    response
}

fn tally(judged: &Result<Receipt, String>) -> (u32, bool) {
    match judged {
        Ok(r) => (r.problem_count(), r.verdict == Verdict::Pass),
        // An error is never progress, whatever came before.
        Err(_) => (u32::MAX, false),
    }
}

/// Store the receipt and count the stop in the ledger. Both end in a synced write, so they
/// run at once: the receipt on a worker, the ledger staged meanwhile and renamed into place
/// only once the receipt is stored. A receipt that cannot be stored (or not in time) turns
/// the stop into that error, counted once in place of the staged count, exactly as when
/// the gate stored the receipt before the ledger was touched.
fn count(
    root: &Path,
    key: &str,
    judged: Result<Receipt, String>,
    max_bounces: u32,
    active: bool,
    store: Option<Store>,
) -> (Result<Receipt, String>, std::io::Result<ledger::Recorded>) {
    let (problems, green) = tally(&judged);
    let (receipt, store) = match (judged, store) {
        (Ok(receipt), Some(store)) => (receipt, store),
        (judged, _) => {
            let recorded = ledger::record_stop(root, key, problems, green, max_bounces, active);
            return (judged, recorded);
        }
    };
    let dir = root.to_path_buf();
    let history_only = store.history_only;
    let saving = deadline::begin(move || {
        let saved = gate::store::save(&dir, &receipt, history_only).map_err(|e| format!("{e:#}"));
        saved.map(|_| receipt)
    });
    let pending = ledger::stage_stop(root, key, problems, green, max_bounces, active);
    let saved = match saving {
        Some(s) => s
            .wait(store.until.saturating_duration_since(Instant::now()))
            .unwrap_or_else(|| Err(late(store.hook_deadline))),
        None => Err("cannot start a thread to store the receipt".to_string()),
    };
    match saved {
        Ok(receipt) => (Ok(receipt), pending.and_then(ledger::PendingStop::commit)),
        Err(e) => {
            drop(pending);
            let recorded = ledger::record_stop(root, key, u32::MAX, false, max_bounces, active);
            (Err(e), recorded)
        }
    }
}

fn run_done_gate(
    ws: &Workspace,
    input: &HookInput,
    seat: &Seat,
    session: &str,
    hook_deadline: Duration,
    started: Instant,
) -> Result<Receipt, String> {
    let margin = answer_margin(hook_deadline);
    let request = DoneRequest {
        via: input.agent.name().into(),
        session: Some(session.to_string()),
        // A session with no baseline (SessionStart did not run) still gets gated against HEAD.
        require_session: false,
        against: None,
        only: Vec::new(),
        run_checks: !seat.is_subagent(),
        run_guards: true,
        deadline: Some(started + hook_deadline.saturating_sub(margin)),
        // `settle` stores it, at once with the ledger's write.
        no_store: true,
        confined_run: false,
        history_only: seat.is_subagent(),
        pinned: ws.start.clone(),
    };
    let dir: PathBuf = ws.root.clone();
    let remaining = hook_deadline.saturating_sub(started.elapsed());
    match deadline::within(remaining, move || {
        gate::done::run(&dir, &request).map_err(|e| format!("{e:#}"))
    }) {
        Some(result) => result,
        None => Err(late(hook_deadline)),
    }
}

/// The session's frame cannot be had (its pin is damaged, or there is no home to keep it):
/// nothing can be judged, so the first stop is refused with the cause and a repeated one
/// (`stop_hook_active`) is let through loudly, never silently.
fn frame_unavailable(error: &str, active: bool) -> Response {
    if active {
        let loud = format!(
            "loopgate: RED STOP LET THROUGH: the session cannot be judged ({error}) and this stop was already refused once"
        );
        eprintln!("{loud}");
        return Response::Allow { reason: Some(loud) };
    }
    let text = format!(
        "loopgate cannot judge this stop: {error}. Tell the user; loopgate refuses the stop once and lets a repeated stop through."
    );
    eprintln!("loopgate: {text}");
    Response::Block { reason: text }
}

/// The ledger cannot be read or written: without it the budget cannot be counted, so
/// `stop_hook_active` is the loop breaker (refuse a first stop, let a repeated one through).
fn ledger_unavailable(
    root: &Path,
    config: Option<&gate::config::Config>,
    input: &HookInput,
    error: &str,
    active: bool,
    judged: &Result<Receipt, String>,
) -> Response {
    let green = matches!(judged, Ok(r) if r.verdict == Verdict::Pass);
    eprintln!("loopgate: warning: the bounce ledger is unavailable: {error}");
    if green {
        return Response::Nothing;
    }
    let decision = StopDecision::Bounce {
        attempt: 1,
        max: 1,
        progress: None,
    };
    let text = match judged {
        Ok(r) => reason::block_text(r, &decision, false),
        Err(e) => reason::error_text(e, &decision),
    };
    if active {
        let loud = format!("loopgate: RED STOP LET THROUGH: the bounce ledger is unavailable ({error}) and this stop was already refused once");
        eprintln!("{loud}");
        evidence::gate_event_in(
            root,
            config,
            input,
            "gate.stop",
            "allow-red",
            &loud,
            Map::new(),
        );
        return Response::Allow { reason: Some(loud) };
    }
    evidence::gate_event_in(root, config, input, "gate.stop", "block", &text, Map::new());
    Response::Block { reason: text }
}
