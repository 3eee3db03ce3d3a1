//! What the agent-mode rule tests share: the verdict a refusal must carry (its rule, a
//! reason naming the offending part, a safer alternative), and an allowed command.

// Each test binary includes this module and uses only part of it.
#![allow(dead_code)]

pub mod redteam;

use policy::{Decision, Verdict};

/// The verdict and rule are these, and the reason names the offending part.
#[track_caller]
pub fn assert_verdict(d: &Decision, cmd: &str, verdict: Verdict, rule: &str, names: &str) {
    assert_eq!(
        (d.decision, d.rule.as_str()),
        (verdict, rule),
        "{cmd}: {d:?}"
    );
    assert!(
        d.reason.contains(names),
        "{cmd}: reason {:?} should name {names:?}",
        d.reason
    );
}

/// [`assert_verdict`], and the refusal offers a safer alternative.
#[track_caller]
pub fn assert_refused(d: &Decision, cmd: &str, verdict: Verdict, rule: &str, names: &str) {
    assert_verdict(d, cmd, verdict, rule, names);
    assert!(
        d.suggestion.as_deref().is_some_and(|s| !s.is_empty()),
        "{cmd}: no suggestion"
    );
}

#[track_caller]
pub fn assert_allowed(d: &Decision, cmd: &str) {
    assert_eq!(d.decision, Verdict::Allow, "{cmd}: {d:?}");
}
