//! Suppressions written in TOML configuration: Python tools (ruff, mypy, pyright and
//! basedpyright, ty, pylint) in `pyproject.toml`, `ruff.toml`, `ty.toml`, and Rust lints in
//! `Cargo.toml`. Read with a real TOML parser (spans give each value's line); a file that does
//! not parse yields `None`, never a guess.

use super::config_lint::{Entry, LineIndex};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// A Cargo `[lints]` entry that turns a lint or a lint group on (`warn`, `deny`, `forbid`):
/// read to know whether an `allow` of an off-by-default clippy lint silences anything.
pub const CARGO_ON: &str = "cargo on";

/// Which reading a TOML file gets, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TomlKind {
    /// `pyproject.toml`: tools under `[tool.<name>]`.
    Pyproject,
    /// `ruff.toml`, `.ruff.toml`: ruff settings at the root.
    Ruff,
    /// `ty.toml`: ty settings at the root.
    Ty,
    /// `Cargo.toml`: `[lints.*]`, `[workspace.lints.*]`.
    Cargo,
}

/// The suppressions `text` declares, or `None` when it is not valid TOML.
pub fn entries(kind: TomlKind, text: &str) -> Option<Vec<Entry>> {
    let root = DeTable::parse(text).ok()?;
    let mut r = Reader {
        lines: LineIndex::new(text),
        out: Vec::new(),
    };
    let root = root.get_ref();
    match kind {
        TomlKind::Pyproject => {
            if let Some(tool) = table(root, "tool") {
                r.python_tools(tool);
            }
        }
        TomlKind::Ruff => r.ruff(root),
        TomlKind::Ty => r.ty(root),
        TomlKind::Cargo => {
            r.cargo_lints(table(root, "lints"));
            r.cargo_lints(table(root, "workspace").and_then(|w| table(w, "lints")));
        }
    }
    Some(r.out)
}

type Value<'i> = Spanned<DeValue<'i>>;

fn get<'a, 'i>(t: &'a DeTable<'i>, key: &str) -> Option<&'a Value<'i>> {
    t.get(key)
}

fn table<'a, 'i>(t: &'a DeTable<'i>, key: &str) -> Option<&'a DeTable<'i>> {
    match get(t, key)?.get_ref() {
        DeValue::Table(t) => Some(t),
        _ => None,
    }
}

fn string<'a>(v: &'a Value<'_>) -> Option<&'a str> {
    match v.get_ref() {
        DeValue::String(s) => Some(s),
        _ => None,
    }
}

/// The strings of a value that is one string or an array of strings, each with its own
/// span: `exclude = "x"` and `exclude = ["x", "y"]` alike.
fn strings<'a, 'i>(v: &'a Value<'i>) -> Vec<(&'a str, &'a Value<'i>)> {
    match v.get_ref() {
        DeValue::String(s) => vec![(s, v)],
        DeValue::Array(a) => a.iter().filter_map(|i| Some((string(i)?, i))).collect(),
        _ => Vec::new(),
    }
}

fn is_true(v: &Value<'_>) -> bool {
    matches!(v.get_ref(), DeValue::Boolean(true))
}

/// The tables of an array of tables (`[[tool.mypy.overrides]]`), or of a lone table.
fn tables<'a, 'i>(v: &'a Value<'i>) -> Vec<&'a DeTable<'i>> {
    match v.get_ref() {
        DeValue::Table(t) => vec![t],
        DeValue::Array(a) => a
            .iter()
            .filter_map(|i| match i.get_ref() {
                DeValue::Table(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

struct Reader<'t> {
    lines: LineIndex<'t>,
    out: Vec<Entry>,
}

impl Reader<'_> {
    /// Every line `v` spans, first line first: where an entry is reported when one of
    /// them was added.
    fn lines_of(&self, v: &Value<'_>) -> Vec<u32> {
        let span = v.span();
        let first = self.lines.line_of(span.start);
        let last = self
            .lines
            .line_of(span.end.saturating_sub(1).max(span.start));
        (first..=last).collect()
    }

    fn push(&mut self, what: &str, rule: &str, scope: &str, lines: Vec<u32>) {
        self.out.push(Entry::new(what, rule, scope, lines));
    }

    /// An entry scoped to some files or modules (an override): one entry per scope, found
    /// at the setting's lines first, then at the scope's own line (a module added to the
    /// list of an existing override widens it).
    fn scoped(
        &mut self,
        scopes: &[(&str, Option<&Value<'_>>)],
        what: &str,
        rule: &str,
        at: &Value<'_>,
    ) {
        for (scope, scope_value) in scopes {
            let mut lines = self.lines_of(at);
            if let Some(v) = scope_value {
                lines.extend(self.lines_of(v));
            }
            self.push(what, rule, scope, lines);
        }
    }

    fn python_tools(&mut self, tool: &DeTable<'_>) {
        if let Some(t) = table(tool, "ruff") {
            self.ruff(t);
        }
        if let Some(t) = table(tool, "mypy") {
            self.mypy(t);
        }
        for name in ["pyright", "basedpyright"] {
            if let Some(t) = table(tool, name) {
                self.pyright(t);
            }
        }
        if let Some(t) = table(tool, "ty") {
            self.ty(t);
        }
        if let Some(t) = table(tool, "pylint") {
            self.pylint(t);
        }
    }

    /// `ignore`/`extend-ignore` and `per-file-ignores`/`extend-per-file-ignores`, at the top
    /// level or under `lint` (the same settings: moving them there is no new suppression).
    fn ruff(&mut self, t: &DeTable<'_>) {
        for t in std::iter::once(t).chain(table(t, "lint")) {
            for key in ["ignore", "extend-ignore"] {
                if let Some(v) = get(t, key) {
                    for (code, at) in strings(v) {
                        let lines = self.lines_of(at);
                        self.push("ruff ignore", code, "", lines);
                    }
                }
            }
            for key in ["per-file-ignores", "extend-per-file-ignores"] {
                let Some(files) = table(t, key) else { continue };
                for (glob, v) in files.iter() {
                    for (code, at) in strings(v) {
                        let mut lines = self.lines_of(at);
                        lines.extend(self.lines_of(v));
                        self.push("ruff ignore", code, glob.get_ref(), lines);
                    }
                }
            }
        }
    }

    fn mypy(&mut self, t: &DeTable<'_>) {
        self.mypy_settings(t, &[("", None)]);
        if let Some(exclude) = get(t, "exclude") {
            for (pattern, at) in strings(exclude) {
                let lines = self.lines_of(at);
                self.push("mypy exclude", "", pattern, lines);
            }
        }
        let Some(overrides) = get(t, "overrides") else {
            return;
        };
        for o in tables(overrides) {
            let modules = o.get("module").map(strings).unwrap_or_default();
            let scopes: Vec<(&str, Option<&Value<'_>>)> =
                modules.iter().map(|(m, v)| (*m, Some(*v))).collect();
            self.mypy_settings(o, &scopes);
        }
    }

    fn mypy_settings(&mut self, t: &DeTable<'_>, scopes: &[(&str, Option<&Value<'_>>)]) {
        for key in ["ignore_errors", "ignore_missing_imports"] {
            if let Some(v) = get(t, key).filter(|v| is_true(v)) {
                self.scoped(scopes, &format!("mypy {key}"), "", v);
            }
        }
        if let Some(v) = get(t, "disable_error_code") {
            for (code, at) in strings(v) {
                self.scoped(scopes, "mypy disable_error_code", code, at);
            }
        }
    }

    /// `reportX = false` or `"none"`, `ignore = [paths]`, `typeCheckingMode = "off"`, at
    /// the top level or in an execution environment (scoped by its root).
    fn pyright(&mut self, t: &DeTable<'_>) {
        self.pyright_settings(t, &[("", None)]);
        if let Some(v) = get(t, "ignore") {
            for (path, at) in strings(v) {
                let lines = self.lines_of(at);
                self.push("pyright ignore", "", path, lines);
            }
        }
        if let Some(envs) = get(t, "executionEnvironments") {
            for env in tables(envs) {
                let root = env.get("root");
                let scope = root.and_then(string).unwrap_or("");
                self.pyright_settings(env, &[(scope, root)]);
            }
        }
    }

    fn pyright_settings(&mut self, t: &DeTable<'_>, scopes: &[(&str, Option<&Value<'_>>)]) {
        for (key, v) in t.iter() {
            let key = key.get_ref();
            let off = match v.get_ref() {
                DeValue::Boolean(b) => !b,
                DeValue::String(s) => s.eq_ignore_ascii_case("none"),
                _ => false,
            };
            if key.starts_with("report") && off {
                self.scoped(scopes, "pyright off", key, v);
            }
        }
        if let Some(v) = get(t, "typeCheckingMode").filter(|v| string(v) == Some("off")) {
            self.scoped(scopes, "pyright off", "typeCheckingMode", v);
        }
    }

    /// `[rules] X = "ignore"` and `[[overrides]]` with `include` globs and their own rules.
    fn ty(&mut self, t: &DeTable<'_>) {
        if let Some(rules) = table(t, "rules") {
            self.ty_rules(rules, &[("", None)]);
        }
        let Some(overrides) = get(t, "overrides") else {
            return;
        };
        for o in tables(overrides) {
            let Some(rules) = table(o, "rules") else {
                continue;
            };
            let include = o.get("include").map(strings).unwrap_or_default();
            let mut scopes: Vec<(&str, Option<&Value<'_>>)> =
                include.iter().map(|(g, v)| (*g, Some(*v))).collect();
            if scopes.is_empty() {
                scopes.push(("", None));
            }
            self.ty_rules(rules, &scopes);
        }
    }

    fn ty_rules(&mut self, rules: &DeTable<'_>, scopes: &[(&str, Option<&Value<'_>>)]) {
        for (rule, v) in rules.iter() {
            let level = match v.get_ref() {
                DeValue::String(s) => Some(&**s),
                DeValue::Table(t) => get(t, "level").and_then(string),
                _ => None,
            };
            if level == Some("ignore") {
                self.scoped(scopes, "ty ignore", rule.get_ref(), v);
            }
        }
    }

    /// `disable` anywhere under `[tool.pylint]` (`messages_control`, `"MESSAGES CONTROL"`,
    /// `main`): a list, or one string of comma-separated names.
    fn pylint(&mut self, t: &DeTable<'_>) {
        for (key, v) in t.iter() {
            match v.get_ref() {
                DeValue::Table(inner) => self.pylint(inner),
                _ if key.get_ref() == "disable" => {
                    for (names, at) in strings(v) {
                        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                            let lines = self.lines_of(at);
                            self.push("pylint disable", name, "", lines);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// `[lints.<tool>]` entries at `"allow"` (a string or `{ level = "allow", .. }`); the
    /// package and workspace tables share ids, so moving a lint between them is no news.
    /// Entries at `warn`, `deny` or `forbid` are [`CARGO_ON`]: what the file turned on (a
    /// lint, or a group such as `clippy::pedantic`), never reported themselves.
    fn cargo_lints(&mut self, lints: Option<&DeTable<'_>>) {
        let Some(lints) = lints else { return };
        for (tool, v) in lints.iter() {
            let DeValue::Table(t) = v.get_ref() else {
                continue;
            };
            for (lint, v) in t.iter() {
                let level = match v.get_ref() {
                    DeValue::String(s) => Some(&**s),
                    DeValue::Table(t) => get(t, "level").and_then(string),
                    _ => None,
                };
                let what = match level {
                    Some("allow") => "cargo allow",
                    Some("warn" | "deny" | "forbid") => CARGO_ON,
                    _ => continue,
                };
                let lines = self.lines_of(v);
                let rule = format!("{}::{}", tool.get_ref(), lint.get_ref());
                self.push(what, &rule, "", lines);
            }
        }
    }
}
