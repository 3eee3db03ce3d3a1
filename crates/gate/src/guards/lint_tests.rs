//! Rust tests of lints. A test file that raises `unfulfilled_lint_expectations` to `deny`
//! (or `forbid`) makes each `#[expect(lint)]` in it fail the build unless the lint fires:
//! the expectation is the test's assertion that the compiler reports that lint there (that
//! `dead_code` still fires on a function behind a macro), not a suppression of a problem.
//! A file that does not deny the lint, or one that is not a test, keeps its `#[expect]`s
//! findings: an expectation left unfulfilled is only a warning there.

use super::languages::Lang;

/// The label of an `#[expect(..)]` or `#![expect(..)]` suppression.
const EXPECT: &str = "#[expect(";

/// Whether `text`, a file of language `lang`, is a Rust test file that denies
/// `unfulfilled_lint_expectations` in an attribute.
pub fn asserts_lints(lang: Lang, is_test: bool, text: Option<&str>) -> bool {
    lang == Lang::Rust
        && is_test
        && text.is_some_and(|t| {
            t.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with('#')
                    && (l.contains("deny(") || l.contains("forbid("))
                    && l.contains("unfulfilled_lint_expectations")
            })
        })
}

/// The markers of a line of such a file, its expectations taken out.
pub fn drop_expectations(found: &mut Vec<String>) {
    found.retain(|l| l != EXPECT);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rust_test_files_that_deny_unfulfilled_expectations() {
        let text = "#[deny(unfulfilled_lint_expectations)]\n#[expect(dead_code)]\nfn f() {}\n";
        assert!(asserts_lints(Lang::Rust, true, Some(text)));
        assert!(!asserts_lints(Lang::Rust, false, Some(text)));
        let warned = text.replace("deny", "warn");
        assert!(!asserts_lints(Lang::Rust, true, Some(&warned)));
        let prose = "// deny(unfulfilled_lint_expectations) would help\n#[expect(dead_code)]\n";
        assert!(!asserts_lints(Lang::Rust, true, Some(prose)));
        let mut found = vec!["#[expect(".to_string(), "#[allow(".to_string()];
        drop_expectations(&mut found);
        assert_eq!(found, vec!["#[allow(".to_string()]);
    }
}
