//! Rust's `#[expect(L)]` silences lint `L` as `#[allow(L)]` does, and also warns once `L`
//! no longer fires there. So an `allow` rewritten in place as an `expect` of the same lints
//! is the same suppression made stricter, not a new one: the two attributes are spellings
//! of one marker when they are paired as a rewrite. The way back (`expect` -> `allow`)
//! drops that warning, so it widens, as a rewrite naming more lints does.

use super::languages::Lang;
use super::scan::Kind;

/// The label both spellings pair under: `#[expect(` (and an entry of its multi-line list)
/// as the `allow` it may have been.
pub fn family(label: &str) -> &str {
    match label {
        "#[expect(" => "#[allow(",
        "#[expect(..)] entry" => "#[allow(..)] entry",
        other => other,
    }
}

/// Whether `new`, a suppression paired as the rewrite of `old` (labels `new_label` and
/// `old_label`, one family), reaches further: `None` when both have one spelling (the
/// ordinary reading applies), else whether it became an `allow` or, read as the same
/// attribute, names more lints or reaches more of the file.
pub fn widened(lang: Lang, old_label: &str, old: &str, new_label: &str, new: &str) -> Option<bool> {
    if old_label == new_label || family(old_label) != family(new_label) {
        return None;
    }
    if family(new_label) == new_label {
        // `expect` -> `allow`: the lint may stop firing and nobody hears of it.
        return Some(true);
    }
    // `allow` -> `expect`: compare as one attribute, the old line respelt.
    let respelt = old.replacen("allow", "expect", 1);
    Some(super::widen::widened(
        Kind::Lint,
        lang,
        new_label,
        &respelt,
        new,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wider(old: &str, new: &str) -> Option<bool> {
        let label = |s: &str| {
            if s.contains("expect") {
                "#[expect("
            } else {
                "#[allow("
            }
        };
        widened(Lang::Rust, label(old), old, label(new), new)
    }

    #[test]
    fn an_allow_rewritten_as_an_expect_of_the_same_lints_is_not_wider() {
        assert_eq!(
            wider("#[allow(deprecated)]", "#[expect(deprecated)]"),
            Some(false)
        );
        assert_eq!(
            wider(
                "    #![allow(unused_assignments)]",
                "    #![expect(unused_assignments)]"
            ),
            Some(false)
        );
        assert_eq!(
            wider("#[allow(clippy::a, clippy::b)]", "#[expect(clippy::a)]"),
            Some(false)
        );
    }

    #[test]
    fn more_lints_a_wider_reach_or_the_way_back_widen() {
        assert_eq!(
            wider("#[allow(clippy::a)]", "#[expect(clippy::a, clippy::b)]"),
            Some(true)
        );
        assert_eq!(
            wider("#[allow(dead_code)]", "#![expect(dead_code)]"),
            Some(true)
        );
        assert_eq!(
            wider("#[expect(dead_code)]", "#[allow(dead_code)]"),
            Some(true)
        );
        assert_eq!(wider("#[allow(a)]", "#[allow(a, b)]"), None);
    }

    #[test]
    fn only_the_two_rust_spellings_share_a_family() {
        assert_eq!(family("#[expect("), family("#[allow("));
        assert_eq!(family("#[expect(..)] entry"), family("#[allow(..)] entry"));
        assert_ne!(family("#[expect("), family("@SuppressWarnings("));
    }
}
