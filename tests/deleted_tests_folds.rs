//! `deleted_tests` and tests folded into a table: several tests of a file made one
//! table-driven or parameterised test in the same change. A test whose case is a row of
//! the table (its own values are in the rows the change wrote) is not deleted; one whose
//! values appear nowhere in the table was dropped in the fold, and the finding names it. A
//! new table whose rows are about something else carries nothing. Each case is judged
//! uncommitted (against HEAD) and committed (`--against HEAD^`). Real repositories, the
//! real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const PY: &str = "tests/test_url.py";

const BEFORE: &str = r#"import pytest

from shop.url import URL


def test_kept():
    assert URL("https://example.com/").host == "example.com"


def test_path_encoding():
    url = URL("https://example.com/a b")
    assert url.raw_path == b"/a%20b"
    assert url.query == b""


def test_query_encoding():
    url = URL("https://example.com/?q=a b")
    assert url.raw_path == b"/?q=a%20b"
    assert url.query == b"q=a%20b"


def test_fragment_encoding():
    url = URL("https://example.com/#frag ment")
    assert url.raw_path == b"/"
    assert url.fragment == "frag ment"
"#;

/// The three encoding tests as the rows of one parameterised test.
const FOLDED: &str = r#"import pytest

from shop.url import URL


def test_kept():
    assert URL("https://example.com/").host == "example.com"


@pytest.mark.parametrize(
    "given,raw_path,query,fragment",
    [
        ("https://example.com/a b", b"/a%20b", b"", ""),
        ("https://example.com/?q=a b", b"/?q=a%20b", b"q=a%20b", ""),
        ("https://example.com/#frag ment", b"/", b"", "frag ment"),
    ],
)
def test_encoding(given, raw_path, query, fragment):
    url = URL(given)
    assert url.raw_path == raw_path
    assert url.query == query
    assert url.fragment == fragment
"#;

#[test]
fn tests_folded_into_a_parameterised_test_that_carries_every_case_are_not_deleted() {
    both_ways(
        &[(PY, BEFORE)],
        &writing(&[(PY, FOLDED)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_fold_that_drops_a_case_reports_the_test_it_dropped() {
    // The fragment row is gone: its values appear nowhere in the table.
    let dropped = FOLDED.replace(
        "        (\"https://example.com/#frag ment\", b\"/\", b\"\", \"frag ment\"),\n",
        "",
    );
    both_ways(
        &[(PY, BEFORE)],
        &writing(&[(PY, &dropped)]),
        &assert_one_deleted(PY, "not among its rows: `def test_fragment_encoding()`"),
    );
}

#[test]
fn a_new_table_whose_rows_are_about_something_else_carries_nothing() {
    // A table of ports replaces the encoding tests: none of their values is in it.
    let lookalike = r#"import pytest

from shop.url import URL


def test_kept():
    assert URL("https://example.com/").host == "example.com"


@pytest.mark.parametrize(
    "given,port",
    [
        ("http://shop.test:8080/", 8080),
        ("https://shop.test/", 443),
        ("http://shop.test/", 80),
    ],
)
def test_port(given, port):
    assert URL(given).port == port
"#;
    both_ways(
        &[(PY, BEFORE)],
        &writing(&[(PY, lookalike)]),
        &assert_one_deleted(PY, "tests in `tests/test_url.py` dropped from 4 to 2"),
    );
}

const GO: &str = "parse_test.go";

const GO_BEFORE: &str = r#"package shop

import "testing"

func TestParseKept(t *testing.T) {
	if Parse("0") != 0 {
		t.Fatal("zero")
	}
}

func TestParseHex(t *testing.T) {
	got, err := ParseBase("ff", 16)
	if err != nil || got != 255 {
		t.Fatalf("hex: %v %v", got, err)
	}
}

func TestParseOctal(t *testing.T) {
	got, err := ParseBase("17", 8)
	if err != nil || got != 15 {
		t.Fatalf("octal: %v %v", got, err)
	}
}
"#;

/// Go's table-driven shape: a slice of cases run as subtests.
const GO_TABLE: &str = r#"package shop

import "testing"

func TestParseKept(t *testing.T) {
	if Parse("0") != 0 {
		t.Fatal("zero")
	}
}

func TestParseBase(t *testing.T) {
	cases := []struct {
		name string
		in   string
		base int
		want int
	}{
		{name: "hex", in: "ff", base: 16, want: 255},
		{name: "octal", in: "17", base: 8, want: 15},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseBase(tc.in, tc.base)
			if err != nil || got != tc.want {
				t.Fatalf("%v %v", got, err)
			}
		})
	}
}
"#;

#[test]
fn go_tests_folded_into_subtests_of_a_table_are_not_deleted_and_a_dropped_row_is() {
    both_ways(
        &[(GO, GO_BEFORE)],
        &writing(&[(GO, GO_TABLE)]),
        &assert_no_deleted_tests,
    );
    let dropped = GO_TABLE.replace(
        "\t\t{name: \"octal\", in: \"17\", base: 8, want: 15},\n",
        "",
    );
    both_ways(
        &[(GO, GO_BEFORE)],
        &writing(&[(GO, &dropped)]),
        &assert_one_deleted(
            GO,
            "not among its rows: `func TestParseOctal(t *testing.T)`",
        ),
    );
}
