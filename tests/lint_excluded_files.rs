//! Suppression comments in files the repository keeps out of its own linting (fresh16,
//! black's formatter test cases): pre-commit's top-level `exclude` keeps a path from every
//! hook, and a mypy override with `ignore_errors = true` leaves a `# type: ignore` nothing
//! to ignore. Such a comment is data, not a suppression.
//!
//! Lookalikes still fire: a hook's own `exclude` (one hook, not all), an exclusion the
//! change itself adds, a `# noqa` under a mypy-only exclusion, and the same comments outside
//! the excluded tree. Each change is judged uncommitted and committed. Real repositories,
//! the real binary.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const PRECOMMIT: &str = ".pre-commit-config.yaml";
const EXCLUDES_DATA: &str = concat!(
    "exclude: ^(profiling/|tests/data/)\n",
    "repos:\n",
    "  - repo: https://github.com/pycqa/flake8\n",
    "    rev: 7.3.0\n",
    "    hooks:\n",
    "      - id: flake8\n",
);
const ONE_HOOK_EXCLUDES: &str = concat!(
    "repos:\n",
    "  - repo: https://github.com/pycqa/flake8\n",
    "    rev: 7.3.0\n",
    "    hooks:\n",
    "      - id: flake8\n",
    "        exclude: ^tests/data/\n",
);
const SRC: &str = "src/fmt/lines.py";
const SRC_TEXT: &str = "def hug(a):\n    return a\n";
const CASE: &str = "tests/data/cases/hug_type_ignore.py";
const CASE_TEXT: &str = concat!(
    "# flags: --preview\n",
    "foo(  # type: ignore\n",
    "    [  # type: ignore\n",
    "        a\n",
    "    ]\n",
    ")\n",
    "x = [  # pylint: disable-next=unused-argument\n",
    "    1\n",
    "]\n",
    "\n",
    "# output\n",
    "foo(  # type: ignore\n",
    "    [a]  # type: ignore\n",
    ")\n",
);

/// A formatter's new test case, in a tree every hook skips: its comments are what the
/// case checks.
#[test]
fn comments_in_a_tree_every_hook_skips_are_data() {
    both_ways(
        &[(PRECOMMIT, EXCLUDES_DATA), (SRC, SRC_TEXT)],
        &writing(&[(CASE, CASE_TEXT)]),
        &lint_lines(vec![]),
    );
}

/// Lookalike: one hook's `exclude` leaves the other hooks (and linters run elsewhere)
/// reading the file.
#[test]
fn one_hooks_exclude_still_fires() {
    both_ways(
        &[(PRECOMMIT, ONE_HOOK_EXCLUDES), (SRC, SRC_TEXT)],
        &writing(&[(CASE, CASE_TEXT)]),
        &lint_lines(vec![
            (CASE, 2),
            (CASE, 3),
            (CASE, 7),
            (CASE, 12),
            (CASE, 13),
        ]),
    );
}

/// Lookalike: the same comments in a file the exclusion does not reach.
#[test]
fn the_same_comments_outside_the_excluded_tree_still_fire() {
    const OUTSIDE: &str = "tests/cases/hug_type_ignore.py";
    both_ways(
        &[(PRECOMMIT, EXCLUDES_DATA), (SRC, SRC_TEXT)],
        &writing(&[(OUTSIDE, CASE_TEXT)]),
        &lint_lines(vec![
            (OUTSIDE, 2),
            (OUTSIDE, 3),
            (OUTSIDE, 7),
            (OUTSIDE, 12),
            (OUTSIDE, 13),
        ]),
    );
}

/// Lookalike: an exclusion the change adds is itself the way the comments stop mattering;
/// the comments written under it are still reported.
#[test]
fn an_exclusion_the_change_adds_does_not_hide_what_it_covers() {
    const NO_EXCLUDE: &str = "repos: []\n";
    both_ways(
        &[(PRECOMMIT, NO_EXCLUDE), (SRC, SRC_TEXT)],
        &writing(&[(PRECOMMIT, EXCLUDES_DATA), (CASE, CASE_TEXT)]),
        &lint_lines(vec![
            (CASE, 2),
            (CASE, 3),
            (CASE, 7),
            (CASE, 12),
            (CASE, 13),
        ]),
    );
}

const PYPROJECT: &str = "pyproject.toml";
const MYPY_OFF_FOR_DATA: &str = concat!(
    "[tool.mypy]\n",
    "strict = true\n",
    "\n",
    "[[tool.mypy.overrides]]\n",
    "module = [\"tests.data.*\"]\n",
    "ignore_errors = true\n",
);
const TYPED_CASE: &str = "tests/data/cases/typed.py";
const TYPED_CASE_TEXT: &str = concat!(
    "x: int = 'a'  # type: ignore\n",
    "import os  # noqa: F401\n",
);

/// A `# type: ignore` in a module whose mypy errors are off ignores nothing; a `# noqa`
/// there is for flake8, which mypy's setting does not reach: it still fires.
#[test]
fn type_ignores_under_mypy_ignore_errors_are_data_but_noqa_is_not() {
    both_ways(
        &[(PYPROJECT, MYPY_OFF_FOR_DATA), (SRC, SRC_TEXT)],
        &writing(&[(TYPED_CASE, TYPED_CASE_TEXT)]),
        &lint_lines(vec![(TYPED_CASE, 2)]),
    );
}
