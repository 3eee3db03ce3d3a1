//! The user's `[policy]` allow / ask / deny rules (Claude Code rule syntax), applied to a
//! tool call. The matching itself belongs to `policy::rules`; this is the adapter.

use agents::ToolCall;
use gate::config::PolicyConfig;
use policy::Decision;
use std::path::Path;

// The fields are read once `policy::rules` lands (see `decide`).
#[allow(dead_code)]
#[derive(Debug, Clone, Default)]
pub struct UserRules {
    pub allow: Vec<String>,
    pub ask: Vec<String>,
    pub deny: Vec<String>,
}

impl UserRules {
    pub fn from_config(policy: &PolicyConfig) -> UserRules {
        UserRules {
            allow: policy.allow.clone(),
            ask: policy.ask.clone(),
            deny: policy.deny.clone(),
        }
    }

    /// The strongest user rule matching `call` (deny > ask > allow), as a decision whose
    /// rule id starts with `user.`; `None` when no rule names it.
    pub fn decide(&self, call: &ToolCall, cwd: &Path) -> Option<Decision> {
        let _ = (call, cwd);
        None
    }
}
