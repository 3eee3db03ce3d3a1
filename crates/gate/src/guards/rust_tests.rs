//! Rust tests declared through macros: attribute macros (`#[rstest]`, `#[tokio::test]`)
//! and test-generating function-like macros (`quickcheck! { .. }`, a project's own
//! `macro_rules! cases`). Which names count is the built-in list plus `[guards]
//! test_macros`; an entry ending in `!` names a function-like macro, any other entry an
//! attribute.

use super::line::LineCtx;
use super::tokens::Tok;

/// Attributes that declare a test besides `#[test]` and any path ending in `::test`
/// (`#[tokio::test]`, `#[sqlx::test]`, `#[test_log::test]`).
const BUILTIN_ATTRS: &[&str] = &[
    "rstest",
    "test_case",
    "test_matrix",
    "quickcheck",
    "wasm_bindgen_test",
];
/// Function-like macros that declare tests (`quickcheck! { fn prop(..) -> bool { .. } }`).
const BUILTIN_BANGS: &[&str] = &["quickcheck", "proptest"];

/// The test-declaring macro names in effect, and the JVM annotation types the change
/// declares as tests (see [`super::jvm_tests`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestMacros {
    attrs: Vec<String>,
    bangs: Vec<String>,
    jvm: Vec<String>,
}

impl Default for TestMacros {
    fn default() -> Self {
        TestMacros::new::<&str>(&[])
    }
}

impl TestMacros {
    /// The built-in names plus `extra` (`name` for an attribute, `name!` for a
    /// function-like macro; a path such as `my_crate::case` is matched by its last part).
    pub fn new<S: AsRef<str>>(extra: &[S]) -> TestMacros {
        let mut attrs: Vec<String> = BUILTIN_ATTRS.iter().map(|s| s.to_string()).collect();
        let mut bangs: Vec<String> = BUILTIN_BANGS.iter().map(|s| s.to_string()).collect();
        for name in extra {
            let name = name.as_ref().trim();
            let last = |s: &str| s.rsplit("::").next().unwrap_or(s).to_string();
            match name.strip_suffix('!') {
                Some(bang) => bangs.push(last(bang)),
                None => attrs.push(last(name)),
            }
        }
        TestMacros {
            attrs,
            bangs,
            jvm: Vec::new(),
        }
    }

    /// The same, with `names` as JVM test annotations besides JUnit's own.
    pub fn with_jvm_tests(mut self, names: Vec<String>) -> TestMacros {
        self.jvm = names;
        self
    }

    /// Whether the change declares JVM test annotations of its own.
    pub fn has_jvm_tests(&self) -> bool {
        !self.jvm.is_empty()
    }

    /// Whether an annotation of this (last) name makes a JVM method a test.
    pub fn is_jvm_test(&self, name: &str) -> bool {
        super::jvm_tests::BUILTIN.contains(&name) || self.jvm.iter().any(|n| n == name)
    }

    fn is_attr(&self, last: &str) -> bool {
        last == "test" || self.attrs.iter().any(|a| a == last)
    }

    fn is_bang(&self, last: &str) -> bool {
        self.bangs.iter().any(|b| b == last)
    }
}

/// Tests an attribute at the start of the line declares (0 or 1).
pub fn attribute_tests(cx: &LineCtx, macros: &TestMacros) -> u32 {
    let Some(at) = cx.attribute_start() else {
        return 0;
    };
    let Some(chain) = cx.chains.iter().find(|ch| ch.start == at) else {
        return 0;
    };
    let closes = matches!(chain.after(&cx.toks), Some(Tok::Punct(']' | '(')));
    u32::from(macros.is_attr(chain.last()) && closes)
}

/// The invocation of a listed function-like macro being read, across lines.
#[derive(Debug)]
struct Open {
    /// Bracket depth inside the invocation (1 = its top level).
    depth: u32,
    /// `fn` items met at its top level.
    items: u32,
}

/// Counts the tests that invocations of listed function-like macros declare: each `fn`
/// at an invocation's top level is one test (unless a test attribute right before it was
/// counted already, as `proptest!` blocks write them), and an invocation holding no `fn`
/// (`cases!(adds, 1, 2)`) is one test.
#[derive(Debug, Default)]
pub struct MacroBlocks {
    open: Option<Open>,
    /// The previous code line carried a counted test attribute.
    attributed: bool,
}

impl MacroBlocks {
    /// Feed one line of code (in file order); `attr_tests` is what [`attribute_tests`]
    /// found on it. Returns the tests this line adds.
    pub fn line(&mut self, cx: &LineCtx, macros: &TestMacros, attr_tests: u32) -> u32 {
        let mut found = 0u32;
        let mut i = 0;
        if self.open.is_none() {
            match invocation_start(cx, macros) {
                Some(opener) => {
                    self.open = Some(Open { depth: 0, items: 0 });
                    i = opener;
                }
                None => {
                    self.attributed = attr_tests > 0;
                    return 0;
                }
            }
        }
        while i < cx.toks.len() {
            let Some(open) = self.open.as_mut() else {
                break;
            };
            match cx.toks[i] {
                Tok::Punct('{' | '(' | '[') => open.depth += 1,
                Tok::Punct('}' | ')' | ']') => {
                    open.depth = open.depth.saturating_sub(1);
                    if open.depth == 0 {
                        if open.items == 0 {
                            found += 1;
                        }
                        self.open = None;
                    }
                }
                Tok::Ident("fn") if open.depth == 1 => {
                    open.items += 1;
                    if !self.attributed {
                        found += 1;
                    }
                    self.attributed = false;
                }
                _ => {}
            }
            i += 1;
        }
        if attr_tests > 0 {
            self.attributed = true;
        }
        found
    }
}

/// Token index of the opening bracket when the line starts an invocation of a listed
/// function-like macro (`name!(`, `name! {`, `path::name![`).
fn invocation_start(cx: &LineCtx, macros: &TestMacros) -> Option<usize> {
    let first = cx.chains.first().filter(|ch| ch.start == 0)?;
    let bang = cx.punct(first.end, '!');
    let opens = matches!(cx.tok(first.end + 1), Some(Tok::Punct('{' | '(' | '[')));
    (bang && opens && macros.is_bang(first.last())).then_some(first.end + 1)
}

#[cfg(test)]
mod tests {
    use super::super::languages::Lang;
    use super::super::tests_count::count_with;
    use super::*;

    fn tests_in(text: &str, extra: &[&str]) -> u32 {
        count_with(Lang::Rust, text, false, &TestMacros::new(extra)).tests
    }

    #[test]
    fn attribute_macros_declare_tests() {
        let text = "#[rstest]\nfn a() {}\n#[test_case(1)]\n#[test_case(2)]\nfn b(x: u8) {}\n#[tokio::test]\nasync fn c() {}\n#[wasm_bindgen_test]\nfn d() {}\n";
        assert_eq!(tests_in(text, &[]), 5);
        // An attribute of another name is not a test, until it is listed.
        assert_eq!(tests_in("#[my_case]\nfn a() {}\n", &[]), 0);
        assert_eq!(tests_in("#[my_case]\nfn a() {}\n", &["my_case"]), 1);
        assert_eq!(
            tests_in("#[my_case]\nfn a() {}\n", &["my_crate::my_case"]),
            1
        );
    }

    #[test]
    fn listed_macro_invocations_declare_tests() {
        let def = "macro_rules! cases {\n    ($name:ident, $v:expr) => {\n        #[test]\n        fn $name() { assert!($v > 0); }\n    };\n}\n";
        let calls = "cases!(one, 1);\ncases!(two, 2);\ncases! { three, 3 }\n";
        let text = format!("{def}{calls}");
        // The definition's own `#[test]` counts once; each invocation once more.
        assert_eq!(tests_in(&text, &["cases!"]), 4);
        // Unlisted, only the definition counts: deleting an invocation goes unseen.
        assert_eq!(tests_in(&text, &[]), 1);
        // A macro of another name is not a test generator.
        assert_eq!(tests_in("other!(one, 1);\nvec![1, 2];\n", &["cases!"]), 0);
        // The definition alone is no invocation.
        assert_eq!(
            tests_in("macro_rules! cases { () => {} }\n", &["cases!"]),
            0
        );
    }

    #[test]
    fn functions_inside_a_test_macro_block_each_count() {
        let quickcheck = "quickcheck! {\n    fn prop_rev(xs: Vec<u32>) -> bool {\n        let f = |x: u32| { x };\n        xs == xs\n    }\n    fn prop_len(xs: Vec<u32>) -> bool { true }\n}\nfn helper() {}\n";
        assert_eq!(tests_in(quickcheck, &[]), 2);
        // proptest! blocks put `#[test]` on each function: counted once, not twice.
        let proptest = "proptest! {\n    #[test]\n    fn a(x in 0..10u8) { prop_assert!(x < 10); }\n    #[test]\n    fn b(x in 0..10u8) {}\n}\n";
        assert_eq!(tests_in(proptest, &[]), 2);
        let one_line = "quickcheck! { fn p(x: u8) -> bool { true } }\nfn q() {}\n";
        assert_eq!(tests_in(one_line, &[]), 1);
    }

    #[test]
    fn names_split_into_attributes_and_bangs() {
        let m = TestMacros::new(&["gen!", " a::b ", "x::y!"]);
        assert!(m.is_bang("gen") && m.is_bang("y") && m.is_bang("quickcheck"));
        assert!(m.is_attr("b") && m.is_attr("test") && m.is_attr("rstest"));
        assert!(!m.is_attr("gen") && !m.is_bang("b"));
    }
}
