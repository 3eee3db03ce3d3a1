//! `new_todos` reads the `#` comments of YAML and TOML files (CI workflows, linter and
//! package configuration): a TODO left there is unfinished work like one in code. The
//! other marker guards do not read those comments (a `# noqa` or `# skip` in YAML is data;
//! suppressions written in configuration are read by their parsers). Each case is judged
//! uncommitted (against HEAD) and committed (`--against HEAD^`). Real repositories, the
//! real binary.

mod gitrepo;
mod support;

use gitrepo::{guards_only as check, lines_of, Repo};
use serde_json::Value;

const WORKFLOW: &str = "name: ci
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: cargo test
";

const MANIFEST: &str = "[package]
name = \"demo\"
version = \"0.1.0\"

[features]
default = []
";

fn repo() -> Repo {
    Repo::with(&[
        (".github/workflows/ci.yml", WORKFLOW),
        ("Cargo.toml", MANIFEST),
        (".gitignore", ".loopgate/\n"),
    ])
}

/// Judge the change both ways: uncommitted, then committed against its parent.
fn both(r: &Repo, verify: &dyn Fn(&Value, &str)) {
    let (code, receipt) = check(r, &[]);
    // `new_todos` warns by default: reported, not blocking.
    assert_eq!(code, Some(0), "uncommitted: {receipt}");
    verify(&receipt, "uncommitted, against HEAD");
    r.commit("the change");
    let (code, receipt) = check(r, &["--against", "HEAD^"]);
    assert_eq!(code, Some(0), "committed: {receipt}");
    verify(&receipt, "committed, --against HEAD^");
}

#[test]
fn a_todo_comment_added_to_yaml_and_toml_is_new_work() {
    let r = repo();
    r.write(
        ".github/workflows/ci.yml",
        &WORKFLOW.replace(
            "      - run: cargo test\n",
            "      - run: cargo test\n        continue-on-error: true # TODO: flaky on CI\n",
        ),
    );
    r.write(
        "Cargo.toml",
        &MANIFEST.replace(
            "default = []\n",
            "default = []\n# FIXME: remove with the next breaking release\nlegacy = []\n",
        ),
    );
    both(&r, &|receipt, mode| {
        assert_eq!(
            lines_of(receipt, "new_todos"),
            [
                (".github/workflows/ci.yml".to_string(), 8),
                ("Cargo.toml".to_string(), 7)
            ],
            "{mode}: {receipt}"
        );
    });
}

#[test]
fn todo_words_in_yaml_and_toml_values_are_data() {
    let r = repo();
    r.write(
        ".github/workflows/ci.yml",
        &WORKFLOW.replace(
            "      - run: cargo test\n",
            "      - run: cargo test\n      - run: echo \"TODO list # FIXME\"\n      - uses: example/notes@v1#TODO\n        with:\n          text: 'HACK # XXX: later'\n",
        ),
    );
    r.write(
        "Cargo.toml",
        &MANIFEST.replace(
            "[features]\n",
            "description = \"\"\"\nA TODO app.\n# FIXME is not a comment in here\n\"\"\"\n\n[features]\n",
        ),
    );
    both(&r, &|receipt, mode| {
        assert_eq!(lines_of(receipt, "new_todos"), [], "{mode}: {receipt}");
    });
}

#[test]
fn other_markers_in_yaml_comments_are_not_read() {
    let r = repo();
    r.write(
        ".github/workflows/ci.yml",
        &WORKFLOW.replace(
            "      - run: cargo test\n",
            "      - run: cargo test # noqa # NOLINT # pylint: disable=all # rubocop:disable all\n      # @pytest.mark.skip console.log(x) eslint-disable-next-line // nolint // @ts-ignore\n      # shellcheck disable=SC2086 # pragma: no cover # type: ignore # istanbul ignore next\n      run: t.Skip() && it.skip(x) && xit(y) && debugger && binding.pry\n",
        ),
    );
    both(&r, &|receipt, mode| {
        for guard in ["new_skips", "disabled_lint", "debug_artifacts", "new_todos"] {
            assert_eq!(lines_of(receipt, guard), [], "{mode} {guard}: {receipt}");
        }
    });
}

#[test]
fn a_todo_moved_within_a_yaml_file_is_not_new() {
    let before = WORKFLOW.replace(
        "    runs-on: ubuntu-latest\n",
        "    # TODO: test on macOS too\n    runs-on: ubuntu-latest\n",
    );
    let r = Repo::with(&[
        (".github/workflows/ci.yml", before.as_str()),
        (".gitignore", ".loopgate/\n"),
    ]);
    r.write(
        ".github/workflows/ci.yml",
        &WORKFLOW.replace(
            "      - run: cargo test\n",
            "      # TODO: test on macOS too\n      - run: cargo test\n",
        ),
    );
    both(&r, &|receipt, mode| {
        assert_eq!(lines_of(receipt, "new_todos"), [], "{mode}: {receipt}");
    });
}
