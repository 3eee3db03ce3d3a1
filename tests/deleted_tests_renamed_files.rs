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
    assert "Usage: plain" in result.output


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
    if not use_rich:
        assert "Usage: plain" in result.output


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
    // The table no longer runs without rich: the no-rich test's own check, the plain
    // usage line, is in no row.
    let rich_only = HIDDEN.replacen(
        "    if not use_rich:\n        assert \"Usage: plain\" in result.output\n",
        "",
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

/// The cases of a router's matchers: (matcher, title, route, request, match).
const ROWS: &[(&str, &str, &str, &str, bool)] = &[
    (
        "Host",
        "Host route match",
        "Host(\"aaa.bbb.ccc\")",
        "http://aaa.bbb.ccc/111",
        true,
    ),
    (
        "Host",
        "Host route, wrong host",
        "Host(\"aaa.bbb.ccc\")",
        "http://aaa.222.ccc/111",
        false,
    ),
    (
        "Host",
        "Host route with port",
        "Host(\"aaa.bbb.ccc:1234\")",
        "http://aaa.bbb.ccc:1234/111",
        true,
    ),
    (
        "Path",
        "Path route match",
        "Path(\"/111/222/333\")",
        "http://localhost/111/222/333",
        true,
    ),
    (
        "Path",
        "Path route, wrong path",
        "Path(\"/111/222/333\")",
        "http://localhost/1/2/3",
        false,
    ),
    (
        "Path",
        "Path route with pattern",
        "Path(\"/{v1:[0-9]+}\")",
        "http://localhost/42",
        true,
    ),
    (
        "Methods",
        "Methods route, match GET",
        "Methods(\"GET\", \"POST\")",
        "GET http://localhost",
        true,
    ),
    (
        "Methods",
        "Methods route, bad method",
        "Methods(\"GET\", \"POST\")",
        "PUT http://localhost",
        false,
    ),
    (
        "Schemes",
        "Schemes route, match https",
        "Schemes(\"https\", \"ftp\")",
        "https://localhost",
        true,
    ),
    (
        "Schemes",
        "Schemes route, bad scheme",
        "Schemes(\"https\", \"ftp\")",
        "http://localhost",
        false,
    ),
];

fn row((_, title, route, request, matches): &(&str, &str, &str, &str, bool), key: &str) -> String {
    format!(
        "\t\t{{title: \"{title}\", route: new(Route).{route}, request: \"{request}\", {key}: {matches}}},\n"
    )
}

const SUBROUTER: &str = "\nfunc TestSubRouter(t *testing.T) {\n\tr := new(Route).Host(\"{v1:[a-z]+}.google.com\").Subrouter()\n\tif r == nil {\n\t\tt.Fatal(\"no subrouter\")\n\t}\n}\n";

/// One table of every case.
fn routes() -> String {
    let rows: String = ROWS.iter().map(|r| row(r, "match")).collect();
    format!(
        "package mux\n\nimport \"testing\"\n\nfunc TestRoute(t *testing.T) {{\n\ttests := []struct {{\n\t\ttitle   string\n\t\troute   *Route\n\t\trequest string\n\t\tmatch   bool\n\t}}{{\n{rows}\t}}\n\tfor _, test := range tests {{\n\t\ttestRoute(t, test.title, test.route, test.request, test.match)\n\t}}\n}}\n{SUBROUTER}"
    )
}

/// One table per matcher, of the matchers `kinds`.
fn split(kinds: &[&str]) -> String {
    let mut text = String::from(
        "package mux\n\nimport \"testing\"\n\ntype routeTest struct {\n\ttitle       string\n\troute       *Route\n\trequest     string\n\tshouldMatch bool\n}\n",
    );
    for kind in kinds {
        let rows: String = ROWS
            .iter()
            .filter(|r| r.0 == *kind)
            .map(|r| row(r, "shouldMatch"))
            .collect();
        text.push_str(&format!(
            "\nfunc Test{kind}(t *testing.T) {{\n\ttests := []routeTest{{\n{rows}\t}}\n\tfor _, test := range tests {{\n\t\ttestRoute(t, test)\n\t}}\n}}\n"
        ));
    }
    text.push_str(SUBROUTER);
    text
}

#[test]
fn a_table_split_into_one_table_per_matcher_is_not_deleted() {
    let (before, after) = (routes(), split(&["Host", "Path", "Methods", "Schemes"]));
    both_ways(
        &[(GO, &before)],
        &writing(&[(GO, &after)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_split_that_drops_the_path_rows_is_still_a_deletion() {
    // No table of paths: their titles, patterns and requests are in no table.
    let (before, after) = (routes(), split(&["Host", "Methods", "Schemes"]));
    both_ways(
        &[(GO, &before)],
        &writing(&[(GO, &after)]),
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
fn find() {
    let re = regex!(r"\d+");
    assert_eq!(re.find("a1"), Some((1, 2)));
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
            "tests in `tests/tests.rs` dropped from 3 to 2: restore",
        ),
    );
}
