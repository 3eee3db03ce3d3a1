//! Suppressions in configuration read line by line, where a line holds one setting by
//! convention: animal-sniffer `<ignore>` entries in `pom.xml`, ESLint rules turned off in
//! its configuration files. Neither reading can fail: a line it does not recognise is no
//! entry.

use super::config_lint::Entry;

/// ESLint configuration files, legacy (`.eslintrc*`) and flat (`eslint.config.*`).
pub fn is_eslint_config(name: &str) -> bool {
    let legacy = [
        ".eslintrc",
        ".eslintrc.json",
        ".eslintrc.js",
        ".eslintrc.cjs",
        ".eslintrc.yml",
        ".eslintrc.yaml",
    ];
    legacy.contains(&name)
        || name
            .strip_prefix("eslint.config.")
            .is_some_and(|ext| ["js", "mjs", "cjs", "ts", "mts", "cts"].contains(&ext))
}

/// `<ignore>` entries of the animal-sniffer plugin: each tells the API signature check to
/// accept a class or package the target platform does not have. Only inside a `<plugin>`
/// block that names animal-sniffer (other plugins have `<ignore>` elements of their own),
/// and never inside an XML comment.
pub fn animal_sniffer_ignores(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut pending = Vec::new();
    let mut sniffer = false;
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if in_comment {
            in_comment = !line.contains("-->");
            continue;
        }
        if line.starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        if line.starts_with("<plugin>") {
            pending.clear();
            sniffer = false;
        }
        if line.contains("animal-sniffer") {
            sniffer = true;
        }
        if let Some(value) = line
            .strip_prefix("<ignore>")
            .and_then(|r| r.split_once("</ignore>"))
            .map(|(v, _)| v.trim())
            .filter(|v| !v.is_empty())
        {
            pending.push(Entry::new(
                "animal-sniffer ignore",
                value,
                "",
                vec![i as u32 + 1],
            ));
        }
        if line.starts_with("</plugin>") {
            if sniffer {
                out.append(&mut pending);
            }
            pending.clear();
            sniffer = false;
        }
    }
    out
}

/// Rules an ESLint configuration turns off, one setting per line: `"no-console": "off"`,
/// `'no-undef': 0`, `"@x/rule": ["off", {..}]`, `no-console: off` (YAML). A rule name is
/// lower case with a `-` or `/` (or the value is the word `off`), so option keys such as
/// `SwitchCase: 0` or `max: 0` are not taken for rules.
pub fn eslint_rules_off(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with("//") || line.starts_with('#') || line.starts_with('*') {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let rule = key.trim().trim_matches(['"', '\'']);
        let rule_like = !rule.is_empty()
            && rule
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-/@".contains(c));
        if !rule_like {
            continue;
        }
        let value = value.trim();
        let first = value
            .strip_prefix('[')
            .unwrap_or(value)
            .trim_start()
            .split([',', ']', '}', ' '])
            .next()
            .unwrap_or("");
        let named_off = matches!(first, "\"off\"" | "'off'" | "off");
        let zero = first == "0" && (rule.contains('-') || rule.contains('/'));
        if named_off || zero {
            out.push(Entry::new("eslint off", rule, "", vec![i as u32 + 1]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(entries: &[Entry]) -> Vec<(&str, u32)> {
        entries
            .iter()
            .map(|e| (e.rule.as_str(), e.lines[0]))
            .collect()
    }

    #[test]
    fn eslint_off_shapes() {
        let text = "rules: {\n  'no-undef': 0,\n  \"eqeqeq\": \"off\",\n  '@ts/x': ['off', {a: 1}],\n  'no-console': 'warn',\n  SwitchCase: 0,\n  max: 0,\n  // 'no-var': 'off',\n}";
        assert_eq!(
            ids(&eslint_rules_off(text)),
            vec![("no-undef", 2), ("eqeqeq", 3), ("@ts/x", 4)]
        );
    }

    #[test]
    fn animal_sniffer_only_in_its_plugin_and_not_in_comments() {
        let text = "<plugin>\n<artifactId>animal-sniffer-maven-plugin</artifactId>\n<ignores>\n<ignore>java.net.http.*</ignore>\n<!-- <ignore>a.B</ignore> -->\n</ignores>\n</plugin>\n<plugin>\n<artifactId>other</artifactId>\n<ignore>x.Y</ignore>\n</plugin>\n";
        assert_eq!(
            ids(&animal_sniffer_ignores(text)),
            vec![("java.net.http.*", 4)]
        );
    }
}
