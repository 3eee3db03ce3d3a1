//! Inline Python or JavaScript that starts a program spelled entirely in string literals
//! (`subprocess.run(["git", "status"])`, `os.system("cargo test")`,
//! `execSync("git log -1")`): the program and its words are known, so the call is judged
//! as that command instead of asking about every process inline code starts. A call whose
//! command is built at run time (a variable, a concatenation, `os.path.expanduser`) is not
//! matched and keeps its marker, which the screen asks about.

use crate::programs::Lang;

/// What one literal call runs.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Spawn {
    /// A string a shell runs (`os.system`, `execSync`, a string given to `subprocess`,
    /// judged as shell code even without `shell=True`: that is at least as strict).
    Shell(String),
    /// A program and its arguments, no shell between.
    Argv(Vec<String>),
}

/// Calls whose first argument is a shell string or an argument list.
const PYTHON_CALLS: [&str; 7] = [
    "subprocess.run(",
    "subprocess.call(",
    "subprocess.check_call(",
    "subprocess.check_output(",
    "subprocess.Popen(",
    "os.system(",
    "os.popen(",
];
/// Calls taking a shell string (`exec*`) or a program then an argument list (`*File*`,
/// `spawn*`).
const JS_SHELL_CALLS: [&str; 2] = ["execSync(", "exec("];
const JS_ARGV_CALLS: [&str; 4] = ["execFileSync(", "execFile(", "spawnSync(", "spawn("];
/// Imports that are markers only because of the calls above.
const IMPORTS: [&str; 3] = [
    "import subprocess",
    "require(\"child_process\")",
    "require('child_process')",
];

/// The literal calls in `code`, and the code with each call's name and first arguments
/// (and the imports they need) taken out, to be screened for anything else.
pub(crate) fn literal_spawns(lang: Lang, code: &str) -> (Vec<Spawn>, String) {
    let mut spawns = Vec::new();
    if !matches!(lang, Lang::Python | Lang::JavaScript) {
        return (spawns, code.to_string());
    }
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    'scan: while !rest.is_empty() {
        let at_word_start = out
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if at_word_start {
            let shell_calls: &[&str] = match lang {
                Lang::Python => &PYTHON_CALLS,
                _ => &JS_SHELL_CALLS,
            };
            for call in shell_calls {
                let Some(args) = rest.strip_prefix(call) else {
                    continue;
                };
                let args = args.trim_start();
                if let Some((s, used)) = string_literal(args) {
                    spawns.push(Spawn::Shell(s));
                    out.push_str("CALL(0");
                    rest = &args[used..];
                    continue 'scan;
                }
                if lang == Lang::Python {
                    if let Some((words, used)) = list_literal(args) {
                        spawns.push(Spawn::Argv(words));
                        out.push_str("CALL(0");
                        rest = &args[used..];
                        continue 'scan;
                    }
                }
            }
            if lang == Lang::JavaScript {
                for call in JS_ARGV_CALLS {
                    let Some(args) = rest.strip_prefix(call) else {
                        continue;
                    };
                    let args = args.trim_start();
                    let Some((program, used)) = string_literal(args) else {
                        continue;
                    };
                    let mut words = vec![program];
                    let mut end = used;
                    let after = args[used..].trim_start();
                    if let Some(list) = after.strip_prefix(',') {
                        let list = list.trim_start();
                        if let Some((more, n)) = list_literal(list) {
                            words.extend(more);
                            end = args.len() - list.len() + n;
                        } else if list.starts_with('[') {
                            // Arguments built at run time: not a literal call.
                            continue;
                        }
                    }
                    spawns.push(Spawn::Argv(words));
                    out.push_str("CALL(0");
                    rest = &args[end..];
                    continue 'scan;
                }
            }
        }
        for import in IMPORTS {
            if let Some(after) = rest.strip_prefix(import) {
                if !after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                    out.push_str("IMPORT");
                    rest = after;
                    continue 'scan;
                }
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    // A shell or an interpreter started with no code of its own reads it from a pipe
    // only the running program fills (`spawnSync('sh')`): not a literal command.
    let opaque = spawns.iter().any(|s| {
        let program = match s {
            Spawn::Shell(text) => text.split_whitespace().next(),
            Spawn::Argv(words) => words.first().map(String::as_str),
        };
        program.is_none_or(|p| crate::programs::is_shell(p) || crate::programs::is_interpreter(p))
    });
    // Code that moves its working directory (`process.chdir(os.homedir())`,
    // `os.chdir`) or names one for the call (`cwd=`, `{cwd: ...}`) runs the command
    // somewhere the string does not say: judged as before, by its markers.
    let moves = ["chdir", "cwd"].iter().any(|m| code.contains(m));
    if spawns.is_empty() || opaque || moves {
        return (Vec::new(), code.to_string());
    }
    (spawns, out)
}

/// A `'...'` or `"..."` literal with no escapes at the start of `s`: its text and length.
fn string_literal(s: &str) -> Option<(String, usize)> {
    let quote = s.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let body = &s[1..];
    let end = body.find(quote)?;
    let text = &body[..end];
    (!text.contains('\\')).then(|| (text.to_string(), end + 2))
}

/// `[LIT, LIT, ...]` of string literals at the start of `s`: the words and the length.
fn list_literal(s: &str) -> Option<(Vec<String>, usize)> {
    let mut rest = s.strip_prefix('[')?;
    let mut words = Vec::new();
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix(']') {
            return Some((words, s.len() - after.len()));
        }
        let (w, used) = string_literal(rest)?;
        words.push(w);
        rest = rest[used..].trim_start();
        if let Some(after) = rest.strip_prefix(',') {
            rest = after;
        } else if !rest.starts_with(']') {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_calls_are_read_and_computed_ones_are_left() {
        let (spawns, rest) = literal_spawns(
            Lang::Python,
            "import subprocess; print(subprocess.run([\"git\",\"status\"], capture_output=True).stdout)",
        );
        assert_eq!(
            spawns,
            vec![Spawn::Argv(vec!["git".into(), "status".into()])]
        );
        assert!(!rest.contains("subprocess"));
        let (spawns, rest) = literal_spawns(
            Lang::JavaScript,
            "require(\"child_process\").execSync(\"git log -1\", {stdio: \"inherit\"})",
        );
        assert_eq!(spawns, vec![Spawn::Shell("git log -1".into())]);
        assert!(!rest.contains("child_process") && !rest.contains("execSync"));
        let (spawns, _) = literal_spawns(
            Lang::JavaScript,
            "require('child_process').spawnSync('git', ['push', '--force'])",
        );
        assert_eq!(
            spawns,
            vec![Spawn::Argv(vec![
                "git".into(),
                "push".into(),
                "--force".into()
            ])]
        );
        // Run in a directory the code chooses: left whole.
        let code = "process.chdir(require('os').homedir()); require('child_process').execSync('rm -rf .ssh')";
        assert_eq!(
            literal_spawns(Lang::JavaScript, code),
            (vec![], code.to_string())
        );
        // A shell started bare reads code from a pipe: left whole.
        let code = "require('child_process').spawnSync('sh')";
        assert_eq!(
            literal_spawns(Lang::JavaScript, code),
            (vec![], code.to_string())
        );
        // Built at run time: nothing read, the code left whole for the screen.
        let code = "import os, subprocess; subprocess.run(['rm', '-rf', os.path.expanduser('~')])";
        assert_eq!(
            literal_spawns(Lang::Python, code),
            (vec![], code.to_string())
        );
        let code = "require('child_process').execSync(cmd)";
        assert_eq!(
            literal_spawns(Lang::JavaScript, code),
            (vec![], code.to_string())
        );
    }
}
