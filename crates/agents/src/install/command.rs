//! The hook command loopgate writes into agent settings, and the test that recognises it
//! again: `<path to loopgate> hook <agent>`, the path POSIX-quoted when it needs it (every
//! agent runs hook commands through a shell). Recognition keys on the program's file name
//! being `loopgate` plus the exact ` hook <agent>` arguments, so an entry written by an
//! older install at another path is replaced, never duplicated.

use crate::AgentKind;
use std::path::Path;

pub const BINARY_NAME: &str = "loopgate";

/// The exact command string for `agent`'s hooks.
pub fn hook_command(binary: &Path, agent: AgentKind) -> String {
    format!(
        "{} hook {}",
        shell_quote(&binary.to_string_lossy()),
        agent.name()
    )
}

/// Whether `command` is a loopgate hook command for `agent` (any install path).
pub fn is_own_command(command: &str, agent: AgentKind) -> bool {
    let suffix = format!(" hook {}", agent.name());
    let Some(program) = command.trim().strip_suffix(&suffix) else {
        return false;
    };
    match unquote_word(program.trim_end()) {
        Some(program) => Path::new(&program)
            .file_name()
            .is_some_and(|name| name == BINARY_NAME),
        None => false,
    }
}

/// Quote `word` for a POSIX shell: unchanged when it only holds characters no shell
/// interprets, single-quoted otherwise.
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+:@%=,".contains(&b));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The value of one shell word (quotes and backslashes removed), or `None` when the text is
/// not exactly one word.
fn unquote_word(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = text.chars();
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        match c {
            '\'' => loop {
                match chars.next()? {
                    '\'' => break,
                    c => out.push(c),
                }
            },
            '"' => loop {
                match chars.next()? {
                    '"' => break,
                    '\\' => out.push(chars.next()?),
                    c => out.push(c),
                }
            },
            '\\' => out.push(chars.next()?),
            c if c.is_whitespace() => return None,
            c => out.push(c),
        }
    }
    any.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn plain_paths_stay_bare_and_spaced_ones_are_quoted() {
        let bin = PathBuf::from("/usr/local/bin/loopgate");
        assert_eq!(
            hook_command(&bin, AgentKind::Claude),
            "/usr/local/bin/loopgate hook claude"
        );
        let bin = PathBuf::from("/home/a b/it's/loopgate");
        assert_eq!(
            hook_command(&bin, AgentKind::Codex),
            r"'/home/a b/it'\''s/loopgate' hook codex"
        );
    }

    #[test]
    fn own_commands_are_recognised_at_any_path_and_quoting() {
        for agent in AgentKind::ALL {
            for bin in [
                "/opt/x/loopgate",
                "/home/a b/loopgate",
                "loopgate",
                "/it's/loopgate",
            ] {
                let cmd = hook_command(Path::new(bin), agent);
                assert!(is_own_command(&cmd, agent), "{cmd}");
            }
        }
        assert!(is_own_command(
            "\"/a b/loopgate\" hook gemini",
            AgentKind::Gemini
        ));
        assert!(is_own_command(
            "/a\\ b/loopgate hook cursor",
            AgentKind::Cursor
        ));
    }

    #[test]
    fn foreign_commands_are_not_ours() {
        let agent = AgentKind::Claude;
        for cmd in [
            "/usr/bin/loopgate hook codex",
            "/usr/bin/loopgate hook claude --extra",
            "/usr/bin/notloopgate hook claude",
            "/usr/bin/loopgate-wrapper hook claude",
            "echo hi && /usr/bin/loopgate hook claude",
            "'/unterminated/loopgate hook claude",
            " hook claude",
            "python3 .claude/hooks/check.py",
        ] {
            assert!(!is_own_command(cmd, agent), "{cmd}");
        }
    }
}
