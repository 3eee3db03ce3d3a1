//! Counting tests and skip markers in a whole file. Counted on code only: commenting a
//! test out lowers the count, which is what `deleted_tests` wants to see.

use super::languages::Lang;
use super::lexer::{lex, LineView};
use super::line::LineCtx;
use super::rust_tests::{self, MacroBlocks, TestMacros};
use super::tokens::Tok;
use super::{js_tests, jvm_tests, skip_helpers, skips, TestCounts};

#[cfg(test)]
pub fn count(lang: Lang, text: &str, is_test: bool) -> TestCounts {
    count_with(lang, text, is_test, &TestMacros::default())
}

pub fn count_with(lang: Lang, text: &str, is_test: bool, macros: &TestMacros) -> TestCounts {
    count_views(
        lang,
        &lex(&lang.syntax(), text, usize::MAX),
        text,
        is_test,
        macros,
    )
}

/// The same over a file already lexed whole (`views`, of `text`).
pub fn count_views(
    lang: Lang,
    views: &[LineView],
    text: &str,
    is_test: bool,
    macros: &TestMacros,
) -> TestCounts {
    let mut counts = TestCounts::default();
    let junit3 = junit3_suite(lang, views, is_test);
    let mut blocks = MacroBlocks::default();
    let mut jvm = jvm_tests::Blocks::default();
    let is_jvm_test = |name: &str| macros.is_jvm_test(name);
    let mut annotated = false;
    let helpers = skip_helpers::of_views(lang, views, is_test);
    let options_off = skips::js_options_off(lang, views);
    let js_adjust = match lang {
        Lang::Js => js_tests::adjustments(views, text, is_test, js_test_calls),
        _ => Vec::new(),
    };
    for (at, view) in views.iter().enumerate() {
        if view.code.trim().is_empty() {
            // Markers written as comments (a PHPUnit `@requires`, a doc example's
            // ```` ```ignore ```` fence) are counted where the scan of a change finds them.
            if !view.comments.is_empty() {
                let cx = LineCtx::new(lang, view, is_test);
                counts.skips = counts.skips.saturating_add(skips::find(&cx).len() as u32);
            }
            continue;
        }
        let mut cx = LineCtx::new(lang, view, is_test);
        cx.skip_helpers = &helpers;
        cx.options_off = &options_off;
        let mut tests = match lang {
            Lang::Rust => {
                let attrs = rust_tests::attribute_tests(&cx, macros);
                attrs.saturating_add(blocks.line(&cx, macros, attrs))
            }
            Lang::Java | Lang::Kotlin => jvm.tests(&cx, &is_jvm_test),
            _ => tests_on_line(&cx),
        };
        if lang == Lang::Go && go_example(&cx) > 0 && !go_example_runs(views, at) {
            tests = tests.saturating_sub(1);
        }
        if junit3 {
            // A method already counted by its `@Test` is not counted again by its name.
            if tests > 0 {
                annotated = junit3_method(&cx) == 0;
            } else if cx.ident(0).is_some() && cx.toks.contains(&Tok::Punct('(')) {
                if !annotated {
                    tests = junit3_method(&cx);
                }
                annotated = false;
            }
        }
        let adjusted = i64::from(tests) + i64::from(js_adjust.get(at).copied().unwrap_or(0));
        counts.tests = counts.tests.saturating_add(adjusted.max(0) as u32);
        counts.skips = counts.skips.saturating_add(skips::find(&cx).len() as u32);
    }
    counts.tests = counts.tests.saturating_add(jvm.finish());
    counts
}

/// Whether the file's `public void testX()` methods are JUnit 3 tests: a class in it extends
/// `TestCase` (see [`extends_test_case`]), or it is a test file whose class extends some
/// base (a suite's own base, itself a `TestCase` in another file) and that declares no test
/// the JUnit 4/5 way at all, since JUnit 4/5 classes would run only annotated methods.
pub(super) fn junit3_suite(lang: Lang, views: &[LineView], is_test: bool) -> bool {
    if lang != Lang::Java {
        return false;
    }
    if extends_test_case(lang, views) {
        return true;
    }
    is_test
        && class_extends(lang, views)
        && !views
            .iter()
            .filter(|v| v.code.contains('@'))
            .any(|v| tests_on_line(&LineCtx::new(lang, v, is_test)) > 0)
}

/// Whether a `class Name ... extends Base` declaration is in the file (the header may run
/// over a few lines; `extends` inside `<...>` bounds a type parameter, not the class).
fn class_extends(lang: Lang, views: &[LineView]) -> bool {
    const HEADER_LINES: usize = 4;
    let code: Vec<&LineView> = views.iter().filter(|v| !v.code.trim().is_empty()).collect();
    (0..code.len()).any(|at| {
        let first = LineCtx::new(lang, code[at], false);
        let Some(class) = (0..first.toks.len())
            .find(|&i| first.ident(i) == Some("class") && first.ident(i + 1).is_some())
        else {
            return false;
        };
        let mut depth = 0i32;
        let mut skip = class + 2;
        for view in code.iter().skip(at).take(HEADER_LINES) {
            let cx = LineCtx::new(lang, view, false);
            for i in std::mem::take(&mut skip)..cx.toks.len() {
                match cx.tok(i) {
                    Some(Tok::Punct('<')) => depth += 1,
                    Some(Tok::Punct('>')) => depth -= 1,
                    Some(Tok::Punct('{' | ';')) => return false,
                    Some(Tok::Ident("extends")) if depth <= 0 => return true,
                    _ => {}
                }
            }
        }
        false
    })
}

/// Whether a class in the file extends JUnit 3's `TestCase` (or a `...TestCase` base of
/// it, as JUnit 3 suites conventionally name their own bases).
fn extends_test_case(lang: Lang, views: &[LineView]) -> bool {
    views
        .iter()
        .filter(|v| v.code.contains("extends"))
        .any(|v| {
            let cx = LineCtx::new(lang, v, false);
            cx.chains.iter().any(|ch| {
                ch.last().ends_with("TestCase")
                    && ch.start > 0
                    && cx.ident(ch.start - 1) == Some("extends")
            })
        })
}

/// JUnit 3 runs every `public void testX()` of a `TestCase` subclass: public, not
/// static, returning nothing, taking nothing.
pub(super) fn junit3_method(cx: &LineCtx) -> u32 {
    let Some(at) = (0..cx.toks.len()).find(|&i| {
        cx.ident(i) == Some("void")
            && cx.ident(i + 1).is_some_and(|n| n.starts_with("test"))
            && cx.punct(i + 2, '(')
            && cx.punct(i + 3, ')')
    }) else {
        return 0;
    };
    let modifiers: Vec<&str> = (0..at).filter_map(|i| cx.ident(i)).collect();
    u32::from(modifiers.contains(&"public") && !modifiers.contains(&"static"))
}

/// [`tests_on_line`], with the JVM test annotations the change declares (`macros`, see
/// [`jvm_tests`]) counted on Java/Kotlin lines too.
pub fn tests_on_line_with(cx: &LineCtx, macros: &TestMacros) -> u32 {
    match cx.lang {
        Lang::Java | Lang::Kotlin if macros.has_jvm_tests() => {
            let n = cx
                .chains
                .iter()
                .filter(|ch| {
                    ch.before(&cx.toks) == Some(Tok::Punct('@')) && macros.is_jvm_test(ch.last())
                })
                .count();
            n as u32
        }
        _ => tests_on_line(cx),
    }
}

/// `def test_x`, `func TestX(`, `fn ... ` after `#[test]` and so on: how many tests this
/// line declares.
pub fn tests_on_line(cx: &LineCtx) -> u32 {
    match cx.lang {
        Lang::Js => js(cx),
        Lang::Python => named_def(cx, &["def"], "test", 0).max(named_def(cx, &["def"], "test", 1)),
        Lang::Go => go(cx),
        Lang::Rust => rust_tests::attribute_tests(cx, &TestMacros::default()),
        Lang::Java | Lang::Kotlin => annotations(cx, jvm_tests::BUILTIN),
        Lang::Ruby => ruby(cx),
        Lang::Elixir => u32::from(
            matches!(cx.ident(0), Some("test" | "property"))
                && matches!(cx.tok(1), Some(Tok::Str) | Some(Tok::Punct('('))),
        ),
        Lang::CSharp => csharp(cx),
        Lang::Php => php(cx),
        Lang::Swift => named_any(cx, "func", "test") + annotations(cx, &["Test"]),
        Lang::C => c(cx),
        Lang::Shell | Lang::Css | Lang::Scss | Lang::Erlang | Lang::Data | Lang::Jsonc => 0,
    }
}

const JS_HEADS: &[&str] = &["it", "test", "specify", "xit", "xtest", "fit", "xspecify"];

fn js(cx: &LineCtx) -> u32 {
    js_test_calls(cx).len() as u32 + conditional_test_calls(cx, JS_HEADS)
}

/// The token index of the `(` of each test call written on the line (`it(`, `test.skip(`).
pub(super) fn js_test_calls(cx: &LineCtx) -> Vec<usize> {
    cx.chains
        .iter()
        .filter(|ch| {
            JS_HEADS.contains(&ch.head())
                && ch.free(&cx.toks)
                && ch.called(&cx.toks)
                && !matches!(ch.before(&cx.toks), Some(Tok::Ident("function")))
                && ch.names[1..].iter().all(|n| js_test_modifier(n))
        })
        .map(|ch| ch.end)
        .collect()
}

/// Whether the chain names a test function, as a value or called: `it`, `test.skip`,
/// `test.concurrent` (not a method of something so named). Whether it stands free is the
/// caller's to say.
pub(super) fn js_test_function(ch: &super::tokens::Chain) -> bool {
    JS_HEADS.contains(&ch.head()) && ch.names[1..].iter().all(|n| js_test_modifier(n))
}

/// `(cond ? it.skip : it)('name', fn)`: a test function chosen by a condition, then called.
/// Counted once, at the branch after `:` that closes the parenthesis.
fn conditional_test_calls(cx: &LineCtx, heads: &[&str]) -> u32 {
    let chosen = |ch: &&super::tokens::Chain| {
        heads.contains(&ch.head())
            && ch.names[1..].iter().all(|n| js_test_modifier(n))
            && ch.before(&cx.toks) == Some(Tok::Punct(':'))
            && ch.after(&cx.toks) == Some(Tok::Punct(')'))
            && cx.punct(ch.end + 1, '(')
    };
    let conditional = |ch: &super::tokens::Chain| {
        let mut depth = 0usize;
        for i in (0..ch.start).rev() {
            match cx.toks[i] {
                Tok::Punct(')' | ']' | '}') => depth += 1,
                Tok::Punct('(') if depth == 0 => return false,
                Tok::Punct('(' | '[' | '{') => depth -= 1,
                Tok::Punct('?') if depth == 0 => return true,
                _ => {}
            }
        }
        false
    };
    cx.chains
        .iter()
        .filter(chosen)
        .filter(|ch| conditional(ch))
        .count() as u32
}

/// What may follow a test function's name and still declare a test: the skip and focus
/// variants, tables and runner modes (`it.skip.each(...)`, `test.concurrent(...)`,
/// Vitest's `test.for(...)`, fast-check's `test.prop(...)`, `@effect/vitest`'s
/// `it.effect(...)`).
/// Anything else is a method of something named like one: nodeunit's `test.equal(...)`
/// and `test.done()` on the callback's `test` parameter, Playwright's `test.step(...)`.
fn js_test_modifier(name: &str) -> bool {
    const MODES: &[&str] = &[
        "each",
        "concurrent",
        "serial",
        "sequential",
        "shuffle",
        "cb",
        "fixme",
        "fail",
        "prop",
        "for",
        "effect",
        "scoped",
        "live",
        "scopedLive",
        "flakyTest",
    ];
    skips::JS_VARIANTS.contains(&name) || MODES.contains(&name)
}

/// `def test_x(` (at token `at`, after an optional `async`) and similar.
fn named_def(cx: &LineCtx, keywords: &[&str], prefix: &str, at: usize) -> u32 {
    if at == 1 && cx.ident(0) != Some("async") {
        return 0;
    }
    let keyword = cx.ident(at).is_some_and(|k| keywords.contains(&k));
    let name = cx.ident(at + 1).is_some_and(|n| n.starts_with(prefix));
    u32::from(keyword && name && cx.punct(at + 2, '('))
}

/// `keyword testX(` anywhere on the line (after modifiers such as `public`).
fn named_any(cx: &LineCtx, keyword: &str, prefix: &str) -> u32 {
    let n = (0..cx.toks.len())
        .filter(|&i| {
            cx.ident(i) == Some(keyword)
                && cx.ident(i + 1).is_some_and(|n| n.starts_with(prefix))
                && cx.punct(i + 2, '(')
        })
        .count();
    n as u32
}

fn go(cx: &LineCtx) -> u32 {
    let Some(name) = cx.ident(1) else { return 0 };
    let is_test_name = name
        .strip_prefix("Test")
        .is_some_and(|rest| rest.chars().next().is_none_or(|c| !c.is_lowercase()))
        && name != "TestMain";
    u32::from(cx.ident(0) == Some("func") && is_test_name && cx.punct(2, '(')) + go_example(cx)
}

/// A Go testable example, `func ExampleX()` in a `_test.go` file: `go test` runs it and
/// compares what it prints with its `// Output:` comment. Whether it has that comment (an
/// example without one is compiled, not run) is read from the whole file by
/// [`go_example_runs`].
pub(super) fn go_example(cx: &LineCtx) -> u32 {
    let named = cx
        .ident(1)
        .and_then(|n| n.strip_prefix("Example"))
        .is_some_and(|rest| {
            rest.chars()
                .next()
                .is_none_or(|c| c == '_' || c.is_uppercase())
        });
    u32::from(
        cx.is_test && cx.ident(0) == Some("func") && named && cx.punct(2, '(') && cx.punct(3, ')'),
    )
}

/// Whether the example declared on line `at` (0-based) has an output comment
/// (`// Output:` or `// Unordered output:`, any case, as `go test` reads it) before the
/// `}` that closes it at the start of a line.
pub(super) fn go_example_runs(views: &[LineView], at: usize) -> bool {
    for view in views.iter().skip(at + 1) {
        let output = view.comments.iter().any(|c| {
            let c = c.trim_start_matches(['/', '*', ' ', '\t']).to_lowercase();
            c.starts_with("output:") || c.starts_with("unordered output:")
        });
        if output {
            return true;
        }
        if view.code.starts_with('}') {
            return false;
        }
    }
    false
}

fn annotations(cx: &LineCtx, names: &[&str]) -> u32 {
    let n = cx
        .chains
        .iter()
        .filter(|ch| ch.before(&cx.toks) == Some(Tok::Punct('@')) && names.contains(&ch.last()))
        .count();
    n as u32
}

fn ruby(cx: &LineCtx) -> u32 {
    // minitest: `def test_x` (Ruby needs no parentheses)
    if cx.ident(0) == Some("def") && cx.ident(1).is_some_and(|n| n.starts_with("test_")) {
        return 1;
    }
    let Some(first) = cx.chains.first() else {
        return 0;
    };
    // RSpec's example methods with their skipped (`x`) and focused (`f`) aliases: a test
    // turned into `xspecify` is a skipped test (`new_skips`), not a deleted one.
    const EXAMPLES: &[&str] = &[
        "it",
        "specify",
        "example",
        "scenario",
        "its",
        "test",
        "xit",
        "xspecify",
        "xexample",
        "xscenario",
        "fit",
        "fspecify",
        "fexample",
        "fscenario",
    ];
    let example = EXAMPLES.contains(&first.head()) && first.names.len() == 1 && first.start == 0;
    let opens = matches!(
        first.after(&cx.toks),
        Some(Tok::Str) | Some(Tok::Punct('(' | '{')) | Some(Tok::Ident("do"))
    );
    u32::from(example && opens)
}

fn csharp(cx: &LineCtx) -> u32 {
    const NAMES: &[&str] = &[
        "Fact",
        "Theory",
        "Test",
        "TestMethod",
        "DataTestMethod",
        "TestCase",
    ];
    if !cx.punct(0, '[') {
        return 0;
    }
    let n = (1..cx.toks.len())
        .filter(|&i| {
            cx.ident(i).is_some_and(|n| NAMES.contains(&n))
                && (cx.punct(i - 1, '[') || cx.punct(i - 1, ','))
                && (cx.punct(i + 1, ']') || cx.punct(i + 1, '(') || cx.punct(i + 1, ','))
        })
        .count();
    n as u32
}

fn php(cx: &LineCtx) -> u32 {
    let attribute = u32::from(cx.punct(0, '#') && cx.punct(1, '[') && cx.ident(2) == Some("Test"));
    let pest = cx.chains.first().is_some_and(|ch| {
        ch.start == 0 && (ch.is(&["test"]) || ch.is(&["it"])) && ch.called(&cx.toks)
    });
    named_any(cx, "function", "test") + attribute + u32::from(pest)
}

fn c(cx: &LineCtx) -> u32 {
    const MACROS: &[&str] = &["TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"];
    u32::from(cx.ident(0).is_some_and(|m| MACROS.contains(&m)) && cx.punct(1, '('))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(lang: Lang, text: &str) -> TestCounts {
        count(lang, text, true)
    }

    #[test]
    fn js_tests_and_skips() {
        let text = "describe('a', () => {\n  it('one', () => {});\n  it.skip('two', () => {});\n  test.each([1])('three', () => {});\n  // it('commented', () => {})\n  const s = \"it('in string')\";\n});\n";
        assert_eq!(n(Lang::Js, text), TestCounts { tests: 3, skips: 1 });
        assert_eq!(n(Lang::Js, "x.test(y); function it() {}").tests, 0);
    }

    #[test]
    fn js_test_chosen_by_a_condition_counts_once() {
        let text =
            "(/^v18/.test(v) ? it.skip : it)('a', () => {});\n(ok ? test : test.skip)('b', fn);\n";
        assert_eq!(n(Lang::Js, text).tests, 2);
        // Not called, or no condition: nothing declared.
        assert_eq!(
            n(Lang::Js, "const f = ok ? it.skip : it;\nrun(x, it)(y);\n").tests,
            0
        );
    }

    #[test]
    fn js_methods_of_a_test_named_object_declare_nothing() {
        // nodeunit: assertions are methods of the callback's `test` parameter.
        let nodeunit = "exports.http = {\n  testGet: function (test) {\n    test.equal(1, 1);\n    test.ok(true);\n    test.done();\n  }\n};\n";
        assert_eq!(n(Lang::Js, nodeunit).tests, 0);
        // Playwright's steps and hooks are not tests either; modes and variants are.
        let modes = "test.step('a', () => {});\ntest.beforeEach(() => {});\ntest.concurrent('b', () => {});\nit.skip.each([1])('c', () => {});\ntest.only('d', () => {});\ntest.serial('e', t => {});\nit.effect('f', () => Effect.void);\n";
        assert_eq!(n(Lang::Js, modes).tests, 5);
    }

    #[test]
    fn go_examples_with_output_are_tests() {
        let text = "func ExampleDump() {\n\tspew.Dump(x)\n\t// Output:\n\t// 1\n}\n\nfunc Example_sorted() {\n\tfmt.Println(1)\n\t// unordered output: 1\n}\n\nfunc ExampleNoOutput() {\n\tfmt.Println(1)\n}\n\nfunc Examples() {\n}\n\nfunc ExampleArg(t int) {\n\t// Output:\n}\n";
        assert_eq!(n(Lang::Go, text).tests, 2);
        // Outside a test file an `Example` function is ordinary code.
        assert_eq!(count(Lang::Go, text, false).tests, 0);
    }

    #[test]
    fn python_tests() {
        let text = "def test_a():\n    pass\nasync def test_b():\n    pass\ndef helper():\n    '''def test_c(): in a docstring'''\n@pytest.mark.skip\ndef test_d(): pass\n";
        assert_eq!(n(Lang::Python, text), TestCounts { tests: 3, skips: 1 });
    }

    #[test]
    fn go_tests() {
        let text = "func TestA(t *testing.T) {\n\tt.Skip()\n}\nfunc TestMain(m *testing.M) {}\nfunc Testify() {}\nfunc Test_b(t *testing.T) {}\nfunc (s *S) TestC() {}\n";
        assert_eq!(n(Lang::Go, text), TestCounts { tests: 2, skips: 1 });
    }

    #[test]
    fn rust_tests() {
        let text = "#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {}\n    #[tokio::test(flavor = \"multi_thread\")]\n    async fn b() {}\n    #[test]\n    #[ignore]\n    fn c() {}\n    // #[test]\n    #[testing]\n    fn d() {}\n}\n";
        assert_eq!(n(Lang::Rust, text), TestCounts { tests: 3, skips: 1 });
    }

    #[test]
    fn ruby_examples_after_a_heredoc_are_counted_and_those_inside_are_not() {
        let text = "describe Parser do\n  it 'reads' do\n    src = <<~EOS\n      it's text, it 'fake' do\n    EOS\n    expect(src).to be\n  end\n  it 'writes' do\n  end\n  it \"skips\" do\n    skip 'later'\n  end\nend\n";
        assert_eq!(n(Lang::Ruby, text), TestCounts { tests: 3, skips: 1 });
    }

    #[test]
    fn rspec_skipped_and_focused_example_aliases_are_tests() {
        let text = "describe App do\n  xspecify \"renders\" do\n    get '/'\n  end\n  xexample('posts') { post '/' }\n  fscenario \"deletes\" do\n  end\n  xspecify_all = [1]\n  fit_to(page)\nend\n";
        assert_eq!(n(Lang::Ruby, text).tests, 3);
    }

    #[test]
    fn junit3_methods_count_in_test_case_subclasses() {
        let junit3 = "import junit.framework.TestCase;\n\npublic class ParserTest extends TestCase {\n    protected void setUp() {}\n    public void testParses() {\n    }\n    public void testRejects() throws Exception {\n    }\n    public void testHelper(int x) {}\n    private void testPrivate() {}\n    public static void testStatic() {}\n    // public void testCommented() {}\n}\n";
        assert_eq!(n(Lang::Java, junit3).tests, 2);
        // Android and home-made bases follow the `...TestCase` naming.
        let android =
            "class A extends android.test.AndroidTestCase {\n  public void testA() {}\n}\n";
        assert_eq!(n(Lang::Java, android).tests, 1);
        // An annotated method in such a class is counted once, not twice.
        let mixed = "class A extends TestCase {\n  @Test\n  public void testA() {}\n  @Test public void testB() {}\n  public void testC() {}\n}\n";
        assert_eq!(n(Lang::Java, mixed).tests, 3);
    }

    #[test]
    fn junit3_methods_count_in_subclasses_of_a_suite_base_without_annotations() {
        let suite = "public class JsonPointerTest\n    extends BaseTest\n{\n    public void testAppend() throws Exception {\n    }\n    public void testIndex() {}\n    public void testMode(int mode) {}\n    protected void helper() {}\n}\n";
        assert_eq!(n(Lang::Java, suite).tests, 2);
        // Only in test files: the same class elsewhere is code with test-named methods.
        assert_eq!(count(Lang::Java, suite, false).tests, 0);
        // A JUnit 4/5 class runs only its annotated methods.
        let junit5 = "class ReaderTest extends BaseTest {\n  @Test\n  void reads() {}\n  public void testHelper() {}\n}\n";
        assert_eq!(n(Lang::Java, junit5).tests, 1);
        // No class extends anything: not a JUnit 3 suite.
        let plain = "class Probe<T extends Number> {\n  public void testX() {}\n}\n";
        assert_eq!(n(Lang::Java, plain).tests, 0);
    }

    #[test]
    fn test_named_methods_elsewhere_are_not_junit3_tests() {
        let plain = "public class Parser {\n    public void testConnection() {}\n}\n";
        assert_eq!(n(Lang::Java, plain).tests, 0);
        let other_base =
            "public class Probe extends TestCaseFactory {\n    public void testX() {}\n}\n";
        // Outside test files only a `TestCase` base makes a suite.
        assert_eq!(count(Lang::Java, other_base, false).tests, 0);
        let in_string =
            "class A {\n  String s = \"extends TestCase\";\n  public void testX() {}\n}\n";
        assert_eq!(n(Lang::Java, in_string).tests, 0);
    }

    #[test]
    fn other_languages_count_tests() {
        assert_eq!(
            n(
                Lang::Java,
                "@Test\nvoid a() {}\n@ParameterizedTest\n@Disabled\nvoid b() {}\n@Tested\n"
            )
            .tests,
            2
        );
        assert_eq!(n(Lang::Kotlin, "@Test fun a() {}\n").tests, 1);
        assert_eq!(n(Lang::Ruby, "it 'a' do\nend\nit { is_expected.to be }\nspecify do\nend\ndef test_x\nend\nit_behaves_like 'y'\n").tests, 4);
        assert_eq!(
            n(
                Lang::Elixir,
                "test \"a\" do\nend\ntest(\"b\", ctx)\ntested = 1\n"
            )
            .tests,
            2
        );
        assert_eq!(
            n(
                Lang::CSharp,
                "[Fact]\n[Theory]\n[TestCase(1)]\n[TestCase(2)]\n[Obsolete]\n"
            )
            .tests,
            4
        );
        assert_eq!(n(Lang::Php, "public function testA(): void {}\n#[Test]\npublic function b() {}\ntest('c', fn () => 1);\n").tests, 3);
        assert_eq!(
            n(
                Lang::Swift,
                "func testA() {}\n@Test func b() {}\nfunc helper() {}\n"
            )
            .tests,
            2
        );
        assert_eq!(
            n(Lang::C, "TEST(A, B) {}\nTEST_F(A, C) {}\nTESTING(x);\n").tests,
            2
        );
        assert_eq!(n(Lang::Shell, "test -f x\n").tests, 0);
    }
}
