//! Suppressions a change narrowed, though each new one is a line of its own: a crate-wide
//! Cargo `allow` taken out of `[lints]` and written as `#[allow(..)]` on the one item that
//! needs it. Each lookalike that does widen what is silenced still fires. Each change is
//! judged uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};
use serde_json::Value;

fn expect(want: Vec<(&'static str, u64)>) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = want.iter().map(|(p, l)| (p.to_string(), *l)).collect();
        assert_eq!(
            lines_of(receipt, "disabled_lint"),
            want,
            "{mode}: {receipt}"
        );
        assert_eq!(
            code,
            Some(if want.is_empty() { 0 } else { 3 }),
            "{mode}: {receipt}"
        );
    }
}

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
/// needs it gets `#[allow(clippy::large_enum_variant)]` (or `#[expect(.., reason)]`): the
/// lint is back on for every other item.
#[test]
fn a_crate_wide_cargo_allow_moved_onto_one_item_is_narrowed() {
    let cargo = CARGO.replace("large_enum_variant = \"allow\"\n", "");
    for attr in [
        "#[allow(clippy::large_enum_variant)]",
        "#[expect(clippy::large_enum_variant, reason = \"boxed by the caller\")]",
    ] {
        let server = server_with(attr);
        both_ways(
            &[("Cargo.toml", CARGO), ("src/server.rs", SERVER)],
            &writing(&[("Cargo.toml", &cargo), ("src/server.rs", &server)]),
            &expect(vec![]),
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
        &expect(vec![("src/server.rs", 1)]),
    );
    let cargo = CARGO.replace("large_enum_variant = \"allow\"\n", "");
    let other = server_with("#[allow(clippy::large_enum_variant, clippy::type_complexity)]");
    both_ways(
        &[("Cargo.toml", CARGO), ("src/server.rs", SERVER)],
        &writing(&[("Cargo.toml", &cargo), ("src/server.rs", &other)]),
        &expect(vec![("src/server.rs", 1)]),
    );
    let whole = server_with("#![allow(clippy::large_enum_variant)]");
    both_ways(
        &[("Cargo.toml", CARGO), ("src/server.rs", SERVER)],
        &writing(&[("Cargo.toml", &cargo), ("src/server.rs", &whole)]),
        &expect(vec![("src/server.rs", 1)]),
    );
    let elsewhere = server_with("#[allow(clippy::large_enum_variant)]");
    both_ways(
        &[
            ("a/Cargo.toml", CARGO),
            ("b/Cargo.toml", CARGO),
            ("b/src/server.rs", SERVER),
        ],
        &writing(&[("a/Cargo.toml", &cargo), ("b/src/server.rs", &elsewhere)]),
        &expect(vec![("b/src/server.rs", 1)]),
    );
}
