//! Settings of tools other than git whose value is a command line the tool runs later:
//! cargo's runner and compiler-wrapper keys (`--config target.<triple>.runner=...`,
//! `CARGO_TARGET_<TRIPLE>_RUNNER`, `RUSTC_WRAPPER`), which cargo splits on whitespace and
//! runs with the built program or the compiler appended, and the package scripts that
//! `npm pkg set scripts.NAME=CMD` or `npm set-script NAME CMD` writes for `npm test`,
//! `npm install` and `npm run` to run through a shell. Each value is judged as the command
//! it is, as a git editor variable is (`builtins.rs`): `runner = ["sh", "-c", "rm -rf ~"]`
//! is that shell command, `runner = "rm -rf /home"` is `rm -rf /home` (no shell reads a
//! string value, so its `~` is a literal name).
//! Maven's exec plugin (`mvn exec:exec -Dexec.executable=X -Dexec.args=...`) runs X with
//! those words, and is judged the same way.
//! A value naming a program and nothing else runs that program, which is no more than
//! running it directly.

use super::args::Arg;
use super::walk::{Analyzer, ShellState};

/// Environment variables cargo reads a runner or a compiler wrapper from.
pub(crate) fn cargo_command_variable(name: &str) -> bool {
    matches!(
        name,
        "RUSTC_WRAPPER"
            | "RUSTC_WORKSPACE_WRAPPER"
            | "CARGO_BUILD_RUSTC_WRAPPER"
            | "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER"
    ) || (name.starts_with("CARGO_TARGET_") && name.ends_with("_RUNNER"))
}

/// A `--config` key of cargo whose value is a program with its arguments.
fn cargo_key_runs(key: &str) -> bool {
    let key = key.replace(['"', '\''], "");
    let last = key.rsplit('.').next().unwrap_or("");
    (key.starts_with("target.") && last == "runner")
        || matches!(
            key.as_str(),
            "build.rustc-wrapper" | "build.rustc-workspace-wrapper"
        )
}

/// A TOML value as the words cargo runs: a string split on whitespace, or an array of
/// strings. `None` for anything else.
fn toml_words(value: &str) -> Option<Vec<String>> {
    let v = value.trim();
    let unquote = |s: &str| -> Option<String> {
        let s = s.trim();
        if let Some(inner) = s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
            return Some(inner.replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        s.strip_prefix('\'')
            .and_then(|s| s.strip_suffix('\''))
            .map(str::to_string)
    };
    if let Some(items) = v.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        let mut words = Vec::new();
        let (mut cur, mut quote) = (String::new(), None::<char>);
        for c in items.chars() {
            match (quote, c) {
                (None, '"' | '\'') => {
                    quote = Some(c);
                    cur.push(c);
                }
                (Some(q), _) if c == q && !cur.ends_with('\\') => {
                    quote = None;
                    cur.push(c);
                }
                (None, ',') => words.push(unquote(&std::mem::take(&mut cur))?),
                _ => cur.push(c),
            }
        }
        if !cur.trim().is_empty() {
            words.push(unquote(&cur)?);
        }
        return Some(words);
    }
    Some(
        unquote(v)
            .unwrap_or_else(|| v.to_string())
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    )
}

impl Analyzer<'_> {
    /// A command line a tool will run, given as its words: judged as that command.
    pub(crate) fn tool_command_words(
        &mut self,
        words: &[String],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        if words.is_empty() {
            return;
        }
        // No shell reads the words: `~` and `$X` stay literal, so they are quoted.
        let line: Vec<String> = words
            .iter()
            .map(|w| {
                let plain = !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
                if plain {
                    w.clone()
                } else {
                    super::commands::shell_quote(w)
                }
            })
            .collect();
        self.code_words(&[Arg::literal(&line.join(" "))], display, st, depth, false);
    }

    /// `cargo --config KEY=VALUE`, `npm pkg set scripts.NAME=CMD`, `npm set-script NAME CMD`.
    pub(crate) fn tool_command_settings(
        &mut self,
        name: &str,
        rest: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        let texts: Vec<&str> = rest.iter().filter_map(|a| a.text()).collect();
        match name {
            "cargo" => {
                let mut i = 0;
                while i < texts.len() {
                    let value = match texts[i].strip_prefix("--config") {
                        Some("") => texts.get(i + 1).copied(),
                        Some(v) => v.strip_prefix('='),
                        None => None,
                    };
                    i += 1;
                    let Some((key, value)) = value.and_then(|v| v.split_once('=')) else {
                        continue;
                    };
                    if cargo_key_runs(key.trim()) {
                        if let Some(words) = toml_words(value) {
                            self.tool_command_words(&words, display, st, depth);
                        }
                    }
                }
            }
            "npm" | "pnpm" => {
                let ops: Vec<&str> = texts
                    .iter()
                    .copied()
                    .filter(|t| !t.starts_with('-'))
                    .collect();
                let scripts: Vec<&str> = match ops.as_slice() {
                    ["pkg", "set", pairs @ ..] => pairs
                        .iter()
                        .filter_map(|p| p.split_once('='))
                        .filter(|(k, _)| k.starts_with("scripts."))
                        .map(|(_, v)| v)
                        .collect(),
                    ["set-script", _, cmd, ..] => vec![*cmd],
                    _ => Vec::new(),
                };
                for script in scripts {
                    self.code_words(&[Arg::literal(script)], display, st, depth, false);
                }
            }
            "mvn" | "mvnw" => {
                // The exec plugin's `exec` goal runs `-Dexec.executable` with the words
                // of `-Dexec.args`, no shell between.
                let runs_exec = texts
                    .iter()
                    .any(|t| *t == "exec:exec" || t.ends_with(":exec-maven-plugin:exec"));
                let property = |key: &str| {
                    texts
                        .iter()
                        .find_map(|t| t.strip_prefix("-D").and_then(|d| d.strip_prefix(key)))
                        .and_then(|v| v.strip_prefix('='))
                };
                if let (true, Some(program)) = (runs_exec, property("exec.executable")) {
                    let mut words = vec![program.to_string()];
                    if let Some(args) = property("exec.args") {
                        words.extend(args.split_whitespace().map(str::to_string));
                    }
                    self.tool_command_words(&words, display, st, depth);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_values_become_the_words_cargo_runs() {
        assert_eq!(toml_words("\"rm -rf ~\"").unwrap(), ["rm", "-rf", "~"]);
        assert_eq!(
            toml_words("[\"sh\", \"-c\", \"rm -rf ~\"]").unwrap(),
            ["sh", "-c", "rm -rf ~"]
        );
        assert_eq!(toml_words("/tmp/x").unwrap(), ["/tmp/x"]);
        assert!(cargo_key_runs("target.x86_64-unknown-linux-gnu.runner"));
        assert!(cargo_key_runs("target.'cfg(unix)'.runner"));
        assert!(cargo_key_runs("build.rustc-wrapper"));
        assert!(!cargo_key_runs("build.jobs"));
    }
}
