//! Which programs a check may run, where scripts may live, and the dispatch to the
//! per-program flag rules (`interpreters`, `runners`, `tools`).

use super::interpreters::*;
use super::runners::*;
use super::tools::*;
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

pub(super) fn basename(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// `python3.12` -> `python`, `node.exe` -> `node`: the flag rules of a program family.
/// Names are normalised by the one program model ([`crate::programs`]).
pub(super) fn family(program: &str) -> String {
    let base = crate::programs::normalise(program).to_ascii_lowercase();
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

/// A shell, or a multi-call binary that is one (`busybox sh`).
pub fn is_shell(program: &str) -> bool {
    crate::programs::is_shell(program)
        || matches!(
            crate::programs::normalise(program).as_str(),
            "busybox" | "toybox"
        )
}

/// Runs another program or a code string (from the one program table), `gdb` included.
pub fn is_wrapper(program: &str) -> bool {
    crate::programs::is_wrapper(program) || crate::programs::normalise(program) == "gdb"
}

/// Why adding `program` to `[gate] programs` deserves a human's eye, if it does.
pub fn suspicious_program(program: &str) -> Option<String> {
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
    if crate::programs::is_interpreter(program) {
        return Some(format!(
            "`{program}` is an interpreter that accepts inline code"
        ));
    }
    if matches!(
        crate::programs::role(program),
        Some(crate::programs::Role::Launcher | crate::programs::Role::Downloader)
    ) {
        return Some(format!(
            "`{program}` can run arbitrary commands through its own options"
        ));
    }
    if program.starts_with('/') || program.starts_with("..") {
        return Some(format!("`{program}` is a path outside the repository"));
    }
    None
}

pub(super) const SCRIPT: &str =
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
pub(super) fn vet_script_path(
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
    if let Some(target) = repo.link_target(&rel) {
        // A committed `scripts/run -> /bin/sh` is a shell under another name.
        let target = target.to_string_lossy().to_string();
        if is_shell(&target)
            || is_wrapper(&target)
            || crate::programs::is_interpreter(&target)
            || repo_relative(&target, &opts.root).is_none()
                && !target.starts_with('.')
                && target.starts_with('/')
        {
            return Err(Refusal::new(
                "check.shell",
                path,
                format!("{role} `{path}` is a symlink to `{target}`, a program that runs any code it is given"),
                "commit the script itself, not a link to a shell or interpreter",
            ));
        }
    }
    Ok(())
}

pub(super) fn repo_relative(path: &str, root: &Path) -> Option<PathBuf> {
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
pub(super) fn names_path(cmd: &SimpleCommand, rel: &Path, root: &Path) -> bool {
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
pub(super) fn c_is_pathy(arg: &str) -> bool {
    let value = arg.split_once('=').map(|(_, v)| v).unwrap_or(arg);
    value.contains('/') || value.starts_with('.')
}

pub(super) fn vet_args(
    family: &str,
    args: &[String],
    earlier: &[SimpleCommand],
    opts: &CheckModeOptions,
    repo: &dyn Repo,
) -> Result<(), Refusal> {
    match family {
        "node" => {
            scan_flags(family, args, &NODE)?;
            vet_node_extras(args)?;
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

pub(super) fn positionals(args: &[String]) -> Vec<&str> {
    args.iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect()
}
