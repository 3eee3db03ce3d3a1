//! Lines that look like suppressions or debugging leftovers and are not, next to the real
//! ones the guards must still catch: a type test's `@ts-expect-error`, the unchanged twin
//! of an added suppression, a stack trace printed into a given stream, a notice on
//! standard error. Each change is
//! judged uncommitted (against HEAD) and committed (`--against HEAD^`). Real repositories,
//! the real binary.

mod gitrepo;

use gitrepo::{both_ways, guard, lines_of, writing};

const ROUTES_TYPES: &str = "import { expect } from 'tstyche'\n\
import { route } from '../../index'\n\
\n\
expect(route('/a')).type.toBe<string>()\n";

fn with_assertion(path: &str, comment: &str) -> (String, String) {
    let body =
        format!("{ROUTES_TYPES}\n// {comment}\nroute(42)\n\n// {comment}\nroute({{ path: 1 }})\n");
    (path.to_string(), body)
}

#[test]
fn ts_expect_error_in_a_type_test_asserts_and_is_not_a_suppression() {
    for path in [
        "test/types/route.test-d.ts",
        "test/types/route.tst.ts",
        "src/__typetests__/route.test.ts",
        "test-d/route.ts",
    ] {
        let (p, body) = with_assertion(path, "@ts-expect-error");
        both_ways(
            &[(path, ROUTES_TYPES), ("index.ts", "export const x = 1\n")],
            &writing(&[(&p, &body)]),
            &|code, receipt, mode| {
                assert_eq!(lines_of(receipt, "disabled_lint"), vec![], "{path} {mode}");
                assert_eq!(code, Some(0), "{path} {mode}: {receipt}");
            },
        );
    }
}

#[test]
fn ts_ignore_in_a_type_test_and_ts_expect_error_in_source_are_still_suppressions() {
    // `@ts-ignore` asserts nothing (it passes whether or not there is an error).
    let path = "test/types/route.test-d.ts";
    let (p, body) = with_assertion(path, "@ts-ignore");
    both_ways(
        &[(path, ROUTES_TYPES)],
        &writing(&[(&p, &body)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![(path.to_string(), 6), (path.to_string(), 9)],
                "{mode}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
    // The same lines in ordinary source, or in a runtime test, or in a `types/` directory
    // of declarations: the checker is silenced.
    for path in [
        "src/route.ts",
        "test/route.test.ts",
        "types/route.ts",
        "src/__typetests__/nested/route.test.ts",
    ] {
        let (p, body) = with_assertion(path, "@ts-expect-error");
        both_ways(
            &[(path, ROUTES_TYPES)],
            &writing(&[(&p, &body)]),
            &|code, receipt, mode| {
                assert_eq!(
                    lines_of(receipt, "disabled_lint"),
                    vec![(path.to_string(), 6), (path.to_string(), 9)],
                    "{path} {mode}"
                );
                assert_eq!(code, Some(3), "{path} {mode}");
            },
        );
    }
}

const APPLY_TESTS: &str = "import { expect, test } from 'vitest'\n\
import * as z from '../index'\n\
\n\
const withMin = (schema: z.ZodString, n: number) => schema.min(n)\n\
\n\
test('apply passes extra args', () => {\n\
  expect(z.string().apply(withMin, 3).parse('abcd')).toBe('abcd')\n\
})\n";

/// `APPLY_TESTS` with one more test case holding `body`.
fn apply_tests_with(body: &str) -> String {
    format!("{APPLY_TESTS}\ntest('apply type-checks its args', () => {{\n{body}}})\n")
}

/// Statements that only exist for their type error: a call whose value is dropped, one of
/// the arguments of such a call, a `_`-named declaration nobody reads.
const TYPE_ASSERTIONS: &str = "  // @ts-expect-error wrong arg type\n\
  z.string().apply(withMin, '3');\n\
  // @ts-expect-error missing arg\n\
  z.string().apply(withMin);\n\
\n\
  z.toZod<{ id: string }>()(\n\
    // @ts-expect-error extra keys fail exact output matching\n\
    z.object({ id: z.string(), extra: z.string() })\n\
  );\n\
\n\
  // @ts-expect-error a schema is not a JSON schema\n\
  const _json: z.JSONSchema = z.string();\n";

#[test]
fn ts_expect_error_over_a_statement_with_no_runtime_effect_in_a_test_case_asserts() {
    // An ordinary `*.test.ts`, type-checked by its runner: the directive is the test's
    // assertion that the statement under it does not type-check.
    let path = "src/tests/apply.test.ts";
    let new = apply_tests_with(TYPE_ASSERTIONS);
    both_ways(
        &[(path, APPLY_TESTS)],
        &writing(&[(path, &new)]),
        &|code, receipt, mode| {
            assert_eq!(lines_of(receipt, "disabled_lint"), vec![], "{mode}");
            assert_eq!(code, Some(0), "{mode}: {receipt}");
        },
    );
}

#[test]
fn ts_expect_error_over_code_run_for_its_effect_or_in_source_is_still_a_suppression() {
    // The same statements in source code: the checker is silenced there.
    let source = "src/apply.ts";
    let old = "import * as z from './index'\n\nexport const withMin = (schema: z.ZodString, n: number) => schema.min(n)\n";
    let new = format!("{old}\nexport function check() {{\n{TYPE_ASSERTIONS}}}\n");
    both_ways(
        &[(source, old)],
        &writing(&[(source, &new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![
                    (source.to_string(), 6),
                    (source.to_string(), 8),
                    (source.to_string(), 12),
                    (source.to_string(), 16)
                ],
                "{mode}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
    // In a test case, code that runs for its effect: ill-typed input given to the code
    // under test (an assignment, a call awaited, checked by `expect`, or whose effect the
    // next statement checks), or a `_` name that is read after all.
    let path = "src/tests/apply.test.ts";
    let runtime = "  // @ts-expect-error adding a mock method for the test\n\
  server.send = vi.fn()\n\
  // @ts-expect-error testing an undefined value\n\
  await api.get(url, { searchParams: undefined })\n\
  // @ts-expect-error\n\
  expect(() => z.string().apply(withMin, '3')).toThrow()\n\
  // @ts-expect-error search route does not define $ws\n\
  client.search.$ws({ query: { q: 'test' } })\n\
\n\
  expect(webSocketMock).toHaveBeenCalled()\n\
  // @ts-expect-error\n\
  const _json: z.JSONSchema = z.string()\n\
  send(_json)\n";
    let new = apply_tests_with(runtime);
    both_ways(
        &[(path, APPLY_TESTS)],
        &writing(&[(path, &new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                [11, 13, 15, 17, 21]
                    .into_iter()
                    .map(|n| (path.to_string(), n))
                    .collect::<Vec<_>>(),
                "{mode}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const BIND_TESTS: &str = "package viper\n\
\n\
func TestBindString(t *testing.T) {\n\
\tcheck(t, \"a\")\n\
}\n\
\n\
// nolint: dupl\n\
func TestBindIntSlice(t *testing.T) {\n\
\tcheck(t, 1)\n\
}\n";

#[test]
fn a_suppression_added_over_a_twin_is_reported_where_it_was_added() {
    // A new test with `// nolint: dupl` inserted over a test that already had it: the
    // finding is the new test's line 7, not the old test's, now at line 12.
    let new = BIND_TESTS.replace(
        "// nolint: dupl\nfunc TestBindIntSlice",
        "// nolint: dupl\nfunc TestBindStringArray(t *testing.T) {\n\tcheck(t, []string{})\n}\n\n// nolint: dupl\nfunc TestBindIntSlice",
    );
    both_ways(
        &[("viper_test.go", BIND_TESTS)],
        &writing(&[("viper_test.go", &new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![("viper_test.go".to_string(), 7)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
    // The same test inserted without the marker: nothing new, and the old marker, which
    // did not change, is not reported.
    let plain = BIND_TESTS.replace(
        "// nolint: dupl\nfunc TestBindIntSlice",
        "func TestBindStringArray(t *testing.T) {\n\tcheck(t, []string{})\n}\n\n// nolint: dupl\nfunc TestBindIntSlice",
    );
    both_ways(
        &[("viper_test.go", BIND_TESTS)],
        &writing(&[("viper_test.go", &plain)]),
        &|code, receipt, mode| {
            assert_eq!(lines_of(receipt, "disabled_lint"), vec![], "{mode}");
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

const MAKER: &str = concat!(
    "class Maker {\n",
    "    void reset() {\n",
    "    }\n",
    "\n",
    "    @Override\n",
    "    @SuppressWarnings(\"unchecked\")\n",
    "    public <T> T newInstance(Class<T> cls) {\n",
    "        return null;\n",
    "    }\n",
    "}\n",
);

#[test]
fn annotations_added_over_a_method_like_the_next_one_are_reported_on_it() {
    let new = MAKER.replace(
        "    @Override\n    @SuppressWarnings(\"unchecked\")\n    public <T> T newInstance",
        "    @Override\n    @SuppressWarnings(\"unchecked\")\n    public <T> T singleton(T t) {\n        return t;\n    }\n\n    @Override\n    @SuppressWarnings(\"unchecked\")\n    public <T> T newInstance",
    );
    both_ways(
        &[("src/main/java/Maker.java", MAKER)],
        &writing(&[("src/main/java/Maker.java", &new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![("src/main/java/Maker.java".to_string(), 6)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

const HELPER: &str = concat!(
    "import java.io.*;\n",
    "\n",
    "class Helper {\n",
    "    static String run() {\n",
    "        return \"\";\n",
    "    }\n",
    "}\n",
);

#[test]
fn a_stack_trace_printed_into_a_given_stream_is_no_debugging_leftover() {
    let captured = HELPER.replace(
        "    static String run() {\n",
        "    static String trace(Throwable e) {\n        ByteArrayOutputStream out = new ByteArrayOutputStream();\n        e.printStackTrace(new PrintStream(out));\n        StringWriter sw = new StringWriter();\n        e.printStackTrace(new PrintWriter(sw));\n        return out.toString() + sw;\n    }\n\n    static String run() {\n",
    );
    both_ways(
        &[("src/main/java/Helper.java", HELPER)],
        &writing(&[("src/main/java/Helper.java", &captured)]),
        &|code, receipt, mode| {
            assert_eq!(lines_of(receipt, "debug_artifacts"), vec![], "{mode}");
            assert_eq!(code, Some(0), "{mode}: {receipt}");
        },
    );
    // Dumped on the console, with no argument or given System.out: a leftover.
    let dumped = HELPER.replace(
        "        return \"\";\n",
        "        try {\n            return load();\n        } catch (IOException e) {\n            e.printStackTrace();\n            e.printStackTrace(System.out);\n        }\n        return \"\";\n",
    );
    both_ways(
        &[("src/main/java/Helper.java", HELPER)],
        &writing(&[("src/main/java/Helper.java", &dumped)]),
        &|code, receipt, mode| {
            let path = "src/main/java/Helper.java".to_string();
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(path.clone(), 8), (path, 9)],
                "{mode}"
            );
            // A warning by default: reported, the exit code unchanged.
            assert_eq!(
                guard(receipt, "debug_artifacts")["status"],
                "warn",
                "{mode}"
            );
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn a_notice_on_standard_error_is_no_debugging_leftover_but_standard_output_is() {
    // A library's deliberate notice to its user goes to System.err (as `console.error`
    // in JS); a print to System.out in library code is the leftover.
    let notice = HELPER.replace(
        "        return \"\";\n",
        "        System.err.println(\"Suppressing static initializers (see the docs)\");\n        System.out.println(\"here\");\n        return \"\";\n",
    );
    both_ways(
        &[("src/main/java/Helper.java", HELPER)],
        &writing(&[("src/main/java/Helper.java", &notice)]),
        &|code, receipt, mode| {
            let lines = lines_of(receipt, "debug_artifacts");
            assert_eq!(lines.len(), 1, "{mode}: {receipt}");
            let finding = &guard(receipt, "debug_artifacts")["findings"][0];
            assert!(
                finding["snippet"]
                    .as_str()
                    .unwrap()
                    .starts_with("System.out.println"),
                "{mode}: {finding}"
            );
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

const MAPPED_OLD: &str = concat!(
    "import pytest\n",
    "\n",
    "\n",
    "def test_all_mapped():\n",
    "    not_mapped = [\n",
    "        v for v in VALUES if v not in MAP\n",
    "    ]\n",
    "\n",
    "    if not_mapped:  # pragma: no cover\n",
    "        pytest.fail(f\"unmapped: {not_mapped}\")\n",
    "\n",
    "\n",
    "def test_mapping_raises():\n",
    "    with pytest.raises(KeyError):\n",
    "        lookup(\"x\")\n",
    "\n",
    "    with pytest.raises(ValueError):\n",
    "        lookup(\"\")\n",
    "\n",
    "\n",
    "def test_mapping():\n",
    "    assert MAP\n",
);

/// The check rewritten around the blank lines it kept, its variable renamed on the line
/// that holds the pragma (and the test after it dropped, so the diff keeps two blank lines
/// between the old pragma and the new one).
const MAPPED_NEW: &str = concat!(
    "import pytest\n",
    "\n",
    "\n",
    "def test_all_mapped():\n",
    "    expected = {\n",
    "        v.name for v in VALUES\n",
    "    }\n",
    "\n",
    "    names = {\n",
    "        v.name for v in MAP\n",
    "    }\n",
    "\n",
    "    unmapped = expected - names\n",
    "\n",
    "    if unmapped:  # pragma: no cover\n",
    "        pytest.fail(f\"unmapped: {unmapped}\")\n",
    "\n",
    "\n",
    "def test_mapping():\n",
    "    assert MAP\n",
);

#[test]
fn a_pragma_kept_on_a_statement_rewritten_around_blank_lines_is_the_same_pragma() {
    let path = "tests/test_map.py";
    both_ways(
        &[(path, MAPPED_OLD)],
        &writing(&[(path, MAPPED_NEW)]),
        &|_, receipt, mode| {
            assert_eq!(lines_of(receipt, "disabled_lint"), vec![], "{mode}");
        },
    );
    // Another statement under the pragma in the same place: blank lines are all that tell
    // places apart in a rewrite this size, so only a renamed name keeps it the same line.
    let other = MAPPED_NEW.replace("    if unmapped:", "    if len(unmapped) > 0:");
    both_ways(
        &[(path, MAPPED_OLD)],
        &writing(&[(path, &other)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![(path.to_string(), 15)],
                "{mode}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
    // Another pragma in the same change, past an unchanged line of code (the next test's
    // `def`): a new suppression, while the rewritten one stays a rewrite.
    let more = MAPPED_NEW.replace(
        "def test_mapping():\n",
        "def test_mapping():\n    if not MAP:  # pragma: no cover\n        pytest.fail(\"empty\")\n",
    );
    both_ways(
        &[(path, MAPPED_OLD)],
        &writing(&[(path, &more)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![(path.to_string(), 20)],
                "{mode}"
            );
            assert_eq!(code, Some(3), "{mode}");
        },
    );
}

/// Output switched on for debugging (`if debug { print(..) }`, a `debugf` helper) is
/// deliberate; the same print outside the gate is a leftover. Go's builtin `println` in a
/// test file is the harness reporting on stderr.
#[test]
fn output_behind_a_debug_switch_or_in_a_go_test_is_no_debugging_leftover() {
    let lib = "package proto\n\nconst debug = false\n\nfunc build(n int) int {\n\treturn n\n}\n";
    let gated = lib.replace(
        "\treturn n\n",
        "\tif debug {\n\t\tprint(n, \" fields\")\n\t}\n\tprintln(n)\n\treturn n\n",
    );
    both_ways(
        &[("proto/build.go", lib)],
        &writing(&[("proto/build.go", &gated)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![("proto/build.go".to_string(), 9)],
                "{mode}: {receipt}"
            );
        },
    );
    let test = "package proto\n\nimport \"testing\"\n\nfunc TestBuild(t *testing.T) {\n\tif build(1) != 1 {\n\t\tt.Fatal(\"x\")\n\t}\n}\n";
    let reports = test.replace("\t\tt.Fatal", "\t\tprintln(\"build failed\")\n\t\tt.Fatal");
    both_ways(
        &[("proto/build_test.go", test)],
        &writing(&[("proto/build_test.go", &reports)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}
