//! `deleted_tests` and a test file deleted because a sibling test file now runs the same
//! tests over it: `test_tutorial001_an.py` and `test_tutorial001.py` held the same tests
//! over two example modules; the change deletes the first and parameterises the second
//! over both modules, so every test that ran still runs. Lookalikes still lose tests: the
//! sibling names the deleted module but lacks one of its tests, or holds every test but
//! never names the deleted file's subject. Each case is judged uncommitted (against HEAD)
//! and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, Repo};

const GONE: &str = "tests/test_default/test_tutorial001_an.py";
const SIBLING: &str = "tests/test_default/test_tutorial001.py";

fn tests_over(module: &str, names: &[&str]) -> String {
    let mut text = format!(
        "from typer.testing import CliRunner\n\nfrom docs_src.default import {module} as mod\n\nrunner = CliRunner()\n"
    );
    for name in names {
        text.push_str(&format!(
            "\n\ndef {name}():\n    result = runner.invoke(mod.app, [\"--help\"])\n    assert result.exit_code == 0\n"
        ));
    }
    text
}

fn parameterised(params: &[&str], names: &[&str]) -> String {
    let params: String = params
        .iter()
        .map(|p| format!("        pytest.param(\"{p}\"),\n"))
        .collect();
    let mut text = format!(
        "import importlib\n\nimport pytest\nfrom typer.testing import CliRunner\n\nrunner = CliRunner()\n\n\n@pytest.fixture(\n    name=\"mod\",\n    params=[\n{params}    ],\n)\ndef get_mod(request):\n    return importlib.import_module(f\"docs_src.default.{{request.param}}\")\n"
    );
    for name in names {
        text.push_str(&format!(
            "\n\ndef {name}(mod):\n    result = runner.invoke(mod.app, [\"--help\"])\n    assert result.exit_code == 0\n"
        ));
    }
    text
}

const NAMES: &[&str] = &["test_help", "test_call_no_arg", "test_call_arg"];

fn start() -> Vec<(&'static str, String)> {
    vec![
        (GONE, tests_over("tutorial001_an", NAMES)),
        (SIBLING, tests_over("tutorial001", NAMES)),
    ]
}

fn fold(sibling: String) -> impl Fn(&Repo) {
    move |r: &Repo| {
        r.remove(GONE);
        r.write(SIBLING, &sibling);
    }
}

fn files<'a>(start: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    start.iter().map(|(p, t)| (*p, t.as_str())).collect()
}

#[test]
fn a_test_file_folded_into_its_parameterised_sibling_is_not_deleted() {
    let start = start();
    let sibling = parameterised(&["tutorial001_py39", "tutorial001_an_py39"], NAMES);
    both_ways(&files(&start), &fold(sibling), &assert_no_deleted_tests);
}

#[test]
fn a_sibling_that_lacks_one_of_the_deleted_tests_does_not_carry_the_file() {
    let start = start();
    let sibling = parameterised(&["tutorial001_py39", "tutorial001_an_py39"], &NAMES[..2]);
    // The sibling itself lost `test_call_arg` too: two findings, the deleted file's among them.
    both_ways(&files(&start), &fold(sibling), &|code, receipt, mode| {
        let found = gitrepo::deleted(receipt);
        assert!(found.iter().any(|(p, _)| p == GONE), "{mode}: {found:?}");
        assert_eq!(code, Some(3), "{mode}: {receipt}");
    });
}

#[test]
fn a_sibling_that_never_names_the_deleted_subject_does_not_carry_the_file() {
    let start = start();
    let sibling = parameterised(&["tutorial001_py39", "tutorial002_py39"], NAMES);
    both_ways(
        &files(&start),
        &fold(sibling),
        &assert_one_deleted(GONE, "was deleted with 3 tests"),
    );
}
