//! What each program does: wrappers it hides behind, files it writes, code it runs.

use super::args::{Arg, Cwd};
use super::checks::Op;
use super::walk::{Analyzer, Invocation, ShellState, Stdin};
use super::{inline, rule, Finding};
use crate::programs::{self, long_matches, Lang, Role};
use crate::Profile;

/// An argument list split GNU-style into options (with their values) and operands.
///
/// Short clusters are split (`-rf` is `-r -f`; `-rtDIR` is `-r` and `-t DIR`); a long
/// option may be abbreviated (`--recurs`, `--target DIR`) and take `=VALUE`.
pub(crate) struct Parsed<'a> {
    pub opts: Vec<(String, Option<Arg>)>,
    pub operands: Vec<&'a Arg>,
}

impl<'a> Parsed<'a> {
    /// `with_value`: options that take the next argument (`-t`, `--target-directory`);
    /// `-tDIR` and `--target-directory=DIR` forms are understood too.
    pub fn new(args: &'a [Arg], with_value: &[&str]) -> Parsed<'a> {
        Parsed::scan(args, with_value, false).parsed
    }

    /// Like [`Parsed::new`], but the first operand ends the options: everything after it
    /// belongs to a script or a command (`python x.py -c y`).
    pub fn until_operand(args: &'a [Arg], with_value: &[&str]) -> (Parsed<'a>, usize) {
        let p = Parsed::scan(args, with_value, true);
        let used = p.used;
        (p.parsed, used)
    }

    fn scan(args: &'a [Arg], with_value: &[&str], stop: bool) -> Scanned<'a> {
        let mut opts = Vec::new();
        let mut operands = Vec::new();
        let mut i = 0;
        let mut ended = false;
        while i < args.len() {
            let a = &args[i];
            i += 1;
            let text = match a.text() {
                Some(t) if !ended && t.starts_with('-') && t.len() > 1 => t,
                _ => {
                    operands.push(a);
                    if stop {
                        break;
                    }
                    continue;
                }
            };
            if text == "--" {
                ended = true;
                if stop {
                    break;
                }
                continue;
            }
            if let Some(long) = text.strip_prefix("--") {
                let takes = !long.contains('=')
                    && (with_value.contains(&text)
                        || with_value
                            .iter()
                            .any(|w| w.starts_with("--") && long_matches(text, w)));
                if takes {
                    opts.push((text.to_string(), args.get(i).cloned()));
                    i += 1;
                } else {
                    opts.push((text.to_string(), None));
                }
                continue;
            }
            if with_value.contains(&text) {
                opts.push((text.to_string(), args.get(i).cloned()));
                i += 1;
                continue;
            }
            // A cluster: letters until one that takes a value (the rest, or the next word).
            let body = &text[1..];
            let splittable = body
                .char_indices()
                .take_while(|(_, c)| c.is_ascii_alphanumeric())
                .any(|(_, c)| with_value.contains(&format!("-{c}").as_str()))
                || body.chars().all(|c| c.is_ascii_alphanumeric());
            if !splittable {
                opts.push((text.to_string(), None));
                continue;
            }
            for (pos, c) in body.char_indices() {
                let flag = format!("-{c}");
                if with_value.contains(&flag.as_str()) {
                    let rest = &body[pos + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i - 1).cloned()
                    } else {
                        Some(Arg::literal(rest))
                    };
                    opts.push((flag, value));
                    break;
                }
                opts.push((flag, None));
            }
        }
        Scanned {
            parsed: Parsed { opts, operands },
            used: i,
        }
    }

    /// A long option (`--name`, `--name=...`, or an abbreviation) or a short one alone
    /// or in a cluster.
    pub fn has(&self, long: &str, short: Option<char>) -> bool {
        self.opts.iter().any(|(o, _)| {
            long_matches(o, long)
                || short.is_some_and(|c| !o.starts_with("--") && o[1..].contains(c))
        })
    }

    /// The value of an option given as `-x V`, `-xV`, `--name V`, `--name=V` or an
    /// abbreviation of `--name`.
    pub fn value(&self, long: &str, short: Option<&str>) -> Option<Arg> {
        for (o, v) in &self.opts {
            let named = long_matches(o, long) || Some(o.as_str()) == short;
            if !named {
                continue;
            }
            if let Some(v) = v {
                return Some(v.clone());
            }
            if let Some((_, rest)) = o.split_once('=').filter(|_| o.starts_with("--")) {
                return Some(Arg::literal(rest));
            }
        }
        None
    }

    /// Every value given to any of `names` (code options may repeat: `-e a -e b`).
    pub fn values(&self, names: &[&str]) -> Vec<Arg> {
        let mut out = Vec::new();
        for (o, v) in &self.opts {
            let named = names.iter().any(|n| {
                if n.starts_with("--") {
                    long_matches(o, n)
                } else {
                    o == n
                }
            });
            if !named {
                continue;
            }
            if let Some(v) = v {
                out.push(v.clone());
            } else if let Some((_, rest)) = o.split_once('=') {
                out.push(Arg::literal(rest));
            }
        }
        out
    }
}

struct Scanned<'a> {
    parsed: Parsed<'a>,
    used: usize,
}

/// The index in `args` of the wrapped command, after the wrapper's own options and
/// `positionals` leading operands (a duration, a CPU mask, ...).
fn wrapped(args: &[Arg], with_value: &[&str], positionals: usize) -> Option<usize> {
    let mut i = 0;
    let mut left = positionals;
    while i < args.len() {
        let t = args[i].text().unwrap_or("");
        if t == "--" {
            i += 1;
            continue;
        }
        if t.starts_with('-') && t.len() > 1 && left == positionals {
            let takes = if t.starts_with("--") {
                !t.contains('=')
                    && with_value
                        .iter()
                        .any(|w| w.starts_with("--") && long_matches(t, w))
            } else {
                with_value.contains(&t)
            };
            i += if takes { 2 } else { 1 };
            continue;
        }
        if left > 0 {
            left -= 1;
            i += 1;
            continue;
        }
        return Some(i);
    }
    None
}

/// Where the command a runner runs (`uv run CMD`, `npm exec -- CMD`, `npx PKG`) starts
/// in `rest`, when this invocation runs one (see `Program::runs`).
fn runner_command(prog: &programs::Program, rest: &[Arg]) -> Option<usize> {
    for run in prog.runs {
        let (words, positionals) = match run.split_once(':') {
            Some((w, n)) => (w, n.parse().unwrap_or(0)),
            None => (*run, 0),
        };
        let sub: Vec<&str> = words.split_whitespace().collect();
        let start = if sub.is_empty() {
            0
        } else {
            let first = wrapped(rest, prog.values, 0)?;
            let named = sub
                .iter()
                .enumerate()
                .all(|(k, w)| rest.get(first + k).and_then(|a| a.text()) == Some(*w));
            if !named {
                continue;
            }
            first + sub.len()
        };
        return wrapped(&rest[start..], prog.values, positionals).map(|i| start + i);
    }
    None
}

/// Where the shell string starts when a runner is told to run its command through a
/// shell (`Program::shell_modes`): the first operand after the subcommand and the flag.
fn shell_mode_command(prog: &programs::Program, rest: &[Arg]) -> Option<usize> {
    let first = rest
        .iter()
        .position(|a| a.text().is_some_and(|t| !t.starts_with('-')))?;
    let sub = rest[first].text()?;
    let flags: Vec<&str> = prog
        .shell_modes
        .iter()
        .filter(|(s, _)| *s == sub)
        .map(|(_, f)| *f)
        .collect();
    if flags.is_empty() {
        return None;
    }
    let mut on = false;
    for (k, a) in rest.iter().enumerate().skip(first + 1) {
        let t = a.text().unwrap_or("");
        if t == "--" {
            continue;
        }
        if t.starts_with('-') {
            on |= flags.contains(&t);
            continue;
        }
        return on.then_some(k);
    }
    None
}

/// Wrappers peeled off one command at most (each is one level of recursion).
const MAX_WRAPPERS: usize = 64;
/// Programs analysed at most per decision, wrappers included. A command an agent writes
/// runs tens of programs, a long script a few hundred; each analysed program costs about
/// 20 µs in a release build, so the bound keeps the worst case (`find a b -exec find a b
/// -exec ...`) near 0.1 s of the hook's deadline rather than over a second.
const MAX_PROGRAMS: usize = 4_096;

/// The options of `docker|podman|nerdctl run` (and `create`) that take a value: the
/// value is not the image, nor a host path unless the option is a mount.
const CONTAINER_RUN_VALUES: &[&str] = &[
    "-v",
    "--volume",
    "--mount",
    "-e",
    "--env",
    "-w",
    "--workdir",
    "--name",
    "-p",
    "--publish",
    "-u",
    "--user",
    "--network",
    "--entrypoint",
    "--env-file",
    "-l",
    "--label",
    "--platform",
    "-h",
    "--hostname",
    "--cpus",
    "-m",
    "--memory",
    "--pid",
    "--ipc",
    "--userns",
    "--cap-add",
    "--cap-drop",
    "--security-opt",
    "--device",
    "--restart",
];

impl Analyzer<'_> {
    pub(crate) fn deny_remote(&mut self, display: &str, how: &str) {
        self.add(Finding::deny(
            rule::REMOTE,
            format!("`{display}` {how}"),
            "download to a file inside the repository, read it, and run it only after a human reviewed it",
        ));
    }

    pub(crate) fn dynamic_code(&mut self, display: &str, part: &str) {
        self.add(Finding::ask(
            rule::DYNAMIC,
            format!("`{display}` runs code `{part}` that is only known when the shell runs"),
            "write the command out literally so it can be vetted",
        ));
    }

    /// Run the rules for `inv.argv[start..]`; true when its output is downloaded content.
    /// Wrappers recurse into the command they run; the recursion is bounded by an explicit
    /// counter (`parse.bounds` beyond it), so `env env env ... rm` cannot exhaust the stack.
    pub(crate) fn invoke(
        &mut self,
        inv: &Invocation,
        start: usize,
        st: &mut ShellState,
        depth: usize,
    ) -> bool {
        if self.wrapper_depth >= MAX_WRAPPERS {
            self.bounds(format!(
                "more than {MAX_WRAPPERS} wrappers (env, sudo, timeout, ...) are nested in one command"
            ));
            return false;
        }
        // `find a b -exec find a b -exec ...` analyses each start directory on its own, so
        // the programs multiply: bound them in total as well as in depth.
        self.programs += 1;
        if self.programs > MAX_PROGRAMS {
            self.bounds(format!(
                "the command string runs more than {MAX_PROGRAMS} programs"
            ));
            return false;
        }
        self.wrapper_depth += 1;
        let out = self.invoke_unbounded(inv, start, st, depth);
        self.wrapper_depth -= 1;
        out
    }

    fn invoke_unbounded(
        &mut self,
        inv: &Invocation,
        start: usize,
        st: &mut ShellState,
        depth: usize,
    ) -> bool {
        let argv = &inv.argv[start.min(inv.argv.len())..];
        let Some(first) = argv.first() else {
            return false;
        };
        let display = inv.display.as_str();
        let Some(prog) = first.text() else {
            if first.remote {
                self.deny_remote(display, "runs downloaded content as a command");
            } else {
                self.dynamic_code(display, first.dynamic.as_deref().unwrap_or(&first.raw));
            }
            return false;
        };
        if let Some(pattern) = first
            .pattern
            .as_ref()
            .filter(|_| !matches!(prog, "[" | "[["))
        {
            // `{rm,-rf,/}`, `/bin/r?`: the shell picks the program by expansion.
            self.dynamic_code(
                display,
                &format!(
                    "{} (the command word is expanded from `{pattern}`)",
                    first.raw
                ),
            );
            return false;
        }
        if prog.contains('/') && self.is_downloaded(prog, st) {
            self.deny_remote(
                display,
                &format!("runs `{prog}`, downloaded by this same command"),
            );
        } else if prog.contains('/') {
            self.written_script(None, prog, display, st, depth);
        }
        let known = programs::lookup(prog);
        let spec = known.as_ref().map(|(p, _)| *p);
        let name_owned = match &known {
            Some((_, n)) => n.clone(),
            None => programs::normalise(prog),
        };
        let name = name_owned.as_str();
        let rest = &argv[1..];
        let next = start + 1;
        if inv.xargs {
            // `... | xargs kubectl delete`: the words xargs appends are unknown.
            let mut with_input = rest.to_vec();
            let mut unknown = Arg::literal("(arguments read by xargs)");
            unknown.value = None;
            unknown.dynamic = Some("arguments xargs reads from its input".into());
            with_input.push(unknown);
            self.remote_destructive(name, &with_input, &inv.stdin, display);
        } else {
            self.remote_destructive(name, rest, &inv.stdin, display);
        }
        self.sql_files(name, rest, &inv.stdin, display, st);
        let words: Vec<&str> = rest.iter().map(|a| a.text().unwrap_or("")).collect();
        if super::processes::signals_every_process(name, &words) {
            self.add(Finding::ask(
                rule::PROCESSES,
                format!("`{display}` signals every process of the user (or init, whose end takes them all), not one it started"),
                "kill the process you started by its id (`kill %1`, `kill PID`)",
            ));
        }
        if let Some(what) = super::publish::publishes(name, &words) {
            self.add(Finding::ask(
                rule::REMOTE_DESTRUCTIVE,
                format!("`{display}` {what}: once out, a release is copied and installed by others and cannot be taken back"),
                "run it with `--dry-run` (or build the artifact locally) and ask a human to publish",
            ));
        }
        if let Some(what) = super::windows_host::changes_windows_host(name, &words) {
            self.add(Finding::ask(
                rule::REMOTE_DESTRUCTIVE,
                format!("`{display}` {what}: a Windows program runs on the host, outside the Linux jail"),
                "read the setting instead (`reg query`, `icacls FILE`, `schtasks /query`), and ask a human to change the host",
            ));
        }
        if super::processes::enters_init_namespaces(name, &words) {
            self.add(Finding::ask(
                rule::ESCAPE,
                format!("`{display}` enters the namespaces of pid 1, the host's own: what it runs there is outside every jail"),
                "run the command in the container or the jail you were given",
            ));
        }
        if super::processes::stops_the_machine(name, &words) {
            self.add(Finding::ask(
                rule::PROCESSES,
                format!("`{display}` stops or restarts the machine, and every process on it"),
                "ask a human to power the machine off or restart it",
            ));
        }
        if super::hook_managers::removes_git_hooks(name, &words) {
            self.add(Finding::deny(
                rule::TAMPER,
                format!("`{display}` removes the repository's git hooks, so later commits skip their checks"),
                "leave the hooks installed; fix what they report instead",
            ));
        }
        if super::processes::signals_the_referee(name, &words) {
            self.add(Finding::deny(
                rule::TAMPER,
                format!(
                    "`{display}` signals loopgate's own processes, the referee of this session"
                ),
                "leave loopgate's processes alone; kill the process you started by its id",
            ));
        }
        self.note_secrets_and_senders(name, rest, &inv.stdin, display, st);
        self.tool_command_settings(name, rest, display, st, depth);
        self.written_manifest(name, rest, display, st, depth);
        self.written_setup_py(name, rest, display, st);
        if prog == "shopt"
            && rest.iter().any(|a| a.is("-s"))
            && rest.iter().any(|a| a.is("nocaseglob"))
        {
            self.fold_glob_case();
        }
        if let Some(text) = st
            .aliases
            .iter()
            .rev()
            .find(|(n, _)| n == prog)
            .map(|(_, v)| v.clone())
        {
            // `alias g=git; g reset --hard` (with `expand_aliases`): the replacement text
            // and the remaining words, as written, are the command.
            let mut code = text;
            for a in rest {
                code.push(' ');
                code.push_str(&a.raw);
            }
            let mut sub = st.clone();
            self.script(&code, &mut sub, depth + 1, false);
        }
        match name {
            "cd" | "pushd" if st.cd_shadowed => {
                st.cwd = Cwd::unknown();
                return false;
            }
            "cd" | "pushd" => {
                self.cd(rest, st);
                return false;
            }
            "popd" => {
                st.cwd = Cwd::unknown();
                return false;
            }
            "env" => return self.env(inv, next, st, depth),
            "command" => {
                let p = Parsed::new(rest, &[]);
                if p.has("-v", None) || p.has("-V", None) {
                    return false;
                }
                return wrapped(rest, &[], 0)
                    .is_some_and(|i| self.invoke(inv, next + i, st, depth));
            }
            "xargs" => return self.xargs(inv, next, st, depth),
            "watch" => {
                let i = wrapped(rest, &["-n", "-d", "--interval", "--differences"], 0);
                if let Some(i) = i {
                    self.code_words(&rest[i..], display, st, depth, false);
                }
                return false;
            }
            "parallel" | "sem" => {
                // The words before `:::` are a command template GNU parallel runs with a shell.
                let i = wrapped(rest, &["-j", "--jobs", "-S", "--sshlogin"], 0);
                if let Some(i) = i {
                    let end = rest[i..]
                        .iter()
                        .position(|a| matches!(a.text(), Some(":::" | "::::" | ":::+" | "::::+")))
                        .map_or(rest.len(), |e| i + e);
                    let template = &rest[i..end];
                    let inputs: Vec<&Arg> = rest[(end + 1).min(rest.len())..]
                        .iter()
                        .filter(|a| !matches!(a.text(), Some(":::" | "::::" | ":::+" | "::::+")))
                        .collect();
                    let from_file = rest.get(end).is_some_and(|a| a.is("::::"));
                    let literal: Option<Vec<&str>> = template.iter().map(|a| a.text()).collect();
                    if let (true, Some(texts)) = (
                        inputs.is_empty() || from_file,
                        literal.filter(|t| !t.is_empty()),
                    ) {
                        // GNU parallel quotes each input as one word: an argument only
                        // known when it runs, as xargs appends (`$(cat)` is such a word).
                        let unknown = "\"$(cat)\"";
                        let mut placed = false;
                        let mut words: Vec<Arg> = texts
                            .iter()
                            .map(|t| {
                                placed |= t.contains("{}");
                                Arg::literal(&t.replace("{}", unknown))
                            })
                            .collect();
                        if !placed {
                            words.push(Arg::literal(unknown));
                        }
                        self.code_words(&words, display, st, depth, false);
                    } else if inputs.is_empty() || from_file {
                        let mut words = template.to_vec();
                        words.push(Arg {
                            value: None,
                            dynamic: Some("arguments parallel reads from its input".into()),
                            ..Arg::literal("{}")
                        });
                        self.code_words(&words, display, st, depth, false);
                    }
                    for input in inputs {
                        if template.is_empty() {
                            // With no command, each input line is itself the command.
                            self.code_words(std::slice::from_ref(input), display, st, depth, false);
                            continue;
                        }
                        // Each input replaces `{}` in the template, or is appended to it.
                        let mut words: Vec<Arg> = Vec::new();
                        let mut placed = false;
                        for w in template {
                            match (w.text(), input.text()) {
                                (Some(t), Some(v)) if t.contains("{}") => {
                                    words.push(Arg::literal(&t.replace("{}", &shell_quote(v))));
                                    placed = true;
                                }
                                _ => words.push(w.clone()),
                            }
                        }
                        if !placed {
                            words.push(match input.text() {
                                Some(v) => Arg::literal(&shell_quote(v)),
                                None => input.clone(),
                            });
                        }
                        self.code_words(&words, display, st, depth, false);
                    }
                }
                return false;
            }
            "eval" => {
                // The string runs in this shell: its `cd` and assignments last.
                self.code_here(rest, display, st, depth);
                return false;
            }
            "source" | "." => {
                if let Some(script) = rest.first() {
                    self.script_file(None, script, &inv.stdin, display, st, depth);
                }
                return false;
            }
            "trap" | "alias" | "hash" | "mapfile" | "readarray" | "let" | "enable" | "declare"
            | "typeset" | "local" | "export" | "readonly" | "printf" | "read" | "unset"
            | "test" | "[" => {
                self.builtin(name, rest, display, st, depth);
                if name == "alias" {
                    for (alias, text) in rest
                        .iter()
                        .filter_map(|a| a.text().and_then(|t| t.split_once('=')))
                    {
                        if matches!(alias, "cd" | "pushd" | "popd") {
                            st.cd_shadowed = true;
                        }
                        st.aliases.push((alias.to_string(), text.to_string()));
                    }
                }
                for (var, value) in
                    super::builtins::assigned_by(name, rest, inv.stdin.text.as_deref())
                {
                    st.remember(&var, value);
                }
                if matches!(
                    name,
                    "declare" | "typeset" | "local" | "export" | "readonly"
                ) {
                    // `export F=--hard; git reset $F`: remembered like a bare assignment.
                    for a in rest {
                        let Some((var, value)) = a.raw.split_once('=') else {
                            continue;
                        };
                        if var.starts_with('-')
                            || !var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        {
                            continue;
                        }
                        let value = a
                            .text()
                            .and_then(|t| t.split_once('='))
                            .map(|(_, v)| v.to_string())
                            .filter(|_| !value.starts_with('('));
                        self.shell_variable(var, value.as_deref(), display, st, depth);
                        st.remember(var, value);
                    }
                }
                if name != "printf" {
                    return false;
                }
            }
            "sg" => {
                // `sg GROUP COMMAND-STRING`: the string runs through /bin/sh -c.
                let p = Parsed::new(rest, &[]);
                if p.operands.len() > 1 {
                    let words: Vec<Arg> = p.operands[1..].iter().map(|a| (*a).clone()).collect();
                    self.code_words(&words, display, st, depth, false);
                }
                return false;
            }
            "script" => {
                self.wrapper_code(spec, rest, display, st, depth);
                let p = Parsed::new(rest, spec.map_or(&[], |p| p.values));
                let files: Vec<Arg> = p.operands.iter().map(|a| (*a).clone()).collect();
                self.check_writes(&files, Op::Write, display, st);
                return false;
            }
            "busybox" | "toybox" if rest.first().is_some_and(|a| a.is("--install")) => {
                // `busybox --install [-s] [DIR]` links every applet into DIR (/bin and
                // its kin when none is named).
                let dir = rest
                    .iter()
                    .skip(1)
                    .find(|a| !a.text().is_some_and(|t| t.starts_with('-')))
                    .cloned()
                    .unwrap_or_else(|| Arg::literal("/bin"));
                self.check_writes(&[dir], Op::WriteTree, display, st);
                return false;
            }
            "busybox" | "toybox" => return self.invoke(inv, next, st, depth),
            "loopgate" => return self.loopgate(inv, next, st, depth),
            "git" | "hub" => {
                // `hub` wraps git and passes every git subcommand through.
                self.git(rest, &inv.stdin, display, st, depth);
                return false;
            }
            _ if name.starts_with("git-") && name.len() > 4 => {
                // `git-reset --hard`, `/usr/lib/git-core/git-push -f`, `git-filter-repo`:
                // git's programs called by their own names are the git subcommands.
                let mut args = vec![Arg::literal(&name[4..])];
                args.extend(rest.iter().cloned());
                self.git(&args, &inv.stdin, display, st, depth);
                return false;
            }
            "find" => {
                self.find(inv, rest, st, depth);
                return false;
            }
            "patch" => {
                self.patch(rest, &inv.stdin, display, st);
                return false;
            }
            "at" | "batch" => {
                // The job is shell code, from `-f FILE` or standard input.
                let p = Parsed::new(rest, &["-f", "-q", "-t"]);
                match p.value("-f", Some("-f")) {
                    Some(file) => self.script_file(None, &file, &inv.stdin, display, st, depth),
                    None => self.stdin_code(None, &inv.stdin, display, st, depth),
                }
                return false;
            }
            "tmux" => {
                self.tmux(rest, display, st, depth);
                return false;
            }
            "ssh" => {
                self.ssh(rest, display, st, depth);
                return false;
            }
            "scp" | "sftp" => self.scp_commands(rest, display, st, depth),
            "sqlite3" => self.sqlite_shell(rest, &inv.stdin, display, st, depth),
            "psql" | "mysql" | "mariadb" => {
                self.sql_client_shell(name, rest, &inv.stdin, display, st, depth)
            }
            "m4" => self.m4_shell(rest, &inv.stdin, display, st, depth),
            "ed" => self.ed_shell(&inv.stdin, display, st, depth),
            "less" => self.less_shell(rest, display, st, depth),
            "docker" | "podman" | "nerdctl" | "kubectl" | "oc" | "docker-compose"
                if rest
                    .iter()
                    .filter_map(|a| a.text().filter(|t| !t.starts_with('-')))
                    .take(2)
                    .enumerate()
                    .any(|(k, t)| {
                        t == "exec" && (k == 0 || rest.iter().any(|a| a.is("compose")))
                    }) =>
            {
                // `docker exec C CMD`, `docker compose exec SERVICE CMD`, `kubectl exec P -- CMD`.
                let at = rest.iter().position(|a| a.is("exec")).unwrap_or(0);
                let args = &rest[at + 1..];
                let cmd = if matches!(name, "kubectl" | "oc") {
                    args.iter().position(|a| a.is("--")).map(|i| i + 1)
                } else {
                    let with_value = [
                        "-e",
                        "--env",
                        "--env-file",
                        "-u",
                        "--user",
                        "-w",
                        "--workdir",
                        "--detach-keys",
                    ];
                    let (p, used) = Parsed::until_operand(args, &with_value);
                    (!p.operands.is_empty()).then_some(used)
                };
                if let Some(i) = cmd.filter(|i| *i < args.len()) {
                    self.remotely(
                        &args[i..],
                        false,
                        display,
                        st,
                        depth,
                        "inside the container",
                    );
                }
                return false;
            }
            "docker" | "podman" | "nerdctl"
                if matches!(
                    rest.iter()
                        .find_map(|a| a.text().filter(|t| !t.starts_with('-'))),
                    Some("run" | "create")
                ) =>
            {
                // A host directory bind-mounted writable is written by whatever the
                // container runs: judged as a write to that directory.
                let p = Parsed::new(rest, CONTAINER_RUN_VALUES);
                self.privileged_container(&p, rest, display, st, depth);
                let mut hosts = Vec::new();
                // Writable mounts as (host, path in the container).
                let mut mounts: Vec<(String, String)> = Vec::new();
                for v in p.values(&["-v", "--volume"]) {
                    match v.text() {
                        Some(t) => {
                            let mut parts = t.split(':');
                            let host = parts.next().unwrap_or("");
                            let target = parts.next().unwrap_or("");
                            let opts = parts.next().unwrap_or("");
                            let named_volume = !host.starts_with(['/', '.', '~']);
                            if !named_volume
                                && !opts.split(',').any(|o| o == "ro" || o == "readonly")
                            {
                                hosts.push(Arg::literal(host));
                                mounts.push((host.to_string(), target.to_string()));
                            }
                        }
                        None => hosts.push(v),
                    }
                }
                for m in p.values(&["--mount"]) {
                    let Some(t) = m.text() else { continue };
                    let fields: Vec<(&str, &str)> = t
                        .split(',')
                        .map(|f| f.split_once('=').unwrap_or((f, "")))
                        .collect();
                    let bind = fields.iter().any(|(k, v)| *k == "type" && *v == "bind");
                    let ro = fields.iter().any(|(k, _)| matches!(*k, "readonly" | "ro"));
                    if let (true, false, Some((_, src))) = (
                        bind,
                        ro,
                        fields.iter().find(|(k, _)| matches!(*k, "source" | "src")),
                    ) {
                        hosts.push(Arg::literal(src));
                    }
                }
                let home = if st.home_changed {
                    None
                } else {
                    self.ctx.home.clone()
                };
                let hosts: Vec<Arg> = hosts
                    .into_iter()
                    .map(|h| match (h.text(), home.as_ref()) {
                        (Some(t), Some(home)) if t == "~" || t.starts_with("~/") => {
                            Arg::literal(&format!("{}{}", home.display(), &t[1..]))
                        }
                        _ => h,
                    })
                    .collect();
                self.check_writes(&hosts, Op::Write, display, st);
                self.container_command(rest, &mounts, display, st, depth);
            }
            "bfg" => {
                self.add(Finding::deny(
                    rule::GIT,
                    format!("`{display}` runs the BFG Repo-Cleaner, which rewrites the repository's history"),
                    "ask a human to rewrite history",
                ));
                return false;
            }
            "java"
                if Parsed::new(rest, &["-jar", "-cp", "-classpath"])
                    .value("-jar", Some("-jar"))
                    .and_then(|j| j.value)
                    .is_some_and(|j| {
                        programs::base_name(&j)
                            .to_ascii_lowercase()
                            .starts_with("bfg")
                    }) =>
            {
                self.add(Finding::deny(
                    rule::GIT,
                    format!("`{display}` runs the BFG Repo-Cleaner, which rewrites the repository's history"),
                    "ask a human to rewrite history",
                ));
                return false;
            }
            "ansible" => {
                // `ansible HOSTS -m shell|command|raw -a CMD` runs CMD on every host.
                let p = Parsed::new(
                    rest,
                    &["-m", "--module-name", "-a", "--args", "-i", "-u", "-e"],
                );
                let module = p.value("--module-name", Some("-m"));
                let runs = module.as_ref().is_none_or(|m| {
                    m.text().is_some_and(|t| {
                        matches!(
                            t.rsplit('.').next().unwrap_or(t),
                            "shell" | "command" | "raw" | "script"
                        )
                    })
                });
                if let (true, Some(cmd)) = (runs, p.value("--args", Some("-a"))) {
                    self.remotely(&[cmd], true, display, st, depth, "on the managed hosts");
                }
                return false;
            }
            "coreutils" => {
                // `coreutils --coreutils-prog=rm ARGS` is `rm ARGS`.
                if let Some(prog) = rest
                    .first()
                    .and_then(|a| a.text())
                    .and_then(|t| t.strip_prefix("--coreutils-prog="))
                {
                    let mut argv = vec![Arg::literal(prog)];
                    argv.extend(rest[1..].iter().cloned());
                    let sub = Invocation {
                        argv,
                        stdin: inv.stdin.clone(),
                        xargs: inv.xargs,
                        display: inv.display.clone(),
                    };
                    return self.invoke(&sub, 0, st, depth);
                }
            }
            _ => {}
        }
        self.opaque_code(name, rest, &inv.stdin, display);
        if let Some(i) = spec.and_then(|p| shell_mode_command(p, rest)) {
            self.code_words(&rest[i..], display, st, depth, false);
            return false;
        }
        match spec.map(|p| (p, p.role)) {
            Some((_, Role::Shell)) => {
                if !self.windows_shell(name, rest, &inv.stdin, display, st, depth) {
                    self.shell(rest, &inv.stdin, display, st, depth);
                }
                false
            }
            Some((p, Role::Wrapper { positionals, .. })) => {
                if self.wrapper_code(Some(p), rest, display, st, depth) {
                    return false;
                }
                if matches!(name, "time" | "strace" | "ltrace") {
                    let parsed = Parsed::new(rest, p.values);
                    if let Some(out) = parsed.value("--output", Some("-o")) {
                        self.check_writes(&[out], Op::Write, display, st);
                    }
                }
                // `sudo -D DIR`, `unshare --wd DIR`, `systemd-run --working-directory DIR`
                // run the command in DIR, as `env -C DIR` does.
                let dir = match name {
                    "sudo" | "doas" => Parsed::new(rest, p.values).value("--chdir", Some("-D")),
                    "unshare" => Parsed::new(rest, p.values).value("--wd", Some("-w")),
                    "systemd-run" => Parsed::new(rest, p.values).value("--working-directory", None),
                    _ => None,
                };
                let Some(i) = wrapped(rest, p.values, positionals) else {
                    // `sudo -s <<< CODE`, `su <<< CODE`: with no command the wrapper starts
                    // a shell, which reads its standard input as code.
                    let words: Vec<&str> = rest.iter().map(|a| a.text().unwrap_or("")).collect();
                    if programs::shell_without_command(name, &words) {
                        self.stdin_code(None, &inv.stdin, display, st, depth);
                    }
                    return false;
                };
                match dir {
                    Some(dir) => {
                        let mut local = st.clone();
                        self.cd_to(&dir, &mut local);
                        self.invoke(inv, next + i, &mut local, depth)
                    }
                    None => self.invoke(inv, next + i, st, depth),
                }
            }
            Some((_, Role::Downloader)) => {
                self.downloader(name, rest, display, st);
                true
            }
            Some((
                p,
                Role::Interpreter {
                    lang,
                    code,
                    code_operand,
                },
            )) => {
                // An interpreter that is also a package runner (`bun x PKG ARGS`).
                if let Some(i) = runner_command(p, rest) {
                    let mut sub = st.clone();
                    return self.invoke(inv, next + i, &mut sub, depth);
                }
                self.interpreter(
                    name,
                    p.values,
                    lang,
                    code,
                    code_operand,
                    rest,
                    &inv.stdin,
                    display,
                    st,
                    depth,
                );
                self.file_writes(name, rest, inv.xargs, display, st);
                false
            }
            Some((p, Role::Launcher | Role::Tool)) => {
                self.shell_options(p, rest, display, st, depth);
                if let Some(i) = runner_command(p, rest) {
                    let mut sub = st.clone();
                    return self.invoke(inv, next + i, &mut sub, depth);
                }
                self.file_writes(name, rest, inv.xargs, display, st);
                false
            }
            None => {
                self.unknown_code(name, rest, display);
                // A program loopgate does not know may run its arguments as a command
                // (`rlwrap git reset --hard`, `screen -dm rm -rf ~`): the words from the
                // first one that names a known program are judged as that command.
                if let Some(i) = rest.iter().position(|a| {
                    a.text()
                        .is_some_and(|t| !t.starts_with('-') && programs::lookup(t).is_some())
                }) {
                    let mut sub = st.clone();
                    self.invoke(inv, next + i, &mut sub, depth);
                }
                false
            }
        }
    }

    /// A wrapper's option that takes a shell string (`su -c`, `flock -c`, `script -c`):
    /// the string is analysed as code. True when one was found.
    fn wrapper_code(
        &mut self,
        prog: Option<&programs::Program>,
        rest: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) -> bool {
        let Some(Role::Wrapper { code, .. }) = prog.map(|p| p.role) else {
            return false;
        };
        if code.is_empty() {
            return false;
        }
        let mut values: Vec<&str> = prog.map_or(Vec::new(), |p| p.values.to_vec());
        values.extend(code.iter().copied());
        let p = Parsed::new(rest, &values);
        let strings = p.values(code);
        if strings.is_empty() {
            return false;
        }
        for s in strings {
            self.code_words(std::slice::from_ref(&s), display, st, depth, false);
        }
        true
    }

    /// Options of a known tool whose value is a shell command (`tar --to-command`,
    /// `rsync -e`, `zip -TT`, `npm exec -c`): the value is analysed as code.
    fn shell_options(
        &mut self,
        prog: &programs::Program,
        rest: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        if prog.shell_opts.is_empty() {
            return;
        }
        let mut values = prog.values.to_vec();
        values.extend(prog.shell_opts.iter().copied());
        let parsed = Parsed::new(rest, &values);
        for opt in prog.shell_opts {
            for v in parsed.values(&[opt]) {
                let code = if *opt == "--checkpoint-action" {
                    // Only the `exec=CMD` action runs a command.
                    match v.text() {
                        Some(t) => match t.strip_prefix("exec=") {
                            Some(c) => Arg::literal(c),
                            None => continue,
                        },
                        None => v,
                    }
                } else {
                    v
                };
                let from_network = prog.connection_in;
                self.code_words(
                    std::slice::from_ref(&code),
                    display,
                    st,
                    depth,
                    from_network,
                );
            }
        }
    }

    /// `tmux new-session|new-window|split-window|respawn-pane|run-shell ... CMD`: the
    /// trailing words are a shell command.
    fn tmux(&mut self, rest: &[Arg], display: &str, st: &ShellState, depth: usize) {
        let global = ["-L", "-S", "-f", "-T"];
        let Some(at) = wrapped(rest, &global, 0) else {
            return;
        };
        let runs = matches!(
            rest[at].text(),
            Some(
                "new-session"
                    | "new"
                    | "new-window"
                    | "neww"
                    | "split-window"
                    | "splitw"
                    | "respawn-pane"
                    | "respawnp"
                    | "respawn-window"
                    | "respawnw"
                    | "run-shell"
                    | "run"
                    | "send-keys"
                    | "send"
            )
        );
        let with_value = [
            "-s", "-n", "-c", "-t", "-x", "-y", "-e", "-F", "-f", "-l", "-L", "-S",
        ];
        if runs {
            if let Some(i) = wrapped(&rest[at + 1..], &with_value, 0) {
                self.code_words(&rest[at + 1 + i..], display, st, depth, false);
            }
        }
    }

    /// `ssh -o ProxyCommand=CMD` runs CMD here; `ssh HOST CMD` runs CMD on the host,
    /// where no local root protects anything: what would be refused here is asked there.
    fn ssh(&mut self, rest: &[Arg], display: &str, st: &ShellState, depth: usize) {
        let with_value = [
            "-o", "-i", "-p", "-l", "-F", "-J", "-L", "-R", "-D", "-E", "-b", "-c", "-m", "-O",
            "-Q", "-S", "-W", "-w", "-B", "-e", "-I",
        ];
        let (p, used) = Parsed::until_operand(rest, &with_value);
        self.ssh_config_commands(&p.values(&["-o"]), display, st, depth);
        if p.operands.is_empty() || used >= rest.len() {
            return;
        }
        self.remotely(
            &rest[used..],
            true,
            display,
            st,
            depth,
            "on the remote host",
        );
    }

    /// ssh settings given with `-o` that are local shell commands (`ProxyCommand=CMD`,
    /// `LocalCommand=CMD`, `KnownHostsCommand=CMD`): the same for `ssh`, `scp` and `sftp`,
    /// which hand their `-o` to ssh.
    fn ssh_config_commands(&mut self, opts: &[Arg], display: &str, st: &ShellState, depth: usize) {
        for o in opts {
            let Some(t) = o.text() else { continue };
            let (key, value) = t
                .split_once(['=', ' '])
                .map_or((t, ""), |(k, v)| (k.trim(), v.trim()));
            if ["proxycommand", "localcommand", "knownhostscommand"]
                .contains(&key.to_ascii_lowercase().as_str())
            {
                self.code_words(&[Arg::literal(value)], display, st, depth, false);
            }
        }
    }

    /// `scp`/`sftp`: their `-o` settings reach ssh, and `-S PROGRAM` is the program they
    /// connect through.
    fn scp_commands(&mut self, rest: &[Arg], display: &str, st: &ShellState, depth: usize) {
        let p = Parsed::new(
            rest,
            &[
                "-o", "-i", "-P", "-l", "-F", "-J", "-S", "-c", "-D", "-X", "-b", "-B", "-R", "-s",
            ],
        );
        self.ssh_config_commands(&p.values(&["-o"]), display, st, depth);
        let programs = p.values(&["-S"]);
        if !programs.is_empty() {
            self.code_words(&programs, display, st, depth, false);
        }
    }

    /// Code that runs on another machine or in a container (`ssh HOST CMD`,
    /// `kubectl exec POD -- CMD`): analysed as if it ran here, and anything that would be
    /// refused becomes `remote.destructive` (ask): no local sandbox covers it.
    /// `docker run -v HOST:/src -w /src IMAGE CMD`: CMD runs outside any local jail but
    /// writes HOST, so it is judged as if it ran in HOST (the working directory mapped
    /// back), a refusal there being `remote.destructive`: `rm -f loopgate.toml` in a
    /// container given the repository is asked about, `cargo test` is not.
    fn container_command(
        &mut self,
        rest: &[Arg],
        mounts: &[(String, String)],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        let Some((p, image_on)) = container_run(rest) else {
            return;
        };
        let Some(workdir) = p
            .value("--workdir", Some("-w"))
            .and_then(|w| w.text().map(str::to_string))
        else {
            return;
        };
        let mapped = mounts.iter().find_map(|(host, target)| {
            let below = workdir.strip_prefix(target.trim_end_matches('/'))?;
            (below.is_empty() || below.starts_with('/'))
                .then(|| format!("{}{below}", host.trim_end_matches('/')))
        });
        let Some(dir) = mapped else { return };
        let mut here = st.clone();
        self.cd_to(&Arg::literal(&dir), &mut here);
        self.remotely(
            image_on,
            false,
            display,
            &here,
            depth,
            "in a container that writes the mounted host directory",
        );
    }

    /// `docker run --privileged` (or `--pid=host`, `--cap-add=SYS_ADMIN|ALL`): the
    /// container holds the host's devices, processes or administration, so `nsenter -t 1`
    /// and `mount /dev/sda1` inside it reach the host. Its command is judged as if it ran
    /// here, a refusal being `remote.destructive`.
    fn privileged_container(
        &mut self,
        p: &Parsed<'_>,
        rest: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        let host_pid = p
            .value("--pid", None)
            .is_some_and(|v| v.text() == Some("host"));
        let caps = p.values(&["--cap-add"]);
        let admin = caps.iter().any(|c| {
            c.text().is_some_and(|t| {
                let t = t.to_ascii_uppercase();
                matches!(t.trim_start_matches("CAP_"), "SYS_ADMIN" | "ALL")
            })
        });
        if !(p.has("--privileged", None) || host_pid || admin) {
            return;
        }
        let Some((_, image_on)) = container_run(rest) else {
            return;
        };
        self.remotely(
            image_on,
            false,
            display,
            st,
            depth,
            "in a privileged container, which reaches the host",
        );
    }

    pub(crate) fn remotely(
        &mut self,
        words: &[Arg],
        joined: bool,
        display: &str,
        st: &ShellState,
        depth: usize,
        where_: &str,
    ) {
        let before = self.findings_len();
        if joined {
            // `ssh` joins its words with spaces and hands them to the remote shell.
            self.code_words(words, display, st, depth, false);
        } else {
            let sub = Invocation::nested(words.to_vec(), display.to_string());
            let mut local = st.clone();
            self.invoke(&sub, 0, &mut local, depth);
        }
        let found = self.take_findings_from(before);
        if let Some(f) = found.first() {
            let what: Vec<String> = words
                .iter()
                .map(|w| match w.text() {
                    Some(t) if !joined && programs::looks_like_code(t) => shell_quote(t),
                    _ => w.show().to_string(),
                })
                .collect();
            self.add(Finding::ask(
                rule::REMOTE_DESTRUCTIVE,
                format!(
                    "`{display}` runs `{}` {where_}, which would be refused here ({}): remote data no local sandbox can bring back",
                    what.join(" "),
                    f.rule
                ),
                "run read-only commands remotely, and ask a human to make the change",
            ));
        }
    }

    /// `sqlite3 DB '.shell CMD'` (or `.system`, also on standard input) runs CMD; `.output
    /// FILE` and its kin write FILE.
    fn sqlite_shell(
        &mut self,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        for t in command_lines(rest, stdin) {
            let t = t.trim_start();
            let cmd = t
                .strip_prefix(".shell")
                .or_else(|| t.strip_prefix(".system"))
                .filter(|c| c.starts_with(char::is_whitespace));
            if let Some(cmd) = cmd {
                self.code_words(&[Arg::literal(cmd.trim())], display, st, depth, false);
            }
            // `.output FILE`, `.once FILE`, `.save FILE`, `.backup ?DB? FILE` write FILE.
            let mut words = t.split_whitespace();
            if let Some(".output" | ".once" | ".save" | ".backup") = words.next() {
                let operands: Vec<&str> = words.filter(|w| !w.starts_with('-')).collect();
                if let Some(file) = operands.last() {
                    let file = file.trim_matches(['\'', '"']);
                    if !file.starts_with('|') {
                        self.check_writes(&[Arg::literal(file)], Op::Write, display, st);
                    }
                }
            }
        }
    }

    /// The shell escapes of the SQL clients: psql's `\! CMD` and the mysql client's `\! CMD`
    /// and `system CMD` run CMD on this machine, in a `-c`/`-e` value or on standard input.
    fn sql_client_shell(
        &mut self,
        name: &str,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        for t in command_lines(rest, stdin) {
            let mut cmds: Vec<&str> = Vec::new();
            if let Some((_, cmd)) = t.split_once("\\!") {
                cmds.push(cmd);
            }
            if name != "psql" {
                cmds.extend(t.split(';').filter_map(|stmt| {
                    let stmt = stmt.trim_start();
                    stmt.get(..7)
                        .filter(|w| w.eq_ignore_ascii_case("system "))
                        .map(|_| &stmt[7..])
                }));
            }
            for cmd in cmds {
                self.code_words(&[Arg::literal(cmd.trim())], display, st, depth, false);
            }
        }
    }

    /// ed's commands on standard input: `!CMD`, and `r !CMD`, `w !CMD`, `e !CMD` (after
    /// any address) run CMD in a shell.
    fn ed_shell(&mut self, stdin: &Stdin, display: &str, st: &ShellState, depth: usize) {
        for line in command_lines(&[], stdin) {
            let after_address = line.trim_start_matches(|c: char| {
                c.is_ascii_digit() || c.is_whitespace() || ".,;$%+-'/".contains(c)
            });
            let after_verb = after_address
                .strip_prefix(['r', 'w', 'W', 'e', 'E'])
                .map_or(after_address, str::trim_start);
            if let Some(cmd) = after_verb.strip_prefix('!') {
                self.code_words(&[Arg::literal(cmd.trim())], display, st, depth, false);
            } else if after_address.starts_with(['w', 'W']) {
                // `w FILE`, `W FILE` and `wq FILE` write the buffer to FILE.
                let file = after_address[1..].trim_start_matches('q').trim();
                if !file.is_empty() && after_address[1..].starts_with([' ', 'q']) {
                    self.check_writes(&[Arg::literal(file)], Op::Write, display, st);
                }
            }
        }
    }

    /// less's `+CMD` runs CMD as if typed when the file opens; `+!CMD` is its shell escape.
    fn less_shell(&mut self, rest: &[Arg], display: &str, st: &ShellState, depth: usize) {
        for a in rest {
            let Some(t) = a.text() else { continue };
            let Some(cmd) = t.strip_prefix('+').map(|c| c.trim_start_matches('+')) else {
                continue;
            };
            if let Some(cmd) = cmd.strip_prefix('!') {
                self.code_words(&[Arg::literal(cmd.trim())], display, st, depth, false);
            }
        }
    }

    /// m4's `syscmd(CMD)` and `esyscmd(CMD)` run CMD, from text the string spells out:
    /// standard input or a `-D NAME=VALUE` definition (files it reads are like scripts).
    fn m4_shell(
        &mut self,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        let mut texts: Vec<&str> = rest.iter().filter_map(|a| a.text()).collect();
        if let Some(t) = &stdin.text {
            texts.push(t);
        }
        for t in texts {
            for (at, _) in t.match_indices("syscmd(") {
                let body = &t[at + "syscmd(".len()..];
                let mut level = 1usize;
                let end = body
                    .char_indices()
                    .find(|(_, c)| {
                        match c {
                            '(' => level += 1,
                            ')' => level -= 1,
                            _ => {}
                        }
                        level == 0
                    })
                    .map_or(body.len(), |(i, _)| i);
                let cmd = body[..end].trim_matches(['`', '\'', ' ']);
                self.code_words(&[Arg::literal(cmd)], display, st, depth, false);
            }
        }
    }

    /// A program loopgate does not know, handed something that reads as code through an
    /// option that usually takes code (`-c`, `-e`, `--eval`): ask, since nothing can vet it.
    fn unknown_code(&mut self, name: &str, rest: &[Arg], display: &str) {
        let mut i = 0;
        while i < rest.len() {
            let t = rest[i].text().unwrap_or("");
            i += 1;
            let (flag, value) = match t.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (t, rest.get(i).and_then(|a| a.text()).map(str::to_string)),
            };
            if !programs::CODE_SHAPED_OPTIONS.contains(&flag) {
                continue;
            }
            if value.as_deref().is_some_and(programs::looks_like_code)
                || rest.get(i).is_some_and(|a| a.value.is_none())
            {
                self.add(Finding::ask(
                    rule::INLINE,
                    format!("`{display}`: `{name}` is not a program loopgate knows, and `{flag}` hands it what reads as code"),
                    "run a script file inside the repository, or a program whose options can be vetted",
                ));
                return;
            }
        }
    }

    fn is_downloaded(&self, path: &str, st: &ShellState) -> bool {
        st.cwd
            .resolve(path, self.ctx.home.as_deref())
            .is_some_and(|ps| ps.iter().any(|p| st.downloaded.contains(p)))
    }

    pub(crate) fn cd_to(&mut self, dir: &Arg, st: &mut ShellState) {
        self.cd(std::slice::from_ref(dir), st);
    }

    fn cd(&mut self, rest: &[Arg], st: &mut ShellState) {
        let p = Parsed::new(rest, &[]);
        let home = if st.home_changed {
            None
        } else {
            self.ctx.home.clone()
        };
        let dir = match p.operands.first() {
            None => home.map(|h| h.display().to_string()),
            Some(a) if a.is("-") => None,
            Some(a) if a.pattern.is_some() => None,
            // With a reassigned CDPATH, `cd name` may go to any directory of that path;
            // only absolute names and those whose first part is `.` or `..` skip it
            // (`.ssh` does not).
            Some(a)
                if st.cdpath_changed
                    && a.text().is_some_and(|t| {
                        let first = t.split('/').next().unwrap_or("");
                        !t.starts_with(['/', '~']) && first != "." && first != ".."
                    }) =>
            {
                None
            }
            Some(a) => a.value.clone(),
        };
        st.cwd = match dir.and_then(|d| st.cwd.resolve(&d, self.ctx.home.as_deref())) {
            Some(dirs) if dirs.len() == 1 => Cwd::known(dirs[0].clone()),
            Some(dirs) => Cwd(Some(dirs)),
            None => Cwd::unknown(),
        };
    }

    fn env(&mut self, inv: &Invocation, start: usize, st: &mut ShellState, depth: usize) -> bool {
        let args = &inv.argv[start.min(inv.argv.len())..];
        let mut i = 0;
        let mut local = st.clone();
        while i < args.len() {
            let Some(whole) = args[i].text() else { break };
            // A cluster of flags before an option that takes a value (`-vS STRING`,
            // `-iC DIR`): read as that option, as env's getopt does.
            let unclustered;
            let t = match whole.strip_prefix('-').filter(|b| !b.starts_with('-')) {
                Some(body) if body.len() > 1 => {
                    let flags = body
                        .chars()
                        .take_while(|c| matches!(c, 'i' | '0' | 'v'))
                        .count();
                    if flags > 0 && flags < body.len() {
                        unclustered = format!("-{}", &body[flags..]);
                        unclustered.as_str()
                    } else {
                        whole
                    }
                }
                _ => whole,
            };
            if t == "-C" || t == "--chdir" {
                self.cd(&args[i + 1..(i + 2).min(args.len())], &mut local);
                i += 2;
            } else if let Some(dir) = t
                .strip_prefix("--chdir=")
                .or_else(|| t.strip_prefix("-C").filter(|d| !d.is_empty()))
            {
                self.cd(&[Arg::literal(dir)], &mut local);
                i += 1;
            } else if t == "-S"
                || t == "--split-string"
                || t.starts_with("--split-string=")
                || (t.starts_with("-S") && t.len() > 2)
            {
                // `env -S "cmd args"` splits one string into a command line.
                let mut words: Vec<Arg> = Vec::new();
                if let Some(s) = t
                    .strip_prefix("--split-string=")
                    .or_else(|| t.strip_prefix("-S").filter(|s| !s.is_empty()))
                {
                    words.push(Arg::literal(s));
                    i += 1;
                } else if let Some(a) = args.get(i + 1) {
                    words.push(a.clone());
                    i += 2;
                }
                // The words after the string stay one argument each (`env -S bash -c 'rm
                // -rf ~'`): quoted again before the line is parsed as shell.
                words.extend(args[i.min(args.len())..].iter().map(|a| match a.text() {
                    Some(t) => Arg::literal(&shell_quote(t)),
                    None => a.clone(),
                }));
                self.code_words(&words, &inv.display, &local, depth, false);
                return false;
            } else if t == "-u" || t == "--unset" {
                i += 2;
            } else if t == "--"
                || (t.starts_with('-') && t.len() > 1)
                || (t.contains('=') && !t.starts_with('='))
            {
                i += 1;
            } else {
                break;
            }
        }
        let program = args.get(i).and_then(|a| a.text()).map(programs::normalise);
        for a in &args[..i.min(args.len())] {
            if let Some((name, value)) = a.text().and_then(|t| t.split_once('=')) {
                self.hook_skip_variable(name, Some(value), program.as_deref(), &inv.display);
                self.env_assignment(name, Some(value), &inv.display, &local, depth);
            }
        }
        let downloads = self.invoke(inv, start + i, &mut local, depth);
        st.downloaded = local.downloaded;
        st.links = local.links;
        downloads
    }

    fn xargs(&mut self, inv: &Invocation, start: usize, st: &mut ShellState, depth: usize) -> bool {
        let args = &inv.argv[start.min(inv.argv.len())..];
        // The options that take a value come from the one program table.
        let with_value = crate::programs::lookup("xargs")
            .map(|(program, _)| program.values)
            .unwrap_or(&[]);
        let Some(i) = wrapped(args, with_value, 0) else {
            return false;
        };
        let opts = Parsed::new(&args[..i], with_value);
        let replace = opts
            .value("--replace", Some("-I"))
            .and_then(|a| a.value)
            .or_else(|| {
                opts.opts
                    .iter()
                    .any(|(o, _)| o.starts_with("-i"))
                    .then(|| "{}".to_string())
            });
        let mut argv: Vec<Arg> = args[i..].to_vec();
        if let Some(text) = inv.stdin.text.as_deref().filter(|_| !inv.stdin.remote) {
            // The input is spelled out (`echo --hard | xargs git reset`, `<<< ~`): the
            // command runs with exactly those words (or lines, for `-I`).
            let mut out = false;
            match &replace {
                Some(r) => {
                    for line in text.lines().filter(|l| !l.trim().is_empty()) {
                        let argv: Vec<Arg> = argv
                            .iter()
                            .map(|a| match a.text() {
                                Some(v) if v.contains(r.as_str()) => {
                                    Arg::literal(&v.replace(r.as_str(), line.trim()))
                                }
                                _ => a.clone(),
                            })
                            .collect();
                        let sub = Invocation::nested(argv, inv.display.clone());
                        out |= self.invoke(&sub, 0, st, depth);
                    }
                }
                None => {
                    // `-0` and `-d C` split on that character; otherwise on blanks.
                    let delimiter = if opts.has("--null", Some('0')) {
                        Some('\0')
                    } else {
                        opts.value("--delimiter", Some("-d"))
                            .and_then(|d| d.value)
                            .and_then(|d| d.chars().next())
                    };
                    match delimiter {
                        Some(d) => argv.extend(
                            text.split(d)
                                .filter(|w| !w.is_empty() && *w != "\n")
                                .map(|w| Arg::literal(w.trim_end_matches('\n'))),
                        ),
                        None => argv.extend(text.split_whitespace().map(Arg::literal)),
                    }
                    let sub = Invocation::nested(argv, inv.display.clone());
                    out = self.invoke(&sub, 0, st, depth);
                }
            }
            return out;
        }
        if !inv.stdin.found.is_empty() && !inv.stdin.remote {
            // `find ARGS | xargs CMD` runs CMD on what the find selects, as `find ARGS
            // -exec CMD {} +` does, and is judged that way (the selection rules of
            // `find -exec` apply: a gate file below the root is reached by any test but a
            // name that cannot match it).
            let mut words = vec![Arg::literal("find")];
            words.extend(
                inv.stdin
                    .found
                    .iter()
                    .filter(|a| !matches!(a.text(), Some("-print" | "-print0")))
                    .cloned(),
            );
            words.push(Arg::literal("-exec"));
            match &replace {
                Some(r) => {
                    words.extend(argv.iter().map(|a| match a.text() {
                        Some(v) if v.contains(r.as_str()) => {
                            Arg::literal(&v.replace(r.as_str(), "{}"))
                        }
                        _ => a.clone(),
                    }));
                    words.push(Arg::literal(";"));
                }
                None => {
                    words.extend(argv.iter().cloned());
                    words.push(Arg::literal("{}"));
                    words.push(Arg::literal("+"));
                }
            }
            let sub = Invocation::nested(words, inv.display.clone());
            return self.invoke(&sub, 0, st, depth);
        }
        if let Some(r) = replace {
            for a in argv.iter_mut().skip(1) {
                if a.value.as_deref().is_some_and(|v| v.contains(&r)) {
                    a.value = None;
                    a.dynamic = Some(format!("{} (from xargs input)", a.raw));
                }
            }
        }
        let sub = Invocation {
            argv,
            stdin: Stdin::none(),
            xargs: true,
            display: inv.display.clone(),
        };
        self.invoke(&sub, 0, st, depth)
    }

    /// Words that a shell will join and run as code (`eval`, `watch`, `env -S`).
    pub(crate) fn code_words(
        &mut self,
        words: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
        stdin_remote: bool,
    ) {
        if words.iter().any(|w| w.remote) {
            self.deny_remote(display, "runs downloaded content as shell code");
            return;
        }
        if let Some(w) = words.iter().find(|w| w.value.is_none()) {
            self.dynamic_code(display, w.dynamic.as_deref().unwrap_or(&w.raw));
            return;
        }
        let code: Vec<&str> = words.iter().filter_map(|w| w.text()).collect();
        let mut sub = st.clone();
        self.script(&code.join(" "), &mut sub, depth + 1, stdin_remote);
    }

    /// [`Self::code_words`] for `eval`: the string runs in this very shell, so a `cd` or an
    /// assignment inside it holds for the commands after it (`eval 'cd ~'; rm -rf .ssh`).
    fn code_here(&mut self, words: &[Arg], display: &str, st: &mut ShellState, depth: usize) {
        if words.iter().any(|w| w.remote || w.value.is_none()) {
            self.code_words(words, display, st, depth, false);
            return;
        }
        let code: Vec<&str> = words.iter().filter_map(|w| w.text()).collect();
        self.script(&code.join(" "), st, depth + 1, false);
    }

    /// A script file a shell or interpreter runs (or `source` reads).
    pub(crate) fn script_file(
        &mut self,
        lang: Option<(&str, Lang)>,
        script: &Arg,
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        if script.remote {
            self.deny_remote(display, "runs a script read straight from the network");
            return;
        }
        let Some(path) = script.text() else {
            // `bash <(...)`, `source "$X"`: the code is whatever the shell finds then.
            self.dynamic_code(display, script.dynamic.as_deref().unwrap_or(&script.raw));
            return;
        };
        if path.contains("://") {
            self.deny_remote(display, &format!("runs `{path}` from the network"));
        } else if reads_stdin(path) {
            self.stdin_code(lang, stdin, display, st, depth);
        } else if self.is_downloaded(path, st) {
            self.deny_remote(
                display,
                &format!("runs `{}`, downloaded by this same command", script.show()),
            );
        } else {
            self.written_script(lang, path, display, st, depth);
        }
    }

    /// Code read from standard input: by a shell (`lang` `None`) or an interpreter.
    pub(crate) fn stdin_code(
        &mut self,
        lang: Option<(&str, Lang)>,
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        let who = lang.map_or("a shell", |(n, _)| n);
        if stdin.remote {
            self.deny_remote(display, &format!("pipes downloaded content into {who}"));
            return;
        }
        match (&stdin.text, lang) {
            (Some(text), None) => {
                let mut sub = st.clone();
                self.script(text, &mut sub, depth + 1, false);
            }
            (Some(text), Some((name, lang))) => {
                self.screened_code((name, lang), text, display, st, depth, false)
            }
            (None, _) if stdin.piped => self.add(Finding::ask(
                rule::DYNAMIC,
                format!("`{display}` runs code {who} reads from a pipe, which is only known when it runs"),
                "write the code to a file inside the repository, read it, then run the file",
            )),
            (None, _) => {}
        }
    }

    fn shell(&mut self, rest: &[Arg], stdin: &Stdin, display: &str, st: &ShellState, depth: usize) {
        // Find `-c` (alone or in a cluster such as `-lc`); the next operand is the code.
        let mut code_flag = false;
        let mut operands: Vec<&Arg> = Vec::new();
        let mut i = 0;
        let mut reads_stdin_flag = false;
        while i < rest.len() {
            let a = &rest[i];
            i += 1;
            match a.text() {
                Some("--") => {
                    operands.extend(rest[i..].iter());
                    break;
                }
                Some(t)
                    if (t.starts_with('-') || t.starts_with('+'))
                        && t.len() > 1
                        && operands.is_empty() =>
                {
                    if matches!(t, "--rcfile" | "--init-file") {
                        // The file an interactive shell runs first: a script as much as an
                        // operand is (`bash --rcfile <(echo CODE) -i`).
                        if let Some(file) = rest.get(i) {
                            self.script_file(None, file, &Stdin::none(), display, st, depth);
                        }
                        i += 1;
                    } else if matches!(t, "--command" | "--commands") {
                        // nushell's and fish's long spelling of `-c`.
                        code_flag = true;
                    } else if !t.starts_with("--") {
                        // Each `o`/`O` of a cluster takes the next word as its option name
                        // (`-euo pipefail -c CODE`), as bash reads it.
                        let letters = &t[1..];
                        i += letters.chars().filter(|c| matches!(c, 'o' | 'O')).count();
                        code_flag |= letters.contains('c');
                        reads_stdin_flag |= letters.contains('s');
                    }
                }
                _ => operands.push(a),
            }
        }
        if code_flag {
            match operands.first() {
                Some(code) if code.remote => {
                    self.deny_remote(display, "runs downloaded content as shell code")
                }
                Some(code) => match code.text() {
                    Some(text) => {
                        let mut sub = st.clone();
                        self.script(text, &mut sub, depth + 1, stdin.remote);
                    }
                    None => {
                        self.dynamic_code(display, code.dynamic.as_deref().unwrap_or(&code.raw))
                    }
                },
                None => {}
            }
            return;
        }
        match operands.first() {
            Some(script) if !reads_stdin_flag => {
                self.script_file(None, script, stdin, display, st, depth)
            }
            _ => self.stdin_code(None, stdin, display, st, depth),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn interpreter(
        &mut self,
        name: &str,
        values: &[&str],
        lang: Lang,
        code_flags: &[&str],
        code_operand: bool,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        // gdb takes its long options with one dash as well (`-eval-command=CODE`).
        let doubled: Vec<Arg>;
        let rest = if lang == Lang::Gdb {
            // The words after `--args` are the debuggee's own and stay as written.
            let own = rest
                .iter()
                .position(|a| matches!(a.text(), Some("--args" | "-args")))
                .map_or(rest.len(), |i| i + 1);
            doubled = rest
                .iter()
                .enumerate()
                .map(|(i, a)| match a.text().filter(|_| i < own) {
                    // gdb splits no clusters: `-nx`, `-nh`, `-tui` are long options
                    // (read as `-n -x VALUE` they swallowed the next `-ex`).
                    Some(t)
                        if t.starts_with('-')
                            && !t.starts_with("--")
                            && t.split('=')
                                .next()
                                .is_some_and(|o| o.len() > 2 && !values.contains(&o)) =>
                    {
                        Arg::literal(&format!("-{t}"))
                    }
                    _ => a.clone(),
                })
                .collect();
            &doubled[..]
        } else {
            rest
        };
        let (p, used) = Parsed::until_operand(rest, values);
        let mut codes = p.values(code_flags);
        if lang == Lang::Vim {
            codes.extend(
                rest.iter()
                    .filter(|a| a.text().is_some_and(|t| t.starts_with('+') && t.len() > 1))
                    .map(|a| Arg::literal(&a.show()[1..])),
            );
        }
        if lang == Lang::Make {
            self.make(&p, rest, stdin, display, st, depth);
        }
        if !codes.is_empty() {
            for code in &codes {
                self.code_arg(name, lang, code, rest, display, st, depth);
            }
            return;
        }
        if lang == Lang::Vim && vim_ex_mode(name, rest) {
            // In Ex mode (`ex`, `vim -e`, `-es`) standard input is read as commands.
            match &stdin.text {
                Some(text) if !stdin.remote => {
                    for line in text.lines() {
                        self.code_arg(name, lang, &Arg::literal(line), rest, display, st, depth);
                    }
                }
                _ => self.stdin_code(Some((name, lang)), stdin, display, st, depth),
            }
            return;
        }
        if let Some(module) = p.value("-m", Some("-m")) {
            if module.is("timeit") {
                // `python -m timeit [-s SETUP] STMT...`: setup and statements are code.
                let after = rest
                    .iter()
                    .position(|a| {
                        a.text().is_some_and(|t| {
                            t.starts_with('-') && !t.starts_with("--") && t.ends_with('m')
                        })
                    })
                    .map_or(used, |i| i + 2);
                let q = Parsed::new(
                    &rest[after.min(rest.len())..],
                    &[
                        "-s", "--setup", "-n", "--number", "-r", "--repeat", "-u", "--unit",
                    ],
                );
                let mut code: Vec<Arg> = q.values(&["-s", "--setup"]);
                code.extend(q.operands.iter().map(|a| (*a).clone()));
                for c in &code {
                    self.code_arg(name, lang, c, rest, display, st, depth);
                }
            }
            return;
        }
        if code_operand {
            let files = p.values(&["-f", "--file"]);
            if files.is_empty() {
                if let Some(code) = p.operands.first() {
                    self.code_arg(name, lang, code, rest, display, st, depth);
                }
            }
            return;
        }
        if name == "deno" {
            let ops: Vec<&Arg> = p
                .operands
                .iter()
                .copied()
                .chain(rest[used.min(rest.len())..].iter())
                .collect();
            if ops.first().is_some_and(|a| a.is("eval")) {
                if let Some(code) = ops.get(1) {
                    self.code_arg(name, lang, code, rest, display, st, depth);
                }
            } else if let Some(script) = ops
                .iter()
                .skip(1)
                .find(|a| a.text().is_none_or(|t| !t.starts_with('-')))
            {
                self.script_file(Some((name, lang)), script, stdin, display, st, depth);
            }
            return;
        }
        if !(lang.takes_script_file() || lang == Lang::AppleScript) {
            return;
        }
        match p.operands.first() {
            Some(script) => self.script_file(Some((name, lang)), script, stdin, display, st, depth),
            None => self.stdin_code(Some((name, lang)), stdin, display, st, depth),
        }
    }

    /// `make --eval`, `make SHELL=...`, a makefile read from standard input.
    fn make(
        &mut self,
        p: &Parsed<'_>,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        let files = p.values(&["-f", "--file", "--makefile"]);
        let from_stdin = files.iter().any(|f| f.text().is_some_and(reads_stdin));
        if !from_stdin {
            self.written_makefile(&files, display, st, depth);
        }
        // The parser splits `--file=<(...)` into `--file=` and the substitution.
        let glued = rest
            .windows(2)
            .find(|w| {
                matches!(w[0].text(), Some("--file=" | "--makefile=")) && w[1].text().is_none()
            })
            .map(|w| &w[1]);
        if let Some(f) = files.iter().find(|f| f.text().is_none()).or(glued) {
            // `make -f <(printf ...)`, `make -f "$MK"`: the recipes are only known then.
            self.add(Finding::ask(
                rule::DYNAMIC,
                format!(
                    "`{display}` reads a makefile only the shell knows (`{}`); its recipes run any command",
                    f.raw
                ),
                "commit the makefile to the repository and run it from there",
            ));
        }
        let shell_override = rest.iter().filter_map(|a| a.text()).find(|t| {
            let name = t.split(['=', ':', '+', '?']).next().unwrap_or("");
            t.contains('=') && matches!(name, "SHELL" | ".SHELLFLAGS" | "MAKESHELL" | "MAKEFLAGS")
        });
        if let Some(t) = shell_override {
            self.add(Finding::ask(
                rule::INLINE,
                format!("`{display}`: `{t}` changes the program make runs every recipe with"),
                "run make with the repository's own Makefile settings",
            ));
        }
        let spelled = stdin
            .text
            .as_deref()
            .filter(|_| !stdin.remote)
            .and_then(super::makefile::plain_recipes);
        if let (true, Some(recipes)) = (from_stdin, spelled) {
            self.recipes(&recipes, display, st, depth);
        } else if from_stdin && (stdin.text.is_some() || stdin.piped || stdin.remote) {
            self.add(Finding::ask(
                rule::INLINE,
                format!(
                    "`{display}` reads a makefile from standard input; its recipes run any command"
                ),
                "commit the makefile to the repository and run it from there",
            ));
        }
    }

    /// gdb's `run` starts the program of `--args PROG ARGS...` with those arguments, as if
    /// run bare; without `--args` the program runs with none, which is no more than
    /// running it.
    fn debuggee(&mut self, rest: &[Arg], display: &str, st: &ShellState, depth: usize) {
        let Some(at) = rest
            .iter()
            .position(|a| matches!(a.text(), Some("--args" | "-args")))
        else {
            return;
        };
        let argv = rest[at + 1..].to_vec();
        if argv.is_empty() {
            return;
        }
        let sub = Invocation::nested(argv, display.to_string());
        let mut local = st.clone();
        self.invoke(&sub, 0, &mut local, depth + 1);
    }

    /// The recipes of a makefile the string spells, each judged as the shell command it is.
    fn recipes(&mut self, recipes: &[String], display: &str, st: &ShellState, depth: usize) {
        for recipe in recipes {
            let before = self.findings_len();
            let mut sub = st.clone();
            self.script(recipe, &mut sub, depth + 1, false);
            for mut f in self.take_findings_from(before) {
                f.reason = format!("{} (a recipe of the makefile `{display}` reads)", f.reason);
                self.add(f);
            }
        }
    }

    /// One piece of inline code of language `lang`, handed over as `code`.
    #[allow(clippy::too_many_arguments)]
    fn code_arg(
        &mut self,
        name: &str,
        lang: Lang,
        code: &Arg,
        rest: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        if code.remote {
            self.deny_remote(display, "runs downloaded content as inline code");
            return;
        }
        let Some(text) = code.text() else {
            self.dynamic_code(display, code.dynamic.as_deref().unwrap_or(&code.raw));
            return;
        };
        let marker: Option<String> = match lang {
            Lang::Awk => {
                let effects = inline::awk_effects(text);
                let files: Vec<Arg> = effects.writes.iter().map(|w| Arg::literal(w)).collect();
                self.check_writes(&files, Op::Write, display, st);
                // `system("git log")`: awk runs the literal through `sh -c`.
                for command in &effects.commands {
                    let before = self.findings_len();
                    let mut sub = st.clone();
                    self.script(command, &mut sub, depth + 1, false);
                    for mut f in self.take_findings_from(before) {
                        f.reason =
                            format!("{} (a command the awk program `{display}` runs)", f.reason);
                        self.add(f);
                    }
                }
                effects.runs.map(str::to_string)
            }
            Lang::Sed => {
                let effects = inline::sed_effects(text);
                let files: Vec<Arg> = effects.writes.iter().map(|w| Arg::literal(w)).collect();
                self.check_writes(&files, Op::Write, display, st);
                effects.executes.then(|| "the `e` command".to_string())
            }
            Lang::Vim => {
                let (exec, writes) = inline::vim_effects(text);
                if writes {
                    let files: Vec<Arg> = rest
                        .iter()
                        .filter(|a| a.text().is_none_or(|t| !t.starts_with(['-', '+'])))
                        .filter(|a| !a.is(text))
                        .cloned()
                        .collect();
                    self.check_writes(&files, Op::Write, display, st);
                }
                exec.map(str::to_string)
            }
            Lang::Elisp => inline::elisp_mutating(text).map(str::to_string),
            Lang::Gdb => {
                if inline::gdb_runs_debuggee(text) {
                    self.debuggee(rest, display, st, depth);
                }
                // `shell CMD` and `!CMD` hand CMD to a shell as written: judged as CMD.
                let t = text.trim_start();
                let shell = t
                    .strip_prefix('!')
                    .or_else(|| t.strip_prefix("shell ").filter(|_| name == "gdb"));
                if let Some(command) = shell {
                    let before = self.findings_len();
                    let mut sub = st.clone();
                    self.script(command, &mut sub, depth + 1, false);
                    for mut f in self.take_findings_from(before) {
                        f.reason = format!("{} (a shell command of `{display}`)", f.reason);
                        self.add(f);
                    }
                }
                // Judged as the command it is, and a shell escape is asked about still,
                // as awk's `system()` is.
                if shell.is_some() {
                    Some(format!("`{text}`"))
                } else {
                    inline::gdb_mutating(text).then(|| format!("`{text}`"))
                }
            }
            Lang::Make => match super::makefile::plain_recipes(text) {
                Some(recipes) => {
                    self.recipes(&recipes, display, st, depth);
                    None
                }
                None => Some("make code (rules run any command)".to_string()),
            },
            _ => {
                self.screened_code((name, lang), text, display, st, depth, false);
                return;
            }
        };
        if let Some(marker) = marker {
            self.add(Finding::ask(
                rule::INLINE,
                format!("`{display}`: {name} code runs {marker}, whose effects cannot be checked statically"),
                "put the code in a script file inside the repository, or use plain shell commands whose paths can be vetted",
            ));
        } else if self.ctx.profile == Profile::Strict {
            self.add(Finding::ask(
                rule::INLINE,
                format!("`{display}`: {name} inline code cannot be vetted"),
                "put the code in a script file inside the repository",
            ));
        }
    }

    /// Inline code: the programs it starts with literal words judged as those commands
    /// (`spawn_literals.rs`), the rest screened for mutating calls.
    pub(crate) fn screened_code(
        &mut self,
        (name, lang): (&str, Lang),
        code: &str,
        display: &str,
        st: &ShellState,
        depth: usize,
        script_file: bool,
    ) {
        let (spawns, rest) = super::spawn_literals::literal_spawns(lang, code);
        for spawn in &spawns {
            let before = self.findings_len();
            let mut sub = st.clone();
            match spawn {
                super::spawn_literals::Spawn::Shell(text) => {
                    self.script(text, &mut sub, depth + 1, false);
                }
                super::spawn_literals::Spawn::Argv(words) => {
                    let argv: Vec<Arg> = words.iter().map(|w| Arg::literal(w)).collect();
                    let inv = Invocation::nested(argv, display.to_string());
                    self.invoke(&inv, 0, &mut sub, depth + 1);
                }
            }
            for mut f in self.take_findings_from(before) {
                f.reason = format!("{} (a command {name} inline code starts)", f.reason);
                self.add(f);
            }
        }
        let marker = if script_file {
            inline::mutating_call_beyond_writes(lang, &rest)
        } else {
            inline::mutating_call(lang, &rest)
        };
        self.inline_marked(name, marker, display);
    }

    pub(crate) fn inline_code(&mut self, name: &str, lang: Lang, code: &str, display: &str) {
        self.inline_marked(name, inline::mutating_call(lang, code), display);
    }

    fn inline_marked(&mut self, name: &str, marker: Option<&str>, display: &str) {
        if let Some(marker) = marker {
            self.add(Finding::ask(
                rule::INLINE,
                format!("`{display}`: {name} inline code calls `{marker}`, whose targets cannot be checked statically"),
                "put the code in a script file inside the repository, or use plain shell commands whose paths can be vetted",
            ));
        } else if self.ctx.profile == Profile::Strict {
            self.add(Finding::ask(
                rule::INLINE,
                format!("`{display}`: {name} inline code cannot be vetted"),
                "put the code in a script file inside the repository",
            ));
        }
    }

    /// loopgate's own subcommands: `exec` and `run` are judged by the command they run,
    /// `jail-shell` by its string, the ones that change the gate's state are a human's
    /// (`crate::own_cli`). True when what runs prints downloaded content.
    fn loopgate(
        &mut self,
        inv: &Invocation,
        start: usize,
        st: &mut ShellState,
        depth: usize,
    ) -> bool {
        use crate::own_cli::{classify, Dir, OwnUse};
        let display = inv.display.as_str();
        let args = &inv.argv[start.min(inv.argv.len())..];
        let words: Vec<Option<&str>> = args.iter().map(Arg::text).collect();
        let use_ = classify(&words);
        let mut local = st.clone();
        match &use_ {
            OwnUse::Runs { dir, .. } | OwnUse::RunsCode { dir, .. } => match dir {
                Dir::Same => {}
                Dir::Moved(d) => self.cd_to(&Arg::literal(d), &mut local),
                Dir::Unknown => local.cwd = Cwd::unknown(),
            },
            _ => {}
        }
        match use_ {
            OwnUse::ReadOnly => false,
            OwnUse::Runs { at, .. } => {
                let downloads = self.invoke(inv, start + at, &mut local, depth);
                st.downloaded = local.downloaded;
                downloads
            }
            OwnUse::RunsCode { code, .. } => {
                match code {
                    Some(code) => {
                        self.code_words(&[Arg::literal(&code)], display, &local, depth, false)
                    }
                    None => self.dynamic_code(display, "the string `loopgate jail-shell -c` runs"),
                }
                false
            }
            OwnUse::Dynamic { at } => {
                let part = args.get(at).map_or("", |a| a.show()).to_string();
                self.dynamic_code(
                    display,
                    &format!("{part} (a word of the loopgate command line)"),
                );
                false
            }
            OwnUse::HumanOnly { what, why } => {
                self.add(Finding::deny(
                    rule::TAMPER,
                    format!("`{display}` runs `loopgate {what}`, which {why}; only a human may run it"),
                    "ask a human to run it; the agent's work is judged against the existing baseline and config",
                ));
                false
            }
        }
    }

    fn find(&mut self, inv: &Invocation, rest: &[Arg], st: &mut ShellState, depth: usize) {
        let display = inv.display.as_str();
        let first_expr = rest
            .iter()
            .position(|a| {
                a.text()
                    .is_none_or(|t| t.starts_with('-') || t == "(" || t == "!")
            })
            .unwrap_or(rest.len());
        let mut roots: Vec<Arg> = rest[..first_expr]
            .iter()
            .filter(|a| !matches!(a.text(), Some("-H" | "-L" | "-P")))
            .cloned()
            .collect();
        if roots.is_empty() {
            roots.push(Arg::literal("."));
        }
        let expr = &rest[first_expr..];
        let filtered = expr.iter().any(|a| {
            matches!(
                a.text(),
                Some(
                    "-name"
                        | "-iname"
                        | "-path"
                        | "-ipath"
                        | "-wholename"
                        | "-regex"
                        | "-iregex"
                        | "-type"
                        | "-newer"
                        | "-mtime"
                        | "-mmin"
                        | "-size"
                        | "-empty"
                        | "-user"
                        | "-perm"
                        | "-links"
                        | "-inum"
                )
            )
        });
        // `-name .git`: every path the action gets is named that (a literal name only).
        let literal_name = expr.windows(2).find_map(|w| {
            let name = w[1].text()?;
            (matches!(w[0].text(), Some("-name" | "-iname"))
                && !name.contains(['*', '?', '[', '\\']))
            .then(|| name.to_string())
        });
        // The gate files below a root (and the directories holding them) that the
        // expression's tests cannot rule out are among the paths the action gets, at any
        // depth: `-name 'loopgate.*'`, `-type f`, `! -name src` (see `find_select`).
        let selection = super::find_select::Selection::of(expr);
        let mut gate_named: Vec<(String, Vec<Arg>)> = Vec::new();
        for root in &roots {
            let Some(r) = root.text() else { continue };
            let dirs = st
                .cwd
                .resolve(r, self.ctx.home.as_deref())
                .unwrap_or_default();
            let mut hits: Vec<Arg> = Vec::new();
            for d in dirs {
                for p in self.protected().all_below(&d) {
                    let rel = p.strip_prefix(&d).unwrap_or(&p).display().to_string();
                    let printed = format!("{}/{rel}", r.trim_end_matches('/'));
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    if selection.selects(&printed, &name) {
                        hits.push(Arg::literal(&p.display().to_string()));
                    }
                }
            }
            gate_named.push((r.to_string(), hits));
        }
        let named = |this: &Self, root: &Arg| -> Vec<Arg> {
            let mut out = match (&literal_name, root.text()) {
                (Some(name), Some(r)) => match st.cwd.resolve(r, this.ctx.home.as_deref()) {
                    Some(dirs) => dirs
                        .into_iter()
                        .map(|d| Arg::literal(&format!("{}/{name}", d.display())))
                        .collect(),
                    None => this.below_roots(root, st),
                },
                _ => this.below_roots(root, st),
            };
            if let Some((_, hits)) = gate_named.iter().find(|(r, _)| root.is(r)) {
                for h in hits {
                    if !out.iter().any(|o| o.text() == h.text()) {
                        out.push(h.clone());
                    }
                }
            }
            out
        };
        let mut i = 0;
        while i < expr.len() {
            let t = expr[i].text().unwrap_or("");
            i += 1;
            match t {
                "-delete" => {
                    for root in &roots {
                        let targets = named(self, root);
                        let op = Op::Delete { recursive: true };
                        if filtered {
                            self.check_writes(&targets, op, display, st);
                        } else {
                            // An unfiltered -delete empties the whole tree.
                            let mut all = root.clone();
                            if let Some(v) = all.value.as_mut() {
                                v.push_str("/*");
                                all.pattern = Some("*".into());
                            }
                            self.check_writes(&[all], op, display, st);
                        }
                    }
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    let end = expr[i..]
                        .iter()
                        .position(|a| matches!(a.text(), Some(";" | "+")))
                        .map(|e| i + e)
                        .unwrap_or(expr.len());
                    for root in &roots {
                        // The action is judged once per kind of path it may get: some path
                        // below the root, and each gate file the name selects.
                        let mut paths: Vec<Option<Arg>> =
                            named(self, root).into_iter().map(Some).collect();
                        if paths.is_empty() {
                            paths.push(None);
                        }
                        for below in paths {
                            if self.exhausted() {
                                // Each path would rebuild the whole nested command again.
                                return;
                            }
                            let argv: Vec<Arg> = expr[i..end]
                                .iter()
                                .map(|a| match (&below, a.text()) {
                                    (Some(b), Some(t)) if t.contains("{}") => b.clone(),
                                    _ => a.clone(),
                                })
                                .collect();
                            let sub = Invocation::nested(argv, inv.display.clone());
                            let mut sub_state = st.clone();
                            self.invoke(&sub, 0, &mut sub_state, depth);
                        }
                    }
                    i = end + 1;
                }
                "-fprint" | "-fprint0" | "-fprintf" | "-fls" => {
                    if let Some(f) = expr.get(i) {
                        self.check_writes(std::slice::from_ref(f), Op::Write, display, st);
                    }
                }
                _ => {}
            }
        }
    }

    /// A stand-in argument for "some path below `root`" (the `{}` of `find`).
    fn below_roots(&self, root: &Arg, st: &ShellState) -> Vec<Arg> {
        let Some(t) = root.text() else {
            return vec![root.clone()];
        };
        match st.cwd.resolve(t, self.ctx.home.as_deref()) {
            Some(dirs) => dirs
                .into_iter()
                .map(|d| {
                    let mut a = Arg::literal(&format!("{}/{{}}", d.display()));
                    a.below = Some(d);
                    a
                })
                .collect(),
            None => vec![{
                let mut a = root.clone();
                a.value = None;
                a.dynamic = Some(format!("{t} (relative to an unknown directory)"));
                a
            }],
        }
    }
}

/// Paths through which a program reads its standard input as a file.
/// `v` as one shell word, for text that is joined and parsed again.
/// `ex`, or vim started in Ex mode (`-e`, `-E`, also in a cluster such as `-es`).
fn vim_ex_mode(name: &str, rest: &[Arg]) -> bool {
    name == "ex"
        || rest.iter().any(|a| {
            a.text().is_some_and(|t| {
                t.starts_with('-') && !t.starts_with("--") && t[1..].contains(['e', 'E'])
            })
        })
}

/// The lines a program reads its own commands from when the command string spells them
/// out: its arguments and each line of its standard input (sqlite3's dot commands, the SQL
/// clients' backslash commands, ed's commands).
fn command_lines<'x>(rest: &'x [Arg], stdin: &'x Stdin) -> Vec<&'x str> {
    let mut lines: Vec<&str> = rest.iter().filter_map(|a| a.text()).collect();
    if let Some(t) = &stdin.text {
        lines.extend(t.lines());
    }
    lines
}

pub(crate) fn shell_quote(v: &str) -> String {
    format!("'{}'", v.replace('\'', "'\\''"))
}

pub(crate) fn reads_stdin_path(path: &str) -> bool {
    reads_stdin(path)
}

fn reads_stdin(path: &str) -> bool {
    matches!(path, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// The options of `docker|podman run|create` and the words from the image on (the image
/// and the command it runs), when the command names an image.
fn container_run(rest: &[Arg]) -> Option<(Parsed<'_>, &[Arg])> {
    let run = rest.iter().position(|a| a.is("run") || a.is("create"))?;
    let opts = &rest[run + 1..];
    let (p, used) = Parsed::until_operand(opts, CONTAINER_RUN_VALUES);
    (!p.operands.is_empty() && used < opts.len()).then_some((p, &opts[used..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<Arg> {
        v.iter().map(|s| Arg::literal(s)).collect()
    }

    #[test]
    fn wrapped_finds_the_command() {
        assert_eq!(wrapped(&args(&["-n", "19", "rm"]), &["-n"], 0), Some(2));
        assert_eq!(
            wrapped(&args(&["-s", "KILL", "5", "rm"]), &["-s"], 1),
            Some(3)
        );
        assert_eq!(wrapped(&args(&["--", "rm"]), &[], 0), Some(1));
    }
}
