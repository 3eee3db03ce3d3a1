//! `deleted_tests` and tests that left a file whose count fell for another file of the
//! change, under a new name or a rewrapped declaration, with their body rewritten: a Go
//! test moved into a new file as `TestLevelX`, its `assert` calls now `require`, still holds
//! every word of its own; a Python test moved with its parameters annotated keeps its name.
//! Each lookalike still loses a test: a new test of a like name in the other file that
//! checks something else, and a new test of another name there. Each case is judged
//! uncommitted (against HEAD) and committed (`--against HEAD^`). Real repositories, the
//! real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const PARSE: &str = "func TestParseLevel(t *testing.T) {
	l, err := ParseLevel(\"panic\")
	assert.Nil(t, err)
	assert.Equal(t, PanicLevel, l)
}
";

const UNMARSHAL: &str = "
func TestUnmarshalText(t *testing.T) {
	var u Level
	for _, level := range AllLevels {
		t.Run(level.String(), func(t *testing.T) {
			assert.NoError(t, u.UnmarshalText([]byte(level.String())))
			assert.Equal(t, level, u)
		})
	}
	t.Run(\"invalid\", func(t *testing.T) {
		assert.Error(t, u.UnmarshalText([]byte(\"invalid\")))
	})
}
";

const RACE: &str = "
func TestGetSetLevelRace(t *testing.T) {
	wg := sync.WaitGroup{}
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			SetLevel(InfoLevel)
		}()
	}
	wg.Wait()
}
";

fn logrus_test(tests: &[&str]) -> String {
    format!(
        "package logrus\n\nimport (\n\t\"sync\"\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\n{}",
        tests.concat()
    )
}

/// `TestUnmarshalText` as it arrives in a new file of the external test package: renamed,
/// its calls qualified by the package and `assert` now `require`, so hardly a line is the
/// same, but every word of its own (`UnmarshalText`, `"invalid"`, `u`) came along.
const LEVEL_TEST: &str = "package logrus_test

import (
	\"testing\"

	\"github.com/sirupsen/logrus\"
	\"github.com/stretchr/testify/require\"
)

func TestLevelUnmarshalText(t *testing.T) {
	var u logrus.Level
	for _, level := range logrus.AllLevels {
		t.Run(level.String(), func(t *testing.T) {
			require.NoError(t, u.UnmarshalText([]byte(level.String())))
			require.Equal(t, level, u)
		})
	}
	t.Run(\"invalid\", func(t *testing.T) {
		require.Error(t, u.UnmarshalText([]byte(\"invalid\")))
	})
}
";

/// A new test of a like name that checks something else: the removed test's own words
/// (`UnmarshalText`, `"invalid"`) are not in it.
const LEVEL_MARSHAL_TEST: &str = "package logrus_test

import (
	\"testing\"

	\"github.com/sirupsen/logrus\"
	\"github.com/stretchr/testify/require\"
)

func TestLevelUnmarshalTextRoundTrip(t *testing.T) {
	for _, level := range logrus.AllLevels {
		t.Run(level.String(), func(t *testing.T) {
			b, err := level.MarshalText()
			require.NoError(t, err)
			require.Equal(t, level.String(), string(b))
		})
	}
}
";

#[test]
fn a_test_renamed_and_reworded_as_it_moved_to_a_new_file_is_not_deleted() {
    let before = logrus_test(&[PARSE, UNMARSHAL, RACE]);
    let after = logrus_test(&[PARSE, RACE]);
    both_ways(
        &[("logrus_test.go", &before)],
        &writing(&[("logrus_test.go", &after), ("level_test.go", LEVEL_TEST)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_deleted_beside_a_new_one_of_a_like_name_that_checks_something_else_is_deleted() {
    let before = logrus_test(&[PARSE, UNMARSHAL, RACE]);
    let after = logrus_test(&[PARSE, RACE]);
    both_ways(
        &[("logrus_test.go", &before)],
        &writing(&[
            ("logrus_test.go", &after),
            ("level_test.go", LEVEL_MARSHAL_TEST),
        ]),
        &assert_one_deleted(
            "logrus_test.go",
            "tests in `logrus_test.go` dropped from 3 to 2: restore",
        ),
    );
}

/// The finding says where the tests it accounts for went: one rewritten into the new
/// file, the other removed.
#[test]
fn a_finding_says_which_test_was_rewritten_where() {
    let before = logrus_test(&[PARSE, UNMARSHAL, RACE]);
    let after = logrus_test(&[PARSE]);
    both_ways(
        &[("logrus_test.go", &before)],
        &writing(&[("logrus_test.go", &after), ("level_test.go", LEVEL_TEST)]),
        &assert_one_deleted(
            "logrus_test.go",
            "tests in `logrus_test.go` dropped from 3 to 1 (1 rewritten as `func TestLevelUnmarshalText(t *testing.T)` in `level_test.go`, which holds its words)",
        ),
    );
}

const VALID: &str = "
func TestUnmarshalText(t *testing.T) {
	var u Level
	for _, level := range AllLevels {
		t.Run(level.String(), func(t *testing.T) {
			assert.NoError(t, u.UnmarshalText([]byte(level.String())))
			assert.Equal(t, level, u)
		})
	}
}
";

const INVALID: &str = "
func TestUnmarshalTextInvalid(t *testing.T) {
	var u Level
	assert.Error(t, u.UnmarshalText([]byte(\"invalid\")))
}
";

/// Two tests folded into one new table of their own file (a loop of subtests and an
/// `"invalid"` subtest) keep every case as a row: not deleted (see `deleted_tests_folds`;
/// a fold that drops a case is still reported there).
#[test]
fn tests_folded_into_one_new_table_of_their_own_file_that_keeps_every_case_are_not_deleted() {
    let before = logrus_test(&[PARSE, VALID, INVALID]);
    let folded = LEVEL_TEST
        .split_once("func TestLevelUnmarshalText")
        .map(|(_, rest)| format!("\nfunc TestLevelUnmarshalText{rest}"))
        .unwrap();
    let after = logrus_test(&[PARSE, &folded]);
    both_ways(
        &[("logrus_test.go", &before)],
        &writing(&[("logrus_test.go", &after)]),
        &assert_no_deleted_tests,
    );
}

const BASIC: &str = "import pytest

import flask


def test_request_dispatching(app, client):
    @app.route(\"/\")
    def index():
        return flask.request.method

    assert client.get(\"/\").data == b\"GET\"


def test_max_content_length(app, client):
    app.config[\"MAX_CONTENT_LENGTH\"] = 64

    @app.before_request
    def always_first():
        flask.request.form[\"myfile\"]
        AssertionError()

    @app.route(\"/accept\", methods=[\"POST\"])
    def accept_file():
        flask.request.form[\"myfile\"]
        AssertionError()

    @app.errorhandler(413)
    def catcher(error):
        return \"42\"

    rv = client.post(\"/accept\", data={\"myfile\": \"foo\" * 100})
    assert rv.data == b\"42\"
";

const BASIC_AFTER: &str = "import pytest

import flask


def test_request_dispatching(app, client):
    @app.route(\"/\")
    def index():
        return flask.request.method

    assert client.get(\"/\").data == b\"GET\"
";

/// `test_max_content_length` in a new module, its parameters annotated and its body
/// rewritten for the new limits: the same test by name.
const REQUEST: &str = "from __future__ import annotations

from flask import Flask
from flask import request
from flask.testing import FlaskClient


def test_max_content_length(app: Flask, client: FlaskClient) -> None:
    app.config[\"MAX_CONTENT_LENGTH\"] = 50

    @app.post(\"/\")
    def index():
        request.form[\"myfile\"]
        AssertionError()

    @app.errorhandler(413)
    def catcher(error):
        return \"42\"

    rv = client.post(\"/\", data={\"myfile\": \"foo\" * 50})
    assert rv.data == b\"42\"
";

#[test]
fn a_test_moved_by_name_with_its_declaration_rewrapped_is_not_deleted() {
    both_ways(
        &[("tests/test_basic.py", BASIC)],
        &writing(&[
            ("tests/test_basic.py", BASIC_AFTER),
            ("tests/test_request.py", REQUEST),
        ]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_deleted_beside_a_new_one_of_another_name_is_deleted() {
    let other = REQUEST.replace("test_max_content_length", "test_max_form_memory");
    both_ways(
        &[("tests/test_basic.py", BASIC)],
        &writing(&[
            ("tests/test_basic.py", BASIC_AFTER),
            ("tests/test_request.py", &other),
        ]),
        &assert_one_deleted(
            "tests/test_basic.py",
            "tests in `tests/test_basic.py` dropped from 2 to 1: restore",
        ),
    );
}
