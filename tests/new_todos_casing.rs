//! `new_todos` reads the marker in any case where a comment opens with it and goes straight
//! on to an owner or a colon (`# todo(ana): remove this`, `// Fixme: racy`): casing is the
//! author's habit, the shape is the marker's. Lower case anywhere else in a comment (`the
//! todo list`) stays prose. Real repositories, the real binary, judged uncommitted and
//! committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const LIB: &str = "lib/parse_context.rb";
const OLD: &str = "module Liquid\n  class ParseContext\n    def parse_expression(markup)\n      Expression.parse(markup)\n    end\n  end\nend\n";

#[test]
fn a_lower_case_marker_opening_a_comment_is_unfinished_work() {
    let new = "module Liquid\n  class ParseContext\n    def parse_expression(markup)\n      # todo(guilherme): remove this once rigid mode is fully using safe_parse_expression\n      Expression.parse(markup)\n    end\n  end\nend\n";
    let js = "src/hooks.js";
    let js_new = "export function validate(hook) {\n  // Fixme: hook names are not checked yet\n  return hook;\n}\n";
    both_ways(
        &[(LIB, OLD), (js, "export {};\n")],
        &writing(&[(LIB, new), (js, js_new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "new_todos"),
                vec![(LIB.to_string(), 4), (js.to_string(), 2)],
                "{mode}: {receipt}"
            );
            // A warning by default: reported, the exit code unchanged.
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn the_word_in_prose_or_a_marker_recased_in_place_is_not() {
    let prose = "module Liquid\n  class ParseContext\n    # todo list: one entry per pending tag\n    # keeps the todos (see below) in order\n    def parse_expression(markup)\n      Expression.parse(markup)\n    end\n  end\nend\n";
    let marked = "module Liquid\n  class ParseContext\n    # TODO: drop the lax parser\n    def parse_expression(markup)\n      Expression.parse(markup)\n    end\n  end\nend\n";
    let recased = marked.replace("# TODO: drop", "# todo: drop");
    let other = "lib/other.rb";
    both_ways(
        &[(LIB, OLD), (other, marked)],
        &writing(&[(LIB, prose), (other, &recased)]),
        &|_, receipt, mode| {
            assert_eq!(lines_of(receipt, "new_todos"), vec![], "{mode}: {receipt}");
        },
    );
}
