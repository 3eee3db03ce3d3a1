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
    // Room for the usual line (a token per two bytes or fewer) without regrowing.
    let mut out = Vec::with_capacity(code.len() / 2 + 2);
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

/// The names of a chain, kept inline (no allocation per chain). A chain longer than
/// [`Names::CAP`] keeps its first and last names, which is all any marker looks at.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Names<'a> {
    buf: [&'a str; Names::CAP],
    len: usize,
    /// Names seen in all (may exceed `CAP`).
    seen: usize,
}

impl<'a> Names<'a> {
    pub const CAP: usize = 6;
    const HALF: usize = Names::CAP / 2;

    fn one(first: &'a str) -> Names<'a> {
        let mut buf = [""; Names::CAP];
        buf[0] = first;
        Names {
            buf,
            len: 1,
            seen: 1,
        }
    }

    fn push(&mut self, name: &'a str) {
        if self.len < Names::CAP {
            self.buf[self.len] = name;
            self.len += 1;
        } else {
            // Keep the first half fixed and slide the second half along.
            self.buf.copy_within(Names::HALF + 1.., Names::HALF);
            self.buf[Names::CAP - 1] = name;
        }
        self.seen += 1;
    }
}

impl<'a> std::ops::Deref for Names<'a> {
    type Target = [&'a str];
    fn deref(&self) -> &[&'a str] {
        &self.buf[..self.len]
    }
}

impl std::fmt::Debug for Names<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// `a.b.c` (and `a->b`, `a::b` where the language uses them): maximal runs of names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain<'a> {
    pub names: Names<'a>,
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
        self.names.seen == names.len() && *self.names == *names
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
        let mut names = Names::one(first);
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
        assert_eq!(*c[0].names, ["pytest", "mark", "skip"]);
        assert_eq!(c[0].before(&t), Some(Tok::Punct('@')));
        assert!(c[0].called(&t));
        assert_eq!(*c[1].names, ["x", "y"]);
        let php = tokenize(Lang::Php, "$this->markTestSkipped()");
        assert_eq!(
            *chains(Lang::Php, &php)[0].names,
            ["$this", "markTestSkipped"]
        );
        let rs = tokenize(Lang::Rust, "tokio::test");
        assert_eq!(*chains(Lang::Rust, &rs)[0].names, ["tokio", "test"]);
    }

    #[test]
    fn long_chains_keep_their_ends() {
        let t = tokenize(Lang::Js, "a.b.c.d.e.f.g.h.skip");
        let c = &chains(Lang::Js, &t)[0];
        assert_eq!(*c.names, ["a", "b", "c", "g", "h", "skip"]);
        assert_eq!(c.last(), "skip");
        assert!(!c.is(&["a", "b", "c", "g", "h", "skip"]));
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
