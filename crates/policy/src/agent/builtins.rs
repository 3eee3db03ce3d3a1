//! Bash's own evaluation corners: builtins that take code (`trap`, `alias`,
//! `mapfile -C`), that evaluate array subscripts (`let`, `declare`, `printf -v`, `read`,
//! `test -v`), that rebind names (`hash -p`, `enable -f`), and environment variables that
//! make a program load code.

use super::args::Arg;
use super::commands::Parsed;
use super::walk::{Analyzer, ShellState};
use super::{rule, Finding};

/// Environment variables whose value is a command line some program runs.
const COMMAND_VARIABLES: &[&str] = &[
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "MANPAGER",
];

/// Environment variables that load code into the program they are given to.
const CODE_VARIABLES: &[&str] = &[
    "LD_PRELOAD",
    "LD_AUDIT",
    "LD_LIBRARY_PATH",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "PS4",
    "SHELLOPTS",
    "BASHOPTS",
    "PERL5DB",
    "PERL5OPT",
    "RUBYOPT",
    "PYTHONSTARTUP",
    "PYTHONWARNINGS",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_SSH",
    "GIT_PROXY_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
    "DYLD_INSERT_LIBRARIES",
    "JAVA_TOOL_OPTIONS",
    "DOTNET_STARTUP_HOOKS",
];

/// Values of an editor or pager variable that run nothing but themselves.
pub(crate) const HARMLESS_COMMANDS: &[&str] =
    &["true", ":", "cat", "less", "more", "vi", "vim", "nano", ""];

impl Analyzer<'_> {
    /// `HUSKY=0 git commit`, `SKIP=lint git commit`, `LEFTHOOK=0 git push`: the hook
    /// managers' own switches that make the repository's hooks do nothing.
    pub(crate) fn hook_skip_variable(
        &mut self,
        name: &str,
        value: Option<&str>,
        program: Option<&str>,
        display: &str,
    ) {
        if program != Some("git") {
            return;
        }
        let off = |v: Option<&str>| {
            v.is_none_or(|v| {
                matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "0" | "false" | "no" | "off"
                )
            })
        };
        let skips = match name {
            "HUSKY" | "LEFTHOOK" => off(value),
            "HUSKY_SKIP_HOOKS" | "OVERCOMMIT_DISABLE" => !off(value) || value.is_none(),
            "SKIP" | "LEFTHOOK_EXCLUDE" | "PRE_COMMIT_SKIP" => {
                value.is_none_or(|v| !v.trim().is_empty())
            }
            _ => false,
        };
        if skips {
            self.add(Finding::deny(
                rule::TAMPER,
                format!("`{display}` sets `{name}`, which makes the repository's hook manager skip its hooks"),
                "let the hooks run; fix what they report instead of skipping them",
            ));
        }
    }

    /// `NAME=value` before a command (or given to `env`).
    pub(crate) fn env_assignment(
        &mut self,
        name: &str,
        value: Option<&str>,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        if super::tool_config::cargo_command_variable(name) {
            if let Some(v) = value {
                let words: Vec<String> = v.split_whitespace().map(str::to_string).collect();
                self.tool_command_words(&words, display, st, depth);
            }
            return;
        }
        if COMMAND_VARIABLES.contains(&name) {
            match value {
                Some(v) if HARMLESS_COMMANDS.contains(&v.trim()) => {}
                Some(v) => {
                    let first = v.split_whitespace().next().unwrap_or("");
                    if crate::programs::lookup(first).is_none() {
                        self.add(Finding::ask(
                            rule::DYNAMIC,
                            format!("`{display}` sets `{name}` to `{v}`, a program loopgate does not know, which git or the tool will run"),
                            "leave the variable unset, or point it at a well-known program",
                        ));
                    }
                    let mut sub = st.clone();
                    self.script(v, &mut sub, depth + 1, false);
                }
                None => self.dynamic_code(display, &format!("${name}")),
            }
            return;
        }
        // A prompt is expanded, not run: only a substitution in it runs anything.
        if name == "PS4" && value.is_some_and(|v| !v.contains("$(") && !v.contains('`')) {
            return;
        }
        let loads_code = CODE_VARIABLES.contains(&name)
            || name.starts_with("GIT_CONFIG_KEY_")
            || name.starts_with("GIT_CONFIG_VALUE_")
            || name.starts_with("BASH_FUNC_")
            || (name == "NODE_OPTIONS"
                && value.is_none_or(|v| {
                    [
                        "-r",
                        "--require",
                        "--import",
                        "--loader",
                        "--experimental-loader",
                        "-e",
                        "--eval",
                    ]
                    .iter()
                    .any(|f| v.contains(f))
                }));
        if loads_code {
            self.add(Finding::ask(
                rule::DYNAMIC,
                format!("`{display}` sets `{name}`, which makes the program load or run code that is not on the command line"),
                "drop the assignment; configure the tool in a file committed to the repository",
            ));
        }
    }

    /// Bash builtins that evaluate code or rebind what a name runs.
    pub(crate) fn builtin(
        &mut self,
        name: &str,
        rest: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        match name {
            "trap" => {
                // `trap [-lp] [[ACTION] SIGNAL...]`: the action runs later, in this shell.
                let p = Parsed::until_operand(rest, &[]).0;
                let action = rest.iter().find(|a| {
                    !a.text().is_some_and(|t| t.starts_with('-') && t != "-") && !a.is("--")
                });
                if p.has("-p", Some('p')) || p.has("-l", Some('l')) {
                    return;
                }
                if let Some(action) = action.filter(|a| !a.is("-") && rest.len() > 1) {
                    self.code_words(std::slice::from_ref(action), display, st, depth, false);
                }
            }
            "alias" => {
                for a in rest {
                    if let Some((_, value)) = a.text().and_then(|t| t.split_once('=')) {
                        let mut sub = st.clone();
                        self.script(value, &mut sub, depth + 1, false);
                    }
                }
            }
            "hash" => {
                let p = Parsed::new(rest, &["-p"]);
                if p.value("-p", Some("-p")).is_some() {
                    self.add(Finding::ask(
                        rule::DYNAMIC,
                        format!("`{display}` rebinds a command name to another program, so later commands are not what they read as"),
                        "call the program by its own name or path",
                    ));
                }
            }
            "enable" => {
                let p = Parsed::new(rest, &["-f"]);
                if p.value("-f", Some("-f")).is_some() {
                    self.add(Finding::ask(
                        rule::DYNAMIC,
                        format!("`{display}` loads a shared object as a builtin"),
                        "call the program directly",
                    ));
                }
            }
            "mapfile" | "readarray" => {
                let p = Parsed::new(rest, &["-C", "-c", "-d", "-n", "-O", "-s", "-u"]);
                if let Some(callback) = p.value("-C", Some("-C")) {
                    self.code_words(std::slice::from_ref(&callback), display, st, depth, false);
                }
            }
            _ => {}
        }
        // Array subscripts are arithmetic, and bash expands `$(...)` inside them even
        // from a quoted string: `let 'a[$(cmd)]'`, `declare -p 'a[$(cmd)]'`, `test -v`.
        let evaluates = matches!(
            name,
            "let"
                | "declare"
                | "typeset"
                | "local"
                | "export"
                | "readonly"
                | "printf"
                | "read"
                | "unset"
                | "test"
                | "["
        );
        if evaluates {
            for a in rest {
                if name == "let" {
                    self.arithmetic_text(a, st, depth);
                } else {
                    self.subscripts(a, st, depth);
                }
            }
        }
    }

    /// Text bash evaluates as arithmetic (`let`, `$((...))` of a variable, `[[ -eq ]]`, an
    /// integer variable's assignment): every `$(...)` or backquoted command in it runs,
    /// even when the word was quoted.
    pub(crate) fn arithmetic_text(&mut self, a: &Arg, st: &ShellState, depth: usize) {
        let Some(text) = a.text() else { return };
        if !(text.contains("$(") || text.contains('`')) {
            return;
        }
        let mut subs = Vec::new();
        for (open, close) in [("$(", ')'), ("`", '`')] {
            let mut from = 0;
            while let Some(at) = text[from..].find(open) {
                let body_start = from + at + open.len();
                let Some(end) = text[body_start..].rfind(close) else {
                    break;
                };
                subs.push(text[body_start..body_start + end].to_string());
                from = body_start + end + 1;
                if from >= text.len() {
                    break;
                }
            }
        }
        for inner in subs {
            let mut sub = st.clone();
            self.script(&inner, &mut sub, depth + 1, false);
        }
    }

    /// A word that may name an array element (`a[$(cmd)]`): the subscript is arithmetic.
    pub(crate) fn subscripts(&mut self, a: &Arg, st: &ShellState, depth: usize) {
        if a.text().is_some_and(|t| t.contains('[')) {
            self.arithmetic_text(a, st, depth);
        }
    }

    /// `NAME=value` with no command, or given to `export`/`declare`: a variable that
    /// loads code (`PS4`, `BASH_ENV`, `LD_PRELOAD`, ...) does so for every later command.
    pub(crate) fn shell_variable(
        &mut self,
        name: &str,
        value: Option<&str>,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        // An exported editor, pager or runner is the command every later git or cargo
        // call runs: `export GIT_EDITOR='rm -rf ~'; git commit`.
        if CODE_VARIABLES.contains(&name)
            || COMMAND_VARIABLES.contains(&name)
            || super::tool_config::cargo_command_variable(name)
        {
            self.env_assignment(name, value, display, st, depth);
        }
    }
}

/// The variables a builtin assigns from data, and the value each may then hold (`None`:
/// only the running shell knows). `read` and `mapfile` take what the command string feeds
/// them (a here-string or heredoc it spells out); `printf -v` takes its own output when
/// the format and arguments are literal. `read o <<< --hard; git reset $o` is then judged
/// as `git reset --hard`.
pub(crate) fn assigned_by(
    name: &str,
    rest: &[Arg],
    stdin: Option<&str>,
) -> Vec<(String, Option<String>)> {
    let is_name =
        |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let text = stdin.map(|t| t.strip_suffix('\n').unwrap_or(t).to_string());
    match name {
        "read" => {
            let p = Parsed::new(rest, &["-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"]);
            let mut names: Vec<String> = p
                .operands
                .iter()
                .filter_map(|a| a.text().filter(|t| is_name(t)).map(str::to_string))
                .collect();
            if let Some(array) = p
                .value("-a", Some("-a"))
                .and_then(|a| a.text().map(str::to_string))
            {
                names.push(array);
            }
            if names.is_empty() {
                names.push("REPLY".to_string());
            }
            // Each name may get any of the line's words (or the rest of the line).
            names.into_iter().map(|n| (n, text.clone())).collect()
        }
        "mapfile" | "readarray" => {
            let p = Parsed::new(rest, &["-C", "-c", "-d", "-n", "-O", "-s", "-u"]);
            let array = p
                .operands
                .first()
                .and_then(|a| a.text())
                .filter(|t| is_name(t))
                .unwrap_or("MAPFILE")
                .to_string();
            vec![(array, text)]
        }
        "printf" => {
            let Some(at) = rest.iter().position(|a| a.is("-v")) else {
                return Vec::new();
            };
            let Some(var) = rest
                .get(at + 1)
                .and_then(|a| a.text())
                .filter(|t| is_name(t))
            else {
                return Vec::new();
            };
            let words: Option<Vec<&str>> = rest[at + 2..].iter().map(|a| a.text()).collect();
            let value = words.and_then(|w| {
                let w = w.strip_prefix(&["--"][..]).unwrap_or(&w);
                super::walk::printf_output(w)
            });
            vec![(var.to_string(), value)]
        }
        _ => Vec::new(),
    }
}
