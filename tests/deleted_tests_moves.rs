//! `deleted_tests` tells a moved or restructured test from a deleted one: tests folded into
//! a shared runner that the file now loads, a test renamed as it moved to another file
//! (most of its body kept), a deleted test file written anew under a new name about the
//! same thing, and an empty placeholder test removed are not deleted tests;
//! each lookalike that really loses a test still is. Each case is judged uncommitted
//! (against HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;
mod support;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, deleted, guard, Repo};

const ROUTER: &str = "import { Router } from './router'

describe('match', () => {
  it('finds /hello', () => {
    expect(new Router().match('/hello')).toBe(1)
  })

  it('finds /bye', () => {
    expect(new Router().match('/bye')).toBe(2)
  })
})\n";

/// The per-router files now call a runner shared by both.
const CALLER: &str = "import { runTest } from '../common.case.test'
import { Router } from './router'

runTest({ newRouter: () => new Router() })\n";

const RUNNER: &str = "export const runTest = ({ newRouter }) => {
  describe('match', () => {
    it('finds /hello', () => {
      expect(newRouter().match('/hello')).toBe(1)
    })

    it('finds /bye', () => {
      expect(newRouter().match('/bye')).toBe(2)
    })
  })
}\n";

const ROUTERS: &[(&str, &str)] = &[
    ("src/router/trie/router.test.ts", ROUTER),
    ("src/router/linear/router.test.ts", ROUTER),
    ("src/router/trie/router.ts", "export class Router {}\n"),
    ("src/router/linear/router.ts", "export class Router {}\n"),
];

#[test]
fn tests_folded_into_a_shared_runner_that_each_file_loads_are_not_deleted() {
    both_ways(
        ROUTERS,
        &|r| {
            r.write("src/router/common.case.test.ts", RUNNER);
            r.write("src/router/trie/router.test.ts", CALLER);
            r.write("src/router/linear/router.test.ts", CALLER);
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_file_that_stops_running_its_tests_beside_a_new_runner_still_deleted_them() {
    both_ways(
        ROUTERS,
        &|r| {
            r.write("src/router/common.case.test.ts", RUNNER);
            r.write("src/router/trie/router.test.ts", CALLER);
            // No call into the runner: its two tests run nowhere.
            r.write(
                "src/router/linear/router.test.ts",
                "import { Router } from './router'\n",
            );
        },
        &assert_one_deleted(
            "src/router/linear/router.test.ts",
            "tests in `src/router/linear/router.test.ts` dropped from 2 to 0",
        ),
    );
}

const LOGGING: &str = "import logging

from click.testing import CliRunner

from app import hello


def test_runner_logger():
    logger = logging.getLogger(__name__)
    runner = CliRunner()
    result = runner.invoke(hello, input=\"Peter\")
    assert result.exit_code == 0
    assert result.output == \"Your name: Peter\\n\"\n";

/// A new module of stream tests, unlike enough to the old one not to be taken for its
/// rename.
fn streams(test: &str) -> String {
    format!(
        "import io\nimport logging\nimport threading\n\nfrom click.testing import CliRunner, StreamMixer\n\nfrom app import bye, hello\n\n\n\
def test_mixer_keeps_its_buffers():\n    mixer = StreamMixer()\n    out = mixer.stdout\n    del mixer\n    assert not out.closed\n\n\n\
def test_wrapper_close_leaves_the_buffer_open():\n    buffer = io.BytesIO()\n    wrapper = io.TextIOWrapper(buffer)\n    wrapper.detach()\n    assert not buffer.closed\n\n\n\
def test_threads_share_the_runner():\n    runner = CliRunner()\n    threads = [threading.Thread(target=runner.invoke, args=(bye,)) for _ in range(4)]\n    for t in threads:\n        t.start()\n    for t in threads:\n        t.join()\n\n\n{test}"
    )
}

#[test]
fn a_test_renamed_as_it_moved_to_another_file_is_not_deleted() {
    both_ways(
        &[("tests/test_logging.py", LOGGING)],
        &|r| {
            r.remove("tests/test_logging.py");
            r.write(
                "tests/test_streams.py",
                &streams(
                    "def test_invoke_with_logger_and_prompt():\n    logger = logging.getLogger(__name__)\n    runner = CliRunner()\n    result = runner.invoke(hello, input=\"Peter\")\n    assert result.exit_code == 0\n    assert \"Your name:\" in result.output\n",
                ),
            );
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_new_test_elsewhere_that_shares_only_boilerplate_does_not_cover_a_deleted_one() {
    both_ways(
        &[("tests/test_logging.py", LOGGING)],
        &|r| {
            r.remove("tests/test_logging.py");
            r.write(
                "tests/test_streams.py",
                &streams(
                    "def test_bye():\n    runner = CliRunner()\n    result = runner.invoke(bye)\n    assert result.exit_code == 0\n    assert result.output == \"Bye\\n\"\n",
                ),
            );
        },
        &assert_one_deleted(
            "tests/test_logging.py",
            "test file `tests/test_logging.py` was deleted with 1 test",
        ),
    );
}

const CSS: &str = "import { css } from './css'

it.skip('this file only exports test runners.', () => {})

export const renderTest = () => {
  it('renders', () => {
    expect(css`color: red`).toBe('.a{color:red}')
  })
}\n";

#[test]
fn an_empty_placeholder_test_removed_is_not_a_deleted_test() {
    both_ways(
        &[("src/css/common.test.ts", CSS)],
        &|r| {
            r.write(
                "src/css/common.test.ts",
                &CSS.replace(
                    "it.skip('this file only exports test runners.', () => {})\n\n",
                    "",
                ),
            );
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_one_line_test_removed_is_a_deleted_test() {
    let with = CSS.replace(
        "it.skip('this file only exports test runners.', () => {})",
        "it('minifies', () => expect(minify('a { }')).toBe('a{}'))",
    );
    both_ways(
        &[("src/css/common.test.ts", &with)],
        &|r| {
            r.write(
                "src/css/common.test.ts",
                &with.replace(
                    "it('minifies', () => expect(minify('a { }')).toBe('a{}'))\n\n",
                    "",
                ),
            );
        },
        &assert_one_deleted(
            "src/css/common.test.ts",
            "tests in `src/css/common.test.ts` dropped from 2 to 1",
        ),
    );
}

const UTILS: &str = "import click


def test_confirm_repeat(runner):
    cli = click.Command(\"cli\", params=[click.Option([\"--a/--no-a\"], prompt=True)])
    result = runner.invoke(cli, input=\"\\ny\\n\")
    assert result.output == \"A [y/n]: \\nError: invalid input\\nA [y/n]: y\\n\"


def test_prompt_eof(runner):
    result = runner.invoke(click.Command(\"cli\"), input=\"\")
    assert result.exit_code == 0
";

/// An earlier change copied `test_confirm_repeat` into its own module, body and all.
fn confirm(body: &str) -> String {
    format!("import click\n\n\ndef test_confirm_repeat(runner):\n{body}")
}

const CONFIRM_BODY: &str =
    "    cli = click.Command(\"cli\", params=[click.Option([\"--a/--no-a\"], prompt=True)])
    result = runner.invoke(cli, input=\"\\ny\\n\")
    assert result.output == \"A [y/n]: \\nError: invalid input\\nA [y/n]: y\\n\"
";

fn without_confirm(r: &Repo) {
    let start = UTILS.find("def test_confirm_repeat").unwrap();
    let end = UTILS.find("def test_prompt_eof").unwrap();
    r.write(
        "tests/test_utils.py",
        &format!("{}{}", &UTILS[..start], &UTILS[end..]),
    );
}

#[test]
fn the_original_of_a_test_already_copied_next_door_is_not_a_deleted_test() {
    let copy = confirm(CONFIRM_BODY);
    both_ways(
        &[
            ("tests/test_utils.py", UTILS),
            ("tests/test_confirm.py", &copy),
        ],
        &without_confirm,
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_neighbour_test_of_the_same_name_that_checks_something_else_is_no_copy() {
    let other = confirm("    assert click.confirm is not None\n");
    both_ways(
        &[
            ("tests/test_utils.py", UTILS),
            ("tests/test_confirm.py", &other),
        ],
        &without_confirm,
        &assert_one_deleted(
            "tests/test_utils.py",
            "tests in `tests/test_utils.py` dropped from 2 to 1:",
        ),
    );
}

const SPEC: &str = "require_relative 'helper'

describe 'App' do
  specify 'renders the page' do
    get '/'
    assert ok?
  end

  specify 'streams' do
    get '/stream'
    assert ok?
  end
end
";

#[test]
fn a_spec_turned_into_xspecify_is_a_new_skip_not_a_deleted_test() {
    both_ways(
        &[("test/app_test.rb", SPEC)],
        &|r| {
            r.write(
                "test/app_test.rb",
                &SPEC.replace("specify 'streams'", "xspecify 'streams'"),
            )
        },
        &|code, receipt, mode| {
            assert_eq!(deleted(receipt), [], "{mode}");
            let skips = guard(receipt, "new_skips")["findings"]
                .as_array()
                .unwrap()
                .clone();
            assert_eq!(skips.len(), 1, "{mode}: {skips:?}");
            assert_eq!(skips[0]["line"], 9, "{mode}");
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_spec_removed_is_still_a_deleted_test() {
    let cut = "\n  specify 'streams' do\n    get '/stream'\n    assert ok?\n  end\n";
    assert!(SPEC.contains(cut));
    both_ways(
        &[("test/app_test.rb", SPEC)],
        &|r| r.write("test/app_test.rb", &SPEC.replace(cut, "")),
        &assert_one_deleted(
            "test/app_test.rb",
            "tests in `test/app_test.rb` dropped from 2 to 1",
        ),
    );
}

const MANIFEST_TEST: &str = "package gson;

import org.junit.Test;

public class OSGiTest {
  @Test
  public void testAnnotationsPackage() throws Exception {
    String imports = findManifest(\"gson\").imports();
    assertWithMessage(\"no annotations import\").that(imports).doesNotContain(\"annotations\");
  }

  @Test
  public void testSunMiscImport() throws Exception {
    String imports = findManifest(\"gson\").imports();
    assertWithMessage(\"sun.misc is optional\").that(imports).contains(\"resolution:=optional\");
  }
}
";

/// The same manifest checked by new code, as an integration test of the final jar.
const MANIFEST_IT: &str = "package gson;

import org.junit.Test;

public class OSGiManifestIT {
  @Test
  public void testBundleInformation() {
    assertThat(attribute(\"Bundle-Name\")).isEqualTo(\"Gson\");
  }

  @Test
  public void testImports() {
    assertThat(splitPackages(attribute(\"Import-Package\"))).containsExactly(\"sun.misc\");
  }

  @Test
  public void testExports() {
    assertThat(splitPackages(attribute(\"Export-Package\"))).hasSize(4);
  }
}
";

#[test]
fn a_test_file_rewritten_under_a_new_name_about_the_same_thing_is_not_deleted() {
    both_ways(
        &[("src/test/java/regression/OSGiTest.java", MANIFEST_TEST)],
        &|r| {
            r.remove("src/test/java/regression/OSGiTest.java");
            r.write("src/test/java/integration/OSGiManifestIT.java", MANIFEST_IT);
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_file_deleted_beside_a_new_one_about_something_else_is_still_deleted() {
    both_ways(
        &[("src/test/java/UserTest.java", MANIFEST_TEST)],
        &|r| {
            r.remove("src/test/java/UserTest.java");
            r.write(
                "src/test/java/UsernameTest.java",
                &MANIFEST_IT.replace("OSGiManifestIT", "UsernameTest"),
            );
        },
        &assert_one_deleted(
            "src/test/java/UserTest.java",
            "test file `src/test/java/UserTest.java` was deleted with 2 tests",
        ),
    );
}

const TWO_RUST_TESTS: &str = "#[test]
fn moved() {
    assert_eq!(f(), 1);
}

#[test]
fn kept() {
    assert_eq!(g(), 2);
}
";

const KEPT_ONLY: &str = "#[test]
fn kept() {
    assert_eq!(g(), 2);
}
";

/// The line diff keeps the first `#[test]` as the kept test's attribute, so the removed
/// lines hold `moved`'s name and body but the second test's attribute.
#[test]
fn a_test_moved_out_from_above_another_is_known_whatever_the_diff_aligns() {
    both_ways(
        &[("src/a.rs", TWO_RUST_TESTS)],
        &|r| {
            r.write("src/a.rs", KEPT_ONLY);
            r.write(
                "src/b.rs",
                "#[test]\nfn moved() {\n    assert_eq!(f(), 1);\n}\n",
            );
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_removed_from_above_another_is_deleted() {
    both_ways(
        &[("src/a.rs", TWO_RUST_TESTS)],
        &|r| {
            r.write("src/a.rs", KEPT_ONLY);
            r.write("src/b.rs", "#[test]\nfn other() {\n    assert!(h());\n}\n");
        },
        &assert_one_deleted("src/a.rs", "tests in `src/a.rs` dropped from 2 to 1"),
    );
}

const JUNIT3_SUITE: &str = "package gson.functional;

import junit.framework.TestCase;

public class JsonArrayTest extends TestCase {
  public void testStringAddition() {
    JsonArray a = new JsonArray();
    a.add(\"Hello\");
    assertEquals(\"[\\\"Hello\\\"]\", a.toString());
  }

  public void testNullAddition() {
    JsonArray a = new JsonArray();
    a.add((String) null);
    assertEquals(\"[null]\", a.toString());
  }
}
";

/// The same tests in the JUnit 4 suite of the class, each given `@Test`, asserting anew.
const JUNIT4_SUITE: &str = "package gson;

import org.junit.Test;

public class JsonArrayTest {
  @Test
  public void testStringAddition() {
    JsonArray a = new JsonArray();
    assertThat(a.add(\"Hello\").toString()).isEqualTo(\"[\\\"Hello\\\"]\");
  }

  @Test
  public void testNullAddition() {
    JsonArray a = new JsonArray();
    assertThat(a.add((String) null).toString()).isEqualTo(\"[null]\");
  }
}
";

/// The JUnit 4 suite before the move: one test of its own.
const JUNIT4_BEFORE: &str = "package gson;

import org.junit.Test;

public class JsonArrayTest {
  @Test
  public void testSize() {
    assertThat(new JsonArray().size()).isEqualTo(0);
  }
}
";

#[test]
fn junit3_tests_moved_into_a_junit4_suite_are_not_deleted() {
    let after = JUNIT4_SUITE.replace(
        "public class JsonArrayTest {\n",
        "public class JsonArrayTest {\n  @Test\n  public void testSize() {\n    assertThat(new JsonArray().size()).isEqualTo(0);\n  }\n\n",
    );
    assert_ne!(after, JUNIT4_SUITE);
    both_ways(
        &[
            (
                "src/test/java/gson/functional/JsonArrayTest.java",
                JUNIT3_SUITE,
            ),
            ("src/test/java/gson/JsonArrayTest.java", JUNIT4_BEFORE),
        ],
        &|r| {
            r.remove("src/test/java/gson/functional/JsonArrayTest.java");
            r.write("src/test/java/gson/JsonArrayTest.java", &after);
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn junit3_tests_deleted_beside_other_junit4_tests_are_deleted() {
    both_ways(
        &[(
            "src/test/java/gson/functional/JsonArrayTest.java",
            JUNIT3_SUITE,
        )],
        &|r| {
            r.remove("src/test/java/gson/functional/JsonArrayTest.java");
            r.write(
                "src/test/java/gson/JsonObjectTest.java",
                // Other tests, with other values: tests that kept the deleted ones' words
                // (`"Hello"`, `"[null]"`) under new names would be those tests renamed.
                &JUNIT4_SUITE
                    .replace("class JsonArrayTest", "class JsonObjectTest")
                    .replace("testStringAddition", "testRemove")
                    .replace("testNullAddition", "testClear")
                    .replace("Hello", "Bye")
                    .replace("(String) null", "1")
                    .replace("[null]", "[1]"),
            );
        },
        &assert_one_deleted(
            "src/test/java/gson/functional/JsonArrayTest.java",
            "was deleted with 2 tests",
        ),
    );
}

const SWITCHED_OFF: &str = "import pytest\n\n\ndef test_kept():\n    assert 1\n\n\n@pytest.mark.skip(reason=\"broken since the port\")\ndef test_off():\n    assert compute() == 3\n\n\n@pytest.mark.skipif(WINDOWS, reason=\"posix only\")\ndef test_posix():\n    assert compute() == 4\n";

/// A test switched off where it is declared (`@pytest.mark.skip`, `@Ignore`, `xit`) ran
/// nothing, so removing it stops nothing that ran; one skipped only under a condition ran
/// elsewhere, and removing it is a deletion.
#[test]
fn removing_a_test_already_switched_off_is_no_deletion_but_a_conditional_one_is() {
    both_ways(
        &[("tests/test_calc.py", SWITCHED_OFF)],
        &|r| {
            let text = SWITCHED_OFF.replace(
                "@pytest.mark.skip(reason=\"broken since the port\")\ndef test_off():\n    assert compute() == 3\n\n\n",
                "",
            );
            r.write("tests/test_calc.py", &text);
        },
        &|code, receipt, how| {
            assert_eq!(deleted(receipt), vec![], "{how}: {receipt:#}");
            assert_eq!(code, Some(0), "{how}");
        },
    );
    both_ways(
        &[("tests/test_calc.py", SWITCHED_OFF)],
        &|r| {
            let text = SWITCHED_OFF.replace(
                "\n\n@pytest.mark.skipif(WINDOWS, reason=\"posix only\")\ndef test_posix():\n    assert compute() == 4\n",
                "\n",
            );
            r.write("tests/test_calc.py", &text);
        },
        &|code, receipt, how| {
            let found = deleted(receipt);
            assert_eq!(found.len(), 1, "{how}: {receipt:#}");
            assert!(
                found[0].1.contains("dropped from 3 to 2"),
                "{how}: {found:?}"
            );
            assert_eq!(code, Some(3), "{how}");
        },
    );
}
