//! Which test a skip belongs to. `pytest.importorskip` skips the running test (or, at
//! module level, the whole module) when the import fails, as `pytest.skip()` does. A skip
//! written on a test's declaration line (`test.failing('a', ..)`) belongs to the test that
//! line names: taken off one test and put on another, it is a new skip on the second.
//! Each change is judged uncommitted (against HEAD) and committed (`--against HEAD^`).
//! Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, messages, writing};
use serde_json::Value;

fn assert_no_new_skips(code: Option<i32>, receipt: &Value, mode: &str) {
    assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
    assert_eq!(code, Some(0), "{mode}");
}

fn assert_one_skip(code: Option<i32>, receipt: &Value, mode: &str, path: &str, line: u64) {
    assert_eq!(
        lines_of(receipt, "new_skips"),
        vec![(path.to_string(), line)],
        "{mode}: {receipt}"
    );
    assert_eq!(code, Some(3), "{mode}");
}

const PY_TEST: &str = "tests/test_config.py";

const CONFIG_TESTS: &str = concat!(
    "import json\n",
    "\n",
    "import pytest\n",
    "\n",
    "\n",
    "def test_config_from_json(app):\n",
    "    app.config.from_file(\"c.json\", json.load)\n",
    "    assert app.config[\"A\"] == 1\n",
);

#[test]
fn a_new_test_that_imports_or_skips_adds_a_skip() {
    let changed = format!(
        "{CONFIG_TESTS}\n\ndef test_config_from_toml(app):\n    tomllib = pytest.importorskip(\"tomllib\", reason=\"3.11\")\n    app.config.from_file(\"c.toml\", tomllib.load)\n    assert app.config[\"A\"] == 1\n"
    );
    both_ways(
        &[(PY_TEST, CONFIG_TESTS)],
        &writing(&[(PY_TEST, &changed)]),
        &|code, receipt, mode| {
            assert_one_skip(code, receipt, mode, PY_TEST, 12);
            let message = &messages(receipt, "new_skips")[0];
            assert!(
                message.contains("`pytest.importorskip(`"),
                "{mode}: {message}"
            );
        },
    );
}

#[test]
fn a_module_level_import_or_skip_adds_a_skip() {
    let changed = CONFIG_TESTS.replace(
        "import pytest\n",
        "import pytest\n\npytest.importorskip(\"asgiref\")\n",
    );
    both_ways(
        &[(PY_TEST, CONFIG_TESTS)],
        &writing(&[(PY_TEST, &changed)]),
        &|code, receipt, mode| assert_one_skip(code, receipt, mode, PY_TEST, 5),
    );
}

#[test]
fn an_import_or_skip_moved_to_another_test_file_is_not_new() {
    let with_guard = CONFIG_TESTS.replace(
        "import pytest\n",
        "import pytest\n\npytest.importorskip(\"asgiref\")\n",
    );
    let moved_to = "tests/test_async.py";
    both_ways(
        &[(PY_TEST, &with_guard)],
        &|r| {
            r.remove(PY_TEST);
            r.write(moved_to, &with_guard);
        },
        &assert_no_new_skips,
    );
}

#[test]
fn a_skip_written_out_as_an_import_or_skip_is_the_same_skip() {
    let written_out = CONFIG_TESTS.replace(
        "    app.config.from_file(\"c.json\", json.load)\n",
        "    try:\n        import tomllib\n    except ImportError:\n        pytest.skip(\"3.11\")\n    app.config.from_file(\"c.json\", json.load)\n",
    );
    let one_call = CONFIG_TESTS.replace(
        "    app.config.from_file(\"c.json\", json.load)\n",
        "    tomllib = pytest.importorskip(\"tomllib\", reason=\"3.11\")\n    app.config.from_file(\"c.json\", json.load)\n",
    );
    both_ways(
        &[(PY_TEST, &written_out)],
        &writing(&[(PY_TEST, &one_call)]),
        &assert_no_new_skips,
    );
}

const JS_TEST: &str = "test/headers.js";

const HEADERS: &str = concat!(
    "import test from 'ava';\n",
    "\n",
    "test('removes undefined value headers', async t => {\n",
    "\tt.is(await get('user-agent'), 'undefined');\n",
    "});\n",
    "\n",
    "test.failing('non-existent headers set to undefined are omitted', async t => {\n",
    "\tt.false(await has('blah'));\n",
    "});\n",
);

#[test]
fn an_expected_failure_swapped_onto_another_test_is_a_new_skip() {
    let swapped = HEADERS
        .replace(
            "test('removes undefined",
            "// TODO: enable when fetch can remove default headers\ntest.failing('removes undefined",
        )
        .replace("test.failing('non-existent", "test('non-existent");
    both_ways(
        &[(JS_TEST, HEADERS)],
        &writing(&[(JS_TEST, &swapped)]),
        &|code, receipt, mode| {
            assert_one_skip(code, receipt, mode, JS_TEST, 4);
            let message = &messages(receipt, "new_skips")[0];
            assert!(message.contains("`test.failing`"), "{mode}: {message}");
        },
    );
}

#[test]
fn an_expected_failure_over_a_test_renamed_in_place_is_the_same_skip() {
    let renamed = HEADERS.replace(
        "test.failing('non-existent headers set to undefined are omitted'",
        "test.failing('headers set to undefined that were never there are omitted'",
    );
    both_ways(
        &[(JS_TEST, HEADERS)],
        &writing(&[(JS_TEST, &renamed)]),
        &assert_no_new_skips,
    );
}
