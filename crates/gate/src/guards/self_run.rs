//! An ignored Rust test can be a child process's entry point: the test that needs a fresh
//! process (a stack overflow, an abort) runs its own test binary again with `--ignored`
//! (or `--include-ignored`) and `--exact NAME`, and reads how the child ended. The ignored
//! test then runs whenever the suite does, through its caller; ignoring it keeps the plain
//! run from executing it alone, so it is no skip.

/// The name of the function a Rust declaration line declares (`fn name(`), if any.
fn fn_name(declaration: &str) -> Option<&str> {
    let at = declaration.find("fn ")? + 3;
    let rest = &declaration[at..];
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// Whether the Rust test declared on `anchor` (the line an `#[ignore]` is on) is run by
/// its own file: `text` passes the harness's flag that runs ignored tests, as a string,
/// and names the test in a string of its own (`"name"`).
pub fn runs_itself(anchor: Option<&str>, text: &str) -> bool {
    let Some(name) = anchor.and_then(fn_name) else {
        return false;
    };
    let flag = text.contains("\"--ignored\"") || text.contains("\"--include-ignored\"");
    flag && text.contains(&format!("\"{name}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "#[test]\nfn crash() {\n    Command::new(exe).arg(\"--ignored\").arg(\"--exact\").arg(\"child\");\n}\n#[test]\n#[ignore]\nfn child() {}\n";

    #[test]
    fn an_ignored_test_its_file_runs_by_name_runs_itself() {
        assert!(runs_itself(Some("fn child() {}"), FILE));
    }

    #[test]
    fn another_ignored_test_does_not() {
        assert!(!runs_itself(Some("fn slow() {}"), FILE));
        let no_flag = FILE.replace("\"--ignored\"", "\"--nocapture\"");
        assert!(!runs_itself(Some("fn child() {}"), &no_flag));
        assert!(!runs_itself(None, FILE));
    }
}
