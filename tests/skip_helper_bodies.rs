//! The skip in the body of a skip helper the change writes, and a JavaScript test that
//! says it skips itself and leaves. A new helper (`func skip(t, msg) { t.Skip(msg) }`, a
//! private Kotlin function opening with `assumeTrue(..)`) skips the tests that call it,
//! and each new call is reported; the skip in its own body is not reported again. A new
//! helper nobody calls keeps its body's skip. A JS test's `t.pass('.. skipping test');
//! return;` with the test going on after the block is a skip; the same exit without the
//! words, or with nothing after it, is not. Each change is judged uncommitted (against
//! HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};
use serde_json::Value;

fn no_new_skips(code: Option<i32>, receipt: &Value, mode: &str) {
    assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
    assert_eq!(code, Some(0), "{mode}: {receipt}");
}

fn skips_at(found: &'static [(&'static str, u64)]) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = found.iter().map(|&(p, l)| (p.to_string(), l)).collect();
        assert_eq!(lines_of(receipt, "new_skips"), want, "{mode}: {receipt}");
        assert_eq!(code, Some(3), "{mode}");
    }
}

const GO_MOD: (&str, &str) = ("go.mod", "module x\n\ngo 1.21\n");
const GO_TEST: &str = "a_test.go";
const GO_BEFORE: &str = concat!(
    "package x\n",
    "\n",
    "import \"testing\"\n",
    "\n",
    "func TestOne(t *testing.T) {\n",
    "\tif 1 != 1 {\n",
    "\t\tt.Fatal(\"x\")\n",
    "\t}\n",
    "}\n",
);

const GO_HELPER: &str = concat!(
    "\n",
    "func skip(t *testing.T, msg string) {\n",
    "\tt.Skip(msg)\n",
    "}\n",
);

#[test]
fn a_new_helper_called_by_a_new_test_is_reported_at_the_call_only() {
    let after = format!(
        "{GO_BEFORE}{GO_HELPER}\nfunc TestTwo(t *testing.T) {{\n\tskip(t, \"later\")\n\tif 2 != 2 {{\n\t\tt.Fatal(\"y\")\n\t}}\n}}\n"
    );
    both_ways(
        &[GO_MOD, (GO_TEST, GO_BEFORE)],
        &writing(&[(GO_TEST, &after)]),
        &skips_at(&[(GO_TEST, 16)]),
    );
}

#[test]
fn a_new_helper_nobody_calls_keeps_its_own_skip() {
    let after = format!("{GO_BEFORE}{GO_HELPER}");
    both_ways(
        &[GO_MOD, (GO_TEST, GO_BEFORE)],
        &writing(&[(GO_TEST, &after)]),
        &skips_at(&[(GO_TEST, 12)]),
    );
}

const KT_TEST: &str = "src/test/kotlin/x/DnsTest.kt";
const KT_BEFORE: &str = concat!(
    "package x\n",
    "\n",
    "import org.junit.jupiter.api.Assumptions.assumeTrue\n",
    "import org.junit.jupiter.api.Test\n",
    "\n",
    "class DnsTest {\n",
    "  private val sequential = System.getenv(\"SEQ\") != null\n",
    "\n",
    "  @Test\n",
    "  fun lookup() {\n",
    "    check(true)\n",
    "  }\n",
    "}\n",
);

#[test]
fn a_new_private_assuming_helper_is_reported_at_its_new_callers() {
    let after = KT_BEFORE.replace(
        "    check(true)\n  }\n}\n",
        concat!(
            "    check(true)\n",
            "  }\n",
            "\n",
            "  @Test\n",
            "  fun first() = calledInOrder()\n",
            "\n",
            "  @Test\n",
            "  fun second() = calledInOrder()\n",
            "\n",
            "  private fun calledInOrder() {\n",
            "    assumeTrue(sequential)\n",
            "    check(true)\n",
            "  }\n",
            "}\n",
        ),
    );
    both_ways(
        &[(KT_TEST, KT_BEFORE)],
        &writing(&[(KT_TEST, &after)]),
        &skips_at(&[(KT_TEST, 15), (KT_TEST, 18)]),
    );
}

const JS_TEST: &str = "test/cache.ts";
const JS_BEFORE: &str = concat!(
    "import test from 'ava';\n",
    "\n",
    "test('one', t => {\n",
    "\tt.is(1, 1);\n",
    "});\n",
);

fn js_exit(said: &str, after_block: &str) -> String {
    format!(
        "{JS_BEFORE}\ntest('two', async t => {{\n\tlet lru;\n\ttry {{\n\t\tlru = (await import('quick-lru')).default;\n\t}} catch {{\n\t\tt.pass('{said}');\n\t\treturn;\n\t}}\n{after_block}}});\n"
    )
}

#[test]
fn a_js_test_that_says_it_skips_and_returns_is_a_skip() {
    let after = js_exit(
        "QuickLRU not available, skipping test",
        "\n\tt.truthy(new lru({maxSize: 1}));\n",
    );
    both_ways(
        &[(JS_TEST, JS_BEFORE)],
        &writing(&[(JS_TEST, &after)]),
        &skips_at(&[(JS_TEST, 12)]),
    );
}

#[test]
fn a_js_return_without_the_words_or_with_nothing_after_it_is_not_a_skip() {
    let unsaid = js_exit(
        "import failed as expected",
        "\n\tt.truthy(new lru({maxSize: 1}));\n",
    );
    both_ways(
        &[(JS_TEST, JS_BEFORE)],
        &writing(&[(JS_TEST, &unsaid)]),
        &no_new_skips,
    );
    let last = js_exit("QuickLRU not available, skipping test", "");
    both_ways(
        &[(JS_TEST, JS_BEFORE)],
        &writing(&[(JS_TEST, &last)]),
        &no_new_skips,
    );
}
