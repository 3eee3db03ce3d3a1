//! ESLint rule maps written inside `package.json`: ESLint's own `eslintConfig` key and
//! xo's `xo` key hold the same `rules` map (and `overrides[].rules`) an `.eslintrc` file
//! does. The file is read with a JSON parser, so the rest of `package.json` (dependencies,
//! scripts) is never taken for a rule; each rule turned off is reported at the line of its
//! key, under the same id as in an ESLint configuration file, so a rule moved between
//! `package.json` and `.eslintrc*` in one change is moved.

use super::config_lint::Entry;
use serde_json::Value;

/// The keys of `package.json` that hold an ESLint configuration.
const KEYS: &[&str] = &["eslintConfig", "xo"];

/// Rules turned off (`"off"`, `0`, alone or first in an array) in the ESLint settings of
/// a `package.json`; `None` when the text is not JSON.
pub fn rules_off(text: &str) -> Option<Vec<Entry>> {
    let root: Value = serde_json::from_str(text).ok()?;
    let mut out = Vec::new();
    let Some(top) = root.as_object() else {
        return Some(out);
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut taken = vec![false; lines.len()];
    for key in KEYS {
        let Some(config) = top.get(*key) else {
            continue;
        };
        let mut rules = Vec::new();
        collect(config, &mut rules);
        if rules.is_empty() {
            continue;
        }
        // The key whose value opens a block: `"xo": "^1.0.0"` in `devDependencies` is not it.
        let start = key_line(&lines, key, 0, &taken, true).unwrap_or(0);
        for rule in rules {
            let at = key_line(&lines, rule, start, &taken, false).unwrap_or(start);
            if let Some(t) = taken.get_mut(at) {
                *t = true;
            }
            out.push(Entry::new("eslint off", rule, "", vec![at as u32 + 1]));
        }
    }
    Some(out)
}

/// The rules turned off in one configuration: its `rules`, each `overrides` entry's
/// `rules`, and the same in each element when it is an array of configurations.
fn collect<'v>(config: &'v Value, out: &mut Vec<&'v str>) {
    match config {
        Value::Array(items) => items.iter().for_each(|c| collect(c, out)),
        Value::Object(map) => {
            if let Some(Value::Object(rules)) = map.get("rules") {
                out.extend(
                    rules
                        .iter()
                        .filter(|(_, v)| is_off(v))
                        .map(|(k, _)| k.as_str()),
                );
            }
            if let Some(overrides) = map.get("overrides") {
                collect(overrides, out);
            }
        }
        _ => {}
    }
}

fn is_off(value: &Value) -> bool {
    let level = match value {
        Value::Array(items) => items.first(),
        v => Some(v),
    };
    match level {
        Some(Value::String(s)) => s == "off",
        Some(Value::Number(n)) => n.as_u64() == Some(0),
        _ => false,
    }
}

/// The first line at or after `from`, not yet taken, that opens with the JSON key `key`
/// (with `block`, one whose value opens an object or an array on that line).
fn key_line(lines: &[&str], key: &str, from: usize, taken: &[bool], block: bool) -> Option<usize> {
    let quoted = format!("\"{key}\"");
    (from..lines.len()).find(|&i| {
        let value = lines[i]
            .trim_start()
            .strip_prefix(&quoted)
            .and_then(|rest| rest.trim_start().strip_prefix(':'))
            .map(str::trim_start);
        !taken[i] && value.is_some_and(|v| !block || v.starts_with(['{', '[']))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, u32)> {
        rules_off(text)
            .unwrap()
            .into_iter()
            .map(|e| (e.rule, e.lines[0]))
            .collect()
    }

    #[test]
    fn rules_off_in_eslint_config_and_xo() {
        let text = "{\n  \"name\": \"x\",\n  \"xo\": \"^1.0.0\",\n  \"eslintConfig\": {\n    \"rules\": {\n      \"no-undef\": 0,\n      \"eqeqeq\": \"error\"\n    },\n    \"overrides\": [{\"files\": [\"a.js\"], \"rules\": {\n      \"no-var\": [\"off\", {}]\n    }}]\n  },\n  \"xo\": {\n    \"rules\": {\n      \"no-console\": \"off\"\n    }\n  }\n}\n";
        assert_eq!(
            found(text),
            vec![
                ("no-undef".to_string(), 6),
                ("no-var".to_string(), 10),
                ("no-console".to_string(), 15),
            ]
        );
    }

    #[test]
    fn other_settings_and_bad_json() {
        assert!(found("{\"dependencies\": {\"xo\": \"1\"}, \"xo\": {\"space\": true}}").is_empty());
        assert!(rules_off("{\"xo\": ").is_none());
    }
}
