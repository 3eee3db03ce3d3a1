//! Checks a Gradle build script switches off, besides ktlint's rules (see
//! [`super::config_ktlint`]): animal-sniffer's `ignore(..)` (classes the API signature
//! check is told to accept, as `<ignore>` does in `pom.xml`) and javac lint categories
//! turned off with `-Xlint:-name`. Read line by line; comment lines are not read.

use super::config_lint::Entry;

/// animal-sniffer's setting, named as in `pom.xml` so one moved between the two is moved.
const SNIFFER: &str = "animal-sniffer ignore";
const JAVAC: &str = "javac -Xlint off";

fn is_comment(line: &str) -> bool {
    line.starts_with("//") || line.starts_with("/*") || line.starts_with('*')
}

/// The quoted strings of `text`, `'..'` or `".."`.
fn quoted(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['\'', '"']) {
        let quote = if rest[at..].starts_with('\'') {
            '\''
        } else {
            '"'
        };
        let inside = &rest[at + 1..];
        let Some(end) = inside.find(quote) else {
            break;
        };
        out.push(&inside[..end]);
        rest = &inside[end + 1..];
    }
    out
}

/// The classes an animal-sniffer block tells the check to ignore: inside a block whose
/// opening line names animal-sniffer (`animalsniffer {`, `configure<AnimalSnifferExtension>
/// {`), each quoted name given to `ignore` (`ignore("a.B", ..)` over one or more lines,
/// Groovy's `ignore 'a.B', ..`, `ignore = [..]`). Kotlin's `\$` is `$`.
pub fn animal_sniffer_ignores(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    // The brace depth at which the animal-sniffer block opened, while inside it.
    let mut block: Option<i64> = None;
    let mut depth = 0i64;
    // Inside an `ignore` list that goes on over lines: its bracket depth.
    let mut listing: Option<i64> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if is_comment(line) {
            continue;
        }
        let code = line.split(" //").next().unwrap_or(line);
        let opens_block = block.is_none()
            && code.to_ascii_lowercase().contains("animalsniffer")
            && code.trim_end().ends_with('{');
        let mut from = None;
        if block.is_some() && listing.is_none() {
            from = ignore_call(code);
        }
        if let Some(at) = from.or(listing.map(|_| 0)) {
            let part = &code[at..];
            for name in quoted(part) {
                let name = name.replace("\\$", "$");
                if !name.is_empty() {
                    out.push(Entry::new(SNIFFER, &name, "", vec![i as u32 + 1]));
                }
            }
            let mut open = listing.unwrap_or(0);
            for c in part.chars() {
                match c {
                    '(' | '[' => open += 1,
                    ')' | ']' => open -= 1,
                    _ => {}
                }
            }
            let goes_on = open > 0 || (open == 0 && part.trim_end().ends_with(','));
            listing = goes_on.then_some(open);
        }
        for c in code.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
        if opens_block {
            block = Some(depth - 1);
        } else if block.is_some_and(|d| depth <= d) {
            block = None;
            listing = None;
        }
    }
    out
}

/// Where `ignore` is given its arguments on this line (`ignore(`, `ignore '`, `ignore =`,
/// `ignore +=`), as the offset after the word; `None` when the line does not set it.
fn ignore_call(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = code[from..].find("ignore") {
        let start = from + at;
        let end = start + "ignore".len();
        from = end;
        let before = code[..start].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        let after = code[end..].trim_start();
        if after.starts_with(['(', '\'', '"', '=', '+']) {
            return Some(end);
        }
    }
    None
}

/// javac lint categories a quoted compiler argument turns off: `-Xlint:-options`,
/// `-Xlint:all,-serial` (each `-` item; the categories turned on are not suppressions).
pub fn javac_lints_off(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if is_comment(line) {
            continue;
        }
        for arg in quoted(line) {
            let Some(list) = arg.trim().strip_prefix("-Xlint:") else {
                continue;
            };
            for item in list.split(',') {
                if let Some(name) = item.trim().strip_prefix('-').filter(|n| !n.is_empty()) {
                    out.push(Entry::new(JAVAC, name, "", vec![i as u32 + 1]));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(entries: &[Entry]) -> Vec<(String, u32)> {
        entries
            .iter()
            .map(|e| (e.rule.clone(), e.lines[0]))
            .collect()
    }

    #[test]
    fn animal_sniffer_ignores_inside_its_block_only() {
        let text = "configure<AnimalSnifferExtension> {\n  annotation = \"a.Suppress\"\n  ignore(\n    \"java.lang.Boolean\",\n    \"a.B\\$C\",\n  )\n}\nother {\n  ignore(\"x.Y\")\n}\nanimalsniffer {\n  ignore 'p.Q', 'r.S'\n  // ignore 'no.No'\n}\n";
        assert_eq!(
            rules(&animal_sniffer_ignores(text)),
            vec![
                ("java.lang.Boolean".into(), 4),
                ("a.B$C".into(), 5),
                ("p.Q".into(), 12),
                ("r.S".into(), 12),
            ]
        );
    }

    #[test]
    fn javac_lint_categories_turned_off() {
        let text = "options.compilerArgs.add(\"-Xlint:-requires-transitive-automatic\")\noptions.compilerArgs += ['-Xlint:all,-serial', '-Xlint:deprecation']\n// \"-Xlint:-options\"\n";
        assert_eq!(
            rules(&javac_lints_off(text)),
            vec![
                ("requires-transitive-automatic".into(), 1),
                ("serial".into(), 2)
            ]
        );
    }
}
