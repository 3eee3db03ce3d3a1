//! A bare `return` written into a test in front of the rest of its body switches the
//! test's checks off as surely as a skip marker, with no skip in the test report: a new
//! skip. A `return` that ends a guarded block, one that returns a value, and one that was
//! already there are not. Each change is judged uncommitted and committed. Real
//! repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, guard, lines_of, writing};
use serde_json::Value;

const PY: &str = "tests/test_store.py";
const PY_BODY: &str = "from store import put\n\n\ndef test_put():\n    assert put(1) is None\n    assert put(2) is None\n";
const JS: &str = "test/store.test.js";
const JS_BODY: &str = "const { put } = require('../store');\n\ntest('put', () => {\n  expect(put(1)).toBe(undefined);\n});\n";

fn skipped_at(path: &'static str, line: u64) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        assert_eq!(
            lines_of(receipt, "new_skips"),
            vec![(path.to_string(), line)],
            "{mode}: {receipt}"
        );
        let message = guard(receipt, "new_skips")["findings"][0]["message"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(message.contains("never runs"), "{mode}: {message}");
        assert_eq!(code, Some(3), "{mode}");
    }
}

fn nothing(code: Option<i32>, receipt: &Value, mode: &str) {
    assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
    assert_eq!(code, Some(0), "{mode}");
}

#[test]
fn a_return_in_front_of_a_tests_checks_is_a_new_skip() {
    let py = PY_BODY.replace("def test_put():\n", "def test_put():\n    return\n");
    both_ways(&[(PY, PY_BODY)], &writing(&[(PY, &py)]), &skipped_at(PY, 5));
    let js = JS_BODY.replace("() => {\n", "() => {\n  return;\n");
    both_ways(&[(JS, JS_BODY)], &writing(&[(JS, &js)]), &skipped_at(JS, 4));
}

#[test]
fn a_guarded_return_a_returned_value_and_a_kept_return_are_not() {
    let guarded = PY_BODY.replace(
        "def test_put():\n",
        "def test_put():\n    if not HAVE_STORE:\n        return\n",
    );
    both_ways(&[(PY, PY_BODY)], &writing(&[(PY, &guarded)]), &nothing);
    let value = JS_BODY.replace(
        "  expect(put(1)).toBe(undefined);\n",
        "  return put(1).then((v) => expect(v).toBe(undefined));\n",
    );
    both_ways(&[(JS, JS_BODY)], &writing(&[(JS, &value)]), &nothing);
    // Already there before the change, and only the line after it was edited.
    let before = PY_BODY.replace("def test_put():\n", "def test_put():\n    return\n");
    let after = before.replace("put(2)", "put(3)");
    both_ways(&[(PY, &before)], &writing(&[(PY, &after)]), &nothing);
    // Not a test file: a function returning early is ordinary code.
    let src = "src/store.py";
    let body = "def put(x):\n    print(x)\n    return None\n";
    let early = "def put(x):\n    return\n    print(x)\n";
    both_ways(&[(src, body)], &writing(&[(src, early)]), &nothing);
}
