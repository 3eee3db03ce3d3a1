//! JVM classes that are the input of a test, not tests of the suite.
//!
//! A test of test tooling (a runner, a rule, a listener, an annotation reader) runs or
//! inspects a small class written for it: `JUnitCore.runClasses(HasIgnoredTest.class)`,
//! `new TestClass(Annotated.class)`, then asserts how many tests were ignored. An `@Ignore`
//! or an assumption in such a class is what the test is about: the class is data, and
//! skipping in it disables nothing of the project's own suite.
//!
//! A class is such a fixture when a test method (`@Test` and its JUnit 5 kin, or a JUnit 3
//! `void testX()`) outside the class names it as a class literal in its body (`X.class`,
//! Kotlin `X::class`), in its own file or in another file of the change. A class that a
//! fixture names (in its annotations or body: `@SuiteClasses({A.class})` on a fixture suite)
//! is one too. A class that only a suite's annotation lists (`@SuiteClasses` on a suite that
//! the build runs), or that names itself (`getLogger(MyTest.class)`), stays a test.
//!
//! Only a fixture the change adds (its declaration on an added line) is excused: one that
//! was there before was run by some test, and a skip put in it now may be what makes that
//! test pass.

use super::languages::Lang;
use super::lexer::lex;
use super::tokens::{tokenize, Tok};

/// Annotations that make a method a test.
const TEST_ANNOTATIONS: &[&str] = &[
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
    "Theory",
];

/// A block of a file: a class, a method, any `{ ... }` at the top of a statement.
#[derive(Debug, Clone, Copy)]
struct Block {
    /// First token of the declaration before the `{` (its annotations included).
    head: usize,
    /// The `{` and the `}` that closes it.
    open: usize,
    close: usize,
}

/// The classes, test methods and class literals of one JVM file.
#[derive(Debug, Default)]
pub struct Outline {
    /// Line of each token (1-based).
    lines: Vec<u32>,
    /// (name, block, the name's token) of each class, interface, enum or record.
    classes: Vec<(String, Block, usize)>,
    /// Test methods.
    tests: Vec<Block>,
    /// (token index, name) of each `Name.class` / `Name::class`.
    literals: Vec<(usize, String)>,
}

impl Outline {
    pub fn of(lang: Lang, text: &str) -> Outline {
        let views = lex(&lang.syntax(), text, usize::MAX);
        let mut lines = Vec::new();
        let mut toks: Vec<Tok> = Vec::new();
        for (i, v) in views.iter().enumerate() {
            for t in tokenize(lang, &v.code) {
                toks.push(t);
                lines.push(i as u32 + 1);
            }
        }
        let mut out = Outline {
            lines,
            ..Outline::default()
        };
        let ident = |i: usize| match toks.get(i) {
            Some(Tok::Ident(s)) => Some(*s),
            _ => None,
        };
        let punct = |i: usize, c: char| toks.get(i) == Some(&Tok::Punct(c));
        // Braces inside parentheses are array initialisers and lambda bodies within a
        // statement: only those at the top of a statement open a declaration's block.
        let mut paren = 0usize;
        let mut head: Option<usize> = None;
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for (k, t) in toks.iter().enumerate() {
            match t {
                Tok::Punct('(') => paren += 1,
                Tok::Punct(')') => paren = paren.saturating_sub(1),
                Tok::Punct('{') if paren == 0 => {
                    stack.push((head.unwrap_or(k), k));
                    head = None;
                    continue;
                }
                Tok::Punct('}') if paren == 0 => {
                    if let Some((h, open)) = stack.pop() {
                        out.block(
                            &toks,
                            Block {
                                head: h,
                                open,
                                close: k,
                            },
                        );
                    }
                    head = None;
                    continue;
                }
                Tok::Punct(';') if paren == 0 => {
                    head = None;
                    continue;
                }
                _ => {}
            }
            head.get_or_insert(k);
        }
        for k in 0..toks.len() {
            if ident(k) != Some("class") {
                continue;
            }
            let java = k >= 1 && punct(k - 1, '.');
            let kotlin = k >= 2 && punct(k - 1, ':') && punct(k - 2, ':');
            let name = if java {
                k.checked_sub(2).and_then(ident)
            } else if kotlin {
                k.checked_sub(3).and_then(ident)
            } else {
                None
            };
            if let Some(name) = name {
                out.literals.push((k, name.to_string()));
            }
        }
        out
    }

    fn block(&mut self, toks: &[Tok], b: Block) {
        let header = &toks[b.head..b.open];
        let ident = |i: usize| match header.get(i) {
            Some(Tok::Ident(s)) => Some(*s),
            _ => None,
        };
        // Kotlin ends a statement at the line's end, so a header runs back over any
        // declaration without a body before it (`class Value(val a: Int)` and then
        // `@Test fun reads() {`): the block belongs to the last declaration of its header.
        let last = (0..header.len()).rev().find(|&i| {
            let keyword = matches!(
                ident(i),
                Some("class" | "interface" | "enum" | "record" | "fun")
            );
            let literal = i > 0 && matches!(header[i - 1], Tok::Punct('.' | ':'));
            keyword && !literal
        });
        let declared = last
            .filter(|&i| ident(i) != Some("fun"))
            .and_then(|i| ident(i + 1).map(|n| (n, b.head + i + 1)));
        if let Some((name, at)) = declared {
            self.classes.push((name.to_string(), b, at));
            return;
        }
        if !header.contains(&Tok::Punct('(')) {
            return;
        }
        let annotated = (0..header.len()).any(|i| {
            if header[i] != Tok::Punct('@') {
                return false;
            }
            // The last name of `@a.b.Test`.
            let mut j = i + 1;
            let mut last = None;
            while let Some(n) = ident(j) {
                last = Some(n);
                if header.get(j + 1) != Some(&Tok::Punct('.')) {
                    break;
                }
                j += 2;
            }
            last.is_some_and(|n| TEST_ANNOTATIONS.contains(&n))
        });
        let junit3 = (0..header.len()).any(|i| {
            ident(i) == Some("void")
                && ident(i + 1).is_some_and(|n| n.starts_with("test"))
                && header.get(i + 2) == Some(&Tok::Punct('('))
        });
        if annotated || junit3 {
            self.tests.push(b);
        }
    }

    fn line(&self, tok: usize) -> u32 {
        self.lines.get(tok).copied().unwrap_or(0)
    }
}

/// Whether line `line` of the file outlined by `own` lies in a class that is the input of a
/// test (see the module's comment) and that the change added: its declaration with its
/// annotations, or its body. `others` are the outlines of the change's other JVM files;
/// `added(n)` says whether the change added line `n` of this file. A fixture that existed
/// already was run by a test before, which a skip put in it now may make pass.
pub fn in_fixture(
    own: &Outline,
    others: &[&Outline],
    line: u32,
    added: &dyn Fn(u32) -> bool,
) -> bool {
    let inside = |b: &Block, tok: usize| b.head <= tok && tok <= b.close;
    let in_test = |o: &Outline, tok: usize| o.tests.iter().any(|t| t.open < tok && tok < t.close);
    let named_elsewhere = |name: &str| {
        others
            .iter()
            .any(|o| o.literals.iter().any(|(k, n)| n == name && in_test(o, *k)))
    };
    let mut fixture: Vec<bool> = own
        .classes
        .iter()
        .map(|(name, b, _)| {
            named_elsewhere(name)
                || own
                    .literals
                    .iter()
                    .any(|(k, n)| n == name && !inside(b, *k) && in_test(own, *k))
        })
        .collect();
    // What a fixture names is a fixture too, to a fixed point.
    loop {
        let mut grew = false;
        for c in 0..own.classes.len() {
            if fixture[c] {
                continue;
            }
            let (name, b, _) = &own.classes[c];
            let named = own.literals.iter().any(|(k, n)| {
                n == name
                    && !inside(b, *k)
                    && own
                        .classes
                        .iter()
                        .zip(&fixture)
                        .any(|((_, f, _), is)| *is && inside(f, *k))
            });
            if named {
                fixture[c] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    own.classes.iter().zip(&fixture).any(|((_, b, name), is)| {
        *is && added(own.line(*name)) && own.line(b.head) <= line && line <= own.line(b.close)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(_: u32) -> bool {
        true
    }

    fn at(text: &str, needle: &str) -> u32 {
        text.lines().position(|l| l.contains(needle)).unwrap() as u32 + 1
    }

    const RUNNER_TEST: &str = r#"package p;

public class ParentRunnerTest {
    public static class Fixture {
        @Test
        public void pass() {}

        @Ignore
        @Test
        public void ignored() {}

        @Test
        public void assumes() {
            assumeTrue("skipped on purpose", false);
        }
    }

    @Test
    public void countsIgnored() {
        Result r = JUnitCore.runClasses(Fixture.class);
        assertEquals(1, r.getIgnoreCount());
    }

    @Ignore("flaky on CI")
    @Test
    public void realTest() {
        assertEquals(1, 1);
    }
}
"#;

    #[test]
    fn a_skip_in_a_class_a_test_runs_is_test_data() {
        let o = Outline::of(Lang::Java, RUNNER_TEST);
        assert!(in_fixture(
            &o,
            &[],
            at(RUNNER_TEST, "        @Ignore"),
            &all
        ));
        assert!(in_fixture(&o, &[], at(RUNNER_TEST, "void ignored()"), &all));
        assert!(in_fixture(&o, &[], at(RUNNER_TEST, "assumeTrue("), &all));
        // The test class's own test is a test of the suite.
        assert!(!in_fixture(&o, &[], at(RUNNER_TEST, "flaky on CI"), &all));
        // A fixture that was there before: a test ran it, and a skip put in it now may
        // be what makes that test pass.
        let decl = at(RUNNER_TEST, "class Fixture");
        let old_class = |n: u32| n != decl;
        assert!(!in_fixture(
            &o,
            &[],
            at(RUNNER_TEST, "void ignored()"),
            &old_class
        ));
    }

    #[test]
    fn a_class_ignored_as_a_whole_and_run_from_another_file_is_test_data() {
        let fixture = "public class HasIgnoredTest {\n    @Ignore\n    @Test\n    public void test() { fail(); }\n}\n";
        let ignored_class = "@Ignore\npublic class IgnoredClass {\n    @Test\n    public void test() { fail(); }\n}\n";
        let runner = "public class RunsThemTest {\n    @Test\n    public void ignoredOnes() {\n        run(HasIgnoredTest.class, \"x\");\n        JUnitCore.runClasses(IgnoredClass.class);\n    }\n}\n";
        let r = Outline::of(Lang::Java, runner);
        let f = Outline::of(Lang::Java, fixture);
        let c = Outline::of(Lang::Java, ignored_class);
        assert!(in_fixture(&f, &[&r], 2, &all));
        assert!(in_fixture(&c, &[&r], 1, &all));
        // Without the test that runs it, it is an ignored test.
        assert!(!in_fixture(&f, &[], 2, &all));
        assert!(!in_fixture(&c, &[], 1, &all));
    }

    #[test]
    fn a_class_a_fixture_suite_lists_is_test_data() {
        let text = r#"public class CategoryTest {
    public static class IgnoredTest {
        @Ignore
        @Test
        public void test() { fail(); }
    }

    @SuiteClasses({IgnoredTest.class})
    public static class IgnoredSuite {
    }

    @Test
    public void ignoredTest() {
        assertEquals(1, JUnitCore.runClasses(IgnoredSuite.class).getIgnoreCount());
    }
}
"#;
        let o = Outline::of(Lang::Java, text);
        assert!(in_fixture(&o, &[], at(text, "@Ignore"), &all));
    }

    #[test]
    fn a_test_named_by_a_real_suite_by_itself_or_by_no_test_is_a_test() {
        // A suite the build runs lists it in an annotation; nothing runs the suite.
        let suite = "@RunWith(Suite.class)\n@SuiteClasses({ParserTest.class, LexerTest.class})\npublic class AllTests {\n}\n";
        let parser = "public class ParserTest {\n    private static final Logger LOG = getLogger(ParserTest.class);\n\n    @Ignore\n    @Test\n    public void parses() {\n        load(ParserTest.class.getResource(\"a.json\"));\n    }\n}\n";
        let s = Outline::of(Lang::Java, suite);
        let p = Outline::of(Lang::Java, parser);
        assert!(!in_fixture(&p, &[&s], 4, &all));
        // A helper (not a test method) that names a nested class does not make it data.
        let helper = "public class T {\n    static class Slow {\n        @Ignore @Test public void a() {}\n    }\n    static Object make() {\n        return new Runner(Slow.class);\n    }\n}\n";
        let h = Outline::of(Lang::Java, helper);
        assert!(!in_fixture(&h, &[], 3, &all));
        // A class literal in a string or a comment names nothing.
        let quoted = "public class T {\n    static class Slow {\n        @Ignore @Test public void a() {}\n    }\n    @Test public void b() {\n        // runClasses(Slow.class)\n        log(\"Slow.class\");\n    }\n}\n";
        let q = Outline::of(Lang::Java, quoted);
        assert!(!in_fixture(&q, &[], 3, &all));
    }

    #[test]
    fn a_kotlin_class_without_a_body_does_not_take_the_next_test_as_its_own() {
        let text = "class AdaptersTest {\n    @Ignore @Test fun parameter() {\n        adapter(Parameter::class.java)\n    }\n\n    class Parameter(var a: Int = -1)\n\n    @Ignore @Test fun property() {\n        adapter(Property::class.java)\n    }\n\n    class Property {\n        var a: Int = -1\n    }\n}\n";
        let o = Outline::of(Lang::Kotlin, text);
        assert!(!in_fixture(&o, &[], at(text, "fun property()"), &all));
        assert!(!in_fixture(&o, &[], at(text, "fun parameter()"), &all));
    }

    #[test]
    fn kotlin_class_literals_name_fixtures() {
        let text = "class RunnerTest {\n    class Fixture {\n        @Ignore @Test fun a() {}\n    }\n\n    @Test fun runs() {\n        JUnitCore.runClasses(Fixture::class.java)\n    }\n}\n";
        let o = Outline::of(Lang::Kotlin, text);
        assert!(in_fixture(&o, &[], 3, &all));
    }
}
