//! A directive quoted as code inside a comment is prose naming it (fresh16, black: `#
//! comment like \`# type: ignore\` follows would produce an unsplittable ..`): no tool reads a
//! directive that sits inside a sentence's code span. One written after a closed code span
//! is a directive and still fires. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const SRC: &str = "src/fmt/merge.py";
const BEFORE: &str = "def merge(parts):\n    return ''.join(parts)\n";
const EXPLAINED: &str = concat!(
    "def merge(parts):\n",
    "    # Merging strings when a pragma comment like `# type: ignore` follows\n",
    "    # would produce an unsplittable line.\n",
    "    return ''.join(parts)\n",
);
const SUPPRESSED: &str = concat!(
    "def merge(parts):\n",
    "    return ''.join(parts)  # see `join`  # type: ignore\n",
);

#[test]
fn a_directive_quoted_in_prose_is_not_one() {
    both_ways(
        &[(SRC, BEFORE)],
        &writing(&[(SRC, EXPLAINED)]),
        &lint_lines(vec![]),
    );
}

/// Lookalike: a real directive after a code span that closed.
#[test]
fn a_directive_after_a_closed_code_span_still_fires() {
    both_ways(
        &[(SRC, BEFORE)],
        &writing(&[(SRC, SUPPRESSED)]),
        &lint_lines(vec![(SRC, 2)]),
    );
}

const JS: &str = "src/request.js";
const JS_BEFORE: &str = "export function end(req) {\n  req.end();\n}\n";
const JS_EXPLAINED: &str = concat!(
    "export function end(req) {\n",
    "  // no `// eslint-disable-next-line` is needed here any more\n",
    "  req.end();\n",
    "}\n",
);

#[test]
fn the_same_holds_for_slash_comments() {
    both_ways(
        &[(JS, JS_BEFORE)],
        &writing(&[(JS, JS_EXPLAINED)]),
        &lint_lines(vec![]),
    );
}
