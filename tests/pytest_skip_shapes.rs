//! pytest skips by shape: an alias renamed in its place and put on more tests reaches
//! further, renamed on the same tests it is the same skip; `skipif(False, ..)` (the
//! "installed" branch of an import probe) skips nothing; a `pytest.skip()` that keeps an
//! existing test from only the fixture value the change adds lowers no bar, while one over
//! a value that ran before (or every value but the new one) does. Real repositories, the
//! real binary, both ways.

mod gitrepo;

use gitrepo::{both_ways, no_new_skips, skips_at, writing};

const HTTP: &str = "tests/test_http.py";
const HTTP_OLD: &str = "import pytest


def test_fragmentation():
    assert True
";

#[test]
fn a_skipif_whose_condition_is_false_skips_nothing() {
    let new = "import pytest

try:
    import httptools  # noqa: F401

    needs_httptools = pytest.mark.skipif(False, reason=\"httptools is installed\")
except ModuleNotFoundError:
    needs_httptools = pytest.mark.skipif(True, reason=\"httptools is not installed\")


def test_fragmentation():
    assert True
";
    both_ways(
        &[(HTTP, HTTP_OLD)],
        &writing(&[(HTTP, new)]),
        &skips_at(&[(HTTP, 8)]),
    );
}

const CONFTEST: &str = "tests/conftest.py";
const CONFTEST_OLD: &str = "import pytest


@pytest.fixture(
    params=[
        pytest.param(\"impl:WSProto\", id=\"wsproto\"),
        pytest.param(\"impl:WebSockets\", id=\"websockets\"),
    ]
)
def ws_protocol_cls(request):
    return request.param
";
const CONFTEST_NEW: &str = "import pytest


@pytest.fixture(
    params=[
        pytest.param(\"impl:WSProto\", id=\"wsproto\"),
        pytest.param(\"impl:WebSockets\", id=\"websockets\"),
        pytest.param(\"impl:SansIO\", id=\"sansio\"),
    ]
)
def ws_protocol_cls(request):
    return request.param
";
const WS: &str = "tests/test_websocket.py";
const WS_OLD: &str = "import pytest


async def test_reject_with_body(
    ws_protocol_cls, unused_tcp_port: int
):
    assert ws_protocol_cls
";

fn ws_with_guard(cond: &str) -> String {
    WS_OLD.replace(
        "):\n    assert",
        &format!("):\n    if {cond}:\n        pytest.skip(\"sends start and body in one message\")\n\n    assert"),
    )
}

#[test]
fn a_skip_of_only_the_fixture_value_the_change_adds_is_no_new_skip() {
    let ws = ws_with_guard("ws_protocol_cls == \"impl:SansIO\"");
    both_ways(
        &[(CONFTEST, CONFTEST_OLD), (WS, WS_OLD)],
        &writing(&[(CONFTEST, CONFTEST_NEW), (WS, &ws)]),
        &no_new_skips,
    );
}

#[test]
fn a_skip_of_a_fixture_value_that_ran_before_is_a_new_skip() {
    let ws = ws_with_guard("ws_protocol_cls == \"impl:WSProto\"");
    both_ways(
        &[(CONFTEST, CONFTEST_OLD), (WS, WS_OLD)],
        &writing(&[(CONFTEST, CONFTEST_NEW), (WS, &ws)]),
        &skips_at(&[(WS, 8)]),
    );
}

#[test]
fn a_skip_of_every_value_but_the_new_one_is_a_new_skip() {
    let ws = ws_with_guard("ws_protocol_cls != \"impl:SansIO\"");
    both_ways(
        &[(CONFTEST, CONFTEST_OLD), (WS, WS_OLD)],
        &writing(&[(CONFTEST, CONFTEST_NEW), (WS, &ws)]),
        &skips_at(&[(WS, 8)]),
    );
}

#[test]
fn a_skip_of_a_value_when_no_fixture_gained_it_is_a_new_skip() {
    let ws = ws_with_guard("ws_protocol_cls == \"impl:SansIO\"");
    both_ways(
        &[(CONFTEST, CONFTEST_OLD), (WS, WS_OLD)],
        &writing(&[(WS, &ws)]),
        &skips_at(&[(WS, 8)]),
    );
}

const M1: &str = "tests/test_watch.py";
const M1_OLD: &str = "import sys

import pytest

skip_if_m1 = pytest.mark.skipif(sys.platform == \"darwin\", reason=\"flaky\")


@pytest.mark.parametrize(\"reloader\", [\"stat\", pytest.param(\"watch\", marks=skip_if_m1)])
def test_reload_on_change(reloader):
    assert reloader


@pytest.mark.parametrize(\"reloader\", [\"stat\", \"watch\"])
def test_reload_on_python_change(reloader):
    assert reloader
";

#[test]
fn an_alias_renamed_and_put_on_more_tests_reaches_further() {
    let new = M1_OLD.replace("skip_if_m1", "skip_non_linux").replace(
        "[\"stat\", \"watch\"])",
        "[\"stat\", pytest.param(\"watch\", marks=skip_non_linux)])",
    );
    both_ways(
        &[(M1, M1_OLD)],
        &writing(&[(M1, &new)]),
        &skips_at(&[(M1, 5)]),
    );
}

#[test]
fn an_alias_renamed_on_the_same_tests_is_the_same_skip() {
    let new = M1_OLD.replace("skip_if_m1", "skip_non_linux");
    both_ways(&[(M1, M1_OLD)], &writing(&[(M1, &new)]), &no_new_skips);
}
