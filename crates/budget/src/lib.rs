//! Token budgets from the agent's own transcript (Claude Code JSONL, Codex rollout JSONL,
//! Gemini CLI chat-recording JSONL), never estimated.
//!
//! [`account`] reads only the bytes appended since its last call: a cache file
//! `<state_dir>/budget/<session>.json` keeps the byte offset reached (always just after a
//! complete line) and the running [`Tally`]; `<session>.exhausted` is the marker left once
//! the session went over budget. [`check`] is the pure decision. See `docs/audit.md` for the computation and the turn definition.

mod cache;
mod claude_line;
mod codex_line;
mod gemini_line;
mod tally;
mod transcript;
mod verdict;

pub use cache::{
    account, account_until, cache_path, exhausted, mark_exhausted, Call, MAX_LINE_BYTES,
};
pub use codex_line::parse_codex_line;
pub use gemini_line::parse_gemini_line;
pub use tally::{Counts, Tally};
pub use transcript::{parse_line, ApiUsage, LineKind};
pub use verdict::{check, BudgetVerdict, Limits};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What a session has spent, as of the last complete transcript line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// input + output + cache creation, over the whole transcript.
    pub session_tokens: u64,
    /// The same, for messages first seen since the latest typed prompt.
    pub turn_tokens: u64,
    /// The split of `session_tokens` (plus cache reads, which are not counted).
    pub counts: Counts,
    pub messages: u64,
    /// Lines skipped because they were not JSON of the expected shape.
    pub malformed_lines: u64,
    /// Lines skipped because they were longer than [`MAX_LINE_BYTES`].
    pub oversized_lines: u64,
    /// The session went over budget once; it stays so (see [`exhausted`]).
    pub exhausted: bool,
    /// Asked for one tool call ([`account_until`]): whether the response that asked for
    /// it is counted in these numbers.
    #[serde(default)]
    pub call_counted: Option<bool>,
}

impl Usage {
    pub fn from_tally(tally: &Tally, exhausted: bool) -> Usage {
        Usage {
            session_tokens: tally.counted().counted(),
            turn_tokens: tally.turn_tokens,
            counts: tally.counted(),
            messages: tally.messages,
            malformed_lines: tally.malformed_lines,
            oversized_lines: tally.oversized_lines,
            exhausted,
            call_counted: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BudgetError {
    #[error("cannot read the transcript {path}: {source}")]
    Transcript {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write budget state {path}: {source}")]
    State {
        path: PathBuf,
        source: std::io::Error,
    },
}
