//! A small, forgiving lexer: splits each line of a source file into its code (with every
//! string literal collapsed to a single `"`) and its comment pieces. Markers are then
//! matched on code tokens or on comment text, never on the raw line, so `"it.skip"` in a
//! string or `// dbg!(x)` in a comment does not count as code.
//!
//! It knows each language's comments, string quotes, heredocs and (JS, Ruby) `/.../` regex
//! literals, nothing more: it never fails, and on input it does not understand (sigils such
//! as `%r{}`) it may misjudge a few characters, which can hide a marker (a miss) but rarely
//! invent one.

use super::heredoc::{self, Term};
use super::languages::{Heredocs, Syntax};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineView {
    /// The line without comments; each string literal (or the part of a multi-line one
    /// that starts here) is replaced by one `"`.
    pub code: String,
    /// The text of each comment on the line, without its `//`, `#`, `/*` or `*/`.
    pub comments: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State<'a> {
    Code,
    Block(u32),
    Str(usize),
    RawStr(usize),
    /// Inside a heredoc's body.
    Heredoc(Term<'a>),
}

/// Lex `text` from its start, keeping comment and string state across lines, and return
/// the views of at most `max_lines` lines (line 1 is index 0).
pub fn lex(syntax: &Syntax, text: &str, max_lines: usize) -> Vec<LineView> {
    let mut state = State::Code;
    let special = code_specials(syntax);
    // Heredocs opened on the current line, in order; their bodies follow it.
    let mut pending: Vec<Term> = Vec::new();
    // Looking ahead for terminators is bounded per file, so a file full of openers that
    // never close costs linear time; past the budget they are taken as plain code.
    let mut budget = text.len().saturating_mul(4).saturating_add(64 * 1024);
    let mut out = Vec::new();
    let mut next_at = 0;
    for line in text.split('\n').take(max_lines) {
        next_at += line.len() + 1;
        let line = strip_cr(line);
        let view = match (state, syntax.heredocs) {
            (State::Heredoc(term), Some(style)) => match heredoc::closes(style, term, line) {
                Some(resume) => {
                    state = State::Code;
                    lex_one(syntax, &special, &line[resume..], &mut state, &mut pending)
                }
                None => LineView::default(),
            },
            _ => lex_one(syntax, &special, line, &mut state, &mut pending),
        };
        out.push(view);
        if matches!(state, State::Heredoc(_)) || pending.is_empty() {
            continue;
        }
        if state != State::Code {
            // The line ended inside a string or comment: the openers were misread.
            pending.clear();
        } else {
            let rest = text.get(next_at..).unwrap_or("");
            state = match (syntax.heredocs, pending.first()) {
                (Some(style), Some(&term)) if terminated(style, term, rest, &mut budget) => {
                    pending.remove(0);
                    State::Heredoc(term)
                }
                // No terminator ahead: not a heredoc after all (or a broken one).
                _ => {
                    pending.clear();
                    State::Code
                }
            };
        }
    }
    out
}

/// Whether a line of `rest` closes the heredoc, within the look-ahead `budget` (bytes).
fn terminated(style: Heredocs, term: Term, rest: &str, budget: &mut usize) -> bool {
    for line in rest.split('\n') {
        if *budget < line.len() + 1 {
            *budget = 0;
            return false;
        }
        *budget -= line.len() + 1;
        if heredoc::closes(style, term, strip_cr(line)).is_some() {
            return true;
        }
    }
    false
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
    lex_one(
        syntax,
        &code_specials(syntax),
        line,
        &mut state,
        &mut Vec::new(),
    )
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
    if syntax.heredocs.is_some() {
        mark("<");
    }
    if syntax.regex_literals {
        mark("/");
    }
    if syntax.percent_literals {
        mark("%");
    }
    if syntax.dollar_chars {
        mark("$");
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

fn lex_one<'a>(
    syntax: &Syntax,
    special: &[bool; 128],
    line: &'a str,
    state: &mut State<'a>,
    heredocs: &mut Vec<Term<'a>>,
) -> LineView {
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
                if let Some(style) = syntax.heredocs.filter(|_| c == '<') {
                    if let Some((len, term)) = heredoc::opener(style, line, i) {
                        view.code.push('"');
                        heredocs.push(term);
                        i += len;
                        continue;
                    }
                }
                if syntax.regex_literals && c == '/' && regex_may_start(line, i) {
                    if let Some(len) = regex_len(rest) {
                        view.code.push('"');
                        i += len;
                        continue;
                    }
                }
                if syntax.percent_literals && c == '%' {
                    if let Some(len) = percent_len(line, i) {
                        view.code.push('"');
                        i += len;
                        continue;
                    }
                }
                if syntax.dollar_chars && c == '$' {
                    view.code.push('"');
                    i += 1 + dollar_char_len(&line[i + 1..]);
                    continue;
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
            // `lex` reads heredoc bodies without calling here.
            State::Heredoc(_) => return view,
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

/// How many bytes the character after an Erlang `$` takes: one character, or a backslash
/// and the character it escapes (`$\n`, `$\\`).
fn dollar_char_len(rest: &str) -> usize {
    let mut chars = rest.chars();
    match chars.next() {
        Some('\\') => 1 + chars.next().map_or(0, char::len_utf8),
        Some(c) => c.len_utf8(),
        None => 0,
    }
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

/// Words after which a `/` begins a regex rather than a division (`return /x/`).
const REGEX_KEYWORDS: &[&str] = &[
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "void",
    "delete",
    "yield",
    "await",
    "case",
    "when",
    "if",
    "elsif",
    "unless",
    "while",
    "until",
    "and",
    "or",
    "not",
    "then",
    "do",
    "else",
];

/// Whether a `/` at byte `i` (not a comment opener) may begin a regex literal. Conservative:
/// only at the start of the line, after an operator that cannot end an operand, or after a
/// keyword. After an identifier, a number, `)` or `]` it is a division; `<`, `>` are left
/// out so JSX closing tags (`</div>`) stay code.
fn regex_may_start(line: &str, i: usize) -> bool {
    let before = &line[..i];
    let trimmed = before.trim_end();
    let Some(last) = trimmed.chars().next_back() else {
        return true;
    };
    match last {
        '(' | ',' | '=' | '!' | '&' | '|' | '?' | ';' | '{' | '[' | '~' => true,
        // An arrow function's body: `(p) => /x/.test(p)`.
        '>' => trimmed.ends_with("=>"),
        // `a ? /x/ : /y/` and `key: /x/`, but not Ruby's `:/` symbol.
        ':' => trimmed.len() < before.len(),
        c if is_ident_char(c) => {
            let word_at = trimmed
                .char_indices()
                .rev()
                .take_while(|(_, c)| is_ident_char(*c))
                .last()
                .map_or(trimmed.len(), |(at, _)| at);
            let word = &trimmed[word_at..];
            let member = trimmed[..word_at].ends_with('.');
            !member && REGEX_KEYWORDS.contains(&word)
        }
        _ => false,
    }
}

/// The byte length of a regex literal at the start of `rest` (which starts with `/`), up to
/// and including its closing `/`, or `None` when it does not close on this line. A `/`
/// inside a `[...]` class or after a backslash does not close it.
fn regex_len(rest: &str) -> Option<usize> {
    let mut in_class = false;
    let mut chars = rest.char_indices().skip(1);
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' => in_class = true,
            ']' => in_class = false,
            '/' if !in_class => return Some(at + 1),
            _ => {}
        }
    }
    None
}

/// The byte length of a Ruby percent literal (`%r{/x}`, `%w[a b]`, `%q(it's)`, `%(s)`) at
/// byte `i`, up to and including its closing delimiter, or `None` when it is a modulo or
/// does not close on this line. Bracket delimiters nest; a backslash escapes.
fn percent_len(line: &str, i: usize) -> Option<usize> {
    let rest = &line[i..];
    let mut chars = rest.char_indices().skip(1);
    let (_, mut open) = chars.next()?;
    let typed = matches!(open, 'q' | 'Q' | 'w' | 'W' | 'i' | 'I' | 'r' | 's' | 'x');
    if typed {
        // `a %w[x]` but not `a%w` (a modulo by `w`).
        if line[..i].chars().next_back().is_some_and(is_ident_char) {
            return None;
        }
        open = chars.next()?.1;
    } else if !regex_may_start(line, i) {
        return None;
    }
    let close = match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        c if c.is_ascii_punctuation() && c != '=' => c,
        _ => return None,
    };
    let mut depth = 0usize;
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            c if c == close && depth == 0 => return Some(at + c.len_utf8()),
            c if c == close => depth -= 1,
            c if c == open && open != close => depth += 1,
            _ => {}
        }
    }
    None
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
    fn stylesheet_strings_and_urls_open_no_comment() {
        let v = views(
            Lang::Scss,
            "a { content: \"/* x */\"; b: url(//cdn/a.png); } // note\n/* c */ d",
        );
        assert_eq!(v[0].code, "a { content: \"; b: \"; } ");
        assert_eq!(v[0].comments, vec![" note".to_string()]);
        assert_eq!(v[1].comments, vec![" c ".to_string()]);
        // `//` is no comment in plain CSS.
        let v = views(Lang::Css, "a { b: c } // d /* e */");
        assert_eq!(v[0].code, "a { b: c } // d ");
        assert_eq!(v[0].comments, vec![" e ".to_string()]);
    }

    #[test]
    fn erlang_char_literals_open_no_comment_or_string() {
        let v = views(Lang::Erlang, "f($%) -> {$\", $\\\\, '%'}. % done\n");
        assert_eq!(v[0].code, "f(\") -> {\", \", \"}. ");
        assert_eq!(v[0].comments, vec![" done".to_string()]);
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
    fn ruby_heredoc_bodies_are_data_and_code_resumes_after_them() {
        let text = "  it 'a' do\n    msg = <<~EOS\n      don't # skip\n      it 'inside' do\n    EOS\n    expect(msg).to be\n  end\n  it 'b' do\n";
        let v = views(Lang::Ruby, text);
        assert_eq!(v[1].code, "    msg = \"");
        assert_eq!(v[2], LineView::default());
        assert_eq!(v[3], LineView::default());
        assert_eq!(v[4], LineView::default());
        assert_eq!(v[5].code, "    expect(msg).to be");
        assert_eq!(v[7].code, "  it \" do");
    }

    #[test]
    fn two_heredocs_on_one_line_are_read_in_turn() {
        let text = "f(<<-A, <<~'B')\n  a'\n  A\n  b'\n  B\ng 'x'\n";
        let v = views(Lang::Ruby, text);
        assert_eq!(v[0].code, "f(\", \")");
        assert!(v[1..5].iter().all(|l| *l == LineView::default()));
        assert_eq!(v[5].code, "g \"");
    }

    #[test]
    fn shifts_and_unterminated_openers_stay_code() {
        let v = views(Lang::Ruby, "class << self\n  x = <<~NEVER\n  it 'a' do\n");
        assert_eq!(v[0].code, "class << self");
        assert_eq!(v[2].code, "  it \" do");
    }

    #[test]
    fn shell_and_php_heredocs() {
        let sh = views(
            Lang::Shell,
            "cat <<-'EOF' > f\n\t# TODO: it's data\n\tEOF\necho done # n\n",
        );
        assert_eq!(sh[0].code, "cat \" > f");
        assert_eq!(sh[1], LineView::default());
        assert_eq!(sh[3].comments, vec![" n".to_string()]);
        let php = views(
            Lang::Php,
            "$s = <<<EOT\n  don't // here\n  EOT;\n$t = 1; // c\n",
        );
        assert_eq!(php[1], LineView::default());
        assert_eq!(php[2].code, ";");
        assert_eq!(php[3].comments, vec![" c".to_string()]);
        // Languages without heredocs keep `<<` as code.
        assert_eq!(views(Lang::Js, "a <<EOF\n'x'")[1].code, "\"");
    }

    #[test]
    fn many_unterminated_openers_stay_linear() {
        let text = "x = <<~A\n".repeat(50_000);
        let v = views(Lang::Ruby, &text);
        assert_eq!(v.len(), 50_001);
        assert_eq!(v[49_999].code, "x = \"");
    }

    #[test]
    fn ruby_regex_literals_holding_quotes_do_not_open_strings() {
        let text = "return nil unless pair =~ /\\A(by|for)=\"?([^\"]+)\"?\\Z/i\n# rubocop:disable X\nx = a / b / c # n\n";
        let v = views(Lang::Ruby, text);
        assert_eq!(v[0].code, "return nil unless pair =~ \"i");
        assert_eq!(v[1].comments, vec![" rubocop:disable X".to_string()]);
        assert_eq!(v[2].code, "x = a / b / c ");
        assert_eq!(v[2].comments, vec![" n".to_string()]);
        // `#` inside a regex is not a comment; a symbol `:/` is not a regex.
        let v = views(Lang::Ruby, "s.split(/#/) # c\nxs.inject(:/) # d\n");
        assert_eq!(v[0].code, "s.split(\") ");
        assert_eq!(v[0].comments, vec![" c".to_string()]);
        assert_eq!(v[1].comments, vec![" d".to_string()]);
    }

    #[test]
    fn ruby_percent_literals_hold_their_quotes() {
        // `%r{/foo}` is no regex opener and `'/:bar'` after it a closed string, so the
        // next line is code (it was read as inside a string before).
        let text = "namespace(%r{/foo}) { send(verb, '/:bar') { x }}\n  skip \"later\"\n";
        let v = views(Lang::Ruby, text);
        assert_eq!(v[0].code, "namespace(\") { send(verb, \") { x }}");
        assert_eq!(v[1].code, "  skip \"");
        let v = views(
            Lang::Ruby,
            "a = %w[it's {x}] + %q(a (b) c) # n\nb = c % d # m\n",
        );
        assert_eq!(v[0].code, "a = \" + \" ");
        assert_eq!(v[0].comments, vec![" n".to_string()]);
        assert_eq!(v[1].code, "b = c % d ");
        assert_eq!(v[1].comments, vec![" m".to_string()]);
    }

    #[test]
    fn js_regex_literals_and_divisions() {
        let v = views(
            Lang::Js,
            "const re = /it's [/'] here/g // TODO\nreturn /\"/.test(s)\nconst h = (a) / 2 / 'x'\n</div> 'y'\n",
        );
        assert_eq!(v[0].code, "const re = \"g ");
        assert_eq!(v[0].comments, vec![" TODO".to_string()]);
        assert_eq!(v[1].code, "return \".test(s)");
        assert_eq!(v[2].code, "const h = (a) / 2 / \"");
        assert_eq!(v[3].code, "</div> \"");
        let v = views(Lang::Js, "const f = (p) => /'/.test(p) && a > /b/ // c\n");
        assert_eq!(v[0].code, "const f = (p) => \".test(p) && a > /b/ ");
        // A `/` that does not close on its line is left as code.
        assert_eq!(views(Lang::Js, "x = / 'a'")[0].code, "x = / \"");
        // Other languages have no regex literals.
        assert_eq!(views(Lang::Go, "x = /'a'/")[0].code, "x = /\"/");
    }

    #[test]
    fn max_lines_bounds_the_work() {
        assert_eq!(lex(&Lang::Js.syntax(), "a\nb\nc\n", 2).len(), 2);
    }
}
