//! Markers the fresh11 set showed loopgate misreading, and their lookalikes: Kotlin's
//! standard-library `TODO(..)` called in product code (`new_todos`); a lint allowed on a
//! hidden line of a Rust doc test, `/// # #![allow(..)]` (`disabled_lint`); and an ignored
//! Kotlin test taken for the body of the bodyless class declared before it, so for test
//! data (`new_skips`). Each change is judged uncommitted and committed. Real
//! repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};
use serde_json::Value;

/// `guard` reports exactly `want`; blocking guards exit 3 when they report.
fn expect(
    guard: &'static str,
    blocks: bool,
    want: Vec<(&'static str, u64)>,
) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = want.iter().map(|(p, l)| (p.to_string(), *l)).collect();
        assert_eq!(lines_of(receipt, guard), want, "{mode}: {receipt}");
        let blocked = blocks && !want.is_empty();
        assert_eq!(code, Some(if blocked { 3 } else { 0 }), "{mode}: {receipt}");
    }
}

const KT: &str = "package a\n\nclass Types {\n  fun name(): String = \"t\"\n}\n";
const KT_PATH: &str = "src/main/kotlin/a/Types.kt";

/// `TODO("..")` is Kotlin's own not-implemented body: it throws when called.
#[test]
fn a_kotlin_todo_call_in_product_code_is_unfinished_work() {
    let new = "package a\n\nclass Types {\n  fun name(): String = \"t\"\n\n  fun declaration(): String =\n    TODO(\"not yet supported for type variables\")\n\n  fun owner(): String { TODO() }\n}\n";
    both_ways(
        &[(KT_PATH, KT)],
        &writing(&[(KT_PATH, new)]),
        &expect("new_todos", false, vec![(KT_PATH, 7), (KT_PATH, 9)]),
    );
}

/// Lookalikes: the word in a string and in a multi-line string, a function of that name
/// declared or called as a member, Java's `UnsupportedOperationException("TODO")` (a
/// message), and `TODO()` as the body of a test that is only compiled.
#[test]
fn kotlin_todo_lookalikes_are_not_unfinished_work() {
    let new = "package a\n\nclass Types {\n  fun name(): String = \"TODO\"\n  val expected = \"\"\"\n    fun f() = TODO()\n  \"\"\"\n  fun TODO(reason: String) = reason\n  fun plan(p: Plan) = p.TODO()\n}\n";
    let java = "package a;\n\nclass Old {\n  void f() {\n    throw new UnsupportedOperationException(\"TODO\");\n  }\n}\n";
    let test = "package a\n\nclass TypesTest {\n  fun compiles(): Int = TODO()\n}\n";
    both_ways(
        &[(KT_PATH, KT)],
        &writing(&[
            (KT_PATH, new),
            ("src/main/java/a/Old.java", java),
            ("src/test/kotlin/a/TypesTest.kt", test),
        ]),
        &expect("new_todos", false, vec![]),
    );
}

const RS: &str = "/// A step generator.\n///\n/// ```\n/// use a::Step;\n/// let s = Step::new(1);\n/// ```\npub struct Step(u64);\n";
const RS_PATH: &str = "src/step.rs";

/// A hidden doc-test line is compiled: allowing a lint there silences it for the test.
#[test]
fn an_allow_on_a_hidden_doc_test_line_is_a_suppression() {
    let new = RS.replace(
        "/// use a::Step;\n",
        "/// # #![allow(deprecated)]\n/// use a::Step;\n",
    );
    both_ways(
        &[(RS_PATH, RS)],
        &writing(&[(RS_PATH, &new)]),
        &expect("disabled_lint", true, vec![(RS_PATH, 4)]),
    );
}

/// Lookalikes: a visible example line showing the attribute to the reader, an ordinary
/// comment, and a markdown heading in the docs.
#[test]
fn doc_comment_lines_that_are_not_hidden_code_are_not_suppressions() {
    let new = RS.replace(
        "/// use a::Step;\n",
        "/// #[allow(deprecated)] is what callers write\n// # #[allow(unused)]\n/// ## Examples\n/// use a::Step;\n",
    );
    both_ways(
        &[(RS_PATH, RS)],
        &writing(&[(RS_PATH, &new)]),
        &expect("disabled_lint", true, vec![]),
    );
}

const ADAPTERS: &str = "package a\n\nclass AdaptersTest {\n  @Ignore @Test fun duplicated() {\n    val adapter = moshi.adapter(Value::class.java)\n    fail()\n  }\n\n  class Value(var a: Int = -1)\n\n  @Test fun other() {\n    check(1)\n  }\n}\n";
const ADAPTERS_PATH: &str = "src/test/kotlin/a/AdaptersTest.kt";

/// A Kotlin class without a body (`class Parameter(var a: Int)`) ends at its line: the
/// ignored test written after it is a test of the suite, not the body of a class some test
/// runs as its input.
#[test]
fn an_ignored_test_after_a_kotlin_class_without_a_body_is_a_new_skip() {
    let new = "package a\n\nclass AdaptersTest {\n  @Ignore @Test fun duplicated() {\n    val adapter = moshi.adapter(Parameter::class.java)\n    fail()\n  }\n\n  class Parameter(var a: Int = -1)\n\n  @Ignore @Test fun duplicatedProperty() {\n    val adapter = moshi.adapter(Property::class.java)\n    fail()\n  }\n\n  class Property {\n    var a: Int = -1\n  }\n\n  @Test fun other() {\n    check(1)\n  }\n}\n";
    both_ways(
        &[(ADAPTERS_PATH, ADAPTERS)],
        &writing(&[(ADAPTERS_PATH, new)]),
        &expect("new_skips", true, vec![(ADAPTERS_PATH, 11)]),
    );
}

/// The other side of the same reading: a fixture class written after a bodyless class was
/// taken for that (unchanged) class, so the `@Ignore` in it, test data a test runs
/// (`runClasses(Fixture::class.java)`), was reported.
#[test]
fn an_ignore_in_a_kotlin_fixture_after_a_class_without_a_body_is_test_data() {
    let new = "package a\n\nclass AdaptersTest {\n  @Ignore @Test fun duplicated() {\n    val adapter = moshi.adapter(Value::class.java)\n    fail()\n  }\n\n  class Value(var a: Int = -1)\n\n  class Fixture {\n    @Ignore @Test fun a() {}\n  }\n\n  @Test fun runs() {\n    JUnitCore.runClasses(Fixture::class.java)\n  }\n\n  @Test fun other() {\n    check(1)\n  }\n}\n";
    both_ways(
        &[(ADAPTERS_PATH, ADAPTERS)],
        &writing(&[(ADAPTERS_PATH, new)]),
        &expect("new_skips", true, vec![]),
    );
}

/// Lookalike: an `@Ignore` in a fixture class with a body after a test (no bodyless class
/// before it) is test data, and an ignored test after a bodyless class that is a fixture
/// itself is not taken for part of it.
#[test]
fn an_ignore_in_a_kotlin_fixture_class_with_a_body_is_still_test_data() {
    let new = "package a\n\nclass AdaptersTest {\n  @Ignore @Test fun duplicated() {\n    val adapter = moshi.adapter(Value::class.java)\n    fail()\n  }\n\n  class Fixture {\n    @Ignore @Test fun a() {}\n  }\n\n  class Value(var a: Int = -1)\n\n  @Test fun runs() {\n    JUnitCore.runClasses(Fixture::class.java)\n  }\n\n  @Test fun other() {\n    check(1)\n  }\n}\n";
    both_ways(
        &[(ADAPTERS_PATH, ADAPTERS)],
        &writing(&[(ADAPTERS_PATH, new)]),
        &expect("new_skips", true, vec![]),
    );
}

const TYPES: &str = "package a\n\nclass TypeVariableImpl {\n  override fun getName(): String = \"T\"\n\n  override fun getGenericDeclaration(): Any = TODO(\n    \"not yet supported\",\n  )\n}\n";
const TYPES_PATH: &str = "src/main/kotlin/a/TypeVariableImpl.kt";

/// A `TODO(` call a formatter re-wrapped onto a line of its own is the call that was there.
#[test]
fn a_kotlin_todo_call_rewrapped_by_a_formatter_is_not_new() {
    let new = "package a\n\nclass TypeVariableImpl {\n  override fun getName(): String = \"T\"\n\n  override fun getGenericDeclaration(): Any =\n    TODO(\n      \"not yet supported\"\n    )\n}\n";
    both_ways(
        &[(TYPES_PATH, TYPES)],
        &writing(&[(TYPES_PATH, new)]),
        &expect("new_todos", false, vec![]),
    );
}

/// Lookalike: another `TODO()` written beside the one that stays is new.
#[test]
fn a_second_kotlin_todo_call_beside_the_first_is_new() {
    let new = "package a\n\nclass TypeVariableImpl {\n  override fun getName(): String = TODO()\n\n  override fun getGenericDeclaration(): Any = TODO(\n    \"not yet supported\",\n  )\n}\n";
    both_ways(
        &[(TYPES_PATH, TYPES)],
        &writing(&[(TYPES_PATH, new)]),
        &expect("new_todos", false, vec![(TYPES_PATH, 4)]),
    );
}
