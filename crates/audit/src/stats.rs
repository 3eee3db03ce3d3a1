//! Counting what the log says happened.

use crate::line::Entry;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Every line that parsed.
    pub lines: u64,
    /// Lines naming a tool: attempted tool calls.
    pub attempts: u64,
    /// Lines with `decision` = `deny`.
    pub denials: u64,
    /// Count per decision (`allow`, `ask`, `deny`, ...).
    pub decisions: BTreeMap<String, u64>,
    /// Denials per rule id (`(none)` when a denial named no rule).
    pub denials_by_rule: BTreeMap<String, u64>,
    /// Count per event (`PreToolUse`, `Stop`, ...).
    pub events: BTreeMap<String, u64>,
    pub sessions: BTreeMap<String, SessionStats>,
    /// Lines that did not parse (see `audit verify` for why).
    pub unreadable: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SessionStats {
    pub attempts: u64,
    pub denials: u64,
}

impl Stats {
    pub fn add(&mut self, entry: &Entry) {
        self.lines += 1;
        *self.events.entry(entry.event.clone()).or_default() += 1;
        let session = self.sessions.entry(entry.session.clone()).or_default();
        if entry.tool.is_some() {
            self.attempts += 1;
            session.attempts += 1;
        }
        if let Some(decision) = &entry.decision {
            *self.decisions.entry(decision.clone()).or_default() += 1;
            if decision == "deny" {
                self.denials += 1;
                session.denials += 1;
                let rule = entry.rule.clone().unwrap_or_else(|| "(none)".into());
                *self.denials_by_rule.entry(rule).or_default() += 1;
            }
        }
    }
}
