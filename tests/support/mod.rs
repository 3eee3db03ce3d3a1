//! Shared end-to-end test support: real git repos, the real loopgate binary, the real
//! Claude Code client and a scripted model server.
#![allow(dead_code)]

pub mod claude;
pub mod clients;
pub mod gemini_api;
pub mod hook;
pub mod http;
pub mod jail;
pub mod model;
pub mod repo;
pub mod responses;
pub mod script;
pub mod scripted;
pub mod stops;
