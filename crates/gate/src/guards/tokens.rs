//! Tokens of the code part of a line (see `lexer`), and member chains (`a.b.c`) over
//! them. Markers match whole identifiers, so `skipWhitespace(` never looks like `skip(`.

use super::languages::Lang;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok<'a> {
    Ident(&'a str),
    Punct(char),
    /// A string literal (its content is gone).
    Str,
    Num,
}

pub fn tokenize(lang: Lang, code: &str) -> Vec<Tok<'_>> {
    let extra = lang.syntax().ident_extra;
    let is_start = |c: char| c.is_alphabetic() || c == '_' || extra.contains(&c);
    let is_cont = |c: char| c.is_alphanumeric() || c == '_' || extra.contains(&c);
    let mut out = Vec::new();
    let mut iter = code.char_indices().peekable();
    while let Some((at, c)) = iter.next() {
        if c.is_whitespace() {
            continue;
        }
        if c == '"' {
            out.push(Tok::Str);
        } else if is_start(c) {
            let mut end = at + c.len_utf8();
            while let Some(&(j, d)) = iter.peek() {
                if !is_cont(d) {
                    break;
                }
                end = j + d.len_utf8();
                iter.next();
            }
            out.push(Tok::Ident(&code[at..end]));
        } else if c.is_ascii_digit() {
            while iter
                .peek()
                .is_some_and(|&(_, d)| d.is_alphanumeric() || d == '_')
            {
                iter.next();
            }
            out.push(Tok::Num);
        } else {
            out.push(Tok::Punct(c));
        }
    }
    out
}

/// `a.b.c` (and `a->b`, `a::b` where the language uses them): maximal runs of names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain<'a> {
    pub names: Vec<&'a str>,
    /// Token index of the first name.
    pub start: usize,
    /// Token index just past the last name.
    pub end: usize,
}

impl<'a> Chain<'a> {
    pub fn head(&self) -> &'a str {
        self.names[0]
    }
    pub fn last(&self) -> &'a str {
        self.names[self.names.len() - 1]
    }
    pub fn is(&self, names: &[&str]) -> bool {
        self.names == names
    }
    /// The token before the chain (`@` of a decorator, `.` of an implicit member).
    pub fn before(&self, toks: &[Tok<'a>]) -> Option<Tok<'a>> {
        self.start.checked_sub(1).map(|i| toks[i])
    }
    pub fn after(&self, toks: &[Tok<'a>]) -> Option<Tok<'a>> {
        toks.get(self.end).copied()
    }
    /// Called: followed by `(`.
    pub fn called(&self, toks: &[Tok<'a>]) -> bool {
        self.after(toks) == Some(Tok::Punct('('))
    }
    /// Not the tail of a longer expression (`x.` or `x->` before it).
    pub fn free(&self, toks: &[Tok<'a>]) -> bool {
        !matches!(
            self.before(toks),
            Some(Tok::Punct('.')) | Some(Tok::Punct('>')) | Some(Tok::Punct(':'))
        )
    }
}

fn separator_len(lang: Lang, toks: &[Tok], i: usize) -> usize {
    match (toks.get(i), toks.get(i + 1)) {
        (Some(Tok::Punct('.')), _) => 1,
        (Some(Tok::Punct(':')), Some(Tok::Punct(':'))) if lang != Lang::Python => 2,
        (Some(Tok::Punct('-')), Some(Tok::Punct('>'))) if lang.arrow_chains() => 2,
        _ => 0,
    }
}

pub fn chains<'a>(lang: Lang, toks: &[Tok<'a>]) -> Vec<Chain<'a>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let Tok::Ident(first) = toks[i] else {
            i += 1;
            continue;
        };
        let start = i;
        let mut names = vec![first];
        i += 1;
        loop {
            let sep = separator_len(lang, toks, i);
            match (sep, toks.get(i + sep)) {
                (1.., Some(Tok::Ident(name))) => {
                    names.push(name);
                    i += sep + 1;
                }
                _ => break,
            }
        }
        out.push(Chain {
            names,
            start,
            end: i,
        });
    }
    out
}

/// Whether `needle` occurs in `hay` as a whole word (no identifier character on either
/// side), e.g. `TODO:` but not `TODOS` or `autoTODO`.
pub fn has_word(hay: &str, needle: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    hay.match_indices(needle).any(|(at, _)| {
        let before = hay[..at].chars().next_back();
        let after = hay[at + needle.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_whole() {
        let t = tokenize(Lang::Js, "skipWhitespace($x, \", 42)");
        assert_eq!(
            t,
            vec![
                Tok::Ident("skipWhitespace"),
                Tok::Punct('('),
                Tok::Ident("$x"),
                Tok::Punct(','),
                Tok::Str,
                Tok::Punct(','),
                Tok::Num,
                Tok::Punct(')'),
            ]
        );
    }

    #[test]
    fn chains_join_dots_and_language_separators() {
        let t = tokenize(Lang::Js, "@pytest.mark.skip(x.y)");
        let c = chains(Lang::Js, &t);
        assert_eq!(c[0].names, vec!["pytest", "mark", "skip"]);
        assert_eq!(c[0].before(&t), Some(Tok::Punct('@')));
        assert!(c[0].called(&t));
        assert_eq!(c[1].names, vec!["x", "y"]);
        let php = tokenize(Lang::Php, "$this->markTestSkipped()");
        assert_eq!(
            chains(Lang::Php, &php)[0].names,
            vec!["$this", "markTestSkipped"]
        );
        let rs = tokenize(Lang::Rust, "tokio::test");
        assert_eq!(chains(Lang::Rust, &rs)[0].names, vec!["tokio", "test"]);
    }

    #[test]
    fn whole_words_only() {
        assert!(has_word("x TODO: y", "TODO"));
        assert!(has_word("TODO", "TODO"));
        assert!(!has_word("TODOS", "TODO"));
        assert!(!has_word("autoTODO", "TODO"));
        assert!(has_word("é TODO", "TODO"));
    }
}
