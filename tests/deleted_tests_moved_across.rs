//! `deleted_tests` and a test file moved to another part of the tree (a module split out)
//! and rewritten there, so that git sees a deletion and an addition: the same file name,
//! in a directory of the same name, stands for the file it replaces, for as many tests as
//! it holds. A file of the same name in a directory of another name is about something
//! else, and the deleted file's tests are still reported. Each case is judged uncommitted
//! (against HEAD) and committed (`--against HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, Repo};

const OLD: &str = "core/src/test/java/org/example/api/ThenTest.java";

/// The core module's tests of the `then` entry point, one per type.
const OLD_TESTS: &str = "package org.example.api;

import org.junit.jupiter.api.Test;

class ThenTest {

  @Test
  void then_int() {
    then(1).isEqualTo(1);
  }

  @Test
  void then_string() {
    then(\"yoda\").startsWith(\"yo\");
  }

  @Test
  void then_list() {
    then(java.util.List.of(1, 2)).hasSize(2);
  }
}
";

/// The same class in the integration module, written anew with given/when/then.
const NEW_TESTS: &str = "package org.example.tests.api;

import static org.example.BDD.then;

import org.junit.jupiter.api.Test;

class ThenTest {

  @Test
  void should_accept_Integer() {
    // GIVEN
    Integer actual = 42;
    // WHEN
    IntegerAssert result = then(actual);
    // THEN
    result.isPositive();
  }

  @Test
  void should_accept_String() {
    // GIVEN
    String actual = \"Luke\";
    // WHEN
    StringAssert result = then(actual);
    // THEN
    result.endsWith(\"ke\");
  }

  @Test
  void should_accept_List() {
    // GIVEN
    ArrayList<String> actual = new ArrayList<>();
    // WHEN
    ListAssert<String> result = then(actual);
    // THEN
    result.isEmpty();
  }
}
";

fn moved_to(new_path: &'static str) -> impl Fn(&Repo) {
    move |r: &Repo| {
        r.remove(OLD);
        r.write(new_path, NEW_TESTS);
    }
}

#[test]
fn a_test_file_moved_into_another_module_and_rewritten_there_is_not_deleted() {
    both_ways(
        &[(OLD, OLD_TESTS)],
        &moved_to("integration/tests/src/test/java/org/example/tests/api/ThenTest.java"),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_file_of_the_same_name_in_a_directory_of_another_name_replaces_nothing() {
    both_ways(
        &[(OLD, OLD_TESTS)],
        &moved_to("integration/tests/src/test/java/org/example/tests/spi/ThenTest.java"),
        &assert_one_deleted(OLD, "was deleted with 3 tests"),
    );
}

#[test]
fn a_moved_file_that_holds_fewer_tests_stands_only_for_as_many() {
    let two = NEW_TESTS.replacen(
        "\n  @Test\n  void should_accept_List() {\n    // GIVEN\n    ArrayList<String> actual = new ArrayList<>();\n    // WHEN\n    ListAssert<String> result = then(actual);\n    // THEN\n    result.isEmpty();\n  }\n",
        "",
        1,
    );
    assert_ne!(two, NEW_TESTS);
    let new_path = "integration/tests/src/test/java/org/example/tests/api/ThenTest.java";
    both_ways(
        &[(OLD, OLD_TESTS)],
        &|r: &Repo| {
            r.remove(OLD);
            r.write(new_path, &two);
        },
        &assert_one_deleted(OLD, "was deleted with 3 tests (2 written anew in"),
    );
}
