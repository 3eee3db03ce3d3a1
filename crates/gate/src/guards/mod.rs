//! Guards: pure functions over the differences between the comparison point and the
//! working tree. The edge (git, the file system) builds [`FileDelta`]s; nothing in this
//! module reads a file or runs a process.

use crate::config::{GuardsConfig, Level};
use serde::{Deserialize, Serialize};

/// One line the agent added, numbered in the current file (1-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub number: u32,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum DeltaKind {
    Added,
    Modified,
    Deleted,
    Renamed { from: String },
}

/// Per-file counts of tests and skip markers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCounts {
    pub tests: u32,
    pub skips: u32,
}

/// What changed in one file between the comparison point and now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDelta {
    /// Repository-relative, `/`-separated. For `Deleted`, the path that is gone.
    pub path: String,
    pub kind: DeltaKind,
    /// Lines added since the comparison point, minus lines already dirty at baseline time.
    pub added_lines: Vec<Line>,
    /// Counts at the comparison point (of the old path for renames); `None` when the file
    /// did not exist then or its text was not available.
    pub old_counts: Option<TestCounts>,
    /// Current text when the file exists, is UTF-8 and under the size cap.
    pub new_text: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    pub snippet: String,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GuardStatus {
    Pass,
    Warn,
    Fail,
    Skipped,
    Off,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuardReport {
    pub name: String,
    pub level: Level,
    pub status: GuardStatus,
    pub findings: Vec<Finding>,
}

impl GuardReport {
    /// Status from level and findings: findings at `fail` fail, at `warn` warn.
    pub fn from_findings(name: &str, level: Level, findings: Vec<Finding>) -> GuardReport {
        let status = match (level, findings.is_empty()) {
            (Level::Off, _) => GuardStatus::Off,
            (_, true) => GuardStatus::Pass,
            (Level::Warn, false) => GuardStatus::Warn,
            (Level::Fail, false) => GuardStatus::Fail,
        };
        let findings = if level == Level::Off { Vec::new() } else { findings };
        GuardReport {
            name: name.into(),
            level,
            status,
            findings,
        }
    }

    /// Every guard reports `skipped` (never `pass`) when there is nothing to compare.
    pub fn skipped(name: &str, level: Level) -> GuardReport {
        GuardReport {
            name: name.into(),
            level,
            status: if level == Level::Off {
                GuardStatus::Off
            } else {
                GuardStatus::Skipped
            },
            findings: Vec::new(),
        }
    }
}

/// Paths the gate itself depends on: editing them is a `config_edits` finding.
pub const GATE_FILES: &[&str] = &[
    "loopgate.toml",
    ".loopgate/**",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/hooks.json",
    ".gemini/settings.json",
];

/// The guards computed from deltas (every guard but `write_escape`, which comes from the
/// sandbox snapshot comparison), in a stable order.
pub fn run_guards(_deltas: &[FileDelta], _cfg: &GuardsConfig) -> Vec<GuardReport> {
    Vec::new()
}

/// Tests and skip markers in one file, by language from its path.
pub fn count_tests(_path: &str, _text: &str) -> TestCounts {
    TestCounts::default()
}

/// Whether `path` is a test file by the built-in per-language globs or `extra` globs.
pub fn is_test_path(_path: &str, _extra: &[String]) -> bool {
    false
}
