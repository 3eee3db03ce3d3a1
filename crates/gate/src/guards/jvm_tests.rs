//! JVM tests declared by annotations, and the annotation types a project declares as tests.
//!
//! JUnit 5 runs a method as a test when it carries `@Test` (or `@ParameterizedTest`,
//! `@RepeatedTest`, `@TestFactory`, `@TestTemplate`) directly or through an annotation type
//! that carries one: a composed annotation, `@ParameterizedTest @ArgumentsSource(..)
//! public @interface MultiLocaleTest {}` (Kotlin: `@Test annotation class Slow`), to any
//! depth. Such a type is known when the change's own files declare it.
//!
//! A declaration is counted once however many test annotations its block carries
//! (`@Test @MultiLocaleTest` is one test), and an annotation type's own declaration is not a
//! test: it is what makes others tests.

use super::languages::Lang;
use super::lexer::{lex, LineView};
use super::line::LineCtx;
use super::tokens::Tok;
use std::collections::BTreeSet;

/// The annotations JUnit itself runs as tests.
pub const BUILTIN: &[&str] = &[
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
];

/// How many passes [`declared_tests`] makes to follow annotation types built on others
/// declared in the change; deeper chains than this are not followed.
const MAX_DEPTH: usize = 4;

/// What ended an annotation block.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended<'a> {
    /// A declaration that is a test (1) or not (0).
    Tests(u32),
    /// An annotation type declared as a test annotation, by name.
    TestAnnotation(&'a str),
}

/// Reads a file's annotation blocks line by line, in order: the annotations (with their
/// argument lists, which may run over lines) and modifiers up to the declaration they
/// decorate, ended by its `(`, `{`, `;`, `=` or the end of the file.
#[derive(Debug, Default)]
pub struct Blocks {
    /// Depth inside an annotation's argument list.
    args: u32,
    /// A test annotation is in the block.
    test: bool,
    /// The block declares an annotation type (`@interface`, `annotation class`).
    annotation_type: bool,
}

impl Blocks {
    /// Feed one line of code; `is_test(name)` says whether an annotation of that (last)
    /// name declares a test. Returns the tests the line declares and the names of the
    /// test annotation types it declares.
    pub fn line<'a>(&mut self, cx: &LineCtx<'a>, is_test: &dyn Fn(&str) -> bool) -> Vec<Ended<'a>> {
        let mut out = Vec::new();
        let toks = &cx.toks;
        let mut i = 0;
        while i < toks.len() {
            if self.args > 0 {
                match toks[i] {
                    Tok::Punct('(') => self.args += 1,
                    Tok::Punct(')') => self.args -= 1,
                    // No argument list holds a statement's end: one left open by broken
                    // code does not swallow the rest of the file.
                    Tok::Punct(';') => {
                        self.args = 0;
                        continue;
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            match toks[i] {
                Tok::Punct('@') => {
                    let (last, next) = annotation_name(toks, i + 1);
                    i = next;
                    match last {
                        Some("interface") => {
                            self.annotation_type = true;
                            if let Some(name) = cx.ident(i) {
                                out.push(self.end_type(name));
                                i += 1;
                            }
                            continue;
                        }
                        Some(name) => self.test |= is_test(name),
                        None => {}
                    }
                    if cx.punct(i, '(') {
                        self.args = 1;
                        i += 1;
                    }
                    continue;
                }
                Tok::Ident("annotation") if cx.ident(i + 1) == Some("class") => {
                    self.annotation_type = true;
                    if let Some(name) = cx.ident(i + 2) {
                        out.push(self.end_type(name));
                    }
                    i += 3;
                    continue;
                }
                Tok::Punct('(' | '{' | '}' | ';' | '=') => {
                    if let Some(n) = self.end() {
                        out.push(Ended::Tests(n));
                    }
                }
                _ => {}
            }
            i += 1;
        }
        out
    }

    /// [`Blocks::line`], for the tests alone.
    pub fn tests(&mut self, cx: &LineCtx, is_test: &dyn Fn(&str) -> bool) -> u32 {
        self.line(cx, is_test)
            .iter()
            .map(|e| match e {
                Ended::Tests(n) => *n,
                Ended::TestAnnotation(_) => 0,
            })
            .sum()
    }

    /// The end of the file ends a block still open.
    pub fn finish(&mut self) -> u32 {
        self.args = 0;
        self.end().unwrap_or(0)
    }

    fn end(&mut self) -> Option<u32> {
        let tests = u32::from(self.test && !self.annotation_type);
        let open = self.test || self.annotation_type;
        self.test = false;
        self.annotation_type = false;
        open.then_some(tests)
    }

    fn end_type<'a>(&mut self, name: &'a str) -> Ended<'a> {
        let test = self.test;
        self.test = false;
        self.annotation_type = false;
        if test {
            Ended::TestAnnotation(name)
        } else {
            Ended::Tests(0)
        }
    }
}

/// The last name of the annotation whose name starts at token `at` (`a.b.Test`, Kotlin's
/// `get:Rule`), and the token after it.
fn annotation_name<'a>(toks: &[Tok<'a>], mut at: usize) -> (Option<&'a str>, usize) {
    let mut last = None;
    while let Some(Tok::Ident(name)) = toks.get(at) {
        last = Some(*name);
        at += 1;
        let joined = matches!(toks.get(at), Some(Tok::Punct('.' | ':')));
        if joined && matches!(toks.get(at + 1), Some(Tok::Ident(_))) {
            at += 1;
        } else {
            break;
        }
    }
    (last, at)
}

/// The annotation types that `files` (language and text) declare as tests, beyond
/// [`BUILTIN`]: those carrying a built-in test annotation, then those carrying one of
/// these, and so on.
pub fn declared_tests<'a>(files: impl Iterator<Item = (Lang, &'a str)>) -> Vec<String> {
    let files: Vec<(Lang, Vec<LineView>)> = files
        .filter(|(lang, text)| {
            matches!(lang, Lang::Java | Lang::Kotlin)
                && (text.contains("@interface") || text.contains("annotation class"))
        })
        .map(|(lang, text)| (lang, lex(&lang.syntax(), text, usize::MAX)))
        .collect();
    let mut found: BTreeSet<String> = BTreeSet::new();
    for _ in 0..MAX_DEPTH {
        let before = found.len();
        let is_test = |n: &str| BUILTIN.contains(&n) || found.contains(n);
        let mut new = Vec::new();
        for (lang, views) in &files {
            let mut blocks = Blocks::default();
            for view in views.iter().filter(|v| !v.code.trim().is_empty()) {
                let cx = LineCtx::new(*lang, view, false);
                for e in blocks.line(&cx, &is_test) {
                    if let Ended::TestAnnotation(name) = e {
                        new.push(name.to_string());
                    }
                }
            }
        }
        found.extend(new);
        if found.len() == before {
            break;
        }
    }
    found.retain(|n| !BUILTIN.contains(&n.as_str()));
    found.into_iter().collect()
}

/// Where the annotation types a JVM file imports by name may be declared in the
/// repository, as paths without their extension: for `import a.b.Outer.Name;` with
/// `@Name` in the file (not one of JUnit's own), `ROOT/a/b/Outer/Name` (a type of its own)
/// and `ROOT/a/b/Outer` (nested in `Outer`), ROOT being the source root the file's own
/// `package` line gives (`src/test/java/` for `src/test/java/a/c/XTest.java` in package
/// `a.c`). A library's import names files the repository does not have; a wildcard
/// import, an annotation of the file's own package used without import, and a declaration
/// under another source root are not looked for.
pub fn imported_from(path: &str, text: &str) -> Vec<String> {
    let Some((dir, _)) = path.rsplit_once('/') else {
        return Vec::new();
    };
    let statement = |line: &str, keyword: &str| -> Option<Vec<String>> {
        let rest = line.trim().strip_prefix(keyword)?;
        let rest = rest.strip_prefix(char::is_whitespace)?;
        let rest = rest.trim_start();
        let rest = rest.strip_prefix("static ").unwrap_or(rest);
        let name = rest.split([';', ' ', '\t']).next()?;
        let parts: Vec<String> = name.split('.').map(String::from).collect();
        let plain =
            |p: &String| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_');
        parts.iter().all(plain).then_some(parts)
    };
    let lines: Vec<&str> = text.lines().collect();
    let Some(package) = lines.iter().find_map(|l| statement(l, "package")) else {
        return Vec::new();
    };
    let Some(root) = dir
        .strip_suffix(package.join("/").as_str())
        .filter(|r| r.is_empty() || r.ends_with('/'))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for parts in lines.iter().filter_map(|l| statement(l, "import")) {
        let [.., outer, name] = parts.as_slice() else {
            continue;
        };
        if BUILTIN.contains(&name.as_str()) || !used_as_annotation(text, name) {
            continue;
        }
        let own = format!("{root}{}", parts.join("/"));
        out.push(own);
        if outer.starts_with(char::is_uppercase) {
            out.push(format!("{root}{}", parts[..parts.len() - 1].join("/")));
        }
    }
    out
}

/// Whether `@name` stands in the text as a whole name (a cheap look: a mention in a comment
/// only costs a look-up).
fn used_as_annotation(text: &str, name: &str) -> bool {
    let at = format!("@{name}");
    text.match_indices(&at).any(|(i, _)| {
        !text[i + at.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tests_in(lang: Lang, text: &str, extra: &[&str]) -> u32 {
        let views = lex(&lang.syntax(), text, usize::MAX);
        let is_test = |n: &str| BUILTIN.contains(&n) || extra.contains(&n);
        let mut blocks = Blocks::default();
        let on_lines: u32 = views
            .iter()
            .map(|v| blocks.tests(&LineCtx::new(lang, v, false), &is_test))
            .sum();
        on_lines + blocks.finish()
    }

    const COMPOSED: &str = "public class MultiLocaleExtension {\n    @Documented\n    @Target(ElementType.METHOD)\n    @ArgumentsSource(MultiLocaleExtension.class)\n    @ParameterizedTest\n    public @interface MultiLocaleTest {\n    }\n}\n";

    #[test]
    fn an_annotation_type_carrying_a_test_annotation_is_a_test_annotation() {
        let java = declared_tests([(Lang::Java, COMPOSED)].into_iter());
        assert_eq!(java, vec!["MultiLocaleTest".to_string()]);
        let kotlin = "@Target(AnnotationTarget.FUNCTION)\n@Test\nannotation class Slow\n\nannotation class Plain\n";
        assert_eq!(
            declared_tests([(Lang::Kotlin, kotlin)].into_iter()),
            vec!["Slow".to_string()]
        );
        // Built on another one of the change, in another file.
        let on_it = "@MultiLocaleTest\n@Tag(\"slow\")\n@interface SlowLocaleTest {}\n";
        let both = declared_tests([(Lang::Java, on_it), (Lang::Java, COMPOSED)].into_iter());
        assert_eq!(both, vec!["MultiLocaleTest", "SlowLocaleTest"]);
    }

    #[test]
    fn other_annotation_types_are_not_test_annotations() {
        let plain = "@Retention(RetentionPolicy.RUNTIME)\n@Target(ElementType.METHOD)\npublic @interface BeforeTest {}\n@Tag(\"x\") @interface Fast {}\n";
        assert!(declared_tests([(Lang::Java, plain)].into_iter()).is_empty());
        // `@Test` on a method of the file does not make the next annotation type a test.
        let after = "class A {\n  @Test void a() {}\n}\n@interface Fast {}\n";
        assert!(declared_tests([(Lang::Java, after)].into_iter()).is_empty());
        // A test annotation in a string or comment is nothing.
        let quoted = "// @Test\n@Tag(\"@Test\")\n@interface Fast {}\n";
        assert!(declared_tests([(Lang::Java, quoted)].into_iter()).is_empty());
    }

    #[test]
    fn a_declaration_is_one_test_however_many_test_annotations_it_carries() {
        let text = "class A {\n  @Test @MultiLocaleTest\n  public void a(Locale l) {}\n  @Test\n  @ValueSource(ints = {\n    1, 2 })\n  @ParameterizedTest\n  void b(int x) {}\n  @MultiLocaleTest void c(Locale l) {}\n}\n";
        assert_eq!(tests_in(Lang::Java, text, &["MultiLocaleTest"]), 3);
        assert_eq!(tests_in(Lang::Java, text, &[]), 2);
        // The annotation type's own declaration is not a test.
        assert_eq!(tests_in(Lang::Java, COMPOSED, &["MultiLocaleTest"]), 0);
        // An argument list left open ends at the statement's end.
        let open =
            "class A {\n  @Test(timeout = 1\n  void a() {}\n  int x;\n  @Test void b() {}\n}\n";
        assert_eq!(tests_in(Lang::Java, open, &[]), 2);
        // A `@Test` left at the end of the file still counts.
        assert_eq!(tests_in(Lang::Kotlin, "class A {\n  @Test", &[]), 1);
        assert_eq!(
            tests_in(
                Lang::Kotlin,
                "@Test fun a() {}\n@Test\nfun b() = runTest {}\n",
                &[]
            ),
            2
        );
    }

    #[test]
    fn imported_annotations_are_looked_for_under_the_files_source_root() {
        let text = "package org.site.parser;\n\nimport org.site.MultiLocaleExtension.MultiLocaleTest;\nimport org.site.Slow;\nimport org.junit.jupiter.api.Test;\nimport org.junit.jupiter.api.DisplayName;\nimport static org.site.Util.helper;\nimport org.site.Unused;\nimport org.site.*;\n\nclass TagTest {\n  @Test @MultiLocaleTest @Slow(2)\n  void a(Locale l) {}\n  @DisplayNameX void b() {}\n  // @Unused2\n}\n";
        let found = imported_from("core/src/test/java/org/site/parser/TagTest.java", text);
        assert_eq!(
            found,
            vec![
                "core/src/test/java/org/site/MultiLocaleExtension/MultiLocaleTest",
                "core/src/test/java/org/site/MultiLocaleExtension",
                "core/src/test/java/org/site/Slow",
            ]
        );
        // A file whose directory does not follow its package gives no root.
        assert!(imported_from("test/TagTest.java", text).is_empty());
        assert!(imported_from("TagTest.java", text).is_empty());
    }
}
