//! An assumption over a parameter the change introduced lowers no bar.
//!
//! A JUnit class made parameterized runs each test once per parameter value. A test that
//! is only about some of the values says so with an assumption over the parameter
//! (`assumeTrue(factory == Factory.STRING_READER)`): for those values it runs, for the
//! others the runner reports it skipped. When the parameter is new in this change, the
//! test ran before in one configuration only, so nothing that ran stopped running.
//!
//! The shape is narrow, so that a skip of a case that did run is still caught:
//! - the condition reads nothing but parameter fields, constants of types
//!   (`Factory.STRING_READER`, `Boolean.TRUE`) and literals: no call (the JDK version, the
//!   operating system, an environment variable), no member of a variable;
//! - each field it reads is a parameter: annotated `@Parameter` (JUnit 4's `Parameterized`,
//!   JUnit 5's `@ParameterizedClass`), or set from the same-named constructor argument
//!   (`this.x = x`) in a class run by `Parameterized`;
//! - and no such name occurred in the file at the comparison point.

use super::languages::Lang;
use super::lexer::lex;
use super::skips::is_assumption;
use super::tokens::{tokenize, Tok};
use std::collections::HashSet;

/// Whether the assumption `label` on line `line` of `new_text` only selects values of a
/// parameter that `old_text`, the file at the comparison point, did not have.
pub fn assumes_new_parameter(
    label: &str,
    line: u32,
    lang: Lang,
    new_text: &str,
    old_text: &str,
) -> bool {
    if !is_assumption(label) || !matches!(lang, Lang::Java | Lang::Kotlin) {
        return false;
    }
    let views = lex(&lang.syntax(), new_text, usize::MAX);
    let Some(own) = (line as usize).checked_sub(1).and_then(|i| views.get(i)) else {
        return false;
    };
    let toks = tokenize(lang, &own.code);
    let name = label.trim_end_matches('(');
    let Some(call) = (0..toks.len())
        .find(|&i| toks[i] == Tok::Ident(name) && toks.get(i + 1) == Some(&Tok::Punct('(')))
    else {
        return false;
    };
    let Some(read) = condition_names(&toks[call + 1..]) else {
        return false;
    };
    if read.is_empty() {
        return false;
    }
    let params = parameters(lang, &views);
    let old: HashSet<String> = lex(&lang.syntax(), old_text, usize::MAX)
        .iter()
        .flat_map(|v| {
            tokenize(lang, &v.code)
                .into_iter()
                .filter_map(|t| match t {
                    Tok::Ident(s) => Some(s.to_string()),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
        .collect();
    read.iter()
        .all(|n| params.contains(*n) && !old.contains(*n))
}

/// The variables the argument list starting at `toks[0]` (`(`) reads, or `None` when it
/// calls something or reads a member of a variable. A wrapped argument list is read as far
/// as this line goes.
fn condition_names<'a>(toks: &[Tok<'a>]) -> Option<Vec<&'a str>> {
    const WORDS: &[&str] = &["true", "false", "null", "this", "instanceof", "new"];
    let mut depth = 0usize;
    let mut names = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Punct('(') => depth += 1,
            Tok::Punct(')') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            Tok::Ident(n) => {
                let after = toks.get(i + 1);
                let before = i.checked_sub(1).map(|j| toks[j]);
                let member = before == Some(Tok::Punct('.'));
                let of_this = member && i >= 2 && toks[i - 2] == Tok::Ident("this");
                let type_like = n.starts_with(|c: char| c.is_uppercase());
                if after == Some(&Tok::Punct('(')) {
                    return None;
                }
                if WORDS.contains(n) || type_like || (member && !of_this) {
                    continue;
                }
                if after == Some(&Tok::Punct('.')) {
                    return None;
                }
                names.push(*n);
            }
            _ => {}
        }
    }
    Some(names)
}

/// The parameter fields of a file: annotated `@Parameter`, or, in a class run by
/// `Parameterized`, set from the same-named constructor argument.
fn parameters(lang: Lang, views: &[super::lexer::LineView]) -> HashSet<String> {
    let toks: Vec<Tok> = views.iter().flat_map(|v| tokenize(lang, &v.code)).collect();
    let ident = |i: usize| match toks.get(i) {
        Some(Tok::Ident(s)) => Some(*s),
        _ => None,
    };
    let punct = |i: usize, c: char| toks.get(i) == Some(&Tok::Punct(c));
    let parameterized = toks.contains(&Tok::Ident("Parameterized"));
    let mut out = HashSet::new();
    if lang == Lang::Kotlin {
        out.extend(burst_properties(&toks));
    }
    for i in 0..toks.len() {
        // `@Parameter`, `@Parameterized.Parameter(1)`: the field is the name before the
        // `;` or `=` that ends its declaration.
        if punct(i, '@') {
            let mut j = i + 1;
            while ident(j).is_some() && punct(j + 1, '.') {
                j += 2;
            }
            if ident(j) == Some("Parameter") {
                let end = (j + 1..toks.len())
                    .find(|&k| punct(k, ';') || punct(k, '=') || punct(k, '{') || punct(k, '}'));
                if let Some(name) = end.and_then(|k| k.checked_sub(1)).and_then(ident) {
                    out.insert(name.to_string());
                }
            }
        }
        // `this.x = x`
        if parameterized
            && ident(i) == Some("this")
            && punct(i + 1, '.')
            && punct(i + 3, '=')
            && !punct(i + 4, '=')
            && ident(i + 2).is_some()
            && ident(i + 2) == ident(i + 4)
            && !punct(i + 5, '.')
            && !punct(i + 5, '(')
        {
            out.insert(ident(i + 2).unwrap_or_default().to_string());
        }
    }
    out
}

/// The properties declared in the primary constructor of a Kotlin class annotated
/// `@Burst`: Burst runs each test of such a class once per value of each constructor
/// parameter (the values of its enum type, or `burstValues(..)` of its default), so each is
/// a parameter as a JUnit `@Parameter` field is. A test body reads only the `val`/`var`
/// ones.
fn burst_properties(toks: &[Tok]) -> Vec<String> {
    let ident = |i: usize| match toks.get(i) {
        Some(Tok::Ident(s)) => Some(*s),
        _ => None,
    };
    let punct = |i: usize, c: char| toks.get(i) == Some(&Tok::Punct(c));
    let mut out = Vec::new();
    let Some(at) = (0..toks.len()).find(|&i| punct(i, '@') && ident(i + 1) == Some("Burst")) else {
        return out;
    };
    // The first class declared after the annotation, and its constructor's list.
    let Some(class) =
        (at..toks.len()).find(|&i| ident(i) == Some("class") && ident(i + 1).is_some())
    else {
        return out;
    };
    let Some(open) = (class + 2..toks.len().min(class + 12)).find(|&i| punct(i, '(')) else {
        return out;
    };
    if punct(open - 1, '>') || ident(open - 1) == Some("constructor") || open == class + 2 {
        let mut depth = 0usize;
        for i in open..toks.len() {
            if punct(i, '(') || punct(i, '<') || punct(i, '[') {
                depth += 1;
            } else if punct(i, ')') || punct(i, '>') || punct(i, ']') {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            } else if depth == 1 && matches!(ident(i), Some("val" | "var")) {
                if let Some(name) = ident(i + 1) {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "public class PathTest extends TestCase {\n  public void testTopLevel() throws IOException {\n    JsonReader reader = new JsonReader(new StringReader(\"[][]\"));\n  }\n}\n";

    const NEW: &str = "@RunWith(Parameterized.class)\npublic class PathTest {\n  @Parameterized.Parameters(name = \"{0}\")\n  public static List<Object[]> parameters() {\n    return Arrays.asList(new Object[] { Factory.STRING_READER }, new Object[] { Factory.OBJECT_READER });\n  }\n\n  @Parameterized.Parameter\n  public Factory factory;\n\n  @Test public void topLevel() throws IOException {\n    assumeTrue(factory == Factory.STRING_READER);\n    JsonReader reader = factory.create(\"[][]\");\n  }\n}\n";

    fn line(text: &str, needle: &str) -> u32 {
        text.lines().position(|l| l.contains(needle)).unwrap() as u32 + 1
    }

    #[test]
    fn an_assumption_over_a_parameter_the_change_added_selects_values() {
        let at = line(NEW, "assumeTrue(");
        assert!(assumes_new_parameter(
            "assumeTrue(",
            at,
            Lang::Java,
            NEW,
            OLD
        ));
        // Constructor-set parameter (`this.x = x`), `assumeFalse`, `Assume.` qualified.
        let new = "@RunWith(Parameterized.class)\npublic class TimeoutTest {\n  private final boolean stuck;\n  public TimeoutTest(Boolean stuck) {\n    this.stuck = stuck;\n  }\n  @Test public void a() {\n    Assume.assumeFalse(this.stuck);\n  }\n}\n";
        let old = "public class TimeoutTest {\n  @Test public void a() {\n  }\n}\n";
        let at = line(new, "assumeFalse(");
        assert!(assumes_new_parameter(
            "assumeFalse(",
            at,
            Lang::Java,
            new,
            old
        ));
    }

    #[test]
    fn an_assumption_that_skips_a_case_that_ran_is_still_a_skip() {
        let at = line(NEW, "assumeTrue(");
        // The class was already parameterized by `factory`: the other value ran before.
        assert!(!assumes_new_parameter(
            "assumeTrue(",
            at,
            Lang::Java,
            NEW,
            NEW
        ));
        // The environment, the JDK, a member of a variable, or a new field that is no
        // parameter.
        for cond in [
            "assumeTrue(factory == Factory.STRING_READER && isLinux());",
            "assumeTrue(System.getProperty(\"ci\") == null);",
            "assumeTrue(factory.supportsPaths);",
            "assumeTrue(slow);",
            "assumeTrue(true);",
        ] {
            let new = NEW
                .replace("assumeTrue(factory == Factory.STRING_READER);", cond)
                .replace(
                    "public Factory factory;",
                    "public Factory factory;\n  static boolean slow = false;",
                );
            let at = line(&new, "assumeTrue(");
            assert!(
                !assumes_new_parameter("assumeTrue(", at, Lang::Java, &new, OLD),
                "{cond}"
            );
        }
        // `this.x = x` outside a Parameterized class is an ordinary field.
        let new = "public class T {\n  private final boolean on;\n  T(boolean on) {\n    this.on = on;\n  }\n  @Test public void a() {\n    assumeTrue(on);\n  }\n}\n";
        assert!(!assumes_new_parameter(
            "assumeTrue(",
            line(new, "assumeTrue("),
            Lang::Java,
            new,
            "public class T {}\n"
        ));
        // Not an assumption.
        assert!(!assumes_new_parameter("@Ignore", 1, Lang::Java, NEW, OLD));
    }
}
