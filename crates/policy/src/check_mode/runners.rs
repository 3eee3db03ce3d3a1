//! Package managers and package runners: what would download and run a package, run a
//! shell string, or rewrite the configuration a later command reads.

use super::interpreters::*;
use super::programs::*;
use super::{CheckModeOptions, Refusal, Repo, SimpleCommand};

pub(super) fn vet_bun(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    scan_flags("bun", args, &BUN)?;
    match args
        .iter()
        .find(|a| !a.starts_with('-'))
        .map(String::as_str)
    {
        Some("x") => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.as_str() != "x")
                .skip(1)
                .cloned()
                .collect();
            vet_npx(&rest, repo, "bun x")
        }
        Some("exec") => Err(Refusal::new(
            "check.package_runner",
            "exec",
            "`bun exec` runs a shell script string",
            SCRIPT,
        )),
        Some("run") => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.as_str() != "run")
                .skip(1)
                .cloned()
                .collect();
            vet_interpreter_script(&rest, earlier, opts, repo)
        }
        Some(_) => vet_interpreter_script(args, earlier, opts, repo),
        None => Ok(()),
    }
}

pub(super) fn vet_deno(args: &[String]) -> Result<(), Refusal> {
    let sub = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .map(String::as_str);
    match sub {
        Some(s @ ("eval" | "repl")) => Err(inline_refusal("deno", s)),
        Some(s @ ("x" | "install")) => Err(Refusal::new(
            "check.package_runner",
            s,
            format!("`deno {s}` fetches and runs a package"),
            "depend on the package in the repository and run it through a deno task",
        )),
        Some(_) => match args
            .iter()
            .find(|a| a.contains("://") || a.starts_with("npm:") || a.starts_with("jsr:"))
        {
            Some(url) => Err(Refusal::new(
                "check.remote",
                url.as_str(),
                format!("`{url}` is code fetched from the network"),
                "commit the script to the repository and run it from there",
            )),
            None => Ok(()),
        },
        None => Ok(()),
    }
}

pub(super) fn runner_refusal(flag: &str, what: &str) -> Refusal {
    Refusal::new(
        "check.package_runner",
        flag,
        what.to_string(),
        "install the tool as a dev dependency and run it through a package script, e.g. `npm test`",
    )
}

/// `npx` and kin: only a binary already installed in `node_modules/.bin` may run.
pub(super) fn vet_npx(args: &[String], repo: &dyn Repo, runner: &str) -> Result<(), Refusal> {
    for arg in args {
        let name = arg.split('=').next().unwrap_or(arg);
        match name {
            "-c" | "--call" | "--shell" => {
                return Err(runner_refusal(
                    arg,
                    &format!("`{runner} {arg}` runs a shell command string"),
                ))
            }
            "-y" | "--yes" => {
                return Err(runner_refusal(
                    arg,
                    &format!("`{runner} {arg}` installs and runs packages without asking"),
                ))
            }
            "-p" | "--package" => {
                return Err(runner_refusal(
                    arg,
                    &format!("`{runner} {arg}` fetches a package to run"),
                ))
            }
            _ if arg.starts_with('-') => continue,
            _ => {
                if repo.has_local_bin(arg) {
                    return Ok(());
                }
                return Err(runner_refusal(
                    arg,
                    &format!("`{runner} {arg}`: `{arg}` is not installed in node_modules/.bin, so it would be downloaded and run"),
                ));
            }
        }
    }
    Ok(())
}

/// Positionals from the first known subcommand on: a flag's value (`--prefix dir`) may
/// come before it and must not hide it.
pub(super) fn from_subcommand<'a>(pos: &[&'a str], known: &[&str]) -> Vec<&'a str> {
    match pos.iter().position(|p| known.contains(p)) {
        Some(i) => pos[i..].to_vec(),
        None => pos.to_vec(),
    }
}

pub(super) const NPM_SUBCOMMANDS: &[&str] = &[
    "exec",
    "x",
    "explore",
    "config",
    "c",
    "set",
    "pkg",
    "set-script",
    "init",
    "create",
    "innit",
    "run",
    "run-script",
    "rum",
    "urn",
    "test",
    "t",
    "tst",
    "start",
    "stop",
    "restart",
    "install",
    "i",
    "add",
    "ci",
    "uninstall",
    "update",
    "ls",
    "audit",
    "pack",
    "publish",
    "version",
];

pub(super) fn vet_npm(args: &[String], repo: &dyn Repo) -> Result<(), Refusal> {
    let pos = from_subcommand(&positionals(args), NPM_SUBCOMMANDS);
    match pos.as_slice() {
        [sub @ ("exec" | "x"), ..] => {
            let rest: Vec<String> = args.iter().skip_while(|a| a.as_str() != *sub).skip(1).cloned().collect();
            vet_npx(&rest, repo, &format!("npm {sub}"))
        }
        ["explore", ..] => Err(runner_refusal("explore", "`npm explore` runs a shell command inside a package")),
        [sub @ ("config" | "c"), action @ ("set" | "edit" | "delete" | "fix"), ..] => Err(runner_refusal(
            action,
            &format!("`npm {sub} {action}` changes npm's configuration, e.g. the shell that runs scripts"),
        )),
        ["set", ..] => Err(runner_refusal("set", "`npm set` changes npm's configuration")),
        ["pkg", action @ ("set" | "delete" | "fix"), ..] => Err(runner_refusal(
            action,
            &format!("`npm pkg {action}` rewrites package.json, e.g. the test script the next command runs"),
        )),
        ["set-script", ..] => Err(runner_refusal("set-script", "`npm set-script` rewrites a package script")),
        [sub @ ("install" | "i" | "add" | "in" | "ins" | "inst" | "insta" | "instal" | "isnt" | "isnta" | "isntal" | "isntall"), packages @ ..] if !packages.is_empty() => {
            for spec in packages {
                let name = package_name(spec);
                let fetched = spec.contains(':') || spec.contains('/') && !spec.starts_with('@') || spec.ends_with(".tgz");
                if fetched || !repo.locked_package(name) {
                    return Err(runner_refusal(
                        sub,
                        &format!("`npm {sub} {spec}` downloads a package the lockfile does not pin and runs its install scripts"),
                    ));
                }
            }
            Ok(())
        }
        [sub @ ("init" | "create" | "innit"), _, ..] => Err(runner_refusal(
            sub,
            &format!("`npm {sub} <package>` downloads and runs a package"),
        )),
        _ => Ok(()),
    }
}

/// `@scope/name@1.2` -> `@scope/name`; `name@^1` -> `name`.
fn package_name(spec: &str) -> &str {
    match spec.strip_prefix('@') {
        Some(rest) => match rest.find('@') {
            Some(at) => &spec[..at + 1],
            None => spec,
        },
        None => spec.split('@').next().unwrap_or(spec),
    }
}

pub(super) fn vet_pnpm(args: &[String], repo: &dyn Repo) -> Result<(), Refusal> {
    if let Some(a) = args
        .iter()
        .find(|a| matches!(a.as_str(), "-c" | "--shell-mode"))
    {
        return Err(runner_refusal(
            a,
            &format!("`pnpm {a}` runs a shell command string"),
        ));
    }
    let pos = from_subcommand(
        &positionals(args),
        &[
            "exec", "dlx", "create", "config", "pkg", "run", "test", "t", "install", "i", "add",
        ],
    );
    match pos.as_slice() {
        ["exec", ..] => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.as_str() != "exec")
                .skip(1)
                .cloned()
                .collect();
            vet_npx(&rest, repo, "pnpm exec")
        }
        [sub @ ("dlx" | "create"), ..] => Err(runner_refusal(
            sub,
            &format!("`pnpm {sub}` downloads and runs a package"),
        )),
        ["config", action @ ("set" | "delete"), ..] => Err(runner_refusal(
            action,
            &format!("`pnpm config {action}` changes pnpm's configuration"),
        )),
        ["pkg", action @ ("set" | "delete"), ..] => Err(runner_refusal(
            action,
            &format!("`pnpm pkg {action}` rewrites package.json"),
        )),
        _ => Ok(()),
    }
}

pub(super) fn vet_yarn(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    // `yarn workspace <name> <command>` and `yarn workspaces foreach <command>` nest a
    // command, so every positional is looked at, not only the first.
    let pos = positionals(args);
    for (i, p) in pos.iter().enumerate() {
        match *p {
            sub @ ("dlx" | "create") => {
                return Err(runner_refusal(
                    sub,
                    &format!("`yarn {sub}` downloads and runs a package"),
                ))
            }
            "exec" => {
                return Err(runner_refusal(
                    "exec",
                    "`yarn exec` runs a shell command string",
                ))
            }
            "config" => {
                if let Some(action @ ("set" | "unset" | "delete")) = pos.get(i + 1).copied() {
                    return Err(runner_refusal(
                        action,
                        &format!("`yarn config {action}` changes yarn's configuration"),
                    ));
                }
            }
            "node" => {
                let rest: Vec<String> = args
                    .iter()
                    .skip_while(|a| a.as_str() != "node")
                    .skip(1)
                    .cloned()
                    .collect();
                scan_flags("yarn node", &rest, &NODE)?;
                return vet_interpreter_script(&rest, earlier, opts, repo);
            }
            _ => {}
        }
    }
    Ok(())
}
