//! Which forwarded hook calls the supervisor runs: a pure decision over the request and the
//! facts the edge resolved (canonical paths). Nothing admitted can lower the bar: only the
//! agent session the run supervises (the first one that calls; every later call must name
//! it), only the variables a hook reads, and only paths inside the supervised repository.
//! Pins are written once and baselines are kept (`gate::pin`, `gate::baseline`), so an
//! admitted call cannot re-pin or re-baseline the session either.

use super::wire::Head;
use agents::{AgentKind, Event};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The variables a forwarded call may carry: the agents' project-dir variables (where the
/// session started) and the hook deadline switch (which can only shorten the deadline).
pub const FORWARDED: [&str; 4] = [
    "CLAUDE_PROJECT_DIR",
    "GEMINI_PROJECT_DIR",
    "CURSOR_PROJECT_DIR",
    crate::cmd::hook::DEADLINE_ENV,
];

/// The session a run supervises, bound by the first admitted call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    pub agent: AgentKind,
    pub session: String,
}

/// The request's paths, canonicalized at the edge (`None`: it does not resolve).
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    pub cwd: Option<PathBuf>,
    pub env: BTreeMap<String, Option<PathBuf>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admitted {
    pub bound: Bound,
    /// How long the hook has, its own deadline included.
    pub limit: Duration,
}

/// Whether `payload` (the hook's stdin) under `head` may run, given the session already
/// `bound` (if any), the supervised repository `root` and `[gate] hook_deadline`.
pub fn admit(
    bound: Option<&Bound>,
    head: &Head,
    resolved: &Resolved,
    payload: &[u8],
    root: &Path,
    hook_deadline: Duration,
) -> Result<Admitted, String> {
    let agent = AgentKind::ALL
        .into_iter()
        .find(|k| k.name() == head.agent)
        .ok_or_else(|| format!("`{}` is not an agent loopgate supports", head.agent))?;
    for name in head.env.keys() {
        if !FORWARDED.contains(&name.as_str()) {
            return Err(format!("the variable {name} is not one a hook may forward"));
        }
    }
    let inside = |what: &str, shown: &str, path: Option<&PathBuf>| match path {
        Some(p) if p.starts_with(root) => Ok(()),
        _ => Err(format!(
            "{what} {shown} is outside the supervised repository {}",
            root.display()
        )),
    };
    inside(
        "the working directory",
        &head.cwd.display().to_string(),
        resolved.cwd.as_ref(),
    )?;
    for (name, value) in &head.env {
        if name == crate::cmd::hook::DEADLINE_ENV {
            continue;
        }
        let path = resolved.env.get(name).and_then(Option::as_ref);
        inside(&format!("${name}"), value, path)?;
    }
    let input = agents::parse(agent, payload).map_err(|e| format!("bad input: {e}"))?;
    let session = input
        .session_id
        .filter(|s| !s.is_empty())
        .ok_or("the call names no session")?;
    let this = Bound { agent, session };
    if let Some(bound) = bound {
        if *bound != this {
            return Err(format!(
                "the call is for {} session `{}`, but this run supervises {} session `{}`",
                this.agent.name(),
                this.session,
                bound.agent.name(),
                bound.session
            ));
        }
    }
    let judging = matches!(
        input.event,
        Event::Stop { .. } | Event::SubagentStop { .. } | Event::SessionStart
    );
    let limit = if judging {
        hook_deadline.saturating_add(crate::cmd::hook::STOP_SLACK)
    } else {
        crate::cmd::hook::TOOL_CALL_CAP
    };
    Ok(Admitted { bound: this, limit })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = "/work/repo";

    fn head(env: &[(&str, &str)]) -> Head {
        Head {
            agent: "claude".into(),
            cwd: PathBuf::from(ROOT),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    fn resolved(env: &[(&str, &str)]) -> Resolved {
        Resolved {
            cwd: Some(PathBuf::from(ROOT)),
            env: env
                .iter()
                .map(|(k, v)| (k.to_string(), Some(PathBuf::from(v))))
                .collect(),
        }
    }

    fn stop(session: &str) -> Vec<u8> {
        format!(r#"{{"hook_event_name":"Stop","session_id":"{session}","stop_hook_active":false}}"#)
            .into_bytes()
    }

    fn run(
        bound: Option<&Bound>,
        env: &[(&str, &str)],
        payload: &[u8],
    ) -> Result<Admitted, String> {
        admit(
            bound,
            &head(env),
            &resolved(env),
            payload,
            Path::new(ROOT),
            Duration::from_secs(60),
        )
    }

    #[test]
    fn the_first_call_binds_its_session_and_a_stop_gets_the_stop_deadline() {
        let a = run(None, &[("CLAUDE_PROJECT_DIR", ROOT)], &stop("s1")).unwrap();
        assert_eq!(a.bound.session, "s1");
        assert_eq!(a.bound.agent, AgentKind::Claude);
        assert_eq!(a.limit, Duration::from_secs(90));
    }

    #[test]
    fn another_session_is_refused() {
        let bound = Bound {
            agent: AgentKind::Claude,
            session: "s1".into(),
        };
        let e = run(Some(&bound), &[], &stop("s2")).unwrap_err();
        assert!(
            e.contains("session `s2`") && e.contains("supervises claude session `s1`"),
            "{e}"
        );
        assert!(run(Some(&bound), &[], &stop("s1")).is_ok());
    }

    #[test]
    fn paths_outside_the_repository_and_unknown_variables_are_refused() {
        let e = run(None, &[("CLAUDE_PROJECT_DIR", "/elsewhere")], &stop("s")).unwrap_err();
        assert!(
            e.contains("$CLAUDE_PROJECT_DIR /elsewhere is outside"),
            "{e}"
        );
        let e = run(None, &[("LOOPGATE_STATE_HOME", ROOT)], &stop("s")).unwrap_err();
        assert!(
            e.contains("LOOPGATE_STATE_HOME is not one a hook may forward"),
            "{e}"
        );
        let mut h = head(&[]);
        h.cwd = PathBuf::from("/tmp");
        let r = Resolved {
            cwd: Some(PathBuf::from("/tmp")),
            ..Resolved::default()
        };
        let e = admit(None, &h, &r, &stop("s"), Path::new(ROOT), Duration::ZERO).unwrap_err();
        assert!(e.contains("the working directory /tmp is outside"), "{e}");
    }

    #[test]
    fn bad_input_and_a_missing_session_are_refused() {
        assert!(run(None, &[], b"not json")
            .unwrap_err()
            .starts_with("bad input"));
        let e = run(None, &[], br#"{"hook_event_name":"Stop"}"#).unwrap_err();
        assert_eq!(e, "the call names no session");
        let mut h = head(&[]);
        h.agent = "vim".into();
        let e = admit(
            None,
            &h,
            &resolved(&[]),
            &stop("s"),
            Path::new(ROOT),
            Duration::ZERO,
        )
        .unwrap_err();
        assert!(e.contains("`vim` is not an agent"), "{e}");
    }
}
