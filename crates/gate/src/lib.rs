//! The done gate: config, checks runner, guards, baselines, receipts, bounce ledger.

pub mod anchor;
pub mod baseline;
pub mod bounds;
pub mod comparison;
pub mod config;
pub mod detect;
pub mod done;
pub mod escape;
pub mod evidence;
pub mod git;
pub mod guards;
pub mod ledger;
mod line_diff;
pub mod markdown;
pub mod neighbours;
pub mod pin;
pub mod plan;
pub mod receipt;
pub mod referee_files;
pub mod renames;
pub mod roots;
pub mod runner;
pub mod store;
