//! What a PHPStan `ignoreErrors` message says, whatever way it is written. PHPStan's own
//! baseline generator has changed spelling over the years: double-quoted NEON strings with
//! every backslash doubled, then single-quoted ones; a `message` regex (`#^Foo\:\:bar\(\)$#`)
//! and then a `rawMessage` holding the text itself (`Foo::bar()`). A regenerated baseline
//! rewrites every entry so, and it also renders types anew (`array<array|int>` became
//! `array<array<mixed>|int>`). None of that ignores anything more, so entries are compared
//! by the message they match, and an entry whose message differs from one that left the
//! same file only inside its type expressions is that entry re-rendered.

use super::config_lint::Entry;

/// The string a NEON scalar holds, `written` as in the file (after its key or `- `):
/// single-quoted strings double a quote to escape it, double-quoted ones take backslash
/// escapes; anything else is `plain`, the value the line reader already unquoted.
pub fn neon_string(written: &str, plain: &str) -> String {
    let written = written.trim_start();
    let mut chars = written.chars();
    match chars.next() {
        Some('\'') => {
            let mut out = String::new();
            let mut rest = chars.peekable();
            while let Some(c) = rest.next() {
                if c == '\'' {
                    if rest.peek() == Some(&'\'') {
                        rest.next();
                        out.push('\'');
                        continue;
                    }
                    return out;
                }
                out.push(c);
            }
            plain.to_string()
        }
        Some('"') => {
            let mut out = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '"' => return out,
                    '\\' => match chars.next() {
                        Some('n') => out.push('\n'),
                        Some('t') => out.push('\t'),
                        Some('r') => out.push('\r'),
                        Some(e @ ('\\' | '"' | '\'' | '/')) => out.push(e),
                        Some(e) => {
                            out.push('\\');
                            out.push(e);
                        }
                        None => break,
                    },
                    _ => out.push(c),
                }
            }
            plain.to_string()
        }
        _ => plain.to_string(),
    }
}

/// The id of an ignored message: the text itself when the entry gives it raw, or when its
/// pattern matches exactly one text (anchored at both ends, every special character
/// escaped); otherwise the pattern as written, since it may match many texts.
pub fn message_id(key: &str, value: &str) -> String {
    if key == "rawMessage" {
        return value.to_string();
    }
    literal(value).unwrap_or_else(|| value.to_string())
}

/// The one text an anchored, fully escaped PCRE pattern (`#^a\.b$#`) matches.
fn literal(pattern: &str) -> Option<String> {
    let delimiter = pattern.chars().next()?;
    if delimiter.is_alphanumeric() || delimiter.is_whitespace() || delimiter == '\\' {
        return None;
    }
    let close = match delimiter {
        '(' => ')',
        '{' => '}',
        '[' => ']',
        '<' => '>',
        d => d,
    };
    let body = pattern[delimiter.len_utf8()..].strip_suffix(close)?;
    let body = body.strip_prefix('^')?.strip_suffix('$')?;
    let mut out = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e) if !e.is_alphanumeric() => out.push(e),
                _ => return None,
            },
            '.' | '[' | ']' | '(' | ')' | '{' | '}' | '*' | '+' | '?' | '|' | '^' | '$' => {
                return None
            }
            _ => out.push(c),
        }
    }
    Some(out)
}

/// The message with its type expressions left out: what is inside `(..)`, `<..>` and
/// `{..}` (parameter and return types, generic arguments, array shapes) is dropped, so two
/// renderings of one issue's types read the same.
pub fn skeleton(message: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in message.chars() {
        match c {
            '(' | '<' | '{' => {
                if depth == 0 {
                    out.push(c);
                }
                depth += 1;
            }
            ')' | '>' | '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(c);
                }
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Old PHPStan entries that left a file while an entry of the same path came in whose
/// message reads the same once types are left out ([`skeleton`]): the analyser rendered
/// the same issue's types anew (or the code dropped a type from a union), so the old entry
/// takes the new message and the new one is not counted as more ignored.
pub fn rename_rerendered(old: &mut [Entry], new: &[Entry]) {
    super::config_baseline::rename_entries(
        old,
        new,
        |e| e.what == super::config_baseline::PHPSTAN && !e.rule.is_empty(),
        |was, now| skeleton(was) == skeleton(now),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_quotings_give_the_same_string() {
        assert_eq!(
            neon_string(r##""#^A\\\\B\\:\\:c$#""##, ""),
            r"#^A\\B\:\:c$#"
        );
        assert_eq!(neon_string(r"'#^A\\B\:\:c$#'", ""), r"#^A\\B\:\:c$#");
        assert_eq!(neon_string("'it''s'", ""), "it's");
        assert_eq!(neon_string("plain text", "plain text"), "plain text");
    }

    #[test]
    fn an_escaped_anchored_pattern_is_its_text_and_raw_messages_are_text() {
        let pattern = r"#^Property A\\B\:\:\$x is never read, only written\.$#";
        let text = r"Property A\B::$x is never read, only written.";
        assert_eq!(message_id("message", pattern), text);
        assert_eq!(message_id("rawMessage", text), text);
    }

    #[test]
    fn a_pattern_that_matches_many_texts_stays_a_pattern() {
        for p in [
            r"#Rollbar\\RollbarLogger#",
            r"#^Call to .* on null$#",
            r"#^Foo\d$#",
            r"#^Foo$#i",
            r"#^a (b)$#",
        ] {
            assert_eq!(message_id("message", p), p);
        }
    }

    #[test]
    fn types_are_left_out_of_the_skeleton() {
        assert_eq!(
            skeleton("Return type (array<array|int>) of method A::f() should be covariant"),
            skeleton("Return type (array<array<mixed>|int>) of method A::f() should be covariant"),
        );
        assert_eq!(
            skeleton("Cannot access offset 'table' on array<array|bool>|object."),
            skeleton("Cannot access offset 'table' on array<array<mixed>|bool>|object."),
        );
        assert_ne!(
            skeleton("Return type (array) of method A::f() should be covariant"),
            skeleton("Return type (array) of method A::g() should be covariant"),
        );
    }

    #[test]
    fn a_rerendered_entry_takes_the_new_message_and_a_new_one_stays_new() {
        let e = |rule: &str, scope: &str| {
            Entry::new(super::super::config_baseline::PHPSTAN, rule, scope, vec![1])
        };
        let mut old = vec![e("Method A::f() returns (array<array|int>).", "a.php")];
        let new = vec![
            e("Method A::f() returns (array<array<mixed>|int>).", "a.php"),
            e("Method A::g() returns (array<int>).", "a.php"),
        ];
        rename_rerendered(&mut old, &new);
        assert_eq!(old[0].rule, new[0].rule);
        let mut elsewhere = vec![e("Method A::f() returns (array<array|int>).", "b.php")];
        rename_rerendered(&mut elsewhere, &new);
        assert_ne!(elsewhere[0].rule, new[0].rule);
    }
}
