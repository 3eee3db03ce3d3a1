//! Shapes from a set of histories no rule was tuned on (werkzeug, mocha, validator):
//! - a test framework's own fixture files (under `fixtures/`, or named `*.fixture.*`, and
//!   named by a test of the change) are the input of a test, not tests of the suite;
//! - `pytest.importorskip("m")` in place of a skip whose condition read only `m` is the
//!   same skip, and one that replaces any other condition is not called unconditional;
//! - an ESLint block or file-scope disable replaced by line-level disables of its rules
//!   inside its old reach is narrowed;
//! - an analyzer of govet turned off in a golangci-lint configuration is a suppression;
//! - a `type: ignore` list rewritten to name mypy's catch-all `misc` widened.
//!
//! Each lookalike that does lower the bar still fires. Each change is judged uncommitted
//! (against HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{
    assert_one_deleted, both_ways, lines_of, lint_at, messages, no_new_skips, skips_at, writing,
    Repo,
};
use serde_json::Value;

const FIXTURE: &str = "test/integration/fixtures/options/dry-run.fixture.js";
const SKIPPING_FIXTURE: &str = concat!(
    "'use strict';\n",
    "\n",
    "describe.only('suite1', function () {\n",
    "  it.skip('test1 - report as skipped', function () {});\n",
    "  it('test2', function () {});\n",
    "});\n",
);
const SPEC: &str = "test/integration/options/dry-run.spec.js";
const RUNS_IT: &str = concat!(
    "'use strict';\n",
    "\n",
    "describe('--dry-run', function () {\n",
    "  it('reports without running', function (done) {\n",
    "    var fixture = path.join('options', 'dry-run');\n",
    "    runMochaJSON(fixture, ['--dry-run'], done);\n",
    "  });\n",
    "});\n",
);
const BASE: &str = "test/unit/base.spec.js";
const BASE_TEXT: &str = "'use strict';\n\nit('works', function () {});\n";

/// A new fixture whose `.only` and `.skip` are what the new spec checks.
#[test]
fn skips_in_a_new_fixture_a_test_runs_are_not_new_skips() {
    both_ways(
        &[(BASE, BASE_TEXT)],
        &writing(&[(FIXTURE, SKIPPING_FIXTURE), (SPEC, RUNS_IT)]),
        &no_new_skips,
    );
}

/// Lookalikes: the same file that no test of the change names, and a file named by a test
/// whose path is no data path, skip tests of the suite.
#[test]
fn skips_in_a_fixture_nothing_names_or_outside_a_data_path_still_fire() {
    both_ways(
        &[(BASE, BASE_TEXT)],
        &writing(&[(FIXTURE, SKIPPING_FIXTURE)]),
        &skips_at(&[(FIXTURE, 3), (FIXTURE, 4)]),
    );
    const REAL: &str = "test/integration/options/dry-run.js";
    both_ways(
        &[(BASE, BASE_TEXT)],
        &writing(&[(REAL, SKIPPING_FIXTURE), (SPEC, RUNS_IT)]),
        &skips_at(&[(REAL, 3), (REAL, 4)]),
    );
}

const DEPRECATE: &str = "test/integration/fixtures/deprecate.fixture.js";
const DEPRECATE_TEXT: &str =
    "'use strict';\n\nit('warns once', function () {\n  deprecate('thing');\n});\n";
const DEPRECATE_SPEC: &str = "test/integration/deprecate.spec.js";
const DEPRECATE_SPEC_TEXT: &str = concat!(
    "'use strict';\n",
    "\n",
    "it('prints a deprecation once', function (done) {\n",
    "  run('deprecate.fixture.js', [], function (err, res) {\n",
    "    assert.strictEqual(res.output.match(/thing/g).length, 1);\n",
    "    done(err);\n",
    "  });\n",
    "});\n",
);

fn removing(paths: &'static [&'static str]) -> impl Fn(&Repo) {
    move |r| {
        for p in paths {
            r.remove(p);
        }
    }
}

/// The test and its fixture deleted together: the test is the loss, counted once.
#[test]
fn a_fixture_deleted_with_the_test_that_ran_it_is_not_a_deleted_test() {
    both_ways(
        &[
            (DEPRECATE, DEPRECATE_TEXT),
            (DEPRECATE_SPEC, DEPRECATE_SPEC_TEXT),
            (BASE, BASE_TEXT),
        ],
        &removing(&[DEPRECATE, DEPRECATE_SPEC]),
        &assert_one_deleted(DEPRECATE_SPEC, "deleted with 1 test"),
    );
}

/// Lookalike: a file under `fixtures/` that no test of the change names is deleted with
/// its test.
#[test]
fn a_fixture_no_test_of_the_change_names_is_still_a_deleted_test() {
    both_ways(
        &[(DEPRECATE, DEPRECATE_TEXT), (BASE, BASE_TEXT)],
        &removing(&[DEPRECATE]),
        &assert_one_deleted(DEPRECATE, "deleted with 1 test"),
    );
}

const SERVING: &str = "tests/test_serving.py";
const WATCHDOG_BEFORE: &str = concat!(
    "import importlib.metadata\n",
    "\n",
    "import pytest\n",
    "\n",
    "try:\n",
    "    watchdog_version: str = importlib.metadata.version(\"watchdog\")\n",
    "except importlib.metadata.PackageNotFoundError:\n",
    "    watchdog_version = \"\"\n",
    "\n",
    "require_watchdog = pytest.mark.skipif(\n",
    "    not watchdog_version, reason=\"watchdog not installed\"\n",
    ")\n",
    "\n",
    "\n",
    "@pytest.mark.parametrize(\n",
    "    \"reloader_type\", [\"stat\", pytest.param(\"watchdog\", marks=[require_watchdog])]\n",
    ")\n",
    "def test_reloader(reloader_type):\n",
    "    assert reload(reloader_type)\n",
    "\n",
    "\n",
    "@require_watchdog\n",
    "def test_ignores_opened():\n",
    "    assert opened()\n",
    "\n",
    "\n",
    "@pytest.mark.skipif(\n",
    "    watchdog_version < \"5\",\n",
    "    reason=\"'closed no write' event introduced in watchdog 5.0\",\n",
    ")\n",
    "def test_ignores_closed():\n",
    "    assert closed()\n",
);
const WATCHDOG_AFTER: &str = concat!(
    "import pytest\n",
    "\n",
    "\n",
    "@pytest.mark.parametrize(\"reloader_type\", [\"stat\", \"watchdog\"])\n",
    "def test_reloader(reloader_type):\n",
    "    if reloader_type == \"watchdog\":\n",
    "        pytest.importorskip(\"watchdog\")\n",
    "\n",
    "    assert reload(reloader_type)\n",
    "\n",
    "\n",
    "def test_ignores_opened():\n",
    "    pytest.importorskip(\"watchdog\")\n",
    "    assert opened()\n",
    "\n",
    "\n",
    "def test_ignores_closed():\n",
    "    pytest.importorskip(\"watchdog\")\n",
    "    assert closed()\n",
);

/// Skips on whether watchdog is installed (an alias, a version floor, a parameter's marks)
/// rewritten as `importorskip("watchdog")` in the bodies: the same condition, or a narrower
/// one.
#[test]
fn importorskip_of_the_module_a_removed_skip_read_is_the_same_skip() {
    both_ways(
        &[(SERVING, WATCHDOG_BEFORE)],
        &writing(&[(SERVING, WATCHDOG_AFTER)]),
        &no_new_skips,
    );
}

/// Lookalikes: a skip for another reason rewritten as an `importorskip` skips under
/// another condition (and it is not called unconditional); an `importorskip` in a test
/// that skipped on nothing before is new.
#[test]
fn importorskip_in_place_of_another_condition_or_of_none_still_fires() {
    let before = "import sys\n\nimport pytest\n\n\n@pytest.mark.skipif(sys.platform == \"win32\", reason=\"no signals\")\ndef test_signals():\n    assert signals()\n\n\ndef test_plain():\n    assert plain()\n";
    let after = "import sys\n\nimport pytest\n\n\ndef test_signals():\n    pytest.importorskip(\"watchdog\")\n    assert signals()\n\n\ndef test_plain():\n    pytest.importorskip(\"watchdog\")\n    assert plain()\n";
    both_ways(
        &[(SERVING, before)],
        &writing(&[(SERVING, after)]),
        &|code, receipt: &Value, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(SERVING.to_string(), 7), (SERVING.to_string(), 12)],
                "{mode}: {receipt}"
            );
            let said = messages(receipt, "new_skips");
            assert!(
                said.iter().any(|m| m.contains("under another condition")),
                "{mode}: {said:?}"
            );
            assert!(
                !said.iter().any(|m| m.contains("made unconditional")),
                "{mode}: {said:?}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const XUNIT: &str = "test/reporters/xunit.spec.js";
const BLOCK: &str = concat!(
    "'use strict';\n",
    "\n",
    "it('writes to stdout', function () {\n",
    "  /* eslint-disable no-global-assign */\n",
    "  process = false;\n",
    "  run();\n",
    "  process = realProcess;\n",
    "  /* eslint-enable no-global-assign */\n",
    "});\n",
    "\n",
    "it('other', function () {\n",
    "  other = 1;\n",
    "});\n",
);

/// The block disable becomes a line disable on each of the two assignments it covered.
#[test]
fn an_eslint_block_replaced_by_line_disables_inside_it_is_narrowed() {
    let lines = BLOCK
        .replace("  /* eslint-disable no-global-assign */\n", "")
        .replace("  /* eslint-enable no-global-assign */\n", "")
        .replace(
            "process = false;",
            "process = false; // eslint-disable-line no-global-assign",
        )
        .replace(
            "process = realProcess;",
            "process = realProcess; // eslint-disable-line no-global-assign",
        );
    both_ways(
        &[(XUNIT, BLOCK)],
        &writing(&[(XUNIT, &lines)]),
        &lint_at(vec![]),
    );
}

/// Lookalike: a line disable of the block's rule on code the block did not cover is new.
#[test]
fn a_line_disable_outside_the_old_block_still_fires() {
    let lines = BLOCK
        .replace("  /* eslint-disable no-global-assign */\n", "")
        .replace("  /* eslint-enable no-global-assign */\n", "")
        .replace(
            "other = 1;",
            "other = 1; // eslint-disable-line no-global-assign",
        );
    both_ways(
        &[(XUNIT, BLOCK)],
        &writing(&[(XUNIT, &lines)]),
        &lint_at(vec![(XUNIT, 10)]),
    );
}

const JSON_SPEC: &str = "test/reporters/json.spec.js";
const FILE_OFF: &str = concat!(
    "'use strict';\n",
    "\n",
    "it('a', function () {\n",
    "  /* eslint no-unused-vars: off */\n",
    "  var unused = 1;\n",
    "});\n",
);

/// `/* eslint rule: off */` turns the rule off for the rest of the file; a next-line
/// disable of the same rule over the one line that needs it silences less.
#[test]
fn an_eslint_file_scope_rule_off_replaced_by_a_next_line_disable_is_narrowed() {
    let next = FILE_OFF.replace(
        "/* eslint no-unused-vars: off */",
        "/* eslint-disable-next-line no-unused-vars */",
    );
    both_ways(
        &[(JSON_SPEC, FILE_OFF)],
        &writing(&[(JSON_SPEC, &next)]),
        &lint_at(vec![]),
    );
    // Lookalike: the next-line disable names a rule the old comment did not.
    let wider = FILE_OFF.replace(
        "/* eslint no-unused-vars: off */",
        "/* eslint-disable-next-line no-unused-vars, no-undef */",
    );
    both_ways(
        &[(JSON_SPEC, FILE_OFF)],
        &writing(&[(JSON_SPEC, &wider)]),
        &lint_at(vec![(JSON_SPEC, 4)]),
    );
}

const GOLANGCI: &str = "version: \"2\"\nlinters:\n  default: all\n  disable:\n    - wsl\n";

/// An analyzer of govet turned off (`settings.govet.disable`) silences its reports in every
/// file while govet still runs: a new suppression.
#[test]
fn a_govet_analyzer_disabled_in_golangci_settings_is_new() {
    let new = format!("{GOLANGCI}  settings:\n    govet:\n      disable:\n        - inline\n");
    both_ways(
        &[(".golangci.yaml", GOLANGCI), ("main.go", "package main\n")],
        &writing(&[(".golangci.yaml", &new)]),
        &lint_at(vec![(".golangci.yaml", 9)]),
    );
}

/// Lookalike: an analyzer govet is told to enable, or one it disabled already and keeps,
/// silences nothing new.
#[test]
fn a_govet_analyzer_enabled_or_kept_disabled_is_not() {
    let old = format!("{GOLANGCI}  settings:\n    govet:\n      disable:\n        - inline\n");
    let new = format!(
        "{GOLANGCI}  settings:\n    govet:\n      enable:\n        - shadow\n      disable:\n        - inline\n"
    );
    both_ways(
        &[
            (".golangci.yaml", old.as_str()),
            ("main.go", "package main\n"),
        ],
        &writing(&[(".golangci.yaml", &new)]),
        &lint_at(vec![]),
    );
}

const TYPED: &str = "src/app/structures.py";

/// mypy's `misc` covers every error without a code of its own: a specific list rewritten as
/// `[misc]` silences more, though it is shorter. The reverse, a specific code in place of
/// `misc`, narrows.
#[test]
fn a_type_ignore_list_rewritten_as_misc_widened_and_the_reverse_did_not() {
    let specific =
        "def f(d):\n    return dict.setdefault(d, 1)  # type: ignore[arg-type,attr-defined]\n";
    let misc = "def f(d):\n    return dict.setdefault(d, 1)  # type: ignore[misc]\n";
    both_ways(
        &[(TYPED, specific)],
        &writing(&[(TYPED, misc)]),
        &lint_at(vec![(TYPED, 2)]),
    );
    let own = "def f(d):\n    return dict.setdefault(d, 1)  # type: ignore[str-unpack]\n";
    both_ways(
        &[(TYPED, misc)],
        &writing(&[(TYPED, own)]),
        &lint_at(vec![]),
    );
}
