//! The files a check's `run` string executes by name: rewriting one (`exit 0` in the test
//! runner) turns a red check green without touching a test, so each is protected like a
//! `[guards] protect` glob (docs/guards.md, "What a check runs").
//!
//! Only files the string names as code are taken: the program when it is a path
//! (`./scripts/test.sh`, `bin/check`) and the script operand of a shell or an interpreter
//! (`sh t.sh`, `python tests/run.py`, `node scripts/test.js`), also inside `sh -c '...'`.
//! Manifests a tool reads its commands from (`Makefile` for `make`, `package.json` for
//! `npm test`) are not: they change for ordinary reasons (a dependency, a new target).

use crate::programs::{self, Role};

/// Repository-relative paths (no `./`, no `..`, never absolute) that `run` executes by
/// name. Checks run at the repository root.
pub fn script_paths(run: &str) -> Vec<String> {
    let mut out = Vec::new();
    collect(run, 0, &mut out);
    out.sort();
    out.dedup();
    out
}

fn collect(run: &str, depth: usize, out: &mut Vec<String>) {
    if depth > 4 {
        return;
    }
    for command in split_commands(run) {
        let words = words(&command);
        let mut words = words
            .iter()
            .map(String::as_str)
            .skip_while(|w| is_assignment(w));
        let Some(program) = words.next() else {
            continue;
        };
        let rest: Vec<&str> = words.collect();
        if program.contains('/') {
            push(program, out);
            continue;
        }
        match programs::role(program) {
            Some(Role::Shell) => shell(&rest, depth, out),
            Some(Role::Interpreter { lang, .. }) if lang.takes_script_file() => {
                let values = programs::lookup(program).map_or(&[][..], |(p, _)| p.values);
                interpreter(&rest, values, out)
            }
            _ => {}
        }
    }
}

/// `sh -c CODE`: the code is searched too; `sh FILE`: the file.
fn shell(rest: &[&str], depth: usize, out: &mut Vec<String>) {
    let mut code = false;
    for (i, w) in rest.iter().enumerate() {
        if w.starts_with('-') && w.len() > 1 && *w != "--" {
            code |= !w.starts_with("--") && w.contains('c');
            continue;
        }
        let operand = if *w == "--" { rest.get(i + 1) } else { Some(w) };
        if let Some(operand) = operand {
            if code {
                collect(operand, depth + 1, out);
            } else {
                push(operand, out);
            }
        }
        return;
    }
}

/// `python [OPTIONS] FILE ...`; nothing when code or a module is given instead.
fn interpreter(rest: &[&str], values: &[&str], out: &mut Vec<String>) {
    let mut i = 0;
    while i < rest.len() {
        let w = rest[i];
        if w == "--" {
            if let Some(f) = rest.get(i + 1) {
                push(f, out);
            }
            return;
        }
        if w.starts_with('-') && w.len() > 1 {
            // A code or module option means no script file is run.
            if matches!(
                w,
                "-c" | "-e" | "-m" | "-E" | "-r" | "--eval" | "-p" | "--print"
            ) {
                return;
            }
            i += if values.contains(&w) { 2 } else { 1 };
            continue;
        }
        push(w, out);
        return;
    }
}

fn push(path: &str, out: &mut Vec<String>) {
    let path = path.trim_start_matches("./");
    let plain = !path.is_empty()
        && !path.starts_with(['/', '~', '-'])
        && !path.contains(['$', '`', '*', '?', '[', ']', '{', '}', '\\'])
        && path
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != "..");
    if plain {
        out.push(path.to_string());
    }
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The simple commands of a check string, split at `&&`, `||`, `;`, `|` and newlines
/// outside quotes.
fn split_commands(run: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut chars = run.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, ';' | '\n' | '|' | '&' | '(' | ')') => {
                if chars.peek() == Some(&c) {
                    chars.next();
                }
                out.push(std::mem::take(&mut cur));
            }
            (None, c) => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter().filter(|c| !c.trim().is_empty()).collect()
}

/// Words with quotes removed (no expansion: a word with `$` is dropped by [`push`]).
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() || any {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() || any {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_a_check_runs_by_name() {
        assert_eq!(script_paths("sh t.sh"), vec!["t.sh"]);
        assert_eq!(
            script_paths("./scripts/test.sh --fast"),
            vec!["scripts/test.sh"]
        );
        assert_eq!(script_paths("bash -e tests/run.sh"), vec!["tests/run.sh"]);
        assert_eq!(
            script_paths("python3 -u tests/run.py -k x"),
            vec!["tests/run.py"]
        );
        assert_eq!(
            script_paths("CI=1 node scripts/test.js && bin/lint"),
            vec!["bin/lint", "scripts/test.js"]
        );
        assert_eq!(
            script_paths("sh -c './ci/check.sh && true'"),
            vec!["ci/check.sh"]
        );
    }

    #[test]
    fn tools_modules_and_manifests_are_not_taken() {
        for run in [
            "cargo test --quiet",
            "npm test",
            "make test",
            "python -m pytest tests/",
            "go test ./...",
            "node -e 'x()'",
            "/usr/bin/env true",
            "sh ../outside.sh",
            "sh \"$SCRIPT\"",
            "pytest tests/test_a.py",
        ] {
            assert!(
                script_paths(run).is_empty(),
                "{run}: {:?}",
                script_paths(run)
            );
        }
    }
}
