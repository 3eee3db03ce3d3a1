//! Shared parse helpers on brush-parser, for both vetting modes.
//!
//! Two jobs: turn a command string into brush's AST with bounded work and a clear error,
//! and decode one shell word into the exact string a program would receive, or say which
//! part of it only the running shell could know (a variable, a substitution, ...).
//!
//! Nothing here decides policy; callers walk the AST and apply their rules.

pub use brush_parser::ast;
use brush_parser::word::{WordPiece, WordPieceWithSource};
use brush_parser::ParserOptions;

/// Bounds on the work a parse may do. The parser is recursive and its cost grows with
/// the input, so both are checked on the raw text before brush sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub max_bytes: usize,
    /// Upper bound on nested constructs (parentheses, braces, substitutions, keywords).
    /// Kept low on purpose: brush's PEG parser backtracks exponentially on some invalid
    /// nestings (an unclosed `(((` or `case` roughly doubles the time per level), so the
    /// depth bound is also the time bound.
    pub max_depth: usize,
}

impl Limits {
    /// Enough for any hand-written command and most heredocs an agent writes.
    pub const DEFAULT: Limits = Limits {
        max_bytes: 256 * 1024,
        max_depth: 12,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Why a string could not be turned into an AST.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseFailure {
    TooLong {
        len: usize,
        max: usize,
    },
    TooDeep {
        depth: usize,
        max: usize,
    },
    /// A control character other than tab, newline and carriage return. Real commands do
    /// not contain them, and brush's tokenizer has blown up on some (`<<` then a form
    /// feed took gigabytes, found by fuzzing), so they never reach the parser.
    Control {
        byte: u8,
        offset: usize,
    },
    /// brush's own message (line and column when it knows them).
    Syntax(String),
}

impl std::fmt::Display for ParseFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseFailure::TooLong { len, max } => {
                write!(
                    f,
                    "the command is {len} bytes long; at most {max} are analysed"
                )
            }
            ParseFailure::TooDeep { depth, max } => write!(
                f,
                "the command nests {depth} levels deep; at most {max} are analysed"
            ),
            ParseFailure::Control { byte, offset } => write!(
                f,
                "the command holds the control character 0x{byte:02x} at byte {offset}; \
                 only tab, newline and carriage return are analysed"
            ),
            ParseFailure::Syntax(msg) => write!(f, "the command does not parse: {msg}"),
        }
    }
}

impl std::error::Error for ParseFailure {}

/// Run `f`, turning a panic inside brush-parser into an error message.
///
/// brush can panic on hostile input (an overflowing number in a brace sequence such as
/// `{33333333333333333333I`, found by cargo fuzz). Every public policy entry point runs the
/// parser behind this boundary, so a parser bug becomes a fail-closed decision and never
/// kills the hook process: a crashed hook fails open in the agents.
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    CONTAINED.with(|c| c.set(c.get() + 1));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CONTAINED.with(|c| c.set(c.get().saturating_sub(1)));
    outcome.map_err(|payload| {
        let detail = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        format!("the shell parser failed on this input ({detail})")
    })
}

thread_local! {
    /// How many [`contain`] calls are running on this thread.
    static CONTAINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether a panic on this thread now would be caught by [`contain`]. The hook's panic
/// hook (which otherwise ends the process with a refusal) lets these through.
pub fn containing() -> bool {
    CONTAINED.with(|c| c.get() > 0)
}

/// The parser options both modes use: bash, not POSIX sh, with extglob on, so that
/// everything bash would treat as syntax is seen as syntax.
pub fn parser_options() -> ParserOptions {
    ParserOptions::default()
}

/// Parse with [`Limits::DEFAULT`].
pub fn parse(text: &str) -> Result<ast::Program, ParseFailure> {
    parse_with_limits(text, Limits::DEFAULT)
}

/// Parse `text` as a bash program, refusing oversized or deeply nested input up front.
pub fn parse_with_limits(text: &str, limits: Limits) -> Result<ast::Program, ParseFailure> {
    parse_full(text, limits).map(|p| p.program)
}

/// A parse with its token stream, for callers that need to name an operator exactly
/// (brush's AST does not say whether two commands were split by `;` or a newline).
#[derive(Debug, Clone)]
pub struct Parsed {
    pub tokens: Vec<brush_parser::Token>,
    pub program: ast::Program,
}

/// Tokenize and parse `text` within `limits`.
///
/// Both brush stages recurse: the tokenizer on nested `$(`, `${`, quotes and backticks,
/// the parser on every compound command. The raw bracket estimate bounds the first, the
/// token-level keyword estimate the second, so neither can exhaust the stack.
pub fn parse_full(text: &str, limits: Limits) -> Result<Parsed, ParseFailure> {
    if text.len() > limits.max_bytes {
        return Err(ParseFailure::TooLong {
            len: text.len(),
            max: limits.max_bytes,
        });
    }
    if let Some(offset) = text
        .bytes()
        .position(|b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f)
    {
        return Err(ParseFailure::Control {
            byte: text.as_bytes()[offset],
            offset,
        });
    }
    let too_deep = |depth: usize| ParseFailure::TooDeep {
        depth,
        max: limits.max_depth,
    };
    let raw = bracket_depth(text);
    if raw > limits.max_depth {
        return Err(too_deep(raw));
    }
    // brush's tokenizer loops, allocating without bound, on a heredoc with an empty
    // delimiter when the input ends in a blank without a newline (`<<"" `, found by cargo
    // fuzz). A final newline never changes what a command string means, so always end with
    // one.
    let terminated;
    let text = if text.ends_with('\n') {
        text
    } else {
        terminated = format!("{text}\n");
        terminated.as_str()
    };
    let options = parser_options();
    let tokens = brush_parser::uncached_tokenize_str(text, &options.tokenizer_options())
        .map_err(|e| ParseFailure::Syntax(e.to_string()))?;
    let depth = raw + keyword_depth(&tokens);
    if depth > limits.max_depth {
        return Err(too_deep(depth));
    }
    let program = brush_parser::parse_tokens(&tokens, &options)
        .map_err(|e| ParseFailure::Syntax(e.to_string()))?;
    Ok(Parsed { tokens, program })
}

/// An over-estimate of how deeply `text` nests, computed without parsing: the raw
/// bracket depth plus the depth of block keywords in command position.
pub fn nesting_estimate(text: &str) -> usize {
    let raw = bracket_depth(text);
    let options = parser_options();
    match brush_parser::uncached_tokenize_str(text, &options.tokenizer_options()) {
        Ok(tokens) => raw + keyword_depth(&tokens),
        Err(_) => raw,
    }
}

/// The deepest point of `(`/`{`/`[` nesting in the raw text, plus the deepest backtick.
///
/// Quotes are deliberately ignored: a quoted `(` counted as nesting can only make the
/// estimate larger, and a larger estimate only refuses earlier. Backticks nest by
/// escaping (`` \` ``, `` \\\` ``, ...), so a backtick preceded by k backslashes counts as
/// k + 1 levels, which over-estimates the real log-scale nesting.
fn bracket_depth(text: &str) -> usize {
    let (mut depth, mut max, mut backslashes) = (0usize, 0usize, 0usize);
    for c in text.chars() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            '`' => max = max.max(depth + backslashes + 1),
            _ => {}
        }
        backslashes = if c == '\\' { backslashes + 1 } else { 0 };
        max = max.max(depth);
    }
    max
}

/// The deepest nesting of block keywords (`if`, `while`, `case`, ...) that stand where a
/// command starts. Counted on tokens so that a heredoc body (one token) full of Python
/// `if`s does not count; a keyword closed by nothing only over-estimates.
fn keyword_depth(tokens: &[brush_parser::Token]) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut command_start = true;
    for token in tokens {
        match token {
            brush_parser::Token::Operator(op, _) => {
                command_start = !matches!(
                    op.as_str(),
                    ">" | "<"
                        | ">>"
                        | "<<"
                        | "<<<"
                        | ">&"
                        | "<&"
                        | "&>"
                        | "&>>"
                        | ">|"
                        | "<>"
                        | "<<-"
                );
            }
            brush_parser::Token::Word(word, _) => {
                let w = word.as_str();
                if command_start {
                    match w {
                        "if" | "while" | "until" | "for" | "select" | "coproc" => depth += 1,
                        "fi" | "done" => depth = depth.saturating_sub(1),
                        // An unclosed `case` is the costliest level for brush's parser.
                        "case" => depth += 2,
                        "esac" => depth = depth.saturating_sub(2),
                        _ => {}
                    }
                }
                command_start = command_start
                    && matches!(
                        w,
                        "if" | "then"
                            | "else"
                            | "elif"
                            | "do"
                            | "while"
                            | "until"
                            | "{"
                            | "}"
                            | "!"
                            | "time"
                            | "fi"
                            | "done"
                            | "esac"
                    );
            }
        }
        max = max.max(depth);
    }
    max
}

/// What a word turns into once the shell has removed quotes and decoded escapes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WordValue {
    Static(StaticWord),
    Dynamic(DynamicPart),
}

/// A word whose value is known without running anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticWord {
    /// The text the program receives: quotes removed, escapes and `$'...'` decoded.
    /// A leading unquoted `~` (the home directory) is kept as `~` and flagged by `tilde`.
    pub value: String,
    /// The word starts with an unquoted `~` or `~/`: the shell replaces it with `$HOME`.
    pub tilde: bool,
    /// The first unquoted pattern construct (`*`, `?`, `[`, an extglob, a `{a,b}` or
    /// `{1..3}` brace expansion): the shell may turn the word into several words.
    pub pattern: Option<String>,
    /// The first unquoted carriage return or newline (`\r` cannot be seen otherwise:
    /// bash reads it as part of a word, most eyes read it as the end of a line).
    pub unquoted_line_break: bool,
}

/// The part of a word only the running shell could know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicPart {
    pub kind: DynamicKind,
    /// The source text of that part, e.g. `$HOME` or `$(date)`.
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DynamicKind {
    /// `$x`, `${x}`, `${x:-y}`, `$1`, `$@`, ...
    Parameter,
    /// `$(...)`.
    CommandSubstitution,
    /// `` `...` ``.
    Backticks,
    /// `$((...))` or `$[...]`.
    Arithmetic,
    /// `~user`, `~+`, `~-`, `~N`: depends on the user database or the directory stack.
    Tilde,
    /// brush could not split the word into pieces.
    Unparsable,
}

impl DynamicKind {
    /// A short human name, e.g. for "parameter expansion `$HOME`".
    pub fn describe(self) -> &'static str {
        match self {
            DynamicKind::Parameter => "parameter expansion",
            DynamicKind::CommandSubstitution => "command substitution",
            DynamicKind::Backticks => "backtick command substitution",
            DynamicKind::Arithmetic => "arithmetic expansion",
            DynamicKind::Tilde => "tilde expansion",
            DynamicKind::Unparsable => "unparsable word",
        }
    }
}

/// One shell word, single-quoted: every byte but NUL survives, and [`decode`] gives it
/// back unchanged.
pub fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Decode a word of the AST (see [`decode`]).
pub fn decode_word(word: &ast::Word) -> WordValue {
    decode(&word.value)
}

/// Decode one raw shell word (as it appears in the source, quotes included).
///
/// The first dynamic part wins: a word with a `$x` anywhere is [`WordValue::Dynamic`].
pub fn decode(raw: &str) -> WordValue {
    let pieces = match brush_parser::word::parse(raw, &parser_options()) {
        Ok(p) => p,
        Err(_) => {
            return WordValue::Dynamic(DynamicPart {
                kind: DynamicKind::Unparsable,
                text: raw.to_string(),
            })
        }
    };
    let mut out = StaticWord {
        value: String::new(),
        tilde: false,
        pattern: None,
        unquoted_line_break: false,
    };
    for (i, piece) in pieces.iter().enumerate() {
        if let Err(part) = decode_piece(raw, piece, i == 0, &mut out) {
            return WordValue::Dynamic(part);
        }
    }
    // Braces are expanded before globs, so they are the construct to report first:
    // `{.,x}/*` is `./*` and `x/*`, not a directory named `{.,x}`.
    if let Some(braces) = brace_expansion(&pieces) {
        out.pattern = Some(braces);
    }
    WordValue::Static(out)
}

/// The static value of a word, or `None` when any part of it is dynamic. Pattern and
/// tilde flags are dropped: use [`decode`] when they matter.
pub fn literal(raw: &str) -> Option<String> {
    match decode(raw) {
        WordValue::Static(s) => Some(s.value),
        WordValue::Dynamic(_) => None,
    }
}

fn source_of<'a>(raw: &'a str, piece: &WordPieceWithSource) -> &'a str {
    raw.get(piece.start_index..piece.end_index).unwrap_or(raw)
}

fn decode_piece(
    raw: &str,
    piece: &WordPieceWithSource,
    first: bool,
    out: &mut StaticWord,
) -> Result<(), DynamicPart> {
    let dynamic = |kind| DynamicPart {
        kind,
        text: source_of(raw, piece).to_string(),
    };
    match &piece.piece {
        WordPiece::Text(text) => {
            if out.pattern.is_none() {
                out.pattern = first_pattern_char(text);
            }
            if text.contains(['\r', '\n']) {
                out.unquoted_line_break = true;
            }
            out.value.push_str(text);
        }
        WordPiece::SingleQuotedText(text) => out.value.push_str(text),
        WordPiece::AnsiCQuotedText(text) => out.value.push_str(&decode_ansi_c(text)),
        WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
            for p in inner {
                decode_double_quoted(raw, p, out)?;
            }
        }
        WordPiece::EscapeSequence(seq) => {
            // `\<newline>` is a line continuation: both characters vanish.
            let escaped = seq.strip_prefix('\\').unwrap_or(seq);
            if escaped != "\n" {
                out.value.push_str(escaped);
            }
        }
        WordPiece::TildeExpansion(expr) => match expr {
            brush_parser::word::TildeExpr::Home if first => {
                out.tilde = true;
                out.value.push('~');
            }
            _ => return Err(dynamic(DynamicKind::Tilde)),
        },
        WordPiece::ParameterExpansion(_) => return Err(dynamic(DynamicKind::Parameter)),
        WordPiece::CommandSubstitution(_) => return Err(dynamic(DynamicKind::CommandSubstitution)),
        WordPiece::BackquotedCommandSubstitution(_) => return Err(dynamic(DynamicKind::Backticks)),
        WordPiece::ArithmeticExpression(_) => return Err(dynamic(DynamicKind::Arithmetic)),
    }
    Ok(())
}

fn decode_double_quoted(
    raw: &str,
    piece: &WordPieceWithSource,
    out: &mut StaticWord,
) -> Result<(), DynamicPart> {
    match &piece.piece {
        // Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and a
        // newline; brush hands the other backslashes through as text, as bash keeps them.
        WordPiece::Text(text) => out.value.push_str(&text.replace("\\\n", "")),
        WordPiece::EscapeSequence(seq) => out.value.push_str(seq.strip_prefix('\\').unwrap_or(seq)),
        // Anything else inside double quotes is an expansion.
        _ => decode_piece(raw, piece, false, out)?,
    }
    Ok(())
}

/// The first unquoted character that makes bash treat a word as a file-name pattern.
fn first_pattern_char(text: &str) -> Option<String> {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' | '?' | '[' => return Some(c.to_string()),
            '+' | '@' | '!' if chars.peek() == Some(&'(') => return Some(format!("{c}(")),
            _ => {}
        }
    }
    None
}

/// `{a,b}` or `{1..3}` in the unquoted parts of a word, as bash would expand it.
fn brace_expansion(pieces: &[WordPieceWithSource]) -> Option<String> {
    // Only unquoted text takes part in brace expansion; quoted braces are literal.
    let unquoted_only: String = pieces
        .iter()
        .map(|p| match &p.piece {
            WordPiece::Text(t) => t.clone(),
            // A placeholder keeps quoted parts from joining two unquoted braces.
            _ => "\u{1}".to_string(),
        })
        .collect();
    if !unquoted_only.contains('{') {
        return None;
    }
    let parsed = brush_parser::word::parse_brace_expansions(&unquoted_only, &parser_options());
    match parsed {
        Ok(Some(parts))
            if parts
                .iter()
                .any(|p| matches!(p, brush_parser::word::BraceExpressionOrText::Expr(_))) =>
        {
            let start = unquoted_only.find('{').unwrap_or(0);
            let end = unquoted_only[start..]
                .find('}')
                .map(|e| start + e + 1)
                .unwrap_or(unquoted_only.len());
            Some(unquoted_only[start..end].replace('\u{1}', "'...'"))
        }
        _ => None,
    }
}

/// Decode the body of `$'...'` the way bash does.
pub fn decode_ansi_c(body: &str) -> String {
    let mut out = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'e' | 'E' => out.push('\u{1b}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '\\' | '\'' | '"' | '?' => out.push(e),
            '0'..='7' => {
                let mut n = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            n = n * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                push_code(&mut out, n & 0xff);
            }
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut n: u32 = 0;
                let mut digits = 0;
                while digits < max {
                    match chars.peek().and_then(|d| d.to_digit(16)) {
                        Some(d) => {
                            n = n.saturating_mul(16).saturating_add(d);
                            chars.next();
                            digits += 1;
                        }
                        None => break,
                    }
                }
                if digits == 0 {
                    out.push('\\');
                    out.push(e);
                } else {
                    push_code(&mut out, n);
                }
            }
            'c' => match chars.next() {
                Some(ctl) => push_code(&mut out, (ctl as u32) & 0x1f),
                None => out.push_str("\\c"),
            },
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

fn push_code(out: &mut String, code: u32) {
    out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
}

#[cfg(test)]
mod control_tests {
    use super::*;

    #[test]
    fn control_characters_never_reach_the_parser() {
        // Found by cargo fuzz: this took brush ~3 s and ~2.5 GB before the pre-check.
        assert_eq!(
            parse("<<\u{c} ").unwrap_err(),
            ParseFailure::Control {
                byte: 0x0c,
                offset: 2
            }
        );
        assert!(matches!(
            parse("ls\u{0}"),
            Err(ParseFailure::Control { byte: 0, .. })
        ));
        assert!(matches!(
            parse("ls\u{7f}"),
            Err(ParseFailure::Control { byte: 0x7f, .. })
        ));
        assert!(parse("printf 'a\tb'\r\n").is_ok());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(raw: &str) -> StaticWord {
        match decode(raw) {
            WordValue::Static(s) => s,
            WordValue::Dynamic(d) => panic!("{raw} decoded as dynamic {d:?}"),
        }
    }

    fn dynamic(raw: &str) -> DynamicPart {
        match decode(raw) {
            WordValue::Dynamic(d) => d,
            WordValue::Static(s) => panic!("{raw} decoded as static {s:?}"),
        }
    }

    #[test]
    fn quotes_and_escapes_are_removed() {
        assert_eq!(stat("plain").value, "plain");
        assert_eq!(stat("'a b'").value, "a b");
        assert_eq!(stat("\"a b\"").value, "a b");
        assert_eq!(stat("a\\ b").value, "a b");
        assert_eq!(stat("\"a\\\"b\"").value, "a\"b");
        assert_eq!(stat("\"a\\nb\"").value, "a\\nb");
        assert_eq!(stat("'-'e").value, "-e");
        assert_eq!(stat("\"-\"'e'").value, "-e");
        assert_eq!(stat("-\\e").value, "-e");
        assert_eq!(stat("$'a\\nb'").value, "a\nb");
        assert_eq!(stat("$'\\x2de'").value, "-e");
        assert_eq!(stat("$'\\055e'").value, "-e");
        assert_eq!(stat("$'\\u002de'").value, "-e");
        assert_eq!(stat("$'it\\'s'").value, "it's");
    }

    #[test]
    fn dynamic_parts_are_named() {
        let d = dynamic("$HOME/x");
        assert_eq!((d.kind, d.text.as_str()), (DynamicKind::Parameter, "$HOME"));
        assert_eq!(dynamic("\"${X:-y}\"").kind, DynamicKind::Parameter);
        let d = dynamic("a$(date)");
        assert_eq!(
            (d.kind, d.text.as_str()),
            (DynamicKind::CommandSubstitution, "$(date)")
        );
        assert_eq!(dynamic("`date`").kind, DynamicKind::Backticks);
        assert_eq!(dynamic("$((1+2))").kind, DynamicKind::Arithmetic);
        assert_eq!(dynamic("~root/x").kind, DynamicKind::Tilde);
    }

    #[test]
    fn single_quotes_keep_dollars_literal() {
        assert_eq!(stat("'$HOME'").value, "$HOME");
        assert_eq!(stat("\\$HOME").value, "$HOME");
    }

    #[test]
    fn tilde_and_patterns_are_flagged() {
        let t = stat("~/x");
        assert!(t.tilde);
        assert_eq!(t.value, "~/x");
        assert!(!stat("'~/x'").tilde);
        assert_eq!(stat("*.rs").pattern.as_deref(), Some("*"));
        assert_eq!(stat("a?").pattern.as_deref(), Some("?"));
        assert_eq!(stat("[ab]").pattern.as_deref(), Some("["));
        assert_eq!(stat("'*.rs'").pattern, None);
        assert_eq!(stat("\\*").pattern, None);
        assert_eq!(stat("{a,b}").pattern.as_deref(), Some("{a,b}"));
        assert_eq!(stat("x{1..3}").pattern.as_deref(), Some("{1..3}"));
        assert_eq!(stat("'{a,b}'").pattern, None);
        assert_eq!(stat("{.,x}/*").pattern.as_deref(), Some("{.,x}"));
        assert_eq!(stat("{}").pattern, None);
        assert_eq!(stat("+(a)").pattern.as_deref(), Some("+("));
    }

    #[test]
    fn carriage_return_outside_quotes_is_flagged() {
        assert!(stat("a\rb").unquoted_line_break);
        assert!(!stat("'a\rb'").unquoted_line_break);
    }

    #[test]
    fn limits_refuse_before_parsing() {
        let long = "a".repeat(Limits::DEFAULT.max_bytes + 1);
        assert!(matches!(parse(&long), Err(ParseFailure::TooLong { .. })));
        let deep = format!("{}x{}", "(".repeat(1000), ")".repeat(1000));
        assert!(matches!(parse(&deep), Err(ParseFailure::TooDeep { .. })));
        let ifs = "if true; then ".repeat(13);
        assert!(matches!(parse(&ifs), Err(ParseFailure::TooDeep { .. })));
        assert!(matches!(
            parse("echo 'unterminated"),
            Err(ParseFailure::Syntax(_))
        ));
        assert!(parse("cargo test && npm test").is_ok());
    }

    proptest::proptest! {
        #[test]
        fn parse_and_decode_never_panic(text in "\\PC{0,80}") {
            let _ = parse(&text);
            let _ = decode(&text);
            let _ = decode_ansi_c(&text);
        }
    }

    #[test]
    fn nesting_estimate_counts_openers() {
        assert_eq!(nesting_estimate("cargo test"), 0);
        assert_eq!(nesting_estimate("a $(b $(c))"), 2);
        assert_eq!(nesting_estimate("if x; then y; fi"), 1);
        assert_eq!(nesting_estimate("echo if if if"), 0);
        assert_eq!(
            nesting_estimate("case a in b) case c in d) x;; esac;; esac"),
            4
        );
    }

    #[test]
    fn heredoc_keywords_do_not_count_as_nesting() {
        let body = "if x:\n    pass\nfor y in z:\n    pass\n".repeat(200);
        let cmd = format!("cat > gen.py <<'EOF'\n{body}EOF\n");
        assert!(parse(&cmd).is_ok());
    }

    /// Everything under the limit must parse on a default 2 MiB test thread in a debug
    /// build (the least favourable case for stack use), and quickly, including the
    /// invalid nestings on which brush's parser backtracks.
    #[test]
    fn nesting_at_the_limit_is_fast_and_does_not_overflow() {
        let n = Limits::DEFAULT.max_depth;
        let cases = [
            format!("{}x{}", "(".repeat(n), ")".repeat(n)),
            format!("{}x", "(".repeat(n)),
            format!("{}x{}", "if a; then ".repeat(n), "; fi".repeat(n)),
            format!("{}x", "if a; then ".repeat(n)),
            format!(
                "{}x{}",
                "case a in b) ".repeat(n / 2),
                ";; esac".repeat(n / 2)
            ),
            format!("{}x", "case a in b) ".repeat(n / 2)),
            format!("echo {}x{}", "\"$(".repeat(n), ")\"".repeat(n)),
            format!("{}x{}", "{ ".repeat(n), "; }".repeat(n)),
            format!(
                "{}x{}",
                "( case a in b) ".repeat(n / 3),
                ";; esac )".repeat(n / 3)
            ),
            format!(
                "{}x{}",
                "while a; do ( ".repeat(n / 2),
                " ) done".repeat(n / 2)
            ),
        ];
        for cmd in cases {
            // The hook's own deadline: a parse past it would fail open. Catches runaway
            // backtracking, not slowness (bench/policy.sh measures speed).
            let start = std::time::Instant::now();
            let _ = parse(&cmd);
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "{cmd}"
            );
        }
    }
}
