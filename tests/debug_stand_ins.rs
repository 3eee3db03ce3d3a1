//! `debug_artifacts` rules read around a print (docs/guards.md, `debug_artifacts`):
//! a print put where a `raise` was commented out; a banner printed inside a test; a
//! Python value dumped in library code; and, the other way, a function whose whole work is
//! the print of what it is given (a logging or timing helper), which is no leftover.
//! Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

/// The `debug_artifacts` lines of the change, judged uncommitted and committed.
fn debug_lines(old: &[(&str, &str)], new: &[(&str, &str)]) -> Vec<Vec<(String, u64)>> {
    let seen = std::cell::RefCell::new(Vec::new());
    both_ways(old, &writing(new), &|_, receipt, _| {
        seen.borrow_mut().push(lines_of(receipt, "debug_artifacts"));
    });
    let seen = seen.into_inner();
    assert_eq!(seen.len(), 2);
    seen
}

const RB: &str = "lib/liquid/parse_context.rb";
const RB_OLD: &str = "module Liquid\n  class ParseContext\n    def parse_expression(markup)\n      Expression.parse(markup)\n    end\n  end\nend\n";

#[test]
fn a_print_in_place_of_a_commented_out_raise_is_a_finding() {
    let new = "module Liquid\n  class ParseContext\n    def parse_expression(markup)\n      # todo: remove once rigid mode is done\n      # raise Liquid::InternalError, \"not supported in rigid mode\" if @error_mode == :rigid\n      puts(\"parse_expression used in rigid mode\") if @error_mode == :rigid\n\n      Expression.parse(markup)\n    end\n  end\nend\n";
    for found in debug_lines(&[(RB, RB_OLD)], &[(RB, new)]) {
        assert_eq!(found, vec![(RB.to_string(), 6)]);
    }
}

#[test]
fn a_print_under_another_comment_or_a_live_raise_is_not() {
    let new = "module Liquid\n  class ParseContext\n    def parse_expression(markup)\n      # raise the limit once the cache is warm\n      puts(\"parse_expression used\") if @verbose\n      raise Liquid::InternalError, \"rigid\" if @error_mode == :rigid\n      puts(\"rigid\")\n      Expression.parse(markup)\n    end\n  end\nend\n";
    for found in debug_lines(&[(RB, RB_OLD)], &[(RB, new)]) {
        assert_eq!(found, vec![]);
    }
}

const SPEC: &str = "test/integration/options/watch.spec.js";
const SPEC_OLD: &str = "describe('watch', function () {\n  it('reruns', async function () {\n    await run();\n  });\n});\n";

#[test]
fn a_banner_printed_in_a_test_is_a_finding() {
    let new = "describe('watch', function () {\n  for (const event of ['add', 'change']) {\n    it(`${event} events`, async function () {\n      console.error(\n        `\\n***** reruns once if file events occur after test run (${event}) *****\\n`,\n      );\n      await run();\n    });\n  }\n  it('reruns', async function () {\n    await run();\n  });\n});\n";
    for found in debug_lines(&[(SPEC, SPEC_OLD)], &[(SPEC, new)]) {
        assert_eq!(found, vec![(SPEC.to_string(), 4)]);
    }
}

#[test]
fn a_message_in_a_test_or_a_banner_a_script_prints_is_not() {
    let new = "describe('watch', function () {\n  it('reruns', async function () {\n    console.error('*** slow filesystem, retrying', attempt);\n    console.log('skipping on windows');\n    await run();\n  });\n});\n";
    let script = "scripts/validate-links.js";
    let script_new =
        "const r = check();\nconsole.log('========== SUMMARY ==========');\nconsole.log(r);\n";
    for found in debug_lines(
        &[(SPEC, SPEC_OLD), (script, "const r = check();\n")],
        &[(SPEC, new), (script, script_new)],
    ) {
        assert_eq!(found, vec![]);
    }
}

const HOOK: &str = "docs/plugins/main.py";
const HOOK_OLD: &str =
    "import re\n\n\ndef on_page_markdown(markdown, page, config, files):\n    return markdown\n";

#[test]
fn a_python_value_dumped_in_library_code_is_a_finding() {
    let new = "import re\n\n\ndef on_page_markdown(markdown, page, config, files):\n    print(page.file.src_uri)\n    if page.file.src_uri != \"index.md\":\n        return markdown\n    return re.sub(\"x\", \"y\", markdown)\n";
    for found in debug_lines(&[(HOOK, HOOK_OLD)], &[(HOOK, new)]) {
        assert_eq!(found, vec![(HOOK.to_string(), 5)]);
    }
}

#[test]
fn python_prints_that_say_something_or_belong_to_a_program_are_not() {
    let new = "import re, sys\n\n\ndef on_page_markdown(markdown, page, config, files):\n    print(\"rendering\", page.file.src_uri)\n    print(page.title, file=sys.stderr)\n    print(f\"{page.title}\")\n    return markdown\n";
    let program = "src/tool/report.py";
    let program_old = "def main(rows):\n    return rows\n";
    let program_new = "def main(rows):\n    print(rows)\n    return rows\n\n\nif __name__ == \"__main__\":\n    main([])\n";
    let test = "tests/test_render.py";
    let test_new =
        "def test_render():\n    result = render()\n    print(result)\n    assert result\n";
    for found in debug_lines(
        &[
            (HOOK, HOOK_OLD),
            (program, program_old),
            (test, "def test_render():\n    assert render()\n"),
        ],
        &[(HOOK, new), (program, program_new), (test, test_new)],
    ) {
        assert_eq!(found, vec![]);
    }
}

const LIB: &str = "src/charts/common.js";
const LIB_OLD: &str =
    "var RGraph = {};\n\nRGraph.Clear = function (canvas)\n{\n    canvas.clear();\n}\n";

#[test]
fn a_function_whose_whole_work_is_printing_what_it_is_given_is_not_a_finding() {
    let new = "var RGraph = {};\n\nRGraph.Clear = function (canvas)\n{\n    canvas.clear();\n}\n\n/**\n* A crude timing function\n*/\nRGraph.Timer = function (label)\n{\n    var d = new Date();\n\n    // This uses the console\n    console.log(label + ': ' + d.getSeconds() + '.' + d.getMilliseconds());\n}\n";
    for found in debug_lines(&[(LIB, LIB_OLD)], &[(LIB, new)]) {
        assert_eq!(found, vec![]);
    }
}

#[test]
fn a_print_among_a_functions_other_work_is_still_a_finding() {
    let new = "var RGraph = {};\n\nRGraph.Clear = function (canvas)\n{\n    canvas.clear();\n    console.log(canvas);\n}\n\nRGraph.Timer = function (label)\n{\n    var d = new Date();\n    console.log(label + ': ' + d.getSeconds());\n    return d;\n}\n";
    for found in debug_lines(&[(LIB, LIB_OLD)], &[(LIB, new)]) {
        assert_eq!(found, vec![(LIB.to_string(), 6), (LIB.to_string(), 12)]);
    }
}
