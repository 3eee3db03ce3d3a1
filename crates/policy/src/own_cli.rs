//! loopgate's own command line, as an agent may run it: which subcommands only read, which
//! run another command (and so are judged by that command), and which change what the gate
//! believes and belong to a human. One table, read by agent mode and by user rules.
//!
//! Words are given as the program receives them; `None` is a word only known when the
//! shell runs (`loopgate $SUB`).

/// What one `loopgate ...` invocation does, as far as the gate is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnUse {
    /// Prints, reads or runs only what the pinned config says (`check`, `status`, ...).
    ReadOnly,
    /// Runs the argv that starts at word `at` (`exec -- ...`, `run -- ...`).
    Runs { at: usize, dir: Dir },
    /// Runs the shell string `code` (`jail-shell -c STRING`); `None` when only the shell
    /// knows it.
    RunsCode { code: Option<String>, dir: Dir },
    /// Changes the gate's own state or settings; `what` names the subcommand, `why` says
    /// what it would change.
    HumanOnly { what: String, why: &'static str },
    /// The subcommand is only known when the shell runs.
    Dynamic { at: usize },
}

/// The subcommands that only a human may run, and what each would change. Kept in one
/// place so docs/rule-packs.md can list them.
pub const HUMAN_ONLY: &[(&str, &str)] = &[
    (
        "init",
        "writes loopgate.toml, the config the gate judges by",
    ),
    (
        "baseline",
        "records a new baseline, the point the work is compared with",
    ),
    (
        "hook",
        "answers an agent's hook protocol: a forged hook call (a stop, a session start)",
    ),
    ("install", "rewrites the agents' hook settings"),
    ("uninstall", "removes the agents' hook settings"),
    (
        "quarantine release",
        "accepts the writes outside the roots that put the repository in quarantine",
    ),
];

/// Where the command runs: `-C DIR` / `--dir DIR` moves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dir {
    /// The caller's working directory.
    Same,
    /// `DIR`, as written (relative to the caller's directory).
    Moved(String),
    /// A directory only known when the shell runs.
    Unknown,
}

/// Global options of loopgate that take a value.
fn takes_value(word: &str) -> bool {
    matches!(word, "-C" | "--dir")
}

/// Classify `loopgate WORDS...` (`words` excludes the program name).
pub fn classify(words: &[Option<&str>]) -> OwnUse {
    let mut i = 0;
    let mut dir = Dir::Same;
    // Global options before the subcommand (`-C DIR`, `--dir=DIR`, `-CDIR`).
    while let Some(Some(w)) = words.get(i) {
        if !w.starts_with('-') || *w == "-" {
            break;
        }
        if takes_value(w) {
            dir = dir_word(words.get(i + 1).copied().flatten());
            i += 2;
        } else {
            if let Some(d) = glued_dir(w) {
                dir = Dir::Moved(d.to_string());
            }
            i += 1;
        }
    }
    let Some(sub) = words.get(i) else {
        return OwnUse::ReadOnly;
    };
    let Some(sub) = sub else {
        return OwnUse::Dynamic { at: i };
    };
    let rest = &words[i + 1..];
    let at = |k: usize| i + 1 + k;
    // A `-C DIR` after the subcommand (clap takes global options anywhere before `--`).
    let end = rest
        .iter()
        .position(|w| *w == Some("--"))
        .unwrap_or(rest.len());
    for k in 0..end {
        match rest[k] {
            Some(w) if takes_value(w) && k + 1 < end => dir = dir_word(rest[k + 1]),
            Some(w) => {
                if let Some(d) = glued_dir(w) {
                    dir = Dir::Moved(d.to_string());
                }
            }
            None => {}
        }
    }
    let human = |what: &str| OwnUse::HumanOnly {
        what: what.to_string(),
        why: HUMAN_ONLY
            .iter()
            .find(|(name, _)| *name == what)
            .map_or("changes the gate's own state", |(_, why)| why),
    };
    match *sub {
        "exec" | "run" => match rest.iter().position(|w| *w == Some("--")) {
            Some(k) if k + 1 < rest.len() => OwnUse::Runs { at: at(k + 1), dir },
            // A word only the shell knows may be the `--` (`loopgate exec $D rm x`).
            None => match rest.iter().position(Option::is_none) {
                Some(k) => OwnUse::Dynamic { at: at(k) },
                // clap refuses an argv without `--`: nothing runs.
                None => OwnUse::ReadOnly,
            },
            _ => OwnUse::ReadOnly,
        },
        "jail-shell" => {
            let mut k = 0;
            while k < rest.len() {
                match rest[k] {
                    Some("-c" | "--command") if k + 1 < rest.len() => {
                        let code = rest[k + 1].map(str::to_string);
                        return OwnUse::RunsCode { code, dir };
                    }
                    Some(w)
                        if w.starts_with("--command=") || (w.starts_with("-c") && w.len() > 2) =>
                    {
                        let code = w
                            .strip_prefix("--command=")
                            .or_else(|| w.strip_prefix("-c"));
                        return OwnUse::RunsCode {
                            code: code.map(str::to_string),
                            dir,
                        };
                    }
                    // `--agent X`, `--session X`: the value is skipped with its option.
                    Some("--agent" | "--session" | "--cwd-file") => k += 2,
                    None => return OwnUse::Dynamic { at: at(k) },
                    _ => k += 1,
                }
            }
            OwnUse::ReadOnly
        }
        "quarantine" => match rest.iter().find(|w| w.is_none_or(|w| !w.starts_with('-'))) {
            Some(Some("release")) => human("quarantine release"),
            Some(None) => OwnUse::Dynamic { at: i + 1 },
            _ => OwnUse::ReadOnly,
        },
        name if HUMAN_ONLY.iter().any(|(n, _)| *n == name) => human(name),
        // check, status, receipt, policy, audit, help, and anything clap refuses.
        _ => OwnUse::ReadOnly,
    }
}

fn dir_word(word: Option<&str>) -> Dir {
    match word {
        Some(d) => Dir::Moved(d.to_string()),
        None => Dir::Unknown,
    }
}

/// `--dir=DIR`, `-CDIR`.
fn glued_dir(word: &str) -> Option<&str> {
    word.strip_prefix("--dir=")
        .or_else(|| word.strip_prefix("-C").filter(|d| !d.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(line: &str) -> OwnUse {
        let words: Vec<Option<&str>> = line.split_whitespace().map(Some).collect();
        classify(&words)
    }

    #[test]
    fn exec_and_run_run_what_follows_the_dashes() {
        let moved = |d: &str| Dir::Moved(d.to_string());
        assert_eq!(
            of("exec -- rm -rf .loopgate"),
            OwnUse::Runs {
                at: 2,
                dir: Dir::Same
            }
        );
        assert_eq!(
            of("run --confine -- sh -c x"),
            OwnUse::Runs {
                at: 3,
                dir: Dir::Same
            }
        );
        assert_eq!(
            of("-C sub exec --json -- rm x"),
            OwnUse::Runs {
                at: 5,
                dir: moved("sub")
            }
        );
        assert_eq!(
            of("exec --dir=sub -- rm x"),
            OwnUse::Runs {
                at: 3,
                dir: moved("sub")
            }
        );
        assert_eq!(
            of("exec -C sub -- rm x"),
            OwnUse::Runs {
                at: 4,
                dir: moved("sub")
            }
        );
        assert_eq!(
            classify(&[Some("-C"), None, Some("exec"), Some("--"), Some("rm")]),
            OwnUse::Runs {
                at: 4,
                dir: Dir::Unknown
            }
        );
        assert_eq!(of("exec rm x"), OwnUse::ReadOnly);
        assert_eq!(
            classify(&[Some("exec"), None, Some("rm"), Some("x")]),
            OwnUse::Dynamic { at: 1 }
        );
    }

    #[test]
    fn state_changing_subcommands_belong_to_a_human() {
        for line in [
            "baseline",
            "baseline --session s",
            "-C . baseline",
            "--dir=. baseline",
            "hook claude",
            "init",
            "init --force",
            "install claude",
            "uninstall all",
            "quarantine release",
            "quarantine release q1",
        ] {
            assert!(
                matches!(of(line), OwnUse::HumanOnly { .. }),
                "{line}: {:?}",
                of(line)
            );
        }
    }

    #[test]
    fn reading_subcommands_stay_allowed() {
        for line in [
            "check",
            "check --against origin/main --json",
            "status",
            "receipt --md",
            "policy check -- rm -rf /",
            "policy lint loopgate.toml",
            "audit verify",
            "audit tail -n 5",
            "quarantine list",
            "--version",
            "",
        ] {
            assert_eq!(of(line), OwnUse::ReadOnly, "{line}");
        }
    }

    #[test]
    fn jail_shell_runs_its_string_and_unknown_words_are_dynamic() {
        assert_eq!(
            of("jail-shell --agent claude --session s -c x"),
            OwnUse::RunsCode {
                code: Some("x".into()),
                dir: Dir::Same
            }
        );
        assert_eq!(
            of("jail-shell --session -c --command=rm"),
            OwnUse::RunsCode {
                code: Some("rm".into()),
                dir: Dir::Same
            }
        );
        assert_eq!(classify(&[None]), OwnUse::Dynamic { at: 0 });
        assert_eq!(
            classify(&[Some("quarantine"), None]),
            OwnUse::Dynamic { at: 1 }
        );
    }
}
