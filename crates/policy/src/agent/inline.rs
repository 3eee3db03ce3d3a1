//! Inline interpreter code (`python -c`, `node -e`, `perl -e`, a heredoc fed to `python -`).
//!
//! Another language cannot be vetted path by path, so this only asks whether the code
//! reaches for the calls that delete, write, move or spawn; such code is `exec.inline`
//! (ask in `standard`). Printing, parsing and computing stay allowed.

use crate::programs::Lang;

/// Calls that change the file system, start other programs or evaluate code built at run
/// time, in every language loopgate screens. Matched as plain substrings of the code: a
/// false "ask" costs a prompt, a missed call costs the tree.
const COMMON: &[&str] = &[
    "rmtree",
    "remove_tree",
    "unlink",
    "rmdir",
    "subprocess",
    "child_process",
    "system(",
    "popen",
    "spawn",
    "execSync",
    "execFile",
    "eval(",
    "rename",
    "chmod",
    "chown",
    "symlink",
    "truncate",
    "makedirs",
    "mkdir",
    "copyfile",
    "copytree",
    "shutil.",
    "os.remove",
    "os.replace",
    "os.exec",
    "os.spawn",
    "os.kill",
    "pty.",
    "__import__",
    "importlib",
    "ctypes",
    "getattr(",
    "compile(",
    ".write_text(",
    ".write_bytes(",
    ".writelines(",
    ".touch(",
    ".replace(",
    "writeFile",
    "appendFile",
    "fs.rm",
    "rmSync",
    "copyFileSync",
    "cpSync",
    "Function(",
    "Deno.remove",
    "Deno.write",
    "Deno.run",
    "Deno.Command",
    "Bun.write",
    "Bun.spawn",
    "Bun.$",
    "FileUtils",
    "File.delete",
    "File.write",
    "File.open",
    "IO.popen",
    "IO.write",
    "Kernel.",
    "shell_exec",
    "passthru",
    "proc_open",
    "file_put_contents",
    "fwrite",
    "os.execute",
    "io.popen",
    "io.open",
    "do shell script",
    "file delete",
    "run(`",
    "sink(",
    "saveRDS",
    "writeLines",
    // Archive members written wherever their names point (`extractall('/')`).
    "extractall",
    "writeSync",
    "Open3",
    "system2(",
    // A process copying itself (`os.fork()`, `pcntl_fork()`): in a loop, a fork bomb.
    "fork(",
];

/// Markers that only mean something in some languages (`%x` is Ruby's backticks and a
/// Python format; `.write(` is Python's file write and also `sys.stdout.write`).
fn language_markers(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::Ruby => &[
            "`", "%x", "system ", "exec ", "exec(", "spawn ", "open(\"|", "fork",
        ],
        // File::Copy's `copy`/`move`, File::Path's `rmtree` (in COMMON) and `make_path`.
        Lang::Perl => &[
            "`",
            "qx",
            "system ",
            "exec ",
            "exec(",
            "unlink ",
            "open(",
            "open ",
            "copy(",
            "move(",
            "make_path",
            "mkpath",
            // A hard link makes a second name through which a file is written.
            "link ",
            "link(",
            "fork",
        ],
        Lang::Php => &["`", "exec ", "exec(", "system ", "fopen", "copy(", "link("],
        Lang::Tcl => &["exec ", "open "],
        // `exec(` is Python's code evaluation; in JavaScript it is also `RegExp.exec`, and
        // `child_process.exec` is caught by its module name.
        Lang::Python => &[
            ".write(",
            "exec(",
            "from shutil import",
            "from subprocess import",
            "from pty import",
            "import os as",
            "import shutil as",
            "import subprocess as",
        ],
        // The promise and stream forms of `fs`: `fs.promises.rm`, `createWriteStream`.
        Lang::JavaScript => &[".write(", ".rm(", "createWriteStream", "copyFile", ".cp("],
        Lang::Julia => &["rm(", "mv(", "cp(", "write("],
        // `cat(..., file = PATH)` writes PATH.
        Lang::R => &["file.remove", "write(", "file.copy", "file =", "file="],
        _ => &[],
    }
}

/// Write modes of `open()`, for languages where opening is writing.
const WRITE_MODES: [&str; 12] = [
    "'w'", "\"w\"", "'wb'", "\"wb\"", "'a'", "\"a\"", "'w+'", "\"w+\"", "'x'", "\"x\"", "mode=",
    "'>",
];

/// Output to the terminal, which the `.write(` marker would otherwise catch.
const STD_STREAMS: [&str; 4] = [
    "sys.stdout.write(",
    "sys.stderr.write(",
    "process.stdout.write(",
    "process.stderr.write(",
];

/// PowerShell cmdlets and their aliases that delete, write, move or run code.
const POWERSHELL_COMMANDS: &[&str] = &[
    "remove-item",
    "ri",
    "rm",
    "rmdir",
    "rd",
    "del",
    "erase",
    "set-content",
    "sc",
    "add-content",
    "ac",
    "clear-content",
    "clc",
    "out-file",
    "move-item",
    "mi",
    "move",
    "mv",
    "copy-item",
    "cpi",
    "copy",
    "cp",
    "new-item",
    "ni",
    "mkdir",
    "md",
    "rename-item",
    "rni",
    "ren",
    "invoke-expression",
    "iex",
    "start-process",
    "saps",
    "start",
    "invoke-item",
    "ii",
    "set-item",
    "si",
    "set-itemproperty",
    "sp",
    "remove-itemproperty",
    "rp",
    "clear-item",
    "cli",
    "tee-object",
    "tee",
    "export-csv",
    "export-clixml",
    "invoke-command",
    "icm",
    "new-itemproperty",
    "-outfile",
];

/// cmd.exe commands that delete, write, move or run other code.
const CMD_COMMANDS: &[&str] = &[
    "del", "erase", "rd", "rmdir", "move", "ren", "rename", "copy", "xcopy", "robocopy", "mklink",
    "format", "reg", "takeown", "icacls", "attrib", "start", "call", "mkdir", "md",
];

/// The first word of PowerShell or cmd code that changes files or runs code: the words
/// are compared without case, as both shells do; a redirection outside quotes (`>`) and
/// .NET's file and directory classes (`[IO.File]::WriteAllText`) count too.
fn windows_call(lang: Lang, code: &str) -> Option<&'static str> {
    let mut unquoted = String::new();
    let mut quote: Option<char> = None;
    for c in code.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None => unquoted.push(c),
        }
    }
    let lower = unquoted.to_ascii_lowercase();
    if lower.contains('>') {
        return Some(">");
    }
    for class in [
        "io.file]::",
        "io.directory]::",
        "io.fileinfo]",
        "io.streamwriter]",
    ] {
        if lower.contains(class) {
            return Some("[IO.File]::");
        }
    }
    let list = if lang == Lang::Cmd {
        CMD_COMMANDS
    } else {
        POWERSHELL_COMMANDS
    };
    lower
        .split(|c: char| {
            c.is_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')' | '{' | '}' | '@')
        })
        .find_map(|w| list.iter().find(|m| **m == w).copied())
}

/// Functions of `os` that change files or run programs, whatever name they are bound to
/// (`from os import remove as r; r(...)`).
const OS_MUTATING: &[&str] = &[
    "remove",
    "unlink",
    "rmdir",
    "removedirs",
    "rename",
    "renames",
    "replace",
    "truncate",
    "system",
    "popen",
    "symlink",
    "link",
    "chmod",
    "chown",
    "makedirs",
    "mkdir",
    "kill",
    "write",
    "open",
    "fdopen",
    "execv",
    "execve",
    "execvp",
    "execl",
    "execlp",
    "spawnv",
    "spawnl",
    "posix_spawn",
    "*",
];

/// `from os import NAME [as ALIAS], ...` naming a mutating function.
fn python_os_import(code: &str) -> Option<&'static str> {
    let mut from = 0;
    while let Some(at) = code[from..].find("from os import") {
        let start = from + at + "from os import".len();
        let list = code[start..].split([';', '\n']).next().unwrap_or("");
        let names = list.trim().trim_start_matches('(').trim_end_matches(')');
        for item in names.split(',') {
            let name = item.split_whitespace().next().unwrap_or("");
            if OS_MUTATING.contains(&name) || name.starts_with("exec") || name.starts_with("spawn")
            {
                return Some("from os import");
            }
        }
        from = start;
    }
    None
}

/// The first mutating call found in `code` of language `lang`, if any.
pub(crate) fn mutating_call(lang: Lang, code: &str) -> Option<&'static str> {
    if matches!(lang, Lang::PowerShell | Lang::Cmd) {
        if let Some(m) = windows_call(lang, code) {
            return Some(m);
        }
    }
    let mut cleaned = code.to_string();
    for s in STD_STREAMS {
        cleaned = cleaned.replace(s, "print(");
    }
    let code = cleaned.as_str();
    if let Some(m) = COMMON.iter().find(|m| code.contains(**m)) {
        return Some(m);
    }
    if let Some(m) = language_markers(lang).iter().find(|m| code.contains(**m)) {
        return Some(m);
    }
    if lang == Lang::Python {
        if let Some(m) = python_os_import(code) {
            return Some(m);
        }
    }
    if code.contains("open(") || code.contains("openSync(") {
        if let Some(m) = WRITE_MODES.iter().find(|m| code.contains(**m)) {
            return Some(m);
        }
    }
    None
}

/// Calls that only write a file: no deletion, no process, no evaluated code.
const WRITES: [&str; 6] = [
    ".write(",
    ".write_text(",
    ".write_bytes(",
    ".writelines(",
    "writeFile",
    "appendFile",
];

/// [`mutating_call`] for a script file the same command writes and then runs: its plain
/// file writes are left to the kernel, which confines the run to the write roots (and a
/// script file is what the inline-code refusal itself recommends); what deletes, starts a
/// process or evaluates code is still named.
pub(crate) fn mutating_call_beyond_writes(lang: Lang, code: &str) -> Option<&'static str> {
    let mut cleaned = code.to_string();
    for w in WRITES.iter().chain(WRITE_MODES.iter()) {
        cleaned = cleaned.replace(w, " ");
    }
    mutating_call(lang, &cleaned)
}

/// What an awk program does beyond printing: what it runs (`system()`, pipes to or from
/// commands, output redirected to a file whose name is computed) and the files it writes
/// through `> "FILE"` / `>> "FILE"`, which are judged as paths.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct AwkEffects {
    pub runs: Option<&'static str>,
    pub writes: Vec<String>,
    /// Shell commands spelled as string literals: `system("CMD")`, `"CMD" | getline`.
    /// awk hands each to `sh -c` as written, so they are judged as shell code.
    pub commands: Vec<String>,
}

/// `system("CMD")` and `"CMD" | getline` whose command is one string literal with no
/// escapes: the commands, and the code with each such call replaced by a plain value (so
/// what is left can be screened for computed commands).
fn awk_literal_commands(code: &str) -> (Vec<String>, String) {
    let mut commands = Vec::new();
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    let literal = |s: &str| -> Option<(String, usize)> {
        let body = s.strip_prefix('"')?;
        let end = body.find('"')?;
        (!body[..end].contains('\\')).then(|| (body[..end].to_string(), end + 2))
    };
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("system(") {
            let inner = after.trim_start();
            if let Some((cmd, used)) = literal(inner) {
                let tail = inner[used..].trim_start();
                if let Some(tail) = tail.strip_prefix(')') {
                    commands.push(cmd);
                    out.push('0');
                    rest = tail;
                    continue;
                }
            }
        }
        if let Some((cmd, used)) = literal(rest) {
            let tail = rest[used..].trim_start();
            if let Some(tail) = tail.strip_prefix('|') {
                let tail = tail.trim_start();
                if let Some(tail) = tail.strip_prefix("getline") {
                    commands.push(cmd);
                    out.push_str("getline");
                    rest = tail;
                    continue;
                }
            }
            // Any other string: copied whole, so its quotes stay paired.
            out.push_str(&rest[..used]);
            rest = &rest[used..];
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    (commands, out)
}

pub(crate) fn awk_effects(code: &str) -> AwkEffects {
    let mut e = AwkEffects::default();
    let (commands, rest) = awk_literal_commands(code);
    e.commands = commands;
    // Judged as the commands they are, and still asked about: awk starting a program is
    // what the screen asks about (a harmless one included, as for every language).
    if !e.commands.is_empty() {
        e.runs = Some(if code.contains("system") {
            "system()"
        } else {
            "a pipe to or from a command"
        });
    }
    let code = rest.as_str();
    if code.contains("system") {
        e.runs = Some("system()");
        return e;
    }
    if code.contains('|') && !code.contains("||") {
        e.runs = Some("a pipe to or from a command");
        return e;
    }
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'>' || bytes.get(i + 1) == Some(&b'=') {
            i += 1;
            continue;
        }
        let append = bytes.get(i + 1) == Some(&b'>');
        let after = code[i + 1 + usize::from(append)..].trim_start();
        if let Some(lit) = after.strip_prefix('"') {
            match lit.find('"') {
                Some(end) if !lit[..end].contains('\\') => e.writes.push(lit[..end].to_string()),
                _ => e.runs = Some("output redirected to a file"),
            }
        } else if append || after.starts_with(['$', '(']) {
            // A file name computed at run time (`> $2`, `> (dir "/x")`).
            e.runs = Some("output redirected to a file");
        }
        i += 1 + usize::from(append);
    }
    e
}

/// What a sed script does beyond editing its input: commands it executes (`e`, the `e`
/// flag of `s`) and files it writes (`w FILE`, `W FILE`, the `w` flag of `s`).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct SedEffects {
    pub executes: bool,
    pub writes: Vec<String>,
}

pub(crate) fn sed_effects(script: &str) -> SedEffects {
    let mut out = SedEffects::default();
    for raw in script.split(['\n', ';']) {
        let cmd = skip_address(raw.trim_start());
        let mut chars = cmd.chars();
        match chars.next() {
            Some('e') => out.executes = true,
            Some('w' | 'W') => out.writes.push(cmd[1..].trim().to_string()),
            Some('s') => {
                let Some(delim) = chars.next() else { continue };
                // Skip the pattern and the replacement, honouring backslash escapes.
                let body: String = chars.collect();
                let mut seen = 0;
                let mut escaped = false;
                let mut flags_at = None;
                for (i, c) in body.char_indices() {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == delim {
                        seen += 1;
                        if seen == 2 {
                            flags_at = Some(i + c.len_utf8());
                            break;
                        }
                    }
                }
                if let Some(at) = flags_at {
                    let flags = &body[at..];
                    let letters: String = flags
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric())
                        .collect();
                    if letters.contains('e') {
                        out.executes = true;
                    }
                    if let Some(w) = letters.find('w') {
                        let file = flags[w + 1..].trim();
                        out.writes.push(file.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Past a sed address (`1`, `$`, `/re/`, `\%re%`, `1,5`, `1~2`, `!`, `{`).
fn skip_address(cmd: &str) -> &str {
    let mut rest = cmd;
    loop {
        let t = rest.trim_start();
        let skipped = t.trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '$' | ',' | '~' | '!' | '{' | '+')
        });
        let skipped = if let Some(re) = skipped.strip_prefix('/') {
            match re.find('/') {
                Some(end) => &re[end + 1..],
                None => "",
            }
        } else {
            skipped
        };
        if skipped.len() == rest.len() {
            return skipped.trim_start();
        }
        rest = skipped;
    }
}

/// Vim commands (`-c CMD`, `+CMD`, `--cmd CMD`): shell escapes and script languages
/// execute, `w`/`wq`/`x`/`sav` write the files being edited.
// One arm per command family reads as a table.
#[allow(clippy::collapsible_match)]
pub(crate) fn vim_effects(cmd: &str) -> (Option<&'static str>, bool) {
    let mut writes = false;
    for part in cmd.split('|') {
        let c = part
            .trim()
            .trim_start_matches(':')
            .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '%' | ',' | '.' | '$'));
        if c.starts_with('!') || c.contains("system(") {
            return (Some("a shell command"), writes);
        }
        let word: String = c.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        match word.as_str() {
            "py" | "py3" | "python" | "python3" | "pyx" | "lua" | "perl" | "ruby" | "rubydo"
            | "luado" | "perldo" | "pydo" | "py3do" | "terminal" | "term" | "call" | "exe"
            | "execute" | "so" | "source" | "runtime" | "redir" | "let" | "r" | "read" => {
                if !matches!(word.as_str(), "r" | "read") || c.contains('!') {
                    return (Some("a script or shell command"), writes);
                }
            }
            "w" | "wq" | "x" | "xit" | "wa" | "wall" | "wqa" | "wqall" | "xa" | "sav"
            | "saveas" | "up" | "update" | "write" | "exit" => writes = true,
            _ => {}
        }
    }
    (None, writes)
}

/// Emacs Lisp that writes, deletes or runs programs.
pub(crate) fn elisp_mutating(code: &str) -> Option<&'static str> {
    const MARKERS: [&str; 12] = [
        "shell-command",
        "call-process",
        "start-process",
        "make-process",
        "delete-file",
        "delete-directory",
        "write-region",
        "rename-file",
        "copy-file",
        "save-buffer",
        "with-temp-file",
        "write-file",
    ];
    MARKERS.iter().find(|m| code.contains(**m)).copied()
}

/// gdb commands other than reading state (`bt`, `info`, `print`, ...) can run programs
/// (`shell`, `!`, `pipe`, `python`), write memory or files, or start the inferior.
pub(crate) fn gdb_mutating(cmd: &str) -> bool {
    // Reading state, and moving the debuggee along (`break`, `next`, `continue`): none of
    // these runs anything but the program gdb was started on.
    const READS: [&str; 46] = [
        "bt",
        "backtrace",
        "info",
        "i",
        "p",
        "print",
        "output",
        "list",
        "l",
        "frame",
        "f",
        "thread",
        "where",
        "x",
        "disassemble",
        "quit",
        "q",
        "ptype",
        "whatis",
        "up",
        "down",
        "set",
        "show",
        "break",
        "b",
        "tbreak",
        "rbreak",
        "watch",
        "rwatch",
        "awatch",
        "delete",
        "d",
        "disable",
        "enable",
        "continue",
        "c",
        "next",
        "n",
        "step",
        "s",
        "stepi",
        "nexti",
        "finish",
        "until",
        "kill",
        "display",
    ];
    let word: String = cmd
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    if word == "set" {
        let rest = cmd.trim()[3..].trim_start();
        return ![
            "pagination",
            "confirm",
            "print",
            "width",
            "height",
            "logging",
            "breakpoint",
        ]
        .iter()
        .any(|s| rest.starts_with(s));
    }
    if gdb_runs_debuggee(cmd) {
        return false;
    }
    // `print system("rm -rf ~")`, `p unlink("x")`: an expression may call any function
    // of the debuggee, the C library's included.
    let calls = cmd.trim()[word.len()..].char_indices().any(|(i, c)| {
        c == '('
            && cmd.trim()[word.len()..][..i]
                .ends_with(|p: char| p.is_ascii_alphanumeric() || p == '_')
    });
    !READS.contains(&word.as_str()) || calls
}

/// `run`, `r`, `start`, `starti` with nothing after them: gdb starts the program it was
/// given (with `--args`, with those arguments), which is that command run bare. Words
/// after `run` replace the arguments and go through a shell (`run > ~/x`), so they are
/// not this.
pub(crate) fn gdb_runs_debuggee(cmd: &str) -> bool {
    matches!(cmd.trim(), "run" | "r" | "start" | "starti")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deleting_and_spawning_code_is_found() {
        let py = |c| mutating_call(Lang::Python, c);
        assert_eq!(py("import shutil; shutil.rmtree('/x')"), Some("rmtree"));
        assert_eq!(
            mutating_call(Lang::JavaScript, "require('child_process').execSync('ls')"),
            Some("child_process")
        );
        assert_eq!(py("open('f', 'w').close()"), Some("'w'"));
        assert_eq!(py("system('rm -rf /')"), Some("system("));
        assert_eq!(py("f.write('x')"), Some(".write("));
        assert_eq!(py("__import__('os').system('x')"), Some("system("));
        assert_eq!(mutating_call(Lang::Ruby, "puts %x(ls)"), Some("%x"));
    }

    #[test]
    fn reading_and_printing_code_is_not() {
        let py = |c| mutating_call(Lang::Python, c);
        assert_eq!(py("print('hello')"), None);
        assert_eq!(py("print('%x' % 255)"), None);
        assert_eq!(py("import sys; sys.stdout.write('ok\\n')"), None);
        assert_eq!(
            py("import json,sys; print(json.load(open('p.json'))['v'])"),
            None
        );
        assert_eq!(
            mutating_call(Lang::JavaScript, "console.log(process.version)"),
            None
        );
    }

    #[test]
    fn sed_awk_vim_effects() {
        assert!(sed_effects("1e rm -rf /").executes);
        assert!(sed_effects("s/a/b/e").executes);
        assert_eq!(
            sed_effects("s/a/b/w /etc/x").writes,
            vec!["/etc/x".to_string()]
        );
        assert_eq!(
            sed_effects("/x/w out.txt").writes,
            vec!["out.txt".to_string()]
        );
        assert_eq!(sed_effects("s/e/w/g"), SedEffects::default());
        assert_eq!(sed_effects("/^end/d"), SedEffects::default());
        assert_eq!(awk_effects("BEGIN{system(\"id\")}").runs, Some("system()"));
        assert_eq!(
            awk_effects("BEGIN{system(\"id\")}").commands,
            vec!["id".to_string()]
        );
        assert_eq!(
            awk_effects("BEGIN { while ((\"git log\" | getline l) > 0) print l }"),
            AwkEffects {
                runs: Some("a pipe to or from a command"),
                commands: vec!["git log".to_string()],
                ..AwkEffects::default()
            }
        );
        assert_eq!(
            awk_effects("BEGIN{system(\"rm -rf \" ENVIRON[\"HOME\"])}").runs,
            Some("system()")
        );
        assert_eq!(
            awk_effects("BEGIN{print \"x\" | \"sh\"}").runs,
            Some("a pipe to or from a command")
        );
        assert_eq!(
            awk_effects("{print $1 > \"/etc/x\"}").writes,
            vec!["/etc/x".to_string()]
        );
        assert_eq!(
            awk_effects("{print >> $2}").runs,
            Some("output redirected to a file")
        );
        assert_eq!(awk_effects("$3 > 100 {print $1}"), AwkEffects::default());
        assert_eq!(awk_effects("$3 >= 100 {print $1}"), AwkEffects::default());
        assert_eq!(awk_effects("NR==1 || /x/"), AwkEffects::default());
        assert_eq!(vim_effects(":!rm -rf /").0, Some("a shell command"));
        assert_eq!(vim_effects("%s/a/b/g | wq"), (None, true));
        assert!(gdb_mutating("shell rm -rf /"));
        assert!(gdb_mutating("!rm -rf /"));
        assert!(gdb_mutating("print system(\"rm -rf ~\")"));
        assert!(gdb_mutating("run > ~/.bashrc"));
        assert!(!gdb_mutating("bt"));
        assert!(!gdb_mutating("run"));
        assert!(!gdb_mutating("break main"));
        assert!(!gdb_mutating("p x + 1"));
    }
}
