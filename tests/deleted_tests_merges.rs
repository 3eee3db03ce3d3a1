//! `deleted_tests` and tests merged into others: a test whose statements now live in a
//! test that was there before and grew with the change (combined with its neighbour, its
//! cases folded into a sibling file's table) is not deleted, nor is a removed test whose
//! very copy stays in a file the change only respaced. Each lookalike that really loses a
//! test still is one: a body that went nowhere, a neighbour that gained only boilerplate,
//! a near-duplicate whose own lines went nowhere, a copy in a file whose code changed.
//! Each case is judged uncommitted (against HEAD) and committed (`--against HEAD^`). Real
//! repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const RS: &str = "tests/keys.rs";

const INTEGER_KEY: &str = r##"#[test]
fn integer_key() {
    let j = r#"{"x":null}"#;
    check_err::<BTreeMap<i32, ()>>(&[(
        j,
        "expected a number at column 2",
    )]);
}
"##;

const WHITESPACE_KEY: &str = r##"
#[test]
fn integer_key_whitespace() {
    let j = r#"{" 123":null}"#;
    check_err::<BTreeMap<i32, ()>>(&[(
        j,
        "unexpected whitespace at column 3",
    )]);
}
"##;

fn two_tests() -> String {
    format!("use std::collections::BTreeMap;\n\n{INTEGER_KEY}{WHITESPACE_KEY}")
}

/// `integer_key_whitespace` combined into `integer_key`: its header and the brace between
/// them removed, its case kept under the neighbour with the message the code now gives.
const COMBINED: &str = r##"use std::collections::BTreeMap;

#[test]
fn integer_key() {
    let j = r#"{"x":null}"#;
    check_err::<BTreeMap<i32, ()>>(&[(
        j,
        "expected a number at column 2",
    )]);

    let j = r#"{" 123":null}"#;
    check_err::<BTreeMap<i32, ()>>(&[(
        j,
        "expected a number at column 2",
    )]);
}
"##;

#[test]
fn a_test_combined_with_its_neighbour_is_not_deleted() {
    let before = two_tests();
    both_ways(
        &[(RS, &before)],
        &writing(&[(RS, COMBINED)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_one_statement_test_folded_into_its_neighbour_is_not_deleted() {
    let before = "#[test]\nfn partialeq_number() {\n    number_eq!(0 1 100 i64::MIN i64::MAX);\n}\n\n#[test]\n#[cfg(feature = \"big\")]\nfn partialeq_integer128() {\n    number_eq!(i128::MIN i128::MAX u128::MAX)\n}\n";
    let after = "#[test]\nfn partialeq_number() {\n    number_eq!(0 1 100 i64::MIN i64::MAX);\n\n    #[cfg(feature = \"big\")]\n    number_eq!(i128::MIN i128::MAX u128::MAX);\n}\n";
    both_ways(
        &[(RS, before)],
        &writing(&[(RS, after)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_whose_body_went_nowhere_is_deleted_while_its_neighbour_grows() {
    let before = two_tests();
    // The neighbour grew, but by another check: the whitespace case is gone.
    let grown = INTEGER_KEY.replace(
        "    )]);\n}\n",
        "    )]);\n    assert!(parse_ok(\"{}\"));\n}\n",
    );
    let after = format!("use std::collections::BTreeMap;\n\n{grown}");
    both_ways(
        &[(RS, &before)],
        &writing(&[(RS, &after)]),
        &assert_one_deleted(RS, "tests in `tests/keys.rs` dropped from 2 to 1:"),
    );
}

#[test]
fn a_test_deleted_while_its_neighbour_gains_only_shared_boilerplate_is_deleted() {
    let before = "#[test]\nfn parses_one() {\n    assert!(parse(\"1\").is_ok());\n}\n\n#[test]\nfn rejects_space() {\n    setup();\n    assert!(parse(\" 1\").is_err());\n}\n\n#[test]\nfn parses_two() {\n    setup();\n    assert!(parse(\"2\").is_ok());\n}\n";
    let after = "#[test]\nfn parses_one() {\n    setup();\n    assert!(parse(\"1\").is_ok());\n}\n\n#[test]\nfn parses_two() {\n    setup();\n    assert!(parse(\"2\").is_ok());\n}\n";
    both_ways(
        &[(RS, before)],
        &writing(&[(RS, after)]),
        &assert_one_deleted(RS, "tests in `tests/keys.rs` dropped from 3 to 2:"),
    );
    // A one-statement test whose statement other tests of its file share says nothing of
    // its own: the neighbour that gains that line does not carry it.
    let before = "#[test]\nfn parses_one() {\n    assert!(parse(\"1\").is_ok());\n}\n\n#[test]\nfn smoke() {\n    setup();\n}\n\n#[test]\nfn parses_two() {\n    setup();\n    assert!(parse(\"2\").is_ok());\n}\n";
    both_ways(
        &[(RS, before)],
        &writing(&[(RS, after)]),
        &assert_one_deleted(RS, "tests in `tests/keys.rs` dropped from 3 to 2:"),
    );
}

#[test]
fn a_near_duplicate_deleted_while_its_neighbour_gains_something_else_is_deleted() {
    // Alike but for its input: its own line went nowhere.
    let dup = WHITESPACE_KEY.replace(r#"{" 123":null}"#, r#"{"y":null}"#);
    let before = format!("use std::collections::BTreeMap;\n\n{INTEGER_KEY}{dup}");
    let grown = INTEGER_KEY.replace(
        "    )]);\n}\n",
        "    )]);\n    assert!(parse_ok(\"{}\"));\n}\n",
    );
    let after = format!("use std::collections::BTreeMap;\n\n{grown}");
    both_ways(
        &[(RS, &before)],
        &writing(&[(RS, &after)]),
        &assert_one_deleted(RS, "tests in `tests/keys.rs` dropped from 2 to 1:"),
    );
}

#[test]
fn a_test_whose_checks_the_neighbour_took_only_in_part_is_deleted() {
    // The neighbour took the removed test's two last checks but dropped the exit code and
    // stderr checks both had: most of the removed test is checked nowhere now.
    let before = "#[test]\nfn runs_a() {\n    let r = run(\"a\");\n    assert_eq!(r.code, 0);\n    assert_eq!(r.err, \"\");\n}\n\n#[test]\nfn runs_b() {\n    let r = run(\"b\");\n    assert_eq!(r.code, 0);\n    assert_eq!(r.err, \"\");\n    assert_eq!(r.out, \"b\");\n    assert_eq!(r.lines, 1);\n}\n";
    let after = "#[test]\nfn runs_a() {\n    let r = run(\"a\");\n    assert_eq!(r.out, \"b\");\n    assert_eq!(r.lines, 1);\n}\n";
    both_ways(
        &[(RS, before)],
        &writing(&[(RS, after)]),
        &assert_one_deleted(RS, "tests in `tests/keys.rs` dropped from 2 to 1:"),
    );
}

#[test]
fn a_finding_says_which_test_a_merged_one_went_into() {
    let gone = "\n#[test]\nfn rejects_nan() {\n    assert!(parse(\"NaN\").is_err());\n}\n";
    let before = format!("{}{gone}", two_tests());
    both_ways(
        &[(RS, &before)],
        &writing(&[(RS, COMBINED)]),
        &assert_one_deleted(
            RS,
            "tests in `tests/keys.rs` dropped from 3 to 1 (1 merged into `fn integer_key()` in `tests/keys.rs`):",
        ),
    );
}

/// Nested fixture classes whose methods share a name: the one whose body stayed is the one
/// kept, so the empty one removed is no merge into the other.
#[test]
fn a_fixture_method_removed_beside_a_same_named_one_is_still_deleted() {
    let path = "src/test/java/WatcherTest.java";
    let a = "    public static class Quiet {\n        @Test\n        public void succeeds() {\n        }\n    }\n\n";
    let b = "    public static class Logged {\n        @Test\n        public void succeeds() {\n            log.append(\"test \");\n        }\n    }\n";
    let before = format!("public class WatcherTest {{\n{a}{b}}}\n");
    let after = format!("public class WatcherTest {{\n{b}}}\n");
    both_ways(
        &[(path, &before)],
        &writing(&[(path, &after)]),
        &assert_one_deleted(path, "dropped from 2 to 1:"),
    );
}

const GO_TABLE: &str = "package assert

import \"testing\"

func TestCompare(t *testing.T) {
\tfor _, c := range []struct {
\t\tless    interface{}
\t\tgreater interface{}
\t}{
\t\t{less: 1, greater: 2},
\t\t{less: \"a\", greater: \"b\"},
\t} {
\t\tif !Less(c.less, c.greater) {
\t\t\tt.Errorf(\"%v should be less than %v\", c.less, c.greater)
\t\t}
\t}
}
";

const GO_TAGGED: &str = "//go:build go1.17

package assert

import (
\t\"testing\"
\t\"time\"
)

func TestCompare17(t *testing.T) {
\tfor _, c := range []struct {
\t\tless    interface{}
\t\tgreater interface{}
\t}{
\t\t{less: []byte{1, 1}, greater: []byte{1, 2}},
\t\t{less: time.Time{}, greater: time.Time{}.Add(time.Hour)},
\t} {
\t\tif !Less(c.less, c.greater) {
\t\t\tt.Errorf(\"%v should be less than %v\", c.less, c.greater)
\t\t}
\t}
}
";

fn go_table_with(rows: &str) -> String {
    GO_TABLE.replace(
        "\t\t{less: \"a\", greater: \"b\"},\n",
        &format!("\t\t{{less: \"a\", greater: \"b\"}},\n{rows}"),
    )
}

#[test]
fn a_tagged_test_file_folded_into_a_siblings_table_is_not_deleted() {
    let rows = "\t\t{less: []byte{1, 1}, greater: []byte{1, 2}},\n\t\t{less: time.Time{}, greater: time.Time{}.Add(time.Hour)},\n";
    let after = go_table_with(rows).replace(
        "import \"testing\"",
        "import (\n\t\"testing\"\n\t\"time\"\n)",
    );
    both_ways(
        &[
            ("assert/compare_test.go", GO_TABLE),
            ("assert/compare_go117_test.go", GO_TAGGED),
        ],
        &|r| {
            r.remove("assert/compare_go117_test.go");
            r.write("assert/compare_test.go", &after);
        },
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_tagged_test_file_deleted_while_the_sibling_table_gains_other_rows_is_deleted() {
    let after = go_table_with("\t\t{less: 1.5, greater: 2.5},\n");
    both_ways(
        &[
            ("assert/compare_test.go", GO_TABLE),
            ("assert/compare_go117_test.go", GO_TAGGED),
        ],
        &|r| {
            r.remove("assert/compare_go117_test.go");
            r.write("assert/compare_test.go", &after);
        },
        &assert_one_deleted(
            "assert/compare_go117_test.go",
            "test file `assert/compare_go117_test.go` was deleted with 1 test:",
        ),
    );
}

const JAVA_DIR: &str = "src/test/java/parser";

fn generated(class: &str, seed: &str) -> String {
    format!(
        "package parser;

import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

abstract class {class} {{
    static final long SEED = {seed};

    @TestFactory
    Stream<DynamicNode> randomLiterals() {{
        Random r = new Random(SEED);
        return r.longs(1000).mapToObj(d -> dynamicTest(d + \"\", () -> check(d)));
    }}

    protected abstract double parse(String str);
}}
"
    )
}

fn subclass(base: &str) -> String {
    format!("package parser;\n\npublic class FastParserGeneratedTest extends {base} {{\n    @Override\n    protected double parse(String str) {{\n        return FastParser.parse(str);\n    }}\n}}\n")
}

/// The abstract base deleted; its subclass now extends a sibling base that already held
/// the very same factory, and that the change only touched at its end (a final newline).
fn base_swapped(sibling_after: &str) -> impl Fn(&gitrepo::Repo) + '_ {
    move |r| {
        r.remove(&format!("{JAVA_DIR}/AbstractGeneratedTest.java"));
        r.write(
            &format!("{JAVA_DIR}/AbstractDoubleGeneratedTest.java"),
            sibling_after,
        );
        r.write(
            &format!("{JAVA_DIR}/FastParserGeneratedTest.java"),
            &subclass("AbstractDoubleGeneratedTest"),
        );
    }
}

#[test]
fn a_deleted_base_whose_test_a_respaced_sibling_still_holds_is_not_deleted() {
    let sibling = generated("AbstractDoubleGeneratedTest", "0");
    let respaced = sibling.trim_end().to_string();
    both_ways(
        &[
            (
                &format!("{JAVA_DIR}/AbstractGeneratedTest.java"),
                &generated("AbstractGeneratedTest", "0"),
            ),
            (
                &format!("{JAVA_DIR}/AbstractDoubleGeneratedTest.java"),
                &sibling,
            ),
            (
                &format!("{JAVA_DIR}/FastParserGeneratedTest.java"),
                &subclass("AbstractGeneratedTest"),
            ),
        ],
        &base_swapped(&respaced),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_deleted_base_beside_a_sibling_whose_code_changed_is_deleted() {
    // The sibling's factory reads the same, but what it runs on changed with the change.
    let sibling = generated("AbstractDoubleGeneratedTest", "0");
    let changed = generated("AbstractDoubleGeneratedTest", "System.nanoTime()");
    let path = format!("{JAVA_DIR}/AbstractGeneratedTest.java");
    both_ways(
        &[
            (&path, &generated("AbstractGeneratedTest", "0")),
            (
                &format!("{JAVA_DIR}/AbstractDoubleGeneratedTest.java"),
                &sibling,
            ),
            (
                &format!("{JAVA_DIR}/FastParserGeneratedTest.java"),
                &subclass("AbstractGeneratedTest"),
            ),
        ],
        &base_swapped(&changed),
        &assert_one_deleted(&path, "was deleted with 1 test:"),
    );
}

const PY: &str = "tests/test_fields.py";

/// Three enum tests; the change renames the first two and folds the third into the
/// second's new name.
const ENUM_TESTS: &str = r#"from tests.base import GenderEnum, HairColorEnum


def test_enum_field(user):
    user.sex = GenderEnum.male
    field = fields.EnumSymbol(GenderEnum)
    assert field.serialize("sex", user) == "male"


def test_stringenum_field(user):
    user.hair_color = HairColorEnum.black
    field = fields.EnumValue(fields.String, HairColorEnum)
    assert field.serialize("hair_color", user) == "black hair"


def test_integerenum_field(user):
    user.sex = GenderEnum.male
    field = fields.EnumValue(fields.Integer, GenderEnum)
    assert field.serialize("sex", user) == 1
"#;

const ENUMS_RENAMED_AND_MERGED: &str = r#"from tests.base import GenderEnum, HairColorEnum, DateEnum


def test_enumsymbol_field(user):
    user.sex = GenderEnum.male
    field = fields.EnumSymbol(GenderEnum)
    assert field.serialize("sex", user) == "male"


def test_enumvalue_field(user):
    user.hair_color = HairColorEnum.black
    field = fields.EnumValue(fields.String, HairColorEnum)
    assert field.serialize("hair_color", user) == "black hair"
    user.sex = GenderEnum.male
    field = fields.EnumValue(fields.Integer, GenderEnum)
    assert field.serialize("sex", user) == 1
    user.some_date = DateEnum.date_1
    field = fields.EnumValue(fields.Date, DateEnum)
    assert field.serialize("some_date", user) == "2004-02-29"
"#;

#[test]
fn a_test_merged_into_a_neighbour_the_change_renamed_is_not_deleted() {
    both_ways(
        &[(PY, ENUM_TESTS)],
        &writing(&[(PY, ENUMS_RENAMED_AND_MERGED)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_deleted_beside_a_renamed_neighbour_that_gained_something_else_is_deleted() {
    // `test_stringenum_field` renamed, gaining a Date case; the integer case went nowhere.
    let after = ENUMS_RENAMED_AND_MERGED.replace(
        "    user.sex = GenderEnum.male\n    field = fields.EnumValue(fields.Integer, GenderEnum)\n    assert field.serialize(\"sex\", user) == 1\n",
        "",
    );
    both_ways(
        &[(PY, ENUM_TESTS)],
        &writing(&[(PY, &after)]),
        &assert_one_deleted(PY, "tests in `tests/test_fields.py` dropped from 3 to 2:"),
    );
    // Nor does a new test beside it that carries over no removed test's body.
    let unrelated = format!(
        "{}\n\ndef test_date_field(user):\n    user.some_date = DateEnum.date_1\n    assert fields.Date().serialize(\"some_date\", user)\n",
        &ENUM_TESTS[..ENUM_TESTS.find("\n\ndef test_stringenum_field").unwrap()]
    );
    both_ways(
        &[(PY, ENUM_TESTS)],
        &writing(&[(PY, &unrelated)]),
        &assert_one_deleted(PY, "tests in `tests/test_fields.py` dropped from 3 to 2:"),
    );
}

/// A value terminator checked alone, and with a flag that ends the values.
const TERMINATOR: &str = r#"#[test]
fn value_terminator_option() {
    let m = Command::new("lip")
        .arg(Arg::new("files").short('f').value_terminator(";").num_args(1..))
        .arg(Arg::new("other"))
        .try_get_matches_from(vec!["lip", "-f", "val1", "val2", ";", "otherval"]);
    assert!(m.is_ok());
    let m = m.unwrap();
    assert!(m.contains_id("other"));
    assert!(m.contains_id("files"));
    assert_eq!(m.get_one::<String>("other").map(|v| v.as_str()), Some("otherval"));
}

#[test]
fn value_terminator_option_other_arg() {
    let m = Command::new("lip")
        .arg(Arg::new("files").short('f').value_terminator(";").num_args(1..))
        .arg(Arg::new("other"))
        .arg(Arg::new("flag").short('F').action(ArgAction::SetTrue))
        .try_get_matches_from(vec!["lip", "-f", "val1", "val2", "-F", "otherval"]);
    assert!(m.is_ok());
    let m = m.unwrap();
    assert!(m.contains_id("other"));
    assert!(m.contains_id("files"));
    assert_eq!(m.get_one::<String>("other").map(|v| v.as_str()), Some("otherval"));
    assert!(*m.get_one::<bool>("flag").expect("defaulted"));
}
"#;

/// The second folded into the first, its flag now `-X` named `stop`.
const TERMINATOR_FOLDED: &str = r#"#[test]
fn value_terminator_option() {
    let mut cmd = Command::new("lip")
        .arg(Arg::new("files").short('f').value_terminator(";").num_args(1..))
        .arg(Arg::new("other"))
        .arg(Arg::new("stop").short('X').action(ArgAction::SetTrue));

    let m = cmd.try_get_matches_from_mut(vec!["lip", "-f", "val1", "val2", ";", "otherval"]);
    assert!(m.is_ok());
    let m = m.unwrap();
    assert!(m.contains_id("other"));
    assert!(m.contains_id("files"));
    assert!(!m.get_flag("stop"));
    assert_eq!(m.get_one::<String>("other").map(|v| v.as_str()), Some("otherval"));

    // Terminated by flag
    let m = cmd.try_get_matches_from_mut(vec!["lip", "-f", "val1", "val2", "-X", "otherval"]);
    assert!(m.is_ok());
    let m = m.unwrap();
    assert!(m.contains_id("other"));
    assert!(m.contains_id("files"));
    assert!(m.get_flag("stop"));
    assert_eq!(m.get_one::<String>("other").map(|v| v.as_str()), Some("otherval"));
}
"#;

#[test]
fn a_case_folded_into_its_neighbour_with_other_values_is_not_deleted() {
    both_ways(
        &[(RS, TERMINATOR)],
        &writing(&[(RS, TERMINATOR_FOLDED)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_near_duplicate_deleted_while_its_neighbour_gains_other_shapes_is_deleted() {
    // The flag case dropped; the neighbour gains a check of another kind.
    let after = TERMINATOR[..TERMINATOR.find("\n#[test]\nfn value_terminator_option_other_arg").unwrap()]
        .replace(
            "    assert!(m.contains_id(\"files\"));\n",
            "    assert!(m.contains_id(\"files\"));\n    assert_eq!(m.get_many::<String>(\"files\").unwrap().count(), 2);\n",
        );
    both_ways(
        &[(RS, TERMINATOR)],
        &writing(&[(RS, &after)]),
        &assert_one_deleted(RS, "tests in `tests/keys.rs` dropped from 2 to 1:"),
    );
}
