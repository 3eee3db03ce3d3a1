//! The tools that install the repository's git hooks (pre-commit, lefthook, husky,
//! overcommit) also remove them: their `uninstall` deletes `.git/hooks/*` or unsets
//! `core.hooksPath`, after which every commit skips the checks as `--no-verify` does.

/// Whether `name` with `words` (the words after it) removes the git hooks it manages.
pub(crate) fn removes_git_hooks(name: &str, words: &[&str]) -> bool {
    let sub = words.iter().copied().find(|w| !w.starts_with('-'));
    match name {
        "pre-commit" | "lefthook" | "husky" => sub == Some("uninstall"),
        "overcommit" => words.contains(&"--uninstall"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_uninstall_of_a_hook_manager_removes_hooks() {
        assert!(removes_git_hooks("pre-commit", &["uninstall"]));
        assert!(removes_git_hooks(
            "pre-commit",
            &["uninstall", "-t", "pre-push"]
        ));
        assert!(removes_git_hooks("lefthook", &["uninstall"]));
        assert!(removes_git_hooks("overcommit", &["--uninstall"]));
        assert!(!removes_git_hooks("pre-commit", &["run", "--all-files"]));
        assert!(!removes_git_hooks("pre-commit", &["install"]));
        assert!(!removes_git_hooks("lefthook", &["run", "pre-commit"]));
    }
}
