//! PowerShell (`pwsh`, `powershell`) and `cmd` as agents on Windows or WSL call them.
//!
//! Their code is not bash: `pwsh -c 'Remove-Item -Recurse ~'` names no program bash knows.
//! The code is screened for the commands and cmdlets that delete, write, move or run code
//! (`agent/inline.rs`), which asks, and it is also walked as a shell string when it
//! parses as one, since both run external programs the same way (`pwsh -c 'git reset
//! --hard'`). Code loopgate can read neither way asks; base64-encoded commands ask.

use super::args::Arg;
use super::walk::{Analyzer, ShellState, Stdin};
use super::{rule, Finding};
use crate::programs::Lang;
use crate::shell::{self, Limits};

/// What a PowerShell command line asks it to run.
enum PwshRuns<'a> {
    Code(Vec<&'a Arg>),
    Encoded,
    File(&'a Arg),
    Stdin,
    Nothing,
}

/// Options of pwsh and powershell that take a value (full names; any prefix is accepted).
const PWSH_VALUES: &[&str] = &[
    "executionpolicy",
    "ep",
    "workingdirectory",
    "wd",
    "configurationname",
    "outputformat",
    "of",
    "inputformat",
    "windowstyle",
    "version",
    "settingsfile",
    "custompipename",
    "encodedarguments",
    "ea",
];

fn pwsh_runs<'a>(name: &str, rest: &'a [Arg]) -> PwshRuns<'a> {
    let mut i = 0;
    while i < rest.len() {
        let a = &rest[i];
        i += 1;
        let Some(t) = a.text() else {
            return PwshRuns::Code(rest[i - 1..].iter().collect());
        };
        let Some(opt) = t.strip_prefix("--").or_else(|| t.strip_prefix(['-', '/'])) else {
            // pwsh takes a first operand as a script file, Windows PowerShell as code.
            return if name == "pwsh" {
                PwshRuns::File(a)
            } else {
                PwshRuns::Code(rest[i - 1..].iter().collect())
            };
        };
        let opt = opt.to_ascii_lowercase();
        if opt.is_empty() {
            return PwshRuns::Stdin;
        }
        if "command".starts_with(&opt) {
            return match rest.get(i) {
                Some(c) if c.is("-") => PwshRuns::Stdin,
                Some(_) => PwshRuns::Code(rest[i..].iter().collect()),
                None => PwshRuns::Nothing,
            };
        }
        if opt.len() >= 2 && "executionpolicy".starts_with(&opt) {
            i += 1;
        } else if "encodedcommand".starts_with(&opt) || opt == "ec" {
            return PwshRuns::Encoded;
        } else if "file".starts_with(&opt) {
            return match rest.get(i) {
                Some(f) if f.is("-") => PwshRuns::Stdin,
                Some(f) => PwshRuns::File(f),
                None => PwshRuns::Nothing,
            };
        } else if PWSH_VALUES.iter().any(|v| v.starts_with(&opt)) {
            i += 1;
        }
    }
    PwshRuns::Nothing
}

impl Analyzer<'_> {
    /// `pwsh`/`powershell`/`cmd`; false when `name` is another shell.
    pub(crate) fn windows_shell(
        &mut self,
        name: &str,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) -> bool {
        match name {
            "pwsh" | "powershell" => {
                match pwsh_runs(name, rest) {
                    PwshRuns::Code(words) => {
                        self.windows_code(name, Lang::PowerShell, &words, display, st, depth)
                    }
                    PwshRuns::Encoded => self.add(Finding::ask(
                        rule::DYNAMIC,
                        format!("`{display}` runs base64-encoded PowerShell, which is only known when it runs"),
                        "pass the commands in plain text with -Command, or put them in a script file inside the repository",
                    )),
                    PwshRuns::File(f) => {
                        self.script_file(Some((name, Lang::PowerShell)), f, stdin, display, st, depth)
                    }
                    PwshRuns::Stdin => {
                        self.stdin_code(Some((name, Lang::PowerShell)), stdin, display, st, depth)
                    }
                    PwshRuns::Nothing => {}
                }
                true
            }
            "cmd" => {
                // `cmd /s /c "..."`: the words after `/c` (or `/k`, `/r`) are the command.
                let at = rest.iter().position(|a| {
                    a.text().is_some_and(|t| {
                        matches!(t.to_ascii_lowercase().as_str(), "/c" | "/k" | "/r")
                    })
                });
                if let Some(at) = at {
                    let words: Vec<&Arg> = rest[at + 1..].iter().collect();
                    self.windows_code(name, Lang::Cmd, &words, display, st, depth);
                }
                true
            }
            _ => false,
        }
    }

    fn windows_code(
        &mut self,
        name: &str,
        lang: Lang,
        words: &[&Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        if let Some(w) = words.iter().find(|w| w.text().is_none()) {
            if w.remote {
                self.deny_remote(display, "runs downloaded content as shell code");
            } else {
                self.dynamic_code(display, w.dynamic.as_deref().unwrap_or(&w.raw));
            }
            return;
        }
        let code: Vec<&str> = words.iter().filter_map(|w| w.text()).collect();
        let code = code.join(" ");
        let flagged = super::inline::mutating_call(lang, &code).is_some();
        self.inline_code(name, lang, &code, display);
        if shell::parse_with_limits(&code, Limits::DEFAULT).is_ok() {
            let mut sub = st.clone();
            self.script(&code, &mut sub, depth + 1, false);
        } else if !flagged {
            self.add(Finding::ask(
                rule::INLINE,
                format!("`{display}`: {name} code that loopgate can read neither as {name} commands nor as a shell string"),
                "put the code in a script file inside the repository",
            ));
        }
    }
}
