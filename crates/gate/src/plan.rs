//! From a configured check to what the runner executes: vetted argv, an explicit shell
//! opt-out, or a refusal naming why.

use crate::config::CheckSpec;
use crate::runner::{Plan, Step};
use policy::check_mode::{self, CheckModeOptions};
use std::path::Path;

pub fn plan(check: &CheckSpec, extra_programs: &[String], root: &Path) -> Plan {
    if check.shell {
        return Plan::Shell(check.run.clone());
    }
    let opts = CheckModeOptions {
        extra_programs: extra_programs.to_vec(),
        root: root.to_path_buf(),
    };
    match check_mode::vet(&check.run, &opts) {
        Ok(commands) => Plan::Vetted(
            commands
                .into_iter()
                .map(|c| Step {
                    env: c.env,
                    argv: c.argv,
                })
                .collect(),
        ),
        Err(refusal) => Plan::Refused(format!(
            "refused `{}`: {} [{}]; {}",
            refusal.offending, refusal.reason, refusal.rule, refusal.suggestion
        )),
    }
}
