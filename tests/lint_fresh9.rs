//! Suppressions the fresh9 set showed `disabled_lint` not knowing, and their lookalikes:
//! the comment directive of Astral's `ty`; a JVM annotation named for the check it
//! silences (`@SuppressSignatureCheck`), not one that switches off something else; checks
//! switched off in a Gradle script (animal-sniffer's `ignore(..)`, javac's `-Xlint:-name`);
//! and, in a JS/TS test file, `@ts-expect-error` over a call a fake makes to answer the code
//! under test, which runs for its effect and is no type assertion. Each change is judged
//! uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lint_at, writing};

const PY: &str = "def size(x):\n    return len(x)\n";

/// `# ty: ignore[..]` silences ty as `# type: ignore` silences mypy.
#[test]
fn a_ty_ignore_comment_is_a_suppression() {
    let new = "def size(x):\n    return len(x)  # ty: ignore[invalid-argument-type]\n";
    both_ways(
        &[("pkg/size.py", PY)],
        &writing(&[("pkg/size.py", new)]),
        &lint_at(vec![("pkg/size.py", 2)]),
    );
}

/// Lookalike: `ty` in prose, or another word ending in `ty`, is no directive.
#[test]
fn ty_in_prose_is_not_a_directive() {
    let new = "def size(x):\n    # empty: ignore the rest\n    return len(x)  # pretty: ignore\n";
    both_ways(
        &[("pkg/size.py", PY)],
        &writing(&[("pkg/size.py", new)]),
        &lint_at(vec![]),
    );
}

const KT: &str = "package a\n\nclass Dns {\n  fun lookup(host: String) = host\n}\n";

/// `@SuppressSignatureCheck` (animal-sniffer's conventional annotation) silences the API
/// signature check over the function it annotates.
#[test]
fn a_suppress_annotation_named_for_a_check_is_a_suppression() {
    let new = "package a\n\nclass Dns {\n  @SuppressSignatureCheck\n  fun lookup(host: String) = host\n}\n";
    both_ways(
        &[("src/main/kotlin/a/Dns.kt", KT)],
        &writing(&[("src/main/kotlin/a/Dns.kt", new)]),
        &lint_at(vec![("src/main/kotlin/a/Dns.kt", 4)]),
    );
}

/// Lookalikes: the annotation's own declaration, an import of it, and `Suppress..`
/// annotations that switch off something other than a check (PowerMock's static
/// initialisers, Lucene's codecs).
#[test]
fn a_suppress_annotation_that_names_no_check_is_not_one() {
    let decl = "package a\n\n@Retention(AnnotationRetention.BINARY)\nannotation class SuppressSignatureCheck\n";
    let java = "package a;\n\nimport a.SuppressSignatureCheck;\n\n@SuppressStaticInitializationFor(\"a.Native\")\n@SuppressCodecs(\"SimpleText\")\npublic class DnsTest {\n}\n";
    both_ways(
        &[("src/main/kotlin/a/Dns.kt", KT)],
        &writing(&[
            ("src/main/kotlin/a/SuppressSignatureCheck.kt", decl),
            ("src/test/java/a/DnsTest.java", java),
        ]),
        &lint_at(vec![]),
    );
}

const GRADLE: &str = concat!(
    "plugins {\n",
    "  id(\"ru.vyarus.animalsniffer\")\n",
    "}\n",
    "\n",
    "configure<AnimalSnifferExtension> {\n",
    "  annotation = \"a.SuppressSignatureCheck\"\n",
    "}\n",
    "\n",
    "tasks.withType<JavaCompile> {\n",
    "  options.encoding = \"UTF-8\"\n",
    "}\n",
);

/// Classes animal-sniffer is told to ignore in a Gradle script, one per line, and a javac
/// lint category turned off, are suppressions written in configuration.
#[test]
fn animal_sniffer_ignores_and_javac_lints_off_in_gradle_are_suppressions() {
    let new = GRADLE
        .replace(
            "  annotation = \"a.SuppressSignatureCheck\"\n",
            "  annotation = \"a.SuppressSignatureCheck\"\n  ignore(\n    \"java.lang.Boolean\",\n    \"java.lang.Long\",\n  )\n",
        )
        .replace(
            "  options.encoding = \"UTF-8\"\n",
            "  options.encoding = \"UTF-8\"\n  options.compilerArgs.add(\"-Xlint:-requires-transitive-automatic\")\n",
        );
    both_ways(
        &[("build.gradle.kts", GRADLE)],
        &writing(&[("build.gradle.kts", &new)]),
        &lint_at(vec![
            ("build.gradle.kts", 8),
            ("build.gradle.kts", 9),
            ("build.gradle.kts", 15),
        ]),
    );
}

/// Lookalikes: `ignore` in another block, a javac lint turned on, and the same ignores
/// moved from `pom.xml` into the Gradle script (a build migrated).
#[test]
fn gradle_settings_that_silence_nothing_new_are_not_findings() {
    let new = GRADLE
        .replace(
            "  options.encoding = \"UTF-8\"\n",
            "  options.encoding = \"UTF-8\"\n  options.compilerArgs.add(\"-Xlint:deprecation\")\n",
        )
        .replace(
            "plugins {\n",
            "spotless {\n  ignore(\"java.lang.Boolean\")\n}\n\nplugins {\n",
        );
    both_ways(
        &[("build.gradle.kts", GRADLE)],
        &writing(&[("build.gradle.kts", &new)]),
        &lint_at(vec![]),
    );
    let pom = "<project>\n<build>\n<plugins>\n<plugin>\n<artifactId>animal-sniffer-maven-plugin</artifactId>\n<configuration>\n<ignores>\n<ignore>java.lang.Boolean</ignore>\n</ignores>\n</configuration>\n</plugin>\n</plugins>\n</build>\n</project>\n";
    let moved = GRADLE.replace(
        "  annotation = \"a.SuppressSignatureCheck\"\n",
        "  annotation = \"a.SuppressSignatureCheck\"\n  ignore(\"java.lang.Boolean\")\n",
    );
    both_ways(
        &[("build.gradle.kts", GRADLE), ("pom.xml", pom)],
        &|r| {
            r.write("build.gradle.kts", &moved);
            r.remove("pom.xml");
        },
        &lint_at(vec![]),
    );
}

const TS_TEST: &str = concat!(
    "import test from 'ava';\n",
    "import {PassThrough} from 'node:stream';\n",
    "import got from '../source/index.js';\n",
    "\n",
    "test('lookup', async t => {\n",
    "\tawait t.notThrowsAsync(got('', {\n",
    "\t\tdnsLookup(_hostname, options, callback) {\n",
    "\t\t\tif (options.all) {\n",
    "\t\t\t\tcallback(null, [{address: '127.0.0.1', family: 4}]);\n",
    "\t\t\t} else {\n",
    "\t\t\t\tcallback(null, '127.0.0.1', 4);\n",
    "\t\t\t}\n",
    "\t\t},\n",
    "\t}));\n",
    "});\n",
    "\n",
    "test('late error', async t => {\n",
    "\tconst message = new PassThrough() as unknown as Message;\n",
    "\tsetImmediate(() => {\n",
    "\t\tmessage.end('ok');\n",
    "\t});\n",
    "\tt.pass();\n",
    "});\n",
);

/// A fake answering the callback it was handed (`callback(null, ..)` in a mock lookup) or
/// driving an object the test built with `new` (`message.end('ok')`) runs for its effect:
/// `@ts-expect-error` over it lets ill-typed input reach the code under test.
#[test]
fn ts_expect_error_over_a_fake_answering_the_code_under_test_is_a_suppression() {
    let new = TS_TEST
        .replace(
            "\t\t\t} else {\n\t\t\t\tcallback(",
            "\t\t\t} else {\n\t\t\t\t// @ts-expect-error overloads\n\t\t\t\tcallback(",
        )
        .replace(
            "\t\tmessage.end('ok');\n",
            "\t\t// @ts-expect-error PassThrough method\n\t\tmessage.end('ok');\n",
        );
    both_ways(
        &[("test/timeout.ts", TS_TEST)],
        &writing(&[("test/timeout.ts", &new)]),
        &lint_at(vec![("test/timeout.ts", 11), ("test/timeout.ts", 21)]),
    );
}

/// Lookalikes: the test calls its own fixture (`got`, a parameter of the test's callback)
/// with a wrong option and drops the value, and a method of an object a factory made: the
/// test's type assertions, as before.
#[test]
fn ts_expect_error_over_a_tests_own_dropped_call_stays_an_assertion() {
    let base = "import test from 'ava';\nimport {z} from 'zod';\n\ntest('options', async (t, server, got) => {\n\tconst schema = z.string();\n});\n";
    let new = base.replace(
        "\tconst schema = z.string();\n",
        "\tconst schema = z.string();\n\t// @ts-expect-error no such option\n\tgot('', {bad: 1});\n\t// @ts-expect-error a number\n\tschema.min('3');\n",
    );
    both_ways(
        &[("test/options.ts", base)],
        &writing(&[("test/options.ts", &new)]),
        &lint_at(vec![]),
    );
}

const PYPROJECT: &str = concat!(
    "[tool.ruff.lint.per-file-ignores]\n",
    "\"docs/t2_an.py\" = [\"B006\"]\n",
);
const PLAIN: &str = "import a\nx = 1\ny = 2\n";
const ANNOTATED: &str = "import a\nx = 1\ny = 2\nz = 3\n";
const NOW: &str = "import a\nx = 1\ny = 2\nw = 4\n";

/// Two variants of one example renamed beside each other (`t2.py` and `t2_an.py` to
/// `t2_py39.py` and `t2_an_py39.py`), each new file as like either old one: the renames
/// pair the names that differ least, so the per-file ignore that followed `t2_an.py` to
/// `t2_an_py39.py` is the same ignore.
#[test]
fn a_per_file_ignore_follows_its_file_among_equally_like_variants() {
    let new = PYPROJECT.replace("t2_an.py", "t2_an_py39.py");
    both_ways(
        &[
            ("pyproject.toml", PYPROJECT),
            ("docs/t2.py", PLAIN),
            ("docs/t2_an.py", ANNOTATED),
        ],
        &|r| {
            r.remove("docs/t2.py");
            r.remove("docs/t2_an.py");
            r.write("docs/t2_py39.py", NOW);
            r.write("docs/t2_an_py39.py", NOW);
            r.write("pyproject.toml", &new);
        },
        &lint_at(vec![]),
    );
}

/// Lookalike: the ignore now names the other variant, a file it did not reach before.
#[test]
fn a_per_file_ignore_moved_to_the_other_variant_is_new() {
    let new = PYPROJECT.replace("t2_an.py", "t2_py39.py");
    both_ways(
        &[
            ("pyproject.toml", PYPROJECT),
            ("docs/t2.py", PLAIN),
            ("docs/t2_an.py", ANNOTATED),
        ],
        &|r| {
            r.remove("docs/t2.py");
            r.remove("docs/t2_an.py");
            r.write("docs/t2_py39.py", NOW);
            r.write("docs/t2_an_py39.py", NOW);
            r.write("pyproject.toml", &new);
        },
        &lint_at(vec![("pyproject.toml", 2)]),
    );
}

const REQUEST: &str = concat!(
    "export class Request {\n",
    "\tasync flush(activeRequest: ClientRequest) {\n",
    "\t\tif (this.done) {\n",
    "\t\t\treturn;\n",
    "\t\t}\n",
    "\n",
    "\t\tactiveRequest.end((error?: Error | null) => { // eslint-disable-line @typescript-eslint/no-restricted-types\n",
    "\t\t\tthis.finish(error);\n",
    "\t\t});\n",
    "\t}\n",
    "\n",
    "\tget finished(): boolean {\n",
    "\t\treturn this.done && this.flushed;\n",
    "\t}\n",
    "}\n",
);

fn request_with_helper(statement: &str) -> String {
    concat!(
        "export class Request {\n",
        "\tasync flush(activeRequest: ClientRequest) {\n",
        "\t\tif (this.done) {\n",
        "\t\t\treturn;\n",
        "\t\t}\n",
        "\n",
        "\t\tawait this._end(activeRequest);\n",
        "\t}\n",
        "\n",
        "\tget finished(): boolean {\n",
        "\t\treturn this.done && this.flushed;\n",
        "\t}\n",
        "\n",
        "\tprivate async _end(request: ClientRequest): Promise<void> {\n",
        "\t\tawait new Promise<void>(resolve => {\n",
        "STATEMENT",
        "\t\t\t\tresolve();\n",
        "\t\t\t});\n",
        "\t\t});\n",
        "\t}\n",
        "}\n",
    )
    .replace("STATEMENT", statement)
}

/// A statement ending in its suppression carried into an extracted helper, its variable
/// renamed as the helper's parameter (`activeRequest.end(..)` as `request.end(..)`): the
/// same suppression, moved.
#[test]
fn a_suppressed_statement_carried_into_a_helper_with_a_name_changed_is_moved() {
    let new = request_with_helper(
        "\t\t\trequest.end((error?: Error | null) => { // eslint-disable-line @typescript-eslint/no-restricted-types\n",
    );
    both_ways(
        &[("source/core/request.ts", REQUEST)],
        &writing(&[("source/core/request.ts", &new)]),
        &lint_at(vec![]),
    );
}

/// Lookalike: the helper's statement calls another object, whose name shares no word with
/// the old one: other code, a new suppression.
#[test]
fn a_suppression_on_other_code_in_the_helper_is_new() {
    let new = request_with_helper(
        "\t\t\tsocket.end((error?: Error | null) => { // eslint-disable-line @typescript-eslint/no-restricted-types\n",
    );
    both_ways(
        &[("source/core/request.ts", REQUEST)],
        &writing(&[("source/core/request.ts", &new)]),
        &lint_at(vec![("source/core/request.ts", 16)]),
    );
}

const TESTING: &str = concat!(
    "from collections.abc import Mapping\n",
    "\n",
    "from click.testing import CliRunner as ClickCliRunner  # noqa\n",
    "from click.testing import Result\n",
    "from pkg.main import Typer\n",
    "\n",
    "\n",
    "class CliRunner(ClickCliRunner):\n",
    "    pass\n",
);

/// An import with its suppression, its module moved (`click.testing` to
/// `._click.testing`) and the line sorted below the others: the same import.
#[test]
fn a_suppressed_import_whose_module_moved_is_the_same_import() {
    let new = concat!(
        "from collections.abc import Mapping\n",
        "\n",
        "from pkg.main import Typer\n",
        "\n",
        "from ._click.testing import CliRunner as ClickCliRunner  # noqa\n",
        "from ._click.testing import Result\n",
        "\n",
        "\n",
        "class CliRunner(ClickCliRunner):\n",
        "    pass\n",
    );
    both_ways(
        &[("pkg/testing.py", TESTING)],
        &writing(&[("pkg/testing.py", new)]),
        &lint_at(vec![]),
    );
}

/// Lookalike: the suppressed line now imports another name.
#[test]
fn a_suppressed_import_of_another_name_is_new() {
    let new = concat!(
        "from collections.abc import Mapping\n",
        "\n",
        "from pkg.main import Typer\n",
        "\n",
        "from ._click.testing import CliRunner as ClickCliRunner\n",
        "from ._click.testing import Result  # noqa\n",
        "\n",
        "\n",
        "class CliRunner(ClickCliRunner):\n",
        "    pass\n",
    );
    both_ways(
        &[("pkg/testing.py", TESTING)],
        &writing(&[("pkg/testing.py", new)]),
        &lint_at(vec![("pkg/testing.py", 6)]),
    );
}

const TYPES_TEST: &str = concat!(
    "import {expectTypeOf} from 'expect-type';\n",
    "import {type Options} from '../source/index.js';\n",
    "\n",
    "expectTypeOf<Options>().toBeObject();\n",
);

/// A test file that imports a type-assertion library and declares no test a runner runs
/// (`test/extend.types.ts`, left out of the runner's files) is a type-test module: its
/// `@ts-expect-error` is the assertion that the value is rejected.
#[test]
fn ts_expect_error_in_a_type_test_module_is_an_assertion() {
    let new = format!(
        "{TYPES_TEST}\n// @ts-expect-error `url` must be passed first.\nconst invalid: Options = {{url: 'https://example.com'}};\nvoid invalid;\n"
    );
    both_ways(
        &[("test/extend.types.ts", TYPES_TEST)],
        &writing(&[("test/extend.types.ts", &new)]),
        &lint_at(vec![]),
    );
}

/// Lookalike: the same lines in a file that also declares a test a runner runs: a
/// statement at the top of a module that runs, a suppression.
#[test]
fn ts_expect_error_at_the_top_of_a_run_test_file_is_a_suppression() {
    let base = format!("{TYPES_TEST}\ntest('options', t => {{\n\tt.pass();\n}});\n");
    let new = format!(
        "{base}\n// @ts-expect-error `url` must be passed first.\nconst invalid: Options = {{url: 'https://example.com'}};\nvoid invalid;\n"
    );
    both_ways(
        &[("test/extend.ts", &base)],
        &writing(&[("test/extend.ts", &new)]),
        &lint_at(vec![("test/extend.ts", 10)]),
    );
}

fn kotlin(package: &str, header: &str, class: &str) -> String {
    let mut body = format!("{header}package {package}\n\nimport okio.Buffer\n\n");
    for i in 0..8 {
        body.push_str(&format!(
            "internal fun {class}{i}(b: Buffer) = b.size + {i}\n"
        ));
    }
    body
}

const FILENAME: &str = "@file:Suppress(\"ktlint:standard:filename\")\n\n";

/// A file-wide suppression that left one file (renamed, still there) and one written into
/// another file that existed before (renamed too) cover different code: the new one is
/// new, not the old one moved.
#[test]
fn a_file_wide_suppression_does_not_move_between_files_that_both_stay() {
    both_ways(
        &[
            ("dns/-DnsCall.kt", &kotlin("dns", FILENAME, "call")),
            ("dns/Caching.kt", &kotlin("dns", "", "cache")),
        ],
        &|r| {
            r.remove("dns/-DnsCall.kt");
            r.remove("dns/Caching.kt");
            r.write("dns/DnsTransport.kt", &kotlin("dns", "", "call"));
            r.write("dns/-Caching.kt", &kotlin("dns", FILENAME, "cache"));
        },
        &lint_at(vec![("dns/-Caching.kt", 1)]),
    );
}

/// Lookalike: the file that lost it was deleted, its code written into a new file with
/// the suppression: moved.
#[test]
fn a_file_wide_suppression_moves_with_its_code_into_a_new_file() {
    both_ways(
        &[
            ("dns/-DnsCall.kt", &kotlin("dns", FILENAME, "call")),
            ("dns/Caching.kt", &kotlin("dns", "", "cache")),
        ],
        &|r| {
            r.remove("dns/-DnsCall.kt");
            r.write(
                "dns/-StateMachineCall.kt",
                &kotlin("dns", FILENAME, "machine"),
            );
        },
        &lint_at(vec![]),
    );
}
