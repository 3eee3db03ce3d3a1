//! Interpreters: the flags that hand them code on the command line, and the script
//! file they run.

use super::programs::*;
use super::{CheckModeOptions, Refusal, Repo, SimpleCommand};

/// Flags of one interpreter: letters that take inline code (or preload code) in a short
/// cluster, letters that take a value (the rest of the cluster is that value), long flags.
pub(super) struct Flags {
    inline_short: &'static str,
    value_short: &'static str,
    inline_long: &'static [&'static str],
}

pub(super) const NODE: Flags = Flags {
    inline_short: "epr",
    value_short: "C",
    inline_long: &[
        "--eval",
        "--print",
        "--require",
        "--import",
        "--loader",
        "--experimental-loader",
        "--env-file",
        "--env-file-if-exists",
        "--experimental-policy",
        "--experimental-config-file",
        "--openssl-config",
        "--snapshot-blob",
        "--inspect-brk-node",
    ],
};
pub(super) const BUN: Flags = Flags {
    inline_short: "epr",
    value_short: "",
    inline_long: &[
        "--eval",
        "--print",
        "--preload",
        "--require",
        "--import",
        "--env-file",
    ],
};
pub(super) const RUBY: Flags = Flags {
    inline_short: "er",
    value_short: "ICEFx",
    inline_long: &["--require", "--eval"],
};
pub(super) const PERL: Flags = Flags {
    inline_short: "eEMm",
    value_short: "ICxid",
    inline_long: &[],
};
pub(super) const PHP: Flags = Flags {
    inline_short: "rBRFEdz",
    value_short: "cft",
    inline_long: &[
        "--run",
        "--process-begin",
        "--process-code",
        "--process-file",
        "--process-end",
        "--define",
        "--zend-extension",
    ],
};
pub(super) const ELIXIR: Flags = Flags {
    inline_short: "e",
    value_short: "r",
    inline_long: &["--eval", "--rpc-eval"],
};
pub(super) const OTHER_INLINE: Flags = Flags {
    inline_short: "eEl",
    value_short: "",
    inline_long: &["--eval", "--print", "--load"],
};

pub(super) fn inline_refusal(program: &str, flag: &str) -> Refusal {
    Refusal::new(
        "check.inline_code",
        flag,
        format!("`{program} {flag}` runs code written on the command line (or preloads code), which nothing vets"),
        format!("put the code in a file in the repository and run it, e.g. `{program} scripts/check.js`"),
    )
}

/// Refuse any inline-code flag anywhere before a literal `--` (arguments after the
/// script are scanned too: a flag taking a separate value could otherwise make the
/// interpreter read `-e` as its own flag while a positional reading sees a script arg).
pub(super) fn scan_flags(program: &str, args: &[String], flags: &Flags) -> Result<(), Refusal> {
    for arg in args {
        if arg == "--" {
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            if flags
                .inline_long
                .iter()
                .any(|f| f.trim_start_matches('-') == name)
            {
                return Err(inline_refusal(program, arg));
            }
            continue;
        }
        if let Some(cluster) = arg.strip_prefix('-') {
            for c in cluster.chars() {
                if flags.inline_short.contains(c) {
                    return Err(inline_refusal(program, arg));
                }
                if flags.value_short.contains(c) || !c.is_ascii_alphanumeric() {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// `node` reading its program from standard input (no script, `-i`), or loading a test
/// reporter from a `data:` URL or the network.
pub(super) fn vet_node_extras(args: &[String]) -> Result<(), Refusal> {
    let mut iter = args.iter();
    let mut script = false;
    let mut runs_without_script = false;
    while let Some(arg) = iter.next() {
        if arg == "--" {
            script = iter.next().is_some();
            break;
        }
        if matches!(arg.as_str(), "-i" | "--interactive") {
            return Err(inline_refusal("node", arg));
        }
        let (name, value) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (arg.as_str(), None),
        };
        if matches!(name, "--test-reporter" | "--test-reporter-destination") {
            let value = value.or_else(|| iter.next().cloned()).unwrap_or_default();
            if value.starts_with("data:") || value.contains("://") {
                return Err(Refusal::new(
                    "check.inline_code",
                    arg.as_str(),
                    format!("`node {name} {value}` loads reporter code from a URL, which nothing vets"),
                    "use a built-in reporter (`spec`, `tap`, `dot`) or one installed in the repository",
                ));
            }
            continue;
        }
        if matches!(
            name,
            "--test"
                | "-v"
                | "--version"
                | "-h"
                | "--help"
                | "--run"
                | "-c"
                | "--check"
                | "--watch"
        ) {
            runs_without_script = true;
        }
        if !arg.starts_with('-') {
            script = true;
            break;
        }
    }
    if !script && !runs_without_script {
        return Err(Refusal::new(
            "check.inline_code",
            "node",
            "`node` without a script reads its program from standard input",
            "name the script to run, e.g. `node test/run.js`, or use `node --test`",
        ));
    }
    Ok(())
}

/// The first positional argument of an interpreter is the script it runs.
pub(super) fn vet_interpreter_script(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            return match iter.next() {
                Some(script) => vet_script_arg(script, earlier, opts, repo),
                None => Ok(()),
            };
        }
        if !arg.starts_with('-') {
            return vet_script_arg(arg, earlier, opts, repo);
        }
    }
    Ok(())
}

pub(super) fn vet_script_arg(
    script: &str,
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    // A bare word like `test` may be a package script name (`bun test`), not a file.
    if script.contains('/') || script.contains('.') {
        vet_script_path(script, "the script", earlier, opts, repo)
    } else {
        Ok(())
    }
}

pub(super) fn vet_python(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            return match iter.next() {
                Some(script) => vet_script_arg(script, earlier, opts, repo),
                None => Ok(()),
            };
        }
        if arg.starts_with("--") {
            if arg == "--check-hash-based-pycs" {
                iter.next();
            }
            continue;
        }
        let Some(cluster) = arg.strip_prefix('-') else {
            return vet_script_arg(arg, earlier, opts, repo);
        };
        if cluster.is_empty() {
            return Ok(()); // `-`: the script comes from stdin, which is empty for a check
        }
        for (i, c) in cluster.char_indices() {
            match c {
                'c' => return Err(inline_refusal("python", arg)),
                // Everything after `-m module` belongs to the module (e.g. pytest's own `-c`),
                // except for modules that run code given on the command line.
                'm' => {
                    let rest = &cluster[i + 1..];
                    let module = if rest.is_empty() {
                        iter.next().map(String::as_str).unwrap_or("")
                    } else {
                        rest
                    };
                    if matches!(module, "timeit" | "pdb" | "code" | "idlelib") {
                        return Err(inline_refusal("python", &format!("-m {module}")));
                    }
                    return Ok(());
                }
                'W' | 'X' => {
                    if i + 1 == cluster.len() {
                        iter.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    Ok(())
}
