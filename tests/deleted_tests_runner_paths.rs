//! `deleted_tests` and the runner a test file loads: a file that loads another test file
//! of the change (a quoted path relative to it) runs that file's new tests, so they can
//! stand for tests it lost. Only a path loads a file: a bare word that happens to be a
//! sibling's name (`describe('command', ..)` beside `test/command.js`, an argument
//! `'command'`) is a title or a value, and the tests the file lost are still deleted.
//! Each case is judged uncommitted (against HEAD) and committed (`--against HEAD^`). Real
//! repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const APP: &str = "test/app.test.js";
const COMMAND: &str = "test/command.js";

const APP_BEFORE: &str = r#"const { cli } = require('../lib/cli');

describe('command', () => {
  it('runs a command by name', () => {
    expect(cli().command('serve', 'command').run(['serve'])).toBe('serve');
  });

  it('bails out early when the full command matches', () => {
    expect(cli().complete(['serve', '--'])).toEqual([]);
  });
});
"#;

const COMMAND_BEFORE: &str = r#"const { parse } = require('../lib/command');

it('parses a name', () => {
  expect(parse('serve').name).toBe('serve');
});
"#;

/// `app.test.js` without its completion test.
const APP_AFTER: &str = r#"const { cli } = require('../lib/cli');

describe('command', () => {
  it('runs a command by name', () => {
    expect(cli().command('serve', 'command').run(['serve'])).toBe('serve');
  });
});
"#;

/// `command.js` with two new tests of its own subject.
const COMMAND_AFTER: &str = r#"const { parse } = require('../lib/command');

it('parses a name', () => {
  expect(parse('serve').name).toBe('serve');
});

it('parses positional arguments', () => {
  expect(parse('get <key>').positional).toEqual(['key']);
});

it('parses optional arguments', () => {
  expect(parse('get [key]').optional).toEqual(['key']);
});
"#;

#[test]
fn a_title_that_is_a_sibling_files_name_loads_nothing_and_the_lost_test_is_deleted() {
    both_ways(
        &[(APP, APP_BEFORE), (COMMAND, COMMAND_BEFORE)],
        &writing(&[(APP, APP_AFTER), (COMMAND, COMMAND_AFTER)]),
        &assert_one_deleted(APP, "tests in `test/app.test.js` dropped from 2 to 1"),
    );
}

#[test]
fn a_file_that_loads_its_sibling_by_a_relative_path_runs_its_new_tests() {
    // `app.test.js` now loads `command.js`: the tests that file gained run as part
    // of it, as many as it lost.
    let app = APP_AFTER.replace(
        "const { cli } = require('../lib/cli');\n",
        "const { cli } = require('../lib/cli');\nrequire('./command.js');\n",
    );
    both_ways(
        &[(APP, APP_BEFORE), (COMMAND, COMMAND_BEFORE)],
        &writing(&[(APP, &app), (COMMAND, COMMAND_AFTER)]),
        &assert_no_deleted_tests,
    );
}
