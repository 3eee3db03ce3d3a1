//! Write-root math, Landlock confinement, metadata snapshots for escape detection, and
//! the quarantine record.

pub mod builtin;
pub mod confine;
pub mod jail_files;
mod keeper;
pub mod mounts;
pub mod process;
pub mod quarantine;
pub mod roots;
pub mod snapshot;
mod snapshot_format;
mod snapshot_parallel;
pub mod tree;
pub mod watch;

pub use confine::{
    apply, landlock_available, prepare, system_temp_dirs, Availability, ConfinePlan, ConfineReport,
    Enforcement, Prepared, NO_LANDLOCK_ENV,
};
pub use roots::{is_inside, normalize, resolve_roots, write_root_violations};
pub use snapshot::{diff, ScanOptions, Snapshot};
pub use tree::{Containment, CONTAINMENT_ENV};
pub use watch::{default_excludes, default_watch_roots};
