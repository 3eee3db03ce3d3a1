//! A small, forgiving lexer: splits each line of a source file into its code (with every
//! string literal collapsed to a single `"`) and its comment pieces. Markers are then
//! matched on code tokens or on comment text, never on the raw line, so `"it.skip"` in a
//! string or `// dbg!(x)` in a comment does not count as code.
//!
//! It knows each language's comments and string quotes, nothing more: it never fails, and
//! on input it does not understand (regex literals, heredocs, sigils) it may misjudge a
//! few characters, which can hide a marker (a miss) but rarely invent one.

use super::languages::Syntax;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineView {
    /// The line without comments; each string literal (or the part of a multi-line one
    /// that starts here) is replaced by one `"`.
    pub code: String,
    /// The text of each comment on the line, without its `//`, `#`, `/*` or `*/`.
    pub comments: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    Block(u32),
    Str(usize),
    RawStr(usize),
}

/// Lex `text` from its start, keeping comment and string state across lines, and return
/// the views of at most `max_lines` lines (line 1 is index 0).
pub fn lex(syntax: &Syntax, text: &str, max_lines: usize) -> Vec<LineView> {
    let mut state = State::Code;
    let special = code_specials(syntax);
    text.split('\n')
        .take(max_lines)
        .map(|line| lex_one(syntax, &special, strip_cr(line), &mut state))
        .collect()
}

/// Lex one line on its own, when the file around it is not available. A line that starts
/// with `*` in a language with block comments is taken as the inside of one (the usual
/// doc-comment layout).
pub fn lex_line(syntax: &Syntax, line: &str) -> LineView {
    let line = strip_cr(line);
    let mut state = State::Code;
    if syntax.block_comment.is_some() && line.trim_start().starts_with('*') {
        state = State::Block(1);
    }
    lex_one(syntax, &code_specials(syntax), line, &mut state)
}

/// Bytes that may start something other than plain code (a comment, a string, a Rust
/// literal); everything else is copied in runs, which keeps the lexer fast.
fn code_specials(syntax: &Syntax) -> [bool; 128] {
    let mut table = [false; 128];
    let mut mark = |s: &str| {
        if let Some(b) = s.bytes().next().filter(u8::is_ascii) {
            table[b as usize] = true;
        }
    };
    if let Some((open, _, _)) = syntax.block_comment {
        mark(open);
    }
    syntax.line_comments.iter().for_each(|m| mark(m));
    syntax.quotes.iter().for_each(|q| mark(q.open));
    if syntax.rust_literals {
        ["r", "b", "'"].iter().for_each(|m| mark(m));
    }
    table
}

/// Length of the leading run of `rest` holding none of the ASCII bytes `stop` accepts.
fn run_len(rest: &str, stop: impl Fn(u8) -> bool) -> usize {
    rest.bytes()
        .position(|b| b.is_ascii() && stop(b))
        .unwrap_or(rest.len())
}

fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn lex_one(syntax: &Syntax, special: &[bool; 128], line: &str, state: &mut State) -> LineView {
    // The code part is never longer than the line: one allocation instead of a growing one.
    let mut view = LineView {
        code: String::with_capacity(line.len()),
        ..LineView::default()
    };
    let mut piece = String::new();
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let c = rest.chars().next().unwrap_or(' ');
        match *state {
            State::Code => {
                let run = run_len(rest, |b| special[b as usize]);
                if run > 0 {
                    view.code.push_str(&rest[..run]);
                    i += run;
                    continue;
                }
                if let Some((open, _, _)) = syntax.block_comment {
                    if rest.starts_with(open) {
                        *state = State::Block(1);
                        i += open.len();
                        continue;
                    }
                }
                if let Some(marker) = line_comment_at(syntax, line, i) {
                    view.comments.push(rest[marker.len()..].to_string());
                    return view;
                }
                if syntax.rust_literals {
                    if let Some((len, hashes)) = rust_raw_open(line, i) {
                        view.code.push('"');
                        *state = State::RawStr(hashes);
                        i += len;
                        continue;
                    }
                    if c == '\'' {
                        if let Some(len) = rust_char_literal(rest) {
                            view.code.push('"');
                            i += len;
                            continue;
                        }
                    }
                }
                if let Some(k) = syntax.quotes.iter().position(|q| rest.starts_with(q.open)) {
                    view.code.push('"');
                    *state = State::Str(k);
                    i += syntax.quotes[k].open.len();
                    continue;
                }
                view.code.push(c);
                i += c.len_utf8();
            }
            State::Block(depth) => {
                let (open, close, nested) = syntax.block_comment.unwrap_or(("/*", "*/", false));
                let run = run_len(rest, |b| {
                    b == close.as_bytes()[0] || (nested && b == open.as_bytes()[0])
                });
                if run > 0 {
                    piece.push_str(&rest[..run]);
                    i += run;
                    continue;
                }
                if rest.starts_with(close) {
                    i += close.len();
                    if depth <= 1 {
                        view.comments.push(std::mem::take(&mut piece));
                        *state = State::Code;
                    } else {
                        *state = State::Block(depth - 1);
                    }
                    continue;
                }
                if nested && rest.starts_with(open) {
                    *state = State::Block(depth + 1);
                    i += open.len();
                    continue;
                }
                piece.push(c);
                i += c.len_utf8();
            }
            State::Str(k) => {
                let quote = syntax.quotes[k];
                let run = run_len(rest, |b| {
                    (quote.escapes && b == b'\\') || b == quote.close.as_bytes()[0]
                });
                if run > 0 {
                    i += run;
                    continue;
                }
                if quote.escapes && c == '\\' {
                    i += 1;
                    if let Some(next) = line[i..].chars().next() {
                        i += next.len_utf8();
                    }
                    continue;
                }
                if rest.starts_with(quote.close) {
                    *state = State::Code;
                    i += quote.close.len();
                    continue;
                }
                i += c.len_utf8();
            }
            State::RawStr(hashes) => {
                let run = run_len(rest, |b| b == b'"');
                if run > 0 {
                    i += run;
                    continue;
                }
                if c == '"'
                    && rest[1..]
                        .bytes()
                        .take(hashes)
                        .filter(|b| *b == b'#')
                        .count()
                        == hashes
                {
                    *state = State::Code;
                    i += 1 + hashes;
                    continue;
                }
                i += c.len_utf8();
            }
        }
    }
    match *state {
        State::Block(_) if !piece.is_empty() => view.comments.push(piece),
        // A single-line string left open is a lexer miss: recover at the next line.
        State::Str(k) if !syntax.quotes[k].multiline => *state = State::Code,
        _ => {}
    }
    view
}

/// The line-comment marker starting at byte `i`, if one does.
fn line_comment_at(syntax: &Syntax, line: &str, i: usize) -> Option<&'static str> {
    let rest = &line[i..];
    let marker = syntax
        .line_comments
        .iter()
        .find(|m| rest.starts_with(**m))?;
    if *marker == "#" {
        if syntax.hash_bracket_is_code && rest.starts_with("#[") {
            return None;
        }
        if syntax.hash_needs_word_start {
            let prev = line[..i].chars().next_back();
            if prev.is_some_and(|p| !p.is_whitespace()) {
                return None;
            }
        }
    }
    Some(marker)
}

/// `r"`, `r#"`, `br##"` ... at byte `i` (not inside an identifier): its length and the
/// number of `#`s that must follow the closing quote.
fn rust_raw_open(line: &str, i: usize) -> Option<(usize, usize)> {
    if line[..i].chars().next_back().is_some_and(is_ident_char) {
        return None;
    }
    let rest = &line[i..];
    let after_prefix = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r'))?;
    let hashes = after_prefix.bytes().take_while(|b| *b == b'#').count();
    if after_prefix[hashes..].starts_with('"') {
        Some((rest.len() - after_prefix.len() + hashes + 1, hashes))
    } else {
        None
    }
}

/// The byte length of a char literal (`'x'`, `'\n'`, `'\u{1F600}'`) at the start of
/// `rest`, or `None` for a lifetime such as `'a`.
fn rust_char_literal(rest: &str) -> Option<usize> {
    let mut chars = rest.char_indices().skip(1);
    let (_, first) = chars.next()?;
    if first == '\\' {
        // An escape: the closing quote comes within a few characters.
        return rest
            .char_indices()
            .skip(3)
            .take(10)
            .find(|(_, c)| *c == '\'')
            .map(|(at, _)| at + 1);
    }
    let (at, second) = chars.next()?;
    (second == '\'').then_some(at + 1)
}

#[cfg(test)]
mod tests {
    use super::super::languages::Lang;
    use super::*;

    fn views(lang: Lang, text: &str) -> Vec<LineView> {
        lex(&lang.syntax(), text, usize::MAX)
    }

    #[test]
    fn strings_collapse_and_comments_split_off() {
        let v = views(Lang::Js, "it.skip(\"a // b\") // note\n");
        assert_eq!(v[0].code, "it.skip(\") ");
        assert_eq!(v[0].comments, vec![" note".to_string()]);
    }

    #[test]
    fn block_comments_span_lines_and_keep_code_after_them() {
        let v = views(Lang::Js, "a /* one\n two */ b\nc");
        assert_eq!(v[0].code, "a ");
        assert_eq!(v[0].comments, vec![" one".to_string()]);
        assert_eq!(v[1].code, " b");
        assert_eq!(v[1].comments, vec![" two ".to_string()]);
        assert_eq!(v[2].code, "c");
    }

    #[test]
    fn python_docstrings_span_lines() {
        let v = views(Lang::Python, "x = \"\"\"\nprint(1)\n\"\"\" # done");
        assert_eq!(v[0].code, "x = \"");
        assert_eq!(v[1].code, "");
        assert!(v[1].comments.is_empty());
        assert_eq!(v[2].comments, vec![" done".to_string()]);
    }

    #[test]
    fn escapes_do_not_close_strings() {
        let v = views(Lang::Js, r#"a("x\"y") + b"#);
        assert_eq!(v[0].code, "a(\") + b");
    }

    #[test]
    fn unterminated_single_line_string_recovers_on_next_line() {
        let v = views(Lang::Js, "a('oops\nb()");
        assert_eq!(v[1].code, "b()");
    }

    #[test]
    fn rust_lifetimes_chars_and_raw_strings() {
        let v = views(
            Lang::Rust,
            "fn f<'a>(x: &'a str) -> char { '\"' }\nr#\"it \" #[ignore]\"# y",
        );
        assert_eq!(v[0].code, "fn f<'a>(x: &'a str) -> char { \" }");
        assert_eq!(v[1].code, "\" y");
        let nested = views(Lang::Rust, "/* a /* b */ still */ code");
        assert_eq!(nested[0].code, " code");
    }

    #[test]
    fn php_attributes_are_code_and_hash_is_a_comment() {
        let v = views(Lang::Php, "#[Test] # note");
        assert_eq!(v[0].code, "#[Test] ");
        assert_eq!(v[0].comments, vec![" note".to_string()]);
    }

    #[test]
    fn shell_hash_inside_a_word_is_not_a_comment() {
        let v = views(Lang::Shell, "echo $# # n");
        assert_eq!(v[0].code, "echo $# ");
        assert_eq!(v[0].comments, vec![" n".to_string()]);
    }

    #[test]
    fn standalone_doc_comment_lines_are_comments() {
        let v = lex_line(&Lang::Php.syntax(), " * @phpstan-ignore-next-line");
        assert_eq!(v.code, "");
        assert_eq!(v.comments, vec![" * @phpstan-ignore-next-line".to_string()]);
    }

    #[test]
    fn crlf_and_non_ascii_do_not_panic() {
        let v = views(Lang::Go, "x := \"é\" // ü\r\ny\r\n");
        assert_eq!(v[0].code, "x := \" ");
        assert_eq!(v[1].code, "y");
        let _ = views(Lang::Rust, "'");
        let _ = views(Lang::Rust, "'\\");
        let _ = views(Lang::Rust, "r#");
        let _ = views(Lang::Python, "\"\\");
    }

    #[test]
    fn max_lines_bounds_the_work() {
        assert_eq!(lex(&Lang::Js.syntax(), "a\nb\nc\n", 2).len(), 2);
    }
}
