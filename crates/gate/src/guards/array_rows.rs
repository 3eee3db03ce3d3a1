//! A JavaScript table written as an array literal and run by `.forEach`: the test is
//! declared inside the callback, and its cases are the rows of the array above it.
//!
//! ```js
//! [
//!   ["ampersands", "&a&", "&#x26;a&#x26;"],
//!   ["double quotes", '"a"', "&#x22;a&#x22;"],
//! ].forEach(function ([label, input, expected]) {
//!   it(`replaces ${label}`, function () {
//!     expect(escape(input), "to be", expected);
//!   });
//! });
//! ```
//!
//! The test's own body names only the columns; what it checks is in the rows, so they
//! are read as part of it.

use super::line::indent;

/// The lines of the array literal whose `.forEach` callback declares the test whose naming
/// line is `all[head]`: from the line opening the array to the one calling `.forEach` on
/// it, both included. Empty when the test is not declared so (a plain `forEach` over a
/// named list holds no rows where the test is).
pub fn rows_above<'a>(all: &[&'a str], head: usize) -> Vec<&'a str> {
    let depth = indent(all[head]);
    // The callback's opening line: the nearest line above at a shallower depth.
    let Some(opener) = (0..head)
        .rev()
        .find(|&k| !all[k].trim().is_empty() && indent(all[k]) < depth)
    else {
        return Vec::new();
    };
    let call = all[opener].trim_start();
    if !call.contains("].forEach(") {
        return Vec::new();
    }
    // One line: `[1, 2].forEach((n) => {`.
    if call.starts_with('[') {
        return vec![all[opener]];
    }
    if !call.starts_with(']') {
        return Vec::new();
    }
    let at = indent(all[opener]);
    let start = (0..opener).rev().find(|&k| {
        let t = all[k].trim_start();
        indent(all[k]) == at && !t.is_empty()
    });
    match start {
        // The array opens on its own line (`[`) or after a call's bracket: the rows are
        // the lines between, indented deeper.
        Some(k) if all[k].trim_end().ends_with('[') => all[k..=opener].to_vec(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&str> {
        text.split('\n').collect()
    }

    #[test]
    fn the_rows_of_the_array_a_foreach_callback_declares_a_test_in() {
        let all = lines(
            "describe('x', () => {\n  [\n    ['a', 1],\n    ['b', 2],\n  ].forEach(([n, v]) => {\n    it(`works for ${n}`, () => {\n      expect(f(n)).toBe(v);\n    });\n  });\n});",
        );
        let rows = rows_above(&all, 5);
        assert_eq!(rows.len(), 4);
        assert!(rows[1].contains("'a', 1"));
    }

    #[test]
    fn a_one_line_array() {
        let all = lines("[1, 2].forEach((n) => {\n  it(`n ${n}`, () => {});\n});");
        assert_eq!(rows_above(&all, 1), vec!["[1, 2].forEach((n) => {"]);
    }

    #[test]
    fn a_named_list_or_a_describe_holds_no_rows() {
        let all = lines("cases.forEach((c) => {\n  it(c.name, () => {});\n});");
        assert!(rows_above(&all, 1).is_empty());
        let all = lines("describe('x', () => {\n  it('y', () => {});\n});");
        assert!(rows_above(&all, 1).is_empty());
    }
}
