//! `deleted_tests` and tests removed where other tests came in, hiding the loss: a test
//! file rewritten whole under new names around other code, a deleted test file whose
//! dotted name shares only its first part with a new one (`help.wrap.test.js` and
//! `help.boxWrap.test.js` are about different things), and tests declared on their
//! annotation's line (`@Test public void x() {`) whose first statement is alike in every
//! test (`class Example {`). Each lookalike is a real rewrite, replacement or edit and
//! stays quiet. Each case is judged uncommitted (against HEAD) and committed (`--against
//! HEAD^`). Real repositories, the real binary.

mod gitrepo;

use gitrepo::{assert_no_deleted_tests, assert_one_deleted, both_ways, writing, Repo};

/// A Ruby test file whose three tests each exercise a method of their own.
const COUNTER_BEFORE: &str = "require 'test_helper'

class TestCpuCounter < Minitest::Test
  def setup
    @cpu_counter = CpuCounter.new
  end

  def test_count_via_win32
    if Win32.windows? then
      assert_kind_of Numeric, @cpu_counter.count_via_win32
    else
      assert_nil @cpu_counter.count_via_win32
    end
  end

  def test_in_path_command
    with_ruby_in_path do |ruby|
      assert_equal ruby, @cpu_counter.in_path_command(ruby)
    end
  end

  def test_run
    with_ruby_in_path do |ruby|
      assert_equal 7, @cpu_counter.run(ruby, '-e', 'puts 3 + 4')
    end
  end
end
";

/// The file rewritten whole: four new tests of `count`, none of which holds
/// `count_via_win32`, `in_path_command` or `run`.
const COUNTER_REWRITTEN: &str = "require 'test_helper'

class TestCpuCounter < Minitest::Test
  def setup
    @cpu_counter = CpuCounter.new
  end

  def test_count
    num = @cpu_counter.count
    assert_kind_of Numeric, num
    assert_operator num, :>=, 1
  end

  def test_count_with_default_nil
    def @cpu_counter.count; nil; end
    assert_equal(8, @cpu_counter.count_with_default(8))
    assert_equal(4, @cpu_counter.count_with_default)
  end

  def test_count_with_default_raise
    def @cpu_counter.count; raise; end
    assert_equal(8, @cpu_counter.count_with_default(8))
    assert_equal(4, @cpu_counter.count_with_default)
  end

  def test_count_is_cached
    first = @cpu_counter.count
    assert_equal first, @cpu_counter.count
  end
end
";

/// The same file rewritten whole, its three tests renamed and reworded (their own words
/// kept), one new test beside them.
const COUNTER_RENAMED: &str = "require 'test_helper'

class TestCpuCounter < Minitest::Test
  def setup
    @cpu_counter = CpuCounter.new
  end

  def test_counts_through_win32
    if Win32.windows? then
      assert_kind_of(Numeric, @cpu_counter.count_via_win32)
    else
      assert_nil(@cpu_counter.count_via_win32)
    end
  end

  def test_finds_a_command_in_path
    with_ruby_in_path do |ruby|
      assert_equal(ruby, @cpu_counter.in_path_command(ruby))
    end
  end

  def test_runs_a_command
    with_ruby_in_path do |ruby|
      assert_equal(7, @cpu_counter.run(ruby, '-e', 'puts 3 + 4'))
    end
  end

  def test_count
    num = @cpu_counter.count
    assert_operator num, :>=, 1
  end
end
";

#[test]
fn a_file_rewritten_whole_whose_old_tests_left_their_words_nowhere_lost_them() {
    both_ways(
        &[("test/test_cpu_counter.rb", COUNTER_BEFORE)],
        &writing(&[("test/test_cpu_counter.rb", COUNTER_REWRITTEN)]),
        &assert_one_deleted(
            "test/test_cpu_counter.rb",
            "went from 3 to 4, but `def test_count_via_win32`, `def test_in_path_command`, `def test_run` were removed",
        ),
    );
}

#[test]
fn a_file_rewritten_whole_whose_tests_kept_their_words_under_new_names_lost_nothing() {
    both_ways(
        &[("test/test_cpu_counter.rb", COUNTER_BEFORE)],
        &writing(&[("test/test_cpu_counter.rb", COUNTER_RENAMED)]),
        &assert_no_deleted_tests,
    );
}

/// The file rewritten whole with one old test carried over under a new name, its body
/// kept line for line: a rewrite, judged by its count (three before, four now).
const COUNTER_CARRIED_OVER: &str = "require 'test_helper'

class TestCpuCounter < Minitest::Test
  def setup
    @cpu_counter = CpuCounter.new
  end

  def test_counts_through_win32
    if Win32.windows? then
      assert_kind_of Numeric, @cpu_counter.count_via_win32
    else
      assert_nil @cpu_counter.count_via_win32
    end
  end

  def test_count
    num = @cpu_counter.count
    assert_operator num, :>=, 1
  end

  def test_count_with_default_nil
    def @cpu_counter.count; nil; end
    assert_equal(4, @cpu_counter.count_with_default)
  end

  def test_count_with_default_raise
    def @cpu_counter.count; raise; end
    assert_equal(4, @cpu_counter.count_with_default)
  end
end
";

#[test]
fn a_file_rewritten_whole_where_a_test_carried_its_body_over_is_judged_by_its_count() {
    both_ways(
        &[("test/test_cpu_counter.rb", COUNTER_BEFORE)],
        &writing(&[("test/test_cpu_counter.rb", COUNTER_CARRIED_OVER)]),
        &assert_no_deleted_tests,
    );
}

const WRAP_TESTS: &str = "const { Help } = require('../');

test('when string fits then returns input', () => {
  const helper = new Help();
  expect(helper.wrap('a b c', 50, 3)).toEqual('a b c');
});

test('when string too long then wraps', () => {
  const helper = new Help();
  expect(helper.wrap('a b c d e f', 6, 3)).toEqual('a b c\\nd e f');
});
";

/// Tests of the new `boxWrap()`, in a file git cannot take for the old one renamed.
const BOX_WRAP_TESTS: &str = "const { Help } = require('../lib/help.js');
const { stripVTControlCharacters } = require('node:util');

describe('boxWrap', () => {
  test('ignores colour codes when measuring', () => {
    const text = colour('bold') + ' words here';
    const lines = new Help().boxWrap(text, 10).split(EOL);
    expect(lines.every((l) => stripVTControlCharacters(l).length <= 10)).toBe(true);
  });

  test('keeps a word longer than the width whole', () => {
    expect(new Help().boxWrap('abcdefghijkl', 5)).toBe('abcdefghijkl');
  });

  test('preserves manual line breaks', () => {
    expect(new Help().boxWrap(['one', 'two'].join(EOL), 80)).toBe(['one', 'two'].join(EOL));
  });
});
";

const PACKAGE_JSON: &str = "{ \"name\": \"cli\", \"scripts\": { \"test\": \"jest\" } }\n";

fn help_project() -> Vec<(&'static str, &'static str)> {
    vec![
        ("package.json", PACKAGE_JSON),
        ("tests/help.wrap.test.js", WRAP_TESTS),
    ]
}

fn replace_wrap_tests_with(path: &'static str) -> impl Fn(&Repo) {
    move |r| {
        r.remove("tests/help.wrap.test.js");
        r.write(path, BOX_WRAP_TESTS);
    }
}

#[test]
fn a_deleted_test_file_is_not_replaced_by_one_that_shares_only_the_first_part_of_its_name() {
    both_ways(
        &help_project(),
        &replace_wrap_tests_with("tests/help.boxWrap.test.js"),
        &assert_one_deleted(
            "tests/help.wrap.test.js",
            "test file `tests/help.wrap.test.js` was deleted with 2 tests",
        ),
    );
}

#[test]
fn a_deleted_test_file_is_replaced_by_one_about_the_same_thing_under_another_runner_affix() {
    both_ways(
        &help_project(),
        &replace_wrap_tests_with("tests/help.wrap.spec.js"),
        &assert_no_deleted_tests,
    );
}

/// A JUnit test declared on its annotation's line, its body opening with a local class
/// (`@Test public void x() {` then `class Example {`), as Retrofit writes them.
fn request_test(name: &str, returns: &str, path: &str, check: &str) -> String {
    format!(
        "  @Test public void {name}() {{
    class Example {{
      @GET(\"{path}\") //
      {returns} method() {{
        return null;
      }}
    }}
    {check}
  }}

"
    )
}

fn request_builder_test(returns: &str, with_removed: bool) -> String {
    let mut tests = vec![
        request_test(
            "get",
            returns,
            "/foo/bar/",
            "Request request = buildRequest(Example.class);\n    assertThat(request.method()).isEqualTo(\"GET\");",
        ),
        request_test(
            "getWithPath",
            returns,
            "/foo/bar/{ping}/",
            "Request request = buildRequest(Example.class, \"po ng\");\n    assertThat(request.urlString()).isEqualTo(\"http://example.com/foo/bar/po%20ng/\");",
        ),
    ];
    if with_removed {
        tests.push(request_test(
            "streamingResponseNotAllowed",
            "String",
            "/foo",
            "try {\n      buildRequest(Example.class);\n      fail();\n    } catch (IllegalArgumentException e) {\n      assertThat(e).hasMessage(\"Only Response may be streamed.\");\n    }",
        ));
    }
    tests.push(request_test(
        "getWithQuery",
        returns,
        "/foo/bar/?hi=mom",
        "Request request = buildRequest(Example.class);\n    assertThat(request.urlString()).isEqualTo(\"http://example.com/foo/bar/?hi=mom\");",
    ));
    format!(
        "package retrofit;\n\nimport org.junit.Test;\n\npublic final class RequestBuilderTest {{\n{}}}\n",
        tests.concat()
    )
}

const REQUEST_BUILDER_TEST: &str = "src/test/java/retrofit/RequestBuilderTest.java";

#[test]
fn a_test_removed_beside_edits_of_tests_declared_on_their_annotations_line_is_deleted() {
    let before = request_builder_test("Response", true);
    let after = request_builder_test("Call<Object>", false);
    both_ways(
        &[(REQUEST_BUILDER_TEST, &before)],
        &writing(&[(REQUEST_BUILDER_TEST, &after)]),
        &assert_one_deleted(
            REQUEST_BUILDER_TEST,
            "tests in `src/test/java/retrofit/RequestBuilderTest.java` dropped from 4 to 3: restore",
        ),
    );
}

#[test]
fn tests_declared_on_their_annotations_line_and_only_edited_are_all_kept() {
    let before = request_builder_test("Response", true);
    let after = request_builder_test("Call<Object>", true);
    both_ways(
        &[(REQUEST_BUILDER_TEST, &before)],
        &writing(&[(REQUEST_BUILDER_TEST, &after)]),
        &assert_no_deleted_tests,
    );
}
