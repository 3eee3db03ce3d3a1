//! Whether a shell command is one plain program call: a single simple command whose words
//! are all literal, with no redirection, assignment, expansion or pattern, naming a program
//! that is not one of bash's builtins. `bash -c` runs such a command by `exec`ing the
//! program with exactly those words, so the jail can do that itself and spare the agent a
//! second shell (`loopgate jail-shell -- WORDS`, docs/sandbox.md).

use crate::shell::{self, ast, WordValue};

/// Bash's builtins and reserved words: a command named by one of these means something
/// else under `bash -c` than the program of the same name on PATH (`echo`, `kill`, `test`,
/// `cd`, `time`), so it is never plain.
const SHELL_OWN: &[&str] = &[
    ".",
    ":",
    "[",
    "[[",
    "]]",
    "{",
    "}",
    "!",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "case",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "coproc",
    "declare",
    "dirs",
    "disown",
    "do",
    "done",
    "echo",
    "elif",
    "else",
    "enable",
    "esac",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "fi",
    "for",
    "function",
    "getopts",
    "hash",
    "help",
    "history",
    "if",
    "in",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "select",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "then",
    "time",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "until",
    "wait",
    "while",
];

/// The words of `command` when it is one plain program call, `None` otherwise (then only a
/// shell can run it as written).
pub fn argv(command: &str) -> Option<Vec<String>> {
    let program = shell::parse(command).ok()?;
    let [list] = program.complete_commands.as_slice() else {
        return None;
    };
    let [ast::CompoundListItem(and_or, ast::SeparatorOperator::Sequence)] = list.0.as_slice()
    else {
        return None;
    };
    if !and_or.additional.is_empty() {
        return None;
    }
    let pipeline = &and_or.first;
    if pipeline.timed.is_some() || pipeline.bang {
        return None;
    }
    let [ast::Command::Simple(simple)] = pipeline.seq.as_slice() else {
        return None;
    };
    if simple.prefix.is_some() {
        return None;
    }
    let mut raw = vec![simple.word_or_name.as_ref()?.value.as_str()];
    for item in simple.suffix.iter().flat_map(|s| s.0.iter()) {
        match item {
            ast::CommandPrefixOrSuffixItem::Word(w) => raw.push(&w.value),
            // After the program's name `x=y` is an ordinary argument (`dd of=out`).
            ast::CommandPrefixOrSuffixItem::AssignmentWord(_, w) => raw.push(&w.value),
            _ => return None,
        }
    }
    let words = raw
        .into_iter()
        .map(|raw| match shell::decode(raw) {
            WordValue::Static(w) if !w.tilde && w.pattern.is_none() => Some(w.value),
            _ => None,
        })
        .collect::<Option<Vec<String>>>()?;
    let name = words.first()?;
    let shell_own = !name.contains('/') && SHELL_OWN.contains(&name.as_str());
    (!name.is_empty() && !shell_own && !words.iter().any(|w| w.contains('\0'))).then_some(words)
}

#[cfg(test)]
mod tests {
    use super::argv;

    fn words(list: &[&str]) -> Option<Vec<String>> {
        Some(list.iter().map(|w| w.to_string()).collect())
    }

    #[test]
    fn a_program_with_literal_words_is_plain() {
        assert_eq!(argv("ls -la"), words(&["ls", "-la"]));
        assert_eq!(
            argv("cargo test --offline"),
            words(&["cargo", "test", "--offline"])
        );
        assert_eq!(
            argv(r#"grep -rn 'a b' "c d" e\ f"#),
            words(&["grep", "-rn", "a b", "c d", "e f"])
        );
        assert_eq!(argv("dd if=a of=b"), words(&["dd", "if=a", "of=b"]));
        assert_eq!(argv("./run.sh x\n"), words(&["./run.sh", "x"]));
        assert_eq!(argv("/usr/bin/true"), words(&["/usr/bin/true"]));
    }

    #[test]
    fn anything_only_a_shell_can_run_is_not_plain() {
        for command in [
            "ls; pwd",
            "ls && pwd",
            "ls | wc -l",
            "ls &",
            "! ls",
            "time ls",
            "ls > out",
            "ls 2>&1",
            "FOO=1 ls",
            "ls $HOME",
            "ls ~",
            "ls ~/x",
            "ls *.rs",
            "ls {a,b}",
            "ls $(pwd)",
            "ls `pwd`",
            "cat <(ls)",
            "( ls )",
            "{ ls; }",
            "if true; then ls; fi",
            "",
            "''",
            "ls 'unterminated",
        ] {
            assert_eq!(argv(command), None, "{command:?}");
        }
    }

    #[test]
    fn quoted_words_read_back_as_the_same_plain_call() {
        for command in [
            "ls -la",
            r#"grep -e "it's" a\ b"#,
            "printf-x $'a\\tb'",
            "x 'a\nb'",
        ] {
            let words = argv(command).unwrap();
            let line: Vec<String> = words.iter().map(|w| crate::shell::quote(w)).collect();
            assert_eq!(argv(&line.join(" ")), Some(words), "{command:?}");
        }
    }

    #[test]
    fn bash_builtins_and_reserved_words_are_not_plain_but_paths_to_them_are() {
        for command in [
            "echo hi",
            "cd src",
            "kill 1",
            "test -f x",
            "[ -f x ]",
            "true",
            "exec ls",
        ] {
            assert_eq!(argv(command), None, "{command:?}");
        }
        assert_eq!(argv("/bin/echo hi"), words(&["/bin/echo", "hi"]));
    }
}
