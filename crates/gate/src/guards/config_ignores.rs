//! File patterns a JavaScript linter is told to skip, written in its JSON configuration:
//! knip's `ignore` (its own `knip.json`/`.knip.jsonc`, or the `knip` key of
//! `package.json`), the `ignore` list of the standard family (`standard`, `standardx`,
//! `semistandard`, `ts-standard`) and xo's `ignores`, both under their key of
//! `package.json`. A pattern in such a list keeps every check of that tool off the files it
//! matches, as a RuboCop `Exclude` entry does for one cop: each is an entry whose id is the
//! tool and the pattern, so a list re-sorted or rewrapped is not new and a pattern added is.

use super::config_lint::Entry;
use serde_json::Value;

/// The knip configuration files read as JSON (with comments and trailing commas for the
/// `.jsonc` ones, as knip reads them). `knip.ts` and friends are code and not read.
pub fn is_knip_config(name: &str) -> bool {
    matches!(
        name,
        "knip.json" | "knip.jsonc" | ".knip.json" | ".knip.jsonc"
    )
}

/// The keys of `package.json` whose object holds an ignore list, with the list's key.
const PACKAGE_KEYS: &[(&str, &str)] = &[
    ("knip", "ignore"),
    ("standard", "ignore"),
    ("standardx", "ignore"),
    ("semistandard", "ignore"),
    ("ts-standard", "ignore"),
    ("xo", "ignores"),
];

/// knip's ignored patterns in a knip configuration file: the top-level `ignore` and each
/// workspace's (scoped by the workspace's directory). `None` when the text is not JSON
/// once comments and trailing commas are taken out.
pub fn knip_ignores(text: &str) -> Option<Vec<Entry>> {
    let plain = strip_jsonc(text);
    let root: Value = serde_json::from_str(&plain).ok()?;
    let lines: Vec<&str> = plain.lines().collect();
    let mut taken = vec![false; lines.len()];
    let mut out = Vec::new();
    let Some(top) = root.as_object() else {
        return Some(out);
    };
    let at = |keys: &[&str]| keys_line(&lines, keys);
    let list = List {
        what: "knip ignore",
        prefix: String::new(),
        from: at(&["ignore"]),
    };
    list.entries(top.get("ignore"), &lines, &mut taken, &mut out);
    if let Some(Value::Object(spaces)) = top.get("workspaces") {
        for (dir, space) in spaces {
            let list = List {
                what: "knip ignore",
                prefix: if dir == "." {
                    String::new()
                } else {
                    format!("{dir}/")
                },
                from: at(&["workspaces", dir, "ignore"]),
            };
            list.entries(space.get("ignore"), &lines, &mut taken, &mut out);
        }
    }
    Some(out)
}

/// The ignore lists of linters configured in `package.json` (see [`PACKAGE_KEYS`]); empty
/// when the text is not JSON (its ESLint settings say `None` for it).
pub fn package_json_ignores(text: &str) -> Vec<Entry> {
    let Ok(Value::Object(top)) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut taken = vec![false; lines.len()];
    let mut out = Vec::new();
    for (tool, key) in PACKAGE_KEYS {
        // `"xo": "^1.0.0"` in `devDependencies` is a version, not the tool's settings.
        let Some(Value::Object(settings)) = top.get(*tool) else {
            continue;
        };
        let what = format!("{tool} ignore");
        let list = List {
            what: &what,
            prefix: String::new(),
            from: keys_line(&lines, &[tool, key]),
        };
        list.entries(settings.get(*key), &lines, &mut taken, &mut out);
    }
    out
}

/// Where one ignore list is written and what its entries are called.
struct List<'w> {
    what: &'w str,
    /// Put before each pattern (a knip workspace's directory).
    prefix: String,
    /// The line of the list's key: its patterns are looked for from there.
    from: usize,
}

impl List<'_> {
    /// One entry per string of `list` (a pattern, or an array of them), reported at the
    /// first line from the list's key, not yet taken, that holds it quoted.
    fn entries(
        &self,
        list: Option<&Value>,
        lines: &[&str],
        taken: &mut [bool],
        out: &mut Vec<Entry>,
    ) {
        let patterns: Vec<&str> = match list {
            Some(Value::String(s)) => vec![s.as_str()],
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            _ => return,
        };
        for pattern in patterns {
            let quoted = serde_json::to_string(pattern).unwrap_or_default();
            let at = (self.from..lines.len()).find(|&i| !taken[i] && lines[i].contains(&quoted));
            let Some(at) = at else { continue };
            taken[at] = true;
            let bare = pattern.strip_prefix("./").unwrap_or(pattern);
            let scope = format!("{}{bare}", self.prefix);
            out.push(Entry::new(self.what, "", &scope, vec![at as u32 + 1]));
        }
    }
}

/// The line of the last of `keys`, each looked for (as a quoted JSON key) from the line of
/// the one before; 0 when one is not found, so the patterns are looked for everywhere.
fn keys_line(lines: &[&str], keys: &[&str]) -> usize {
    let mut from = 0;
    for key in keys {
        let quoted = serde_json::to_string(key).unwrap_or_default();
        let found = (from..lines.len()).find(|&i| {
            lines[i]
                .trim_start()
                .strip_prefix(&quoted)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        });
        match found {
            Some(at) => from = at,
            None => return 0,
        }
    }
    from
}

/// JSON with comments (`//`, `/* */`) and trailing commas made plain JSON, with every line
/// where it was: comments become spaces (their line breaks kept) and a comma before a
/// closing `]` or `}` a space.
pub fn strip_jsonc(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut i = 0;
    let mut in_string = false;
    // Where the last comma outside strings is in `out`, while only blanks follow it.
    let mut comma: Option<usize> = None;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            out.extend([' ', ' ']);
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                out.push(if chars[i] == '\n' { '\n' } else { ' ' });
                i += 1;
            }
            if i < chars.len() {
                out.extend([' ', ' ']);
                i += 2;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                comma = None;
            }
            ',' => comma = Some(out.len()),
            ']' | '}' => {
                if let Some(at) = comma.take() {
                    out[at] = ' ';
                }
            }
            c if c.is_whitespace() => {}
            _ => comma = None,
        }
        out.push(c);
        i += 1;
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(entries: Vec<Entry>) -> Vec<(String, String, u32)> {
        entries
            .into_iter()
            .map(|e| (e.what, e.scope, e.lines[0]))
            .collect()
    }

    #[test]
    fn jsonc_comments_and_trailing_commas_are_blanked_in_place() {
        let text = "{\n  // note\n  \"a\": [\"x//y\", /* b */ \"z\",],\n}\n";
        let plain = strip_jsonc(text);
        assert_eq!(plain.lines().count(), text.lines().count());
        let v: Value = serde_json::from_str(&plain).unwrap();
        assert_eq!(v["a"][0], "x//y");
        assert_eq!(v["a"][1], "z");
    }

    #[test]
    fn knip_ignore_patterns_top_level_and_per_workspace() {
        let text = "{\n  \"ignore\": [\n    \"a/x.js\",\n    \"./b/**\",\n  ],\n  \"ignoreDependencies\": [\"a/x.js2\"],\n  \"workspaces\": {\"pkg\": {\"ignore\": \"gen/**\"}},\n}\n";
        assert_eq!(
            found(knip_ignores(text).unwrap()),
            vec![
                ("knip ignore".into(), "a/x.js".into(), 3),
                ("knip ignore".into(), "b/**".into(), 4),
                ("knip ignore".into(), "pkg/gen/**".into(), 7),
            ]
        );
        assert!(knip_ignores("{\"ignore\": [").is_none());
    }

    #[test]
    fn package_json_ignore_lists_of_linters_only() {
        let text = "{\n  \"devDependencies\": {\"xo\": \"1\", \"standard\": \"2\"},\n  \"files\": [\"build\"],\n  \"standardx\": {\n    \"ignore\": [\n      \"build\"\n    ]\n  },\n  \"xo\": {\"ignores\": [\"gen\"]}\n}\n";
        assert_eq!(
            found(package_json_ignores(text)),
            vec![
                ("standardx ignore".into(), "build".into(), 6),
                ("xo ignore".into(), "gen".into(), 9),
            ]
        );
    }
}
