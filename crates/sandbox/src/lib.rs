//! Write-root math, Landlock confinement and metadata snapshots for escape detection.

pub mod roots;

pub use roots::{is_inside, normalize, resolve_roots, write_root_violations};
