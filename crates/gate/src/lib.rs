//! The done gate: config, checks runner, guards, baselines, receipts, bounce ledger.

pub mod baseline;
pub mod config;
pub mod done;
pub mod guards;
pub mod receipt;
