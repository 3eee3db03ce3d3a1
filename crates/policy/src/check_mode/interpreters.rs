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
                // Everything after `-m module` belongs to the module (e.g. pytest's own `-c`).
                'm' => return Ok(()),
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
