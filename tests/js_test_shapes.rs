//! JavaScript test shapes read over the whole file: a tap suite of subtests counted by its
//! subtests (ported to `describe(..)` it loses nothing), tap's bare `skip('x', fn)` still a
//! declared test, and node:test's `{ skip }` option shorthand a skip unless its variable is
//! a constant off. Each change is judged uncommitted (against HEAD) and committed
//! (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, lines_of, writing};

const LEVELS: &str = "test/levels.test.js";

/// A tap suite whose callback destructures `test` and runs three subtests with it.
const TAP_SUITE: &str = concat!(
    "'use strict'\n",
    "const { test } = require('tap')\n",
    "const pino = require('../')\n",
    "\n",
    "test('default levels suite', ({ test, end }) => {\n",
    "  test('debug is enabled', async ({ equal }) => {\n",
    "    equal(true, pino({ level: 'debug' }).isLevelEnabled('debug'))\n",
    "  })\n",
    "\n",
    "  test('error is enabled', async ({ equal }) => {\n",
    "    equal(true, pino({ level: 'debug' }).isLevelEnabled('error'))\n",
    "  })\n",
    "\n",
    "  test('trace is disabled', async ({ equal }) => {\n",
    "    equal(false, pino({ level: 'debug' }).isLevelEnabled('trace'))\n",
    "  })\n",
    "\n",
    "  end()\n",
    "})\n",
);

/// The same suite ported to node:test: the wrapper is a `describe`.
const DESCRIBED: &str = concat!(
    "'use strict'\n",
    "const { describe, test } = require('node:test')\n",
    "const assert = require('node:assert')\n",
    "const pino = require('../')\n",
    "\n",
    "describe('default levels suite', () => {\n",
    "  test('debug is enabled', async () => {\n",
    "    assert.equal(true, pino({ level: 'debug' }).isLevelEnabled('debug'))\n",
    "  })\n",
    "\n",
    "  test('error is enabled', async () => {\n",
    "    assert.equal(true, pino({ level: 'debug' }).isLevelEnabled('error'))\n",
    "  })\n",
    "\n",
    "  test('trace is disabled', async () => {\n",
    "    assert.equal(false, pino({ level: 'debug' }).isLevelEnabled('trace'))\n",
    "  })\n",
    "})\n",
);

#[test]
fn a_tap_suite_ported_to_describe_loses_no_test() {
    both_ways(
        &[(LEVELS, TAP_SUITE)],
        &writing(&[(LEVELS, DESCRIBED)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn top_level_tests_gathered_into_tap_subtests_lose_none() {
    // `t.test(..)` subtests are tests; the `test` that only runs them is their suite.
    let flat = concat!(
        "const { test } = require('node:test')\n",
        "test('debug is enabled', async t => {\n",
        "  t.assert.equal(1, 1)\n",
        "})\n",
        "test('error is enabled', async t => {\n",
        "  t.assert.equal(2, 2)\n",
        "})\n",
    );
    let named = concat!(
        "const { test } = require('tap')\n",
        "test('levels', async t => {\n",
        "  t.test('debug is enabled', async t => {\n",
        "    t.equal(1, 1)\n",
        "  })\n",
        "  t.test('error is enabled', async t => {\n",
        "    t.equal(2, 2)\n",
        "  })\n",
        "})\n",
    );
    both_ways(
        &[(LEVELS, flat)],
        &writing(&[(LEVELS, named)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_subtest_dropped_from_a_suite_is_a_deleted_test() {
    // The lookalike: the port drops one of the suite's tests.
    let lost_one = DESCRIBED.replace(
        "  test('trace is disabled', async () => {\n    assert.equal(false, pino({ level: 'debug' }).isLevelEnabled('trace'))\n  })\n",
        "",
    );
    both_ways(
        &[(LEVELS, TAP_SUITE)],
        &writing(&[(LEVELS, &lost_one)]),
        &assert_one_deleted(LEVELS, "dropped from 3 to 2"),
    );
}

const HTTP: &str = "test/http.test.js";

const TWO_TESTS: &str = concat!(
    "const { test } = require('tap')\n",
    "const pino = require('../')\n",
    "\n",
    "test('http request support', async ({ ok }) => {\n",
    "  ok(pino())\n",
    "})\n",
    "\n",
    "test('http request support without request connection', async ({ ok }) => {\n",
    "  ok(pino())\n",
    "})\n",
);

#[test]
fn a_test_turned_into_taps_bare_skip_is_a_skip_not_a_deletion() {
    let skipped = TWO_TESTS
        .replace(
            "const { test } = require('tap')",
            "const { test, skip } = require('tap')",
        )
        .replace(
            "test('http request support without",
            "skip('http request support without",
        );
    both_ways(
        &[(HTTP, TWO_TESTS)],
        &writing(&[(HTTP, &skipped)]),
        &|code, receipt, mode| {
            assert_eq!(gitrepo::deleted(receipt), [], "{mode}: {receipt}");
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(HTTP.to_string(), 8)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_test_replaced_by_a_call_of_a_local_skip_function_is_deleted() {
    // The lookalike: `skip` from the project's own helper module declares no test.
    let replaced = TWO_TESTS
        .replace(
            "const pino = require('../')",
            "const pino = require('../')\nconst { skip } = require('./helper')",
        )
        .replace(
            "test('http request support without request connection', async ({ ok }) => {\n  ok(pino())\n})\n",
            "skip('http request support without request connection')\n",
        );
    both_ways(
        &[(HTTP, TWO_TESTS)],
        &writing(&[(HTTP, &replaced)]),
        &|code, receipt, mode| {
            let found = gitrepo::deleted(receipt);
            assert_eq!(found.len(), 1, "{mode}: {receipt}");
            assert!(
                found[0].1.contains("dropped from 2 to 1"),
                "{mode}: {found:?}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const DIAG: &str = "test/diagnostics.test.js";

const PLAIN: &str = concat!(
    "const { test } = require('node:test')\n",
    "const diagChan = require('node:diagnostics_channel')\n",
    "const pino = require('../')\n",
    "\n",
    "test('asJson emits events', async (t) => {\n",
    "  t.assert.ok(pino())\n",
    "})\n",
);

#[test]
fn the_skip_option_shorthand_over_a_condition_is_a_new_skip() {
    let skipped = PLAIN
        .replace(
            "const pino = require('../')\n",
            "const pino = require('../')\n\nconst skip = typeof diagChan.tracingChannel !== 'function'\n",
        )
        .replace(
            "test('asJson emits events', async",
            "test('asJson emits events', { skip }, async",
        );
    both_ways(
        &[(DIAG, PLAIN)],
        &writing(&[(DIAG, &skipped)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(DIAG.to_string(), 7)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn the_skip_option_shorthand_over_a_constant_false_skips_nothing() {
    // The lookalikes: `const skip = false` passed as `{ skip }`, and `{ skip: false }`.
    let off = PLAIN
        .replace(
            "const pino = require('../')\n",
            "const pino = require('../')\n\nconst skip = false\n",
        )
        .replace(
            "test('asJson emits events', async",
            "test('asJson emits events', { skip }, async",
        )
        + "\ntest('asJson twice', { skip: false }, async (t) => {\n  t.assert.ok(pino())\n})\n";
    both_ways(
        &[(DIAG, PLAIN)],
        &writing(&[(DIAG, &off)]),
        &|code, receipt, mode| {
            assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn a_tap_skipped_test_removed_ran_nothing() {
    // A test declared skipped (`skip('x', fn)`) ran nothing: removing it, as removing an
    // `it.skip`, stops nothing that ran.
    let with_skip = TWO_TESTS
        .replace(
            "const { test } = require('tap')",
            "const { test, skip } = require('tap')",
        )
        .replace(
            "test('http request support without",
            "skip('http request support without",
        );
    let without = TWO_TESTS.replace(
        "\ntest('http request support without request connection', async ({ ok }) => {\n  ok(pino())\n})\n",
        "",
    );
    both_ways(
        &[(HTTP, &with_skip)],
        &writing(&[(HTTP, &without)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_skipped_test_removed_while_its_lookalike_is_rewritten_ran_nothing() {
    // Every declaration is rewritten (a tap to node:test port) and a skipped test, written
    // above its running twin, is removed: the twin is the rewrite of its own old
    // declaration, and the skipped one, which ran nothing, is what left.
    let body = "  const server = http.createServer(handler)\n  server.listen(0)\n  const res = await get(server)\n  check(res.statusCode === 200)\n  server.close()\n})\n";
    let old = format!(
        "const {{ test, skip }} = require('tap')\n\ntest('request support', async ({{ ok }}) => {{\n  const log = pino()\n  ok(log)\n}})\n\nskip('request without connection', async ({{ ok }}) => {{\n{body}\ntest('request in a child', async ({{ ok }}) => {{\n  const child = pino().child({{}})\n{body}"
    );
    let new = format!(
        "const test = require('node:test')\n\ntest('request support', async (t) => {{\n  const log = pino()\n  t.assert.ok(log)\n}})\n\ntest('request in a child', async (t) => {{\n  const child = pino().child({{}})\n{body}"
    );
    both_ways(
        &[(HTTP, &old)],
        &writing(&[(HTTP, &new)]),
        &assert_no_deleted_tests,
    );
}

const EXIT: &str = "tests/command.exitOverride.test.js";

const EXIT_TESTS: &str = concat!(
    "const commander = require('../');\n",
    "\n",
    "describe('.exitOverride', () => {\n",
    "  test('when unknown option then throw', () => {\n",
    "    expect(() => parse('--x')).toThrow();\n",
    "  });\n",
    "\n",
    "  test('when executableSubcommand fails then call exitOverride', (done) => {\n",
    "    run('silent', done);\n",
    "  });\n",
    "});\n",
);

#[test]
fn a_test_called_through_a_conditional_alias_is_still_a_test() {
    let aliased = EXIT_TESTS
        .replace(
            "describe('.exitOverride'",
            "const testOrSkipOnWindows = (process.platform === 'win32') ? test.skip : test;\n\ndescribe('.exitOverride'",
        )
        .replace(
            "  test('when executableSubcommand fails",
            "  testOrSkipOnWindows('when executableSubcommand fails",
        );
    both_ways(
        &[(EXIT, EXIT_TESTS)],
        &writing(&[(EXIT, &aliased)]),
        &|code, receipt, mode| {
            assert_eq!(gitrepo::deleted(receipt), [], "{mode}: {receipt}");
            // The skip is the `test.skip` of the conditional, as in the inline form.
            assert_eq!(
                lines_of(receipt, "new_skips"),
                [(EXIT.to_string(), 3)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_test_dropped_beside_a_conditional_alias_is_deleted() {
    // The lookalike: the alias is bound but the test it would run is gone, and a call of
    // a name bound to something else declares nothing.
    let dropped = EXIT_TESTS
        .replace(
            "describe('.exitOverride'",
            "const testOrSkipOnWindows = (process.platform === 'win32') ? test.skip : test;\nconst runLater = fast ? schedule : defer;\n\ndescribe('.exitOverride'",
        )
        .replace(
            "  test('when executableSubcommand fails",
            "  runLater('when executableSubcommand fails",
        );
    both_ways(
        &[(EXIT, EXIT_TESTS)],
        &writing(&[(EXIT, &dropped)]),
        &|code, receipt, mode| {
            let found = gitrepo::deleted(receipt);
            assert_eq!(found.len(), 1, "{mode}: {found:?}");
            assert!(
                found[0].1.contains("dropped from 2 to 1"),
                "{mode}: {}",
                found[0].1
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}
