//! Path math lives in the `roots` crate, the one home `policy` and `sandbox` share (so
//! static vetting and the jail agree on what "inside" means); re-exported here for the
//! sandbox's own callers.

pub use ::roots::*;
