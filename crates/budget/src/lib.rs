//! Token budgets from the agent's own transcript (Claude Code JSONL), never estimated.
//!
//! [`account`] reads only the bytes appended since its last call: a cache file
//! `<state_dir>/budget/<session>.json` keeps the byte offset reached (always just after a
//! complete line) and the running [`Tally`]; `<session>.exhausted` is the marker left once
//! the session went over budget. [`check`] is the pure decision. See `docs/audit.md` for the computation and the turn definition.

mod cache;
mod tally;
mod transcript;
mod verdict;

pub use cache::{account, cache_path, exhausted, mark_exhausted, MAX_LINE_BYTES};
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
}

impl Usage {
    pub fn from_tally(tally: &Tally, exhausted: bool) -> Usage {
        Usage {
            session_tokens: tally.totals.counted(),
            turn_tokens: tally.turn_tokens,
            counts: tally.totals,
            messages: tally.messages,
            malformed_lines: tally.malformed_lines,
            oversized_lines: tally.oversized_lines,
            exhausted,
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
