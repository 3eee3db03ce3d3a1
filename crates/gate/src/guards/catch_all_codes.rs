//! Error codes that stand for every error without a code of its own.
//!
//! mypy gives `misc` to each error it has no specific code for, so `# type: ignore[misc]`
//! silences a whole family of unrelated errors. A list rewritten to name `misc` where it
//! did not (`[arg-type, attr-defined]` -> `[misc]`) is no rename of one of its codes and no
//! narrowing, however short it is: it widened. The other way, a specific code in place of
//! `misc` (`[misc]` -> `[str-unpack]`, mypy giving an error its own code) narrows.

/// Whether the rewritten rule list `new` of directive `label` gained a catch-all code that
/// `old` did not name.
pub fn gained(label: &str, old: &[String], new: &[String]) -> bool {
    let catch_all: &[&str] = match label {
        "type: ignore" => &["misc"],
        _ => return false,
    };
    let names = |list: &[String], code: &str| list.iter().any(|r| r.trim() == code);
    catch_all.iter().any(|c| names(new, c) && !names(old, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn misc_in_place_of_specific_codes_widens_and_the_reverse_does_not() {
        let specific = v(&["arg-type", "attr-defined"]);
        assert!(gained("type: ignore", &specific, &v(&["misc"])));
        assert!(!gained("type: ignore", &v(&["misc"]), &v(&["str-unpack"])));
        assert!(!gained("type: ignore", &v(&["misc"]), &v(&["misc"])));
        assert!(!gained("noqa", &specific, &v(&["misc"])));
    }
}
