//! Heredocs (Ruby, shell, PHP): where one opens on a line, and which later line closes
//! it. Their bodies are string data; left to the quote rules, a stray `'` in one (`don't`)
//! would hide the code after it, as Ruby `it` blocks after a heredoc once were.

use super::languages::Heredocs;

/// What closes an open heredoc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term<'a> {
    pub word: &'a str,
    /// The closing word may be indented (`<<~`, `<<-`, PHP).
    pub indented: bool,
}

fn is_word_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The bare word at the start of `s`.
fn bare_word(s: &str) -> Option<&str> {
    if !s.starts_with(is_word_start) {
        return None;
    }
    let end = s.find(|c: char| !is_word_char(c)).unwrap_or(s.len());
    Some(&s[..end])
}

/// A word in `'`, `"` or (Ruby) backquotes at the start of `s`: the word and the length
/// taken with its quotes.
fn quoted_word<'a>(s: &'a str, quotes: &[char]) -> Option<(&'a str, usize)> {
    let q = s.chars().next().filter(|c| quotes.contains(c))?;
    let close = s[1..].find(q)? + 1;
    let word = &s[1..close];
    (!word.is_empty() && word.chars().all(|c| c != ' ' && !c.is_control()))
        .then_some((word, close + 1))
}

/// A heredoc opener at byte `i` of `line` (which holds `<` there): the bytes it takes and
/// its terminator.
pub fn opener(style: Heredocs, line: &str, i: usize) -> Option<(usize, Term<'_>)> {
    let rest = &line[i..];
    // Where the terminator word starts, whether the body may be indented, and the quotes
    // the word may stand in.
    let (after, indented, quotes): (&str, bool, &[char]) = match style {
        Heredocs::Ruby => {
            let after = rest.strip_prefix("<<")?;
            match after.strip_prefix(['~', '-']) {
                Some(a) => (a, true, &['\'', '"', '`']),
                None => (after, false, &['\'', '"', '`']),
            }
        }
        Heredocs::Shell => {
            let after = rest.strip_prefix("<<")?;
            if after.starts_with('<') {
                return None; // a here-string
            }
            let (dash, after) = match after.strip_prefix('-') {
                Some(a) => (true, a),
                None => (false, after),
            };
            let after = after.trim_start_matches([' ', '\t']);
            (
                after.strip_prefix('\\').unwrap_or(after),
                dash,
                &['\'', '"'],
            )
        }
        Heredocs::Php => {
            let after = rest.strip_prefix("<<<")?;
            (after.trim_start_matches([' ', '\t']), true, &['\'', '"'])
        }
    };
    let (word, len) = match quoted_word(after, quotes) {
        Some(q) => q,
        None => {
            let w = bare_word(after)?;
            // Ruby's bare `<<word` with a lower-case word is a shift or an append.
            if style == Heredocs::Ruby
                && !indented
                && !w.starts_with(|c: char| c.is_ascii_uppercase())
            {
                return None;
            }
            (w, w.len())
        }
    };
    Some((rest.len() - after.len() + len, Term { word, indented }))
}

/// Whether `line` closes the heredoc: the byte offset where code resumes on it (PHP allows
/// `EOT;`; Ruby and shell terminators stand alone).
pub fn closes(style: Heredocs, term: Term, line: &str) -> Option<usize> {
    let body = if term.indented {
        line.trim_start_matches([' ', '\t'])
    } else {
        line
    };
    let lead = line.len() - body.len();
    let after = body.strip_prefix(term.word)?;
    match style {
        Heredocs::Php => (!after.starts_with(is_word_char)).then_some(lead + term.word.len()),
        Heredocs::Ruby | Heredocs::Shell => after.trim_end().is_empty().then_some(line.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(style: Heredocs, line: &str) -> Option<(&str, bool)> {
        let i = line.find('<')?;
        opener(style, line, i).map(|(_, t)| (t.word, t.indented))
    }

    #[test]
    fn ruby_openers() {
        assert_eq!(open(Heredocs::Ruby, "x = <<~EOS"), Some(("EOS", true)));
        assert_eq!(
            open(Heredocs::Ruby, "x = <<-SQL.strip"),
            Some(("SQL", true))
        );
        assert_eq!(open(Heredocs::Ruby, "f(<<EOS)"), Some(("EOS", false)));
        assert_eq!(open(Heredocs::Ruby, "x = <<~'RAW'"), Some(("RAW", true)));
        assert_eq!(open(Heredocs::Ruby, "x = <<~eos"), Some(("eos", true)));
        assert_eq!(open(Heredocs::Ruby, "class << self"), None);
        assert_eq!(open(Heredocs::Ruby, "list <<item"), None);
        assert_eq!(open(Heredocs::Ruby, "a << B"), None);
        assert_eq!(open(Heredocs::Ruby, "x <<~ EOS"), None);
    }

    #[test]
    fn shell_and_php_openers() {
        assert_eq!(open(Heredocs::Shell, "cat <<EOF > f"), Some(("EOF", false)));
        assert_eq!(open(Heredocs::Shell, "cat <<-'END'"), Some(("END", true)));
        assert_eq!(open(Heredocs::Shell, "cat << \"x\""), Some(("x", false)));
        assert_eq!(open(Heredocs::Shell, "cat <<\\EOF"), Some(("EOF", false)));
        assert_eq!(open(Heredocs::Shell, "grep x <<< \"$v\""), None);
        assert_eq!(open(Heredocs::Shell, "echo $((1 << 2))"), None);
        assert_eq!(open(Heredocs::Php, "$s = <<<EOT"), Some(("EOT", true)));
        assert_eq!(open(Heredocs::Php, "$s = <<<'EOT'"), Some(("EOT", true)));
        assert_eq!(open(Heredocs::Php, "$s = <<< \"EOT\""), Some(("EOT", true)));
        assert_eq!(open(Heredocs::Php, "$a << 2"), None);
    }

    #[test]
    fn terminators() {
        let plain = Term {
            word: "EOS",
            indented: false,
        };
        let indented = Term {
            indented: true,
            ..plain
        };
        assert_eq!(closes(Heredocs::Ruby, plain, "EOS"), Some(3));
        assert_eq!(closes(Heredocs::Ruby, plain, "  EOS"), None);
        assert_eq!(closes(Heredocs::Ruby, indented, "    EOS"), Some(7));
        assert_eq!(closes(Heredocs::Ruby, indented, "    EOSX"), None);
        assert_eq!(closes(Heredocs::Ruby, indented, "  EOS.strip"), None);
        assert_eq!(closes(Heredocs::Shell, indented, "\tEOS"), Some(4));
        assert_eq!(closes(Heredocs::Php, indented, "    EOS;"), Some(7));
        assert_eq!(closes(Heredocs::Php, indented, "EOSX;"), None);
    }
}
