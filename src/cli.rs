//! The command line of DESIGN section 1.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "loopgate",
    version,
    about = "A deterministic referee for autonomous coding agents"
)]
pub struct Cli {
    /// Work in this directory instead of the current one.
    #[arg(short = 'C', long = "dir", global = true, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Usage errors exit 2 (clap's default), `--help`/`--version` exit 0.
    pub fn parse_from_env() -> Cli {
        Cli::hook_call(std::env::args_os()).unwrap_or_else(Cli::parse)
    }

    /// `loopgate hook <agent>` exactly as `loopgate install` writes it, read without
    /// building clap's command tree: every agent tool call starts this process, and that
    /// tree is a sixth of its work. Anything else (options, another spelling, a wrong
    /// agent) goes to clap, which gives the same result or the usual usage error.
    fn hook_call(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<Cli> {
        let mut args = args.into_iter().skip(1);
        let (Some(sub), Some(agent), None) = (args.next(), args.next(), args.next()) else {
            return None;
        };
        if sub != "hook" {
            return None;
        }
        let agent = match agent.to_str()? {
            "claude" => Agent::Claude,
            "codex" => Agent::Codex,
            "cursor" => Agent::Cursor,
            "gemini" => Agent::Gemini,
            _ => return None,
        };
        Some(Cli {
            dir: None,
            command: Command::Hook(HookArgs { agent }),
        })
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write loopgate.toml for the detected stack.
    Init(InitArgs),
    /// Run the checks and guards: the done gate and the judge.
    Check(CheckArgs),
    /// Record a session baseline.
    Baseline(BaselineArgs),
    /// Show the state of the gate in this repository.
    Status(StatusArgs),
    /// Print the latest receipt.
    Receipt(ReceiptArgs),
    /// Vet command strings.
    #[command(subcommand)]
    Policy(PolicyCommand),
    /// Speak an agent's hook protocol on stdin/stdout.
    Hook(HookArgs),
    /// Install loopgate's hooks for an agent or CI.
    Install(InstallArgs),
    /// Remove loopgate's hooks for an agent or CI.
    Uninstall(InstallArgs),
    /// Run one argv without a shell, optionally jailed.
    Exec(ExecArgs),
    /// Baseline, run an agent (jailed), then check.
    Run(ExecArgs),
    /// Run one agent shell command under the session's jail (written by the tool gate).
    #[command(hide = true)]
    JailShell(JailShellArgs),
    /// Read and verify the hash-chained audit log.
    #[command(subcommand)]
    Audit(AuditCommand),
    /// List or release quarantines recorded after write escapes.
    #[command(subcommand)]
    Quarantine(QuarantineCommand),
}

impl Command {
    /// Commands that only print a report: like other Unix filters they end quietly when
    /// the reader goes away (`loopgate check --json | head`), instead of failing to print.
    pub fn only_reports(&self) -> bool {
        matches!(
            self,
            Command::Check(_)
                | Command::Status(_)
                | Command::Receipt(_)
                | Command::Policy(_)
                | Command::Audit(_)
        )
    }
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Overwrite an existing loopgate.toml.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args, Default)]
pub struct CheckArgs {
    /// Compare against this git ref (judge mode); a ref that does not resolve is exit 2.
    #[arg(long, value_name = "REF", conflicts_with = "session")]
    pub against: Option<String>,
    /// Compare against this session's baseline.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Run only these checks (comma separated names).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub only: Vec<String>,
    /// Skip the guards.
    #[arg(long)]
    pub no_guards: bool,
    /// Skip the checks (guards only), as a subagent stop does.
    #[arg(long)]
    pub guards_only: bool,
    /// Print the receipt as JSON.
    #[arg(long)]
    pub json: bool,
    /// Print nothing but errors.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct BaselineArgs {
    /// Session id (default: "manual").
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Do nothing when this session already has a baseline.
    #[arg(long)]
    pub if_missing: bool,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ReceiptArgs {
    #[arg(long, conflicts_with = "md")]
    pub json: bool,
    #[arg(long)]
    pub md: bool,
}

#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Decide one command string.
    Check(PolicyCheckArgs),
    /// Vet every command of an untrusted config.
    Lint(PolicyLintArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum PolicyMode {
    #[default]
    Agent,
    Check,
}

#[derive(Debug, Args)]
pub struct PolicyCheckArgs {
    #[arg(long, value_enum, default_value_t = PolicyMode::Agent)]
    pub mode: PolicyMode,
    /// Resolve paths against this directory (default: the current one).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    /// The command string, after `--`.
    #[arg(last = true, required = true, num_args = 1.., value_name = "COMMAND_STRING")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct PolicyLintArgs {
    pub file: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Agent {
    Claude,
    Codex,
    Cursor,
    Gemini,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    #[arg(value_enum)]
    pub agent: Agent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InstallTarget {
    Claude,
    Codex,
    Cursor,
    Gemini,
    Ci,
    All,
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    #[arg(value_enum)]
    pub target: InstallTarget,
    /// The user's global settings instead of the repository's.
    #[arg(long)]
    pub global: bool,
}

#[derive(Debug, Args)]
pub struct JailShellArgs {
    /// The agent whose session pin holds the write roots.
    #[arg(long)]
    pub agent: String,
    #[arg(long)]
    pub session: String,
    /// Where to leave the directory the command ended in, for the outer shell.
    #[arg(long)]
    pub cwd_file: Option<std::path::PathBuf>,
    /// Landlock only: no mount namespace (the hook found none available).
    #[arg(long)]
    pub no_mounts: bool,
    /// The command, run by `bash -c`.
    #[arg(
        short = 'c',
        long = "command",
        allow_hyphen_values = true,
        required_unless_present = "words",
        conflicts_with = "words"
    )]
    pub command: Option<String>,
    /// A plain program call's words, after `--`: the program is run directly when it is an
    /// executable file, by `bash -c` otherwise.
    #[arg(last = true, num_args = 1.., value_name = "WORD")]
    pub words: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ExecArgs {
    /// Apply Landlock confinement to the child.
    #[arg(long)]
    pub confine: bool,
    #[arg(long)]
    pub json: bool,
    /// The program and its arguments, after `--`.
    #[arg(last = true, required = true, num_args = 1.., value_name = "PROGRAM")]
    pub argv: Vec<String>,
}

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Verify the hash chain: exit 0 intact, 3 with the first broken line.
    Verify(AuditArgs),
    /// Print the last lines.
    Tail(AuditTailArgs),
    /// Attempts, denials by rule, by session.
    Stats(AuditArgs),
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AuditTailArgs {
    #[arg(short = 'n', long, default_value_t = 20)]
    pub lines: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum QuarantineCommand {
    List(AuditArgs),
    Release(QuarantineReleaseArgs),
}

#[derive(Debug, Args)]
pub struct QuarantineReleaseArgs {
    /// Release only this quarantine id (default: all).
    pub id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn argv(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_hook_shortcut_reads_what_clap_reads() {
        for agent in ["claude", "codex", "cursor", "gemini"] {
            let words = argv(&["loopgate", "hook", agent]);
            let quick = Cli::hook_call(words.clone()).expect("the installed form is read");
            let full = Cli::try_parse_from(words).expect("clap reads it");
            assert_eq!(format!("{quick:?}"), format!("{full:?}"));
        }
    }

    #[test]
    fn anything_but_the_installed_form_goes_to_clap() {
        for words in [
            &["loopgate", "hook"][..],
            &["loopgate", "hook", "Claude"],
            &["loopgate", "hook", "claude", "extra"],
            &["loopgate", "-C", "/tmp", "hook", "claude"],
            &["loopgate", "hook", "--help"],
            &["loopgate", "check", "claude"],
        ] {
            assert!(Cli::hook_call(argv(words)).is_none(), "{words:?}");
        }
    }
}
