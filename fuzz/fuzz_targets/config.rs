//! Arbitrary text as `loopgate.toml`: parsing must answer with a config or an error naming
//! the file, never panic; whatever parses must hash, and its check commands must vet (or
//! be refused) without panicking either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match gate::config::Config::parse(text, Path::new("loopgate.toml")) {
        Ok(config) => {
            let _ = config.canonical_hash();
            let opts = policy::check_mode::CheckModeOptions {
                extra_programs: config.gate.programs.clone(),
                root: "/nonexistent-fuzz-root".into(),
            };
            for check in &config.checks {
                let _ = policy::check_mode::vet(&check.run, &opts);
            }
        }
        Err(e) => assert!(e.to_string().starts_with("loopgate.toml")),
    }
});
