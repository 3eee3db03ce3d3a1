//! Rust tests switched off under Miri. `cfg(miri)` is set only when a test suite runs under
//! the Miri interpreter, so a gate on it says "skip under Miri" and nothing else, as
//! `#[cfg_attr(miri, ignore)]` does: a `#[cfg(..)]` over a test or test module that is
//! false under Miri (`#[cfg(not(miri))]`, `#[cfg(all(feature = "x", not(miri)))]`), and an
//! early `return` under `cfg!(miri)` in a test or doc example (`/// # if cfg!(miri) {
//! return Ok(()); }`). A platform or feature gate is not one: it says which code exists
//! where (`#[cfg(unix)]` over a test of a Unix API), as Go's platform tags do.

use super::lexer::LineView;

/// The label of a `#[cfg(..)]` over a test that is off under Miri.
pub const CFG_LABEL: &str = "#[cfg(not(miri))]";
/// The label of an early return under `cfg!(miri)`.
pub const RETURN_LABEL: &str = "if cfg!(miri) { return }";

/// How many lines an attribute's predicate, and the attributes over one item, are followed.
const SPAN: usize = 12;

/// Whether line `at` (0-based) of a Rust file lexed whole (`views`) holds the `miri` of a
/// `#[cfg(..)]` predicate that is false under Miri, on an attribute run over a test (`#[test]`,
/// `#[tokio::test]`) or a test module (`#[cfg(test)]`).
pub fn cfg_off_under_miri(views: &[LineView], at: usize) -> bool {
    let Some(view) = views.get(at) else {
        return false;
    };
    if !has_word(&view.code, "miri") {
        return false;
    }
    // The attribute the line belongs to: the nearest `#[` opener at or above it.
    let Some(start) = (at.saturating_sub(SPAN)..=at)
        .rev()
        .find(|&i| views[i].code.trim_start().starts_with("#["))
    else {
        return false;
    };
    let Some((attr, end)) = attribute(views, start) else {
        return false;
    };
    if end < at {
        return false;
    }
    let Some(predicate) = attr.strip_prefix("cfg(").and_then(|p| p.strip_suffix(')')) else {
        return false;
    };
    if eval(&mut Parser::new(predicate), true) != Some(false) {
        return false;
    }
    attributes_over(views, start, end)
        .iter()
        .any(|a| marks_test(a))
}

/// Whether line `at` is an early return under `cfg!(miri)`: in a doc comment (a doc
/// example is a test) or in the code of a test file, `if cfg!(miri) { return ..` on one
/// line.
pub fn returns_under_miri(views: &[LineView], at: usize, is_test: bool) -> bool {
    let Some(view) = views.get(at) else {
        return false;
    };
    let doc = view
        .comments
        .iter()
        .map(|c| {
            c.trim_start_matches('/')
                .trim_start_matches('!')
                .trim_start()
        })
        .map(|c| c.strip_prefix('#').unwrap_or(c))
        .any(early_return);
    doc || (is_test && early_return(&view.code))
}

fn early_return(text: &str) -> bool {
    let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(rest) = squeezed.strip_prefix("ifcfg!(") else {
        return false;
    };
    let Some(close) = matching(rest) else {
        return false;
    };
    let predicate = &rest[..close];
    let body = &rest[close + 1..];
    eval(&mut Parser::new(predicate), true) == Some(true)
        && eval(&mut Parser::new(predicate), false) == Some(false)
        && body.starts_with("{return")
}

/// The index of the `)` that closes the bracket opened just before `s`.
fn matching(s: &str) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// The attribute opened on line `start` (`#[` .. `]`), whitespace removed and without its
/// brackets (`cfg(all(test,not(miri)))`), and the line it ends on.
fn attribute(views: &[LineView], start: usize) -> Option<(String, usize)> {
    let mut text = String::new();
    let mut depth = 0i32;
    for (i, v) in views.iter().enumerate().skip(start).take(SPAN) {
        let code = if i == start {
            v.code.trim_start().strip_prefix("#[")?
        } else {
            v.code.as_str()
        };
        for c in code.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '[' | '(' => depth += 1,
                ')' => depth -= 1,
                ']' if depth == 0 => return Some((text, i)),
                ']' => depth -= 1,
                _ => {}
            }
            text.push(c);
        }
    }
    None
}

/// The attributes of the run that holds the one on lines `start..=end`: those just above it
/// and those between it and the item, each as [`attribute`] reads it.
fn attributes_over(views: &[LineView], start: usize, end: usize) -> Vec<String> {
    let mut out = Vec::new();
    let blank = |v: &LineView| v.code.trim().is_empty();
    // Above: single-line attributes (the usual `#[test]` or `#[cfg(test)]`).
    for v in views[..start].iter().rev().take(SPAN) {
        if blank(v) {
            continue;
        }
        match v
            .code
            .trim()
            .strip_prefix("#[")
            .and_then(|a| a.strip_suffix(']'))
        {
            Some(a) => out.push(a.chars().filter(|c| !c.is_whitespace()).collect()),
            None => break,
        }
    }
    let mut i = start;
    while i < views.len() && i <= end + SPAN {
        if i != start && blank(&views[i]) {
            i += 1;
            continue;
        }
        if !views[i].code.trim_start().starts_with("#[") {
            break;
        }
        match attribute(views, i) {
            Some((a, last)) => {
                out.push(a);
                i = last + 1;
            }
            None => break,
        }
    }
    out
}

/// A test attribute (`test`, a path ending in `::test`) or a cfg that holds only in test
/// builds (`cfg(test)`, `cfg(all(test, ..))`).
fn marks_test(attr: &str) -> bool {
    if attr == "test" || attr.ends_with("::test") {
        return true;
    }
    attr.strip_prefix("cfg(")
        .and_then(|p| p.strip_suffix(')'))
        .is_some_and(|p| {
            eval_with(&mut Parser::new(p), &|w| (w == "test").then_some(false)) == Some(false)
        })
}

/// A cfg predicate's value with `miri` set as given and every other option unknown.
fn eval(p: &mut Parser, miri: bool) -> Option<bool> {
    eval_with(p, &|w| (w == "miri").then_some(miri))
}

/// Three-valued reading of a cfg predicate (`all`, `any`, `not`, options, `key = "value"`):
/// `None` where it depends on options `known` does not set.
fn eval_with(p: &mut Parser, known: &dyn Fn(&str) -> Option<bool>) -> Option<bool> {
    let word = p.word();
    if p.eat('(') {
        let mut args = Vec::new();
        loop {
            if p.eat(')') {
                break;
            }
            if p.done() {
                return None;
            }
            args.push(eval_with(p, known));
            p.eat(',');
        }
        return match word {
            "all" => {
                if args.contains(&Some(false)) {
                    Some(false)
                } else if args.iter().all(|a| *a == Some(true)) {
                    Some(true)
                } else {
                    None
                }
            }
            "any" => {
                if args.contains(&Some(true)) {
                    Some(true)
                } else if args.iter().all(|a| *a == Some(false)) {
                    Some(false)
                } else {
                    None
                }
            }
            "not" if args.len() == 1 => args[0].map(|v| !v),
            _ => None,
        };
    }
    if p.eat('=') {
        p.string();
        return None;
    }
    known(word)
}

/// A cursor over a predicate with its whitespace removed.
struct Parser<'a> {
    s: &'a str,
}

impl<'a> Parser<'a> {
    fn new(s: &'a str) -> Self {
        Parser { s }
    }

    fn done(&self) -> bool {
        self.s.is_empty()
    }

    fn eat(&mut self, c: char) -> bool {
        match self.s.strip_prefix(c) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn word(&mut self) -> &'a str {
        let end = self
            .s
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(self.s.len());
        let (w, rest) = self.s.split_at(end);
        self.s = rest;
        if w.is_empty() && !self.s.is_empty() && !self.s.starts_with([')', ',']) {
            // Something that is no option: stop reading.
            self.s = "";
        }
        w
    }

    /// A string value: whole (`"x"`) in a comment, a lone `"` in code the lexer read.
    fn string(&mut self) {
        if let Some(rest) = self.s.strip_prefix('"') {
            if rest.is_empty() || rest.starts_with([')', ',']) {
                self.s = rest;
            } else {
                let end = rest.find('"').map_or(rest.len(), |e| e + 1);
                self.s = &rest[end..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::languages::Lang;
    use crate::guards::lexer::lex;

    fn views(text: &str) -> Vec<LineView> {
        lex(&Lang::Rust.syntax(), text, usize::MAX)
    }

    #[test]
    fn a_cfg_off_under_miri_over_a_test_module_or_test() {
        let text = "#[cfg(all(\n    feature = \"x\",\n    not(miri),\n))]\n#[cfg(test)]\nmod tests {}\n\n#[test]\n#[cfg(not(miri))]\nfn slow() {}\n";
        let v = views(text);
        assert!(cfg_off_under_miri(&v, 2));
        assert!(!cfg_off_under_miri(&v, 1));
        assert!(cfg_off_under_miri(&v, 8));
    }

    #[test]
    fn a_cfg_on_under_miri_or_over_other_code_is_none() {
        for text in [
            "#[cfg(not(miri))]\nfn helper() {}\n",
            "#[cfg(miri)]\n#[test]\nfn only_miri() {}\n",
            "#[cfg(any(not(miri), feature = \"x\"))]\n#[test]\nfn t() {}\n",
            "#[cfg(not(test))]\n#[cfg(not(miri))]\nmod real {}\n",
        ] {
            let v = views(text);
            assert!((0..v.len()).all(|i| !cfg_off_under_miri(&v, i)), "{text}");
        }
    }

    #[test]
    fn an_early_return_under_miri_in_a_doc_example_or_test() {
        let text = "/// ```\n/// # if cfg!(miri) { return Ok(()); } // slow\n/// ```\nfn f() {\n    let n = if cfg!(miri) { 10 } else { 1000 };\n    if cfg!(miri) { return; }\n    if cfg!(not(miri)) { return; }\n}\n";
        let v = views(text);
        assert!(returns_under_miri(&v, 1, false));
        assert!(!returns_under_miri(&v, 4, true));
        assert!(returns_under_miri(&v, 5, true));
        assert!(!returns_under_miri(&v, 5, false));
        assert!(!returns_under_miri(&v, 6, true));
    }
}
