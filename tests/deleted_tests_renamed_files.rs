//! `deleted_tests` and test files renamed or folded whole in one change, where a test moved
//! under the file's new name: a test file renamed (git sees a delete and an add) whose two
//! tests became one parameterised test there, the first under its own name; and a test
//! file deleted for a sibling parameterised over both modules, whose test was named after
//! its file (`test_app02_an` in `test_app02_an.py` is `test_app02` in `test_app02.py`).
//! Lookalikes still lose a test: a case the table does not hold, a test whose counterpart
//! the sibling lacks. Each case is judged uncommitted (against HEAD) and committed
//! (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing, Repo};

const OLD: &str = "tests/test_corner_cases.py";
const NEW: &str = "tests/test_hidden.py";

const CORNER: &str = r#"import pytest
import typer.core
from typer.testing import CliRunner

from tests.assets import corner_cases as mod

runner = CliRunner()


def test_hidden_option():
    result = runner.invoke(mod.app, ["--help"])
    assert result.exit_code == 0
    assert "Say hello" in result.output
    assert "--name" not in result.output
    assert "TEST_LASTNAME" in result.output


def test_hidden_option_no_rich(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(typer.core, "HAS_RICH", False)

    result = runner.invoke(mod.app, ["--help"])
    assert result.exit_code == 0
    assert "Say hello" in result.output
    assert "--name" not in result.output
    assert "TEST_LASTNAME" in result.output


def test_coverage_call():
    result = runner.invoke(mod.app)
    assert result.exit_code == 0
    assert "Hello John Doe" in result.output
"#;

/// The file under its new name: the two option tests one test parameterised over rich,
/// the coverage test kept, and a new test of hidden commands.
const HIDDEN: &str = r#"import pytest
import typer.core
from typer.testing import CliRunner

from tests.assets import hidden_commands as mod_command
from tests.assets import hidden_option as mod_option

runner = CliRunner()


@pytest.mark.parametrize("use_rich", [False, True])
def test_hidden_option(monkeypatch: pytest.MonkeyPatch, use_rich: bool) -> None:
    monkeypatch.setattr(typer.core, "HAS_RICH", use_rich)

    result = runner.invoke(mod_option.app, ["--help"])
    assert result.exit_code == 0
    assert "Say hello" in result.output
    assert "--name" not in result.output
    assert "TEST_LASTNAME" in result.output


def test_coverage_call() -> None:
    result = runner.invoke(mod_option.app)
    assert result.exit_code == 0
    assert "Hello John Doe" in result.output


@pytest.mark.parametrize("use_rich", [False, True])
def test_hidden_commands(monkeypatch: pytest.MonkeyPatch, use_rich: bool) -> None:
    monkeypatch.setattr(typer.core, "HAS_RICH", use_rich)

    result = runner.invoke(mod_command.app, ["--help"])
    assert result.exit_code == 0
    assert "hidden-var" not in result.output
"#;

fn renamed(new_text: String) -> impl Fn(&Repo) {
    move |r: &Repo| {
        r.remove(OLD);
        r.write(NEW, &new_text);
    }
}

#[test]
fn a_test_moved_by_name_into_a_table_that_also_folds_its_neighbour_is_not_deleted() {
    both_ways(
        &[(OLD, CORNER)],
        &renamed(HIDDEN.to_string()),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_neighbour_whose_case_the_table_lacks_is_still_deleted() {
    // The table runs with rich only: `HAS_RICH`, `False` of the no-rich test are in no row.
    let rich_only = HIDDEN.replacen(
        "@pytest.mark.parametrize(\"use_rich\", [False, True])\ndef test_hidden_option(monkeypatch: pytest.MonkeyPatch, use_rich: bool) -> None:\n    monkeypatch.setattr(typer.core, \"HAS_RICH\", use_rich)\n",
        "@pytest.mark.parametrize(\"lang\", [\"en\", \"fr\"])\ndef test_hidden_option(lang: str) -> None:\n",
        1,
    );
    assert_ne!(rich_only, HIDDEN);
    both_ways(
        &[(OLD, CORNER)],
        &renamed(rich_only),
        &assert_one_deleted(
            OLD,
            "was deleted with 3 tests (2 moved to `tests/test_hidden.py`)",
        ),
    );
}

const GONE: &str = "tests/test_testing/test_app02_an.py";
const SIBLING: &str = "tests/test_testing/test_app02.py";

fn module_tests(module: &str, names: &[&str]) -> String {
    let mut text = format!(
        "import subprocess\nimport sys\n\nfrom docs_src.testing.{module} import main as mod\nfrom docs_src.testing.{module}.test_main import test_app\n"
    );
    for name in names {
        text.push_str(&format!(
            "\n\ndef {name}():\n    test_app()\n    result = subprocess.run([sys.executable, mod.__file__, \"--help\"], capture_output=True)\n    assert b\"Usage\" in result.stdout\n"
        ));
    }
    text
}

fn over_both(names: &[&str]) -> String {
    let mut text = String::from(
        "import importlib\nimport subprocess\nimport sys\n\nimport pytest\n\n\n@pytest.fixture(\n    name=\"mod\",\n    params=[\n        \"app02_py39\",\n        \"app02_an_py39\",\n    ],\n)\ndef get_mod(request):\n    return importlib.import_module(f\"docs_src.testing.{request.param}.main\")\n",
    );
    for name in names {
        text.push_str(&format!(
            "\n\ndef {name}(mod):\n    result = subprocess.run([sys.executable, mod.__file__, \"--help\"], capture_output=True)\n    assert b\"Usage\" in result.stdout\n"
        ));
    }
    text
}

fn fold_into_sibling(sibling: String) -> impl Fn(&Repo) {
    move |r: &Repo| {
        r.remove(GONE);
        r.write(SIBLING, &sibling);
    }
}

#[test]
fn a_test_named_after_its_file_runs_on_under_the_siblings_name() {
    let gone = module_tests("app02_an", &["test_app02_an", "test_script"]);
    let sibling = module_tests("app02", &["test_app02", "test_script"]);
    both_ways(
        &[(GONE, &gone), (SIBLING, &sibling)],
        &fold_into_sibling(over_both(&["test_app02", "test_script"])),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_named_after_its_file_whose_counterpart_the_sibling_lacks_is_deleted() {
    // `test_app02_an_verbose` would run as `test_app02_verbose`, which the sibling lacks.
    let gone = module_tests(
        "app02_an",
        &["test_app02_an", "test_app02_an_verbose", "test_script"],
    );
    let sibling = module_tests("app02", &["test_app02", "test_script"]);
    both_ways(
        &[(GONE, &gone), (SIBLING, &sibling)],
        &fold_into_sibling(over_both(&["test_app02", "test_script"])),
        &assert_one_deleted(GONE, "was deleted with 3 tests"),
    );
}

const GO: &str = "mux_test.go";

const ROUTES: &str = r#"package mux

import "testing"

func TestRoute(t *testing.T) {
	tests := []struct {
		title   string
		route   *Route
		request string
		match   bool
	}{
		{title: "Host route match", route: new(Route).Host("aaa.bbb.ccc"), request: "http://aaa.bbb.ccc/111", match: true},
		{title: "Host route, wrong host", route: new(Route).Host("aaa.bbb.ccc"), request: "http://aaa.222.ccc/111", match: false},
		{title: "Path route match", route: new(Route).Path("/111/222/333"), request: "http://localhost/111/222/333", match: true},
		{title: "Path route, wrong path", route: new(Route).Path("/111/222/333"), request: "http://localhost/1/2/3", match: false},
	}
	for _, test := range tests {
		testRoute(t, test.title, test.route, test.request, test.match)
	}
}

func TestSubRouter(t *testing.T) {
	r := new(Route).Host("{v1:[a-z]+}.google.com").Subrouter()
	if r == nil {
		t.Fatal("no subrouter")
	}
}
"#;

/// `TestRoute`'s rows as two tables, one per matcher, and a new test of schemes.
const SPLIT: &str = r#"package mux

import "testing"

type routeTest struct {
	title       string
	route       *Route
	request     string
	shouldMatch bool
}

func TestHost(t *testing.T) {
	tests := []routeTest{
		{title: "Host route match", route: new(Route).Host("aaa.bbb.ccc"), request: "http://aaa.bbb.ccc/111", shouldMatch: true},
		{title: "Host route, wrong host", route: new(Route).Host("aaa.bbb.ccc"), request: "http://aaa.222.ccc/111", shouldMatch: false},
	}
	for _, test := range tests {
		testRoute(t, test)
	}
}

func TestPath(t *testing.T) {
	tests := []routeTest{
		{title: "Path route match", route: new(Route).Path("/111/222/333"), request: "http://localhost/111/222/333", shouldMatch: true},
		{title: "Path route, wrong path", route: new(Route).Path("/111/222/333"), request: "http://localhost/1/2/3", shouldMatch: false},
	}
	for _, test := range tests {
		testRoute(t, test)
	}
}

func TestSchemes(t *testing.T) {
	tests := []routeTest{
		{title: "Schemes route, match https", route: new(Route).Schemes("https"), request: "https://localhost", shouldMatch: true},
	}
	for _, test := range tests {
		testRoute(t, test)
	}
}

func TestSubRouter(t *testing.T) {
	r := new(Route).Host("{v1:[a-z]+}.google.com").Subrouter()
	if r == nil {
		t.Fatal("no subrouter")
	}
}
"#;

#[test]
fn a_table_split_into_one_table_per_matcher_is_not_deleted() {
    both_ways(
        &[(GO, ROUTES)],
        &writing(&[(GO, SPLIT)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_split_that_drops_the_path_rows_is_still_a_deletion() {
    // The path table now checks prefixes: the old path rows are in no table.
    let no_path = SPLIT
        .replace(
            "{title: \"Path route match\", route: new(Route).Path(\"/111/222/333\"), request: \"http://localhost/111/222/333\", shouldMatch: true},",
            "{title: \"Prefix match\", route: new(Route).PathPrefix(\"/api\"), request: \"http://localhost/api/v1\", shouldMatch: true},",
        )
        .replace(
            "{title: \"Path route, wrong path\", route: new(Route).Path(\"/111/222/333\"), request: \"http://localhost/1/2/3\", shouldMatch: false},",
            "{title: \"Prefix, no match\", route: new(Route).PathPrefix(\"/api\"), request: \"http://localhost/web\", shouldMatch: false},",
        );
    assert_ne!(no_path, SPLIT);
    both_ways(
        &[(GO, ROUTES)],
        &writing(&[(GO, &no_path)]),
        &assert_one_deleted(GO, "`func TestRoute(t *testing.T)` was removed"),
    );
}

const RS_TESTS: &str = "tests/tests.rs";
const RS_STATIC: &str = "tests/static_re.rs";

const TESTS_RS: &str = r#"use regex::Regex;

#[test]
fn eq() {
    assert_eq!(regex!(r"[a-z]+"), Regex::new("[a-z]+").unwrap());
}

#[test]
fn splitn() {
    let re = regex!(r"\d+");
    let text = "cauchy123plato456tyler789binx";
    let subs: Vec<&str> = re.splitn(text, 2).collect();
    assert_eq!(subs, vec!("cauchy", "plato456tyler789binx"));
}
"#;

const STATIC_RS: &str = r#"use regex::Regex;
static RE: Regex = regex!(r"\d+");

#[test]
fn static_splitn() {
    let text = "cauchy123plato456tyler789binx";
    let subs: Vec<&str> = RE.splitn(text, 2).collect();
    assert_eq!(subs, vec!("cauchy", "plato456tyler789binx"));
}
"#;

fn made_one(static_now: String) -> impl Fn(&Repo) {
    move |r: &Repo| {
        r.write(
            RS_TESTS,
            &TESTS_RS[..TESTS_RS.find("\n#[test]\nfn splitn").unwrap() + 1],
        );
        r.write(RS_STATIC, &static_now);
    }
}

#[test]
fn twin_tests_made_one_under_the_moved_name_are_not_deleted() {
    // `static_splitn` renamed `splitn`, its body kept: the two checks were one.
    both_ways(
        &[(RS_TESTS, TESTS_RS), (RS_STATIC, STATIC_RS)],
        &made_one(STATIC_RS.replace("fn static_splitn()", "fn splitn()")),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_renamed_to_the_moved_name_that_checks_something_else_is_no_twin() {
    // `tests.rs`'s `splitn` split other text: `static_splitn` renamed `splitn` checks
    // nothing it did.
    let other = TESTS_RS
        .replace("cauchy123plato456tyler789binx", "a1b2c3")
        .replace(
            "vec!(\"cauchy\", \"plato456tyler789binx\")",
            "vec!(\"a\", \"b2c3\")",
        );
    assert_ne!(other, TESTS_RS);
    both_ways(
        &[(RS_TESTS, &other), (RS_STATIC, STATIC_RS)],
        &made_one(STATIC_RS.replace("fn static_splitn()", "fn splitn()")),
        &assert_one_deleted(
            RS_TESTS,
            "tests in `tests/tests.rs` dropped from 2 to 1: restore",
        ),
    );
}
