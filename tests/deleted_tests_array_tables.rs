//! `deleted_tests` and JavaScript tables written as an array literal run by `.forEach`:
//! the test is declared in the callback, its cases are the rows above it. Tests whose
//! inputs and expectations became rows of such a table are folded, not deleted, whether
//! the file's count fell or rose; a removed test whose values no row holds is still
//! reported. Each case is judged uncommitted (against HEAD) and committed (`--against
//! HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing};

const JS: &str = "test/slug.spec.js";

const BEFORE: &str = r#""use strict";

const { slug } = require("../lib/slug");

describe("slug()", function () {
  it("keeps plain words", function () {
    expect(slug("plain")).toBe("plain");
  });

  it("replaces the separators", function () {
    expect(slug("a b_c.d")).toBe("a-b-c-d");
    expect(slug("tab\there")).toBe("tab-here");
    expect(slug("x/y\\z")).toBe("x-y-z");
  });

  it("drops accents", function () {
    expect(slug("crème brûlée")).toBe("creme-brulee");
    expect(slug("Ångström")).toBe("angstrom");
  });
});
"#;

/// The separator and accent cases as rows of two tables, beside a new test: the count
/// (each table one declaration) rises from 3 to 4, and the tests added would hide a loss.
const TABLED: &str = r#""use strict";

const { slug } = require("../lib/slug");

describe("slug()", function () {
  it("keeps plain words", function () {
    expect(slug("plain")).toBe("plain");
  });

  it("keeps digits", function () {
    expect(slug("route66")).toBe("route66");
  });

  [
    ["space", "a b_c.d", "a-b-c-d"],
    ["tab", "tab\there", "tab-here"],
    ["slashes", "x/y\\z", "x-y-z"],
    ["dashes", "a--b", "a-b"],
  ].forEach(function ([label, input, expected]) {
    it(`replaces ${label} with one dash`, function () {
      expect(slug(input)).toBe(expected);
    });
  });

  [
    ["grave and circumflex", "crème brûlée", "creme-brulee"],
    ["ring", "Ångström", "angstrom"],
    ["cedilla", "façade", "facade"],
    ["tilde", "señor", "senor"],
  ].forEach(function ([label, input, expected]) {
    it(`drops the ${label} accent`, function () {
      expect(slug(input)).toBe(expected);
    });
  });
});
"#;

#[test]
fn tests_whose_cases_became_rows_of_foreach_tables_are_not_deleted() {
    both_ways(
        &[(JS, BEFORE)],
        &writing(&[(JS, TABLED)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn tests_folded_into_one_foreach_table_as_the_count_falls_are_not_deleted() {
    // The two tests become the rows of one table: 3 -> 2.
    let one = r#""use strict";

const { slug } = require("../lib/slug");

describe("slug()", function () {
  it("keeps plain words", function () {
    expect(slug("plain")).toBe("plain");
  });

  [
    ["a b_c.d", "a-b-c-d"],
    ["tab\there", "tab-here"],
    ["x/y\\z", "x-y-z"],
    ["crème brûlée", "creme-brulee"],
    ["Ångström", "angstrom"],
  ].forEach(function ([input, expected]) {
    it(`slugs ${input}`, function () {
      expect(slug(input)).toBe(expected);
    });
  });
});
"#;
    both_ways(
        &[(JS, BEFORE)],
        &writing(&[(JS, one)]),
        &assert_no_deleted_tests,
    );
}

#[test]
fn a_test_whose_values_no_row_holds_is_still_deleted() {
    // The accent test is gone: the new table is about dashes, none of its values went
    // into a row.
    let dropped = r#""use strict";

const { slug } = require("../lib/slug");

describe("slug()", function () {
  it("keeps plain words", function () {
    expect(slug("plain")).toBe("plain");
  });

  it("keeps digits", function () {
    expect(slug("route66")).toBe("route66");
  });

  [
    ["space", "a b_c.d", "a-b-c-d"],
    ["tab", "tab\there", "tab-here"],
    ["slashes", "x/y\\z", "x-y-z"],
    ["dashes", "a--b", "a-b"],
  ].forEach(function ([label, input, expected]) {
    it(`replaces ${label} with one dash`, function () {
      expect(slug(input)).toBe(expected);
    });
  });

  [
    ["leading", "-a", "a"],
    ["trailing", "a-", "a"],
  ].forEach(function ([label, input, expected]) {
    it(`trims a ${label} dash`, function () {
      expect(slug(input)).toBe(expected);
    });
  });
});
"#;
    both_ways(
        &[(JS, BEFORE)],
        &writing(&[(JS, dropped)]),
        &assert_one_deleted(JS, "drops accents"),
    );
}

#[test]
fn a_table_of_a_named_list_elsewhere_in_the_file_carries_nothing() {
    // The rows are a list declared apart and the test named after what it checks: the
    // removed tests' values sit in no table the test is declared in.
    let apart = r#""use strict";

const { slug } = require("../lib/slug");

const unrelated = [
  ["a b_c.d", "a-b-c-d"],
  ["crème brûlée", "creme-brulee"],
];

describe("slug()", function () {
  it("keeps plain words", function () {
    expect(slug("plain")).toBe("plain");
  });

  it("keeps digits", function () {
    expect(slug("a1")).toBe("a1");
  });

  it("keeps lower case", function () {
    expect(slug("abc")).toBe("abc");
  });

  it("lists cases", function () {
    expect(unrelated.length).toBe(2);
  });
});
"#;
    both_ways(
        &[(JS, BEFORE)],
        &writing(&[(JS, apart)]),
        &assert_one_deleted(JS, "were removed"),
    );
}

#[test]
fn a_test_whose_checked_message_left_the_tests_is_not_carried_by_a_table() {
    // The message the removed test checked is still raised by the code, and no test
    // checks it any more: a table of the same inputs checking only the error's type
    // does not carry it.
    let lib = "lib/slug.js";
    let lib_before = "function slug(s) {\n  if (typeof s !== \"string\") throw new TypeError(\"slug needs a string\");\n  return s;\n}\nmodule.exports = { slug };\n";
    let lib_after = "// Turns a title into a URL part.\nfunction slug(s) {\n  if (typeof s !== \"string\") throw new TypeError(\"slug needs a string\");\n  return s;\n}\nmodule.exports = { slug };\n";
    let before = r#"const { slug } = require("../lib/slug");

it("keeps plain words", function () {
  expect(slug("plain")).toBe("plain");
});

it("rejects numbers", function () {
  expect(() => slug(42)).toThrow("slug needs a string");
});
"#;
    let after = r#"const { slug } = require("../lib/slug");

it("keeps plain words", function () {
  expect(slug("plain")).toBe("plain");
});

it("keeps digits", function () {
  expect(slug("route66")).toBe("route66");
});

[
  ["number, not a string", 42],
  ["null, not a string", null],
].forEach(function ([label, input]) {
  it(`rejects ${label}`, function () {
    expect(() => slug(input)).toThrow(TypeError);
  });
});
"#;
    both_ways(
        &[(lib, lib_before), (JS, before)],
        &writing(&[(lib, lib_after), (JS, after)]),
        &assert_one_deleted(JS, "rejects numbers"),
    );
}
