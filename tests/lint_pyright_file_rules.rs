//! A `# pyright: rule=false` comment turns the rule off for its whole file; a change that
//! removes it and ignores the rule on one line (`# pyright: ignore[rule]`) narrows the
//! suppression, which `disabled_lint` does not report (docs/guards.md, "narrowed").
//! Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_at, writing};

const HELP: &str = "src/pkg/help.py";
const HELP_OLD: &str = "\"\"\"Bug report helper.\"\"\"\n\n# pyright: reportUnknownMemberType=false\n\nimport sys\n\n\ndef version():\n    v = sys.pypy_version_info\n    return f\"{v.major}.{v.minor}\"\n";

#[test]
fn a_file_wide_rule_removed_and_ignored_on_one_line_is_narrowed() {
    let new = "\"\"\"Bug report helper.\"\"\"\n\nimport sys\n\n\ndef version():\n    v = sys.pypy_version_info\n    return f\"{v.major}.{v.minor}\"  # pyright: ignore[reportUnknownMemberType]\n";
    both_ways(
        &[(HELP, HELP_OLD)],
        &writing(&[(HELP, new)]),
        &lint_at(vec![]),
    );
}

#[test]
fn another_rule_or_a_file_wide_comment_kept_is_still_new() {
    // Another rule ignored on the line: not what the removed comment turned off.
    let other = "\"\"\"Bug report helper.\"\"\"\n\nimport sys\n\n\ndef version():\n    v = sys.pypy_version_info\n    return f\"{v.major}.{v.minor}\"  # pyright: ignore[reportAttributeAccessIssue]\n";
    both_ways(
        &[(HELP, HELP_OLD)],
        &writing(&[(HELP, other)]),
        &lint_at(vec![(HELP, 8)]),
    );
    // The file-wide comment stays: the line ignore adds to it, in a file that lost nothing.
    let kept = "\"\"\"Bug report helper.\"\"\"\n\n# pyright: reportUnknownMemberType=false\n\nimport sys\n\n\ndef version():\n    v = sys.pypy_version_info\n    return f\"{v.major}.{v.minor}\"  # pyright: ignore[reportUnknownMemberType]\n";
    both_ways(
        &[(HELP, HELP_OLD)],
        &writing(&[(HELP, kept)]),
        &lint_at(vec![(HELP, 10)]),
    );
}
