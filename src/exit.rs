//! Exit codes of DESIGN section 1, and the one place that turns an error into exit 2.

use std::process::ExitCode;

/// The verdict a command reached (DESIGN section 1). Where several apply, the receipt's
/// verdict already picked the most severe: 2 over 3 over 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    Pass = 0,
    Failed = 1,
    Refused = 3,
    Usage = 2,
}

impl Exit {
    pub fn code(self) -> u8 {
        self as u8
    }
}

pub fn finish(outcome: anyhow::Result<Exit>) -> ExitCode {
    match outcome {
        Ok(exit) => ExitCode::from(exit.code()),
        Err(err) => {
            eprintln!("loopgate: error: {err:#}");
            ExitCode::from(Exit::Usage.code())
        }
    }
}
