//! pytest and unittest skip marks kept in a variable and applied by name, reached in the
//! other ways real code reaches them: through the module bound to a name (`import
//! helpers as h` then `@h.skip_if_windows`), through `from helpers import *`, as an
//! element of a `marks=[..]` or `pytestmark = [..]` list written over several lines, and
//! unittest's decorators kept in a variable (`skip_on_windows = unittest.skipIf(..)`).
//! Each use the change adds is a skip; a name bound to anything else is not. Each change
//! is judged uncommitted (against HEAD) and committed (`--against HEAD^`). Real
//! repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, no_new_skips, skips_at, writing};

const HELPERS: &str = "tests/helpers.py";
const HELPERS_TEXT: &str = concat!(
    "import sys\n",
    "import unittest\n",
    "\n",
    "import pytest\n",
    "\n",
    "skip_if_windows = pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")\n",
    "skip_on_windows = unittest.skipIf(sys.platform == \"win32\", \"posix only\")\n",
    "only_linux = unittest.skipUnless(sys.platform == \"linux\", \"linux\")\n",
    "slow = pytest.mark.slow\n",
    "runner = unittest.TextTestRunner\n",
);

const TEST: &str = "tests/test_a.py";

fn test_text(head: &str) -> String {
    format!("{head}\n\n\ndef test_one():\n    assert True\n")
}

fn with_tests(head: &str, tests: &str) -> String {
    format!("{}{tests}", test_text(head))
}

#[test]
fn a_mark_applied_through_a_module_alias_is_a_skip() {
    let head = "from tests import helpers as h";
    let after = with_tests(
        head,
        "\n\n@h.skip_if_windows\ndef test_two():\n    assert True\n",
    );
    both_ways(
        &[(HELPERS, HELPERS_TEXT), (TEST, &test_text(head))],
        &writing(&[(TEST, &after)]),
        &skips_at(&[(TEST, 8)]),
    );
}

#[test]
fn a_plain_module_import_reaches_its_marks_too() {
    let head = "import tests.helpers as th";
    let after = with_tests(
        head,
        "\n\n@th.skip_if_windows\ndef test_two():\n    assert True\n",
    );
    both_ways(
        &[(HELPERS, HELPERS_TEXT), (TEST, &test_text(head))],
        &writing(&[(TEST, &after)]),
        &skips_at(&[(TEST, 8)]),
    );
}

#[test]
fn another_mark_through_a_module_alias_is_not_a_skip() {
    let head = "from tests import helpers as h";
    let after = with_tests(
        head,
        "\n\n@h.slow\ndef test_two():\n    assert True\n\n\n@h.runner\ndef test_three():\n    assert True\n",
    );
    both_ways(
        &[(HELPERS, HELPERS_TEXT), (TEST, &test_text(head))],
        &writing(&[(TEST, &after)]),
        &no_new_skips,
    );
}

#[test]
fn a_mark_brought_in_by_a_star_import_is_a_skip_and_another_name_is_not() {
    let head = "from tests.helpers import *";
    let after = with_tests(
        head,
        "\n\n@skip_if_windows\ndef test_two():\n    assert True\n\n\n@slow\ndef test_three():\n    assert True\n",
    );
    both_ways(
        &[(HELPERS, HELPERS_TEXT), (TEST, &test_text(head))],
        &writing(&[(TEST, &after)]),
        &skips_at(&[(TEST, 8)]),
    );
}

#[test]
fn unittest_decorators_kept_in_a_variable_are_skips() {
    let head = "import unittest\n\nfrom tests.helpers import only_linux, runner, skip_on_windows";
    let before =
        format!("{head}\n\n\nclass T(unittest.TestCase):\n    def test_one(self):\n        pass\n");
    let after = format!(
        "{before}\n    @skip_on_windows\n    def test_two(self):\n        pass\n\n    @only_linux\n    def test_three(self):\n        pass\n\n    @runner\n    def test_four(self):\n        pass\n"
    );
    both_ways(
        &[(HELPERS, HELPERS_TEXT), (TEST, &before)],
        &writing(&[(TEST, &after)]),
        &skips_at(&[(TEST, 10), (TEST, 14)]),
    );
}

const PARAMS: &str = concat!(
    "import sys\n",
    "\n",
    "import pytest\n",
    "\n",
    "needs_py310 = pytest.mark.skipif(sys.version_info < (3, 10), reason=\"3.10\")\n",
    "slow = pytest.mark.slow\n",
    "\n",
    "\n",
    "@pytest.mark.parametrize(\"x\", [1])\n",
    "def test_one(x):\n",
    "    assert x\n",
);

#[test]
fn an_alias_in_a_marks_list_over_several_lines_is_a_skip() {
    let after = PARAMS.replace(
        "[1])",
        "[\n    1,\n    pytest.param(2, marks=[\n        slow,\n        needs_py310,\n    ]),\n])",
    );
    both_ways(
        &[(TEST, PARAMS)],
        &writing(&[(TEST, &after)]),
        &skips_at(&[(TEST, 13)]),
    );
}

#[test]
fn an_alias_in_a_pytestmark_list_over_several_lines_is_a_skip() {
    let after = PARAMS.replace(
        "slow = pytest.mark.slow\n",
        "slow = pytest.mark.slow\n\npytestmark = [\n    slow,\n    needs_py310,\n]\n",
    );
    both_ways(
        &[(TEST, PARAMS)],
        &writing(&[(TEST, &after)]),
        &skips_at(&[(TEST, 10)]),
    );
}

#[test]
fn other_names_in_lists_over_several_lines_are_not_skips() {
    let after = PARAMS
        .replace(
            "slow = pytest.mark.slow\n",
            "slow = pytest.mark.slow\n\npytestmark = [\n    slow,\n]\n",
        )
        .replace(
            "[1])",
            "[\n    1,\n    pytest.param(2, marks=[\n        slow,\n    ]),\n    needs_py310,\n])",
        );
    both_ways(
        &[(TEST, PARAMS)],
        &writing(&[(TEST, &after)]),
        &no_new_skips,
    );
}
