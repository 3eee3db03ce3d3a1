//! Test-only crash points: multi-step state changes (a quarantine release) call
//! [`crash_point`] between their steps, and a test that sets `LOOPGATE_TEST_CRASH_AT` to a
//! step's name gets the process aborted right there, as a kill would leave it. Unset (always,
//! outside tests), each call costs one environment lookup.

pub const CRASH_ENV: &str = "LOOPGATE_TEST_CRASH_AT";

pub fn crash_point(step: &str) {
    if std::env::var_os(CRASH_ENV).is_some_and(|v| v == step) {
        eprintln!("loopgate: {CRASH_ENV}={step}: aborting here");
        std::process::abort();
    }
}
