//! Skips that hide behind a helper or change shape. A test file's own function that skips
//! the running test (`getClassOrSkipTest` around `assumeNoException`, Go's `skipWindows(t)`
//! around `t.Skip`) skips every test that calls it: a new call is a new skip, and calls
//! replaced by the assumptions written out are the same skips. A skip taken off a test's
//! declaration and written into its body is the same skip, unless it lost its condition.
//! Each change is judged uncommitted (against HEAD) and committed (`--against HEAD^`).
//! Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, messages, writing};
use serde_json::Value;

fn assert_no_new_skips(code: Option<i32>, receipt: &Value, mode: &str) {
    assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
    assert_eq!(code, Some(0), "{mode}");
}

const JAVA_TEST: &str = "src/test/java/EmptyValuesTest.java";

/// Two tests that skip through the file's helper on JVMs without the class.
const WITH_HELPER: &str = concat!(
    "import org.junit.Assume;\n",
    "import org.junit.Test;\n",
    "\n",
    "public class EmptyValuesTest {\n",
    "    @Test\n",
    "    public void empty_stream() throws Exception {\n",
    "        Class<?> type = getClassOrSkipTest(\"java.util.stream.Stream\");\n",
    "        check(type);\n",
    "    }\n",
    "\n",
    "    @Test\n",
    "    public void empty_duration() throws Exception {\n",
    "        Class<?> type = getClassOrSkipTest(\"java.time.Duration\");\n",
    "        check(type);\n",
    "    }\n",
    "\n",
    "    private Class<?> getClassOrSkipTest(String className) {\n",
    "        try {\n",
    "            return Class.forName(className);\n",
    "        } catch (ClassNotFoundException e) {\n",
    "            Assume.assumeNoException(\"JVM lacks \" + className, e);\n",
    "            return null;\n",
    "        }\n",
    "    }\n",
    "}\n",
);

#[test]
fn a_new_test_that_calls_the_files_skip_helper_adds_a_skip() {
    let new_test = "    @Test\n    public void empty_sequenced_set() throws Exception {\n        Class<?> type = getClassOrSkipTest(\"java.util.SequencedSet\");\n        check(type);\n    }\n\n    private Class<?> getClassOrSkipTest(";
    let changed = WITH_HELPER.replace("    private Class<?> getClassOrSkipTest(", new_test);
    both_ways(
        &[(JAVA_TEST, WITH_HELPER)],
        &writing(&[(JAVA_TEST, &changed)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(JAVA_TEST.to_string(), 19)],
                "{mode}: {receipt}"
            );
            let message = &messages(receipt, "new_skips")[0];
            assert!(
                message.contains("a call to a helper that skips the running test")
                    && message.contains("`getClassOrSkipTest(`")
                    && message.contains("skips in `src/test/java/EmptyValuesTest.java`: 3 -> 4"),
                "{mode}: {message}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn helper_calls_replaced_by_the_assumptions_written_out_are_the_same_skips() {
    let written_out = concat!(
        "import static org.junit.Assume.assumeThat;\n",
        "import org.junit.Test;\n",
        "\n",
        "public class EmptyValuesTest {\n",
        "    @Test\n",
        "    public void empty_stream() throws Exception {\n",
        "        assumeThat(\"JDK 8+ required\", javaAtLeast(8), is(true));\n",
        "        check(Class.forName(\"java.util.stream.Stream\"));\n",
        "    }\n",
        "\n",
        "    @Test\n",
        "    public void empty_duration() throws Exception {\n",
        "        assumeThat(\"JDK 8+ required\", javaAtLeast(8), is(true));\n",
        "        check(Class.forName(\"java.time.Duration\"));\n",
        "    }\n",
        "\n",
        "    private boolean javaAtLeast(int major) {\n",
        "        return Runtime.version().feature() >= major;\n",
        "    }\n",
        "}\n",
    );
    both_ways(
        &[(JAVA_TEST, WITH_HELPER)],
        &writing(&[(JAVA_TEST, written_out)]),
        &assert_no_new_skips,
    );
}

#[test]
fn a_function_that_only_looks_like_a_skip_helper_is_none() {
    // Named for skipping, but its body skips no test: calling it skips nothing.
    let lookalike = WITH_HELPER.replace(
        "            Assume.assumeNoException(\"JVM lacks \" + className, e);\n",
        "            log(\"JVM lacks \" + className);\n",
    );
    let changed = lookalike.replace(
        "        check(type);\n    }\n\n    @Test\n    public void empty_duration",
        "        check(type);\n        getClassOrSkipTest(\"java.util.Optional\");\n    }\n\n    @Test\n    public void empty_duration",
    );
    assert_ne!(changed, lookalike);
    both_ways(
        &[(JAVA_TEST, &lookalike)],
        &writing(&[(JAVA_TEST, &changed)]),
        &assert_no_new_skips,
    );
}

const GO_HELPERS: &str = "package conf\n\nimport (\n\t\"runtime\"\n\t\"testing\"\n)\n\nfunc TestRead(t *testing.T) {\n\tread()\n}\n\n// Some tests keep failing on Windows.\nfunc skipWindows(t *testing.T) {\n\tif runtime.GOOS == \"windows\" {\n\t\tt.Skip(\"fails on Windows\")\n\t}\n}\n";
const GO_SIBLING: &str =
    "package conf\n\nimport \"testing\"\n\nfunc TestWrite(t *testing.T) {\n\twrite()\n}\n";
const GO_ELSEWHERE: &str =
    "package other\n\nimport \"testing\"\n\nfunc TestOther(t *testing.T) {\n\tother()\n}\n";

#[test]
fn a_go_skip_helper_skips_where_its_package_calls_it_and_nowhere_else() {
    let add_call = |text: &str, test: &str| {
        text.replace(
            &format!("{test}(t *testing.T) {{\n"),
            &format!("{test}(t *testing.T) {{\n\tskipWindows(t)\n"),
        )
    };
    both_ways(
        &[
            ("conf/helpers_test.go", GO_HELPERS),
            ("conf/write_test.go", GO_SIBLING),
            ("other/other_test.go", GO_ELSEWHERE),
        ],
        &writing(&[
            ("conf/helpers_test.go", &add_call(GO_HELPERS, "TestRead")),
            ("conf/write_test.go", &add_call(GO_SIBLING, "TestWrite")),
            // Another package: its own `skipWindows`, if any, is not this one.
            ("other/other_test.go", &add_call(GO_ELSEWHERE, "TestOther")),
        ]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![
                    ("conf/helpers_test.go".to_string(), 9),
                    ("conf/write_test.go".to_string(), 6),
                ],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const PY_TEST: &str = "tests/test_tls.py";

const XFAIL_ON_DECLARATION: &str = concat!(
    "import sys\n",
    "\n",
    "import pytest\n",
    "\n",
    "\n",
    "@pytest.mark.xfail(\n",
    "    sys.version_info < (3, 7),\n",
    "    reason=\"needs start_tls\",\n",
    ")\n",
    "def test_start_tls(server):\n",
    "    backend = Asyncio()\n",
    "    assert backend.start_tls(server)\n",
);

#[test]
fn an_xfail_moved_into_the_body_of_its_test_under_its_condition_is_the_same_one() {
    // The test is parameterized over two backends and only one of them still fails.
    let into_body = concat!(
        "import sys\n",
        "\n",
        "import pytest\n",
        "\n",
        "\n",
        "@pytest.mark.parametrize(\"backend\", [Asyncio(), Trio()])\n",
        "def test_start_tls(server, backend):\n",
        "    if isinstance(backend, Asyncio) and sys.version_info < (3, 7):\n",
        "        pytest.xfail(reason=\"needs start_tls\")\n",
        "\n",
        "    assert backend.start_tls(server)\n",
    );
    both_ways(
        &[(PY_TEST, XFAIL_ON_DECLARATION)],
        &writing(&[(PY_TEST, into_body)]),
        &assert_no_new_skips,
    );
}

#[test]
fn a_skip_moved_into_another_test_or_stripped_of_its_condition_is_reported() {
    let elsewhere = concat!(
        "import sys\n",
        "\n",
        "import pytest\n",
        "\n",
        "\n",
        "def test_start_tls(server):\n",
        "    backend = Asyncio()\n",
        "    assert backend.start_tls(server)\n",
        "\n",
        "\n",
        "def test_close(server):\n",
        "    if sys.version_info < (3, 7):\n",
        "        pytest.xfail(reason=\"needs start_tls\")\n",
        "    assert Asyncio().close(server)\n",
    );
    both_ways(
        &[(PY_TEST, XFAIL_ON_DECLARATION)],
        &writing(&[(PY_TEST, elsewhere)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(PY_TEST.to_string(), 13)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
    let skipif = XFAIL_ON_DECLARATION.replace("pytest.mark.xfail(", "pytest.mark.skipif(");
    let unconditional = concat!(
        "import sys\n",
        "\n",
        "import pytest\n",
        "\n",
        "\n",
        "def test_start_tls(server):\n",
        "    pytest.skip(\"needs start_tls\")\n",
        "    backend = Asyncio()\n",
        "    assert backend.start_tls(server)\n",
    );
    both_ways(
        &[(PY_TEST, &skipif)],
        &writing(&[(PY_TEST, unconditional)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(PY_TEST.to_string(), 7)],
                "{mode}: {receipt}"
            );
            let message = &messages(receipt, "new_skips")[0];
            assert!(
                message.contains("an existing conditional skip was made unconditional"),
                "{mode}: {message}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const LOCALE_HELPER: &str = "src/test/java/org/site/LocaleProblems.java";
const PARSER_TEST: &str = "src/test/java/org/site/time/ParserTest.java";

/// A new file of skip helpers: `assumeSupported` skips the running test for locales a JVM
/// cannot parse, and its public wrappers call it.
const LOCALE_PROBLEMS: &str = concat!(
    "package org.site;\n",
    "\n",
    "import static org.junit.jupiter.api.Assumptions.assumeTrue;\n",
    "\n",
    "public class LocaleProblems {\n",
    "    private static void assumeSupported(final Locale locale, final Exception e) {\n",
    "        assumeTrue(isSupported(locale));\n",
    "    }\n",
    "\n",
    "    public static void assumeSupportedA(final Locale locale) {\n",
    "        assumeSupported(locale, null);\n",
    "    }\n",
    "\n",
    "    public static void assumeSupportedB(final Locale locale, final Exception e) {\n",
    "        assumeSupported(locale, e);\n",
    "    }\n",
    "}\n",
);

/// A file of the change that only looks like one: its methods log, they skip nothing.
const LOCALE_NOTES: &str = concat!(
    "package org.site;\n",
    "\n",
    "public class LocaleNotes {\n",
    "    public static void assumeSupportedC(final Locale locale) {\n",
    "        System.out.println(locale);\n",
    "    }\n",
    "}\n",
);

const PARSER: &str = concat!(
    "package org.site.time;\n",
    "\n",
    "import static org.site.LocaleProblems.assumeSupportedA;\n",
    "\n",
    "class ParserTest {\n",
    "    @Test\n",
    "    void parses() throws Exception {\n",
    "        for (final Locale locale : locales()) {\n",
    "            try {\n",
    "                check(locale);\n",
    "            } catch (final ParseException e) {\n",
    "                throw e;\n",
    "            }\n",
    "        }\n",
    "    }\n",
    "\n",
    "    @Test\n",
    "    void formats() {\n",
    "        format(Locale.ROOT);\n",
    "    }\n",
    "}\n",
);

#[test]
fn a_skip_helper_declared_in_another_file_of_the_change_skips_where_it_is_called() {
    let calling = PARSER
        .replace(
            "            } catch (final ParseException e) {\n",
            "            } catch (final ParseException e) {\n                LocaleProblems.assumeSupportedB(locale, e);\n",
        )
        .replace(
            "        format(Locale.ROOT);\n",
            "        assumeSupportedA(Locale.ROOT);\n        LocaleNotes.assumeSupportedC(Locale.ROOT);\n        Other.assumeSupportedB(Locale.ROOT, null);\n        format(Locale.ROOT);\n",
        );
    both_ways(
        &[(PARSER_TEST, PARSER)],
        &writing(&[
            (LOCALE_HELPER, LOCALE_PROBLEMS),
            ("src/test/java/org/site/LocaleNotes.java", LOCALE_NOTES),
            (PARSER_TEST, &calling),
        ]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![
                    // The helper's own assumption and its wrappers' calls, as before.
                    (LOCALE_HELPER.to_string(), 7),
                    (LOCALE_HELPER.to_string(), 11),
                    (LOCALE_HELPER.to_string(), 15),
                    // The calls of the other file: qualified by the helper's class, and
                    // statically imported. Not the logging lookalike, nor another class's
                    // method of the helper's name.
                    (PARSER_TEST.to_string(), 12),
                    (PARSER_TEST.to_string(), 20),
                ],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_skip_helper_moved_to_another_file_with_its_calls_qualified_adds_no_skip() {
    // The helper was the test file's own; the change moves it into a shared class and
    // qualifies the call.
    let own = PARSER
        .replace(
            "        format(Locale.ROOT);\n",
            "        assumeSupportedA(Locale.ROOT);\n        format(Locale.ROOT);\n",
        )
        .replace(
            "    }\n}\n",
            "    }\n\n    private static void assumeSupportedA(final Locale locale) {\n        assumeTrue(isSupported(locale));\n    }\n}\n",
        );
    let moved = PARSER.replace(
        "        format(Locale.ROOT);\n",
        "        LocaleProblems.assumeSupportedA(Locale.ROOT);\n        format(Locale.ROOT);\n",
    );
    let shared = "package org.site;\n\npublic class LocaleProblems {\n    public static void assumeSupportedA(final Locale locale) {\n        assumeTrue(isSupported(locale));\n    }\n}\n";
    both_ways(
        &[(PARSER_TEST, &own)],
        &writing(&[(PARSER_TEST, &moved), (LOCALE_HELPER, shared)]),
        &assert_no_new_skips,
    );
}
