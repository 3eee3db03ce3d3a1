//! Skips restated, not added: a pytest `skipif(X is None)` for a missing module rewritten
//! as a skip in the import's `except ImportError:` branch (an alias or `pytestmark`), a
//! wrapped `parametrize` list joined onto one line with its `marks=` kept, and assumption
//! calls in a test class of the assumption API itself. Lookalikes that still fire: another
//! reason, a reach that grew, a `marks=` new in a list, an assumption in any other class.
//! And Go's `testing.Short()`: `t.Skip()` under it is a skip. Real repositories, the real
//! binary, both ways.

mod gitrepo;

use gitrepo::{both_ways, no_new_skips, skips_at, writing};

const HTTP: &str = "tests/test_http.py";
const HTTP_OLD: &str = "import pytest

try:
    from fastlib.protocol import FastProtocol
except ImportError:  # pragma: nocover
    FastProtocol = None


@pytest.mark.skipif(FastProtocol is None, reason=\"fastlib is not installed\")
def test_fragmentation():
    assert FastProtocol


@pytest.mark.skipif(FastProtocol is None, reason=\"fastlib is not installed\")
def test_huge_headers_pass():
    assert FastProtocol
";

fn http_new(reason: &str, extra_test: bool) -> String {
    let mut s = format!(
        "import pytest

try:
    from fastlib.protocol import FastProtocol

    skip_if_no_fastlib = pytest.mark.skipif(False, reason=\"fastlib is installed\")
except ModuleNotFoundError:
    skip_if_no_fastlib = pytest.mark.skipif(True, reason=\"{reason}\")


@skip_if_no_fastlib
def test_fragmentation():
    assert FastProtocol


@skip_if_no_fastlib
def test_huge_headers_pass():
    assert FastProtocol
"
    );
    if extra_test {
        s.push_str("\n\n@skip_if_no_fastlib\ndef test_huge_headers():\n    assert True\n");
    }
    s
}

#[test]
fn a_missing_module_skip_rewritten_into_the_import_branch_is_the_same_skip() {
    let new = http_new("fastlib is not installed", false);
    both_ways(
        &[(HTTP, HTTP_OLD)],
        &writing(&[(HTTP, &new)]),
        &no_new_skips,
    );
}

#[test]
fn another_reason_or_a_test_more_under_it_is_a_new_skip() {
    let new = http_new("flaky on CI", false);
    both_ways(
        &[(HTTP, HTTP_OLD)],
        &writing(&[(HTTP, &new)]),
        &skips_at(&[(HTTP, 8)]),
    );
    let new = http_new("fastlib is not installed", true);
    both_ways(
        &[(HTTP, HTTP_OLD)],
        &writing(&[(HTTP, &new)]),
        &skips_at(&[(HTTP, 8)]),
    );
}

const WS: &str = "tests/test_websocket.py";
const WS_OLD: &str = "import pytest

try:
    import wslib
    import wslib.client
except ImportError:  # pragma: nocover
    wslib = None

pytestmark = pytest.mark.skipif(
    wslib is None, reason=\"This test needs the wslib module\"
)


def test_accept_connection():
    assert wslib.client
";
const WS_NEW: &str = "import pytest

try:
    import wslib.client
except ImportError:  # pragma: nocover
    pytestmark = pytest.mark.skip(reason=\"This test needs the wslib module\")


def test_accept_connection():
    assert wslib.client
";

#[test]
fn a_module_mark_rewritten_into_the_import_branch_is_the_same_skip() {
    both_ways(&[(WS, WS_OLD)], &writing(&[(WS, WS_NEW)]), &no_new_skips);
}

#[test]
fn a_module_mark_in_place_of_one_tests_mark_skips_more() {
    let old = WS_OLD
        .replace(
            "pytestmark = pytest.mark.skipif(\n    wslib is None, reason=\"This test needs the wslib module\"\n)\n",
            "",
        )
        .replace(
            "def test_accept_connection",
            "@pytest.mark.skipif(wslib is None, reason=\"This test needs the wslib module\")\ndef test_accept_connection",
        );
    both_ways(
        &[(WS, &old)],
        &writing(&[(WS, WS_NEW)]),
        &skips_at(&[(WS, 6)]),
    );
}

const RELOAD: &str = "tests/test_reload.py";
const RELOAD_OLD: &str = "import sys

import pytest

from app.reload import StatReload, WatchFilesReload, WatchGodReload

skip_if_m1 = pytest.mark.skipif(sys.platform == \"darwin\", reason=\"Flaky on MacOS\")


class TestBaseReload:
    @pytest.mark.parametrize(
        \"reloader_class\",
        [
            StatReload,
            WatchGodReload,
            pytest.param(WatchFilesReload, marks=skip_if_m1),
        ],
    )
    def test_should_not_reload_when_only_subdirectory_is_watched(self, reloader_class) -> None:
        assert reloader_class
";

#[test]
fn a_wrapped_param_list_joined_on_one_line_keeps_its_skip() {
    let new = "import sys

import pytest

from app.reload import StatReload, WatchFilesReload

skip_if_m1 = pytest.mark.skipif(sys.platform == \"darwin\", reason=\"Flaky on MacOS\")


class TestBaseReload:
    @pytest.mark.parametrize(
        \"reloader_class\",
        [StatReload, pytest.param(WatchFilesReload, marks=skip_if_m1)],
    )
    def test_should_not_reload_when_only_subdirectory_is_watched(self, reloader_class: type) -> None:
        assert reloader_class
";
    both_ways(
        &[(RELOAD, RELOAD_OLD)],
        &writing(&[(RELOAD, new)]),
        &no_new_skips,
    );
}

#[test]
fn a_mark_new_in_a_one_line_param_list_is_a_skip() {
    let old = RELOAD_OLD.replace(
        "            pytest.param(WatchFilesReload, marks=skip_if_m1),\n",
        "            WatchFilesReload,\n",
    );
    let new = old.replace(
        "        [\n            StatReload,\n            WatchGodReload,\n            WatchFilesReload,\n        ],\n",
        "        [StatReload, pytest.param(WatchFilesReload, marks=skip_if_m1)],\n",
    );
    assert_ne!(old, new);
    both_ways(
        &[(RELOAD, &old)],
        &writing(&[(RELOAD, &new)]),
        &skips_at(&[(RELOAD, 13)]),
    );
}

const ASSUMPTIONS: &str =
    "src/test/java/org/example/api/assumptions/Assumptions_assumeThat_with_various_types_Test.java";
const ASSUMPTIONS_OLD: &str = "package org.example.api.assumptions;

import static org.example.api.Assumptions.assumeThat;

import org.junit.jupiter.api.Test;

class Assumptions_assumeThat_with_various_types_Test {

  @Test
  void should_ignore_test_when_assumption_fails() {
    expectAssumptionNotMetException(() -> assumeThat(\"foo\").isEqualTo(\"bar\"));
  }
}
";

fn with_runner(old: &str) -> String {
    old.replace(
        "  }\n}\n",
        "  }

  @Test
  void should_run_test_when_assumption_for_sql_exception_passes() {
    SQLException actual = new SQLException();
    assumeThat(actual).isInstanceOf(SQLException.class);
    assumeThat(actual).isNotNull();
  }
}
",
    )
}

#[test]
fn assumptions_in_a_test_of_the_assumption_api_are_what_it_tests() {
    let new = with_runner(ASSUMPTIONS_OLD);
    both_ways(
        &[(ASSUMPTIONS, ASSUMPTIONS_OLD)],
        &writing(&[(ASSUMPTIONS, &new)]),
        &no_new_skips,
    );
}

const SQL_TEST: &str = "src/test/java/org/example/api/SqlExceptionTest.java";

#[test]
fn an_assumption_in_any_other_test_class_is_a_skip() {
    let path = SQL_TEST;
    let old = ASSUMPTIONS_OLD.replace(
        "Assumptions_assumeThat_with_various_types_Test",
        "SqlExceptionTest",
    );
    let new = with_runner(&old);
    both_ways(
        &[(path, &old)],
        &writing(&[(path, &new)]),
        &skips_at(&[(SQL_TEST, 17), (SQL_TEST, 18)]),
    );
}

const GO_MOD: (&str, &str) = ("go.mod", "module example.com/store\n\ngo 1.21\n");
const STORE: &str = "store_test.go";
const STORE_OLD: &str = "package store

import \"testing\"

func TestCompaction(t *testing.T) {
\tif testing.Short() {
\t\treturn
\t}
\tcompact(t)
}
";

#[test]
fn a_short_mode_skip_on_a_test_that_always_ran_is_a_skip() {
    let old = STORE_OLD.replace("\tif testing.Short() {\n\t\treturn\n\t}\n", "");
    let new = STORE_OLD.replace(
        "\t\treturn\n",
        "\t\tt.Skip(\"slow: compacts a large store\")\n",
    );
    both_ways(
        &[GO_MOD, (STORE, &old)],
        &writing(&[(STORE, &new)]),
        &skips_at(&[(STORE, 7)]),
    );
}

#[test]
fn an_alias_put_on_a_param_of_a_one_line_decorator_is_a_skip() {
    let old = "import sys

import pytest

from app.reload import StatReload, WatchFilesReload

skip_non_linux = pytest.mark.skipif(sys.platform in (\"darwin\", \"win32\"), reason=\"Flaky\")


class TestBaseReload:
    @pytest.mark.parametrize(\"reloader_class\", [StatReload, WatchFilesReload])
    def test_reload_when_python_file_is_changed(self, reloader_class) -> None:
        assert reloader_class
";
    let new = old.replace(
        "[StatReload, WatchFilesReload])",
        "[StatReload, pytest.param(WatchFilesReload, marks=skip_non_linux)])",
    );
    both_ways(
        &[(RELOAD, old)],
        &writing(&[(RELOAD, &new)]),
        &skips_at(&[(RELOAD, 11)]),
    );
}

#[test]
fn a_wrapped_param_list_moved_onto_the_decorators_line_keeps_its_skip() {
    let new = "import sys

import pytest

from app.reload import StatReload, WatchFilesReload

skip_if_m1 = pytest.mark.skipif(sys.platform == \"darwin\", reason=\"Flaky on MacOS\")


class TestBaseReload:
    @pytest.mark.parametrize(\"reloader_class\", [pytest.param(WatchFilesReload, marks=skip_if_m1)])
    def test_should_not_reload_when_only_subdirectory_is_watched(
        self, reloader_class: type
    ) -> None:
        assert reloader_class
";
    both_ways(
        &[(RELOAD, RELOAD_OLD)],
        &writing(&[(RELOAD, new)]),
        &no_new_skips,
    );
}

const STREAM: &str =
    "src/test/java/org/example/api/Assertions_assertThat_with_Stream_startsWith_Test.java";
const STREAM_OLD: &str = "package org.example.api;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class Assertions_assertThat_with_Stream_startsWith_Test {

  // TODO infinite streams and assertion chaining cannot both be supported
  @Test
  @Disabled
  void startsWith_should_work_with_infinite_streams() {
    assertThat(infiniteStream).startsWith(\"\", \"\");
  }

  @Test
  void should_reuse_stream_after_assertion() {
    assertThat(Stream.of(\"Luke\", \"Leia\")).startsWith(\"Luke\").endsWith(\"Leia\");
  }
}
";
const LIST: &str = "src/test/java/org/example/api/list/ListAssert_startsWith_Test.java";

fn list_new(disabled_body: &str) -> String {
    format!(
        "package org.example.api.list;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class ListAssert_startsWith_Test {{

  @Test
  @Disabled
  void should_support_infinite_streams() {{
    // TODO infinite streams and assertion chaining cannot both be supported
    {disabled_body}
  }}

  @Test
  void should_reuse_stream_after_startsWith_assertion() {{
    assertThat(Stream.of(\"Luke\", \"Leia\")).startsWith(\"Luke\").endsWith(\"Leia\");
  }}
}}
"
    )
}

#[test]
fn a_disabled_test_moved_under_a_new_name_is_the_same_skip() {
    let new = list_new("assertThat(infiniteStream).startsWith(\"\", \"\");");
    both_ways(
        &[(STREAM, STREAM_OLD)],
        &|r| {
            r.remove(STREAM);
            r.write(LIST, &new);
        },
        &no_new_skips,
    );
}

#[test]
fn a_copy_of_a_disabled_test_that_stays_is_a_new_skip() {
    let new = list_new("assertThat(infiniteStream).startsWith(\"\", \"\");");
    both_ways(
        &[(STREAM, STREAM_OLD)],
        &writing(&[(LIST, &new)]),
        &skips_at(&[(LIST, 9)]),
    );
}
