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

/// A SpotBugs (FindBugs) filter file that may exclude findings: an XML file with `exclude`
/// in its name (`spotbugs-exclude.xml`, `findbugs-exclude-filter.xml`); its root is
/// checked by [`spotbugs_exclusions`]. An include filter, which limits what is analysed
/// rather than silencing findings, has no `exclude` in its name.
pub fn is_spotbugs_filter(name: &str) -> bool {
    name.ends_with(".xml") && name.to_ascii_lowercase().contains("exclude")
}

/// A `<Match>` being read: its line, its scope's parts, its bugs (value, line).
type OpenMatch = (u32, Vec<String>, Vec<(String, u32)>);

/// The `<Match>` elements of a SpotBugs exclude filter (root `<FindBugsFilter>`), one
/// entry per bug pattern, code or category each `<Bug>` names, scoped by the classes,
/// methods, fields, packages and sources the match names, at the `<Bug>` line (the
/// `<Match>` line when it names no bug: every finding there). XML comments are not read.
pub fn spotbugs_exclusions(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    if !text.contains("<FindBugsFilter") {
        return out;
    }
    let mut in_comment = false;
    let mut open: Option<OpenMatch> = None;
    for (i, raw) in text.lines().enumerate() {
        let number = i as u32 + 1;
        let line = without_xml_comments(raw, &mut in_comment);
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with("<Match") && !line.starts_with("<Match/") && open.is_none() {
            open = Some((number, Vec::new(), Vec::new()));
        }
        if let Some((_, scope, bugs)) = open.as_mut() {
            for tag in ["Class", "Method", "Field", "Package", "Source", "Local"] {
                if let Some(name) = element_attr(line, tag, "name") {
                    scope.push(format!("{tag}={name}"));
                }
            }
            for attr in ["pattern", "code", "category"] {
                if let Some(values) = element_attr(line, "Bug", attr) {
                    bugs.extend(
                        values
                            .split(',')
                            .map(str::trim)
                            .filter(|v| !v.is_empty())
                            .map(|v| (v.to_string(), number)),
                    );
                }
            }
        }
        if line.contains("</Match>") {
            if let Some((at, mut scope, bugs)) = open.take() {
                scope.sort();
                let scope = scope.join(" ");
                if bugs.is_empty() {
                    out.push(Entry::new("spotbugs exclude", "", &scope, vec![at]));
                }
                for (bug, line) in bugs {
                    out.push(Entry::new("spotbugs exclude", &bug, &scope, vec![line]));
                }
            }
        }
    }
    out
}

/// `line` with its XML comments blanked; `in_comment` carries a comment across lines.
fn without_xml_comments(line: &str, in_comment: &mut bool) -> String {
    let mut out = String::new();
    let mut rest = line;
    loop {
        if *in_comment {
            match rest.find("-->") {
                Some(end) => {
                    rest = &rest[end + 3..];
                    *in_comment = false;
                }
                None => return out,
            }
        }
        match rest.find("<!--") {
            Some(start) => {
                out.push_str(&rest[..start]);
                rest = &rest[start + 4..];
                *in_comment = true;
            }
            None => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The value of attribute `attr` of the element `<tag ..>` on the line.
fn element_attr<'l>(line: &'l str, tag: &str, attr: &str) -> Option<&'l str> {
    let open = format!("<{tag}");
    let at = line.find(&open)?;
    let rest = &line[at + open.len()..];
    if !rest.starts_with([' ', '\t', '/', '>']) {
        return None;
    }
    let rest = &rest[..rest.find('>').unwrap_or(rest.len())];
    let key = format!("{attr}=");
    let mut from = 0;
    while let Some(k) = rest[from..].find(&key) {
        let start = from + k;
        let before = rest[..start].chars().last();
        let value = &rest[start + key.len()..];
        if before.is_some_and(char::is_whitespace) {
            let q = value.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let value = &value[1..];
            return value.find(q).map(|end| &value[..end]);
        }
        from = start + key.len();
    }
    None
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

/// INI-style files flake8 and mypy read their settings from.
pub fn is_ini_config(name: &str) -> bool {
    ["setup.cfg", "tox.ini", ".flake8", "mypy.ini", ".mypy.ini"].contains(&name)
}

/// The suppressions of an INI-style file, under the ids of their `pyproject.toml`
/// counterparts: flake8 `ignore`/`extend-ignore` codes as ruff `ignore` (ruff implements
/// flake8 and its plugins under the same codes, so the same code is the same rule),
/// `per-file-ignores` as ruff's per-file ignores of the same glob, and `[mypy]` /
/// `[mypy-module]` `ignore_errors`, `ignore_missing_imports` and `disable_error_code` as
/// the same settings of `[tool.mypy]` and its overrides. They are read only for what a
/// change removed (a move into `pyproject.toml` is a move), never reported themselves: a
/// file alone does not tell a first configuration from a suppression.
pub fn ini_suppressions(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut section = String::new();
    // The setting being read: (key, first line, value lines).
    let mut current: Option<(String, u32, Vec<String>)> = None;
    let flush = |section: &str, cur: Option<(String, u32, Vec<String>)>, out: &mut Vec<Entry>| {
        if let Some((key, line, values)) = cur {
            ini_setting(section, &key, line, &values, out);
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let number = i as u32 + 1;
        let trimmed = raw.trim();
        if trimmed.starts_with(['#', ';']) {
            continue;
        }
        let continued = raw.starts_with([' ', '\t']) && !trimmed.is_empty();
        if continued {
            if let Some((_, _, values)) = current.as_mut() {
                values.push(trimmed.to_string());
            }
            continue;
        }
        flush(&section, current.take(), &mut out);
        if let Some(name) = trimmed.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            section = name.trim().to_string();
            continue;
        }
        let Some(at) = trimmed.find(['=', ':']) else {
            continue;
        };
        let key = trimmed[..at].trim().replace('_', "-");
        let value = trimmed[at + 1..].trim().to_string();
        current = Some((key, number, vec![value]));
    }
    flush(&section, current.take(), &mut out);
    out
}

/// Whether an INI file has a `[mypy]` section: mypy was set up, so a per-module section
/// added later (`[mypy-pkg.*]` with `ignore_missing_imports = True`) silences it for a
/// module it checked, not a first configuration.
pub fn ini_configures_mypy(text: &str) -> bool {
    text.lines().any(|l| {
        l.trim()
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|name| name.trim() == "mypy")
    })
}

fn ini_setting(section: &str, key: &str, line: u32, values: &[String], out: &mut Vec<Entry>) {
    // An inline comment ends a value line.
    let values: Vec<&str> = values
        .iter()
        .map(|v| {
            v.split(" #")
                .next()
                .unwrap_or("")
                .split(" ;")
                .next()
                .unwrap_or("")
        })
        .collect();
    let codes = |text: &str| -> Vec<String> {
        text.split([',', ' ', '\t'])
            .map(str::trim)
            .filter(|c| !c.is_empty() && c.chars().all(|ch| ch.is_ascii_alphanumeric()))
            .map(str::to_string)
            .collect()
    };
    if section == "flake8" {
        match key {
            "ignore" | "extend-ignore" => {
                for code in values.iter().flat_map(|v| codes(v)) {
                    out.push(Entry::new("ruff ignore", &code, "", vec![line]));
                }
            }
            "per-file-ignores" | "extend-per-file-ignores" => {
                for v in &values {
                    let Some((globs, list)) = v.split_once(':') else {
                        continue;
                    };
                    for glob in globs.split([',', ' ']).filter(|g| !g.is_empty()) {
                        for code in codes(list) {
                            out.push(Entry::new("ruff ignore", &code, glob, vec![line]));
                        }
                    }
                }
            }
            _ => {}
        }
        return;
    }
    let scopes: Vec<&str> = if section == "mypy" {
        vec![""]
    } else if let Some(modules) = section.strip_prefix("mypy-") {
        modules.split(',').map(str::trim).collect()
    } else {
        return;
    };
    let value = values.join(" ");
    match key {
        "ignore-errors" | "ignore-missing-imports" => {
            let on =
                ["true", "yes", "on", "1"].contains(&value.trim().to_ascii_lowercase().as_str());
            if on {
                let what = format!("mypy {}", key.replace('-', "_"));
                for scope in &scopes {
                    out.push(Entry::new(&what, "", scope, vec![line]));
                }
            }
        }
        "disable-error-code" => {
            for code in value.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                for scope in &scopes {
                    out.push(Entry::new(
                        "mypy disable_error_code",
                        code,
                        scope,
                        vec![line],
                    ));
                }
            }
        }
        _ => {}
    }
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
    fn ini_suppressions_take_their_pyproject_ids() {
        let text = "[metadata]\nignore = X1\n\n[flake8]\nmax-line-length = 90\nextend-ignore = E203, E501\nper-file-ignores =\n    tests/*: E721,F401  # tests\n\n[mypy]\nignore_missing_imports = true\n\n[mypy-a.*,b]\nignore_errors = True\ndisable_error_code = attr-defined\n";
        let got: Vec<(String, String, String)> = ini_suppressions(text)
            .into_iter()
            .map(|e| (e.what, e.rule, e.scope))
            .collect();
        let want: Vec<(String, String, String)> = [
            ("ruff ignore", "E203", ""),
            ("ruff ignore", "E501", ""),
            ("ruff ignore", "E721", "tests/*"),
            ("ruff ignore", "F401", "tests/*"),
            ("mypy ignore_missing_imports", "", ""),
            ("mypy ignore_errors", "", "a.*"),
            ("mypy ignore_errors", "", "b"),
            ("mypy disable_error_code", "attr-defined", "a.*"),
            ("mypy disable_error_code", "attr-defined", "b"),
        ]
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn spotbugs_matches_one_entry_per_bug() {
        let text = "<FindBugsFilter>\n  <!-- <Match><Bug pattern=\"X\"/></Match> -->\n  <Match>\n    <!-- False positive -->\n    <Class name=\"a.B\" />\n    <Method name=\"read\" />\n    <Bug pattern=\"NCR_X, AT_Y\" />\n  </Match>\n  <Match>\n    <Class name=\"a.C\"/>\n  </Match>\n</FindBugsFilter>\n";
        let got: Vec<(String, String, u32)> = spotbugs_exclusions(text)
            .into_iter()
            .map(|e| (e.rule, e.scope, e.lines[0]))
            .collect();
        let scope = "Class=a.B Method=read".to_string();
        assert_eq!(
            got,
            vec![
                ("NCR_X".to_string(), scope.clone(), 7),
                ("AT_Y".to_string(), scope, 7),
                (String::new(), "Class=a.C".to_string(), 9),
            ]
        );
        assert!(
            spotbugs_exclusions("<project><Match><Bug pattern=\"X\"/></Match></project>")
                .is_empty()
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
