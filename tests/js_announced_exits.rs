//! A JavaScript test that says it skips itself and leaves: `t.pass('.. skipping test');
//! return;` with the test going on after the block is a skip; the same exit without the
//! words, or with nothing after it, is not. Each change is judged uncommitted (against
//! HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, no_new_skips, skips_at, writing};

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
