//! loopgate: argument parsing and wiring only. Every decision lives in the crates.

mod cli;
mod cmd;
mod exit;
mod report;

fn main() -> std::process::ExitCode {
    sandbox::process::survive_file_size_limit();
    let cli = cli::Cli::parse_from_env();
    if cli.command.only_reports() {
        // Rust ignores SIGPIPE, so a closed reader makes every print fail with a panic;
        // the default action ends the process as `head`'s other writers end. Any state the
        // command writes is stored before its report is printed.
        // SAFETY: called before any thread exists; SIG_DFL is a valid disposition.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    }
    let outcome = cmd::dispatch(cli);
    exit::finish(outcome)
}
