//! Directories a test runner never walks: a test file moved into one keeps its test file
//! name, but its tests stop running. `go test ./...` skips `vendor`, `testdata` and any
//! directory whose name starts with `.` or `_` (the go command's documented package
//! patterns); no JavaScript runner looks inside `node_modules` by default. A test file
//! renamed into such a directory left the tests as surely as one renamed to a name no
//! test pattern matches (a package vendored with its tests, the original removed).

/// Whether `path` (a repository path) lies in a directory its runner never walks.
pub fn unwalked(path: &str) -> bool {
    let Some((dirs, _)) = path.rsplit_once('/') else {
        return false;
    };
    let go = path.ends_with(".go");
    dirs.split('/').any(|dir| {
        dir == "node_modules"
            || (go
                && (dir == "vendor"
                    || dir == "testdata"
                    || dir.starts_with('.')
                    || dir.starts_with('_')))
    })
}

#[cfg(test)]
mod tests {
    use super::unwalked;

    #[test]
    fn go_skips_vendor_testdata_and_hidden_directories() {
        assert!(unwalked("recipe/vendor/github.com/x/y/cookie_test.go"));
        assert!(unwalked("pkg/testdata/a_test.go"));
        assert!(unwalked("_old/a_test.go"));
        assert!(unwalked(".cache/a_test.go"));
        assert!(!unwalked("cookie_test.go"));
        assert!(!unwalked("internal/vendors/a_test.go"));
        // Only Go's runner skips those; a Python `vendor` package is collected.
        assert!(!unwalked("vendor/tests/test_a.py"));
        assert!(unwalked("web/node_modules/x/a.test.js"));
    }
}
