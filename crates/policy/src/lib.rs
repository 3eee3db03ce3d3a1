//! One policy engine, two modes, on a real bash parser.
//!
//! - check mode ([`check_mode`]): command strings loopgate itself runs; only `&&`-joined
//!   simple commands of allowlisted programs, executed as argv without a shell.
//! - agent mode ([`agent`]): shell commands an agent asks to run; free shape, every
//!   reachable command analysed against the rule packs.
//! - tool rules ([`rules`]): Claude Code style `Tool(specifier)` rules, deny > ask > allow.

pub mod agent;
pub mod check_inputs;
pub mod check_mode;
pub mod decision;
pub mod globs;
pub mod own_cli;
pub mod plain_command;
pub mod programs;
pub mod rules;
pub mod shell;
pub mod tool_gate;

pub use decision::{Decision, Profile, Verdict};
pub use rules::{Rule, RuleSet, ToolSubject};
