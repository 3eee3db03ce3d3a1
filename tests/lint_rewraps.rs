//! A suppression whose statement a formatter only re-wrapped (split over other lines,
//! wrapped in parentheses, a trailing comma added) is the same suppression, even where the
//! line diff kept a lone `)` of the old statement as a line of the new one. A suppression
//! written on another statement beside it is new. Real repositories, the real binary,
//! judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const PATH: &str = "tests/test_validate.py";

const OLD: &str = concat!(
    "def test_range_repr():\n",
    "    assert repr(\n",
    "        validate.Range(\n",
    "            min=1, max=3, error=\"foo\", min_inclusive=False, max_inclusive=False\n",
    "        )\n",
    "    ) == \"<Range(min=1, max=3, min_inclusive=False, max_inclusive=False, error={!r})>\".format(  # noqa: B950\n",
    "        \"foo\"\n",
    "    )\n",
);

const REWRAPPED: &str = concat!(
    "def test_range_repr():\n",
    "    assert (\n",
    "        repr(\n",
    "            validate.Range(\n",
    "                min=1, max=3, error=\"foo\", min_inclusive=False, max_inclusive=False\n",
    "            )\n",
    "        )\n",
    "        == \"<Range(min=1, max=3, min_inclusive=False, max_inclusive=False, error={!r})>\".format(  # noqa: B950\n",
    "            \"foo\"\n",
    "        )\n",
    "    )\n",
);

#[test]
fn a_noqa_line_rewrapped_by_a_formatter_is_not_new() {
    both_ways(
        &[(PATH, OLD)],
        &writing(&[(PATH, REWRAPPED)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn a_noqa_on_another_statement_beside_the_rewrap_is_new() {
    let with_new = format!(
        "{REWRAPPED}    assert repr(validate.Length(min=1)) == \"<Length(min=1, max=None, equal=None, error=None)>\"  # noqa: B950\n"
    );
    both_ways(
        &[(PATH, OLD)],
        &writing(&[(PATH, &with_new)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![(PATH.to_string(), 12)],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn the_same_statement_with_its_code_changed_is_new() {
    let changed = REWRAPPED.replace("min=1, max=3", "min=1, max=4");
    both_ways(
        &[(PATH, OLD)],
        &writing(&[(PATH, &changed)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "disabled_lint"),
                vec![(PATH.to_string(), 8)],
                "{mode}: {receipt}"
            );
        },
    );
}
