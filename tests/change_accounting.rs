//! The guards account for a change as a whole: markers and tests that moved (within a
//! file or to another file of the change) are neither new nor deleted, a rewritten marker
//! is new only when it widened, and a real new skip next to a move is still caught.
//! Each case is judged twice: uncommitted (against HEAD) and committed (`--against
//! HEAD^`, judge mode). Real repositories, the real binary.

mod gitrepo;
mod support;

use gitrepo::{guard, guards_only as check, Repo};
use serde_json::{json as js, Value};

fn findings(receipt: &Value, name: &str) -> Vec<Value> {
    guard(receipt, name)["findings"].as_array().unwrap().clone()
}

fn describe(receipt: &Value) -> String {
    let mut out = String::new();
    for g in receipt["guards"].as_array().unwrap() {
        for f in g["findings"].as_array().unwrap() {
            out.push_str(&format!(
                "{} {}:{} {}\n",
                g["name"], f["path"], f["line"], f["message"]
            ));
        }
    }
    out
}

/// Run `change` on a fresh repository made by `start`, then judge it uncommitted and
/// committed; `verify` sees each receipt.
fn both_ways(start: fn() -> Repo, change: fn(&Repo), verify: &dyn Fn(Option<i32>, &Value, &str)) {
    let r = start();
    change(&r);
    let (code, receipt) = check(&r, &[]);
    assert_eq!(receipt["baseline"]["kind"], "head", "{receipt}");
    verify(code, &receipt, "uncommitted, against HEAD");
    r.commit("the change");
    let (code, receipt) = check(&r, &["--against", "HEAD^"]);
    assert_eq!(receipt["baseline"]["kind"], "explicit", "{receipt}");
    verify(code, &receipt, "committed, --against HEAD^");
}

fn assert_clean(code: Option<i32>, receipt: &Value, mode: &str) {
    let found = describe(receipt);
    assert!(
        found.is_empty(),
        "{mode}: nothing new, nothing deleted, yet:\n{found}"
    );
    assert_eq!(code, Some(0), "{mode}: {receipt}");
}

const CALC: &str = "import sys\n\
import pytest\n\
from calc import add, sub  # noqa: F401\n\
\n\
\n\
def test_add():\n    assert add(1, 2) == 3\n\
\n\
\n\
@pytest.mark.skip(reason='slow on CI')\n\
def test_add_big():\n    assert add(10**9, 1) == 10**9 + 1\n\
\n\
\n\
def test_sub():\n    assert sub(3, 2) == 1\n\
\n\
\n\
@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')\n\
def test_sub_big():\n    assert sub(10**9, 1) == 10**9 - 1\n";

const CALC_ADD: &str = "import pytest\n\
from calc import add\n\
\n\
\n\
def test_add():\n    assert add(1, 2) == 3\n\
\n\
\n\
@pytest.mark.skip(reason='slow on CI')\n\
def test_add_big():\n    assert add(10**9, 1) == 10**9 + 1\n";

const CALC_SUB: &str = "import sys\n\
import pytest\n\
from calc import add, sub  # noqa: F401\n\
\n\
\n\
def test_sub():\n    assert sub(3, 2) == 1\n\
\n\
\n\
@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')\n\
def test_sub_big():\n    assert sub(10**9, 1) == 10**9 - 1\n";

fn calc_repo() -> Repo {
    Repo::with(&[
        ("tests/test_calc.py", CALC),
        (
            "calc.py",
            "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n",
        ),
        (".gitignore", ".loopgate/\n"),
    ])
}

/// The module split in two: the add half stays, the sub half moves to a new file with
/// its skip, its tests and its suppressed import.
fn split(r: &Repo) {
    r.write("tests/test_calc.py", CALC_ADD);
    r.write("tests/test_calc_sub.py", CALC_SUB);
}

#[test]
fn a_test_module_split_in_two_is_neither_new_skips_nor_deleted_tests() {
    both_ways(calc_repo, split, &assert_clean);
}

#[test]
fn a_new_skip_added_alongside_a_split_is_still_caught_with_its_counts() {
    both_ways(
        calc_repo,
        |r| {
            split(r);
            let sub = CALC_SUB.replace(
                "def test_sub():",
                "@pytest.mark.skip(reason='flaky')\ndef test_sub():",
            );
            r.write("tests/test_calc_sub.py", &sub);
        },
        &|code, receipt, mode| {
            let skips = findings(receipt, "new_skips");
            assert_eq!(skips.len(), 1, "{mode}: {}", describe(receipt));
            assert_eq!(skips[0]["path"], "tests/test_calc_sub.py", "{mode}");
            assert_eq!(skips[0]["line"], 6, "{mode}");
            let message = skips[0]["message"].as_str().unwrap();
            assert!(
                message.contains(
                    "skips in `tests/test_calc_sub.py`: 0 -> 2 (1 moved from `tests/test_calc.py`)"
                ),
                "{mode}: {message}"
            );
            assert!(findings(receipt, "deleted_tests").is_empty(), "{mode}");
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_split_that_drops_a_test_on_the_way_is_still_a_deleted_test() {
    both_ways(
        calc_repo,
        |r| {
            split(r);
            let cut = "\n\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')\ndef test_sub_big():\n    assert sub(10**9, 1) == 10**9 - 1\n";
            r.write("tests/test_calc_sub.py", &CALC_SUB.replace(cut, "\n"));
        },
        &|code, receipt, mode| {
            let deleted = findings(receipt, "deleted_tests");
            assert_eq!(deleted.len(), 1, "{mode}: {}", describe(receipt));
            let message = deleted[0]["message"].as_str().unwrap();
            assert!(
                message.contains("dropped from 4 to 2 (1 moved to `tests/test_calc_sub.py`)"),
                "{mode}: {message}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const ADD_BIG: &str = "\n\n@pytest.mark.skip(reason='slow on CI')\ndef test_add_big():\n    assert add(10**9, 1) == 10**9 + 1\n";

#[test]
fn one_skip_removed_and_two_added_is_one_new_skip() {
    both_ways(
        calc_repo,
        |r| {
            // The skipped test moves to the end of the file, and a copy of its skip lands
            // on another test.
            assert!(CALC.contains(ADD_BIG));
            let text = format!("{}{ADD_BIG}", CALC.replace(ADD_BIG, "\n")).replace(
                "def test_sub():",
                "@pytest.mark.skip(reason='slow on CI')\ndef test_sub():",
            );
            r.write("tests/test_calc.py", &text);
        },
        &|code, receipt, mode| {
            let skips = findings(receipt, "new_skips");
            assert_eq!(skips.len(), 1, "{mode}: {}", describe(receipt));
            assert_eq!(skips[0]["line"], 11, "{mode}: the one over test_sub");
            assert!(
                skips[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("skips in `tests/test_calc.py`: 2 -> 3"),
                "{mode}: {skips:?}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_skip_moved_onto_another_test_is_a_new_skip() {
    both_ways(
        calc_repo,
        |r| {
            let text = CALC
                .replace("@pytest.mark.skip(reason='slow on CI')\n", "")
                .replace(
                    "def test_add():",
                    "@pytest.mark.skip(reason='slow on CI')\ndef test_add():",
                );
            r.write("tests/test_calc.py", &text);
        },
        &|code, receipt, mode| {
            let skips = findings(receipt, "new_skips");
            assert_eq!(skips.len(), 1, "{mode}: {}", describe(receipt));
            assert_eq!(skips[0]["line"], 6, "{mode}: the one over test_add");
            assert!(
                skips[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("skips in `tests/test_calc.py`: 2 -> 2"),
                "{mode}: {skips:?}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const APP: &str = "export function start(server) {\n\
  // eslint-disable-next-line no-console\n\
  console.log('starting', server.name);\n\
  return server.listen();\n\
}\n\
\n\
export function stop(server) {\n\
  // TODO: drain connections first\n\
  return server.close(); // @ts-ignore close takes no callback here\n\
}\n\
\n\
export function load(path) {\n\
  console.debug('loading', path);\n\
  return require(path); // eslint-disable-line global-require\n\
}\n";

fn app_repo() -> Repo {
    Repo::with(&[
        ("src/app.js", APP),
        ("src/util.js", "export const id = (x) => x;\n"),
        (".gitignore", ".loopgate/\n"),
    ])
}

#[test]
fn markers_moved_within_a_file_or_to_another_file_are_not_new() {
    both_ways(
        app_repo,
        |r| {
            // `stop` moves to the top of the file, `load` to another file, re-indented.
            let start = APP.split("export function stop").next().unwrap();
            let stop = "export function stop(server) {\n  // TODO: drain connections first\n  return server.close(); // @ts-ignore close takes no callback here\n}\n\n";
            r.write("src/app.js", &format!("{stop}{start}"));
            r.write(
                "src/util.js",
                "export const id = (x) => x;\n\nexport function load(path) {\n    console.debug('loading', path);\n    return require(path);   // eslint-disable-line global-require\n}\n",
            );
        },
        &assert_clean,
    );
}

#[test]
fn rewritten_markers_that_do_not_widen_are_not_new() {
    let start = || {
        Repo::with(&[
            (
                "src/app.js",
                "// eslint-disable-next-line no-unused-vars\nconst unused = 1;\nexport default unused;\n",
            ),
            (
                "lint.go",
                "package lint\n\nfunc f() {\n\tx := g() //nolint:golint,staticcheck\n\t_ = x\n}\n",
            ),
            (
                "app/models.py",
                "def load(x):\n    return old_name(x)  # type: ignore\n",
            ),
            (
                "tests/test_posix.py",
                "import sys\nimport pytest\n\n\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\ndef test_posix():\n    assert True\n",
            ),
            (".gitignore", ".loopgate/\n"),
        ])
    };
    both_ways(
        start,
        |r| {
            r.write(
                "src/app.js",
                "// eslint-disable-next-line @typescript-eslint/no-unused-vars\nconst unused = 1;\nexport default unused;\n",
            );
            r.write(
                "lint.go",
                "package lint\n\nfunc f() {\n\tx := g() //nolint:staticcheck\n\t_ = x\n}\n",
            );
            r.write(
                "app/models.py",
                "def load(x):\n    return new_name(x)  # type: ignore\n",
            );
            r.write(
                "tests/test_posix.py",
                "import sys\nimport pytest\n\nIS_WINDOWS = sys.platform == 'win32'\n\n\n@pytest.mark.skipif(IS_WINDOWS, reason='posix')\ndef test_posix():\n    assert True\n",
            );
        },
        &assert_clean,
    );
}

#[test]
fn rewritten_markers_that_widen_are_findings_that_say_what_they_were() {
    let start = || {
        Repo::with(&[
            (
                "lint.go",
                "package lint\n\nfunc f() {\n\tx := g() //nolint:errcheck\n\t_ = x\n}\n",
            ),
            (
                "app/models.py",
                "def load(x):\n    return f(x)  # type: ignore[attr-defined]\n",
            ),
            (
                "tests/test_posix.py",
                "import sys\nimport pytest\n\n\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\ndef test_posix():\n    assert True\n",
            ),
            (".gitignore", ".loopgate/\n"),
        ])
    };
    both_ways(
        start,
        |r| {
            r.write(
                "lint.go",
                "package lint\n\nfunc f() {\n\tx := g() //nolint\n\t_ = x\n}\n",
            );
            r.write(
                "app/models.py",
                "def load(x):\n    return f(x)  # type: ignore\n",
            );
            r.write(
                "tests/test_posix.py",
                "import sys\nimport pytest\n\n\n@pytest.mark.skipif(True, reason='posix')\ndef test_posix():\n    assert True\n",
            );
        },
        &|code, receipt, mode| {
            let lint = findings(receipt, "disabled_lint");
            assert_eq!(lint.len(), 2, "{mode}: {}", describe(receipt));
            let go = lint.iter().find(|f| f["path"] == "lint.go").unwrap();
            let message = go["message"].as_str().unwrap();
            assert!(
                message.contains("widened")
                    && message.contains("it was `x := g() //nolint:errcheck`"),
                "{mode}: {message}"
            );
            assert!(
                message.contains("suppressions in `lint.go`: 1 -> 1"),
                "{mode}: {message}"
            );
            let skips = findings(receipt, "new_skips");
            assert_eq!(skips.len(), 1, "{mode}: {}", describe(receipt));
            assert!(
                skips[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("made unconditional"),
                "{mode}: {skips:?}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_marker_with_another_kind_of_reach_is_new() {
    // `skipif` -> `skip` is another marker; `@ts-expect-error` -> `@ts-ignore` too.
    both_ways(
        || {
            Repo::with(&[
                (
                    "tests/test_posix.py",
                    "import sys\nimport pytest\n\n\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\ndef test_posix():\n    assert True\n",
                ),
                (".gitignore", ".loopgate/\n"),
            ])
        },
        |r| {
            r.write(
                "tests/test_posix.py",
                "import sys\nimport pytest\n\n\n@pytest.mark.skip(reason='posix')\ndef test_posix():\n    assert True\n",
            );
        },
        &|code, receipt, mode| {
            let skips = findings(receipt, "new_skips");
            assert_eq!(skips.len(), 1, "{mode}: {}", describe(receipt));
            assert!(
                skips[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("skips in `tests/test_posix.py`: 1 -> 1"),
                "{mode}: {skips:?}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

/// A stop in a hook session is judged against the session's pinned start: renames are
/// paired and the change accounted there too.
#[test]
fn a_hook_session_follows_a_renamed_directory_and_still_sees_a_dropped_test() {
    use support::hook::{claude_payload, run};
    use support::repo::TestRepo;
    let r = TestRepo::with_files(&[
        ("tests/unit/test_calc.py", CALC),
        ("tests/unit/test_more.py", CALC_SUB),
        ("calc.py", "def add(a, b):\n    return a + b\n"),
    ]);
    let hook = |event: &str, extra: Value| {
        run(
            "claude",
            &r.path(),
            &r.home(),
            &claude_payload(event, &r.path(), "s1", extra),
        )
    };
    let start = hook("SessionStart", js!({"source": "startup"}));
    assert_eq!(start.code, 0, "{}", start.explain());
    // The directory moves; a skipped test moves from one of its files to the other.
    r.git(&["mv", "tests/unit", "tests/spec"]);
    let moved = "\n\n@pytest.mark.skip(reason='slow on CI')\ndef test_add_big():\n    assert add(10**9, 1) == 10**9 + 1\n";
    r.write("tests/spec/test_calc.py", &CALC.replace(moved, "\n"));
    r.write("tests/spec/test_more.py", &format!("{CALC_SUB}{moved}"));
    let stop = hook(
        "SubagentStop",
        js!({"stop_hook_active": false, "agent_id": "a1"}),
    );
    assert_eq!(stop.code, 0, "{}", stop.explain());
    assert!(
        stop.stdout.trim().is_empty() || stop.json()["decision"] != "block",
        "a moved directory and a moved test are not a lowered bar: {}",
        stop.explain()
    );
    // A test removed from a renamed file is still a deleted test.
    let cut = "\n\ndef test_sub():\n    assert sub(3, 2) == 1\n";
    assert!(CALC.contains(cut));
    r.write(
        "tests/spec/test_calc.py",
        &CALC.replace(moved, "\n").replace(cut, "\n"),
    );
    let stop = hook(
        "SubagentStop",
        js!({"stop_hook_active": false, "agent_id": "a2"}),
    );
    let v = stop.json();
    assert_eq!(v["decision"], "block", "{}", stop.explain());
    let reason = v["reason"].as_str().unwrap();
    assert!(
        reason.contains("tests/spec/test_calc.py (was tests/unit/test_calc.py)")
            && reason.contains("dropped from 4 to 2 (1 moved to `tests/spec/test_more.py`)"),
        "{reason}"
    );
}

const DATES_JS: &str = "describe('dates', () => {\n  xit('parses', () => {\n    expect(parse('2024-01-01')).toBeDefined();\n  });\n\n  it('formats', () => {\n    expect(format(0)).toBe('1970-01-01');\n  });\n});\n";

const SERVER_SPEC: &str = "describe 'server' do\n  it 'boots' do\n    pending 'needs a server'\n    expect(boot).to be_truthy\n  end\nend\n";

const READER_JAVA: &str = "package g;\n\nimport org.junit.Ignore;\nimport org.junit.Test;\n\npublic class ReaderTest {\n  @Test\n  @Ignore(\"advances after the exception (see #12)\")\n  public void octalPrefix() {\n  }\n\n  @Test\n  @Ignore\n  public void disabled_testHighPrecision() {\n  }\n\n  @Test\n  public void hex() {\n  }\n\n  @Ignore @Test public void inline() {}\n}\n";

const POSIX_PY: &str = "import sys\nimport pytest\n\n\n@pytest.mark.skipif(sys.platform == 'win32', reason='no fork() on windows')\ndef test_fork():\n    assert True\n";

fn skips_repo() -> Repo {
    Repo::with(&[
        ("test/dates.test.js", DATES_JS),
        ("spec/server_spec.rb", SERVER_SPEC),
        ("src/test/java/g/ReaderTest.java", READER_JAVA),
        ("tests/test_posix.py", POSIX_PY),
        (".gitignore", ".loopgate/\n"),
    ])
}

/// Every skip is kept on its test, written another way: `xit` as `it.skip`, RSpec's
/// `pending` as `skip`, `@Ignore` as JUnit 5's `@Disabled` with its reason wrapped over
/// lines by a formatter, a test renamed where it stood with a reason added to its
/// `@Ignore`, a one-line ignored test expanded over lines, and a `skipif` wrapped by black.
fn respell_skips(r: &Repo) {
    r.write(
        "test/dates.test.js",
        &DATES_JS.replace("xit('parses'", "it.skip('parses'"),
    );
    r.write(
        "spec/server_spec.rb",
        &SERVER_SPEC.replace("pending 'needs", "skip 'needs"),
    );
    r.write(
        "src/test/java/g/ReaderTest.java",
        &READER_JAVA
            .replace(
                "  @Ignore(\"advances after the exception (see #12)\")\n",
                "  @Disabled(\n      \"advances after the exception\"\n          + \" (see #12)\")\n",
            )
            .replace(
                "  @Ignore\n  public void disabled_testHighPrecision()",
                "  @Ignore(\"no double holds it\")\n  public void testHighPrecision()",
            )
            .replace(
                "  @Ignore @Test public void inline() {}\n",
                "  @Ignore\n  @Test\n  public void inline() {\n  }\n",
            ),
    );
    r.write(
        "tests/test_posix.py",
        "import sys\nimport pytest\n\n\n@pytest.mark.skipif(\n    sys.platform == \"win32\", reason=\"no fork() on windows\"\n)\ndef test_fork():\n    assert True\n",
    );
}

#[test]
fn skips_rewritten_in_another_spelling_or_shape_over_the_same_tests_are_not_new() {
    both_ways(skips_repo, respell_skips, &assert_clean);
}

#[test]
fn skips_that_reach_further_or_land_on_another_test_next_to_rewrites_are_still_caught() {
    both_ways(
        skips_repo,
        |r| {
            respell_skips(r);
            // A skipped test made a skipped group; a skip taken off `octalPrefix` (still
            // there) and put on `hex` (there before): not a rename; a new test with a
            // wrapped skipif.
            r.write(
                "test/dates.test.js",
                &DATES_JS
                    .replace("describe('dates'", "describe.skip('dates'")
                    .replace("xit('parses'", "it('parses'"),
            );
            r.write(
                "src/test/java/g/ReaderTest.java",
                &READER_JAVA
                    .replace("  @Ignore(\"advances after the exception (see #12)\")\n", "")
                    .replace(
                        "  @Test\n  public void hex()",
                        "  @Test\n  @Disabled(\n      \"advances after the exception\"\n          + \" (see #12)\")\n  public void hex()",
                    ),
            );
            r.write(
                "tests/test_posix.py",
                &format!("{POSIX_PY}\n\n@pytest.mark.skipif(\n    sys.platform == \"win32\", reason=\"no exec\"\n)\ndef test_exec():\n    assert True\n"),
            );
        },
        &|code, receipt, mode| {
            let mut got: Vec<String> = findings(receipt, "new_skips")
                .iter()
                .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
                .collect();
            got.sort();
            assert_eq!(
                got,
                [
                    "src/test/java/g/ReaderTest.java:17",
                    "test/dates.test.js:1",
                    "tests/test_posix.py:10",
                ],
                "{mode}: {}",
                describe(receipt)
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_mocha_this_skip_and_a_junit_assumption_added_to_tests_are_new_skips() {
    let start = || {
        Repo::with(&[
            ("test/fetch.js", "describe('fetch', function () {\n  it('gets', function () {\n    return get('/');\n  });\n});\n"),
            ("src/test/java/g/TimeoutTest.java", "package g;\n\nimport org.junit.Test;\n\npublic class TimeoutTest {\n  @Test\n  public void stops() {\n    run();\n  }\n}\n"),
            ("src/main/java/g/Assume.java", "package g;\n\npublic class Assume {\n  public static void check(boolean b) {\n  }\n}\n"),
            (".gitignore", ".loopgate/\n"),
        ])
    };
    both_ways(
        start,
        |r| {
            r.write("test/fetch.js", "describe('fetch', function () {\n  it('gets', function () {\n    if (!global.fetch) this.skip()\n    return get('/');\n  });\n});\n");
            r.write("src/test/java/g/TimeoutTest.java", "package g;\n\nimport static org.junit.Assume.assumeTrue;\n\nimport org.junit.Test;\n\npublic class TimeoutTest {\n  @Test\n  public void stops() {\n    assumeTrue(javaVersion() < 16);\n    run();\n  }\n}\n");
            // The library's own `assumeTrue` (not a test path) is code, not a skip.
            r.write("src/main/java/g/Assume.java", "package g;\n\npublic class Assume {\n  public static void assumeTrue(boolean b) {\n    Assume.assumeTrue(b, \"\");\n  }\n}\n");
        },
        &|code, receipt, mode| {
            let skips = findings(receipt, "new_skips");
            let got: Vec<String> = skips
                .iter()
                .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
                .collect();
            assert_eq!(
                got,
                ["src/test/java/g/TimeoutTest.java:10", "test/fetch.js:3"],
                "{mode}: {}",
                describe(receipt)
            );
            assert!(
                skips[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("`assumeTrue(`"),
                "{skips:?}"
            );
            assert!(
                skips[1]["message"]
                    .as_str()
                    .unwrap()
                    .contains("`this.skip(`"),
                "{skips:?}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const MEMCACHE_SPEC: &str = "describe 'memcache' do\n  it 'merges sessions when threaded' do\n    unless $DEBUG\n      1.must_equal 1\n      next\n    end\n    merge_threads\n  end\n\n  it 'expires' do\n    expire\n  end\nend\n";

fn early_exit_repo() -> Repo {
    Repo::with(&[
        ("spec/memcache_spec.rb", MEMCACHE_SPEC),
        (
            "test/fetch.js",
            "describe('fetch', function () {\n  it('gets', function () {\n    if (!global.fetch) return\n    return get('/');\n  });\n});\n",
        ),
        (
            "spec/pool_spec.rb",
            "describe 'pool' do\n  it 'drains' do\n    next unless $SLOW\n    drain\n  end\nend\n",
        ),
        (".gitignore", ".loopgate/\n"),
    ])
}

#[test]
fn a_test_that_already_stopped_early_and_now_skips_under_the_same_condition_is_not_new() {
    both_ways(
        early_exit_repo,
        |r| {
            r.write(
                "spec/memcache_spec.rb",
                &MEMCACHE_SPEC.replace(
                    "    unless $DEBUG\n      1.must_equal 1\n      next\n    end\n",
                    "    skip unless $DEBUG\n",
                ),
            );
            r.write(
                "test/fetch.js",
                "describe('fetch', function () {\n  it('gets', function () {\n    if (!global.fetch) {\n      this.skip()\n    }\n    return get('/');\n  });\n});\n",
            );
        },
        &assert_clean,
    );
}

#[test]
fn a_skip_under_another_condition_or_an_empty_skipped_test_is_still_a_new_skip() {
    both_ways(
        early_exit_repo,
        |r| {
            // The early exit is gone but the skip is under another condition: new. The
            // fetch and pool tests say their early exits out loud: not new. An empty
            // skipped test is a test nobody wrote: new.
            r.write(
                "spec/memcache_spec.rb",
                &MEMCACHE_SPEC.replace(
                    "    unless $DEBUG\n      1.must_equal 1\n      next\n    end\n",
                    "    skip unless $CI\n",
                ),
            );
            r.write(
                "test/fetch.js",
                "describe('fetch', function () {\n  it('gets', function () {\n    if (!global.fetch) this.skip()\n    return get('/');\n  });\n\n  it.skip('retries', () => {})\n});\n",
            );
            r.write(
                "spec/pool_spec.rb",
                "describe 'pool' do\n  it 'drains' do\n    skip unless $SLOW\n    drain\n  end\nend\n",
            );
        },
        &|code, receipt, mode| {
            let got: Vec<String> = findings(receipt, "new_skips")
                .iter()
                .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
                .collect();
            assert_eq!(
                got,
                ["spec/memcache_spec.rb:3", "test/fetch.js:7"],
                "{mode}: {}",
                describe(receipt)
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const HELPERS_RS: &str = "pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n\n#[cfg(test)]\npub(crate) mod test_helpers {\n    #![allow(unused_imports)]\n\n    use std::fmt::Debug;\n}\n\nmod other {\n    pub fn f() {}\n}\n";

#[test]
fn a_rust_inner_allow_hoisted_onto_its_module_is_not_new_but_one_on_another_item_is() {
    let start = || Repo::with(&[("src/lib.rs", HELPERS_RS), (".gitignore", ".loopgate/\n")]);
    let hoist = |r: &Repo| {
        r.write(
            "src/lib.rs",
            &HELPERS_RS.replace(
                "#[cfg(test)]\npub(crate) mod test_helpers {\n    #![allow(unused_imports)]\n\n",
                "#[cfg(test)]\n#[allow(unused_imports)]\npub(crate) mod test_helpers {\n",
            ),
        );
    };
    both_ways(start, hoist, &assert_clean);
    both_ways(
        start,
        |r| {
            // The inner attribute goes, and the same allow lands on another module.
            r.write(
                "src/lib.rs",
                &HELPERS_RS
                    .replace("    #![allow(unused_imports)]\n\n", "")
                    .replace("mod other {", "#[allow(unused_imports)]\nmod other {"),
            );
        },
        &|code, receipt, mode| {
            let lint = findings(receipt, "disabled_lint");
            assert_eq!(lint.len(), 1, "{mode}: {}", describe(receipt));
            assert_eq!(lint[0]["line"], 10, "{mode}: {}", describe(receipt));
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_suppression_moved_into_a_generated_copy_is_taken_from_its_own_tree() {
    // `dist/` is a copy of `src/`; each moves one suppression into a new file with the
    // code under it changed, and `dist/` also gains a second one: that is the new one.
    let start = || {
        Repo::with(&[
            (
                "src/dom/index.js",
                "export function mount(el) {\n  // eslint-disable-next-line no-explicit-any\n  return attach(el as any)\n}\n",
            ),
            (
                "dist/dom/index.js",
                "export function mount(el) {\n  // eslint-disable-next-line no-explicit-any\n  return attach(el as any)\n}\n",
            ),
            (".gitignore", ".loopgate/\n"),
        ])
    };
    both_ways(
        start,
        |r| {
            let gone = "export function mount(el) {\n  return attach(el)\n}\n";
            r.write("src/dom/index.js", gone);
            r.write("dist/dom/index.js", gone);
            let render = "export function render(el) {\n  // eslint-disable-next-line no-explicit-any\n  return attachAll(el as any)\n}\n";
            r.write("src/dom/render.js", render);
            r.write(
                "dist/dom/render.js",
                &format!("{render}\nexport function hydrate(el) {{\n  // eslint-disable-next-line no-explicit-any\n  return (el as any).hydrate()\n}}\n"),
            );
        },
        &|code, receipt, mode| {
            let got: Vec<String> = findings(receipt, "disabled_lint")
                .iter()
                .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
                .collect();
            assert_eq!(
                got,
                ["dist/dom/render.js:7"],
                "{mode}: {}",
                describe(receipt)
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const RUNNER_TEST: &str = "package r;\n\nimport org.junit.Test;\n\npublic class ParentRunnerTest {\n    @Test\n    public void runs() {\n        assertEquals(1, 1);\n    }\n\n    @Test\n    public void stops() {\n        assertEquals(2, 2);\n    }\n\n    public static class Existing {\n        @Test\n        public void fails() {\n            fail();\n        }\n    }\n\n    @Test\n    public void runsExisting() {\n        assertEquals(1, JUnitCore.runClasses(Existing.class).getFailureCount());\n    }\n}\n";

fn runner_repo() -> Repo {
    Repo::with(&[
        ("src/test/java/r/ParentRunnerTest.java", RUNNER_TEST),
        (".gitignore", ".loopgate/\n"),
    ])
}

#[test]
fn a_skip_in_a_class_that_a_test_runs_as_its_input_is_not_a_new_skip_but_one_beside_it_is() {
    both_ways(
        runner_repo,
        |r| {
            // A test of the runner's `@Ignore` handling: a nested class with an ignored
            // test and a failed assumption, run by the test below it; a top-level class
            // ignored as a whole, run from another file. And a real skip: `stops` is
            // ignored, and so is a test of a class that nothing runs, and the failing
            // test of a fixture that was there before (its runner now sees no failure).
            r.write(
                "src/test/java/r/ParentRunnerTest.java",
                &RUNNER_TEST.replace(
                    "        @Test\n        public void fails() {",
                    "        @Ignore\n        @Test\n        public void fails() {",
                ).replace(
                    "    @Test\n    public void stops() {",
                    "    public static class Fixture {\n        @Ignore\n        @Test\n        public void ignored() {}\n\n        @Test\n        public void assumes() {\n            assumeTrue(\"on purpose\", false);\n        }\n    }\n\n    @Test\n    public void countsIgnored() {\n        Result result = JUnitCore.runClasses(Fixture.class, IgnoredClass.class);\n        assertEquals(2, result.getIgnoreCount());\n    }\n\n    public static class Slow {\n        @Ignore\n        @Test\n        public void slow() {}\n    }\n\n    @Ignore(\"flaky\")\n    @Test\n    public void stops() {",
                ),
            );
            r.write(
                "src/test/java/r/IgnoredClass.java",
                "package r;\n\n@Ignore\npublic class IgnoredClass {\n    @Test\n    public void fails() {\n        fail();\n    }\n}\n",
            );
        },
        &|code, receipt, mode| {
            let got: Vec<String> = findings(receipt, "new_skips")
                .iter()
                .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
                .collect();
            assert_eq!(
                got,
                [
                    "src/test/java/r/ParentRunnerTest.java:29",
                    "src/test/java/r/ParentRunnerTest.java:34",
                    "src/test/java/r/ParentRunnerTest.java:41"
                ],
                "{mode}: {}",
                describe(receipt)
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const PATH_TEST: &str = "package g;\n\nimport junit.framework.TestCase;\n\npublic class PathTest extends TestCase {\n  public void testTopLevel() {\n    JsonReader reader = new JsonReader(\"[][]\");\n    reader.read();\n  }\n}\n";

const READER_TEST: &str = "package g;\n\n@RunWith(Parameterized.class)\npublic class ReaderTest {\n  @Parameterized.Parameters\n  public static List<Object[]> parameters() {\n    return Arrays.asList(new Object[] { Factory.STRING }, new Object[] { Factory.TREE });\n  }\n\n  @Parameterized.Parameter\n  public Factory factory;\n\n  @Test public void topLevel() {\n    factory.create(\"[][]\").read();\n  }\n}\n";

#[test]
fn an_assumption_over_a_parameter_the_change_added_is_not_new_but_one_over_an_old_parameter_is() {
    both_ways(
        || {
            Repo::with(&[
                ("src/test/java/g/PathTest.java", PATH_TEST),
                ("src/test/java/g/ReaderTest.java", READER_TEST),
                (".gitignore", ".loopgate/\n"),
            ])
        },
        |r| {
            // PathTest ran with the string reader only; made parameterized, one test stays
            // with that reader. ReaderTest already ran with both: assuming one skips the
            // other, which ran before.
            r.write(
                "src/test/java/g/PathTest.java",
                &READER_TEST.replace("ReaderTest", "PathTest").replace(
                    "  @Test public void topLevel() {\n",
                    "  @Test public void topLevel() {\n    assumeTrue(factory == Factory.STRING);\n",
                ),
            );
            r.write(
                "src/test/java/g/ReaderTest.java",
                &READER_TEST.replace(
                    "  @Test public void topLevel() {\n",
                    "  @Test public void topLevel() {\n    assumeTrue(factory == Factory.STRING);\n",
                ),
            );
        },
        &|code, receipt, mode| {
            let got: Vec<String> = findings(receipt, "new_skips")
                .iter()
                .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
                .collect();
            assert_eq!(
                got,
                ["src/test/java/g/ReaderTest.java:14"],
                "{mode}: {}",
                describe(receipt)
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const LITERAL_RS: &str = "#![allow(warnings)]\n\nuse std::fmt;\n\nfn helper() {}\n\npub struct Seq {\n    lits: Vec<u8>,\n}\n\nfn Make_Seq() -> Seq {\n    Seq { lits: vec![] }\n}\n";

#[test]
fn a_file_wide_suppression_replaced_by_narrower_ones_is_not_new_but_one_beyond_it_is() {
    let start = || {
        Repo::with(&[
            ("src/literal.rs", LITERAL_RS),
            (
                "src/other.rs",
                "#![allow(dead_code)]\n\nfn a() {}\n\nfn b() {}\n",
            ),
            (".gitignore", ".loopgate/\n"),
        ])
    };
    both_ways(
        start,
        |r| {
            // literal.rs silenced everything; now two items allow one lint each. other.rs
            // keeps its file-wide allow and adds an item-level one for another lint, and
            // a file that never had one gets one: both new.
            r.write(
                "src/literal.rs",
                "use std::fmt;\n\n#[allow(dead_code)]\nfn helper() {}\n\npub struct Seq {\n    lits: Vec<u8>,\n}\n\n#[allow(non_snake_case)]\nfn Make_Seq() -> Seq {\n    Seq { lits: vec![] }\n}\n",
            );
            r.write(
                "src/other.rs",
                "#![allow(dead_code)]\n\nfn a() {}\n\n#[allow(unsafe_code)]\nfn b() {}\n",
            );
            r.write("src/third.rs", "#[allow(dead_code)]\nfn c() {}\n");
        },
        &|code, receipt, mode| {
            let got: Vec<String> = findings(receipt, "disabled_lint")
                .iter()
                .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
                .collect();
            assert_eq!(
                got,
                ["src/other.rs:5", "src/third.rs:1"],
                "{mode}: {}",
                describe(receipt)
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const CLOSE_TEST_JS: &str = "'use strict'\n\nconst t = require('tap')\nconst semver = require('semver')\n\nt.test('keeps working after close', t => {\n  t.plan(1)\n  t.pass('open')\n})\n\nt.test('closes', t => {\n  t.pass('closed')\n})\n";

#[test]
fn a_new_test_skipped_under_the_negated_condition_of_a_sibling_skip_is_a_second_new_skip() {
    let start = || {
        Repo::with(&[
            ("test/close.test.js", CLOSE_TEST_JS),
            (".gitignore", ".loopgate/\n"),
        ])
    };
    both_ways(
        start,
        |r| {
            // One test now skips on new Node; a new one that only runs there skips on the
            // old. Nothing was removed, so both skips are new. The `skip` key of an
            // object handed to something else is no skip.
            r.write(
                "test/close.test.js",
                &CLOSE_TEST_JS
                    .replace(
                        "t.test('keeps working after close', t => {",
                        "const isNew = semver.satisfies(process.version, '>= 19')\nt.test('keeps working after close', { skip: isNew }, t => {",
                    )
                    .replace(
                        "t.test('closes', t => {",
                        "t.test('stops after close', { skip: !isNew }, t => {\n  t.pass('stopped')\n  run({ skip: !isNew })\n})\n\nt.test('closes', t => {",
                    ),
            );
        },
        &|code, receipt, mode| {
            let got: Vec<String> = findings(receipt, "new_skips")
                .iter()
                .map(|f| format!("{}:{}", f["path"].as_str().unwrap(), f["line"]))
                .collect();
            assert_eq!(
                got,
                ["test/close.test.js:7", "test/close.test.js:12"],
                "{mode}: {}",
                describe(receipt)
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}
