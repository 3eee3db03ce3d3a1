//! Which clippy lints run by default. `cargo clippy` checks the groups `correctness`,
//! `suspicious`, `style`, `complexity` and `perf`; the lints of `pedantic`, `restriction`,
//! `nursery` and `cargo` run only when asked for. An `allow` of one of those silences
//! nothing unless something turned it on, which a Cargo `[lints]` table says (see
//! `config_toml`). The members are facts read from clippy, kept as data in
//! `clippy_off_by_default.txt` with the clippy version they reflect.

const OFF_BY_DEFAULT: &str = include_str!("clippy_off_by_default.txt");

/// The groups clippy leaves off unless asked for.
pub const OFF_GROUPS: &[&str] = &["pedantic", "restriction", "nursery", "cargo"];

/// The off-by-default group `lint` (`cast_lossless`, `clippy::cast-lossless`) belongs to,
/// or `None` for a lint that runs by default, a group name and a name the list does not
/// know (taken as on: an allow of it may silence something).
pub fn off_group(lint: &str) -> Option<&'static str> {
    let name = lint
        .strip_prefix("clippy::")
        .unwrap_or(lint)
        .replace('-', "_");
    let mut group = None;
    for line in OFF_BY_DEFAULT.lines().map(str::trim) {
        if let Some(g) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            group = OFF_GROUPS.iter().copied().find(|&known| known == g);
        } else if line == name {
            return group;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_by_default_lints_name_their_group_and_default_ones_none() {
        assert_eq!(off_group("cast_lossless"), Some("pedantic"));
        assert_eq!(off_group("clippy::indexing-slicing"), Some("restriction"));
        assert_eq!(off_group("use_self"), Some("nursery"));
        assert_eq!(off_group("multiple_crate_versions"), Some("cargo"));
        for on in [
            "needless_return",
            "type_complexity",
            "large_enum_variant",
            "eq_op",
        ] {
            assert_eq!(off_group(on), None, "{on}");
        }
        assert_eq!(off_group("pedantic"), None);
        assert_eq!(off_group("not_a_lint_anyone_wrote"), None);
        assert_eq!(off_group(""), None);
    }

    #[test]
    fn every_line_of_the_data_is_a_group_a_lint_or_a_comment() {
        let mut in_group = false;
        for line in OFF_BY_DEFAULT.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(g) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                assert!(OFF_GROUPS.contains(&g), "{g}");
                in_group = true;
                continue;
            }
            assert!(in_group, "{line} before any group");
            assert!(
                line.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{line}"
            );
        }
    }
}
