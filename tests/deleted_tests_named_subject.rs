//! `deleted_tests` and one-subject test files (`Assertions_assertThat_with_Boolean_Test`)
//! folded into one wider file (`Assertions_assertThat_Test`) of one test per subject
//! (`should_accept_Boolean`): each removed test is rewritten in the new test named for its
//! file's subject, which holds what tied it to that subject (`AbstractBooleanAssert`).
//! Lookalikes still lose a test: a subject no new test is named for, a test named for the
//! subject that checks nothing the removed one did. Each case is judged uncommitted
//! (against HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, Repo};

const DIR: &str = "src/test/java/org/example/api";

fn per_type(kind: &str, assert: &str, value: &str) -> (String, String) {
    let path = format!("{DIR}/Assertions_assertThat_with_{kind}_Test.java");
    let text = format!(
        "package org.example.api;\n\nimport static org.example.Assertions.assertThat;\n\nimport org.example.{assert};\nimport org.example.Assertions;\nimport org.junit.jupiter.api.Test;\n\nclass Assertions_assertThat_with_{kind}_Test {{\n\n  @Test\n  void should_create_Assert() {{\n    {assert}<?> assertions = Assertions.assertThat({value});\n    assertThat(assertions).isNotNull();\n  }}\n\n}}\n"
    );
    (path, text)
}

const WIDE: &str = "src/test/java/org/example/api/Assertions_assertThat_Test.java";

/// One `should_accept_<name>` per (name, type, assert class, value, check).
fn wide(rows: &[(&str, &str, &str, &str, &str)]) -> String {
    let mut text = String::from(
        "package org.example.api;\n\nimport static org.example.Assertions.assertThat;\n\nimport org.junit.jupiter.api.Test;\n\nclass Assertions_assertThat_Test {\n",
    );
    for (name, ty, assert, value, check) in rows {
        text.push_str(&format!(
            "\n  @Test\n  void should_accept_{name}() {{\n    // GIVEN\n    {ty} actual = {value};\n    // WHEN\n    {assert}<?> result = assertThat(actual);\n    // THEN\n    result.{check};\n  }}\n"
        ));
    }
    text.push_str("\n}\n");
    text
}

const BOOLEAN: (&str, &str, &str, &str, &str) = (
    "Boolean",
    "Boolean",
    "AbstractBooleanAssert",
    "TRUE",
    "isTrue()",
);
const BOOLEAN_ARRAY: (&str, &str, &str, &str, &str) = (
    "boolean_array",
    "boolean[]",
    "AbstractBooleanArrayAssert",
    "{ true, false }",
    "containsExactly(true, false)",
);
const INTEGER: (&str, &str, &str, &str, &str) = (
    "Integer",
    "Integer",
    "AbstractIntegerAssert",
    "0",
    "isZero()",
);
const LONG: (&str, &str, &str, &str, &str) =
    ("Long", "Long", "AbstractLongAssert", "0L", "isZero()");

fn boolean_file() -> (String, String) {
    per_type("Boolean", "AbstractBooleanAssert", "TRUE")
}

fn integer_file() -> (String, String) {
    per_type("Integer", "AbstractIntegerAssert", "0")
}

/// Delete the files `old` (committed first) and write the wide file.
fn check(
    old: &[(String, String)],
    wide_text: String,
    verify: &dyn Fn(Option<i32>, &serde_json::Value, &str),
) {
    let files: Vec<(&str, &str)> = old.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let gone: Vec<String> = old.iter().map(|(p, _)| p.clone()).collect();
    let change = move |r: &Repo| {
        for path in &gone {
            r.remove(path);
        }
        r.write(WIDE, &wide_text);
    };
    both_ways(&files, &change, verify);
}

#[test]
fn tests_of_one_subject_files_rewritten_in_the_tests_named_for_their_subjects_are_not_deleted() {
    check(
        &[boolean_file(), integer_file()],
        wide(&[BOOLEAN_ARRAY, BOOLEAN, LONG, INTEGER]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_subject_no_new_test_is_named_for_is_still_deleted() {
    let (integer, text) = integer_file();
    check(
        &[(integer.clone(), text)],
        wide(&[BOOLEAN_ARRAY, BOOLEAN, LONG]),
        &assert_one_deleted(&integer, "was deleted with 1 test"),
    );
}

#[test]
fn a_test_named_for_the_subject_that_holds_nothing_of_the_removed_one_does_not_carry_it() {
    // `should_accept_Integer` now checks a parsed string: no `AbstractIntegerAssert`, no
    // value of the old test.
    let (integer, text) = integer_file();
    let wide_text = wide(&[BOOLEAN_ARRAY, BOOLEAN, LONG]).replace(
        "\n}\n",
        "\n  @Test\n  void should_accept_Integer() {\n    int parsed = Integer.parseInt(\"42\");\n    then(parsed).isEqualTo(42);\n  }\n\n}\n",
    );
    check(
        &[(integer.clone(), text)],
        wide_text,
        &assert_one_deleted(&integer, "was deleted with 1 test"),
    );
}

const RENDER: &str = "test/integration/tags/render_tag_test.rb";
const SNIPPET: &str = "test/integration/tags/snippet_test.rb";

const RENDER_TESTS: &str = r#"require 'test_helper'

class RenderTagTest < Minitest::Test
  include Liquid

  def test_render_with_no_arguments
    assert_template_result('rendered content', '{% render "source" %}', partials: { 'source' => 'rendered content' })
  end

  def test_dynamically_chosen_templates_are_not_allowed
    error = assert_raises(::ArgumentError) do
      Template.parse('{% assign name = "snippet" %}{% render name %}').render!
    end
    assert_equal("Argument error in tag 'render' - Dynamically chosen templates are not allowed", error.message)
  end
end
"#;

const SNIPPET_TESTS: &str = r#"require 'test_helper'

class SnippetTest < Minitest::Test
  include Liquid

  def test_render_with_non_existent_tag
    template = Template.parse('{% render non_existent %}', error_mode: :rigid)
    error = assert_raises(::ArgumentError) do
      template.render!
    end
    assert_equal("Argument error in tag 'render' - snippet not found", error.message)
  end
end
"#;

#[test]
fn a_test_a_kept_file_lost_is_deleted_though_a_new_test_elsewhere_bears_its_files_name() {
    // `render_tag_test.rb` stays, about the render tag; its removed test checked a
    // behaviour the change dropped, and the new snippet test only shares the tag's name.
    let kept = RENDER_TESTS.replacen(
        "\n  def test_dynamically_chosen_templates_are_not_allowed\n    error = assert_raises(::ArgumentError) do\n      Template.parse('{% assign name = \"snippet\" %}{% render name %}').render!\n    end\n    assert_equal(\"Argument error in tag 'render' - Dynamically chosen templates are not allowed\", error.message)\n  end\n",
        "",
        1,
    );
    assert_ne!(kept, RENDER_TESTS);
    both_ways(
        &[(RENDER, RENDER_TESTS)],
        &|r: &Repo| {
            r.write(RENDER, &kept);
            r.write(SNIPPET, SNIPPET_TESTS);
        },
        &assert_one_deleted(RENDER, "dropped from 2 to 1"),
    );
}

/// A per-type file whose value is a field set up beside the test, which only names it.
fn fixture_file(field_type: &str, value: &str) -> (String, String) {
    let path = format!("{DIR}/Assertions_assertThat_with_OptionalInt_Test.java");
    let text = format!(
        "package org.example.api;\n\nimport static org.example.Assertions.assertThat;\n\nimport java.util.OptionalInt;\n\nimport org.example.Assertions;\nimport org.junit.jupiter.api.BeforeEach;\nimport org.junit.jupiter.api.Test;\n\nclass Assertions_assertThat_with_OptionalInt_Test {{\n\n  private OptionalInt unused = OptionalInt.empty();\n\n  private {field_type} actual;\n\n  @BeforeEach\n  void before() {{\n    actual = {value};\n  }}\n\n  @Test\n  void should_create_Assert() {{\n    assertThat(Assertions.assertThat(actual)).isNotNull();\n  }}\n\n}}\n"
    );
    (path, text)
}

const OPTIONAL_INT: (&str, &str, &str, &str, &str) = (
    "OptionalInt",
    "OptionalInt",
    "OptionalIntAssert",
    "OptionalInt.of(1)",
    "hasValue(1)",
);
const OPTIONAL: (&str, &str, &str, &str, &str) = (
    "Optional",
    "Optional<String>",
    "OptionalAssert",
    "Optional.of(\"Yoda\")",
    "contains(\"Yoda\")",
);
const INT: (&str, &str, &str, &str, &str) = ("int", "int", "AbstractIntegerAssert", "1", "isOne()");

#[test]
fn a_test_whose_subject_is_set_up_in_a_field_beside_it_is_tied_to_it_by_that_field() {
    // The body says only `actual`; the field it reads is an `OptionalInt`, and so is the
    // value of `should_accept_OptionalInt`.
    check(
        &[fixture_file("OptionalInt", "OptionalInt.of(10)")],
        wide(&[OPTIONAL, OPTIONAL_INT, INT, BOOLEAN]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_field_of_its_file_the_test_does_not_read_ties_it_to_nothing() {
    // The test reads an `Object` field; the `OptionalInt` field beside it is unused.
    let (path, text) = fixture_file("Object", "new Object()");
    check(
        &[(path.clone(), text)],
        wide(&[OPTIONAL, OPTIONAL_INT, INT, BOOLEAN]),
        &assert_one_deleted(&path, "was deleted with 1 test"),
    );
}
