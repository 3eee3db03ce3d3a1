//! Static-analysis baselines: the issues a PHP analyser was told to stop reporting. Psalm's
//! `psalm-baseline.xml` lists, per file and issue type, the code each occurrence sits on;
//! PHPStan's `ignoreErrors` (the whole of a generated `phpstan-baseline.neon`, and the same
//! list in `phpstan.neon`) gives a message, the path it is ignored in and how many times.
//! An entry added to either silences one more reported issue, as `@psalm-suppress` or
//! `@phpstan-ignore` on the line would. Both are read line by line, as the tools write them;
//! neither reading can fail.

use super::config_lint::Entry;
use super::config_yaml::{ylines, YLine};
use super::phpstan_messages::{message_id, neon_string};

pub const PSALM: &str = "psalm baseline";
pub const PHPSTAN: &str = "phpstan ignoreErrors";

/// Psalm's baseline: `psalm-baseline.xml`, or another XML file named as a baseline (the
/// name is set by `errorBaseline`); its entries are read only under a `<files>` root.
pub fn is_psalm_baseline(name: &str) -> bool {
    name.ends_with(".xml") && name.contains("baseline") && !name.contains("lint-baseline")
}

/// PHPStan's configuration and baseline files (`phpstan.neon`, `phpstan.neon.dist`,
/// `phpstan-baseline.neon`, any `.neon` a configuration includes).
pub fn is_phpstan_config(name: &str) -> bool {
    name.ends_with(".neon") || name.ends_with(".neon.dist")
}

/// Psalm baseline entries: one per `<code>` of an issue element, id (issue, file and code),
/// at the `<code>` line; an issue with no `<code>` (`occurrences="2"` alone) gives its
/// count of entries at its own line. Code is compared decoded, so the same code written
/// with `&gt;` or inside `<![CDATA[..]]>` is the same entry.
pub fn psalm_entries(text: &str) -> Vec<Entry> {
    if !text.contains("<files") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut file = String::new();
    // The open issue: name, line, occurrences, codes seen.
    let mut issue: Option<(String, u32, usize, usize)> = None;
    let mut code: Option<(String, u32)> = None;
    for (i, raw) in text.lines().enumerate() {
        let number = i as u32 + 1;
        let line = raw.trim();
        if let Some((mut body, at)) = code.take() {
            body.push('\n');
            match line.find("</code>") {
                Some(end) => {
                    body.push_str(&raw[..raw.find("</code>").unwrap_or(end)]);
                    push_code(&mut out, &file, issue.as_mut(), &body, at);
                }
                None => {
                    body.push_str(raw);
                    code = Some((body, at));
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("<file ") {
            file = attribute(rest, "src").unwrap_or_default();
            continue;
        }
        if let Some(rest) = line.strip_prefix("<code>") {
            match rest.find("</code>") {
                Some(end) => push_code(&mut out, &file, issue.as_mut(), &rest[..end], number),
                None => code = Some((rest.to_string(), number)),
            }
            continue;
        }
        if line.starts_with("</") {
            if let Some((name, at, occurrences, 0)) = issue.take() {
                if !line.starts_with("</file") {
                    for _ in 0..occurrences.min(1000) {
                        out.push(Entry::new(PSALM, &name, &file, vec![at]));
                    }
                }
            }
            continue;
        }
        let Some(rest) = line.strip_prefix('<') else {
            continue;
        };
        if !rest.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let occurrences = attribute(rest, "occurrences")
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        if line.ends_with("/>") {
            for _ in 0..occurrences.min(1000) {
                out.push(Entry::new(PSALM, &name, &file, vec![number]));
            }
        } else {
            issue = Some((name, number, occurrences, 0));
        }
    }
    out
}

fn push_code(
    out: &mut Vec<Entry>,
    file: &str,
    issue: Option<&mut (String, u32, usize, usize)>,
    raw: &str,
    line: u32,
) {
    let Some(issue) = issue else {
        return;
    };
    issue.3 += 1;
    let scope = format!("{file}: {}", decode(raw));
    out.push(Entry::new(PSALM, &issue.0, &scope, vec![line]));
}

/// The value of `name="..."` in a tag's text.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!("{name}=\""))? + name.len() + 2;
    let end = tag[at..].find('"')? + at;
    Some(decode(&tag[at..end]))
}

/// XML text as the analyser saw it: CDATA unwrapped, entities decoded, outer space trimmed.
fn decode(raw: &str) -> String {
    let raw = raw.trim();
    if let Some(inner) = raw
        .strip_prefix("<![CDATA[")
        .and_then(|r| r.strip_suffix("]]>"))
    {
        return inner.to_string();
    }
    raw.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Psalm entries whose file and code stood in the old baseline under another issue that
/// lost them: the analyser renamed or reclassified the issue (an upgrade that reports a
/// call as `UndefinedFunction` instead of `TooManyArguments`), so the old entry takes the
/// new name and the suppression is not new.
pub fn rename_psalm_issues(old: &mut [Entry], new: &[Entry]) {
    rename_entries(old, new, |e| e.what == PSALM, |_, _| true);
}

/// The entries `kept` that left a scope while as many entries of that scope came in under
/// another rule `alike` the old one: each old entry takes a newcomer's rule, so the
/// newcomer is counted as the same suppression renamed, not as one more.
pub fn rename_entries(
    old: &mut [Entry],
    new: &[Entry],
    kept: impl Fn(&Entry) -> bool,
    alike: impl Fn(&str, &str) -> bool,
) {
    use std::collections::HashMap;
    let count = |entries: &[Entry]| {
        let mut out: HashMap<(String, String), usize> = HashMap::new();
        for e in entries.iter().filter(|e| kept(e)) {
            *out.entry((e.rule.clone(), e.scope.clone())).or_default() += 1;
        }
        out
    };
    let (before, now) = (count(old), count(new));
    let mut arrived: Vec<((String, String), usize)> = now
        .iter()
        .filter_map(|(id, &n)| {
            let extra = n.saturating_sub(before.get(id).copied().unwrap_or(0));
            (extra > 0).then(|| (id.clone(), extra))
        })
        .collect();
    arrived.sort();
    let mut left: HashMap<(String, String), usize> = before
        .iter()
        .filter_map(|(id, &n)| {
            let gone = n.saturating_sub(now.get(id).copied().unwrap_or(0));
            (gone > 0).then(|| (id.clone(), gone))
        })
        .collect();
    for e in old.iter_mut() {
        if !kept(e) {
            continue;
        }
        let id = (e.rule.clone(), e.scope.clone());
        let Some(n) = left.get_mut(&id).filter(|n| **n > 0) else {
            continue;
        };
        let Some(slot) = arrived.iter_mut().find(|((rule, scope), extra)| {
            *extra > 0 && *scope == e.scope && *rule != e.rule && alike(&e.rule, rule)
        }) else {
            continue;
        };
        *n -= 1;
        slot.1 -= 1;
        e.rule = slot.0 .0.clone();
    }
}

/// PHPStan `ignoreErrors` entries: one per (message or identifier, path) and per count,
/// reported at the message line when any of the entry's lines was added (a `count` raised
/// is one more issue of that message ignored). A pattern with no path is ignored in every
/// file (scope empty).
pub fn phpstan_entries(text: &str) -> Vec<Entry> {
    let lines = ylines(text);
    let mut out = Vec::new();
    let Some(at) = lines
        .iter()
        .position(|l| l.key.as_deref() == Some("ignoreErrors") && l.value.is_empty())
    else {
        return out;
    };
    let owner = lines[at].indent;
    let body: Vec<&YLine> = lines[at + 1..]
        .iter()
        .take_while(|l| l.indent > owner)
        .collect();
    let Some(item_indent) = body.first().filter(|l| l.item).map(|l| l.indent) else {
        return out;
    };
    let mut items: Vec<Vec<&YLine>> = Vec::new();
    for l in body {
        if l.item && l.indent == item_indent {
            items.push(Vec::new());
        }
        if let Some(item) = items.last_mut() {
            item.push(l);
        }
    }
    let raw: Vec<&str> = text.lines().collect();
    for item in items {
        out.extend(phpstan_item(&item, &raw));
    }
    out
}

/// The message a line of an entry ignores (see [`super::phpstan_messages`]): read from the
/// line as written, so both NEON quotings and both ways of giving a message compare equal.
fn message(l: &YLine, raw: &[&str]) -> String {
    let line = raw.get(l.number as usize - 1).copied().unwrap_or("").trim();
    let line = line.strip_prefix('-').map(str::trim_start).unwrap_or(line);
    let key = l.key.as_deref().unwrap_or("message");
    let written = match &l.key {
        Some(k) => line
            .strip_prefix(k.as_str())
            .and_then(|r| r.trim_start().strip_prefix(':'))
            .unwrap_or(line),
        None => line,
    };
    message_id(key, &neon_string(written, &l.value))
}

fn phpstan_item(item: &[&YLine], raw: &[&str]) -> Vec<Entry> {
    let head = item[0];
    // `- '#pattern#'`: the pattern ignored everywhere.
    if head.key.is_none() && !head.value.is_empty() {
        let rule = message(head, raw);
        return vec![Entry::new(PHPSTAN, &rule, "", vec![head.number]).anchored()];
    }
    let mut rules: Vec<(String, u32)> = Vec::new();
    let mut paths: Vec<(String, u32)> = Vec::new();
    let mut count: (usize, Option<u32>) = (1, None);
    let mut identifier: Option<(String, u32)> = None;
    let mut list: Option<&str> = None;
    for l in item {
        match l.key.as_deref() {
            Some("message" | "rawMessage") => rules.push((message(l, raw), l.number)),
            Some("identifier") => identifier = Some((l.value.clone(), l.number)),
            Some("path") => paths.push((l.value.clone(), l.number)),
            Some("count") => count = (l.value.parse().unwrap_or(1), Some(l.number)),
            Some(k @ ("messages" | "paths")) if l.value.is_empty() => {
                list = Some(k);
                continue;
            }
            None if l.item && !std::ptr::eq(*l, head) => match list {
                Some("messages") => rules.push((message(l, raw), l.number)),
                Some("paths") => paths.push((l.value.clone(), l.number)),
                _ => {}
            },
            _ => {}
        }
        if l.key.is_some() {
            list = None;
        }
    }
    if rules.is_empty() {
        let Some((id, line)) = identifier else {
            return Vec::new();
        };
        rules.push((format!("identifier {id}"), line));
    }
    if paths.is_empty() {
        paths.push((String::new(), 0));
    }
    let mut out = Vec::new();
    for (rule, rule_line) in &rules {
        for (path, path_line) in &paths {
            let mut lines = vec![*rule_line];
            lines.extend(count.1);
            if *path_line > 0 {
                lines.push(*path_line);
            }
            for _ in 0..count.0.clamp(1, 1000) {
                out.push(Entry::new(PHPSTAN, rule, path, lines.clone()).anchored());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(entries: &[Entry]) -> Vec<(String, String, u32)> {
        entries
            .iter()
            .map(|e| (e.rule.clone(), e.scope.clone(), e.lines[0]))
            .collect()
    }

    #[test]
    fn psalm_codes_are_entries_and_cdata_is_the_same_code() {
        let text = "<?xml version=\"1.0\"?>\n<files psalm-version=\"5\">\n  <file src=\"src/A.php\">\n    <InvalidCast occurrences=\"2\">\n      <code>$a-&gt;b</code>\n      <code><![CDATA[$a->b]]></code>\n    </InvalidCast>\n    <MixedReturn occurrences=\"2\"/>\n  </file>\n</files>\n";
        assert_eq!(
            ids(&psalm_entries(text)),
            vec![
                ("InvalidCast".into(), "src/A.php: $a->b".into(), 5),
                ("InvalidCast".into(), "src/A.php: $a->b".into(), 6),
                ("MixedReturn".into(), "src/A.php".into(), 8),
                ("MixedReturn".into(), "src/A.php".into(), 8),
            ]
        );
    }

    #[test]
    fn other_xml_named_baseline_yields_nothing() {
        assert!(psalm_entries("<SmellBaseline>\n<ID>X</ID>\n</SmellBaseline>\n").is_empty());
    }

    #[test]
    fn a_psalm_issue_reclassified_over_the_same_code_takes_the_new_name() {
        let mut old = vec![Entry::new(
            PSALM,
            "TooManyArguments",
            "a.php: f(1)",
            vec![3],
        )];
        let new = vec![
            Entry::new(PSALM, "UndefinedFunction", "a.php: f(1)", vec![3]),
            Entry::new(PSALM, "InvalidCast", "a.php: g()", vec![5]),
        ];
        rename_psalm_issues(&mut old, &new);
        assert_eq!(old[0].rule, "UndefinedFunction");
    }

    #[test]
    fn phpstan_items_give_one_entry_per_count_and_path() {
        // Anchored, fully escaped patterns are named by the one text they match.
        let text = "parameters:\n\tignoreErrors:\n\t\t-\n\t\t\tmessage: \"#^A$#\"\n\t\t\tcount: 2\n\t\t\tpath: src/A.php\n\n\t\t- '#^B$#'\n\t\t-\n\t\t\tidentifier: argument.type\n\t\t\tpaths:\n\t\t\t\t- src/B.php\n\t\t\t\t- src/C.php\n\tlevel: 8\n";
        assert_eq!(
            ids(&phpstan_entries(text)),
            vec![
                ("A".into(), "src/A.php".into(), 4),
                ("A".into(), "src/A.php".into(), 4),
                ("B".into(), "".into(), 8),
                ("identifier argument.type".into(), "src/B.php".into(), 10),
                ("identifier argument.type".into(), "src/C.php".into(), 10),
            ]
        );
    }
}
