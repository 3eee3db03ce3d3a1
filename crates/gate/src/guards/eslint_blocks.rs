//! Files an ESLint configuration ignored whole before a change and lints now, with a few
//! rules off: `pino.d.ts` taken out of `globalIgnores([..])` and given a block
//! `{ files: ['pino.d.ts'], rules: { 'x': 'off' } }`. Nothing checked those files before,
//! so the rules turned off for them silence nothing that was checked: a narrowing, not a
//! new suppression. Read from the configuration's own structure (braces, brackets, keys),
//! strings and comments aside; a text it cannot follow excuses nothing.

use std::collections::BTreeSet;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    Word(String),
    Punct(char),
}

/// The tokens of a JS or JSON configuration, each with its 1-based line.
fn tokens(text: &str) -> Vec<(Tok, u32)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1u32;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
        } else if c == '"' || c == '\'' || c == '`' {
            let start_line = line;
            let mut s = String::new();
            i += 1;
            while i < chars.len() && chars[i] != c {
                if chars[i] == '\\' {
                    i += 1;
                }
                if let Some(&ch) = chars.get(i) {
                    if ch == '\n' {
                        line += 1;
                    }
                    s.push(ch);
                }
                i += 1;
            }
            i += 1;
            out.push((Tok::Str(s), start_line));
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let mut s = String::new();
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                s.push(chars[i]);
                i += 1;
            }
            out.push((Tok::Word(s), line));
        } else {
            if !c.is_whitespace() {
                out.push((Tok::Punct(c), line));
            }
            i += 1;
        }
    }
    out
}

/// A configuration object limited to some files: its lines and its `files` patterns.
struct Block {
    first: u32,
    last: u32,
    files: Vec<String>,
}

struct Frame {
    open: char,
    key: Option<String>,
    first: u32,
    files: Vec<String>,
    ignores: Vec<String>,
}

/// The patterns ignored whole (`globalIgnores([..])`, an object holding `ignores` and no
/// `files`, legacy `ignorePatterns`) and the blocks limited to files. `None` when the
/// brackets do not balance.
fn read(text: &str) -> Option<(BTreeSet<String>, Vec<Block>)> {
    let toks = tokens(text);
    let mut stack: Vec<Frame> = Vec::new();
    let mut global = BTreeSet::new();
    let mut blocks = Vec::new();
    let mut pending: Option<String> = None;
    for (k, (tok, line)) in toks.iter().enumerate() {
        let prev = k.checked_sub(1).map(|p| &toks[p].0);
        let next = toks.get(k + 1).map(|t| &t.0);
        match tok {
            Tok::Punct(':') => {}
            Tok::Punct(c @ ('{' | '[' | '(')) => {
                let key = match (c, prev) {
                    ('(', Some(Tok::Word(w))) => Some(w.clone()),
                    _ => pending.take(),
                };
                stack.push(Frame {
                    open: *c,
                    key,
                    first: *line,
                    files: Vec::new(),
                    ignores: Vec::new(),
                });
            }
            Tok::Punct(c @ ('}' | ']' | ')')) => {
                let frame = stack.pop()?;
                let want = match c {
                    '}' => '{',
                    ']' => '[',
                    _ => '(',
                };
                if frame.open != want {
                    return None;
                }
                if frame.open == '{' {
                    if frame.files.is_empty() {
                        global.extend(frame.ignores);
                    } else {
                        blocks.push(Block {
                            first: frame.first,
                            last: *line,
                            files: frame.files,
                        });
                    }
                }
                pending = None;
            }
            Tok::Punct(',') => pending = None,
            Tok::Str(s) | Tok::Word(s)
                if next == Some(&Tok::Punct(':'))
                    && stack.last().is_some_and(|f| f.open == '{') =>
            {
                pending = Some(s.clone());
            }
            // A key of something other than an object (a ternary's `a ? b : c`) is no key.
            Tok::Str(_) | Tok::Word(_) if next == Some(&Tok::Punct(':')) => {}
            Tok::Str(s) => {
                let n = stack.len();
                // A string at the top level (`'use strict'`) belongs to nothing.
                let Some(top) = stack.last() else {
                    continue;
                };
                // A string value of a key of this object, or an element of a keyed array.
                let (key, owner) = if top.open == '{' {
                    (pending.clone(), n.checked_sub(1))
                } else if top.open == '[' {
                    let parent_call = n
                        .checked_sub(2)
                        .and_then(|p| stack.get(p))
                        .filter(|p| p.open == '(')
                        .and_then(|p| p.key.clone());
                    (top.key.clone().or(parent_call), n.checked_sub(2))
                } else {
                    (top.key.clone(), None)
                };
                match key.as_deref() {
                    Some("globalIgnores" | "ignorePatterns") => {
                        global.insert(s.clone());
                    }
                    Some("files") => {
                        if let Some(o) = owner.and_then(|o| stack.get_mut(o)) {
                            o.files.push(s.clone());
                        }
                    }
                    Some("ignores") => {
                        if let Some(o) = owner.and_then(|o| stack.get_mut(o)) {
                            o.ignores.push(s.clone());
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    stack.is_empty().then_some((global, blocks))
}

/// Whether `pattern` names only files under the ignore pattern `ignored`: the same
/// pattern, or one inside an ignored directory (`types/**`, `types/`).
fn covered(pattern: &str, ignored: &str) -> bool {
    let strip = |p: &str| p.strip_prefix("./").unwrap_or(p).to_string();
    let (pattern, ignored) = (strip(pattern), strip(ignored));
    if pattern == ignored {
        return true;
    }
    let dir = ignored
        .strip_suffix("/**")
        .or_else(|| ignored.strip_suffix("/**/*"))
        .or_else(|| ignored.strip_suffix('/'))
        .unwrap_or("");
    !dir.is_empty() && !dir.contains('*') && pattern.starts_with(&format!("{dir}/"))
}

/// The lines of `new` inside a block whose `files` were all ignored whole in `old` and are
/// no longer: rules turned off there silence nothing that was checked.
pub fn unignored_lines(old: &str, new: &str) -> BTreeSet<u32> {
    let (Some((was, _)), Some((now, blocks))) = (read(old), read(new)) else {
        return BTreeSet::new();
    };
    let freed: Vec<&String> = was.difference(&now).collect();
    let mut out = BTreeSet::new();
    for b in &blocks {
        if b.files
            .iter()
            .all(|f| freed.iter().any(|ig| covered(f, ig)))
        {
            out.extend(b.first..=b.last);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "'use strict'\n\nmodule.exports = defineConfig([\n  neostandard({ ts: true }),\n  globalIgnores([\n    'pino.d.ts',\n    'test/types/pino.test-d.ts', // typed\n  ]),\n  {\n    rules: { 'no-var': 'off' }\n  },\n])\n";

    #[test]
    fn a_block_over_files_ignored_whole_before_is_freed() {
        let new = "'use strict'\n\nmodule.exports = defineConfig([\n  neostandard({ ts: true }),\n  globalIgnores([\n    'test/types/pino.test-d.ts', // typed\n  ]),\n  {\n    rules: { 'no-var': 'off' }\n  },\n  {\n    files: ['pino.d.ts'],\n    rules: {\n      '@typescript-eslint/no-unused-vars': 'off'\n    }\n  },\n])\n";
        let lines = unignored_lines(OLD, new);
        assert!(lines.contains(&14), "{lines:?}");
        assert!(!lines.contains(&9));
    }

    #[test]
    fn a_block_over_more_files_than_were_ignored_is_not() {
        let new = "module.exports = defineConfig([\n  globalIgnores([\n    'pino.d.ts',\n  ]),\n  {\n    files: ['test/types/**/*'],\n    rules: {\n      'x/y': 'off'\n    }\n  },\n])\n";
        assert!(unignored_lines(OLD, new).is_empty());
        // Still ignored: nothing was freed.
        let kept = OLD.replace(
            "  {\n    rules",
            "  {\n    files: ['pino.d.ts'],\n    rules",
        );
        assert!(unignored_lines(OLD, &kept).is_empty());
    }

    #[test]
    fn legacy_ignore_patterns_and_directories() {
        let old = "{\n  \"ignorePatterns\": [\"types/\"],\n  \"rules\": {}\n}\n";
        let new = "{\n  \"overrides\": [\n    {\n      \"files\": [\"types/index.d.ts\"],\n      \"rules\": { \"no-undef\": \"off\" }\n    }\n  ]\n}\n";
        assert!(unignored_lines(old, new).contains(&5));
        assert!(unignored_lines("{ oops", new).is_empty());
    }
}
