//! What each program does: wrappers it hides behind, files it writes, code it runs.

use super::args::{Arg, Cwd};
use super::checks::Op;
use super::walk::{Analyzer, Invocation, ShellState, Stdin};
use super::{inline, rule, Finding};
use crate::Profile;

/// Programs that fetch content from the network onto stdout or into files.
const DOWNLOADERS: [&str; 8] = [
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "http",
    "https",
    "xh",
    "lwp-request",
];

/// Shells: `-c STRING` and standard input are code.
const SHELLS: [&str; 10] = [
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh",
];

pub(crate) fn is_shell(name: &str) -> bool {
    SHELLS.contains(&name)
}

/// Interpreters and the flags that take inline code.
fn inline_flags(name: &str) -> Option<&'static [&'static str]> {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match base {
        "python" | "pypy" => &["-c"],
        "node" | "nodejs" | "bun" => &["-e", "--eval", "-p", "--print"],
        "deno" => &["eval"],
        "ruby" | "jruby" => &["-e"],
        "perl" => &["-e", "-E"],
        "php" => &["-r"],
        "lua" | "luajit" => &["-e"],
        "Rscript" => &["-e"],
        "osascript" => &["-e"],
        _ => return None,
    })
}

/// An argument list split GNU-style into options (with their values) and operands.
pub(crate) struct Parsed<'a> {
    pub opts: Vec<(&'a str, Option<&'a Arg>)>,
    pub operands: Vec<&'a Arg>,
}

impl<'a> Parsed<'a> {
    /// `with_value`: options that take the next argument (`-t`, `--target-directory`);
    /// `-tDIR` and `--target-directory=DIR` forms are understood too.
    pub fn new(args: &'a [Arg], with_value: &[&str]) -> Parsed<'a> {
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
                    continue;
                }
            };
            if text == "--" {
                ended = true;
                continue;
            }
            if with_value.contains(&text) {
                opts.push((text, args.get(i)));
                i += 1;
            } else {
                opts.push((text, None));
            }
        }
        Parsed { opts, operands }
    }

    /// A long option (`--name` or `--name=...`) or a short one alone or in a cluster.
    pub fn has(&self, long: &str, short: Option<char>) -> bool {
        self.opts.iter().any(|(o, _)| {
            *o == long
                || o.strip_prefix(long).is_some_and(|r| r.starts_with('='))
                || short.is_some_and(|c| !o.starts_with("--") && o[1..].contains(c))
        })
    }

    /// The value of an option given as `-x V`, `-xV`, `--name V` or `--name=V`.
    pub fn value(&self, long: &str, short: Option<&str>) -> Option<Arg> {
        for (o, v) in &self.opts {
            if *o == long || Some(*o) == short {
                if let Some(v) = v {
                    return Some((*v).clone());
                }
            }
            if let Some(rest) = o.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
                return Some(Arg::literal(rest));
            }
            if let Some(s) = short {
                if let Some(rest) = o
                    .strip_prefix(s)
                    .filter(|r| !r.is_empty() && !o.starts_with("--"))
                {
                    return Some(Arg::literal(rest));
                }
            }
        }
        None
    }
}

fn basename(prog: &str) -> &str {
    prog.rsplit('/').next().unwrap_or(prog)
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
            i += if with_value.contains(&t) { 2 } else { 1 };
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

impl Analyzer<'_> {
    fn deny_remote(&mut self, display: &str, how: &str) {
        self.add(Finding::deny(
            rule::REMOTE,
            format!("`{display}` {how}"),
            "download to a file inside the repository, read it, and run it only after a human reviewed it",
        ));
    }

    fn dynamic_code(&mut self, display: &str, part: &str) {
        self.add(Finding::ask(
            rule::DYNAMIC,
            format!("`{display}` runs code `{part}` that is only known when the shell runs"),
            "write the command out literally so it can be vetted",
        ));
    }

    /// Run the rules for `inv.argv[start..]`; true when its output is downloaded content.
    pub(crate) fn invoke(
        &mut self,
        inv: &Invocation,
        start: usize,
        st: &mut ShellState,
        depth: usize,
    ) -> bool {
        if !self.enter_wrapper() {
            return false;
        }
        let downloads = self.invoke_program(inv, start, st, depth);
        self.leave_wrapper();
        downloads
    }

    fn invoke_program(
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
        if prog.contains('/') && self.is_downloaded(prog, st) {
            self.deny_remote(
                display,
                &format!("runs `{prog}`, downloaded by this same command"),
            );
        }
        let name = basename(prog);
        let rest = &argv[1..];
        let next = start + 1;
        match name {
            "cd" | "pushd" => {
                self.cd(rest, st);
                false
            }
            "popd" => {
                st.cwd = Cwd::unknown();
                false
            }
            "env" => self.env(inv, next, st, depth),
            "sudo" | "doas" => wrapped(
                rest,
                &[
                    "-u", "-g", "-C", "-h", "-p", "-r", "-t", "-U", "-T", "-D", "--user",
                    "--group", "--chdir",
                ],
                0,
            )
            .is_some_and(|i| self.invoke(inv, next + i, st, depth)),
            "nice" => wrapped(rest, &["-n", "--adjustment"], 0)
                .is_some_and(|i| self.invoke(inv, next + i, st, depth)),
            "timeout" => wrapped(rest, &["-s", "-k", "--signal", "--kill-after"], 1)
                .is_some_and(|i| self.invoke(inv, next + i, st, depth)),
            "nohup" | "builtin" | "setsid" | "unbuffer" | "stdbuf" | "exec" | "time" => {
                let with_value: &[&str] = match name {
                    "exec" => &["-a"],
                    "time" => &["-o", "-f", "--output", "--format"],
                    "stdbuf" => &["-i", "-o", "-e"],
                    _ => &[],
                };
                if name == "time" {
                    let p = Parsed::new(rest, with_value);
                    if let Some(out) = p.value("--output", Some("-o")) {
                        self.check_writes(&[out], Op::Write, display, st);
                    }
                }
                wrapped(rest, with_value, 0).is_some_and(|i| self.invoke(inv, next + i, st, depth))
            }
            "ionice" => wrapped(
                rest,
                &["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"],
                0,
            )
            .is_some_and(|i| self.invoke(inv, next + i, st, depth)),
            "chrt" | "taskset" => {
                wrapped(rest, &[], 1).is_some_and(|i| self.invoke(inv, next + i, st, depth))
            }
            "command" => {
                let p = Parsed::new(rest, &[]);
                if p.has("-v", None) || p.has("-V", None) {
                    return false;
                }
                wrapped(rest, &[], 0).is_some_and(|i| self.invoke(inv, next + i, st, depth))
            }
            "busybox" => self.invoke(inv, next, st, depth),
            "xargs" => self.xargs(inv, next, st, depth),
            "watch" => {
                let i = wrapped(rest, &["-n", "-d", "--interval", "--differences"], 0);
                if let Some(i) = i {
                    self.code_words(&rest[i..], display, st, depth, false);
                }
                false
            }
            "eval" => {
                self.code_words(rest, display, st, depth, false);
                false
            }
            "source" | "." => {
                if let Some(script) = rest.first() {
                    self.script_file(script, display, st);
                }
                false
            }
            "loopgate" => {
                self.loopgate(rest, display);
                false
            }
            "git" => {
                self.git(rest, display, st);
                false
            }
            "find" => {
                self.find(inv, rest, st, depth);
                false
            }
            _ if is_shell(name) => {
                self.shell(rest, &inv.stdin, display, st, depth);
                false
            }
            _ if DOWNLOADERS.contains(&name) => {
                self.downloader(name, rest, display, st);
                true
            }
            _ => {
                if let Some(flags) = inline_flags(name) {
                    self.interpreter(name, flags, rest, &inv.stdin, display, st);
                }
                self.file_writes(name, rest, inv.xargs, display, st);
                false
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
        let dir = match p.operands.first() {
            None => self.ctx.home.clone().map(|h| h.display().to_string()),
            Some(a) if a.is("-") => None,
            Some(a) if a.pattern.is_some() => None,
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
            let Some(t) = args[i].text() else { break };
            if t == "-C" || t == "--chdir" {
                self.cd(&args[i + 1..(i + 2).min(args.len())], &mut local);
                i += 2;
            } else if let Some(dir) = t.strip_prefix("--chdir=") {
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
                words.extend(args[i.min(args.len())..].iter().cloned());
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
        let downloads = self.invoke(inv, start + i, &mut local, depth);
        st.downloaded = local.downloaded;
        downloads
    }

    fn xargs(&mut self, inv: &Invocation, start: usize, st: &mut ShellState, depth: usize) -> bool {
        let args = &inv.argv[start.min(inv.argv.len())..];
        let with_value = [
            "-I",
            "-n",
            "-P",
            "-d",
            "-L",
            "-l",
            "-s",
            "-a",
            "-E",
            "-e",
            "--max-args",
            "--max-procs",
            "--delimiter",
            "--arg-file",
            "--replace",
            "--max-lines",
            "--max-chars",
            "--eof",
        ];
        let Some(i) = wrapped(args, &with_value, 0) else {
            return false;
        };
        let opts = Parsed::new(&args[..i], &with_value);
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
            stdin: Stdin {
                text: None,
                remote: false,
            },
            xargs: true,
            display: inv.display.clone(),
        };
        self.invoke(&sub, 0, st, depth)
    }

    /// Words that a shell will join and run as code (`eval`, `watch`, `env -S`).
    fn code_words(
        &mut self,
        words: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
        _stdin_remote: bool,
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
        self.script(&code.join(" "), &mut sub, depth + 1, false);
    }

    fn script_file(&mut self, script: &Arg, display: &str, st: &ShellState) {
        if script.remote {
            self.deny_remote(display, "runs a script read straight from the network");
        } else if script.text().is_some_and(|p| self.is_downloaded(p, st)) {
            self.deny_remote(
                display,
                &format!("runs `{}`, downloaded by this same command", script.show()),
            );
        }
    }

    fn shell(&mut self, rest: &[Arg], stdin: &Stdin, display: &str, st: &ShellState, depth: usize) {
        // Find `-c` (alone or in a cluster such as `-lc`); the next operand is the code.
        let mut code_flag = false;
        let mut operands: Vec<&Arg> = Vec::new();
        let mut i = 0;
        let mut reads_stdin = false;
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
                    if matches!(t, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
                        i += 1;
                    } else if !t.starts_with("--") {
                        code_flag |= t.contains('c');
                        reads_stdin |= t.contains('s');
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
            Some(script) if !reads_stdin => self.script_file(script, display, st),
            _ => {
                if stdin.remote {
                    self.deny_remote(display, "pipes downloaded content into a shell");
                } else if let Some(text) = &stdin.text {
                    let mut sub = st.clone();
                    self.script(text, &mut sub, depth + 1, false);
                }
            }
        }
    }

    fn interpreter(
        &mut self,
        name: &str,
        flags: &[&str],
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
    ) {
        let mut i = 0;
        let mut code: Option<&Arg> = None;
        let mut script: Option<&Arg> = None;
        let mut module = false;
        while i < rest.len() {
            let a = &rest[i];
            i += 1;
            let Some(t) = a.text() else {
                script = Some(a);
                break;
            };
            if flags.contains(&t) {
                code = rest.get(i);
                break;
            }
            // `python -Bc CODE`, `perl -pe CODE`, `ruby -ne CODE`: the code flag ends a cluster.
            if t.starts_with('-')
                && !t.starts_with("--")
                && t.len() > 2
                && flags.iter().any(|f| f.len() == 2 && t.ends_with(&f[1..]))
            {
                code = rest.get(i);
                break;
            }
            if t == "-m" {
                module = true;
                break;
            }
            if t == "-" {
                break;
            }
            if t.starts_with('-') && t.len() > 1 {
                continue;
            }
            script = Some(a);
            break;
        }
        if let Some(code) = code {
            if code.remote {
                self.deny_remote(display, "runs downloaded content as inline code");
            } else if code.text().is_none() {
                self.dynamic_code(display, code.dynamic.as_deref().unwrap_or(&code.raw));
            } else {
                self.inline_code(name, code.text().unwrap_or(""), display);
            }
            return;
        }
        if module {
            return;
        }
        match script {
            Some(s) => self.script_file(s, display, st),
            None if stdin.remote => {
                self.deny_remote(display, &format!("pipes downloaded content into {name}"))
            }
            None => {
                if let Some(text) = &stdin.text {
                    self.inline_code(name, text, display);
                }
            }
        }
    }

    fn inline_code(&mut self, name: &str, code: &str, display: &str) {
        if let Some(marker) = inline::mutating_call(code) {
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

    fn loopgate(&mut self, rest: &[Arg], display: &str) {
        let p = Parsed::new(rest, &[]);
        let sub: Vec<&str> = p.operands.iter().filter_map(|a| a.text()).take(2).collect();
        let hit = match sub.as_slice() {
            ["baseline" | "install" | "uninstall", ..] => Some(sub[0].to_string()),
            ["quarantine", "release", ..] => Some("quarantine release".into()),
            _ => None,
        };
        if let Some(what) = hit {
            self.add(Finding::deny(
                rule::TAMPER,
                format!("`{display}` runs `loopgate {what}`, which only a human may run"),
                "ask a human to run it; the agent's work is judged against the existing baseline",
            ));
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
        let mut i = 0;
        while i < expr.len() {
            let t = expr[i].text().unwrap_or("");
            i += 1;
            match t {
                "-delete" => {
                    for root in &roots {
                        let targets = self.below_roots(root, st);
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
                        let below = self.below_roots(root, st).into_iter().next();
                        let argv: Vec<Arg> = expr[i..end]
                            .iter()
                            .map(|a| match (&below, a.text()) {
                                (Some(b), Some(t)) if t.contains("{}") => b.clone(),
                                _ => a.clone(),
                            })
                            .collect();
                        let sub = Invocation {
                            argv,
                            stdin: Stdin {
                                text: None,
                                remote: false,
                            },
                            xargs: false,
                            display: inv.display.clone(),
                        };
                        let mut sub_state = st.clone();
                        self.invoke(&sub, 0, &mut sub_state, depth);
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
