//! Everything the marker finders need to know about one line, computed once and shared.

use super::languages::Lang;
use super::lexer::LineView;
use super::tokens::{chains, tokenize, Chain, Tok};

/// How far a line is indented: the bytes of whitespace before its first character.
pub fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

pub struct LineCtx<'a> {
    pub lang: Lang,
    pub view: &'a LineView,
    pub toks: Vec<Tok<'a>>,
    pub chains: Vec<Chain<'a>>,
    /// The file is a test file (markers that only mean "skip" inside tests use it).
    pub is_test: bool,
    /// The file's own skip helpers (see [`super::skip_helpers`]): a call to one is a skip.
    pub skip_helpers: &'a [String],
    /// The line as written, string literals included, when the caller has it (empty when
    /// not): what a Ruby `require` loads is in its string.
    pub raw: &'a str,
    /// Test options the file declares as variables with a constant off value
    /// (`const skip = false`, see [`super::skips::js_options_off`]): the shorthand
    /// `{ skip }` given to a test then skips nothing.
    pub options_off: &'a [String],
    /// The pytest skip marks the file applies by name (see [`super::mark_aliases`]).
    pub mark_aliases: &'a [super::mark_aliases::Alias],
    /// The coverage pragmas the repository configures (see [`super::coverage_pragmas`]).
    pub coverage: &'a super::coverage_pragmas::CoveragePragmas,
}

impl<'a> LineCtx<'a> {
    pub fn new(lang: Lang, view: &'a LineView, is_test: bool) -> LineCtx<'a> {
        let toks = tokenize(lang, &view.code);
        let chains = chains(lang, &toks);
        LineCtx {
            lang,
            view,
            toks,
            chains,
            is_test,
            skip_helpers: &[],
            raw: "",
            options_off: &[],
            mark_aliases: &[],
            coverage: &super::coverage_pragmas::NONE,
        }
    }

    pub fn tok(&self, i: usize) -> Option<Tok<'a>> {
        self.toks.get(i).copied()
    }

    pub fn punct(&self, i: usize, c: char) -> bool {
        self.tok(i) == Some(Tok::Punct(c))
    }

    pub fn ident(&self, i: usize) -> Option<&'a str> {
        match self.tok(i) {
            Some(Tok::Ident(s)) => Some(s),
            _ => None,
        }
    }

    /// Index just past a `#[` or `#![` attribute opener at the start of the line.
    pub fn attribute_start(&self) -> Option<usize> {
        if !self.punct(0, '#') {
            return None;
        }
        if self.punct(1, '[') {
            Some(2)
        } else if self.punct(1, '!') && self.punct(2, '[') {
            Some(3)
        } else {
            None
        }
    }

    /// Comment pieces split at the language's line-comment markers (`# a # noqa` holds
    /// two directives), each trimmed of leading decoration (`*`, `/`, `!`, spaces).
    pub fn comment_pieces(&self) -> Vec<&'a str> {
        let markers = self.lang.syntax().line_comments;
        let mut out = Vec::new();
        for comment in &self.view.comments {
            let mut pieces = vec![comment.as_str()];
            for marker in markers {
                pieces = pieces.into_iter().flat_map(|p| p.split(marker)).collect();
            }
            out.extend(
                pieces
                    .into_iter()
                    .map(|p| p.trim_start_matches(|c: char| c.is_whitespace() || "*/!".contains(c)))
                    .filter(|p| !p.is_empty()),
            );
        }
        out
    }
}

/// Whether a comment piece starts with `directive`. In the directive a space stands for
/// any run of whitespace (also none), and whitespace around `:` is free, as the tools
/// accept (`type:ignore`, `type: ignore`, `pylint : disable`). The match must end at a
/// word boundary (`noqa:E501` yes, `noqaz` no).
pub fn starts_with_directive(piece: &str, directive: &str, ignore_case: bool) -> bool {
    directive_len(piece, directive, ignore_case).is_some()
}

/// How many characters of `piece` the directive takes, when it starts with it (see
/// [`starts_with_directive`]).
pub fn directive_len(piece: &str, directive: &str, ignore_case: bool) -> Option<usize> {
    let p: Vec<char> = piece.chars().collect();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < p.len() && p[*i].is_whitespace() {
            *i += 1;
        }
    };
    for d in directive.chars() {
        match d {
            ' ' => skip_ws(&mut i),
            ':' => {
                skip_ws(&mut i);
                if p.get(i) != Some(&':') {
                    return None;
                }
                i += 1;
                skip_ws(&mut i);
            }
            _ => {
                let &c = p.get(i)?;
                let same = if ignore_case {
                    c.eq_ignore_ascii_case(&d)
                } else {
                    c == d
                };
                if !same {
                    return None;
                }
                i += 1;
            }
        }
    }
    let last_is_word = directive
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric());
    let glued = last_is_word && p.get(i).is_some_and(|c| c.is_alphanumeric() || *c == '_');
    (!glued).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_tolerate_spacing_and_need_a_word_end() {
        assert!(starts_with_directive(
            "type: ignore[attr]",
            "type: ignore",
            false
        ));
        assert!(starts_with_directive("type:ignore", "type: ignore", false));
        assert!(starts_with_directive("NoQA: E501", "noqa", true));
        assert!(!starts_with_directive("noqaz", "noqa", true));
        assert!(!starts_with_directive(
            "types: ignore",
            "type: ignore",
            false
        ));
        assert!(starts_with_directive(
            "eslint-disable-next-line x",
            "eslint-disable",
            false
        ));
        assert!(!starts_with_directive(
            "eslint-disabled",
            "eslint-disable",
            false
        ));
        assert!(!starts_with_directive("", "noqa", true));
    }
}
