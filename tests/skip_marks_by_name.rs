//! pytest skip marks kept in a variable (`needs_windows = pytest.mark.skipif(..)`, often in
//! a shared `tests/utils.py` the change does not touch) and applied by name: `@needs_windows`
//! over a test, `marks=needs_windows` in a `pytest.param`, `pytestmark = needs_windows`. Each
//! use the change adds skips a test; a use moved with its test is the same skip; an alias
//! the change itself defines is reported at its definition only. Names are learned from the
//! code: a variable holding something else, or a decorator function of the same shape, is
//! no skip. Each change is judged uncommitted (against HEAD) and committed
//! (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, no_new_skips, skips_at, writing};

const UTILS: &str = "tests/utils.py";
const UTILS_TEXT: &str = concat!(
    "import sys\n",
    "\n",
    "import pytest\n",
    "\n",
    "needs_windows = pytest.mark.skipif(\n",
    "    not sys.platform.startswith(\"win\"), reason=\"Test requires Windows\"\n",
    ")\n",
    "needs_py310 = pytest.mark.skipif(sys.version_info < (3, 10), reason=\"3.10\")\n",
    "slow = pytest.mark.slow\n",
    "\n",
    "\n",
    "def needs_network(f):\n",
    "    return f\n",
);

const TEST: &str = "tests/test_launch.py";
const TEST_TEXT: &str = concat!(
    "from tests.utils import needs_windows\n",
    "\n",
    "\n",
    "def test_open():\n",
    "    assert True\n",
);

#[test]
fn an_existing_alias_put_on_a_new_test_is_a_new_skip() {
    let with_use = concat!(
        "from tests.utils import needs_windows\n",
        "\n",
        "\n",
        "def test_open():\n",
        "    assert True\n",
        "\n",
        "\n",
        "@needs_windows\n",
        "def test_open_windows():\n",
        "    assert True\n",
    );
    both_ways(
        &[(UTILS, UTILS_TEXT), (TEST, TEST_TEXT)],
        &writing(&[(TEST, with_use)]),
        &skips_at(&[(TEST, 8)]),
    );
}

#[test]
fn an_alias_in_params_and_pytestmark_of_a_relative_import_is_a_skip() {
    const PATH: &str = "tests/sub/test_mod.py";
    let text = concat!(
        "import pytest\n",
        "\n",
        "from ..utils import needs_py310, needs_windows as win\n",
        "\n",
        "pytestmark = [win]\n",
        "\n",
        "\n",
        "@pytest.mark.parametrize(\n",
        "    \"mod\",\n",
        "    [\n",
        "        pytest.param(\"tutorial_py39\"),\n",
        "        pytest.param(\"tutorial_py310\", marks=needs_py310),\n",
        "    ],\n",
        ")\n",
        "def test_mod(mod):\n",
        "    assert mod\n",
    );
    both_ways(
        &[(UTILS, UTILS_TEXT), (TEST, TEST_TEXT)],
        &writing(&[(PATH, text)]),
        &skips_at(&[(PATH, 5), (PATH, 12)]),
    );
}

#[test]
fn a_use_moved_with_its_test_is_the_same_skip() {
    let before = concat!(
        "from tests.utils import needs_windows\n",
        "\n",
        "\n",
        "@needs_windows\n",
        "def test_open_windows():\n",
        "    assert True\n",
    );
    let moved = "tests/test_open.py";
    both_ways(
        &[(UTILS, UTILS_TEXT), (TEST, before)],
        &|r| {
            r.write(TEST, "def test_other():\n    assert True\n");
            r.write(moved, before);
        },
        &no_new_skips,
    );
}

#[test]
fn an_alias_defined_in_the_change_is_reported_at_its_definition_only() {
    let utils = UTILS_TEXT.replace(
        "slow = pytest.mark.slow\n",
        "slow = pytest.mark.slow\nneeds_linux = pytest.mark.skipif(not LINUX, reason=\"x\")\n",
    );
    let with_use = concat!(
        "from tests.utils import needs_linux\n",
        "\n",
        "\n",
        "@needs_linux\n",
        "def test_open_linux():\n",
        "    assert True\n",
    );
    both_ways(
        &[(UTILS, UTILS_TEXT), (TEST, TEST_TEXT)],
        &writing(&[(UTILS, &utils), (TEST, with_use)]),
        &skips_at(&[(UTILS, 10)]),
    );
}

#[test]
fn a_variable_holding_another_mark_or_a_plain_decorator_is_no_skip() {
    let with_lookalikes = concat!(
        "import pytest\n",
        "\n",
        "from tests.utils import needs_network, slow\n",
        "\n",
        "tagged = pytest.mark.usefixtures(\"db\")\n",
        "\n",
        "\n",
        "@slow\n",
        "def test_big():\n",
        "    assert True\n",
        "\n",
        "\n",
        "@needs_network\n",
        "@tagged\n",
        "def test_fetch():\n",
        "    assert True\n",
        "\n",
        "\n",
        "@pytest.mark.parametrize(\"x\", [pytest.param(1, marks=slow)])\n",
        "def test_x(x):\n",
        "    assert x\n",
    );
    both_ways(
        &[(UTILS, UTILS_TEXT), (TEST, TEST_TEXT)],
        &writing(&[(TEST, with_lookalikes)]),
        &no_new_skips,
    );
}
