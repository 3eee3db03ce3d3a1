//! Check-mode vetting: the command strings loopgate itself runs (`[[check]].run`).
//!
//! The accepted shape is a list of simple commands joined by `&&`. Each one is run by
//! loopgate as an argv, without a shell, so the string must mean exactly what its words
//! say: no operator other than `&&`, no expansion, no substitution, no redirection, no
//! glob, no control flow; an allowlisted program; no flag that hands the program inline
//! code; no environment assignment that changes what the program loads.
//!
//! [`vet_with`] is the pure decision; [`vet`] wires it to the real repository on disk.

mod env;
mod interpreters;
mod programs;
mod runners;
mod structure;
mod tools;

pub use env::dangerous_env;
pub use programs::{is_shell, is_wrapper, suspicious_program, DEFAULT_PROGRAMS};

use crate::shell::{self, Limits};
use crate::{Decision, Verdict};
use std::path::{Path, PathBuf};

/// Check commands are one line a human wrote; anything longer is refused before parsing.
pub const LIMITS: Limits = Limits {
    max_bytes: 16 * 1024,
    max_depth: 12,
};

/// One command loopgate will run: `env` are the leading assignments, `argv[0]` the program.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SimpleCommand {
    pub env: Vec<(String, String)>,
    pub argv: Vec<String>,
}

impl SimpleCommand {
    /// The command as a person would type it, quoting words that need it.
    pub fn display(&self) -> String {
        let mut parts: Vec<String> = self
            .env
            .iter()
            .map(|(k, v)| format!("{k}={}", quote(v)))
            .collect();
        parts.extend(self.argv.iter().map(|a| quote(a)));
        parts.join(" ")
    }
}

fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Why a command string was refused.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Refusal {
    /// Stable id, e.g. `check.pipe` (documented in docs/check-mode.md).
    pub rule: String,
    /// The exact part of the command that was refused, e.g. `|` or `-e`.
    pub offending: String,
    pub reason: String,
    /// The safe form to use instead.
    pub suggestion: String,
}

impl Refusal {
    pub(crate) fn new(
        rule: &str,
        offending: impl Into<String>,
        reason: impl Into<String>,
        suggestion: impl Into<String>,
    ) -> Refusal {
        Refusal {
            rule: rule.to_string(),
            offending: offending.into(),
            reason: reason.into(),
            suggestion: suggestion.into(),
        }
    }

    pub fn to_decision(&self, command: &str) -> Decision {
        Decision {
            decision: Verdict::Deny,
            rule: self.rule.clone(),
            reason: self.reason.clone(),
            commands: vec![command.to_string()],
            suggestion: Some(self.suggestion.clone()),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} [{}]; {}", self.reason, self.rule, self.suggestion)
    }
}

/// The decision for an accepted command string.
pub fn allowed_decision(commands: &[SimpleCommand]) -> Decision {
    Decision::allow(
        "check.allowed",
        "every command is an allowlisted program run without a shell",
        commands.iter().map(SimpleCommand::display).collect(),
    )
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckModeOptions {
    /// Programs added to the allowlist (`[gate] programs`). Shells and wrappers stay refused.
    pub extra_programs: Vec<String>,
    /// The repository root: scripts must live inside it, `npx` packages must be installed in it.
    pub root: PathBuf,
}

impl CheckModeOptions {
    pub fn new(root: impl Into<PathBuf>) -> CheckModeOptions {
        CheckModeOptions {
            extra_programs: Vec::new(),
            root: root.into(),
        }
    }
}

/// What vetting needs to know about the repository, kept behind a trait so the decision
/// itself stays pure and testable without a file system.
pub trait Repo {
    /// `path` is relative to the repository root and already normalized (no `..`).
    fn path_exists(&self, path: &Path) -> bool;
    /// `node_modules/.bin/<name>` exists at the root.
    fn has_local_bin(&self, name: &str) -> bool;
    /// The npm lockfile at the root pins package `name`.
    fn locked_package(&self, _name: &str) -> bool {
        false
    }
    /// Where `path` (repository-relative) points when it is a symlink.
    fn link_target(&self, _path: &Path) -> Option<PathBuf> {
        None
    }
}

/// The real repository on disk.
pub struct DiskRepo<'a>(pub &'a Path);

impl Repo for DiskRepo<'_> {
    fn path_exists(&self, path: &Path) -> bool {
        self.0.join(path).exists()
    }

    fn has_local_bin(&self, name: &str) -> bool {
        // A name like `..` or `a/b` would leave `.bin` and point at some other directory.
        let plain = !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\']);
        plain && self.0.join("node_modules/.bin").join(name).is_file()
    }

    fn locked_package(&self, name: &str) -> bool {
        let Ok(lock) = std::fs::read_to_string(self.0.join("package-lock.json")) else {
            return false;
        };
        lock.contains(&format!("\"node_modules/{name}\""))
    }

    fn link_target(&self, path: &Path) -> Option<PathBuf> {
        std::fs::read_link(self.0.join(path)).ok()
    }
}

/// Vet `command` against the repository at `opts.root`.
pub fn vet(command: &str, opts: &CheckModeOptions) -> Result<Vec<SimpleCommand>, Refusal> {
    vet_with(command, opts, &DiskRepo(&opts.root))
}

/// The pure decision: parse, check the shape, then every command.
pub fn vet_with(
    command: &str,
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<Vec<SimpleCommand>, Refusal> {
    shell::contain(|| vet_contained(command, opts, repo)).unwrap_or_else(|failure| {
        Err(Refusal::new(
            "check.syntax",
            "",
            failure,
            "write the command in plain shell words, or move the logic into a script file",
        ))
    })
}

fn vet_contained(
    command: &str,
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<Vec<SimpleCommand>, Refusal> {
    if command.trim().is_empty() {
        return Err(Refusal::new(
            "check.empty",
            "",
            "the command is empty",
            "write the command to run, e.g. `cargo test`",
        ));
    }
    let parsed = shell::parse_full(command, LIMITS).map_err(parse_refusal)?;
    let commands = structure::simple_commands(&parsed)?;
    let mut earlier: Vec<SimpleCommand> = Vec::new();
    for cmd in commands {
        programs::vet_command(&cmd, &earlier, opts, repo)?;
        earlier.push(cmd);
    }
    Ok(earlier)
}

fn parse_refusal(failure: shell::ParseFailure) -> Refusal {
    let suggestion = "move the logic into a script file in the repository and call it, e.g. `./scripts/check.sh`";
    match failure {
        shell::ParseFailure::TooLong { len, max } => Refusal::new(
            "check.too_long",
            format!("{len} bytes"),
            format!("the command is {len} bytes long; check commands are limited to {max}"),
            suggestion,
        ),
        shell::ParseFailure::TooDeep { depth, max } => Refusal::new(
            "check.too_deep",
            format!("nesting depth {depth}"),
            format!("the command nests {depth} levels deep; at most {max} are analysed"),
            suggestion,
        ),
        shell::ParseFailure::Control { byte, offset } => Refusal::new(
            "check.control",
            format!("0x{byte:02x} at byte {offset}"),
            format!("the command holds the control character 0x{byte:02x} at byte {offset}"),
            "remove the control character; write the command on one plain line",
        ),
        shell::ParseFailure::Syntax(msg) => Refusal::new(
            "check.syntax",
            msg.clone(),
            format!("the command does not parse as shell: {msg}"),
            "fix the quoting, or move the logic into a script file in the repository",
        ),
    }
}

/// Normalize a repository-relative path lexically; `None` when it climbs out of the root.
pub(crate) fn inside_root(path: &str) -> Option<PathBuf> {
    if path.starts_with('/') {
        return None;
    }
    let mut out = PathBuf::new();
    for part in Path::new(path).components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            std::path::Component::Normal(p) => out.push(p),
            _ => return None,
        }
    }
    Some(out)
}
