//! loopgate: argument parsing and wiring only. Every decision lives in the crates.

mod cli;
mod cmd;
mod exit;
mod report;

fn main() -> std::process::ExitCode {
    sandbox::process::survive_file_size_limit();
    let cli = cli::Cli::parse_from_env();
    let outcome = cmd::dispatch(cli);
    exit::finish(outcome)
}
