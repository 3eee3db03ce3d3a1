//! Suppressions a change narrowed, though each new one is a line of its own: a crate-wide
//! Cargo `allow` taken out of `[lints]` and written as `#[allow(..)]` on the one item that
//! needs it; a bare Go `//nolint` replaced by `//lint:ignore CHECK` in its place. And a
//! suppression that only gained a comment over the code it stood over is the same one, even
//! when a new file holds its old text. Each lookalike that does widen what is silenced
//! still fires. Each change is
//! judged uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lint_at, writing};

const CARGO: &str = concat!(
    "[package]\n",
    "name = \"demo\"\n",
    "\n",
    "[lints.clippy]\n",
    "large_enum_variant = \"allow\"\n",
    "needless_return = \"allow\"\n",
);

const SERVER: &str = concat!(
    "pub enum State {\n",
    "    Idle,\n",
    "    Busy([u8; 4096]),\n",
    "}\n",
);

fn server_with(attr: &str) -> String {
    format!("{attr}\n{SERVER}")
}

/// `large_enum_variant = "allow"` leaves the crate's `[lints.clippy]` and the one enum that
/// needs it gets `#[allow(clippy::large_enum_variant)]` (or `#[lint_at(.., reason)]`): the
/// lint is back on for every other item.
#[test]
fn a_crate_wide_cargo_allow_moved_onto_one_item_is_narrowed() {
    let cargo = CARGO.replace("large_enum_variant = \"allow\"\n", "");
    for attr in [
        "#[allow(clippy::large_enum_variant)]",
        "#[lint_at(clippy::large_enum_variant, reason = \"boxed by the caller\")]",
    ] {
        let server = server_with(attr);
        both_ways(
            &[("Cargo.toml", CARGO), ("src/server.rs", SERVER)],
            &writing(&[("Cargo.toml", &cargo), ("src/server.rs", &server)]),
            &lint_at(vec![]),
        );
    }
}

/// Lookalikes: the Cargo allow stays (the item allow adds nothing the crate lacked, but it
/// is a new line of suppression as ever); the item allow names a lint the change did not
/// take out of Cargo; a crate-level `#![allow(..)]` reaches as far as the Cargo entry did;
/// a crate elsewhere (another `Cargo.toml`'s directory) lost the allow.
#[test]
fn an_item_allow_without_its_crate_wide_allow_removed_still_fires() {
    let kept = server_with("#[allow(clippy::large_enum_variant)]");
    both_ways(
        &[("Cargo.toml", CARGO), ("src/server.rs", SERVER)],
        &writing(&[("src/server.rs", &kept)]),
        &lint_at(vec![("src/server.rs", 1)]),
    );
    let cargo = CARGO.replace("large_enum_variant = \"allow\"\n", "");
    let other = server_with("#[allow(clippy::large_enum_variant, clippy::type_complexity)]");
    both_ways(
        &[("Cargo.toml", CARGO), ("src/server.rs", SERVER)],
        &writing(&[("Cargo.toml", &cargo), ("src/server.rs", &other)]),
        &lint_at(vec![("src/server.rs", 1)]),
    );
    let whole = server_with("#![allow(clippy::large_enum_variant)]");
    both_ways(
        &[("Cargo.toml", CARGO), ("src/server.rs", SERVER)],
        &writing(&[("Cargo.toml", &cargo), ("src/server.rs", &whole)]),
        &lint_at(vec![("src/server.rs", 1)]),
    );
    let elsewhere = server_with("#[allow(clippy::large_enum_variant)]");
    both_ways(
        &[
            ("a/Cargo.toml", CARGO),
            ("b/Cargo.toml", CARGO),
            ("b/src/server.rs", SERVER),
        ],
        &writing(&[("a/Cargo.toml", &cargo), ("b/src/server.rs", &elsewhere)]),
        &lint_at(vec![("b/src/server.rs", 1)]),
    );
}

const GO_TEST: &str = concat!(
    "package demo\n",
    "\n",
    "import \"testing\"\n",
    "\n",
    "func TestHeader(t *testing.T) {\n",
    "\th := map[string][]string{\"x\": {\"a\"}}\n",
    "\tcheck(t, h[\"x\"][0]) //nolint\n",
    "\tcheck(t, h[\"x\"][0])\n",
    "}\n",
);

/// A bare `//nolint` (every linter) on a statement becomes staticcheck's
/// `//lint:ignore SA1008 reason` (one check) on the line above it, or on the same statement
/// split in two: one check silenced where all were.
#[test]
fn a_bare_nolint_replaced_by_lint_ignore_of_one_check_is_narrowed() {
    let above = GO_TEST.replace(
        "\tcheck(t, h[\"x\"][0]) //nolint\n",
        "\t//lint:ignore SA1008 the header is set verbatim\n\tcheck(t, h[\"x\"][0])\n",
    );
    let split = GO_TEST.replace(
        "\tcheck(t, h[\"x\"][0]) //nolint\n",
        "\t//lint:ignore SA1008 set verbatim\n\tv := h[\"x\"][0]\n\tcheck(t, v)\n",
    );
    for new in [above, split] {
        both_ways(
            &[("demo_test.go", GO_TEST)],
            &writing(&[("demo_test.go", &new)]),
            &lint_at(vec![]),
        );
    }
}

/// Lookalikes: a `//lint:ignore` written elsewhere in the file while the `//nolint` goes
/// is another suppression; one written where a `//nolint` stays (moved onto the next
/// line) is new; one written where a scoped `//nolint:errcheck` was names another check.
#[test]
fn a_lint_ignore_not_in_a_bare_nolints_place_still_fires() {
    let elsewhere = GO_TEST
        .replace(
            "\tcheck(t, h[\"x\"][0]) //nolint\n",
            "\tcheck(t, h[\"x\"][0])\n",
        )
        .replace(
            "\th := map",
            "\t//lint:ignore SA4006 other code\n\th := map",
        );
    both_ways(
        &[("demo_test.go", GO_TEST)],
        &writing(&[("demo_test.go", &elsewhere)]),
        &lint_at(vec![("demo_test.go", 6)]),
    );
    let kept = GO_TEST.replace(
        "\tcheck(t, h[\"x\"][0]) //nolint\n",
        "\t//lint:ignore SA1008 set verbatim\n\tcheck(t, h[\"x\"][0] ) //nolint\n",
    );
    both_ways(
        &[("demo_test.go", GO_TEST)],
        &writing(&[("demo_test.go", &kept)]),
        &lint_at(vec![("demo_test.go", 7)]),
    );
    let scoped = GO_TEST.replace("//nolint\n", "//nolint:errcheck\n");
    let replaced = scoped.replace(
        "\tcheck(t, h[\"x\"][0]) //nolint:errcheck\n",
        "\t//lint:ignore SA1008 set verbatim\n\tcheck(t, h[\"x\"][0])\n",
    );
    both_ways(
        &[("demo_test.go", &scoped)],
        &writing(&[("demo_test.go", &replaced)]),
        &lint_at(vec![("demo_test.go", 7)]),
    );
}

const API: &str = concat!(
    "package demo;\n",
    "\n",
    "public final class Api {\n",
    "  /** Creates the service. */\n",
    "  @SuppressWarnings(\"unchecked\")\n",
    "  public <T> T create(Class<T> service) {\n",
    "    return (T) make(service);\n",
    "  }\n",
    "\n",
    "  Object make(Class<?> c) {\n",
    "    if (c == null) {\n",
    "      throw new NullPointerException(\"c\");\n",
    "    }\n",
    "    if (!c.isInterface()) {\n",
    "      throw new IllegalArgumentException(\"not an interface\");\n",
    "    }\n",
    "    return null;\n",
    "  }\n",
    "}\n",
);

const API_TEST: &str = concat!(
    "package demo;\n",
    "\n",
    "public final class ApiTest {\n",
    "  @SuppressWarnings(\"unchecked\")\n",
    "  private final java.util.List<String> names = (java.util.List<String>) new Object();\n",
    "}\n",
);

/// A suppression that only gained a reason where it stood is the same one, even when a
/// new file of the change holds a line identical to its old text: that one is new, and
/// is the one reported.
#[test]
fn a_suppression_rewritten_in_place_keeps_its_removal_and_an_identical_new_one_elsewhere_fires() {
    let api = API
        .replace(
            "  /** Creates the service. */\n",
            "  /** Creates a service. */\n",
        )
        .replace(
            "@SuppressWarnings(\"unchecked\")\n",
            "@SuppressWarnings(\"unchecked\") // one proxy per interface\n",
        );
    both_ways(
        &[("src/Api.java", API)],
        &writing(&[("src/Api.java", &api), ("test/ApiTest.java", API_TEST)]),
        &lint_at(vec![("test/ApiTest.java", 4)]),
    );
}

/// The method moved lower in its file with its suppression's comment corrected: the same
/// suppression over the same code. Lookalikes: a suppression reworded over other code is
/// another one; one over the same code that names more rules is widened.
#[test]
fn a_suppression_moved_with_its_code_and_reworded_is_the_same_and_over_other_code_is_new() {
    let old = API.replace(
        "@SuppressWarnings(\"unchecked\")\n",
        "@SuppressWarnings(\"unchecked\") // casts/\n",
    );
    let moved = concat!(
        "package demo;\n",
        "\n",
        "public final class Api {\n",
        "  Object make(Class<?> c) {\n",
        "    if (c == null) {\n",
        "      throw new NullPointerException(\"c\");\n",
        "    }\n",
        "    if (!c.isInterface()) {\n",
        "      throw new IllegalArgumentException(\"not an interface\");\n",
        "    }\n",
        "    return null;\n",
        "  }\n",
        "\n",
        "  /** Creates the service. */\n",
        "  @SuppressWarnings(\"unchecked\") // casts\n",
        "  public <T> T create(Class<T> service) {\n",
        "    return (T) make(service);\n",
        "  }\n",
        "}\n",
    );
    both_ways(
        &[("src/Api.java", &old)],
        &writing(&[("src/Api.java", moved)]),
        &lint_at(vec![]),
    );
    let other = old
        .replace("  @SuppressWarnings(\"unchecked\") // casts/\n", "")
        .replace(
            "  Object make(",
            "  @SuppressWarnings(\"unchecked\") // raw\n  Object make(",
        );
    both_ways(
        &[("src/Api.java", &old)],
        &writing(&[("src/Api.java", &other)]),
        &lint_at(vec![("src/Api.java", 9)]),
    );
    let wider = moved.replace(
        "(\"unchecked\") // casts",
        "({\"unchecked\", \"rawtypes\"})",
    );
    both_ways(
        &[("src/Api.java", &old)],
        &writing(&[("src/Api.java", &wider)]),
        &lint_at(vec![("src/Api.java", 15)]),
    );
}
