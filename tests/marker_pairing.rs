//! Which markers a change added, when its lines cannot say it alone. A line diff keeps
//! identical skip lines (`@Disabled`) wherever it can, over whatever test now follows
//! them, so the skips it shows as added may be over tests that were skipped before, and a
//! test newly skipped may sit under a line it kept: skips are paired by the test they are
//! over. Per-test skips gathered into a module's `pytestmark` are the same skips. A
//! suppression removed with a deleted file moves only to code that shares a name with the
//! code it was over. Each change is judged uncommitted (against HEAD) and committed
//! (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const GENERATED: &str = "src/test/java/GeneratedTest.java";

/// A disabled factory of random inputs of `size` symbols, `start..end` of them.
fn factory(size: u32, start: u32, end: &str) -> String {
    format!(
        "    @TestFactory\n    @Disabled\n    Stream<DynamicTest> randomFrom{size}() {{\n        Random rng = new Random(SEED);\n        Generator gen = new Generator(false, true);\n        return IntStream.range({start}, {end}).mapToObj(i -> {{\n                    String s = gen.randomInput({size}, rng);\n                    return dynamicTest(i + \": \" + s, () -> check(s));\n                }}\n        );\n    }}\n"
    )
}

fn generated(seed: &str, factories: &[String]) -> String {
    format!(
        "class GeneratedTest {{\n    static final long SEED = {seed};\n\n{}\n    @TestFactory\n    @Disabled\n    Stream<DynamicTest> randomWithSpaces() {{\n        Random rng = new Random(SEED);\n        return IntStream.range(1, 100).mapToObj(i -> dynamicTest(\"\" + i, () -> check(rng)));\n    }}\n}}\n",
        factories.join("\n")
    )
}

/// The line of the skip over the test `name` (the line before its declaration).
fn skip_over(text: &str, name: &str) -> u64 {
    let at = text
        .lines()
        .position(|l| l.contains(&format!(" {name}(")))
        .unwrap();
    assert_eq!(text.lines().nth(at - 1).unwrap().trim(), "@Disabled");
    at as u64
}

#[test]
fn a_test_added_disabled_among_disabled_ones_is_reported_on_its_own_line() {
    // Two disabled factories reordered and retuned, one more written between them, also
    // disabled. The diff keeps the old `@Disabled` lines over other factories and shows
    // the ones over the reordered factories as added: only `randomFrom2` is new.
    let old = generated("0", &[factory(10, 1, "10_000"), factory(1, 1, "10_000")]);
    let new = generated(
        "System.nanoTime()",
        &[
            factory(1, 0, "100"),
            factory(2, 0, "10_000"),
            factory(10, 0, "10_000"),
        ],
    );
    let line = skip_over(&new, "randomFrom2");
    both_ways(
        &[(GENERATED, &old)],
        &writing(&[(GENERATED, &new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(GENERATED.to_string(), line)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const SUITE: &str = "src/test/java/SuiteTest.java";

const TWO_TESTS: &str = "class SuiteTest {\n    @Test\n    @Disabled\n    void flaky() {\n        check(1);\n    }\n\n    @Test\n    void stable() {\n        check(2);\n    }\n}\n";

#[test]
fn a_kept_skip_line_left_over_a_test_that_ran_is_a_new_skip() {
    // `flaky` deleted with its body only: the `@Disabled` that stays is now over `stable`,
    // which ran. No skip line was added, and the file still has one skip.
    let new = "class SuiteTest {\n    @Test\n    @Disabled\n    void stable() {\n        check(2);\n    }\n}\n";
    both_ways(
        &[(SUITE, TWO_TESTS)],
        &writing(&[(SUITE, new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(SUITE.to_string(), 3)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_kept_skip_line_over_its_test_renamed_is_no_new_skip() {
    // The lookalike: the disabled test renamed under its unchanged `@Disabled`.
    let new = TWO_TESTS.replace("void flaky()", "void flakyOnCi()");
    both_ways(
        &[(SUITE, TWO_TESTS)],
        &writing(&[(SUITE, &new)]),
        &|code, receipt, mode| {
            assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

const PYRIGHT: &str = "tests/test_types.py";

/// Two tests, each skipped where the type checker is missing.
const PER_TEST: &str = concat!(
    "import shutil\n",
    "\n",
    "import pytest\n",
    "\n",
    "_found = shutil.which(\"pyright\")\n",
    "\n",
    "\n",
    "def run(path):\n",
    "    return check(path)\n",
    "\n",
    "\n",
    "@pytest.mark.skipif(not _found, reason=\"Requires pyright.\")\n",
    "def test_baseline():\n",
    "    assert run(\"a.py\") == {}\n",
    "\n",
    "\n",
    "@pytest.mark.skipif(not _found, reason=\"Requires pyright.\")\n",
    "def test_frozen():\n",
    "    assert run(\"b.py\") == {}\n",
);

/// The same two tests under one module-wide mark that holds `extra` marks first.
fn module_wide(extra: &str, tests: &str) -> String {
    format!(
        "import shutil\nimport sys\n\nimport pytest\n\npytestmark = [\n{extra}    pytest.mark.skipif(\n        shutil.which(\"pyright\") is None, reason=\"Requires pyright.\"\n    ),\n]\n\n\ndef run(path):\n    return check(path)\n\n\ndef test_baseline():\n    assert run(\"a.py\") == {{}}\n\n\ndef test_frozen():\n    assert run(\"b.py\") == {{}}\n{tests}"
    )
}

const OLD_PYTHON: &str =
    "    pytest.mark.skipif(\n        sys.version_info < (3, 7), reason=\"Requires Python 3.7+.\"\n    ),\n";

#[test]
fn per_test_skips_gathered_into_the_modules_pytestmark_are_the_same_skips() {
    // The skip of both tests moves into `pytestmark` (same condition, same tests); the
    // other mark there, on the Python version, is new and is the only finding.
    let new = module_wide(OLD_PYTHON, "");
    both_ways(
        &[(PYRIGHT, PER_TEST)],
        &writing(&[(PYRIGHT, &new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(PYRIGHT.to_string(), 7)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
    both_ways(
        &[(PYRIGHT, PER_TEST)],
        &writing(&[(PYRIGHT, &module_wide("", ""))]),
        &|code, receipt, mode| {
            assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn a_pytestmark_over_a_test_the_old_skips_did_not_cover_is_a_new_skip() {
    // The module also holds a test that ran where pyright is missing: the mark reaches it.
    let ran = PER_TEST.replace(
        "\n\n@pytest.mark.skipif(not _found, reason=\"Requires pyright.\")\ndef test_frozen",
        "\n\ndef test_parse():\n    assert parse(\"x\")\n\n\n@pytest.mark.skipif(not _found, reason=\"Requires pyright.\")\ndef test_frozen",
    );
    assert_ne!(ran, PER_TEST);
    let new = module_wide("", "\n\ndef test_parse():\n    assert parse(\"x\")\n");
    both_ways(
        &[(PYRIGHT, &ran)],
        &writing(&[(PYRIGHT, &new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_skips"),
                vec![(PYRIGHT.to_string(), 7)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const FACTORY: &str = "src/main/java/demo/StreamFactory.java";
const CODEC: &str = "src/main/java/demo/Codec.java";

const FACTORY_TEXT: &str = "package demo;\n\n@SuppressWarnings(\"resource\")\npublic abstract class StreamFactory {\n    public Reader open(String name) throws IOException {\n        return new FileReader(name);\n    }\n}\n";

const CODEC_TEXT: &str = "package demo;\n\npublic class Codec {\n    public byte[] decode(String input) {\n        ByteArrayBuilder b = new ByteArrayBuilder();\n        decodeInto(input, b);\n        return b.toByteArray();\n    }\n}\n";

#[test]
fn a_suppression_deleted_with_its_file_does_not_excuse_one_over_unrelated_code() {
    // The factory is deleted with its class-wide `resource` suppression; the same
    // suppression is written over `decode`, code that shares no name with the factory.
    let codec = CODEC_TEXT.replace(
        "    public byte[] decode(",
        "    @SuppressWarnings(\"resource\")\n    public byte[] decode(",
    );
    both_ways(
        &[(FACTORY, FACTORY_TEXT), (CODEC, CODEC_TEXT)],
        &|r| {
            r.remove(FACTORY);
            r.write(CODEC, &codec);
        },
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![(CODEC.to_string(), 4)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

#[test]
fn a_suppression_deleted_with_its_file_moves_to_the_same_code_renamed_elsewhere() {
    // The lookalike: a test's fixture class moved out of a deleted test file into a new
    // one and renamed there (`ClassWithPrivateFinalFields` -> `ClassWithPrivateMembers`),
    // its suppression with it.
    const OLD_TEST: &str = "src/test/java/demo/UnsafeAccessTest.java";
    const NEW_TEST: &str = "src/test/java/demo/AccessTest.java";
    let old = "package demo;\n\npublic class UnsafeAccessTest {\n    @Test\n    public void finalFieldsStayClosed() {\n        assertFalse(open(ClassWithPrivateFinalFields.class));\n    }\n\n    @SuppressWarnings(\"unused\")\n    private static final class ClassWithPrivateFinalFields {\n        private final String a;\n    }\n}\n";
    let new = "package demo;\n\npublic class AccessTest {\n    @SuppressWarnings(\"unused\")\n    private static class ClassWithPrivateMembers {\n        private String s;\n    }\n\n    @Test\n    public void membersOpenWithoutManager() {\n        assertTrue(open(ClassWithPrivateMembers.class));\n    }\n}\n";
    both_ways(
        &[(OLD_TEST, old)],
        &|r| {
            r.remove(OLD_TEST);
            r.write(NEW_TEST, new);
        },
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![],
                "{mode}: {receipt}"
            );
            // A test left the repository (its file deleted): that is `deleted_tests`' call.
            assert!(matches!(code, Some(0 | 3)), "{mode}: {receipt}");
        },
    );
}
