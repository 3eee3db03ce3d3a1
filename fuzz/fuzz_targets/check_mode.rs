//! Arbitrary text as a check command: vetting must accept or refuse, never panic, and an
//! accepted command must be a list of non-empty argv whose program is never a shell.
#![no_main]

use libfuzzer_sys::fuzz_target;
use policy::check_mode::{is_shell, vet, CheckModeOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(command) = std::str::from_utf8(data) else {
        return;
    };
    let opts = CheckModeOptions::new("/nonexistent-fuzz-root");
    match vet(command, &opts) {
        Ok(commands) => {
            assert!(!commands.is_empty());
            for c in commands {
                assert!(!c.argv.is_empty() && !c.argv[0].is_empty());
                assert!(!is_shell(&c.argv[0]));
            }
        }
        Err(refusal) => {
            assert!(refusal.rule.starts_with("check."));
            assert!(!refusal.reason.is_empty() && !refusal.suggestion.is_empty());
        }
    }
});
