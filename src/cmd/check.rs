use crate::cli::CheckArgs;
use crate::exit::Exit;
use gate::done::{self, DoneRequest, Progress};
use gate::receipt::{CheckResult, CheckStatus};
use std::io::IsTerminal;
use std::path::Path;

/// A progress line on a terminal while checks run (stderr, so stdout stays parseable).
struct Spinner {
    bar: Option<indicatif::ProgressBar>,
}

impl Spinner {
    fn new(enabled: bool) -> Spinner {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.enable_steady_tick(std::time::Duration::from_millis(120));
            bar
        });
        Spinner { bar }
    }
}

impl Progress for Spinner {
    fn check_started(&self, name: &str, index: usize, total: usize) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("check {}/{total}: {name}", index + 1));
        }
    }

    fn check_finished(&self, result: &CheckResult) {
        if let Some(bar) = &self.bar {
            let mark = if result.status == CheckStatus::Pass {
                "ok"
            } else {
                "FAILED"
            };
            bar.println(format!(
                "  {} {mark} ({} ms)",
                result.name, result.duration_ms
            ));
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

pub fn run(dir: &Path, args: &CheckArgs) -> anyhow::Result<Exit> {
    if args.no_guards && args.guards_only {
        anyhow::bail!("--no-guards and --guards-only together leave nothing to do");
    }
    let req = DoneRequest {
        via: "cli".into(),
        session: args.session.clone(),
        require_session: args.session.is_some(),
        against: args.against.clone(),
        only: args.only.clone(),
        run_checks: !args.guards_only,
        run_guards: !args.no_guards,
        deadline: None,
        no_store: false,
        confined_run: false,
        history_only: false,
        pinned: None,
    };
    let receipt = {
        let spinner = Spinner::new(!args.quiet && !args.json);
        done::run_with_progress(dir, &req, &spinner)?
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&receipt)?);
    } else if !args.quiet {
        crate::report::print_receipt(&receipt);
    }
    crate::report::github_actions(&receipt);
    Ok(match receipt.exit_code {
        0 => Exit::Pass,
        1 => Exit::Failed,
        _ => Exit::Refused,
    })
}
