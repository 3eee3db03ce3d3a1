//! Agent-mode shell vetting (to be built).

use crate::{Decision, Profile, Verdict};
use std::path::PathBuf;

/// Everything agent-mode vetting needs to know about where a command runs.
#[derive(Debug, Clone)]
pub struct AgentContext {
    /// Where the command starts (the agent's cwd), absolute.
    pub cwd: PathBuf,
    pub repo_root: PathBuf,
    pub home: Option<PathBuf>,
    /// Resolved, absolute write roots (the temp dir included when writable).
    pub write_roots: Vec<PathBuf>,
    /// Extra protected globs (`[guards] protect`), relative to the repo root.
    pub protected: Vec<String>,
    pub profile: Profile,
}

/// Decide one shell command string an agent asks to run.
pub fn decide(command: &str, ctx: &AgentContext) -> Decision {
    let _ = ctx;
    Decision {
        decision: Verdict::Ask,
        rule: "agent.unbuilt".into(),
        reason: "agent-mode vetting is not built yet".into(),
        commands: vec![command.to_string()],
        suggestion: None,
    }
}
