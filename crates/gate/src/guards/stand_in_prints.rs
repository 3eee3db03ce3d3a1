//! A print put where an error was raised: the `raise` commented out just above it.
//!
//! Commenting out a `raise` (`throw`, `panic(`) and printing instead is how one watches,
//! while developing, for the cases that would have failed without stopping the run: the
//! print stands in for the error until the work is done, and reports to nobody once it
//! ships (a library's real notice goes through its warning or logging channel, and the
//! error it replaced is either back or deleted). A print under any other comment, or after
//! a `raise` that still runs, is not one.

/// The words that open a statement raising an error, as the first word of a comment.
const RAISES: &[&str] = &["raise", "throw", "panic", "fail"];

/// Whether the nearest non-blank line above line `number` (1-based) of `lines` is a
/// comment holding only a statement that raises an error (`# raise Error, "..."`,
/// `// throw new Error(..)`, `// panic("..")`): the print on line `number` stands in for it.
pub fn replaces_commented_raise(lines: &[&str], number: usize) -> bool {
    let before = lines.get(..number.saturating_sub(1)).unwrap_or(&[]);
    let Some(above) = before
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
    else {
        return false;
    };
    let Some(body) = ["#", "//", "--"]
        .iter()
        .find_map(|c| above.strip_prefix(c))
        .map(str::trim_start)
    else {
        return false;
    };
    let word: String = body
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let rest = &body[word.len()..];
    // `raise Error`, `throw new X(`, `panic("..")`: the keyword followed by what is raised,
    // not prose that starts with the word (`# raise the limit when ...` has no value).
    RAISES.contains(&word.as_str())
        && (rest.starts_with([' ', '(']) && raised_value(rest.trim_start_matches([' ', '('])))
}

/// Whether text after a raising keyword starts like the value it raises: a class or
/// constructor (`Liquid::InternalError`, `new Error(`, `ValueError(`) or a message string.
/// A lower-case word reads as prose as often as a variable, so it does not count.
fn raised_value(rest: &str) -> bool {
    let first = rest.split([' ', ',', '(']).next().unwrap_or("");
    first == "new"
        || first.starts_with(['"', '\'', '`'])
        || first.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stands_in(text: &str) -> bool {
        let lines: Vec<&str> = text.lines().collect();
        replaces_commented_raise(&lines, lines.len())
    }

    #[test]
    fn a_print_under_a_commented_out_raise_stands_in_for_it() {
        assert!(stands_in(
            "def f\n  # raise Liquid::InternalError, \"not supported\" if rigid\n  puts(\"used in rigid mode\") if rigid"
        ));
        assert!(stands_in(
            "function f() {\n  // throw new Error('unreachable');\n\n  console.error('unreachable');"
        ));
        assert!(stands_in(
            "\t// panic(\"bad state\")\n\tprintln(\"bad state\")"
        ));
        assert!(stands_in("    # raise ValueError(msg)\n    print(msg)"));
    }

    #[test]
    fn other_comments_and_live_raises_are_not() {
        assert!(!stands_in(
            "# raise the limit when the cache is warm\nputs(limit)"
        ));
        assert!(!stands_in("# print the usage\nputs(USAGE)"));
        assert!(!stands_in("raise Error, \"x\" if bad\nputs(\"x\")"));
        assert!(!stands_in("puts(\"x\")"));
        assert!(!stands_in(
            "// throwing here would lose the batch\nconsole.error(err)"
        ));
    }
}
