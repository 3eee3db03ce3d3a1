//! The shape every policy answer takes, in both modes.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Ask,
    Deny,
}

/// `{"decision":"allow|ask|deny","rule":"<id>","reason":"...","commands":[...]}` (DESIGN 1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub decision: Verdict,
    /// Stable rule id, e.g. `gate.tamper`, `check.pipe`, `allow.default`.
    pub rule: String,
    pub reason: String,
    /// The commands reached while analysing the string, as the user would read them.
    pub commands: Vec<String>,
    /// A safe alternative the agent or user can take instead, when there is one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub suggestion: Option<String>,
}

impl Decision {
    pub fn allow(rule: &str, reason: impl Into<String>, commands: Vec<String>) -> Decision {
        Decision {
            decision: Verdict::Allow,
            rule: rule.into(),
            reason: reason.into(),
            commands,
            suggestion: None,
        }
    }
}

/// Tool profiles of DESIGN section 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    Observer,
    #[default]
    Standard,
    Strict,
}
