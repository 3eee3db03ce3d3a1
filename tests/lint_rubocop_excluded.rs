//! An inline `# rubocop:disable Cop` on code the cop did not read at the comparison point
//! is no new suppression: the file was in the cop's `Exclude` list (the entry removed by
//! the same change, so the file is checked again but for that line), or the line was moved
//! word for word out of such a file. The same directive in a file the cop did read, on a
//! line moved from a file excluded from another cop, or naming a second cop the file was not
//! excluded from, stays new. Real repositories, the real binary, judged uncommitted and
//! committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const TODO_YML: &str = "Performance/RedundantSplitRegexpArgument:\n  Exclude:\n    - 'lib/headers.rb'\n\nPerformance/StringInclude:\n  Exclude:\n    - 'spec/support/buffer.rb'\n";

const BUFFER: &str = "Buffer = Struct.new(:string) do\n  def gsub(regex)\n    string.gsub(regex) do\n      match, = Regexp.last_match(0), '' =~ /a/\n      yield(match)\n    end\n  end\nend\n";

fn without_string_include(yml: &str) -> String {
    yml.replace(
        "\nPerformance/StringInclude:\n  Exclude:\n    - 'spec/support/buffer.rb'\n",
        "",
    )
}

#[test]
fn a_files_exclusion_narrowed_to_its_one_line_is_not_new() {
    let disabled = BUFFER.replace("/a/\n", "/a/ # rubocop:disable Performance/StringInclude\n");
    let yml = without_string_include(TODO_YML);
    both_ways(
        &[
            (".rubocop_todo.yml", TODO_YML),
            ("spec/support/buffer.rb", BUFFER),
        ],
        &writing(&[
            (".rubocop_todo.yml", &yml),
            ("spec/support/buffer.rb", &disabled),
        ]),
        &lint_lines(vec![]),
    );
}

#[test]
fn the_same_directive_where_the_cop_read_the_file_is_new() {
    // The exclusion names another file; a second cop the file was not excluded from.
    let other = TODO_YML.replace("spec/support/buffer.rb", "spec/support/other.rb");
    let disabled = BUFFER.replace("/a/\n", "/a/ # rubocop:disable Performance/StringInclude\n");
    both_ways(
        &[
            (".rubocop_todo.yml", &other),
            ("spec/support/buffer.rb", BUFFER),
        ],
        &writing(&[("spec/support/buffer.rb", &disabled)]),
        &lint_lines(vec![("spec/support/buffer.rb", 4)]),
    );
    let two = BUFFER.replace(
        "/a/\n",
        "/a/ # rubocop:disable Performance/StringInclude, Style/GlobalVars\n",
    );
    both_ways(
        &[
            (".rubocop_todo.yml", TODO_YML),
            ("spec/support/buffer.rb", BUFFER),
        ],
        &writing(&[("spec/support/buffer.rb", &two)]),
        &lint_lines(vec![("spec/support/buffer.rb", 4)]),
    );
}

const RUBOCOP_YML: &str =
    "Style/GlobalVars:\n  Exclude:\n    - 'bin/tool'\n    - 'lib/tool/shell/basic.rb'\n";

const BASIC: &str = "class Basic\n  def print_table(rows)\n    old = $KCODE\n    $KCODE = \"U\"\n    rows.each { |r| puts r }\n  ensure\n    $KCODE = old\n  end\nend\n";

const PRINTER: &str = "class TablePrinter\n  def print(rows)\n    old = $KCODE # rubocop:disable Style/GlobalVars\n    $KCODE = \"U\" # rubocop:disable Style/GlobalVars\n    rows.each { |r| puts r }\n  ensure\n    $KCODE = old # rubocop:disable Style/GlobalVars\n  end\nend\n";

#[test]
fn lines_moved_out_of_an_excluded_file_with_their_directive_are_moved() {
    let basic =
        "class Basic\n  def print_table(rows)\n    TablePrinter.new.print(rows)\n  end\nend\n";
    both_ways(
        &[
            (".rubocop.yml", RUBOCOP_YML),
            ("lib/tool/shell/basic.rb", BASIC),
        ],
        &writing(&[
            ("lib/tool/shell/basic.rb", basic),
            ("lib/tool/shell/table_printer.rb", PRINTER),
        ]),
        &lint_lines(vec![]),
    );
}

#[test]
fn lines_moved_out_of_a_file_excluded_from_another_cop_are_new() {
    let yml = RUBOCOP_YML.replace("Style/GlobalVars", "Style/Documentation");
    let basic =
        "class Basic\n  def print_table(rows)\n    TablePrinter.new.print(rows)\n  end\nend\n";
    both_ways(
        &[(".rubocop.yml", &yml), ("lib/tool/shell/basic.rb", BASIC)],
        &writing(&[
            ("lib/tool/shell/basic.rb", basic),
            ("lib/tool/shell/table_printer.rb", PRINTER),
        ]),
        &lint_lines(vec![
            ("lib/tool/shell/table_printer.rb", 3),
            ("lib/tool/shell/table_printer.rb", 4),
            ("lib/tool/shell/table_printer.rb", 7),
        ]),
    );
}
