//! Suppressions in YAML configuration, read line by line by indentation (one setting a
//! line, as these files are written): RuboCop cops turned off or excluded for files in
//! `.rubocop*.yml`, and golangci-lint exclusion rules in `.golangci.y*ml`. Neither reading
//! can fail: a line it does not recognise is no entry.

use super::config_lint::Entry;

/// RuboCop configuration files: `.rubocop.yml`, `.rubocop_todo.yml` (generated, but an
/// exclusion is one wherever it is written) and other `.rubocop*.yml` a config inherits.
pub fn is_rubocop_config(name: &str) -> bool {
    name.starts_with(".rubocop") && (name.ends_with(".yml") || name.ends_with(".yaml"))
}

/// golangci-lint configuration files.
pub fn is_golangci_config(name: &str) -> bool {
    [".golangci.yml", ".golangci.yaml"].contains(&name)
}

/// One meaningful line of a YAML file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct YLine {
    pub(super) number: u32,
    /// Column of the first character (of the `-` for a list item).
    pub(super) indent: usize,
    /// A list item (`- x`, `- key: x`).
    pub(super) item: bool,
    /// The key of a `key: value` line (after the `- ` of an item).
    pub(super) key: Option<String>,
    /// The value, unquoted, comment removed.
    pub(super) value: String,
}

pub(super) fn ylines(text: &str) -> Vec<YLine> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = strip_comment(raw);
        let trimmed = body.trim();
        if trimmed.is_empty() || trimmed == "---" || trimmed == "..." {
            continue;
        }
        let indent = body.len() - body.trim_start().len();
        let (item, rest) = match trimmed.strip_prefix('-') {
            Some(r) if r.is_empty() || r.starts_with(' ') => (true, r.trim()),
            _ => (false, trimmed),
        };
        let (key, value) = match split_key(rest) {
            Some((k, v)) => (Some(k.to_string()), v),
            None => (None, rest),
        };
        out.push(YLine {
            number: i as u32 + 1,
            indent,
            item,
            key,
            value: unquote(value.trim()).to_string(),
        });
    }
    out
}

/// The line without a `#` comment (a `#` that opens the line or follows a space, outside
/// quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => return &line[..i],
            None => {}
        }
        prev = c;
    }
    line
}

/// `key: value` split at the first `:` followed by a space or the end, outside quotes;
/// `None` when the line is a plain value.
fn split_key(s: &str) -> Option<(&str, &str)> {
    if s.starts_with(['\'', '"', '[', '{']) {
        return None;
    }
    let at = s
        .char_indices()
        .find(|&(i, c)| c == ':' && s[i + 1..].chars().next().is_none_or(|n| n == ' '))?
        .0;
    Some((s[..at].trim(), s[at + 1..].trim()))
}

fn unquote(s: &str) -> &str {
    for q in ['\'', '"'] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    s
}

/// The values of a flow sequence (`[a, 'b']`), or `None` when `s` is not one.
fn flow_list(s: &str) -> Option<Vec<String>> {
    let inner = s.strip_prefix('[')?.strip_suffix(']')?;
    Some(
        inner
            .split(',')
            .map(|v| unquote(v.trim()).to_string())
            .filter(|v| !v.is_empty())
            .collect(),
    )
}

/// The list under the line at `at` (a key with no value): its items, each with its line,
/// until a line at a lower indentation or a key line at the list's own indentation.
fn block_list(lines: &[YLine], at: usize) -> Vec<(String, u32)> {
    let owner = lines[at].indent + if lines[at].item { 2 } else { 0 };
    let mut out = Vec::new();
    let Some(first) = lines.get(at + 1).filter(|l| l.item && l.indent >= owner) else {
        return out;
    };
    for l in &lines[at + 1..] {
        if l.indent < first.indent || (l.indent == first.indent && !l.item) {
            break;
        }
        if l.item && l.indent == first.indent && l.key.is_none() {
            out.push((l.value.clone(), l.number));
        }
    }
    out
}

/// The values of a list-valued setting: inline (`[a, b]`, or one bare value) or the block
/// list under it.
fn list_values(lines: &[YLine], at: usize) -> Vec<(String, u32)> {
    let l = &lines[at];
    if l.value.is_empty() {
        return block_list(lines, at);
    }
    match flow_list(&l.value) {
        Some(values) => values.into_iter().map(|v| (v, l.number)).collect(),
        None => vec![(l.value.clone(), l.number)],
    }
}

/// A RuboCop cop name (`Style/GlobalVars`, or the old bare `LineLength`): a capitalised
/// name with at most a department before it; `AllCops` is the settings of every cop.
fn cop_name(key: &str) -> Option<&str> {
    let valid = key.split('/').all(|part| {
        part.starts_with(|c: char| c.is_ascii_uppercase())
            && part.chars().all(|c| c.is_ascii_alphanumeric())
    });
    (valid && key != "AllCops" && key.split('/').count() <= 3).then_some(key)
}

/// The cops a RuboCop configuration silences: a cop turned off (`Enabled: false`), and each
/// file of a cop's `Exclude` list. A cop is named without its department
/// (`Lint/EndAlignment` and `Layout/EndAlignment` are the same cop moved between
/// departments by an upgrade, `LineLength` is `Metrics/LineLength`). `AllCops: Exclude`
/// (files no cop reads, such as vendored code) and raised limits (`Max:`) are not read.
pub fn rubocop_suppressions(text: &str) -> Vec<Entry> {
    let lines = ylines(text);
    let mut out = Vec::new();
    // The cop being read: its name without department, and the line naming it.
    let mut cop: Option<(String, u32)> = None;
    for (i, l) in lines.iter().enumerate() {
        if l.indent == 0 && !l.item {
            cop = l
                .key
                .as_deref()
                .and_then(cop_name)
                .map(|k| (k.rsplit('/').next().unwrap_or(k).to_string(), l.number));
            continue;
        }
        let Some((name, header)) = cop.as_ref() else {
            continue;
        };
        match l.key.as_deref() {
            Some("Enabled") if l.value == "false" => {
                out.push(Entry::new("rubocop off", name, "", vec![l.number]).in_group(*header));
            }
            Some("Exclude") => {
                for (path, line) in list_values(&lines, i) {
                    out.push(
                        Entry::new("rubocop exclude", name, &path, vec![line]).in_group(*header),
                    );
                }
            }
            _ => {}
        }
    }
    out
}

/// A linter listed under golangci-lint's `linters.disable`.
pub const GOLANGCI_DISABLE: &str = "golangci disable";

/// The exclusion rules of a golangci-lint configuration: each entry of
/// `linters.exclusions.rules` (v2) or `issues.exclude-rules` (v1), one per linter it
/// names, scoped by its `path`, `path-except`, `text` and `source`; and each pattern of
/// v1's `issues.exclude`; and each function of errcheck's `exclude-functions` (under
/// `linters-settings` in v1, `linters.settings` in v2), whose errors errcheck no longer
/// reports; and each analyzer of govet's `disable` list. Both spellings of a rule share an id, so a configuration migrated
/// from v1 to v2 moves its rules. Files excluded from every linter
/// (`exclusions.paths`, `skip-dirs`) are not read, as RuboCop's `AllCops: Exclude`.
pub fn golangci_exclusions(text: &str) -> Vec<Entry> {
    let lines = ylines(text);
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let parent = parent_key(&lines, i);
        match (l.key.as_deref(), parent) {
            (Some("exclude-rules"), Some("issues")) | (Some("rules"), Some("exclusions")) => {
                exclusion_rules(&lines, i, &mut out);
            }
            // Read so a linter turned off whole and now excluded for some files is seen
            // narrowed; never reported (the file does not say the linter ran before).
            (Some("disable"), Some("linters")) => {
                for (linter, line) in list_values(&lines, i) {
                    out.push(Entry::new(GOLANGCI_DISABLE, &linter, "", vec![line]));
                }
            }
            // Analyzers govet is told not to run (`settings.govet.disable` in v2,
            // `linters-settings.govet.disable` in v1): each silences its reports in every
            // file, as a linter in `linters.disable` does, but under a linter that still
            // runs, so the file shows that it ran before.
            (Some("disable"), Some("govet")) => {
                for (analyzer, line) in list_values(&lines, i) {
                    out.push(Entry::new(
                        "golangci govet disable",
                        &analyzer,
                        "",
                        vec![line],
                    ));
                }
            }
            // Functions errcheck is told not to check: each call's error may be dropped.
            (Some("exclude-functions"), Some("errcheck")) => {
                for (function, line) in list_values(&lines, i) {
                    out.push(Entry::new(
                        "golangci errcheck exclude-functions",
                        &function,
                        "",
                        vec![line],
                    ));
                }
            }
            (Some("exclude"), Some("issues")) => {
                for (pattern, line) in list_values(&lines, i) {
                    out.push(Entry::new(
                        "golangci exclude",
                        "",
                        &format!("text={pattern}"),
                        vec![line],
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

/// The key of the mapping the line at `at` sits in: the nearest line above it with a lower
/// indentation.
fn parent_key(lines: &[YLine], at: usize) -> Option<&str> {
    let indent = lines[at].indent;
    lines[..at]
        .iter()
        .rev()
        .find(|l| l.indent < indent)
        .and_then(|l| l.key.as_deref())
}

fn exclusion_rules(lines: &[YLine], at: usize, out: &mut Vec<Entry>) {
    let owner = lines[at].indent;
    let Some(first) = lines.get(at + 1).filter(|l| l.item && l.indent >= owner) else {
        return;
    };
    let d = first.indent;
    let mut j = at + 1;
    while j < lines.len() && lines[j].item && lines[j].indent == d {
        // One rule: its first line, then the lines indented under it.
        let mut end = j + 1;
        while end < lines.len() && lines[end].indent > d {
            end += 1;
        }
        exclusion_rule(lines, j, end, out);
        j = end;
    }
}

fn exclusion_rule(lines: &[YLine], start: usize, end: usize, out: &mut Vec<Entry>) {
    let mut scope = Vec::new();
    let mut linters = Vec::new();
    for k in start..end {
        let l = &lines[k];
        match l.key.as_deref() {
            Some(key @ ("path" | "path-except" | "text" | "source")) => {
                scope.push(format!("{key}={}", l.value));
            }
            Some("linters") => linters.extend(list_values(lines, k)),
            _ => {}
        }
    }
    scope.sort();
    let scope = scope.join(" ");
    if linters.is_empty() {
        out.push(Entry::new(
            "golangci exclude",
            "",
            &scope,
            vec![lines[start].number],
        ));
    }
    for (linter, line) in linters {
        out.push(Entry::new("golangci exclude", &linter, &scope, vec![line]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(entries: &[Entry]) -> Vec<(String, String, String, u32)> {
        entries
            .iter()
            .map(|e| (e.what.clone(), e.rule.clone(), e.scope.clone(), e.lines[0]))
            .collect()
    }

    fn id(what: &str, rule: &str, scope: &str, line: u32) -> (String, String, String, u32) {
        (what.into(), rule.into(), scope.into(), line)
    }

    #[test]
    fn rubocop_cops_off_and_excluded() {
        let text = "AllCops:\n  Exclude:\n    - vendor/**/*\n\nMetrics/AbcSize:\n  Enabled: false\n\nMetrics/MethodLength:\n  Max: 25 # long\n\nLayout/EndAlignment:\n  EnforcedStyleAlignWith: variable\n  Exclude:\n    - 'lib/a.rb'\n    - \"lib/b.rb\"\n\nLineLength:\n  Enabled: true\nStyle/X:\n  Exclude: [a.rb, 'b.rb']\n";
        assert_eq!(
            ids(&rubocop_suppressions(text)),
            vec![
                id("rubocop off", "AbcSize", "", 6),
                id("rubocop exclude", "EndAlignment", "lib/a.rb", 14),
                id("rubocop exclude", "EndAlignment", "lib/b.rb", 15),
                id("rubocop exclude", "X", "a.rb", 20),
                id("rubocop exclude", "X", "b.rb", 20),
            ]
        );
    }

    #[test]
    fn golangci_rules_v1_and_v2_share_ids() {
        let v2 = "version: \"2\"\nlinters:\n  exclusions:\n    paths:\n      - third_party\n    rules:\n      - path: _test\\.go\n        linters:\n          - gosec\n          - noctx # later\n      - linters: # why\n          - gocheckcompilerdirectives\n        text: 'directive unrecognized: //go:fix'\n";
        assert_eq!(
            ids(&golangci_exclusions(v2)),
            vec![
                id("golangci exclude", "gosec", "path=_test\\.go", 9),
                id("golangci exclude", "noctx", "path=_test\\.go", 10),
                id(
                    "golangci exclude",
                    "gocheckcompilerdirectives",
                    "text=directive unrecognized: //go:fix",
                    12
                ),
            ]
        );
        let v1 = "issues:\n  exclude-rules:\n  - linters: [gosec, noctx]\n    path: _test\\.go\n  exclude:\n    - 'Error return value'\n";
        assert_eq!(
            ids(&golangci_exclusions(v1)),
            vec![
                id("golangci exclude", "gosec", "path=_test\\.go", 3),
                id("golangci exclude", "noctx", "path=_test\\.go", 3),
                id("golangci exclude", "", "text=Error return value", 6),
            ]
        );
    }

    #[test]
    fn comments_and_quotes() {
        assert_eq!(strip_comment("a: 'x # y' # z"), "a: 'x # y' ");
        assert_eq!(strip_comment("a: b#c"), "a: b#c");
        assert_eq!(split_key("text: 'a: b'"), Some(("text", "'a: b'")));
        assert_eq!(split_key("'a: b'"), None);
        assert_eq!(split_key("http://x"), None);
    }
}
