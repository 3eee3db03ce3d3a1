//! A Rust test that returns early under a condition (`let Some(x) = probe() else { return
//! };`, `if !has_bash() { return; }`) before the rest of its checks passes without
//! checking anything whenever the condition holds: a skip the test report does not show,
//! so a new one is a new skip. An exit that fails the test, one in a helper or a loop, and
//! one in a test run once per case are not. Each change is judged uncommitted and
//! committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, messages, writing};
use serde_json::Value;

const RS: &str = "tests/shell.rs";
const BODY: &str = "use std::process::Command;\n\n#[test]\nfn prints_version() {\n    let out = Command::new(\"tool\").arg(\"--version\").output().unwrap();\n    assert!(out.status.success());\n}\n";

fn with_test(test: &str) -> String {
    format!("{BODY}\n{test}")
}

fn skipped_at(line: u64) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        assert_eq!(
            lines_of(receipt, "new_skips"),
            vec![(RS.to_string(), line)],
            "{mode}: {receipt}"
        );
        let message = &messages(receipt, "new_skips")[0];
        assert!(
            message.contains("returns early under a condition"),
            "{mode}: {message}"
        );
        assert_eq!(code, Some(3), "{mode}");
    }
}

#[test]
fn a_new_test_that_returns_when_what_it_needs_is_missing_is_a_new_skip() {
    // The new test starts at line 9; its `let .. else` is line 12.
    let let_else = with_test(
        "#[test]\n#[cfg(unix)]\nfn sources_in_posix_mode() {\n    let Some(complaint) = source_in_posix_mode(\"x.bash\") else {\n        return;\n    };\n    assert_eq!(complaint, \"not a valid identifier\");\n}\n\nfn source_in_posix_mode(script: &str) -> Option<String> {\n    let probe = Command::new(\"bash\").arg(\"--version\").output().ok()?;\n    if !probe.status.success() {\n        return None;\n    }\n    Some(script.to_string())\n}\n",
    );
    both_ways(&[(RS, BODY)], &writing(&[(RS, &let_else)]), &skipped_at(12));
    let if_return = with_test(
        "#[test]\nfn completes_in_bash() {\n    if !has_bash() { return; }\n    assert!(complete(\"bash\"));\n}\n",
    );
    both_ways(
        &[(RS, BODY)],
        &writing(&[(RS, &if_return)]),
        &skipped_at(11),
    );
    // Put into an existing test.
    let gated = BODY.replace(
        "fn prints_version() {\n",
        "fn prints_version() {\n    if std::env::var_os(\"CI\").is_some() {\n        return;\n    }\n",
    );
    both_ways(&[(RS, BODY)], &writing(&[(RS, &gated)]), &skipped_at(5));
}

/// The 1-based number of the line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> u64 {
    text.lines().position(|l| l.contains(needle)).unwrap() as u64 + 1
}

#[test]
fn exits_that_fail_end_a_helper_or_a_case_are_not_skips() {
    // One change holds each lookalike and, last, one real conditional exit: only that one
    // is reported.
    let lookalikes = with_test(concat!(
        // The else fails the test: a missing tool is a failure, not a pass.
        "#[test]\nfn fails_without_bash() {\n    let Some(complaint) = probe() else {\n        panic!(\"bash is missing\");\n    };\n    assert_eq!(complaint, \"x\");\n}\n\n",
        // The early returns are in a helper the tests call.
        "fn probe() -> Option<String> {\n    let Some(x) = which(\"bash\") else {\n        return None;\n    };\n    if x.is_empty() {\n        return;\n    }\n    Some(x)\n}\n\n",
        // Inside a loop over cases, and in a test run once per case.
        "#[test]\nfn every_case() {\n    for case in cases() {\n        if case.is_empty() {\n            return;\n        }\n        check(case);\n    }\n}\n\n",
        "#[rstest]\n#[case(0)]\nfn one_case(#[case] n: u8) {\n    if n == 0 {\n        return;\n    }\n    check(n);\n}\n\n",
        // An exit that ends the test: nothing after it is skipped.
        "#[test]\nfn drains() {\n    drain();\n    if empty() {\n        return;\n    }\n}\n\n",
        // An if whose else goes on: a branch, not an exit in front of the rest.
        "#[test]\nfn branches() {\n    if fast() {\n        return;\n    } else {\n        slow();\n    }\n    check();\n}\n\n",
        "#[test]\nfn needs_zsh() {\n    let Ok(zsh) = which(\"zsh\") else { return };\n    assert!(complete(zsh));\n}\n",
    ));
    let real = line_of(&lookalikes, "let Ok(zsh)");
    both_ways(
        &[(RS, BODY)],
        &writing(&[(RS, &lookalikes)]),
        &skipped_at(real),
    );
}
