//! Tests switched off under a condition without the word "skip": a Rust `#[cfg(..)]` off
//! under Miri over a test or test module, an early return under `cfg!(miri)` in a doc
//! example, and JUnit 5's `@Enabled*` conditions, each a new skip; a condition moved from
//! an `@EnabledIf` into an assumption in the same test's body, and a Go helper that
//! already ended the test early (and said so) now calling a skip helper, are not. Each
//! change is judged uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, messages, writing};
use serde_json::Value;

fn skips_at(
    path: &'static str,
    lines: &'static [u64],
    label: &'static str,
) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = lines.iter().map(|l| (path.to_string(), *l)).collect();
        assert_eq!(lines_of(receipt, "new_skips"), want, "{mode}: {receipt}");
        for m in messages(receipt, "new_skips") {
            assert!(m.contains(label), "{mode}: {m}");
        }
        assert_eq!(code, Some(3), "{mode}");
    }
}

fn nothing(code: Option<i32>, receipt: &Value, mode: &str) {
    assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
    assert_eq!(code, Some(0), "{mode}");
}

const LIB: &str = "src/lib.rs";
const RUST: &str = "/// Adds.\n///\n/// ```\n/// assert_eq!(demo::add(1, 2), 3);\n/// # Ok::<(), ()>(())\n/// ```\npub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n";

#[test]
fn a_cfg_off_under_miri_put_over_a_test_module_is_a_new_skip() {
    let gated = RUST.replace(
        "#[cfg(test)]\nmod tests",
        "#[cfg(all(\n    feature = \"std\",\n    not(miri),\n))]\n#[cfg(test)]\nmod tests",
    );
    both_ways(
        &[(LIB, RUST)],
        &writing(&[(LIB, &gated)]),
        &skips_at(LIB, &[13], "`#[cfg(not(miri))]`"),
    );
    // Over one test, on a line of its own.
    let gated = RUST.replace("    #[test]\n", "    #[test]\n    #[cfg(not(miri))]\n");
    both_ways(
        &[(LIB, RUST)],
        &writing(&[(LIB, &gated)]),
        &skips_at(LIB, &[14], "`#[cfg(not(miri))]`"),
    );
}

#[test]
fn an_early_return_under_miri_in_a_doc_example_is_a_new_skip() {
    let gated = RUST.replace(
        "/// ```\n/// assert_eq",
        "/// ```\n/// # if cfg!(miri) { return Ok(()); } // too slow\n/// assert_eq",
    );
    both_ways(
        &[(LIB, RUST)],
        &writing(&[(LIB, &gated)]),
        &skips_at(LIB, &[4], "`if cfg!(miri) { return }`"),
    );
}

#[test]
fn platform_gates_miri_gates_over_other_code_and_smaller_work_under_miri_are_not() {
    // A platform gate says where the code exists; a Miri gate over a plain function is no
    // test; a test that does less work under Miri still runs.
    let changed = RUST
        .replace("    #[test]\n", "    #[test]\n    #[cfg(unix)]\n")
        .replace(
            "pub fn add(",
            "#[cfg(not(miri))]\npub fn fast() {}\n\npub fn add(",
        )
        .replace(
            "        assert_eq!(super::add(1, 2), 3);\n",
            "        let n = if cfg!(miri) { 10 } else { 1000 };\n        assert_eq!(super::add(1, n), n + 1);\n",
        );
    both_ways(&[(LIB, RUST)], &writing(&[(LIB, &changed)]), &nothing);
}

const JAVA: &str = "src/test/java/CleanerTest.java";
const JAVA_BODY: &str = concat!(
    "import org.junit.jupiter.api.Test;\n",
    "import org.junit.jupiter.api.condition.EnabledIf;\n",
    "\n",
    "class CleanerTest {\n",
    "    @Test\n",
    "    @EnabledIf(\"isPosix\")\n",
    "    void keepsPermissions() {\n",
    "        check();\n",
    "    }\n",
    "\n",
    "    @Test\n",
    "    void cleans() {\n",
    "        clean();\n",
    "    }\n",
    "}\n",
);

#[test]
fn a_new_test_behind_a_junit_enabled_condition_is_a_new_skip() {
    let changed = JAVA_BODY.replace(
        "    @Test\n    void cleans()",
        "    @Test\n    @EnabledForJreRange(max = JRE.JAVA_23)\n    void cleansNull() {\n        clean(null);\n    }\n\n    @Test\n    void cleans()",
    );
    both_ways(
        &[(JAVA, JAVA_BODY)],
        &writing(&[(JAVA, &changed)]),
        &skips_at(JAVA, &[12], "`@EnabledForJreRange`"),
    );
}

#[test]
fn an_enabled_condition_moved_into_its_tests_body_is_the_same_skip_and_into_another_is_not() {
    let moved = JAVA_BODY.replace(
        "    @EnabledIf(\"isPosix\")\n    void keepsPermissions() {\n",
        "    void keepsPermissions() {\n        assumeTrue(isPosix());\n",
    );
    both_ways(&[(JAVA, JAVA_BODY)], &writing(&[(JAVA, &moved)]), &nothing);
    // Written into the other test's body, it skips a test that ran.
    let elsewhere = JAVA_BODY
        .replace("    @EnabledIf(\"isPosix\")\n", "")
        .replace(
            "        clean();\n",
            "        assumeTrue(isPosix());\n        clean();\n",
        );
    both_ways(
        &[(JAVA, JAVA_BODY)],
        &writing(&[(JAVA, &elsewhere)]),
        &skips_at(JAVA, &[12], "`assumeTrue(`"),
    );
}

const GO: &str = "log_test.go";
const GO_BEFORE: &str = concat!(
    "package log\n",
    "\n",
    "import (\n",
    "\t\"runtime\"\n",
    "\t\"testing\"\n",
    ")\n",
    "\n",
    "func skipCaller(t *testing.T) bool {\n",
    "\tif runtime.Compiler == \"tinygo\" {\n",
    "\t\tt.Log(\"SKIP: TinyGo does not support runtime.Caller\")\n",
    "\t\treturn true\n",
    "\t}\n",
    "\treturn false\n",
    "}\n",
    "\n",
    "func TestCaller(t *testing.T) {\n",
    "\tif skipCaller(t) {\n",
    "\t\treturn\n",
    "\t}\n",
    "\tcheck(t)\n",
    "}\n",
    "\n",
    "func TestCallerField(t *testing.T) {\n",
    "\tif skipCaller(t) {\n",
    "\t\treturn\n",
    "\t}\n",
    "\tcheckField(t)\n",
    "}\n",
);

/// The announcement become a call of a new `skip` helper, under the same `return true`.
fn go_after() -> String {
    GO_BEFORE
        .replace(
            "\tif runtime.Compiler == \"tinygo\" {\n\t\tt.Log(\"SKIP: TinyGo does not support runtime.Caller\")\n\t\treturn true\n\t}\n\treturn false\n}\n",
            concat!(
                "\tswitch runtime.Compiler {\n",
                "\tcase \"tinygo\":\n",
                "\t\tskip(t, \"TinyGo does not support runtime.Caller\")\n",
                "\t\treturn true\n",
                "\tdefault:\n",
                "\t\treturn false\n",
                "\t}\n",
                "}\n",
                "\n",
                "func skip(t *testing.T, msg string) {\n",
                "\tt.Skip(msg)\n",
                "}\n",
            ),
        )
}

#[test]
fn a_helper_that_already_ended_the_test_and_said_so_now_skipping_adds_no_skip_at_its_callers() {
    // What is left is the skip in the new helper's own body: neither its unchanged callers
    // (through the file's count) nor the announcement it replaced.
    let after = go_after();
    both_ways(
        &[(GO, GO_BEFORE)],
        &writing(&[(GO, &after)]),
        &skips_at(GO, &[19], "`t.Skip(`"),
    );
}

#[test]
fn a_new_call_of_the_helper_and_a_helper_that_did_not_end_the_test_are_still_skips() {
    // A new test calling the skip helper is a new skip.
    let after = format!(
        "{}\nfunc TestValue(t *testing.T) {{\n\tskip(t, \"values later\")\n\tcheck(t)\n}}\n",
        go_after()
    );
    both_ways(
        &[(GO, GO_BEFORE)],
        &writing(&[(GO, &after)]),
        &skips_at(GO, &[19, 37], "skip"),
    );
    // A helper that only logged, and did not end the test, now skips: its new skip is
    // reported once, in its body.
    let before = GO_BEFORE.replace(
        "\t\treturn true\n\t}\n\treturn false",
        "\t}\n\treturn false",
    );
    let after = before.replace(
        "\t\tt.Log(\"SKIP: TinyGo does not support runtime.Caller\")\n",
        "\t\tt.Skip(\"TinyGo does not support runtime.Caller\")\n",
    );
    both_ways(
        &[(GO, &before)],
        &writing(&[(GO, &after)]),
        &skips_at(GO, &[10], "`t.Skip(`"),
    );
}
