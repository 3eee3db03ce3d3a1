//! `deleted_tests` and a test declared on the line of its annotation (`@Test void x() {`):
//! that line names the test and the lines under it are its body, so a test moved to another
//! file under a new name is known by its body there; one deleted outright is still deleted.
//! Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const OLD: &str = "src/test/java/a/TreeTest.java";
const NEW: &str = "src/test/java/a/BindingsTest.java";

const BEFORE: &str = r#"package a;

class TreeTest {
    @Test void parsesRoot() {
        assertEquals("r", Tree.parse("<r/>").name());
    }

    @Test void tracksLinearState() {
        Bindings b = new Bindings();
        b.push("p", "urn:a");
        b.push("q", "urn:b");
        assertEquals(2, b.size());
        assertEquals("urn:b", b.lookup("q"));
    }
}
"#;

const AFTER: &str = r#"package a;

class TreeTest {
    @Test void parsesRoot() {
        assertEquals("r", Tree.parse("<r/>").name());
    }
}
"#;

const MOVED: &str = r#"package a;

class BindingsTest {
    @Test void growsLinearly() {
        int depth = 2;
        Bindings b = new Bindings();
        b.push("p", "urn:a");
        b.push("q", "urn:b");
        assertEquals(depth, b.size());
        assertEquals("urn:b", b.lookup("q"));
    }
}
"#;

#[test]
fn a_one_line_annotated_test_renamed_as_it_moved_is_known_by_its_body() {
    both_ways(
        &[(OLD, BEFORE)],
        &writing(&[(OLD, AFTER), (NEW, MOVED)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_one_line_annotated_test_replaced_by_another_elsewhere_is_deleted() {
    let other = MOVED
        .replace("b.push(\"q\", \"urn:b\");\n", "")
        .replace(
            "assertEquals(depth, b.size());\n        assertEquals(\"urn:b\", b.lookup(\"q\"));",
            "assertTrue(b.isEmpty());",
        )
        .replace(
            "Bindings b = new Bindings();\n        b.push(\"p\", \"urn:a\");",
            "Bindings b = new Bindings();",
        );
    both_ways(
        &[(OLD, BEFORE)],
        &writing(&[(OLD, AFTER), (NEW, &other)]),
        &assert_one_deleted(OLD, "dropped from 2 to 1"),
    );
}
