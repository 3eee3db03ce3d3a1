//! The GitHub Actions workflow `loopgate install ci` writes: on every pull request, the
//! judge (`loopgate check --against refs/remotes/origin/<base>`) on a full-history checkout. The file is
//! loopgate's alone; its first line marks it so install overwrites and uninstall deletes
//! only a file it wrote.

pub const PATH: &str = ".github/workflows/loopgate.yml";
const MARK: &str = "# Written by `loopgate install ci`";

/// The workflow text; `version` pins the loopgate release the job installs.
pub fn render(version: &str) -> String {
    format!(
        r#"{MARK}; `loopgate uninstall ci` removes it.
name: loopgate

on:
  pull_request:

permissions:
  contents: read

jobs:
  judge:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          # The judge compares with the base branch: it needs the whole history.
          fetch-depth: 0
      - uses: dtolnay/rust-toolchain@stable
      - name: Install loopgate
        run: cargo install --locked loopgate --version {version}
      # Add here whatever the checks in loopgate.toml need (toolchains, dependencies).
      - name: Judge the pull request
        # A full ref name: a short one that a tag or a branch also answers to is refused.
        run: loopgate check --against "refs/remotes/origin/${{{{ github.base_ref }}}}"
"#
    )
}

/// Whether an existing workflow file was written by loopgate.
pub fn is_ours(text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|line| line.starts_with(MARK))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workflow_judges_pull_requests_against_the_base_ref() {
        let text = render("0.1.0");
        assert!(is_ours(&text));
        assert!(text.contains("fetch-depth: 0"));
        assert!(text.contains("cargo install --locked loopgate --version 0.1.0"));
        assert!(text
            .contains(r#"loopgate check --against "refs/remotes/origin/${{ github.base_ref }}""#));
        assert!(!is_ours("name: loopgate\n"));
    }
}
