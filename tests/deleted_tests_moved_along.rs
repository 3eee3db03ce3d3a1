//! `deleted_tests` and a test moved to another file together with its subject, rewritten
//! there so that it keeps only about half of its words: the import only it used left its
//! file and the new test uses it; the new test's file is about a thing the removed test
//! used by name; another test of its file moved to the same file by name; or the new test
//! is named with every word of the old name. Lookalikes with the same surface, where
//! nothing shows the subject went along, are still deletions. Each case is judged
//! uncommitted (against HEAD) and committed (`--against HEAD^`). Real repositories, the
//! real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, Repo};

const CHECKS: &str = "check/checks_test.go";

const CHECKS_OLD: &str = r#"package check

import (
	"errors"
	"testing"
	"unsafe"
)

func TestEqual(t *testing.T) {
	if !Equal(1, 1) {
		t.Fatal("one is one")
	}
}

func TestErrorIs(t *testing.T) {
	base := errors.New("base")
	if !ErrorIs(base, base) {
		t.Fatal("an error is itself")
	}
}

func TestIsZero(t *testing.T) {
	var p unsafe.Pointer = nil
	if !isZero(p) {
		t.Fatal("want zero")
	}
}
"#;

/// The old file without `TestIsZero`, and without the import only it used.
fn checks_after() -> String {
    let start = CHECKS_OLD.find("\nfunc TestIsZero").unwrap();
    CHECKS_OLD[..start + 1]
        .replace("\t\"unsafe\"\n", "")
        .trim_end()
        .to_string()
        + "\n"
}

const UNSAFE_TESTS: &str = "check/internal/unsafechecks/unsafechecks_test.go";

/// A new package for the tests that need `unsafe`: the zero check of an `unsafe.Pointer`,
/// through the public API and both ways round.
const UNSAFE_NEW: &str = r#"package unsafechecks_test

import (
	"testing"
	"unsafe"

	"example.com/check"
)

func TestUnsafePointers(t *testing.T) {
	var p unsafe.Pointer
	check.True(t, check.Zero(t, p))
	check.False(t, check.NotZero(t, unsafe.Pointer(nil)))
}
"#;

/// The same shape of change, but the new test checks plain pointers: no `unsafe` went
/// along, the zero check of an `unsafe.Pointer` is gone.
const NIL_TESTS: &str = "check/internal/nilchecks/nilchecks_test.go";
const NIL_NEW: &str = r#"package nilchecks_test

import (
	"testing"
)

func TestNilPointers(t *testing.T) {
	var p *int
	if p != nil {
		t.Fatal("not nil")
	}
}
"#;

fn moved(to: &'static str, text: &'static str) -> impl Fn(&Repo) {
    move |r: &Repo| {
        r.write(CHECKS, &checks_after());
        r.write(to, text);
    }
}

#[test]
fn a_test_moved_with_the_import_only_it_used_is_not_deleted() {
    both_ways(
        &[(CHECKS, CHECKS_OLD)],
        &moved(UNSAFE_TESTS, UNSAFE_NEW),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_removed_with_its_import_that_no_new_test_uses_is_deleted() {
    both_ways(
        &[(CHECKS, CHECKS_OLD)],
        &moved(NIL_TESTS, NIL_NEW),
        &assert_one_deleted(CHECKS, "dropped from 3 to 2"),
    );
}

const LOGGER: &str = "logger_test.go";

const LOGGER_OLD: &str = r#"package logs_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"example.com/logs"
)

func TestFieldError(t *testing.T) {
	var buf bytes.Buffer
	l := &logs.Logger{Out: &buf, Formatter: new(logs.JSONFormatter), Level: logs.DebugLevel}
	l.WithField("func", func() {}).Info("test")
	var data map[string]any
	if err := json.Unmarshal(buf.Bytes(), &data); err != nil {
		t.Fatalf("output:\n%s", buf.String())
	}
	if _, ok := data[logs.FieldKeyError]; !ok {
		t.Fatalf("no error field: %v", data)
	}
}

func TestWarning(t *testing.T) {
	var buf bytes.Buffer
	l := &logs.Logger{Out: &buf, Level: logs.DebugLevel}
	l.Warn("careful")
	if !json.Valid(buf.Bytes()) {
		t.Fatal("not json")
	}
}
"#;

/// `TestFieldError` gone from the logger's tests; `encoding/json` stays (`TestWarning`
/// still decodes), so only the file it went to says where it went.
fn logger_after() -> String {
    let start = LOGGER_OLD.find("func TestFieldError").unwrap();
    let end = LOGGER_OLD.find("func TestWarning").unwrap();
    format!("{}{}", &LOGGER_OLD[..start], &LOGGER_OLD[end..])
}

const FORMATTER_OLD: &str = r#"package logs_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"example.com/logs"
)

func TestJSONNewline(t *testing.T) {
	var buf bytes.Buffer
	l := logs.New()
	l.SetOutput(&buf)
	l.SetFormatter(&logs.JSONFormatter{})
	l.Info("x")
	if !bytes.HasSuffix(buf.Bytes(), []byte("\n")) {
		t.Fatal("no newline")
	}
	var v any
	_ = json.Unmarshal(buf.Bytes(), &v)
}
"#;

/// The test rewritten as a formatter test: a new logger built another way, the same
/// field, the same decoding, the same check of the error key.
const FORMATTER_ADDED: &str = r#"
func TestJSONEntryBadField(t *testing.T) {
	var buf bytes.Buffer
	l := logs.New()
	l.SetOutput(&buf)
	l.SetFormatter(&logs.JSONFormatter{DisableTimestamp: true})
	l.WithField("func", func() {}).WithField("ok", "ok").Info("test")
	var data map[string]any
	if err := json.Unmarshal(buf.Bytes(), &data); err != nil {
		t.Fatal("cannot decode: ", err)
	}
	if v, ok := data[logs.FieldKeyError]; !ok || v == "" {
		t.Errorf("want an error field: %v", data)
	}
}
"#;

fn grown_formatter(to: &'static str) -> impl Fn(&Repo) {
    move |r: &Repo| {
        r.write(LOGGER, &logger_after());
        r.write(to, &format!("{FORMATTER_OLD}{FORMATTER_ADDED}"));
    }
}

#[test]
fn a_test_moved_to_the_tests_of_a_thing_it_used_is_not_deleted() {
    both_ways(
        &[
            (LOGGER, LOGGER_OLD),
            ("json_formatter_test.go", FORMATTER_OLD),
        ],
        &grown_formatter("json_formatter_test.go"),
        &assert_no_deleted_tests,
    );
}

#[test]
fn the_same_test_in_a_file_about_something_it_never_used_is_deleted() {
    // The formatter's tests are in `wire_test.go`: a name the removed test never used.
    both_ways(
        &[(LOGGER, LOGGER_OLD), ("wire_test.go", FORMATTER_OLD)],
        &grown_formatter("wire_test.go"),
        &assert_one_deleted(LOGGER, "dropped from 2 to 1"),
    );
}

const CALLS: &str = "call_test.go";

const CALLS_OLD: &str = r#"package client

import (
	"strings"
	"testing"
)

func TestGet(t *testing.T) {
	resp := get(t, "/")
	if resp.Code != 200 {
		t.Fatal(resp.Code)
	}
}

func TestExcessiveStatusLine(t *testing.T) {
	longLine := "HTTP/1.1 200 " + strings.Repeat("O", 256*1024) + "K"
	srv := newServer(t)
	srv.Enqueue(Response{Status: longLine, Body: "not here today"})
	expectFailure(t, srv, ".*unexpected end of stream")
}

func TestExcessiveHeaders(t *testing.T) {
	srv := newServer(t)
	srv.Enqueue(Response{Headers: map[string]string{"a": strings.Repeat("A", 255*1024)}, Body: "not here today"})
	expectFailure(t, srv, ".*unexpected end of stream")
}
"#;

/// The headers test moved whole; the status line test rewritten beside it.
fn limits(with_headers: bool) -> String {
    let mut text = String::from(
        r#"package client

import (
	"strings"
	"testing"
)

func TestLargeStatusLine(t *testing.T) {
	srv := newServer(t)
	srv.Enqueue(Response{Status: "HTTP/1.1 200 " + strings.Repeat("O", 256*1024), Body: "not here today"})
	if _, err := call(srv); err == nil {
		t.Fatal("want an error")
	}
}
"#,
    );
    if with_headers {
        let start = CALLS_OLD.find("func TestExcessiveHeaders").unwrap();
        text.push('\n');
        text.push_str(&CALLS_OLD[start..]);
    }
    text
}

fn calls_without(names: &[&str]) -> String {
    let mut text = CALLS_OLD.to_string();
    for name in names {
        let start = text.find(&format!("func {name}(")).unwrap();
        let end = text[start..].find("\n}\n").map(|e| start + e + 3).unwrap();
        let end = if text[end..].starts_with('\n') {
            end + 1
        } else {
            end
        };
        text.replace_range(start..end, "");
    }
    text
}

#[test]
fn a_test_rewritten_where_its_neighbour_moved_is_not_deleted() {
    both_ways(
        &[(CALLS, CALLS_OLD)],
        &move |r: &Repo| {
            r.write(
                CALLS,
                &calls_without(&["TestExcessiveStatusLine", "TestExcessiveHeaders"]),
            );
            r.write("limits_test.go", &limits(true));
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn the_same_rewrite_with_no_neighbour_moved_is_deleted() {
    both_ways(
        &[(CALLS, CALLS_OLD)],
        &move |r: &Repo| {
            r.write(CALLS, &calls_without(&["TestExcessiveStatusLine"]));
            r.write("limits_test.go", &limits(false));
        },
        &assert_one_deleted(CALLS, "dropped from 3 to 2"),
    );
}

const ENTRY: &str = "entry_test.go";

const ENTRY_OLD: &str = r#"package logs

import "testing"

func TestFieldValueError(t *testing.T) {
	e := NewEntry(New()).WithField("func", func() {})
	if e.err == "" {
		t.Fatal("an unsupported value sets the error")
	}
	if _, ok := e.Data["func"]; ok {
		t.Fatal("the unsupported value is dropped")
	}
}

func TestEntryLevel(t *testing.T) {
	e := NewEntry(New())
	if e.Level != InfoLevel {
		t.Fatal(e.Level)
	}
}
"#;

fn text_formatter(name: &str) -> String {
    format!(
        r#"package logs

import (
	"strings"
	"testing"
)

func {name}(t *testing.T) {{
	var buf strings.Builder
	l := New()
	l.SetOutput(&buf)
	l.SetFormatter(&TextFormatter{{DisableTimestamp: true}})
	l.WithField("func", func() {{}}).Info("x")
	if !strings.Contains(buf.String(), FieldKeyError+"=") {{
		t.Errorf("want an error field: %v", buf.String())
	}}
}}
"#
    )
}

fn entry_after() -> String {
    let start = ENTRY_OLD.find("func TestFieldValueError").unwrap();
    let end = ENTRY_OLD.find("func TestEntryLevel").unwrap();
    format!("{}{}", &ENTRY_OLD[..start], &ENTRY_OLD[end..])
}

#[test]
fn a_test_widened_under_its_whole_name_in_another_file_is_not_deleted() {
    both_ways(
        &[(ENTRY, ENTRY_OLD)],
        &move |r: &Repo| {
            r.write(ENTRY, &entry_after());
            r.write(
                "text_formatter_test.go",
                &text_formatter("TestTextEntryFieldValueError"),
            );
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_new_test_named_for_part_of_the_old_name_does_not_carry_it() {
    both_ways(
        &[(ENTRY, ENTRY_OLD)],
        &move |r: &Repo| {
            r.write(ENTRY, &entry_after());
            r.write(
                "text_formatter_test.go",
                &text_formatter("TestTextEntryValueError"),
            );
        },
        &assert_one_deleted(ENTRY, "dropped from 2 to 1"),
    );
}

#[test]
fn a_file_named_for_a_one_word_name_of_the_removed_test_says_nothing() {
    // The removed test sets a logger's `Formatter`: one word, a field of anything, not
    // the thing `formatter_test.go` is about.
    both_ways(
        &[(LOGGER, LOGGER_OLD), ("formatter_test.go", FORMATTER_OLD)],
        &grown_formatter("formatter_test.go"),
        &assert_one_deleted(LOGGER, "dropped from 2 to 1"),
    );
}

/// A test file of the package that already imported `unsafe` for a test of its own.
const POINTERS: &str = "check/internal/unsafechecks/pointers_test.go";
const POINTERS_OLD: &str = r#"package unsafechecks_test

import (
	"testing"
	"unsafe"
)

func TestSizes(t *testing.T) {
	if unsafe.Sizeof(int64(0)) != 8 {
		t.Fatal("int64 is eight bytes")
	}
}
"#;

#[test]
fn an_import_that_left_for_a_file_that_already_had_it_says_nothing() {
    // `unsafe` left the checks' tests, but the file the new test is in imported it
    // before the change: nothing of the removed test's arrived there with it.
    let grown = format!(
        "{POINTERS_OLD}\n{}",
        &UNSAFE_NEW[UNSAFE_NEW.find("func TestUnsafePointers").unwrap()..]
    );
    both_ways(
        &[(CHECKS, CHECKS_OLD), (POINTERS, POINTERS_OLD)],
        &move |r: &Repo| {
            r.write(CHECKS, &checks_after());
            r.write(POINTERS, &grown);
        },
        &assert_one_deleted(CHECKS, "dropped from 3 to 2"),
    );
}

#[test]
fn a_test_beside_a_moved_neighbour_that_keeps_none_of_its_own_values_is_deleted() {
    // The headers test moved by name, but the new status line test sends another status
    // line: none of the removed test's own literals is in it, only words any test of
    // the server shares.
    both_ways(
        &[(CALLS, CALLS_OLD)],
        &move |r: &Repo| {
            r.write(
                CALLS,
                &calls_without(&["TestExcessiveStatusLine", "TestExcessiveHeaders"]),
            );
            r.write(
                "limits_test.go",
                &limits(true).replace("\"HTTP/1.1 200 \"", "\"HTTP/2 200 \""),
            );
        },
        &assert_one_deleted(CALLS, "dropped from 3 to 1 (1 moved to `limits_test.go`)"),
    );
}

#[test]
fn a_test_beside_a_moved_neighbour_that_lost_one_of_its_own_checks_is_deleted() {
    // The status line test expected its own failure, which no other test checked; the new
    // test sends the same status line but no longer checks that failure: one of its own
    // literals went along, the other, its check, did not.
    let old = CALLS_OLD.replacen(
        "expectFailure(t, srv, \".*unexpected end of stream\")",
        "expectFailure(t, srv, \".*status line too long\")",
        1,
    );
    assert_ne!(old, CALLS_OLD);
    both_ways(
        &[(CALLS, &old)],
        &move |r: &Repo| {
            r.write(
                CALLS,
                &calls_without(&["TestExcessiveStatusLine", "TestExcessiveHeaders"]),
            );
            r.write("limits_test.go", &limits(true));
        },
        &assert_one_deleted(CALLS, "dropped from 3 to 1 (1 moved to `limits_test.go`)"),
    );
}

const ZEROS_OLD: &str = r#"package check

import (
	"testing"
	"unsafe"
)

func TestEqual(t *testing.T) {
	if !Equal(1, 1) {
		t.Fatal("one is one")
	}
}

func TestPointerZero(t *testing.T) {
	var p unsafe.Pointer
	if !Zero(p) {
		t.Fatal("a nil pointer is zero")
	}
}

func TestIsZero(t *testing.T) {
	var p unsafe.Pointer = nil
	if !isZero(p) {
		t.Fatal("want zero")
	}
}
"#;

/// `TestPointerZero` moved by name into the new package, beside a new test of sizes that
/// shares most of `TestIsZero`'s words but checks nothing of `isZero`.
const ZEROS_NEW: &str = r#"package unsafechecks

import (
	"testing"
	"unsafe"
)

func TestPointerZero(t *testing.T) {
	var p unsafe.Pointer
	if !Zero(p) {
		t.Fatal("a nil pointer is zero")
	}
}

func TestPointerSize(t *testing.T) {
	var p unsafe.Pointer = nil
	if unsafe.Sizeof(p) == 0 {
		t.Fatal("no size")
	}
}
"#;

#[test]
fn an_import_that_a_test_moved_by_name_uses_too_says_nothing() {
    // `unsafe` left the checks' file and arrived in the new one, but the test that moved
    // there by name uses it as well: it went with that test, not with `TestIsZero`, whose
    // check (`isZero`, "want zero") is in no test.
    let start = ZEROS_OLD.find("\nfunc TestPointerZero").unwrap();
    let after = ZEROS_OLD[..start + 1].replace("\t\"unsafe\"\n", "");
    both_ways(
        &[(CHECKS, ZEROS_OLD)],
        &move |r: &Repo| {
            r.write(CHECKS, after.trim_end());
            r.write(UNSAFE_TESTS, ZEROS_NEW);
        },
        &assert_one_deleted(CHECKS, "dropped from 3 to 1 (1 moved to"),
    );
}
