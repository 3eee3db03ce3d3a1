//! JUnit 5 composed annotations: an annotation type the change declares with `@Test`,
//! `@ParameterizedTest` (or JUnit's other test annotations) on it makes every method
//! annotated with it a test. Folding `@Test @MultiLocaleTest` into `@MultiLocaleTest` once
//! the latter carries `@ParameterizedTest` removes no test; removing a method it declares
//! is a deleted test; an annotation type built on no test annotation, even one named
//! `...Test`, or TestNG's `@BeforeTest`, declares none. Each change is judged uncommitted
//! (against HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_one_deleted, both_ways, lines_of, writing, Repo};
use serde_json::Value;

const RULE: &str = "src/test/java/org/site/MultiLocaleRule.java";
const RULE_TEXT: &str = "package org.site;\n\nimport java.lang.annotation.*;\n\npublic class MultiLocaleRule {\n    @Retention(RetentionPolicy.RUNTIME)\n    @Target(ElementType.METHOD)\n    public @interface MultiLocaleTest {\n    }\n}\n";
const EXTENSION: &str = "src/test/java/org/site/MultiLocaleExtension.java";
const EXTENSION_TEXT: &str = "package org.site;\n\nimport java.lang.annotation.*;\nimport org.junit.jupiter.params.ParameterizedTest;\n\npublic class MultiLocaleExtension {\n    @Documented\n    @Target(ElementType.METHOD)\n    @Retention(RetentionPolicy.RUNTIME)\n    @ArgumentsSource(MultiLocaleExtension.class)\n    @ParameterizedTest\n    public @interface MultiLocaleTest {\n    }\n}\n";
const TAGS: &str = "src/test/java/org/site/parser/TagTest.java";

fn tag_test(import: &str, methods: &str) -> String {
    format!("package org.site.parser;\n\nimport {import}.MultiLocaleTest;\nimport org.junit.jupiter.api.Test;\n\npublic class TagTest {{\n{methods}}}\n")
}

const BOTH: &str = "    @Test @MultiLocaleTest\n    public void canonicalizes(Locale locale) {\n        assertEquals(\"p\", Tag.valueOf(\"P\").getName());\n    }\n\n    @Test\n    @MultiLocaleTest\n    public void normalizes(Locale locale) {\n        assertEquals(\"p\", Tag.normalize(\"P\"));\n    }\n\n    @Test\n    public void equality() {\n        assertEquals(Tag.valueOf(\"p\"), Tag.valueOf(\"p\"));\n    }\n\n";

fn nothing(code: Option<i32>, receipt: &Value, mode: &str) {
    assert_eq!(
        lines_of(receipt, "deleted_tests"),
        vec![],
        "{mode}: {receipt}"
    );
    assert_eq!(code, Some(0), "{mode}: {receipt}");
}

#[test]
fn a_test_annotation_folded_into_a_composed_annotation_the_change_declares_removes_no_test() {
    let before = tag_test("org.site.MultiLocaleRule", BOTH);
    let folded = BOTH.replace("    @Test @MultiLocaleTest\n", "    @MultiLocaleTest\n");
    let folded = folded.replace(
        "    @Test\n    @MultiLocaleTest\n",
        "    @MultiLocaleTest\n",
    );
    let after = tag_test("org.site.MultiLocaleExtension", &folded);
    both_ways(
        &[(RULE, RULE_TEXT), (TAGS, &before)],
        &|r: &Repo| {
            r.remove(RULE);
            r.write(EXTENSION, EXTENSION_TEXT);
            r.write(TAGS, &after);
        },
        &nothing,
    );
}

#[test]
fn folding_into_an_annotation_that_carries_no_test_annotation_deletes_the_tests() {
    // The same fold while the annotation type stays a plain marker: two tests stop running.
    let before = tag_test("org.site.MultiLocaleRule", BOTH);
    let folded = BOTH.replace("    @Test @MultiLocaleTest\n", "    @MultiLocaleTest\n");
    let folded = folded.replace(
        "    @Test\n    @MultiLocaleTest\n",
        "    @MultiLocaleTest\n",
    );
    // The change touches the annotation type, which still carries no test annotation.
    let documented = RULE_TEXT.replace("    @Retention", "    @Documented\n    @Retention");
    let after = tag_test("org.site.MultiLocaleRule", &folded);
    both_ways(
        &[(RULE, RULE_TEXT), (TAGS, &before)],
        &writing(&[(RULE, &documented), (TAGS, &after)]),
        &assert_one_deleted(TAGS, "dropped from 3 to 1"),
    );
}

const OWN: &str = "src/test/java/org/site/ValuesTest.java";

fn values_test(methods: &str) -> String {
    format!("package org.site;\n\nimport org.junit.jupiter.api.Test;\nimport org.junit.jupiter.params.ParameterizedTest;\nimport org.junit.jupiter.params.provider.ValueSource;\n\npublic class ValuesTest {{\n    @Retention(RetentionPolicy.RUNTIME)\n    @ParameterizedTest\n    @ValueSource(ints = {{\n        1, 2 }})\n    @interface TwoValues {{\n    }}\n\n{methods}}}\n")
}

const POSITIVE: &str =
    "    @TwoValues\n    void positive(int x) {\n        assertTrue(x > 0);\n    }\n\n";
const SMALL: &str =
    "    @TwoValues\n    void small(int x) {\n        assertTrue(x < 3);\n    }\n\n";
const PLAIN: &str = "    @Test\n    void plain() {\n        assertTrue(true);\n    }\n\n";

#[test]
fn removing_a_test_declared_by_a_composed_annotation_is_a_deleted_test() {
    let before = values_test(&format!("{POSITIVE}{SMALL}{PLAIN}"));
    let after = values_test(&format!("{POSITIVE}{PLAIN}"));
    both_ways(
        &[(OWN, &before)],
        &writing(&[(OWN, &after)]),
        &assert_one_deleted(OWN, "dropped from 3 to 2"),
    );
}

#[test]
fn deleting_a_file_of_composed_annotation_tests_counts_them_all() {
    let before = values_test(&format!("{POSITIVE}{SMALL}{PLAIN}"));
    both_ways(
        &[(OWN, &before)],
        &|r: &Repo| r.remove(OWN),
        &assert_one_deleted(OWN, "was deleted with 3 tests"),
    );
}

const NAMED: &str = "src/test/java/org/site/SlowTest.java";

fn slow_test(methods: &str) -> String {
    format!("package org.site;\n\nimport org.junit.jupiter.api.Test;\nimport org.testng.annotations.BeforeTest;\n\npublic class SlowTest {{\n    @Retention(RetentionPolicy.RUNTIME)\n    @Tag(\"slow\")\n    @interface SlowRunTest {{\n    }}\n\n{methods}}}\n")
}

#[test]
fn an_annotation_named_like_a_test_but_built_on_none_declares_no_test() {
    // `@SlowRunTest` carries only a tag: dropping `@Test` beside it stops the test.
    let before = slow_test(
        "    @Test @SlowRunTest\n    void crawls() {\n        assertTrue(true);\n    }\n\n    @Test\n    void walks() {}\n",
    );
    let after = slow_test(
        "    @SlowRunTest\n    void crawls() {\n        assertTrue(true);\n    }\n\n    @Test\n    void walks() {}\n",
    );
    both_ways(
        &[(NAMED, &before)],
        &writing(&[(NAMED, &after)]),
        &assert_one_deleted(NAMED, "dropped from 2 to 1"),
    );
}

#[test]
fn a_test_turned_into_a_before_test_method_is_a_deleted_test() {
    let before = slow_test(
        "    @Test\n    void warms() {\n        cache.fill();\n    }\n\n    @Test\n    void walks() {}\n",
    );
    let after = slow_test(
        "    @BeforeTest\n    void warms() {\n        cache.fill();\n    }\n\n    @Test\n    void walks() {}\n",
    );
    both_ways(
        &[(NAMED, &before)],
        &writing(&[(NAMED, &after)]),
        &assert_one_deleted(NAMED, "dropped from 2 to 1"),
    );
}

const FOLDED: &str = "    @MultiLocaleTest\n    public void canonicalizes(Locale locale) {\n        assertEquals(\"p\", Tag.valueOf(\"P\").getName());\n    }\n\n    @MultiLocaleTest\n    public void normalizes(Locale locale) {\n        assertEquals(\"p\", Tag.normalize(\"P\"));\n    }\n\n    @Test\n    public void equality() {\n        assertEquals(Tag.valueOf(\"p\"), Tag.valueOf(\"p\"));\n    }\n\n";

#[test]
fn a_composed_annotation_declared_in_an_unchanged_file_the_test_imports_is_known() {
    // The annotation type was made a test annotation earlier; this change only drops the
    // `@Test` beside it, which ran the test twice.
    let before = tag_test("org.site.MultiLocaleExtension", BOTH);
    let after = tag_test("org.site.MultiLocaleExtension", FOLDED);
    both_ways(
        &[(EXTENSION, EXTENSION_TEXT), (TAGS, &before)],
        &writing(&[(TAGS, &after)]),
        &nothing,
    );
}

#[test]
fn removing_a_test_of_a_composed_annotation_from_an_unchanged_file_is_a_deleted_test() {
    let before = tag_test("org.site.MultiLocaleExtension", FOLDED);
    let after = tag_test(
        "org.site.MultiLocaleExtension",
        &FOLDED.replace("    @MultiLocaleTest\n    public void normalizes(Locale locale) {\n        assertEquals(\"p\", Tag.normalize(\"P\"));\n    }\n\n", ""),
    );
    both_ways(
        &[(EXTENSION, EXTENSION_TEXT), (TAGS, &before)],
        &writing(&[(TAGS, &after)]),
        &assert_one_deleted(TAGS, "dropped from 3 to 2"),
    );
}

#[test]
fn an_imported_annotation_type_of_the_same_name_carrying_no_test_annotation_is_none() {
    // The imported file declares `MultiLocaleTest` as a plain marker: dropping `@Test` stops
    // both tests.
    let before = tag_test("org.site.MultiLocaleRule", BOTH);
    let after = tag_test("org.site.MultiLocaleRule", FOLDED);
    both_ways(
        &[
            (RULE, RULE_TEXT),
            (EXTENSION, EXTENSION_TEXT),
            (TAGS, &before),
        ],
        &writing(&[(TAGS, &after)]),
        &assert_one_deleted(TAGS, "dropped from 3 to 1"),
    );
}

const NAMES: &str = "src/test/java/org/site/parser/NameTest.java";

fn name_test(methods: &str) -> String {
    format!("package org.site.parser;\n\nimport org.site.MultiLocaleExtension.MultiLocaleTest;\nimport org.junit.jupiter.api.Test;\n\npublic class NameTest {{\n{methods}    @Test\n    public void other() {{\n        assertEquals(1, 1);\n    }}\n}}\n")
}

#[test]
fn a_test_of_a_composed_annotation_moved_to_another_file_is_not_deleted() {
    let moving = "    @MultiLocaleTest\n    public void normalizes(Locale locale) {\n        assertEquals(\"p\", Tag.normalize(\"P\"));\n    }\n\n";
    let before = tag_test("org.site.MultiLocaleExtension", FOLDED);
    let after = tag_test("org.site.MultiLocaleExtension", &FOLDED.replace(moving, ""));
    both_ways(
        &[
            (EXTENSION, EXTENSION_TEXT),
            (TAGS, &before),
            (NAMES, &name_test("")),
        ],
        &writing(&[(TAGS, &after), (NAMES, &name_test(moving))]),
        &nothing,
    );
}
