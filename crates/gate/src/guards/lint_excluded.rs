//! Files a repository keeps out of its own linting. An inline suppression in such a file
//! silences nothing: no linter the project runs reads the line. The usual case is test data
//! that holds the comments as the thing under test (a formatter's input and expected
//! output, `x = 1  # type: ignore`, checked for where the comment lands), never type-checked
//! or linted.
//!
//! Two settings say so:
//! - pre-commit's top-level `exclude` regex in `.pre-commit-config.yaml`: no hook sees a
//!   path it matches (`exclude: ^(profiling/|tests/data/)`), and the hooks are where the
//!   project runs its linters;
//! - a mypy section that turns errors off for a module pattern (`[[tool.mypy.overrides]]`
//!   with `ignore_errors = true` in `pyproject.toml`, `[mypy-tests.data.*]` in `mypy.ini`
//!   or `setup.cfg`): a `# type: ignore` there has nothing left to ignore.
//!
//! A file counts only when the setting held both before the change and after it: an
//! exclusion the change adds is the suppression then (and one it removes brings the file
//! back under the linters, so what the change writes there is read again).

use regex::{Regex, RegexBuilder};

/// The configuration files read, at the repository root.
pub const CONFIG_FILES: &[&str] = &[
    ".pre-commit-config.yaml",
    "pyproject.toml",
    "mypy.ini",
    ".mypy.ini",
    "setup.cfg",
];

/// A repository's exclusions as one configuration state states them.
#[derive(Debug, Default)]
pub struct Excluded {
    /// pre-commit's top-level `exclude`, when it compiled.
    hooks: Option<Regex>,
    /// mypy module patterns whose errors are ignored (`tests.data.*`).
    mypy: Vec<String>,
}

impl Excluded {
    /// Read from `(path, text)` of the root configuration files (see [`CONFIG_FILES`]).
    pub fn read<'t>(files: impl IntoIterator<Item = (&'t str, &'t str)>) -> Excluded {
        let mut out = Excluded::default();
        for (path, text) in files {
            match path {
                ".pre-commit-config.yaml" => out.hooks = precommit_exclude(text),
                "pyproject.toml" => out.mypy.extend(mypy_from_pyproject(text)),
                "mypy.ini" | ".mypy.ini" | "setup.cfg" => out.mypy.extend(mypy_from_ini(text)),
                _ => {}
            }
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.hooks.is_none() && self.mypy.is_empty()
    }

    /// Whether an inline suppression `line` in `path` is read by none of the project's
    /// linters: the file is outside every pre-commit hook, or the line is a `type: ignore`
    /// in a module whose mypy errors are off.
    pub fn silences_nothing(&self, path: &str, line: &str) -> bool {
        if self.hooks.as_ref().is_some_and(|re| re.is_match(path)) {
            return true;
        }
        is_type_ignore(line)
            && module_names(path).is_some_and(|names| {
                self.mypy
                    .iter()
                    .any(|p| names.iter().any(|m| module_matches(p, m)))
            })
    }
}

/// Whether both states exclude the line: held before the change and after it.
pub fn excluded_throughout(before: &Excluded, after: &Excluded, path: &str, line: &str) -> bool {
    before.silences_nothing(path, line) && after.silences_nothing(path, line)
}

/// pre-commit's top-level `exclude` (a key at column 0), inline or as a block scalar
/// (`exclude: |` then indented lines, the usual home of a `(?x)` verbose pattern).
fn precommit_exclude(text: &str) -> Option<Regex> {
    let mut lines = text.lines();
    let value = loop {
        let line = lines.next()?;
        if let Some(rest) = line.strip_prefix("exclude:") {
            break rest.trim();
        }
    };
    let pattern = if value.starts_with('|') || value.starts_with('>') {
        let block: Vec<&str> = lines
            .take_while(|l| l.trim().is_empty() || l.starts_with(' ') || l.starts_with('\t'))
            .map(str::trim)
            .collect();
        block.join("\n")
    } else {
        unquote(strip_comment(value)).to_string()
    };
    if pattern.trim().is_empty() {
        return None;
    }
    RegexBuilder::new(&pattern).size_limit(1 << 20).build().ok()
}

/// A plain YAML scalar without a trailing ` # comment` (only outside quotes).
fn strip_comment(value: &str) -> &str {
    if value.starts_with('\'') || value.starts_with('"') {
        return value;
    }
    value.split(" #").next().unwrap_or(value).trim()
}

fn unquote(value: &str) -> &str {
    let v = value.trim();
    for q in ['\'', '"'] {
        if let Some(inner) = v.strip_prefix(q).and_then(|s| s.strip_suffix(q)) {
            return inner;
        }
    }
    v
}

/// `[[tool.mypy.overrides]]` tables with `ignore_errors = true`: their `module` patterns.
fn mypy_from_pyproject(text: &str) -> Vec<String> {
    let Ok(doc) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let overrides = doc
        .get("tool")
        .and_then(|t| t.get("mypy"))
        .and_then(|m| m.get("overrides"))
        .and_then(|o| o.as_array());
    let mut out = Vec::new();
    for table in overrides.into_iter().flatten() {
        if table.get("ignore_errors").and_then(|v| v.as_bool()) != Some(true) {
            continue;
        }
        match table.get("module") {
            Some(toml::Value::String(s)) => out.push(s.clone()),
            Some(toml::Value::Array(a)) => {
                out.extend(a.iter().filter_map(|v| v.as_str().map(str::to_string)))
            }
            _ => {}
        }
    }
    out
}

/// `[mypy-a.b.*,c]` sections with `ignore_errors = True`: their module patterns.
fn mypy_from_ini(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut section: Option<Vec<String>> = None;
    for line in text.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name
                .strip_prefix("mypy-")
                .map(|mods| mods.split(',').map(|m| m.trim().to_string()).collect());
            continue;
        }
        let Some(mods) = &section else { continue };
        if let Some((key, value)) = line.split_once(['=', ':']) {
            if key.trim() == "ignore_errors" && value.trim().eq_ignore_ascii_case("true") {
                out.extend(mods.iter().cloned());
            }
        }
    }
    out
}

/// Python's type-ignore comment: one that opens with `type: ignore` (the tokenizer reads
/// no other).
fn is_type_ignore(line: &str) -> bool {
    line.split('#').skip(1).any(|c| {
        c.trim_start()
            .strip_prefix("type:")
            .is_some_and(|r| r.trim_start().starts_with("ignore"))
    })
}

/// The dotted module names a Python file may have: its path from the root and every tail
/// of it (a `src/` layout or a `mypy_path` root drops leading parts).
fn module_names(path: &str) -> Option<Vec<String>> {
    let stem = path
        .strip_suffix(".pyi")
        .or_else(|| path.strip_suffix(".py"))?;
    let stem = stem.strip_suffix("/__init__").unwrap_or(stem);
    let parts: Vec<&str> = stem.split('/').collect();
    Some((0..parts.len()).map(|i| parts[i..].join(".")).collect())
}

/// mypy's module pattern: `a.b` the module itself, `a.b.*` it and everything under it,
/// a `*` part any one name.
fn module_matches(pattern: &str, module: &str) -> bool {
    let pat: Vec<&str> = pattern.trim().split('.').collect();
    let m: Vec<&str> = module.split('.').collect();
    if pat.last() == Some(&"*") {
        let head = &pat[..pat.len() - 1];
        return m.len() >= head.len() && head.iter().zip(&m).all(|(p, n)| *p == "*" || p == n);
    }
    pat.len() == m.len() && pat.iter().zip(&m).all(|(p, n)| *p == "*" || p == n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precommit_exclude_inline_and_block() {
        let x = Excluded::read([(
            ".pre-commit-config.yaml",
            "exclude: ^(profiling/|tests/data/)\nrepos:\n  - repo: local\n",
        )]);
        assert!(x.silences_nothing("tests/data/cases/a.py", "x  # noqa"));
        assert!(!x.silences_nothing("src/tests/data/a.py", "x  # noqa"));
        assert!(!x.silences_nothing("tests/test_a.py", "x  # noqa"));
        let block = ".pre-commit-config.yaml";
        let y = Excluded::read([(
            block,
            "exclude: |\n  (?x)^(\n    vendor/.*|\n    fixtures/.*\n  )$\nrepos: []\n",
        )]);
        assert!(y.silences_nothing("vendor/x.js", "// eslint-disable-line"));
        assert!(!y.silences_nothing("src/x.js", "// eslint-disable-line"));
        // A hook's own `exclude` is indented: one hook only, not read.
        let z = Excluded::read([(
            block,
            "repos:\n  - repo: x\n    hooks:\n      - id: flake8\n        exclude: ^tests/\n",
        )]);
        assert!(z.is_empty());
    }

    #[test]
    fn mypy_ignore_errors_reaches_type_ignores_only() {
        let py = "[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = [\"tests.data.*\"]\nignore_errors = true\n\n[[tool.mypy.overrides]]\nmodule = \"pkg.strict\"\nignore_missing_imports = true\n";
        let x = Excluded::read([("pyproject.toml", py)]);
        assert!(x.silences_nothing("tests/data/cases/a.py", "x = 1  # type: ignore"));
        assert!(x.silences_nothing("tests/data/a.py", "f(  # type:ignore[misc]"));
        assert!(!x.silences_nothing("tests/data/a.py", "x = 1  # noqa: F401"));
        assert!(!x.silences_nothing("tests/test_a.py", "x = 1  # type: ignore"));
        assert!(!x.silences_nothing("pkg/strict.py", "x = 1  # type: ignore"));
        // Prose naming the comment is not one.
        assert!(!x.silences_nothing("tests/data/a.py", "# like `# note type: ignore`"));
        let ini = "[mypy]\nstrict = True\n[mypy-gen.*,legacy]\nignore_errors = True\n";
        let y = Excluded::read([("mypy.ini", ini)]);
        assert!(y.silences_nothing("src/gen/x.py", "y = z  # type: ignore"));
        assert!(y.silences_nothing("legacy/__init__.py", "y = z  # type: ignore"));
        assert!(!y.silences_nothing("legacy/more.py", "y = z  # type: ignore"));
    }

    #[test]
    fn must_hold_on_both_sides() {
        let before = Excluded::default();
        let after = Excluded::read([(".pre-commit-config.yaml", "exclude: ^gen/\n")]);
        assert!(!excluded_throughout(&before, &after, "gen/a.py", "# noqa"));
        assert!(excluded_throughout(&after, &after, "gen/a.py", "# noqa"));
    }
}
