//! Build tools: the flags and subcommands that run another program or change the
//! configuration every later build reads.

use super::interpreters::*;
use super::programs::*;
use super::runners::*;
use super::{CheckModeOptions, Refusal, Repo, SimpleCommand};

pub(super) fn exec_flag_refusal(program: &str, flag: &str, what: &str) -> Refusal {
    Refusal::new(
        "check.exec_flag",
        flag,
        format!("`{program} {flag}` {what}"),
        "drop the flag; configure the tool in a file committed to the repository",
    )
}

pub(super) fn vet_cargo(args: &[String], opts: &CheckModeOptions) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        let value = if arg == "--config" {
            iter.next().cloned()
        } else {
            arg.strip_prefix("--config=").map(str::to_string)
        };
        if let Some(value) = value {
            if value.contains('=') && harmless_cargo_setting(&value) {
                continue;
            }
            if value.contains('=') || repo_relative(&value, &opts.root).is_none() {
                return Err(exec_flag_refusal(
                    "cargo",
                    &format!("--config {value}"),
                    "sets cargo configuration from the command line (runners and wrappers run any program)",
                ));
            }
        }
    }
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        let manifest = if arg == "--manifest-path" {
            iter.next().cloned()
        } else {
            arg.strip_prefix("--manifest-path=").map(str::to_string)
        };
        if let Some(path) = manifest {
            if repo_relative(&path, &opts.root).is_none() {
                return Err(Refusal::new(
                    "check.path",
                    path.clone(),
                    format!("the manifest `{path}` is outside the repository: its build scripts would run"),
                    "build the repository's own manifest",
                ));
            }
        }
    }
    match positionals(args).first() {
        Some(&"install") => Err(runner_refusal(
            "install",
            "`cargo install` downloads, builds and installs a crate",
        )),
        _ => Ok(()),
    }
}

/// `cargo --config KEY=VALUE` settings that change no program cargo runs and no code it
/// builds (`net.offline=true`, `term.color=...`, `profile.dev.debug=0`).
fn harmless_cargo_setting(kv: &str) -> bool {
    let key = kv.split('=').next().unwrap_or("").trim();
    let allowed = [
        "net.",
        "http.",
        "term.",
        "build.jobs",
        "build.incremental",
        "profile.",
        "future-incompat-report.",
        "cargo-new.",
    ];
    allowed.iter().any(|p| key.starts_with(p))
        && !key.contains("rustflags")
        && !key.contains("linker")
}

pub(super) fn vet_go(args: &[String]) -> Result<(), Refusal> {
    for arg in args {
        if arg == "--" {
            break;
        }
        let name = arg.trim_start_matches('-').split('=').next().unwrap_or("");
        if arg.starts_with('-') && matches!(name, "toolexec" | "exec" | "overlay") {
            return Err(exec_flag_refusal(
                "go",
                arg,
                "runs another program for each build or test step",
            ));
        }
    }
    let pos = positionals(args);
    if pos.first() == Some(&"env") && args.iter().any(|a| a == "-w" || a == "-u") {
        return Err(exec_flag_refusal(
            "go",
            "env -w",
            "changes go's persistent configuration (GOFLAGS can add -toolexec to every later build)",
        ));
    }
    if let ["run" | "install", target, ..] = pos.as_slice() {
        if target.contains('@') {
            return Err(runner_refusal(
                target,
                &format!("`go run {target}` downloads and runs a module"),
            ));
        }
    }
    Ok(())
}

pub(super) fn vet_make(args: &[String], opts: &CheckModeOptions) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-E"
            || arg == "--eval"
            || arg.starts_with("--eval=")
            || (arg.starts_with("-E") && arg.len() > 2)
        {
            return Err(inline_refusal("make", arg));
        }
        if let Some((name, _)) = arg.split_once('=') {
            // `SHELL:=x`, `SHELL+=x`, `SHELL?=x`, `SHELL!=x` assign too.
            let name = name.trim_end_matches([':', '+', '?', '!']).trim();
            if matches!(name, "SHELL" | ".SHELLFLAGS" | "MAKEFLAGS" | "MAKESHELL") {
                return Err(exec_flag_refusal(
                    "make",
                    arg,
                    "replaces the shell make runs recipes with",
                ));
            }
        }
        let file = match arg.as_str() {
            "-f" | "--file" | "--makefile" | "-C" | "--directory" => iter.next().cloned(),
            _ => arg
                .strip_prefix("--file=")
                .or_else(|| arg.strip_prefix("--makefile="))
                .or_else(|| arg.strip_prefix("--directory="))
                .or_else(|| arg.strip_prefix("-f").filter(|r| !r.is_empty()))
                .or_else(|| arg.strip_prefix("-C").filter(|r| !r.is_empty()))
                .map(str::to_string),
        };
        if let Some(file) = file {
            if repo_relative(&file, &opts.root).is_none() {
                return Err(Refusal::new(
                    "check.path",
                    file.clone(),
                    format!("the makefile or directory `{file}` is outside the repository"),
                    "use a makefile committed inside the repository",
                ));
            }
        }
    }
    Ok(())
}

/// `bundle exec <program>` runs any program: the program it names is vetted like any other.
pub(super) fn vet_bundle(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    let pos = positionals(args);
    match pos.as_slice() {
        ["exec", ..] => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.as_str() != "exec")
                .skip(1)
                .skip_while(|a| a.starts_with('-'))
                .cloned()
                .collect();
            if rest.is_empty() {
                return Ok(());
            }
            let inner = SimpleCommand {
                env: Vec::new(),
                argv: rest,
            };
            vet_command(&inner, earlier, opts, repo)
        }
        ["config", action @ ("set" | "unset"), ..] | [action @ "config", _, _, ..] => {
            Err(exec_flag_refusal(
                "bundle config",
                action,
                "changes bundler's configuration (e.g. which Gemfile is loaded)",
            ))
        }
        _ => Ok(()),
    }
}

pub(super) fn vet_init_scripts(args: &[String], opts: &CheckModeOptions) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let file = match arg.as_str() {
            "-I" | "--init-script" => iter.next().cloned(),
            _ => arg.strip_prefix("--init-script=").map(str::to_string),
        };
        if let Some(file) = file {
            if repo_relative(&file, &opts.root).is_none() {
                return Err(Refusal::new(
                    "check.path",
                    file.clone(),
                    format!("the init script `{file}` is outside the repository"),
                    "use an init script committed inside the repository",
                ));
            }
        }
    }
    Ok(())
}
