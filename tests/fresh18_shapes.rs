//! Shapes from the fresh18 blind set (immer, irb, feign): test-unit's `omit`/`pend`, a Ruby
//! test file that returns at its top level, and a JS command-line script whose console
//! output is its report. Each with a lookalike that must stay as it was. Real
//! repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, no_debug_artifacts, no_new_skips, skips_at, writing};

const TEST_RB: &str = "test/test_history.rb";

const HISTORY_OLD: &str = "require 'test/unit'\n\nclass TestHistory < Test::Unit::TestCase\n  def setup\n    @dir = Dir.mktmpdir\n  end\n\n  def test_saves\n    assert_equal 1, save(@dir)\n  end\n\n  def test_loads\n    assert_equal 2, load(@dir)\n  end\nend\n";

#[test]
fn test_unit_omit_and_pend_are_skips() {
    // `omit` under a modifier in a test, `pend` in `setup` (every test of the class), and
    // `omit_if(cond)` as its own statement.
    let new = "require 'test/unit'\n\nclass TestHistory < Test::Unit::TestCase\n  def setup\n    pend 'set WITH_HISTORY to run' unless ENV['WITH_HISTORY']\n    @dir = Dir.mktmpdir\n  end\n\n  def test_saves\n    omit \"Windows-only\" unless windows?\n    assert_equal 1, save(@dir)\n  end\n\n  def test_loads\n    omit_if(RUBY_ENGINE == 'truffleruby', 'no fork')\n    assert_equal 2, load(@dir)\n  end\nend\n";
    both_ways(
        &[(TEST_RB, HISTORY_OLD)],
        &writing(&[(TEST_RB, new)]),
        &skips_at(&[(TEST_RB, 5), (TEST_RB, 10), (TEST_RB, 15)]),
    );
}

#[test]
fn omit_as_a_name_or_outside_tests_is_no_skip() {
    // A variable, a keyword argument, a method of that name defined or called on a
    // receiver, in a test file; and `omit` in library code, where it is an ordinary method.
    let new = "require 'test/unit'\n\nclass TestHistory < Test::Unit::TestCase\n  def setup\n    @dir = Dir.mktmpdir\n  end\n\n  def test_saves\n    omit = { pend: true }\n    assert_equal 1, save(@dir, omit: omit[:pend])\n    assert_equal({}, config.omit(:pend))\n  end\n\n  def omit_keys(h)\n    h\n  end\n\n  def test_loads\n    assert_equal 2, load(@dir)\n  end\nend\n";
    let lib_old = "module Config\n  def self.clean(h)\n    h\n  end\nend\n";
    let lib_new = "module Config\n  def self.clean(h)\n    omit :secret\n    h\n  end\nend\n";
    both_ways(
        &[(TEST_RB, HISTORY_OLD), ("lib/config.rb", lib_old)],
        &writing(&[(TEST_RB, new), ("lib/config.rb", lib_new)]),
        &no_new_skips,
    );
}

const SCOPE_RB: &str = "test/type_completion/test_scope.rb";
const SCOPE_OLD: &str = "# frozen_string_literal: true\n\nrequire 'test/unit'\n\nclass TestScope < Test::Unit::TestCase\n  def test_lvar\n    assert_equal 1, scope.lvar\n  end\nend\n";

#[test]
fn a_test_file_returning_at_its_top_skips_the_file() {
    let new = "# frozen_string_literal: true\n\nreturn unless ENV['WITH_TYPE_COMPLETION_TEST']\n\nrequire 'test/unit'\n\nclass TestScope < Test::Unit::TestCase\n  def test_lvar\n    assert_equal 1, scope.lvar\n  end\nend\n";
    both_ways(
        &[(SCOPE_RB, SCOPE_OLD)],
        &writing(&[(SCOPE_RB, new)]),
        &skips_at(&[(SCOPE_RB, 3)]),
    );
}

#[test]
fn returns_inside_methods_or_in_library_files_are_not_file_skips() {
    // An early return inside a helper of the test file (indented: it leaves the method),
    // and a top-level return in a library file (not a test file).
    let test_new = "# frozen_string_literal: true\n\nrequire 'test/unit'\n\nclass TestScope < Test::Unit::TestCase\n  def test_lvar\n    assert_equal 1, scope.lvar\n  end\n\n  def scope\n    return @scope if @scope\n    @scope = Scope.new\n  end\nend\n";
    let lib_old = "require 'prism'\n\nmodule Completion\nend\n";
    let lib_new = "return unless defined?(Prism)\n\nrequire 'prism'\n\nmodule Completion\nend\n";
    both_ways(
        &[(SCOPE_RB, SCOPE_OLD), ("lib/completion.rb", lib_old)],
        &writing(&[(SCOPE_RB, test_new), ("lib/completion.rb", lib_new)]),
        &no_new_skips,
    );
}

const REPORT: &str = "perf-testing/read-cpuprofile.js";
const LIB: &str = "src/args.js";

#[test]
fn a_script_reading_its_command_line_prints_its_report() {
    let old = "const fs = require('fs')\n\nfunction summarize(profile) {\n  return profile.nodes.length\n}\n";
    let new = "const fs = require('fs')\n\nconst file = process.argv[2]\nif (!file) {\n  console.error('Usage: node read-cpuprofile.js <file>')\n  process.exit(1)\n}\n\nfunction summarize(profile) {\n  return profile.nodes.length\n}\n\nconsole.log('Summary Statistics:')\nconsole.log(`Total samples: ${summarize(JSON.parse(fs.readFileSync(file)))}`)\n";
    both_ways(
        &[(REPORT, old)],
        &writing(&[(REPORT, new)]),
        &no_debug_artifacts,
    );
}

#[test]
fn a_module_that_reads_argv_and_exports_keeps_library_rules() {
    let old =
        "function parse() {\n  return process.argv.slice(2)\n}\n\nmodule.exports = { parse }\n";
    let new = "function parse() {\n  const args = process.argv.slice(2)\n  console.log(args)\n  return args\n}\n\nmodule.exports = { parse }\n";
    both_ways(
        &[(LIB, old)],
        &writing(&[(LIB, new)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(LIB.to_string(), 3)],
                "{mode}: {receipt}"
            );
        },
    );
}
