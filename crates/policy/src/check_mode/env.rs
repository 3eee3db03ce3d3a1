//! Environment assignments that change what a program loads or runs.
//!
//! `FOO=1 cargo test` is fine; `NODE_OPTIONS=--require ./x.js npm test` turns an
//! allowlisted program into a launcher for arbitrary code, so it is refused.

/// Why assigning `name` before a check command is dangerous, or `None` when it is not.
pub fn dangerous_env(name: &str) -> Option<&'static str> {
    let upper = name.to_ascii_uppercase();
    let exact: &[(&str, &str)] = &[
        (
            "NODE_OPTIONS",
            "node reads extra flags from it, including --require and --import",
        ),
        ("NODE_PATH", "it changes where node resolves modules from"),
        (
            "BASH_ENV",
            "every bash started by the check sources the file it names",
        ),
        (
            "ENV",
            "every POSIX shell started by the check sources the file it names",
        ),
        (
            "SHELLOPTS",
            "it changes how every shell started by the check behaves",
        ),
        (
            "BASHOPTS",
            "it changes how every bash started by the check behaves",
        ),
        ("PS4", "bash evaluates it when tracing"),
        ("PROMPT_COMMAND", "bash runs it as a command"),
        (
            "IFS",
            "it changes how shells started by the check split words",
        ),
        (
            "PATH",
            "it decides which program a name like `cargo` resolves to",
        ),
        (
            "HOME",
            "tools read their configuration (and hooks) from the home directory",
        ),
        ("SHELL", "tools that spawn a shell use the program it names"),
        ("PYTHONSTARTUP", "python runs the file it names"),
        (
            "PYTHONPATH",
            "python imports modules (and sitecustomize) from it first",
        ),
        (
            "PYTHONHOME",
            "it changes which python standard library is loaded",
        ),
        (
            "PYTHONINSPECT",
            "it makes python read code from stdin after the script",
        ),
        (
            "PYTHONUSERBASE",
            "python loads site packages (and their .pth code) from it",
        ),
        (
            "PYTEST_ADDOPTS",
            "pytest reads extra flags from it, including -p to load a plugin",
        ),
        ("PYTEST_PLUGINS", "pytest imports the modules it names"),
        ("RUBYOPT", "ruby reads extra flags from it, including -r"),
        ("RUBYLIB", "it changes where ruby loads libraries from"),
        (
            "PERL5OPT",
            "perl reads extra flags from it, including -M and -e",
        ),
        ("PERL5LIB", "it changes where perl loads modules from"),
        ("PERLLIB", "it changes where perl loads modules from"),
        (
            "JAVA_TOOL_OPTIONS",
            "the JVM reads extra flags from it, including -javaagent",
        ),
        (
            "_JAVA_OPTIONS",
            "the JVM reads extra flags from it, including -javaagent",
        ),
        (
            "JDK_JAVA_OPTIONS",
            "the java launcher reads extra flags from it",
        ),
        (
            "DOTNET_STARTUP_HOOKS",
            ".NET loads and runs the assemblies it names",
        ),
        (
            "RUSTC_WRAPPER",
            "cargo runs every compiler call through the program it names",
        ),
        (
            "RUSTC_WORKSPACE_WRAPPER",
            "cargo runs compiler calls through the program it names",
        ),
        ("RUSTC", "cargo runs the program it names as the compiler"),
        ("RUSTDOC", "cargo runs the program it names as rustdoc"),
        ("RUSTFLAGS", "it can set the linker, which runs any program"),
        (
            "RUSTDOCFLAGS",
            "it can set the doctest runner, which runs any program",
        ),
        ("CC", "build scripts run the program it names"),
        ("CXX", "build scripts run the program it names"),
        ("LD", "build scripts run the program it names"),
        ("AR", "build scripts run the program it names"),
        (
            "MAKEFLAGS",
            "make reads extra flags from it, including --eval",
        ),
        ("MAKEFILES", "make reads the makefiles it names first"),
        (
            "GOFLAGS",
            "go reads extra flags from it, including -toolexec",
        ),
        (
            "EDITOR",
            "tools that open an editor run the program it names",
        ),
        (
            "VISUAL",
            "tools that open an editor run the program it names",
        ),
        ("PAGER", "tools that page output run the program it names"),
        (
            "BROWSER",
            "tools that open a browser run the program it names",
        ),
    ];
    if let Some((_, why)) = exact.iter().find(|(n, _)| *n == upper) {
        return Some(why);
    }
    let prefixes: &[(&str, &str)] = &[
        (
            "LD_",
            "the dynamic loader reads it (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT ...)",
        ),
        ("DYLD_", "the macOS dynamic loader reads it"),
        (
            "GIT_",
            "git reads hooks, config and programs to run from GIT_* variables",
        ),
        (
            "NPM_CONFIG_",
            "npm reads configuration from it, including script-shell",
        ),
        ("YARN_", "yarn reads configuration from it"),
        ("PNPM_", "pnpm reads configuration from it"),
        (
            "BUNDLE_",
            "bundler reads configuration (the Gemfile to load) from it",
        ),
        ("BASH_FUNC_", "bash imports functions from it"),
    ];
    if let Some((_, why)) = prefixes.iter().find(|(p, _)| upper.starts_with(p)) {
        return Some(why);
    }
    // Cargo's config can be set from the environment (CARGO_BUILD_RUSTC_WRAPPER,
    // CARGO_TARGET_<triple>_RUNNER ...); only terminal settings are harmless.
    if upper.starts_with("CARGO_") && !upper.starts_with("CARGO_TERM_") {
        return Some(
            "cargo reads configuration from CARGO_* variables, including runners and wrappers",
        );
    }
    if upper.ends_with("_OPTIONS") || upper.ends_with("_OPTS") {
        return Some("tools read extra command-line flags from *_OPTIONS / *_OPTS variables");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::dangerous_env;

    #[test]
    fn loaders_and_hooks_are_dangerous() {
        for name in [
            "NODE_OPTIONS",
            "LD_PRELOAD",
            "LD_LIBRARY_PATH",
            "BASH_ENV",
            "ENV",
            "PYTHONSTARTUP",
            "GIT_CONFIG_GLOBAL",
            "GIT_EXEC_PATH",
            "npm_config_script_shell",
            "CARGO_BUILD_RUSTC_WRAPPER",
            "MAVEN_OPTS",
            "PATH",
        ] {
            assert!(dangerous_env(name).is_some(), "{name}");
        }
    }

    #[test]
    fn ordinary_settings_are_fine() {
        for name in [
            "FOO",
            "CI",
            "RUST_BACKTRACE",
            "RUST_LOG",
            "NODE_ENV",
            "CARGO_TERM_COLOR",
            "PYTEST_TIMEOUT",
        ] {
            assert!(dangerous_env(name).is_none(), "{name}");
        }
    }
}
