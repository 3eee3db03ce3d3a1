//! Suppressions written in configuration files rather than code: a rule ignored in
//! `pyproject.toml`, a module excluded from mypy, a Cargo lint set to `allow`, an
//! animal-sniffer `<ignore>`, an ESLint rule turned `"off"`. Each file is read into
//! entries, each with an id that says what it silences (`ruff ignore E501 in tests/*`),
//! independent of where it sits; an entry is new when the file now holds more of its id
//! than before and one of its lines was added. So a re-sorted list, a table moved, a key
//! moved between equivalent tables (`[tool.ruff]` to `[tool.ruff.lint]`) or to another
//! file of the same change is not new; a rule added to an existing list is (widened); a
//! rule removed or raised back is not. A file that does not parse yields nothing: neither
//! its new text (no guess at what the tool would read) nor, when its old text does not
//! parse, anything at all (every entry would look new).

use super::config_text;
use super::config_toml::{self, TomlKind};
use super::scan::snippet;
use super::{DeltaKind, FileDelta, Finding};
use std::collections::{BTreeSet, HashMap};

/// One suppression a configuration file declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// What it silences, and where (tool, rule, scope): the same in any position.
    pub id: String,
    /// The lines it spans, in the order to report them: the setting first, then its scope.
    pub lines: Vec<u32>,
}

/// Byte offset to 1-based line number.
pub struct LineIndex<'t> {
    starts: Vec<usize>,
    text: &'t str,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str) -> LineIndex<'t> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { starts, text }
    }

    pub fn line_of(&self, offset: usize) -> u32 {
        self.starts.partition_point(|&s| s <= offset.min(self.text.len())) as u32
    }
}

/// How a configuration file is read, from its name; `None` for every other file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ConfigKind {
    Toml(TomlKind),
    Pom,
    Eslint,
}

fn kind_of(path: &str) -> Option<ConfigKind> {
    let name = path.rsplit('/').next().unwrap_or(path);
    Some(match name {
        "pyproject.toml" => ConfigKind::Toml(TomlKind::Pyproject),
        "ruff.toml" | ".ruff.toml" => ConfigKind::Toml(TomlKind::Ruff),
        "ty.toml" => ConfigKind::Toml(TomlKind::Ty),
        "Cargo.toml" => ConfigKind::Toml(TomlKind::Cargo),
        "pom.xml" => ConfigKind::Pom,
        _ if config_text::is_eslint_config(name) => ConfigKind::Eslint,
        _ => return None,
    })
}

fn entries(kind: ConfigKind, text: &str) -> Option<Vec<Entry>> {
    match kind {
        ConfigKind::Toml(k) => config_toml::entries(k, text),
        ConfigKind::Pom => Some(config_text::animal_sniffer_ignores(text)),
        ConfigKind::Eslint => Some(config_text::eslint_rules_off(text)),
    }
}

/// A file's entries now and at the comparison point. `None` now: gone, not read, or
/// unreadable (nothing to report).
struct Read {
    new: Option<Vec<Entry>>,
    old: Vec<Entry>,
}

fn read(d: &FileDelta) -> Option<Read> {
    let old_path = match &d.kind {
        DeltaKind::Renamed { from } => from.as_str(),
        DeltaKind::Added => "",
        _ => d.path.as_str(),
    };
    let old_kind = kind_of(old_path);
    let new_kind = kind_of(&d.path).filter(|_| !matches!(d.kind, DeltaKind::Deleted));
    if old_kind.is_none() && new_kind.is_none() {
        return None;
    }
    let old = match (old_kind, &d.old_text) {
        (Some(k), Some(text)) => entries(k, text)?,
        _ => Vec::new(),
    };
    let new = new_kind.zip(d.new_text.as_deref()).and_then(|(k, t)| entries(k, t));
    Some(Read { new, old })
}

fn counts(entries: &[Entry]) -> HashMap<&str, usize> {
    let mut out = HashMap::new();
    for e in entries {
        *out.entry(e.id.as_str()).or_insert(0) += 1;
    }
    out
}

/// The new configuration suppressions of a change, as `disabled_lint` findings.
pub fn findings(deltas: &[&FileDelta]) -> Vec<Finding> {
    let reads: Vec<(&FileDelta, Read)> = deltas
        .iter()
        .filter_map(|d| Some((*d, read(d)?)))
        .collect();
    // What left some file of the change: an entry that reappears elsewhere moved.
    let mut gone: HashMap<String, usize> = HashMap::new();
    for (_, r) in &reads {
        let now = r.new.as_deref().map(counts).unwrap_or_default();
        for (id, n) in counts(&r.old) {
            let left = n.saturating_sub(now.get(id).copied().unwrap_or(0));
            if left > 0 {
                *gone.entry(id.to_string()).or_insert(0) += left;
            }
        }
    }
    let mut out = Vec::new();
    for (d, r) in &reads {
        let Some(new) = &r.new else { continue };
        let added: BTreeSet<u32> = d.added_lines.iter().map(|l| l.number).collect();
        let before = counts(&r.old);
        let mut surplus: HashMap<&str, usize> = HashMap::new();
        for (id, n) in counts(new) {
            let mut extra = n.saturating_sub(before.get(id).copied().unwrap_or(0));
            if let Some(moved) = gone.get_mut(id) {
                let taken = extra.min(*moved);
                *moved -= taken;
                extra -= taken;
            }
            if extra > 0 {
                surplus.insert(id, extra);
            }
        }
        let mut reported = BTreeSet::new();
        for e in new {
            let Some(left) = surplus.get_mut(e.id.as_str()).filter(|n| **n > 0) else {
                continue;
            };
            let Some(&line) = e.lines.iter().find(|l| added.contains(l)) else {
                continue;
            };
            *left -= 1;
            if !reported.insert(line) {
                continue;
            }
            let text = d
                .new_text
                .as_deref()
                .and_then(|t| t.lines().nth(line as usize - 1))
                .unwrap_or("");
            out.push(Finding {
                path: d.path.clone(),
                line: Some(line),
                snippet: snippet(text),
                message: format!(
                    "a lint or type-check suppression was added in configuration (`{}`): fix the reported problem instead of silencing it",
                    e.id
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::Line;

    fn delta(path: &str, old: Option<&str>, new: &str) -> FileDelta {
        let old_lines: Vec<&str> = old.map(|o| o.lines().collect()).unwrap_or_default();
        let added_lines = new
            .lines()
            .enumerate()
            .filter(|(_, l)| !old_lines.contains(l))
            .map(|(i, l)| Line {
                number: i as u32 + 1,
                text: l.into(),
            })
            .collect();
        FileDelta {
            path: path.into(),
            kind: if old.is_some() {
                DeltaKind::Modified
            } else {
                DeltaKind::Added
            },
            added_lines,
            removed_lines: Vec::new(),
            old_text: old.map(Into::into),
            old_counts: None,
            new_text: Some(new.into()),
        }
    }

    fn lines_found(path: &str, old: Option<&str>, new: &str) -> Vec<u32> {
        let d = delta(path, old, new);
        findings(&[&d]).iter().filter_map(|f| f.line).collect()
    }

    #[test]
    fn line_index_is_one_based() {
        let idx = LineIndex::new("a\nb\n\nc");
        assert_eq!(idx.line_of(0), 1);
        assert_eq!(idx.line_of(2), 2);
        assert_eq!(idx.line_of(4), 3);
        assert_eq!(idx.line_of(5), 4);
        assert_eq!(idx.line_of(99), 4);
    }

    #[test]
    fn ruff_ignore_widened_fires_on_the_new_code_only() {
        let old = "[tool.ruff.lint]\nignore = [\n  \"E501\",\n]\n";
        let new = "[tool.ruff.lint]\nignore = [\n  \"E501\",\n  \"F401\",\n]\n";
        assert_eq!(lines_found("pyproject.toml", Some(old), new), vec![4]);
    }

    #[test]
    fn ruff_ignore_moved_to_lint_table_is_not_new() {
        let old = "[tool.ruff]\nextend-ignore = [\"E501\"]\n";
        let new = "[tool.ruff.lint]\nignore = [\"E501\"]\n";
        assert!(lines_found("pyproject.toml", Some(old), new).is_empty());
    }

    #[test]
    fn malformed_toml_yields_nothing() {
        let new = "[tool.ruff\nignore = [\"E501\"\n";
        assert!(lines_found("pyproject.toml", None, new).is_empty());
        let old = "[tool.ruff = \n";
        let new = "[tool.ruff]\nignore = [\"E501\"]\n";
        assert!(lines_found("ruff.toml", Some(old), new).is_empty());
    }

    #[test]
    fn moved_to_another_file_of_the_change_is_not_new() {
        let a = delta("ruff.toml", Some("ignore = [\"E501\"]\n"), "line-length = 99\n");
        let b = delta(
            "pyproject.toml",
            Some("[project]\nname = \"x\"\n"),
            "[project]\nname = \"x\"\n[tool.ruff]\nignore = [\"E501\"]\n",
        );
        assert!(findings(&[&a, &b]).is_empty());
    }

    #[test]
    fn mypy_override_module_added_fires_at_the_module() {
        let old = "[[tool.mypy.overrides]]\nmodule = [\n  \"a\",\n]\nignore_errors = true\n";
        let new =
            "[[tool.mypy.overrides]]\nmodule = [\n  \"a\",\n  \"b\",\n]\nignore_errors = true\n";
        assert_eq!(lines_found("pyproject.toml", Some(old), new), vec![4]);
    }

    #[test]
    fn cargo_allow_fires_warn_does_not() {
        let old = "[lints.clippy]\nneedless_return = \"warn\"\n";
        let new = "[lints.clippy]\nneedless_return = \"allow\"\nlet_unit_value = { level = \"warn\", priority = 1 }\n";
        assert_eq!(lines_found("Cargo.toml", Some(old), new), vec![2]);
    }
}
