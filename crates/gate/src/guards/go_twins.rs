//! Go tests of one name in one package are never the same test twice.
//!
//! A package cannot declare a function twice, so two files of one package that both held
//! `Example_slog` at the comparison point were never compiled together: build constraints
//! (`//go:build go1.21` and `//go:build !go1.21`) or file-name suffixes (`_windows.go`)
//! keep them apart, and each is the test of its own build. Deleting one leaves its build
//! without that test; the other, which was there all along, is no copy of it.

/// The package a Go file declares (`package zapslog` -> `zapslog`), when it says.
pub fn package_clause(text: &str) -> Option<&str> {
    text.lines().find_map(|l| {
        let name = l
            .trim()
            .strip_prefix("package ")?
            .split_whitespace()
            .next()?;
        name.chars()
            .all(|c| c.is_alphanumeric() || c == '_')
            .then_some(name)
    })
}

/// Whether `a` and `b` (paths with the files' texts at the comparison point) are two Go
/// files of one package: the same directory and the same package clause.
pub fn one_package(a: (&str, &str), b: (&str, &str)) -> bool {
    let dir = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    let go = |p: &str| p.ends_with(".go");
    go(a.0)
        && go(b.0)
        && a.0 != b.0
        && dir(a.0) == dir(b.0)
        && package_clause(a.1).is_some_and(|p| Some(p) == package_clause(b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_one_directory_and_package_clause_are_one_package() {
        let a = "//go:build go1.21\n\npackage zapslog_test\n";
        let b = "//go:build !go1.21\n\npackage zapslog_test // x\n";
        assert_eq!(package_clause(a), Some("zapslog_test"));
        assert!(one_package(("x/a_test.go", a), ("x/b_test.go", b)));
        assert!(!one_package(("x/a_test.go", a), ("y/b_test.go", b)));
        assert!(!one_package(
            ("x/a_test.go", a),
            ("x/b_test.go", "package zapslog\n")
        ));
        assert!(!one_package(("x/a_test.py", a), ("x/b_test.py", b)));
    }
}
