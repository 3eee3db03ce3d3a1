//! SessionStart: record the session baseline once and tell the model the gate is active.

use super::evidence;
use super::workspace::Workspace;
use agents::{HookInput, Response};

pub fn handle(frame: super::workspace::Frame, input: &HookInput) -> Response {
    let session = evidence::session_of(input);
    let ws = match frame {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("loopgate: {e}");
            return Response::Context {
                text: format!(
                    "loopgate is active but its configuration does not load ({e}): every tool call will be refused until the user fixes loopgate.toml."
                ),
            };
        }
    };
    if !ws.in_repo {
        return Response::Context {
            text: format!(
                "loopgate is active, but {} is not inside a git repository: writes are confined to {}, and the done gate has nothing to compare when you stop.",
                ws.root.display(),
                roots_text(ws)
            ),
        };
    }
    state::cleanup::remove_stale_temps(&state::state_dir(&ws.root));
    let baseline = match super::workspace::record_baseline(ws, &session) {
        Ok(outcome) => {
            let what = if outcome.created { "recorded" } else { "kept" };
            evidence::gate_event_in(
                &ws.root,
                Some(&ws.config),
                input,
                "session.baseline",
                what,
                "",
                Default::default(),
            );
            String::new()
        }
        Err(e) => {
            eprintln!("loopgate: warning: cannot record the session baseline: {e:#}");
            evidence::gate_event_in(
                &ws.root,
                Some(&ws.config),
                input,
                "session.baseline",
                "error",
                &format!("{e:#}"),
                Default::default(),
            );
            " (no session baseline could be recorded, so guards compare against HEAD)".to_string()
        }
    };
    let checks = if ws.from_file {
        Vec::new()
    } else {
        gate::detect::detected_checks(&ws.root)
    };
    let names: Vec<String> = if ws.from_file {
        ws.config.checks.iter().map(|c| c.run.clone()).collect()
    } else {
        checks.iter().map(|c| c.run.clone()).collect()
    };
    let checks_text = if names.is_empty() {
        "no checks are configured".to_string()
    } else {
        format!("these checks run when you stop: {}", names.join("; "))
    };
    Response::Context {
        text: format!(
            "loopgate is active{baseline}: {checks_text}; the stop is refused while they fail or if tests are deleted or skipped, lint is disabled, or gate files are edited. Writes are confined to {}; loopgate.toml, .loopgate/ and agent hook settings are read-only.{}",
            roots_text(ws),
            super::rewrite::session_note(ws, input.agent)
        ),
    }
}

fn roots_text(ws: &Workspace) -> String {
    let roots: Vec<String> = ws
        .write_roots
        .iter()
        .map(|r| r.display().to_string())
        .collect();
    if roots.is_empty() {
        "nothing (no write roots)".into()
    } else {
        roots.join(", ")
    }
}
