//! Which programs a check may run, and the flags that would turn them into launchers.

use super::{dangerous_env, inside_root, CheckModeOptions, Refusal, Repo, SimpleCommand};
use std::path::{Path, PathBuf};

/// The default allowlist: the build and test tools of the common stacks. Extended by
/// `[gate] programs`; shells and wrappers are never accepted, even when listed there.
pub const DEFAULT_PROGRAMS: &[&str] = &[
    // Rust
    "cargo",
    "rustc",
    "rustfmt",
    "cargo-nextest",
    "cross",
    // JavaScript / TypeScript
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "node",
    "npx",
    "deno",
    "tsc",
    "eslint",
    "prettier",
    "jest",
    "vitest",
    "mocha",
    "playwright",
    "biome",
    // Python
    "python",
    "python3",
    "pytest",
    "tox",
    "nox",
    "ruff",
    "mypy",
    "pyright",
    "black",
    "flake8",
    "pylint",
    // Go
    "go",
    "gofmt",
    "golangci-lint",
    "staticcheck",
    // Make and friends
    "make",
    "gmake",
    "just",
    "cmake",
    "ctest",
    "ninja",
    "meson",
    // JVM
    "gradle",
    "mvn",
    "sbt",
    "./gradlew",
    "./mvnw",
    // Ruby
    "ruby",
    "bundle",
    "rake",
    "rspec",
    "rubocop",
    // Elixir
    "mix",
    "elixir",
    // .NET, Swift, PHP, Perl
    "dotnet",
    "swift",
    "php",
    "composer",
    "phpunit",
    "perl",
    "prove",
];

const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "pdksh",
    "ash",
    "yash",
    "fish",
    "csh",
    "tcsh",
    "rc",
    "es",
    "nu",
    "elvish",
    "xonsh",
    "osh",
    "busybox",
    "toybox",
    "pwsh",
    "powershell",
    "cmd",
    "cmd.exe",
];

/// Programs whose job is to run another program or a string of code.
const WRAPPERS: &[&str] = &[
    "env",
    "sudo",
    "doas",
    "su",
    "runuser",
    "xargs",
    "eval",
    "exec",
    "source",
    ".",
    "nohup",
    "timeout",
    "nice",
    "ionice",
    "command",
    "builtin",
    "stdbuf",
    "chroot",
    "setsid",
    "script",
    "expect",
    "watch",
    "time",
    "strace",
    "ltrace",
    "gdb",
    "unbuffer",
    "flock",
    "parallel",
    "systemd-run",
    "uvx",
    "pipx",
    "pnpx",
    "bunx",
    "dlx",
];

/// Interpreters that take code on the command line; a `[gate] programs` entry naming one
/// is reported by `policy lint`.
const INLINE_INTERPRETERS: &[&str] = &[
    "awk",
    "gawk",
    "mawk",
    "nawk",
    "sed",
    "gsed",
    "lua",
    "luajit",
    "tclsh",
    "wish",
    "rscript",
    "r",
    "julia",
    "osascript",
    "python2",
    "pypy",
    "pypy3",
    "jshell",
    "groovy",
    "irb",
    "ghci",
    "runghc",
    "erl",
    "escript",
    "iex",
    "clojure",
    "bb",
    "guile",
    "racket",
    "sbcl",
    "vim",
    "nvim",
    "emacs",
    "node",
    "nodejs",
    "python",
    "python3",
    "ruby",
    "perl",
    "php",
    "deno",
    "bun",
    "elixir",
];

/// Tools that are not interpreters but run arbitrary commands through their own options
/// (`git -c alias.x='!sh'`, `find -exec`, `docker run`), or fetch code.
const LAUNCHERS: &[&str] = &[
    "git", "find", "docker", "podman", "kubectl", "ssh", "curl", "wget",
];

fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// `python3.12` -> `python3`, `pypy3.10` -> `pypy3`: version suffixes do not change flags.
fn family(program: &str) -> String {
    let base = basename(program).to_ascii_lowercase();
    let trimmed = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    match trimmed {
        "python" | "pypy" => "python".to_string(),
        "node" | "nodejs" => "node".to_string(),
        "ruby" | "perl" | "php" | "bun" | "deno" | "elixir" | "lua" | "luajit" | "julia" => {
            trimmed.to_string()
        }
        "gradlew" => "gradle".to_string(),
        "mvnw" => "mvn".to_string(),
        "gmake" => "make".to_string(),
        _ => base,
    }
}

pub fn is_shell(program: &str) -> bool {
    SHELLS.contains(&basename(program).to_ascii_lowercase().as_str())
}

pub fn is_wrapper(program: &str) -> bool {
    WRAPPERS.contains(&basename(program))
}

/// Why adding `program` to `[gate] programs` deserves a human's eye, if it does.
pub fn suspicious_program(program: &str) -> Option<String> {
    let base = basename(program).to_ascii_lowercase();
    if is_shell(program) {
        return Some(format!(
            "`{program}` is a shell: it runs any code it is given"
        ));
    }
    if is_wrapper(program) {
        return Some(format!(
            "`{program}` runs other programs or code it is given"
        ));
    }
    let trimmed = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if INLINE_INTERPRETERS.contains(&base.as_str()) || INLINE_INTERPRETERS.contains(&trimmed) {
        return Some(format!(
            "`{program}` is an interpreter that accepts inline code"
        ));
    }
    if LAUNCHERS.contains(&base.as_str()) {
        return Some(format!(
            "`{program}` can run arbitrary commands through its own options"
        ));
    }
    if program.starts_with('/') || program.starts_with("..") {
        return Some(format!("`{program}` is a path outside the repository"));
    }
    None
}

const SCRIPT: &str =
    "move the logic into a script file in the repository and call it, e.g. `./scripts/check.sh`";

/// Vet one simple command; `earlier` are the commands before it in the same string.
pub(super) fn vet_command(
    cmd: &SimpleCommand,
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    for (name, _) in &cmd.env {
        if let Some(why) = dangerous_env(name) {
            return Err(Refusal::new(
                "check.env",
                format!("{name}="),
                format!("assigning `{name}` is refused: {why}"),
                "drop the assignment; configure the tool in a file committed to the repository",
            ));
        }
    }
    let program = cmd.argv[0].as_str();
    let args = &cmd.argv[1..];
    if program.is_empty() {
        return Err(Refusal::new(
            "check.program",
            "''",
            "the program name is empty",
            "name a program, e.g. `cargo`",
        ));
    }
    if is_shell(program) {
        return Err(Refusal::new(
            "check.shell",
            program,
            format!("`{program}` is a shell; a shell runs any code, so it is never allowlisted"),
            SCRIPT,
        ));
    }
    if is_wrapper(basename(program)) && !program.contains('/') {
        return Err(Refusal::new(
            "check.wrapper",
            program,
            format!(
                "`{program}` runs another program or code string, which hides what really runs"
            ),
            "call the program directly; use the check's `timeout` setting for time limits",
        ));
    }
    let allowlisted =
        DEFAULT_PROGRAMS.contains(&program) || opts.extra_programs.iter().any(|p| p == program);
    if program.contains('/') && !allowlisted {
        vet_script_path(program, "the program", earlier, opts, repo)?;
    } else if !allowlisted {
        return Err(Refusal::new(
            "check.program",
            program,
            format!("`{program}` is not on the check-mode allowlist"),
            format!("add it to `[gate] programs` in loopgate.toml if it is a trusted build tool, or {SCRIPT}"),
        ));
    }
    const RUNNER_CONFIG_FLAGS: &[(&str, &str)] = &[
        (
            "--script-shell",
            "makes the package manager run scripts through another program",
        ),
        (
            "--node-options",
            "passes flags such as --require to every node the package manager starts",
        ),
        (
            "--userconfig",
            "loads package-manager configuration (e.g. script-shell) from another file",
        ),
        (
            "--globalconfig",
            "loads package-manager configuration (e.g. script-shell) from another file",
        ),
    ];
    for arg in args {
        let name = arg.split('=').next().unwrap_or(arg);
        if let Some((flag, what)) = RUNNER_CONFIG_FLAGS.iter().find(|(f, _)| *f == name) {
            return Err(Refusal::new(
                "check.package_runner",
                arg.as_str(),
                format!("`{flag}` {what}"),
                "drop the flag; keep package-manager settings in a file committed to the repository",
            ));
        }
    }
    vet_args(&family(program), args, earlier, opts, repo)
}

/// A script (the program itself, or the file an interpreter runs) must be a file inside
/// the repository that no earlier command of the same string names.
fn vet_script_path(
    path: &str,
    role: &str,
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    if path.contains("://") {
        return Err(Refusal::new(
            "check.remote",
            path,
            format!("{role} `{path}` is fetched from the network"),
            "commit the script to the repository and run it from there",
        ));
    }
    let Some(rel) = repo_relative(path, &opts.root) else {
        return Err(Refusal::new(
            "check.path",
            path,
            format!("{role} `{path}` is outside the repository"),
            "run a script committed inside the repository, e.g. `./scripts/test.sh`",
        ));
    };
    if let Some(writer) = earlier.iter().find(|c| names_path(c, &rel, &opts.root)) {
        return Err(Refusal::new(
            "check.write_then_run",
            path,
            format!(
                "`{}` names `{path}` before it runs: one command could write the script the next one executes",
                writer.display()
            ),
            "commit the script to the repository, or do both steps inside one committed script",
        ));
    }
    if !repo.path_exists(&rel) {
        return Err(Refusal::new(
            "check.path",
            path,
            format!("{role} `{path}` does not exist in the repository"),
            "run a script committed inside the repository, e.g. `./scripts/test.sh`",
        ));
    }
    Ok(())
}

fn repo_relative(path: &str, root: &Path) -> Option<PathBuf> {
    if let Some(stripped) = Path::new(path)
        .strip_prefix(root)
        .ok()
        .filter(|_| path.starts_with('/'))
    {
        return inside_root(&stripped.to_string_lossy());
    }
    inside_root(path)
}

/// Does `cmd` mention `rel` as an argument (alone, or as the value of `--flag=` / `K=`)?
fn names_path(cmd: &SimpleCommand, rel: &Path, root: &Path) -> bool {
    cmd.argv[1..].iter().any(|arg| {
        let candidates = std::iter::once(arg.as_str()).chain(arg.split_once('=').map(|(_, v)| v));
        candidates.filter_map(|c| repo_relative(c, root)).any(|p| {
            let looks_like_dir = c_is_pathy(arg);
            p == rel || (looks_like_dir && !p.as_os_str().is_empty() && rel.starts_with(&p))
        })
    })
}

/// A word that reads as a path rather than a name (`bin/`, `./out`), so a script below it
/// counts as written by the command that names it.
fn c_is_pathy(arg: &str) -> bool {
    let value = arg.split_once('=').map(|(_, v)| v).unwrap_or(arg);
    value.contains('/') || value.starts_with('.')
}

/// Flags of one interpreter: letters that take inline code (or preload code) in a short
/// cluster, letters that take a value (the rest of the cluster is that value), long flags.
struct Flags {
    inline_short: &'static str,
    value_short: &'static str,
    inline_long: &'static [&'static str],
}

const NODE: Flags = Flags {
    inline_short: "epr",
    value_short: "C",
    inline_long: &[
        "--eval",
        "--print",
        "--require",
        "--import",
        "--loader",
        "--experimental-loader",
        "--env-file",
        "--env-file-if-exists",
        "--experimental-policy",
        "--experimental-config-file",
        "--openssl-config",
        "--snapshot-blob",
        "--inspect-brk-node",
    ],
};
const BUN: Flags = Flags {
    inline_short: "epr",
    value_short: "",
    inline_long: &[
        "--eval",
        "--print",
        "--preload",
        "--require",
        "--import",
        "--env-file",
    ],
};
const RUBY: Flags = Flags {
    inline_short: "er",
    value_short: "ICEFx",
    inline_long: &["--require", "--eval"],
};
const PERL: Flags = Flags {
    inline_short: "eEMm",
    value_short: "ICxid",
    inline_long: &[],
};
const PHP: Flags = Flags {
    inline_short: "rBRFEdz",
    value_short: "cft",
    inline_long: &[
        "--run",
        "--process-begin",
        "--process-code",
        "--process-file",
        "--process-end",
        "--define",
        "--zend-extension",
    ],
};
const ELIXIR: Flags = Flags {
    inline_short: "e",
    value_short: "r",
    inline_long: &["--eval", "--rpc-eval"],
};
const OTHER_INLINE: Flags = Flags {
    inline_short: "eEl",
    value_short: "",
    inline_long: &["--eval", "--print", "--load"],
};

fn vet_args(
    family: &str,
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    match family {
        "node" => {
            scan_flags(family, args, &NODE)?;
            vet_interpreter_script(args, earlier, opts, repo)
        }
        "ruby" => {
            scan_flags(family, args, &RUBY)?;
            vet_interpreter_script(args, earlier, opts, repo)
        }
        "perl" => {
            scan_flags(family, args, &PERL)?;
            vet_interpreter_script(args, earlier, opts, repo)
        }
        "php" => {
            scan_flags(family, args, &PHP)?;
            vet_interpreter_script(args, earlier, opts, repo)
        }
        "elixir" => scan_flags(family, args, &ELIXIR),
        "julia" | "rscript" | "lua" | "luajit" | "osascript" => {
            scan_flags(family, args, &OTHER_INLINE)
        }
        "python" => vet_python(args, earlier, opts, repo),
        "bun" => vet_bun(args, earlier, opts, repo),
        "deno" => vet_deno(args),
        "npx" => vet_npx(args, repo, "npx"),
        "npm" => vet_npm(args, repo),
        "pnpm" => vet_pnpm(args, repo),
        "yarn" => vet_yarn(args, earlier, opts, repo),
        "cargo" => vet_cargo(args, opts),
        "go" => vet_go(args),
        "make" => vet_make(args, opts),
        "mix" => {
            if positionals(args).first() == Some(&"cmd") {
                return Err(exec_flag_refusal("mix", "cmd", "runs a shell command"));
            }
            if let Some(a) = args
                .iter()
                .find(|a| matches!(a.as_str(), "-e" | "--eval") || a.starts_with("--eval="))
            {
                return Err(inline_refusal("mix", a));
            }
            Ok(())
        }
        "gradle" => vet_init_scripts(args, opts),
        "bundle" => vet_bundle(args, earlier, opts, repo),
        "mvn" => match args
            .iter()
            .find(|a| a.starts_with("exec:") || a.starts_with("-Dexec."))
        {
            Some(a) => Err(exec_flag_refusal(
                "mvn",
                a,
                "runs a program named on the command line",
            )),
            None => Ok(()),
        },
        "cmake" => match args.iter().find(|a| *a == "-E" || *a == "-P") {
            Some(a) => Err(exec_flag_refusal(
                "cmake",
                a,
                "runs a command-line tool mode or script (`-E env ...` runs any program)",
            )),
            None => Ok(()),
        },
        "just" => match args.iter().find(|a| {
            let name = a.split('=').next().unwrap_or(a);
            matches!(name, "--command" | "-c" | "--shell" | "--shell-arg")
        }) {
            Some(a) => Err(exec_flag_refusal(
                "just",
                a,
                "runs a command or shell named on the command line",
            )),
            None => Ok(()),
        },
        "prove" => match args.iter().find(|a| {
            let name = a.split('=').next().unwrap_or(a);
            matches!(name, "-e" | "--exec")
        }) {
            Some(a) => Err(exec_flag_refusal(
                "prove",
                a,
                "runs each test through a program named on the command line",
            )),
            None => Ok(()),
        },
        "rustc" => match args
            .iter()
            .find(|a| a.contains("linker=") || a.contains("link-arg"))
        {
            Some(a) => Err(exec_flag_refusal(
                "rustc",
                a,
                "sets the linker, which runs any program",
            )),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

fn inline_refusal(program: &str, flag: &str) -> Refusal {
    Refusal::new(
        "check.inline_code",
        flag,
        format!("`{program} {flag}` runs code written on the command line (or preloads code), which nothing vets"),
        format!("put the code in a file in the repository and run it, e.g. `{program} scripts/check.js`"),
    )
}

/// Refuse any inline-code flag anywhere before a literal `--` (arguments after the
/// script are scanned too: a flag taking a separate value could otherwise make the
/// interpreter read `-e` as its own flag while a positional reading sees a script arg).
fn scan_flags(program: &str, args: &[String], flags: &Flags) -> Result<(), Refusal> {
    for arg in args {
        if arg == "--" {
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            if flags
                .inline_long
                .iter()
                .any(|f| f.trim_start_matches('-') == name)
            {
                return Err(inline_refusal(program, arg));
            }
            continue;
        }
        if let Some(cluster) = arg.strip_prefix('-') {
            for c in cluster.chars() {
                if flags.inline_short.contains(c) {
                    return Err(inline_refusal(program, arg));
                }
                if flags.value_short.contains(c) || !c.is_ascii_alphanumeric() {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// The first positional argument of an interpreter is the script it runs.
fn vet_interpreter_script(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            return match iter.next() {
                Some(script) => vet_script_arg(script, earlier, opts, repo),
                None => Ok(()),
            };
        }
        if !arg.starts_with('-') {
            return vet_script_arg(arg, earlier, opts, repo);
        }
    }
    Ok(())
}

fn vet_script_arg(
    script: &str,
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    // A bare word like `test` may be a package script name (`bun test`), not a file.
    if script.contains('/') || script.contains('.') {
        vet_script_path(script, "the script", earlier, opts, repo)
    } else {
        Ok(())
    }
}

fn vet_python(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            return match iter.next() {
                Some(script) => vet_script_arg(script, earlier, opts, repo),
                None => Ok(()),
            };
        }
        if arg.starts_with("--") {
            if arg == "--check-hash-based-pycs" {
                iter.next();
            }
            continue;
        }
        let Some(cluster) = arg.strip_prefix('-') else {
            return vet_script_arg(arg, earlier, opts, repo);
        };
        if cluster.is_empty() {
            return Ok(()); // `-`: the script comes from stdin, which is empty for a check
        }
        for (i, c) in cluster.char_indices() {
            match c {
                'c' => return Err(inline_refusal("python", arg)),
                // Everything after `-m module` belongs to the module (e.g. pytest's own `-c`).
                'm' => return Ok(()),
                'W' | 'X' => {
                    if i + 1 == cluster.len() {
                        iter.next();
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn vet_bun(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    scan_flags("bun", args, &BUN)?;
    match args
        .iter()
        .find(|a| !a.starts_with('-'))
        .map(String::as_str)
    {
        Some("x") => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.as_str() != "x")
                .skip(1)
                .cloned()
                .collect();
            vet_npx(&rest, repo, "bun x")
        }
        Some("exec") => Err(Refusal::new(
            "check.package_runner",
            "exec",
            "`bun exec` runs a shell script string",
            SCRIPT,
        )),
        Some("run") => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.as_str() != "run")
                .skip(1)
                .cloned()
                .collect();
            vet_interpreter_script(&rest, earlier, opts, repo)
        }
        Some(_) => vet_interpreter_script(args, earlier, opts, repo),
        None => Ok(()),
    }
}

fn vet_deno(args: &[String]) -> Result<(), Refusal> {
    let sub = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .map(String::as_str);
    match sub {
        Some(s @ ("eval" | "repl")) => Err(inline_refusal("deno", s)),
        Some(s @ ("x" | "install")) => Err(Refusal::new(
            "check.package_runner",
            s,
            format!("`deno {s}` fetches and runs a package"),
            "depend on the package in the repository and run it through a deno task",
        )),
        Some(_) => match args
            .iter()
            .find(|a| a.contains("://") || a.starts_with("npm:") || a.starts_with("jsr:"))
        {
            Some(url) => Err(Refusal::new(
                "check.remote",
                url.as_str(),
                format!("`{url}` is code fetched from the network"),
                "commit the script to the repository and run it from there",
            )),
            None => Ok(()),
        },
        None => Ok(()),
    }
}

fn runner_refusal(flag: &str, what: &str) -> Refusal {
    Refusal::new(
        "check.package_runner",
        flag,
        what.to_string(),
        "install the tool as a dev dependency and run it through a package script, e.g. `npm test`",
    )
}

/// `npx` and kin: only a binary already installed in `node_modules/.bin` may run.
fn vet_npx(args: &[String], repo: &dyn Repo, runner: &str) -> Result<(), Refusal> {
    for arg in args {
        let name = arg.split('=').next().unwrap_or(arg);
        match name {
            "-c" | "--call" | "--shell" => {
                return Err(runner_refusal(
                    arg,
                    &format!("`{runner} {arg}` runs a shell command string"),
                ))
            }
            "-y" | "--yes" => {
                return Err(runner_refusal(
                    arg,
                    &format!("`{runner} {arg}` installs and runs packages without asking"),
                ))
            }
            "-p" | "--package" => {
                return Err(runner_refusal(
                    arg,
                    &format!("`{runner} {arg}` fetches a package to run"),
                ))
            }
            _ if arg.starts_with('-') => continue,
            _ => {
                if repo.has_local_bin(arg) {
                    return Ok(());
                }
                return Err(runner_refusal(
                    arg,
                    &format!("`{runner} {arg}`: `{arg}` is not installed in node_modules/.bin, so it would be downloaded and run"),
                ));
            }
        }
    }
    Ok(())
}

fn positionals(args: &[String]) -> Vec<&str> {
    args.iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect()
}

/// Positionals from the first known subcommand on: a flag's value (`--prefix dir`) may
/// come before it and must not hide it.
fn from_subcommand<'a>(pos: &[&'a str], known: &[&str]) -> Vec<&'a str> {
    match pos.iter().position(|p| known.contains(p)) {
        Some(i) => pos[i..].to_vec(),
        None => pos.to_vec(),
    }
}

const NPM_SUBCOMMANDS: &[&str] = &[
    "exec",
    "x",
    "explore",
    "config",
    "c",
    "set",
    "pkg",
    "set-script",
    "init",
    "create",
    "innit",
    "run",
    "run-script",
    "rum",
    "urn",
    "test",
    "t",
    "tst",
    "start",
    "stop",
    "restart",
    "install",
    "i",
    "add",
    "ci",
    "uninstall",
    "update",
    "ls",
    "audit",
    "pack",
    "publish",
    "version",
];

fn vet_npm(args: &[String], repo: &dyn Repo) -> Result<(), Refusal> {
    let pos = from_subcommand(&positionals(args), NPM_SUBCOMMANDS);
    match pos.as_slice() {
        [sub @ ("exec" | "x"), ..] => {
            let rest: Vec<String> = args.iter().skip_while(|a| a.as_str() != *sub).skip(1).cloned().collect();
            vet_npx(&rest, repo, &format!("npm {sub}"))
        }
        ["explore", ..] => Err(runner_refusal("explore", "`npm explore` runs a shell command inside a package")),
        [sub @ ("config" | "c"), action @ ("set" | "edit" | "delete" | "fix"), ..] => Err(runner_refusal(
            action,
            &format!("`npm {sub} {action}` changes npm's configuration, e.g. the shell that runs scripts"),
        )),
        ["set", ..] => Err(runner_refusal("set", "`npm set` changes npm's configuration")),
        ["pkg", action @ ("set" | "delete" | "fix"), ..] => Err(runner_refusal(
            action,
            &format!("`npm pkg {action}` rewrites package.json, e.g. the test script the next command runs"),
        )),
        ["set-script", ..] => Err(runner_refusal("set-script", "`npm set-script` rewrites a package script")),
        [sub @ ("init" | "create" | "innit"), _, ..] => Err(runner_refusal(
            sub,
            &format!("`npm {sub} <package>` downloads and runs a package"),
        )),
        _ => Ok(()),
    }
}

fn vet_pnpm(args: &[String], repo: &dyn Repo) -> Result<(), Refusal> {
    if let Some(a) = args
        .iter()
        .find(|a| matches!(a.as_str(), "-c" | "--shell-mode"))
    {
        return Err(runner_refusal(
            a,
            &format!("`pnpm {a}` runs a shell command string"),
        ));
    }
    let pos = from_subcommand(
        &positionals(args),
        &[
            "exec", "dlx", "create", "config", "pkg", "run", "test", "t", "install", "i", "add",
        ],
    );
    match pos.as_slice() {
        ["exec", ..] => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.as_str() != "exec")
                .skip(1)
                .cloned()
                .collect();
            vet_npx(&rest, repo, "pnpm exec")
        }
        [sub @ ("dlx" | "create"), ..] => Err(runner_refusal(
            sub,
            &format!("`pnpm {sub}` downloads and runs a package"),
        )),
        ["config", action @ ("set" | "delete"), ..] => Err(runner_refusal(
            action,
            &format!("`pnpm config {action}` changes pnpm's configuration"),
        )),
        ["pkg", action @ ("set" | "delete"), ..] => Err(runner_refusal(
            action,
            &format!("`pnpm pkg {action}` rewrites package.json"),
        )),
        _ => Ok(()),
    }
}

fn vet_yarn(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    // `yarn workspace <name> <command>` and `yarn workspaces foreach <command>` nest a
    // command, so every positional is looked at, not only the first.
    let pos = positionals(args);
    for (i, p) in pos.iter().enumerate() {
        match *p {
            sub @ ("dlx" | "create") => {
                return Err(runner_refusal(
                    sub,
                    &format!("`yarn {sub}` downloads and runs a package"),
                ))
            }
            "exec" => {
                return Err(runner_refusal(
                    "exec",
                    "`yarn exec` runs a shell command string",
                ))
            }
            "config" => {
                if let Some(action @ ("set" | "unset" | "delete")) = pos.get(i + 1).copied() {
                    return Err(runner_refusal(
                        action,
                        &format!("`yarn config {action}` changes yarn's configuration"),
                    ));
                }
            }
            "node" => {
                let rest: Vec<String> = args
                    .iter()
                    .skip_while(|a| a.as_str() != "node")
                    .skip(1)
                    .cloned()
                    .collect();
                scan_flags("yarn node", &rest, &NODE)?;
                return vet_interpreter_script(&rest, earlier, opts, repo);
            }
            _ => {}
        }
    }
    Ok(())
}

fn exec_flag_refusal(program: &str, flag: &str, what: &str) -> Refusal {
    Refusal::new(
        "check.exec_flag",
        flag,
        format!("`{program} {flag}` {what}"),
        "drop the flag; configure the tool in a file committed to the repository",
    )
}

fn vet_cargo(args: &[String], opts: &CheckModeOptions) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            break;
        }
        let value = if arg == "--config" {
            iter.next().cloned()
        } else {
            arg.strip_prefix("--config=").map(str::to_string)
        };
        if let Some(value) = value {
            if value.contains('=') || repo_relative(&value, &opts.root).is_none() {
                return Err(exec_flag_refusal(
                    "cargo",
                    &format!("--config {value}"),
                    "sets cargo configuration from the command line (runners and wrappers run any program)",
                ));
            }
        }
    }
    match positionals(args).first() {
        Some(&"install") => Err(runner_refusal(
            "install",
            "`cargo install` downloads, builds and installs a crate",
        )),
        _ => Ok(()),
    }
}

fn vet_go(args: &[String]) -> Result<(), Refusal> {
    for arg in args {
        if arg == "--" {
            break;
        }
        let name = arg.trim_start_matches('-').split('=').next().unwrap_or("");
        if arg.starts_with('-') && matches!(name, "toolexec" | "exec" | "overlay") {
            return Err(exec_flag_refusal(
                "go",
                arg,
                "runs another program for each build or test step",
            ));
        }
    }
    let pos = positionals(args);
    if pos.first() == Some(&"env") && args.iter().any(|a| a == "-w" || a == "-u") {
        return Err(exec_flag_refusal(
            "go",
            "env -w",
            "changes go's persistent configuration (GOFLAGS can add -toolexec to every later build)",
        ));
    }
    if let ["run" | "install", target, ..] = pos.as_slice() {
        if target.contains('@') {
            return Err(runner_refusal(
                target,
                &format!("`go run {target}` downloads and runs a module"),
            ));
        }
    }
    Ok(())
}

fn vet_make(args: &[String], opts: &CheckModeOptions) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "-E"
            || arg == "--eval"
            || arg.starts_with("--eval=")
            || (arg.starts_with("-E") && arg.len() > 2)
        {
            return Err(inline_refusal("make", arg));
        }
        if let Some((name, _)) = arg.split_once('=') {
            if matches!(name, "SHELL" | ".SHELLFLAGS" | "MAKEFLAGS" | "MAKESHELL") {
                return Err(exec_flag_refusal(
                    "make",
                    arg,
                    "replaces the shell make runs recipes with",
                ));
            }
        }
        let file = match arg.as_str() {
            "-f" | "--file" | "--makefile" | "-C" | "--directory" => iter.next().cloned(),
            _ => arg
                .strip_prefix("--file=")
                .or_else(|| arg.strip_prefix("--makefile="))
                .or_else(|| arg.strip_prefix("--directory="))
                .or_else(|| arg.strip_prefix("-f").filter(|r| !r.is_empty()))
                .or_else(|| arg.strip_prefix("-C").filter(|r| !r.is_empty()))
                .map(str::to_string),
        };
        if let Some(file) = file {
            if repo_relative(&file, &opts.root).is_none() {
                return Err(Refusal::new(
                    "check.path",
                    file.clone(),
                    format!("the makefile or directory `{file}` is outside the repository"),
                    "use a makefile committed inside the repository",
                ));
            }
        }
    }
    Ok(())
}

/// `bundle exec <program>` runs any program: the program it names is vetted like any other.
fn vet_bundle(
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    let pos = positionals(args);
    match pos.as_slice() {
        ["exec", ..] => {
            let rest: Vec<String> = args
                .iter()
                .skip_while(|a| a.as_str() != "exec")
                .skip(1)
                .skip_while(|a| a.starts_with('-'))
                .cloned()
                .collect();
            if rest.is_empty() {
                return Ok(());
            }
            let inner = SimpleCommand {
                env: Vec::new(),
                argv: rest,
            };
            vet_command(&inner, earlier, opts, repo)
        }
        ["config", action @ ("set" | "unset"), ..] | [action @ "config", _, _, ..] => {
            Err(exec_flag_refusal(
                "bundle config",
                action,
                "changes bundler's configuration (e.g. which Gemfile is loaded)",
            ))
        }
        _ => Ok(()),
    }
}

fn vet_init_scripts(args: &[String], opts: &CheckModeOptions) -> Result<(), Refusal> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let file = match arg.as_str() {
            "-I" | "--init-script" => iter.next().cloned(),
            _ => arg.strip_prefix("--init-script=").map(str::to_string),
        };
        if let Some(file) = file {
            if repo_relative(&file, &opts.root).is_none() {
                return Err(Refusal::new(
                    "check.path",
                    file.clone(),
                    format!("the init script `{file}` is outside the repository"),
                    "use an init script committed inside the repository",
                ));
            }
        }
    }
    Ok(())
}
