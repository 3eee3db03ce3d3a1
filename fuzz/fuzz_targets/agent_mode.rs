//! Agent-mode vetting on arbitrary bytes: never a panic, never a hang, and a decision
//! that is deterministic and at least as strict under `strict` as under `standard`. A
//! command the jail runs as a plain program call reads back as the same words once they
//! are quoted (jail-shell hands them to `bash -c` that way when bash must answer).
#![no_main]

use libfuzzer_sys::fuzz_target;
use policy::agent::{decide, AgentContext};
use policy::{plain_command, shell};
use policy::{Profile, Verdict};
use std::path::PathBuf;

fn ctx(profile: Profile) -> AgentContext {
    AgentContext {
        cwd: PathBuf::from("/home/dev/project/src"),
        repo_root: PathBuf::from("/home/dev/project"),
        home: Some(PathBuf::from("/home/dev")),
        write_roots: vec![PathBuf::from("/home/dev/project"), PathBuf::from("/tmp")],
        protected: vec!["Cargo.toml".into()],
        secret_paths: vec![],
        profile,
    }
}

fuzz_target!(|data: &[u8]| {
    // Hooks receive JSON strings; invalid UTF-8 reaches us lossily converted.
    let command = String::from_utf8_lossy(data);
    let standard = decide(&command, &ctx(Profile::Standard));
    assert_eq!(standard, decide(&command, &ctx(Profile::Standard)));
    let strict = decide(&command, &ctx(Profile::Strict));
    assert!(strict.decision >= standard.decision);
    if standard.decision != Verdict::Allow {
        assert!(!standard.reason.is_empty() && !standard.rule.is_empty());
    }
    if let Some(words) = plain_command::argv(&command) {
        let line: Vec<String> = words.iter().map(|w| shell::quote(w)).collect();
        assert_eq!(plain_command::argv(&line.join(" ")), Some(words));
    }
});
