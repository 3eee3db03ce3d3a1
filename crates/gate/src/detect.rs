//! Which checks a repository without `loopgate.toml` gets, from the files that name its stack.

use crate::config::CheckSpec;
use std::path::Path;

/// The stacks loopgate recognises, in the order their checks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stack {
    Cargo,
    Node(NodeRunner),
    Python,
    Go,
    Make,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeRunner {
    Npm,
    Pnpm,
    Yarn,
    Bun,
}

impl Stack {
    pub fn name(self) -> &'static str {
        match self {
            Stack::Cargo => "rust (cargo)",
            Stack::Node(NodeRunner::Npm) => "node (npm)",
            Stack::Node(NodeRunner::Pnpm) => "node (pnpm)",
            Stack::Node(NodeRunner::Yarn) => "node (yarn)",
            Stack::Node(NodeRunner::Bun) => "node (bun)",
            Stack::Python => "python (pytest)",
            Stack::Go => "go",
            Stack::Make => "make",
        }
    }

    pub fn check(self) -> CheckSpec {
        let (name, run) = match self {
            Stack::Cargo => ("cargo-test", "cargo test"),
            Stack::Node(NodeRunner::Npm) => ("npm-test", "npm test"),
            Stack::Node(NodeRunner::Pnpm) => ("pnpm-test", "pnpm test"),
            Stack::Node(NodeRunner::Yarn) => ("yarn-test", "yarn test"),
            Stack::Node(NodeRunner::Bun) => ("bun-test", "bun run test"),
            Stack::Python => ("pytest", "python3 -m pytest"),
            Stack::Go => ("go-test", "go test ./..."),
            Stack::Make => ("make-test", "make test"),
        };
        CheckSpec {
            name: name.into(),
            run: run.into(),
            timeout: None,
            shell: false,
        }
    }
}

/// npm writes this placeholder into every new package.json; it is not a test suite.
const NPM_PLACEHOLDER: &str = "no test specified";

/// Detect stacks from the files at the repository root.
pub fn detect(root: &Path) -> Vec<Stack> {
    let exists = |name: &str| root.join(name).is_file();
    let read = |name: &str| std::fs::read_to_string(root.join(name)).ok();
    let mut stacks = Vec::new();
    if exists("Cargo.toml") {
        stacks.push(Stack::Cargo);
    }
    if let Some(pkg) = read("package.json") {
        if node_has_test_script(&pkg) {
            let runner = if exists("pnpm-lock.yaml") {
                NodeRunner::Pnpm
            } else if exists("yarn.lock") {
                NodeRunner::Yarn
            } else if exists("bun.lockb") || exists("bun.lock") {
                NodeRunner::Bun
            } else {
                NodeRunner::Npm
            };
            stacks.push(Stack::Node(runner));
        }
    }
    let setup_cfg_pytest = read("setup.cfg").is_some_and(|t| t.contains("[tool:pytest]"));
    if exists("pyproject.toml") || exists("pytest.ini") || setup_cfg_pytest {
        stacks.push(Stack::Python);
    }
    if exists("go.mod") {
        stacks.push(Stack::Go);
    }
    if read("Makefile")
        .or_else(|| read("makefile"))
        .is_some_and(|m| makefile_has_test_target(&m))
    {
        stacks.push(Stack::Make);
    }
    stacks
}

pub fn detected_checks(root: &Path) -> Vec<CheckSpec> {
    detect(root).into_iter().map(Stack::check).collect()
}

fn node_has_test_script(package_json: &str) -> bool {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(package_json) else {
        return false;
    };
    value
        .get("scripts")
        .and_then(|s| s.get("test"))
        .and_then(|t| t.as_str())
        .is_some_and(|t| !t.trim().is_empty() && !t.contains(NPM_PLACEHOLDER))
}

fn makefile_has_test_target(makefile: &str) -> bool {
    makefile.lines().any(|line| {
        line.split_once(':').is_some_and(|(targets, rest)| {
            !rest.starts_with('=')
                && !line.starts_with(['\t', ' ', '#'])
                && targets.split_whitespace().any(|t| t == "test")
        })
    })
}

/// The commented `loopgate.toml` that `loopgate init` writes.
pub fn init_template(stacks: &[Stack]) -> String {
    let mut out = String::new();
    out.push_str("# loopgate.toml: what \"done\" means in this repository.\n");
    out.push_str("# Reference: docs/config.md. Remove a section to get its defaults.\n");
    out.push_str("version = 1\n\n");
    if stacks.is_empty() {
        out.push_str("# No stack detected. Declare your checks, for example:\n");
        out.push_str(
            "# [[check]]\n# name = \"test\"\n# run = \"make test\"\n# timeout = \"10m\"\n\n",
        );
    } else {
        let names: Vec<&str> = stacks.iter().map(|s| s.name()).collect();
        out.push_str(&format!("# Detected: {}.\n", names.join(", ")));
        for stack in stacks {
            let check = stack.check();
            out.push_str("[[check]]\n");
            out.push_str(&format!("name = \"{}\"\n", check.name));
            out.push_str(&format!(
                "run = \"{}\"      # vetted: simple commands joined by &&, no shell\n",
                check.run
            ));
            out.push_str("timeout = \"10m\"\n\n");
        }
    }
    out.push_str(
        r#"[guards]                     # each: "fail" | "warn" | "off"
config_edits = "fail"        # loopgate.toml, .loopgate/, agent hook settings
protected_edits = "fail"
deleted_tests = "fail"
new_skips = "fail"
disabled_lint = "fail"
write_escape = "fail"
new_todos = "warn"
debug_artifacts = "warn"
protect = []                 # globs whose edits are findings, e.g. ["Cargo.toml", "jest.config.*"]
test_globs = []              # added to the built-in per-language test globs
test_macros = []             # Rust test macros added to the built-in ones: "name" for #[name], "name!" for a generator
exclude = []                 # paths no guard looks at

[gate]
max_bounces = 3              # consecutive stops without progress before a red stop is let through
fail_fast = false
programs = []                # programs added to the check-mode allowlist

[sandbox]
write_roots = ["."]          # closed: nothing outside these is writable
temp_writable = true
watch_roots = []
confine = "auto"             # auto | required | off

[policy]
profile = "standard"         # observer | standard | strict
allow = []                   # Claude-style rules, e.g. "Bash(cargo test:*)"
ask = []
deny = ["Read(.env)"]
"#,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in files {
            std::fs::write(dir.path().join(name), body).unwrap();
        }
        dir
    }

    #[test]
    fn detects_each_stack() {
        let d = repo(&[
            ("Cargo.toml", "[package]"),
            ("package.json", r#"{"scripts":{"test":"node --test"}}"#),
            ("pnpm-lock.yaml", ""),
            ("pytest.ini", ""),
            ("go.mod", "module x"),
            ("Makefile", "VAR := 1\nbuild test: deps\n\tgo test\n"),
        ]);
        assert_eq!(
            detect(d.path()),
            vec![
                Stack::Cargo,
                Stack::Node(NodeRunner::Pnpm),
                Stack::Python,
                Stack::Go,
                Stack::Make
            ]
        );
    }

    #[test]
    fn npm_placeholder_and_makefile_without_test_are_not_stacks() {
        let d = repo(&[
            (
                "package.json",
                r#"{"scripts":{"test":"echo \"Error: no test specified\" && exit 1"}}"#,
            ),
            ("Makefile", "test_dir = x\nbuild:\n\ttest -f x\n"),
        ]);
        assert!(detect(d.path()).is_empty());
        let bad = repo(&[("package.json", "{not json")]);
        assert!(detect(bad.path()).is_empty());
    }

    #[test]
    fn template_parses_for_every_stack_mix() {
        for stacks in [
            vec![],
            vec![Stack::Cargo, Stack::Go],
            vec![Stack::Node(NodeRunner::Bun)],
        ] {
            let text = init_template(&stacks);
            let config = Config::parse(&text, Path::new("loopgate.toml")).unwrap();
            assert_eq!(config.checks.len(), stacks.len());
        }
    }
}
