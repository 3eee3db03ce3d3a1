//! Stylesheets are read (docs/guards.md, "Languages"): `/* */` comments in CSS, `//` too in
//! SCSS and Less. A `stylelint-disable` directive reaches as ESLint's does (`-line`,
//! `-next-line`, a block to `stylelint-enable`), widens and narrows the same way, and a
//! TODO in a stylesheet comment is unfinished work. What a string holds
//! (`content: "/* .. */"`) and the `//` of an unquoted `url(//cdn..)` open no comment.
//! Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, lint_at, writing};

const CARD: &str = "scss/_card.scss";
const CARD_NEW: &str = ".card {\n  margin-left: calc(-.5 * var(--x)); // stylelint-disable-line function-disallowed-list\n  // stylelint-disable-next-line property-disallowed-list\n  border-radius: 0;\n  /* stylelint-disable declaration-no-important */\n  color: red !important;\n  /* stylelint-enable declaration-no-important */\n}\n// TODO: remove this in v6\n";

#[test]
fn stylelint_directives_and_todos_in_new_scss_less_and_css_are_found() {
    let less = "theme/site.less";
    let css = "public/site.css";
    both_ways(
        &[("README.md", "docs\n")],
        &writing(&[
            (CARD, CARD_NEW),
            (less, "// stylelint-disable selector-no-qualifying-type\na.btn { color: @c; }\n"),
            (
                css,
                "/* stylelint-disable-next-line selector-max-id */\n#a { color: red; }\n/* FIXME: self-host the font */\n",
            ),
        ]),
        &|code, receipt, mode| {
            lint_at(vec![(css, 1), (CARD, 2), (CARD, 3), (CARD, 5), (less, 1)])(
                code, receipt, mode,
            );
            assert_eq!(
                lines_of(receipt, "new_todos"),
                vec![(css.to_string(), 3), (CARD.to_string(), 9)],
                "{mode}: {receipt}"
            );
        },
    );
}

#[test]
fn strings_urls_enables_and_prose_in_stylesheets_are_not_directives_or_todos() {
    let scss = ".a::before { content: \"/* stylelint-disable */\"; }\n.b { background: url(//cdn.example.com/TODO.png); }\n.c { content: '// TODO'; }\n// we never use stylelint-disable here\n/* stylelint-enable */\n.d { color: red; } // a todo list of colours\n";
    let css = ".a::after { content: \"/* FIXME */\"; background: url(data:image/png;base64,TODO); }\n/* see the stylelint-disable docs */\n";
    both_ways(
        &[("README.md", "docs\n")],
        &writing(&[("scss/_a.scss", scss), ("public/a.css", css)]),
        &|code, receipt, mode| {
            lint_at(vec![])(code, receipt, mode);
            assert_eq!(lines_of(receipt, "new_todos"), vec![], "{mode}: {receipt}");
        },
    );
}

const GRID_OLD: &str = ".row {\n  // stylelint-disable-next-line property-disallowed-list\n  border-radius: 0;\n  margin: 0;\n}\n";

#[test]
fn a_next_line_stylelint_disable_turned_into_a_block_is_wider() {
    let new = ".row {\n  // stylelint-disable property-disallowed-list\n  border-radius: 0;\n  margin: 0;\n}\n";
    both_ways(
        &[("scss/_grid.scss", GRID_OLD)],
        &writing(&[("scss/_grid.scss", new)]),
        &lint_at(vec![("scss/_grid.scss", 2)]),
    );
}

#[test]
fn a_reworded_stylelint_disable_or_a_block_narrowed_to_lines_is_not_new() {
    let reworded = ".row {\n  // stylelint-disable-next-line property-disallowed-list -- legacy radius\n  border-radius: 0;\n  margin: 0;\n}\n";
    both_ways(
        &[("scss/_grid.scss", GRID_OLD)],
        &writing(&[("scss/_grid.scss", reworded)]),
        &lint_at(vec![]),
    );
    let block = ".row {\n  /* stylelint-disable declaration-no-important */\n  color: red !important;\n  margin: 0 !important;\n  /* stylelint-enable declaration-no-important */\n}\n";
    let lines = ".row {\n  color: red !important; // stylelint-disable-line declaration-no-important\n  margin: 0 !important; // stylelint-disable-line declaration-no-important\n}\n";
    both_ways(
        &[("scss/_row.scss", block)],
        &writing(&[("scss/_row.scss", lines)]),
        &lint_at(vec![]),
    );
}
