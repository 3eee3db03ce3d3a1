//! What the red-team round tests share: the scratch repository's context
//! (bench/redteam_gate.sh: repo `~/dev/project`, write roots the repo and the temp dir,
//! home outside both, the default `[sandbox] deny_read` list) and the two assertions.

use super::{assert_allowed, assert_refused};
use policy::agent::{decide, AgentContext};
use policy::{Profile, Verdict};
use std::path::{Path, PathBuf};

pub fn ctx() -> AgentContext {
    AgentContext {
        cwd: PathBuf::from("/home/dev/project"),
        repo_root: PathBuf::from("/home/dev/project"),
        home: Some(Path::new("/home/dev").to_path_buf()),
        write_roots: vec![PathBuf::from("/home/dev/project"), PathBuf::from("/tmp")],
        protected: vec![],
        // The defaults of `[sandbox] deny_read`.
        secret_paths: ["~/.ssh/id_*", "~/.aws", "~/.config/gh", ".env", ".env.*"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        profile: Profile::Standard,
    }
}

/// Refused with this verdict and rule, the reason naming `names`.
#[track_caller]
pub fn refused(cmd: &str, verdict: Verdict, rule: &str, names: &str) {
    let d = decide(cmd, &ctx());
    assert_refused(&d, cmd, verdict, rule, names);
}

#[track_caller]
pub fn allowed(cmd: &str) {
    let d = decide(cmd, &ctx());
    assert_allowed(&d, cmd);
}
