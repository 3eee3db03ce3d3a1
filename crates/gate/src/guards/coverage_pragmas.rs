//! Coverage pragmas a Python repository defines for itself. coverage.py leaves out of its
//! report every line matching a regular expression of the `exclude_lines` (or
//! `exclude_also`) setting, and coverage-conditional-plugin adds one `# pragma: NAME` per
//! rule of its `rules` table (`py-win32`, `py-not-linux`) that excludes the line where the
//! rule's condition holds. So `# pragma: full coverage` is a coverage suppression in a
//! repository that lists it, exactly as the built-in `# pragma: no cover` is, and nothing
//! in one that does not.
//!
//! Only comments that open with `pragma` are read against the repository's patterns:
//! patterns that match code (`if TYPE_CHECKING:`, `raise NotImplementedError`) exclude
//! lines nobody marks, and are no suppression a change adds by writing a comment.

use regex::{Regex, RegexBuilder};

/// The configuration files coverage.py reads its settings from, at the repository root.
pub const CONFIG_FILES: &[&str] = &["pyproject.toml", ".coveragerc", "setup.cfg", "tox.ini"];

/// Bounds on what a configuration may make the guard compile: patterns past these are
/// not read (a pattern that does not compile within them is skipped, as an invalid one).
const MAX_PATTERNS: usize = 200;
const MAX_PATTERN_LEN: usize = 1_000;
const MAX_COMPILED_BYTES: usize = 1 << 20;

/// The coverage exclusions a repository configures for comments.
#[derive(Debug, Default)]
pub struct CoveragePragmas {
    /// `exclude_lines` and `exclude_also` patterns that compiled.
    patterns: Vec<Regex>,
    /// coverage-conditional-plugin rule names.
    rules: Vec<String>,
    /// Patterns that did not compile (Python-only syntax, or too large), with the file
    /// that configures each: not read, and noted in the receipt.
    pub invalid: Vec<(String, String)>,
}

/// No repository pragmas: what every file of a change sees when no configuration is read.
pub static NONE: CoveragePragmas = CoveragePragmas {
    patterns: Vec::new(),
    rules: Vec::new(),
    invalid: Vec::new(),
};

impl CoveragePragmas {
    /// The pragmas configured by `files` (`(path, text)` of the root configuration files:
    /// see [`CONFIG_FILES`]); files that do not parse add nothing.
    pub fn read<'t>(files: impl IntoIterator<Item = (&'t str, &'t str)>) -> CoveragePragmas {
        let mut patterns: Vec<(&'t str, String)> = Vec::new();
        let mut rules: Vec<String> = Vec::new();
        for (path, text) in files {
            let (p, r) = match path {
                "pyproject.toml" => from_pyproject(text),
                ".coveragerc" => from_ini(text, ""),
                "setup.cfg" | "tox.ini" => from_ini(text, "coverage:"),
                _ => continue,
            };
            patterns.extend(p.into_iter().map(|p| (path, p)));
            rules.extend(r);
        }
        let mut out = CoveragePragmas::default();
        for (path, p) in patterns.into_iter().take(MAX_PATTERNS) {
            let built = (p.len() <= MAX_PATTERN_LEN)
                .then(|| {
                    RegexBuilder::new(&p)
                        .size_limit(MAX_COMPILED_BYTES)
                        .dfa_size_limit(MAX_COMPILED_BYTES)
                        .build()
                        .ok()
                })
                .flatten();
            match built {
                Some(re) => out.patterns.push(re),
                None => out.invalid.push((path.to_string(), p)),
            }
        }
        rules.retain(|r| !r.is_empty() && !r.contains(char::is_whitespace));
        rules.truncate(MAX_PATTERNS);
        out.rules = rules;
        out
    }

    /// The label of the repository pragma a comment piece (the text after `#`, see
    /// [`super::line::LineCtx::comment_pieces`]) is: `pragma: NAME` for a plugin rule, or
    /// the text an `exclude_lines` pattern matched. `None` for any other comment.
    pub fn find(&self, piece: &str) -> Option<String> {
        let rest = piece.strip_prefix("pragma")?;
        let name = rest.trim_start().strip_prefix(':')?.trim_start();
        let word_end = |s: &str| {
            s.chars()
                .next()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_'))
        };
        if let Some(rule) = self
            .rules
            .iter()
            .find(|r| name.strip_prefix(r.as_str()).is_some_and(word_end))
        {
            return Some(format!("pragma: {rule}"));
        }
        // coverage.py searches the source line; the comment is read as written there.
        let line = format!("# {piece}");
        self.patterns.iter().find_map(|re| {
            let m = re.find(&line)?;
            let text = m.as_str().trim_start_matches(['#', ' ', '\t']).trim_end();
            (!text.is_empty()).then(|| text.to_string())
        })
    }
}

/// `[tool.coverage.report]` `exclude_lines`/`exclude_also`, and the keys of
/// `[tool.coverage.coverage_conditional_plugin.rules]` (or the names of its older string
/// form, `"condition": name` a line).
fn from_pyproject(text: &str) -> (Vec<String>, Vec<String>) {
    let Ok(root) = text.parse::<toml::Table>() else {
        return Default::default();
    };
    let coverage = root
        .get("tool")
        .and_then(|t| t.get("coverage"))
        .and_then(toml::Value::as_table);
    let Some(coverage) = coverage else {
        return Default::default();
    };
    let mut patterns = Vec::new();
    if let Some(report) = coverage.get("report").and_then(toml::Value::as_table) {
        for key in ["exclude_lines", "exclude_also"] {
            match report.get(key) {
                Some(toml::Value::Array(a)) => {
                    patterns.extend(a.iter().filter_map(|v| v.as_str().map(String::from)))
                }
                Some(toml::Value::String(s)) => patterns.push(s.clone()),
                _ => {}
            }
        }
    }
    let rules = match coverage
        .get("coverage_conditional_plugin")
        .and_then(|p| p.get("rules"))
    {
        Some(toml::Value::Table(t)) => t.keys().cloned().collect(),
        Some(toml::Value::String(s)) => rule_names(s),
        _ => Vec::new(),
    };
    (patterns, rules)
}

/// The same settings in INI form: `[report]` (`[coverage:report]` in `setup.cfg` and
/// `tox.ini`) and `[coverage_conditional_plugin]` `rules`, one value a line.
fn from_ini(text: &str, prefix: &str) -> (Vec<String>, Vec<String>) {
    let report = format!("{prefix}report");
    let plugin = format!("{prefix}coverage_conditional_plugin");
    let (mut patterns, mut rules) = (Vec::new(), Vec::new());
    for (section, key, value) in ini_values(text) {
        if section == report && (key == "exclude_lines" || key == "exclude_also") {
            patterns.extend(
                value
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(String::from),
            );
        } else if section == plugin && key == "rules" {
            rules.extend(rule_names(&value));
        }
    }
    (patterns, rules)
}

/// The names of the plugin's string form of rules: `"sys_platform == 'win32'": py-win32`.
fn rule_names(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.rsplit_once(':'))
        .map(|(_, name)| name.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect()
}

/// Every `key = value` of an INI file with its section, a value continued on the indented
/// lines under it (as configparser reads it); comment lines (`#`, `;`) skipped.
fn ini_values(text: &str) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = Vec::new();
    let mut section = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let continued = line.starts_with([' ', '\t']);
        if let (true, Some(last)) = (continued, out.last_mut()) {
            if last.0 == section {
                last.2.push('\n');
                last.2.push_str(trimmed);
                continue;
            }
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            section = name.trim().to_string();
            continue;
        }
        let split = trimmed
            .find(['=', ':'])
            .map(|i| (&trimmed[..i], &trimmed[i + 1..]));
        if let Some((key, value)) = split {
            out.push((
                section.clone(),
                key.trim().to_string(),
                value.trim().to_string(),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const PYPROJECT: &str = "[tool.coverage.report]\nexclude_lines = [\n    \"pragma: no cover\",\n    \"pragma: full coverage\",\n    \"if TYPE_CHECKING:\",\n    \"(?<!x)lookbehind\",\n]\n\n[tool.coverage.coverage_conditional_plugin.rules]\npy-win32 = \"sys_platform == 'win32'\"\npy-not-win32 = \"sys_platform != 'win32'\"\n";

    #[test]
    fn reads_patterns_and_plugin_rules_and_skips_invalid_patterns() {
        let p = CoveragePragmas::read([("pyproject.toml", PYPROJECT)]);
        assert_eq!(
            p.find("pragma: full coverage").as_deref(),
            Some("pragma: full coverage")
        );
        assert_eq!(
            p.find("pragma: py-win32").as_deref(),
            Some("pragma: py-win32")
        );
        assert_eq!(
            p.find("pragma: py-not-win32").as_deref(),
            Some("pragma: py-not-win32")
        );
        assert_eq!(p.find("pragma: py-win32-arm"), None);
        assert_eq!(p.find("pragma: py-darwin"), None);
        assert_eq!(p.find("if TYPE_CHECKING:"), None);
        assert_eq!(
            p.invalid,
            [("pyproject.toml".to_string(), "(?<!x)lookbehind".to_string())]
        );
    }

    #[test]
    fn reads_ini_forms() {
        let cfg = "[coverage:report]\nexclude_lines =\n    pragma: no cover\n    pragma: ci only\n[coverage:coverage_conditional_plugin]\nrules =\n    \"sys_platform == 'win32'\": py-win32\n";
        let p = CoveragePragmas::read([("setup.cfg", cfg)]);
        assert_eq!(
            p.find("pragma: ci only").as_deref(),
            Some("pragma: ci only")
        );
        assert_eq!(
            p.find("pragma: py-win32").as_deref(),
            Some("pragma: py-win32")
        );
        let rc = "[report]\nexclude_also =\n    pragma: slow\n";
        let p = CoveragePragmas::read([(".coveragerc", rc)]);
        assert_eq!(p.find("pragma: slow").as_deref(), Some("pragma: slow"));
        assert_eq!(
            CoveragePragmas::read([("tox.ini", rc)]).find("pragma: slow"),
            None
        );
    }
}
