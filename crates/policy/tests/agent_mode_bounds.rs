//! Pathological input: always a decision, fast, never a panic or a stack overflow.

use policy::agent::{decide, AgentContext};
use policy::{Decision, Profile, Verdict};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

fn ctx(profile: Profile) -> AgentContext {
    AgentContext {
        cwd: PathBuf::from("/home/dev/project"),
        repo_root: PathBuf::from("/home/dev/project"),
        home: Some(PathBuf::from("/home/dev")),
        write_roots: vec![PathBuf::from("/home/dev/project"), PathBuf::from("/tmp")],
        protected: vec![],
        secret_paths: vec![],
        profile,
    }
}

/// A watchdog for hangs (an exponential walk, a loop that never ends), far above any
/// honest time on a loaded machine: speed is measured in bench/policy.sh, never here.
const HANG: Duration = Duration::from_secs(300);

/// Decide on a thread with a small stack, as a hook process's worst case would be.
fn decide_small_stack(cmd: String, profile: Profile) -> Decision {
    let shown: String = cmd.chars().take(40).collect();
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            // The receiver is gone only when the watchdog already failed the test.
            let _ = tx.send(decide(&cmd, &ctx(profile)));
        })
        .unwrap();
    match rx.recv_timeout(HANG) {
        Ok(d) => {
            worker.join().expect("decide must not panic or overflow");
            d
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            panic!("{shown}...: decide panicked or overflowed its stack")
        }
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{shown}...: no decision: a hang"),
    }
}

#[track_caller]
fn bounded(cmd: String, rule: &str) {
    let shown: String = cmd.chars().take(40).collect();
    let d = decide_small_stack(cmd.clone(), Profile::Standard);
    assert_eq!(
        (d.decision, d.rule.as_str()),
        (Verdict::Ask, rule),
        "{shown}...: {d:?}"
    );
    assert!(!d.reason.is_empty());
    let d = decide_small_stack(cmd, Profile::Strict);
    assert_eq!(
        (d.decision, d.rule.as_str()),
        (Verdict::Deny, rule),
        "strict {shown}..."
    );
}

#[test]
fn thousands_of_nested_substitutions_are_out_of_bounds() {
    bounded(
        format!("echo {}x{}", "$(".repeat(5000), ")".repeat(5000)),
        "parse.bounds",
    );
    bounded(
        format!(
            "echo \"{}x{}\"",
            "$(echo \"".repeat(3000),
            "\")".repeat(3000)
        ),
        "parse.bounds",
    );
    bounded(
        format!("{}ls{}", "(".repeat(10_000), ")".repeat(10_000)),
        "parse.bounds",
    );
    bounded(
        format!("{}x{}", "{ ".repeat(5000), "; }".repeat(5000)),
        "parse.bounds",
    );
    bounded("if true; then ".repeat(2000), "parse.bounds");
}

#[test]
fn unclosed_substitutions_and_quotes_do_not_hang() {
    bounded("$(".repeat(5000), "parse.bounds");
    bounded(format!("echo '{}", "a".repeat(10_000)), "parse.error");
    bounded("echo \"unclosed $(x".to_string(), "parse.error");
}

#[test]
fn ten_megabytes_are_refused_up_front() {
    bounded(
        format!("echo {}", "a".repeat(10 * 1024 * 1024)),
        "parse.bounds",
    );
    bounded(
        format!("cat <<EOF\n{}\nEOF", "line\n".repeat(2 * 1024 * 1024)),
        "parse.bounds",
    );
}

#[test]
fn deep_bash_c_and_eval_nesting_is_bounded() {
    // `eval eval ... cmd`: every level is one more nested shell string, in linear size
    // (quoted `bash -c` nesting grows exponentially and hits the length bound first).
    bounded(format!("{}git status", "eval ".repeat(200)), "parse.bounds");
    bounded(
        format!("bash -c '{}true'", "eval ".repeat(50)),
        "parse.bounds",
    );
    let mut cmd = "rm -rf /".to_string();
    for _ in 0..14 {
        cmd = format!("sh -c {}", shell_quote(&cmd));
    }
    let d = decide_small_stack(cmd, Profile::Standard);
    assert_eq!(d.rule, "parse.bounds", "{d:?}");
    // Inside the bound the innermost command is still found.
    let mut cmd = "rm -rf /".to_string();
    for _ in 0..4 {
        cmd = format!("sh -c {}", shell_quote(&cmd));
    }
    assert_eq!(decide(&cmd, &ctx(Profile::Standard)).rule, "fs.destructive");
    assert_eq!(
        decide(
            &format!("{}rm -rf /", "eval ".repeat(6)),
            &ctx(Profile::Standard)
        )
        .rule,
        "fs.destructive"
    );
}

/// 2,500 nested `env` (and other wrappers): every level was one more frame of the analyser,
/// and the hook died of a stack overflow (exit 134, which the agents read as "proceed").
#[test]
fn thousands_of_nested_wrappers_are_out_of_bounds() {
    bounded(format!("{}rm x", "env ".repeat(2500)), "parse.bounds");
    bounded(
        format!("{}rm x", "sudo nice timeout 5 command ".repeat(700)),
        "parse.bounds",
    );
    bounded(
        format!("echo x | {}rm", "xargs ".repeat(2500)),
        "parse.bounds",
    );
    bounded(
        format!("{}rm x", "find . -exec ".repeat(2500)),
        "parse.bounds",
    );
    // Inside the bound the innermost program is still judged.
    assert_eq!(
        decide(
            &format!("{}rm -rf /", "env ".repeat(30)),
            &ctx(Profile::Standard)
        )
        .rule,
        "fs.destructive"
    );
}

/// `find a b -exec find a b -exec ...`: each start directory is analysed on its own, so 40
/// levels were 2^40 analyses (past the deadline); the number of programs is bounded.
#[test]
fn multiplying_find_roots_are_bounded() {
    bounded(
        format!("{}true", "find a b -exec ".repeat(40)),
        "parse.bounds",
    );
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[test]
fn many_commands_are_bounded() {
    // 120 KB of commands: parsing is linear (release figures: bench/policy.sh).
    let many = "true; ".repeat(20_000);
    let d = decide_small_stack(many, Profile::Standard);
    assert_eq!(d.rule, "parse.bounds", "{d:?}");
    let subs = "echo $(true) ".repeat(10_000);
    let d = decide_small_stack(subs, Profile::Standard);
    assert_ne!(d.decision, Verdict::Allow, "{}", d.rule);
}

#[test]
fn nul_bytes_and_lossy_invalid_utf8_decide() {
    let bytes = b"rm -rf /\xff\xfe\x00 && echo \x00ok";
    let lossy = String::from_utf8_lossy(bytes).into_owned();
    let d = decide_small_stack(lossy, Profile::Standard);
    assert_ne!(d.decision, Verdict::Allow, "{d:?}");
    let d = decide_small_stack("echo a\0b".into(), Profile::Standard);
    assert!(matches!(d.decision, Verdict::Allow | Verdict::Ask), "{d:?}");
    let d = decide_small_stack("\0\0\0".into(), Profile::Standard);
    assert_ne!(d.decision, Verdict::Deny, "{d:?}");
}

#[test]
fn empty_and_blank_commands_are_allowed() {
    for cmd in ["", "   ", "\n\n", "# just a comment"] {
        let d = decide(cmd, &ctx(Profile::Standard));
        assert_eq!(d.decision, Verdict::Allow, "{cmd:?}: {d:?}");
    }
}

mod random_input {
    use super::*;
    use proptest::prelude::*;

    /// Fragments that exercise every construct the walker knows, glued at random.
    const PIECES: &[&str] = &[
        "rm ",
        "-rf ",
        "/ ",
        "~ ",
        "$HOME",
        "${X:-",
        "}",
        "$(",
        ")",
        "`",
        "'",
        "\"",
        "\\",
        "$'\\x72'",
        "<<EOF\n",
        "\nEOF\n",
        "<<<",
        "<(",
        ">(",
        "| ",
        "&& ",
        "|| ",
        "; ",
        "& ",
        "{ ",
        "( ",
        "cd ",
        "bash -c ",
        "eval ",
        "xargs ",
        "find . -exec ",
        "{} ",
        "\\; ",
        "+ ",
        "git ",
        "reset --hard ",
        "curl x ",
        "sh ",
        "python -c ",
        "> ",
        ">> ",
        "2>&1 ",
        "&> ",
        "tee ",
        "sudo ",
        "env A=1 ",
        "timeout 5 ",
        "*",
        ".*",
        "..",
        "/tmp/",
        "if ",
        "then ",
        "fi ",
        "for i in ",
        "do ",
        "done ",
        "case x in ",
        "esac ",
        "\n",
        "\0",
        "\u{fffd}",
        "é",
        "$((",
        "))",
        "[[ ",
        " ]]",
        "loopgate ",
        "install ",
        ".claude/settings.json ",
        "mv ",
        "tar -xC ",
        "dd of=",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]
        #[test]
        fn any_glued_fragments_decide_deterministically_and_strict_is_stricter(
            idx in proptest::collection::vec(0..PIECES.len(), 0..40)
        ) {
            let cmd: String = idx.iter().map(|i| PIECES[*i]).collect();
            let standard = decide(&cmd, &ctx(Profile::Standard));
            prop_assert_eq!(&standard, &decide(&cmd, &ctx(Profile::Standard)));
            let strict = decide(&cmd, &ctx(Profile::Strict));
            prop_assert!(strict.decision >= standard.decision, "{:?}", cmd);
            if standard.decision != Verdict::Allow {
                prop_assert!(!standard.reason.is_empty());
            }
        }
    }
}
