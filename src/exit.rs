//! Exit codes of DESIGN section 1, and the one place that turns an error into exit 2.

use std::process::ExitCode;

/// The verdict a command reached. Severity order for combining: Usage > Refused > Failed > Pass.
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

    /// The most severe of two outcomes: 2 over 3 over 1 over 0.
    pub fn worst(self, other: Exit) -> Exit {
        if self.rank() >= other.rank() {
            self
        } else {
            other
        }
    }

    fn rank(self) -> u8 {
        match self {
            Exit::Pass => 0,
            Exit::Failed => 1,
            Exit::Refused => 2,
            Exit::Usage => 3,
        }
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

#[cfg(test)]
mod tests {
    use super::Exit;

    #[test]
    fn usage_beats_refused_beats_failed() {
        assert_eq!(Exit::Failed.worst(Exit::Refused), Exit::Refused);
        assert_eq!(Exit::Refused.worst(Exit::Usage), Exit::Usage);
        assert_eq!(Exit::Pass.worst(Exit::Failed), Exit::Failed);
        assert_eq!(Exit::Usage.worst(Exit::Pass), Exit::Usage);
    }
}
