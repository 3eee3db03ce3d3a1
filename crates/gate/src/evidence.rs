//! Appending gate events to the audit log. A failure to write is reported on stderr and
//! never changes a decision (DESIGN section 4).

use crate::config::{AuditConfig, Config};
use std::path::Path;

impl AuditConfig {
    pub fn settings(&self) -> audit::AuditSettings {
        audit::AuditSettings {
            max_bytes: self.max_bytes,
            keep: self.keep,
            max_field_bytes: self.max_field_bytes,
        }
    }
}

/// Append `record` to the repository's audit log, warning on stderr when it cannot.
pub fn append(root: &Path, config: Option<&Config>, record: audit::Record) {
    let settings = config.map(|c| c.audit.settings()).unwrap_or_default();
    let log = audit::AuditLog::new(&state::state_dir(root), settings);
    if let Err(e) = log.append(record) {
        eprintln!(
            "loopgate: warning: cannot write the audit log {}: {e} (the decision stands)",
            log.path().display()
        );
    }
}

/// Where the repository's audit anchor stands now, for a receipt to record.
pub fn audit_point(root: &Path) -> Option<crate::receipt::AuditPoint> {
    let log = audit::AuditLog::new(&state::state_dir(root), Default::default());
    match log.anchored() {
        Ok(link) => link.map(|l| crate::receipt::AuditPoint {
            seq: l.seq,
            hash: l.hash,
        }),
        Err(e) => {
            eprintln!(
                "loopgate: warning: cannot read the audit anchor in {}: {e}",
                state::state_dir(root).display()
            );
            None
        }
    }
}
