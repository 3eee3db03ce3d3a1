//! The receipt: the evidence a `check` leaves behind, and the exit code it implies.

use crate::guards::unread::SkippedFile;
use crate::guards::{GuardReport, GuardStatus};
use serde::{Deserialize, Serialize};

pub const RECEIPT_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    Pass,
    Fail,
    Timeout,
    Error,
    Refused,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    pub name: String,
    /// The command as configured.
    pub run: String,
    /// Each `&&`-joined step as executed (empty when refused before running).
    pub argv: Vec<Vec<String>>,
    pub vetted: bool,
    pub status: CheckStatus,
    pub exit_code: Option<i32>,
    pub duration_ms: u64,
    /// The last lines of stdout and stderr, ANSI stripped, bounded.
    pub output_tail: String,
    /// Why the check was refused or could not run.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<String>,
    /// How its process tree was held (`pid-namespace`, `subreaper`, `process-group`);
    /// absent when it never ran and in receipts written before this field existed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub containment: Option<sandbox::Containment>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BaselineKind {
    Explicit,
    Session,
    Head,
    MergeBase,
    None,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineInfo {
    pub kind: BaselineKind,
    /// The commit compared against, and the session id for `session`.
    pub reference: Option<String>,
    pub session: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepoInfo {
    pub root: String,
    pub head: Option<String>,
    pub branch: Option<String>,
    pub dirty: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigInfo {
    /// "embedded", the file path, `loopgate.toml at <commit>`, or the session's record.
    pub source: String,
    pub hash: String,
    /// Why this config is the one in effect (the trust anchor).
    #[serde(default)]
    pub why: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confinement {
    Confined,
    Detected,
    Unobservable,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RootConfinement {
    pub root: String,
    pub status: Confinement,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Environment {
    pub os: String,
    pub arch: String,
    pub loopgate_version: String,
    /// BLAKE3 of the host name, so receipts can be told apart without naming machines.
    pub host_hash: String,
}

/// One line of the audit log, by sequence number and hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditPoint {
    pub seq: u64,
    pub hash: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Checks green, no failing guard.
    Pass,
    /// A check failed: the work is not done (exit 1).
    Fail,
    /// A guard tripped or a check was refused: the bar was lowered (exit 3).
    Tampered,
}

impl Verdict {
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Pass => 0,
            Verdict::Fail => 1,
            Verdict::Tampered => 3,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Receipt {
    pub version: u32,
    pub verdict: Verdict,
    pub exit_code: u8,
    /// cli, claude, codex, cursor, gemini, run.
    pub via: String,
    pub session: Option<String>,
    /// RFC 3339.
    pub started_at: String,
    pub duration_ms: u64,
    pub repo: RepoInfo,
    pub config: ConfigInfo,
    pub baseline: BaselineInfo,
    pub checks: Vec<CheckResult>,
    pub guards: Vec<GuardReport>,
    /// Changed files the guards could not read (binary, too large, not UTF-8, a
    /// submodule, a link out of the repository, an LFS pointer), each with why. Absent
    /// when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub skipped_files: Vec<SkippedFile>,
    pub confinement: Vec<RootConfinement>,
    /// Set while a quarantine is open: every check exits 3 until a human releases it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub quarantine: Option<String>,
    /// Where the audit log's anchor stood when this receipt was sealed: the log must still
    /// reach that line (`loopgate audit verify` checks it). Absent in older receipts and
    /// where no log exists yet.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub audit: Option<AuditPoint>,
    pub environment: Environment,
    /// BLAKE3 of the canonical JSON of every other field.
    pub body_hash: String,
}

impl Receipt {
    pub fn failing_checks(&self) -> impl Iterator<Item = &CheckResult> {
        self.checks.iter().filter(|c| c.status != CheckStatus::Pass)
    }

    pub fn failing_guards(&self) -> impl Iterator<Item = &GuardReport> {
        self.guards.iter().filter(|g| g.status == GuardStatus::Fail)
    }

    /// Failing checks plus fail-level findings: what the bounce ledger measures progress by.
    pub fn problem_count(&self) -> u32 {
        let checks = self.failing_checks().count();
        let findings: usize = self.failing_guards().map(|g| g.findings.len().max(1)).sum();
        (checks + findings) as u32
    }

    /// The verdict the parts imply: refused checks, failing guards and an open quarantine
    /// are tampering (3), which outranks failing checks (1).
    pub fn judge(checks: &[CheckResult], guards: &[GuardReport], quarantined: bool) -> Verdict {
        let refused = checks.iter().any(|c| c.status == CheckStatus::Refused);
        let tripped = guards.iter().any(|g| g.status == GuardStatus::Fail);
        if refused || tripped || quarantined {
            Verdict::Tampered
        } else if checks.iter().any(|c| c.status != CheckStatus::Pass) {
            Verdict::Fail
        } else {
            Verdict::Pass
        }
    }

    /// Compute `body_hash` over the canonical JSON with the hash field emptied.
    pub fn seal(mut self) -> Receipt {
        self.body_hash = String::new();
        let body = serde_json::to_vec(&self).expect("receipt serializes");
        self.body_hash = blake3::hash(&body).to_hex().to_string();
        self
    }

    pub fn verify_seal(&self) -> bool {
        self.clone().seal().body_hash == self.body_hash
    }
}
