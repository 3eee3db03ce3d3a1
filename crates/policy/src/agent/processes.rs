//! Harm to the machine's processes rather than its files: a shell function that starts
//! copies of itself without bound (a fork bomb), and signals sent to every process of the
//! user. Neither writes a file, so neither the jail's Landlock rules nor the file rules
//! see it; below Landlock ABI 6 a jailed command can signal the user's other processes.

/// A function named `name` whose body (as the parser prints it) calls itself and runs
/// concurrently: twice or more with a pipe or a background job between (`:(){ :|:& };:`,
/// `f(){ f & f; }`), or once in the background (an endless chain of processes). Each
/// call starting more calls than it waits for is what exhausts the process table; a
/// recursive function that calls itself in sequence (`walk "$d"`) is not this.
pub(crate) fn fork_bomb(name: &str, body: &str) -> bool {
    let calls = body
        .split(|c: char| c.is_whitespace() || ";|&(){}".contains(c))
        .filter(|t| *t == name)
        .count();
    let bytes = body.as_bytes();
    let background = bytes.iter().enumerate().any(|(i, &b)| {
        let near = |j: Option<usize>| j.and_then(|j| bytes.get(j)).copied();
        b == b'&'
            && !matches!(near(i.checked_sub(1)), Some(b'&' | b'>' | b'<' | b'|'))
            && !matches!(near(Some(i + 1)), Some(b'&' | b'>'))
    });
    let piped = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'|' && bytes.get(i + 1) != Some(&b'|') && (i == 0 || bytes[i - 1] != b'|')
    });
    (calls >= 2 && (background || piped)) || (calls >= 1 && background)
}

/// `kill ... -1`, `kill -- -1`: pid -1 is every process the caller may signal; `killall5`
/// and `pkill`/`killall` given only a user (`pkill -u dev`, `killall -u dev`) select
/// every process of that user. `words` are the arguments after the program name.
pub(crate) fn signals_every_process(name: &str, words: &[&str]) -> bool {
    match name {
        "killall5" => true,
        "kill" => {
            let mut rest = words;
            // One signal spec first: `-9`, `-KILL`, `-s KILL`, `-n 9`, `--signal KILL`.
            match rest.first().copied() {
                Some("-s" | "-n" | "--signal") => rest = rest.get(2..).unwrap_or_default(),
                Some("-l" | "-L" | "--list" | "--table") => return false,
                Some("--") => rest = &rest[1..],
                // `kill -1 PID` sends signal 1: a leading dash word is the signal.
                Some(w) if w.starts_with('-') => rest = &rest[1..],
                _ => {}
            }
            let rest = rest.strip_prefix(&["--"][..]).unwrap_or(rest);
            // Pid 1 is init: when it dies, so does every process under it (the whole
            // machine, or the whole container).
            rest.contains(&"-1") || rest.contains(&"1")
        }
        "pkill" | "killall" => {
            let mut user = false;
            let mut pattern = false;
            let mut i = 0;
            while i < words.len() {
                let w = words[i];
                i += 1;
                match w {
                    "-u" | "-U" | "--user" | "--uid" | "--euid" => {
                        user = true;
                        i += 1;
                    }
                    _ if w.starts_with("--user=") || w.starts_with("--euid=") => user = true,
                    "-s" | "--signal" | "-g" | "-G" | "-P" | "-t" | "--session" | "--parent" => {
                        i += 1
                    }
                    _ if w.starts_with('-') => {}
                    _ => pattern = true,
                }
            }
            user && !pattern
        }
        _ => false,
    }
}

/// A command whose purpose is to stop or restart the machine, or to move it to a state in
/// which nothing of the user's runs (`shutdown`, `reboot`, `poweroff`, `halt`, `systemctl
/// poweroff`, `loginctl suspend`, `telinit 0`): like a signal to every process, it writes
/// no file, so neither the jail nor the file rules see it. `shutdown -c` cancels one
/// (`shutdown -h` halts: it is no help flag).
pub(crate) fn stops_the_machine(name: &str, words: &[&str]) -> bool {
    let ops: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    let informational = words
        .iter()
        .any(|w| matches!(*w, "--help" | "--version" | "-c"));
    match name {
        "shutdown" | "reboot" | "poweroff" | "halt" => !informational,
        "systemctl" | "loginctl" => {
            ops.first().is_some_and(|s| {
                matches!(
                    *s,
                    "poweroff"
                        | "reboot"
                        | "halt"
                        | "kexec"
                        | "soft-reboot"
                        | "suspend"
                        | "hibernate"
                        | "hybrid-sleep"
                        | "suspend-then-hibernate"
                        | "rescue"
                        | "emergency"
                )
            }) || (name == "systemctl"
                && ops.first() == Some(&"isolate")
                && ops.get(1).is_some_and(|t| {
                    matches!(
                        t.trim_end_matches(".target"),
                        "rescue" | "emergency" | "poweroff" | "reboot" | "halt" | "runlevel0"
                    )
                }))
        }
        "telinit" | "init" => ops
            .first()
            .is_some_and(|l| matches!(*l, "0" | "1" | "6" | "s" | "S")),
        _ => false,
    }
}

/// `pkill -f loopgate`, `killall loopgate`: a signal to the referee's own processes (a
/// hook deciding, `loopgate run` supervising the agent). A hook killed mid-decision exits
/// without an answer, which agents read as "proceed".
pub(crate) fn signals_the_referee(name: &str, words: &[&str]) -> bool {
    matches!(name, "pkill" | "killall")
        && words
            .iter()
            .any(|w| !w.starts_with('-') && w.to_ascii_lowercase().contains("loopgate"))
}

/// `nsenter -t 1 ...`: the namespaces of init are the host's own (from a privileged
/// container, the way out of it); whatever runs there is outside every jail.
pub(crate) fn enters_init_namespaces(name: &str, words: &[&str]) -> bool {
    name == "nsenter"
        && words.iter().enumerate().any(|(i, w)| {
            matches!(*w, "-t1" | "--target=1")
                || (matches!(*w, "-t" | "--target") && words.get(i + 1) == Some(&"1"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_that_start_copies_of_themselves_concurrently_are_bombs() {
        assert!(fork_bomb(":", "{ : | : & }"));
        assert!(fork_bomb("f", "{ f & f; }"));
        assert!(fork_bomb("bomb", "{ bomb | bomb & }"));
        assert!(fork_bomb("g", "{ g & }"));
        assert!(!fork_bomb(
            "walk",
            "{ for d in \"$1\"/*; do walk \"$d\"; done; }"
        ));
        assert!(!fork_bomb("fib", "{ echo $(( $(fib $1) + $(fib $2) )); }"));
        assert!(!fork_bomb("serve", "{ cargo run & wait; }"));
        assert!(!fork_bomb("lint", "{ cargo clippy 2>&1 | tee /tmp/l; }"));
    }

    #[test]
    fn signals_to_every_process_are_told_apart_from_one_pid() {
        assert!(signals_every_process("kill", &["-9", "-1"]));
        assert!(signals_every_process("kill", &["--", "-1"]));
        assert!(signals_every_process("kill", &["-s", "TERM", "-1"]));
        assert!(signals_every_process("pkill", &["-u", "dev"]));
        assert!(signals_every_process("killall5", &["-9"]));
        assert!(!signals_every_process("kill", &["-1", "1234"]));
        assert!(!signals_every_process("kill", &["%1"]));
        assert!(!signals_every_process("kill", &["-9", "1234"]));
        assert!(!signals_every_process("pkill", &["-u", "dev", "node"]));
        assert!(!signals_every_process("pkill", &["-f", "vite"]));
    }
}
