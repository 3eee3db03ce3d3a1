//! Suppressions written in configuration files rather than code: a rule ignored in
//! `pyproject.toml`, a module excluded from mypy, a Cargo lint set to `allow`, an
//! animal-sniffer `<ignore>`, an ESLint rule turned `"off"`. Each file is read into
//! entries, each with an id that says what it silences (`ruff ignore E501 tests/*`),
//! independent of where it sits; an entry is new when the file now holds more of its id
//! than before and one of its lines was added. So a re-sorted list, a table moved, a key
//! moved between equivalent tables (`[tool.ruff]` to `[tool.ruff.lint]`) or to another
//! file of the same change is not new; a rule added to an existing list is (widened); a
//! rule removed or raised back is not. A file that does not parse yields nothing: neither
//! its new text (no guess at what the tool would read) nor, when its old text does not
//! parse, anything at all (every entry would look new).

use super::clippy_groups;
use super::config_baseline;
use super::config_gradle;
use super::config_ignores;
use super::config_json;
use super::config_ktlint;
use super::config_msbuild;
use super::config_text;
use super::config_toml::{self, TomlKind};
use super::config_yaml;
use super::scan::snippet;
use super::unread::Side;
use super::{DeltaKind, FileDelta, Finding};
use std::collections::{BTreeSet, HashMap};

/// One suppression a configuration file declares. Its id is (what, rule, scope): the same
/// wherever in the file it sits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry {
    /// The setting: `ruff ignore`, `mypy ignore_errors`, `cargo allow`.
    pub what: String,
    /// The rule it names (`E501`, `clippy::needless_return`), empty when the setting is the
    /// whole of it (`ignore_errors = true`, an excluded path).
    pub rule: String,
    /// The files or modules it is limited to (`tests/*`, `vendored.*`, an excluded
    /// path), empty when it applies everywhere.
    pub scope: String,
    /// The lines it spans, in the order to report them: the setting first, then its scope.
    pub lines: Vec<u32>,
    /// The line that opens the block it belongs to (a RuboCop cop's name), where it is
    /// reported when the block is new: every entry of the block new and that line added.
    pub group: Option<u32>,
    /// Reported at its first line whenever any of its lines was added: a baseline entry is
    /// one issue, named by its message, whichever of its lines (a raised `count`) changed.
    pub anchored: bool,
}

impl Entry {
    pub fn new(what: &str, rule: &str, scope: &str, lines: Vec<u32>) -> Entry {
        Entry {
            what: what.into(),
            rule: rule.into(),
            // `./tests/*` and `tests/*` are the same files.
            scope: scope.strip_prefix("./").unwrap_or(scope).into(),
            lines,
            group: None,
            anchored: false,
        }
    }

    /// The same entry, reported at its first line (see [`Entry::anchored`]).
    pub fn anchored(mut self) -> Entry {
        self.anchored = true;
        self
    }

    /// The same entry inside the block opened at line `group`.
    /// The opening line is one of its lines too: a block added whole may be aligned by the
    /// diff with an old block's identical setting line (`Enabled: false`).
    pub fn in_group(mut self, group: u32) -> Entry {
        self.lines.push(group);
        self.group = Some(group);
        self
    }

    fn id(&self) -> (&str, &str, &str) {
        (&self.what, &self.rule, &self.scope)
    }

    /// The list it belongs to, for settings that are lists of rules: a rule swapped for
    /// another in such a list is a rename. A keyed setting (`needless_return = "allow"`,
    /// `reportX = false`) names its rule in its key: another key is another rule.
    fn list(&self) -> Option<(&str, &str)> {
        LISTS
            .contains(&self.what.as_str())
            .then_some((&self.what, &self.scope))
    }

    fn label(&self) -> String {
        let mut out = self.what.clone();
        for part in [&self.rule, &self.scope] {
            if !part.is_empty() {
                out.push(' ');
                out.push_str(part);
            }
        }
        out
    }
}

/// The settings that are lists of rule names.
const LISTS: &[&str] = &[
    "ruff ignore",
    "mypy disable_error_code",
    "pylint disable",
    "animal-sniffer ignore",
];

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
        self.starts
            .partition_point(|&s| s <= offset.min(self.text.len())) as u32
    }
}

/// How a configuration file is read, from its name; `None` for every other file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ConfigKind {
    Toml(TomlKind),
    Pom,
    Eslint,
    /// `package.json`: its `eslintConfig` and `xo` rule maps (see [`config_json`]), and the
    /// ignore lists of linters set up under their own key (see [`config_ignores`]).
    PackageJson,
    /// A knip configuration file: its `ignore` patterns (see [`config_ignores`]).
    Knip,
    /// flake8 and mypy settings of `setup.cfg`, `tox.ini`, `.flake8`, `mypy.ini`: read for
    /// what the change removed only (see [`config_text::ini_suppressions`]).
    Ini,
    /// `.rubocop*.yml`: cops off or excluded for files (see [`config_yaml`]).
    Rubocop,
    /// `.golangci.y*ml`: exclusion rules (see [`config_yaml`]).
    Golangci,
    /// A SpotBugs exclude filter: its `<Match>` elements.
    SpotBugs,
    /// `.editorconfig`: ktlint rules `disabled` (see [`config_ktlint`]).
    EditorConfig,
    /// A Gradle build script: ktlint rules `disabled` in an `editorConfigOverride` map,
    /// animal-sniffer `ignore(..)`s, javac `-Xlint:-name` (see [`config_gradle`]).
    Gradle,
    /// A Psalm baseline: each issue occurrence it lists (see [`config_baseline`]).
    PsalmBaseline,
    /// A PHPStan `.neon` file: its `ignoreErrors` (see [`config_baseline`]).
    Phpstan,
    /// An MSBuild project or property file: its `<NoWarn>` ids (see [`config_msbuild`]).
    MsBuild,
}

fn kind_of(path: &str) -> Option<ConfigKind> {
    let name = path.rsplit('/').next().unwrap_or(path);
    Some(match name {
        "pyproject.toml" => ConfigKind::Toml(TomlKind::Pyproject),
        "ruff.toml" | ".ruff.toml" => ConfigKind::Toml(TomlKind::Ruff),
        "ty.toml" => ConfigKind::Toml(TomlKind::Ty),
        "Cargo.toml" => ConfigKind::Toml(TomlKind::Cargo),
        "pom.xml" => ConfigKind::Pom,
        "package.json" => ConfigKind::PackageJson,
        _ if config_text::is_eslint_config(name) => ConfigKind::Eslint,
        _ if config_ignores::is_knip_config(name) => ConfigKind::Knip,
        _ if config_text::is_ini_config(name) => ConfigKind::Ini,
        _ if config_yaml::is_rubocop_config(name) => ConfigKind::Rubocop,
        _ if config_yaml::is_golangci_config(name) => ConfigKind::Golangci,
        _ if config_text::is_spotbugs_filter(name) => ConfigKind::SpotBugs,
        ".editorconfig" => ConfigKind::EditorConfig,
        _ if config_ktlint::is_ktlint_config(name) => ConfigKind::Gradle,
        _ if config_baseline::is_psalm_baseline(name) => ConfigKind::PsalmBaseline,
        _ if config_baseline::is_phpstan_config(name) => ConfigKind::Phpstan,
        _ if config_msbuild::is_msbuild(name) => ConfigKind::MsBuild,
        _ => return None,
    })
}

fn entries(kind: ConfigKind, text: &str) -> Option<Vec<Entry>> {
    match kind {
        ConfigKind::Toml(k) => config_toml::entries(k, text),
        ConfigKind::Pom => Some(config_text::animal_sniffer_ignores(text)),
        ConfigKind::Eslint => Some(config_text::eslint_rules_off(text)),
        ConfigKind::PackageJson => config_json::rules_off(text).map(|mut all| {
            all.extend(config_ignores::package_json_ignores(text));
            all
        }),
        ConfigKind::Knip => config_ignores::knip_ignores(text),
        ConfigKind::Ini => Some(config_text::ini_suppressions(text)),
        ConfigKind::Rubocop => Some(config_yaml::rubocop_suppressions(text)),
        ConfigKind::Golangci => Some(config_yaml::golangci_exclusions(text)),
        ConfigKind::SpotBugs => Some(config_text::spotbugs_exclusions(text)),
        ConfigKind::EditorConfig => Some(config_ktlint::editorconfig_rules_off(text)),
        ConfigKind::Gradle => {
            let mut all = config_ktlint::gradle_rules_off(text);
            all.extend(config_gradle::animal_sniffer_ignores(text));
            all.extend(config_gradle::javac_lints_off(text));
            Some(all)
        }
        ConfigKind::PsalmBaseline => Some(config_baseline::psalm_entries(text)),
        ConfigKind::Phpstan => Some(config_baseline::phpstan_entries(text)),
        ConfigKind::MsBuild => Some(config_msbuild::no_warn_ids(text)),
    }
}

/// The configuration files of the change whose text does not parse (a TOML syntax error),
/// with the side that does not: their settings' suppressions were not read, which the
/// receipt says instead of passing in silence.
pub fn unparsable(deltas: &[&FileDelta]) -> Vec<(String, Side)> {
    unparsable_by(deltas, |path, text| {
        kind_of(path)
            .zip(text)
            .is_some_and(|(k, t)| entries(k, t).is_none())
    })
}

/// Each side of each file of the change that `fails` to read (given its path there and its
/// text), with the path it had on that side.
pub fn unparsable_by(
    deltas: &[&FileDelta],
    fails: impl Fn(&str, Option<&str>) -> bool,
) -> Vec<(String, Side)> {
    let mut out = Vec::new();
    for d in deltas {
        let old_path = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            _ => d.path.as_str(),
        };
        if !matches!(d.kind, DeltaKind::Deleted) && fails(&d.path, d.new_text.as_deref()) {
            out.push((d.path.clone(), Side::Now));
        }
        if !matches!(d.kind, DeltaKind::Added) && fails(old_path, d.old_text.as_deref()) {
            out.push((old_path.to_string(), Side::Then));
        }
    }
    out
}

/// A file's entries now and at the comparison point. `None` now: gone, not read, or
/// unreadable (nothing to report).
struct Read {
    new: Option<Vec<Entry>>,
    old: Vec<Entry>,
    /// Which of what it adds is reported.
    reported: Reported,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reported {
    All,
    /// An INI file that configured mypy before: only its per-module mypy settings. The
    /// rest of an INI file only offers removals: its additions alone do not tell a linter
    /// set up for the first time from a suppression.
    MypyModules,
    Nothing,
}

impl Reported {
    fn covers(self, e: &Entry) -> bool {
        if e.what == config_yaml::GOLANGCI_DISABLE || e.what == config_toml::CARGO_ON {
            return false;
        }
        match self {
            Reported::All => true,
            Reported::MypyModules => e.what.starts_with("mypy ") && !e.scope.is_empty(),
            Reported::Nothing => false,
        }
    }
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
    let new = new_kind
        .zip(d.new_text.as_deref())
        .and_then(|(k, t)| entries(k, t));
    // A RuboCop, golangci-lint, SpotBugs, knip or PHPStan file or Psalm baseline the change
    // adds sets the linter up: what it leaves out was never checked here (as a first
    // flake8 section, below), and a first baseline records the issues the code had.
    let set_up = matches!(d.kind, DeltaKind::Added)
        && matches!(
            new_kind,
            Some(
                ConfigKind::Rubocop
                    | ConfigKind::Golangci
                    | ConfigKind::SpotBugs
                    | ConfigKind::Knip
                    | ConfigKind::PsalmBaseline
                    | ConfigKind::Phpstan
            )
        );
    let reported = if set_up {
        Reported::Nothing
    } else if new_kind != Some(ConfigKind::Ini) {
        Reported::All
    } else if old_kind == Some(ConfigKind::Ini)
        && d.old_text
            .as_deref()
            .is_some_and(config_text::ini_configures_mypy)
    {
        Reported::MypyModules
    } else {
        Reported::Nothing
    };
    Some(Read { new, old, reported })
}

type Id<'a> = (&'a str, &'a str, &'a str);

fn counts(entries: &[Entry]) -> HashMap<Id<'_>, usize> {
    let mut out = HashMap::new();
    for e in entries {
        *out.entry(e.id()).or_insert(0) += 1;
    }
    out
}

/// The paths the change renamed, files and the directories they moved between
/// (`a/x.py` -> `b/x.py` gives `a` -> `b`), so a scope that follows its files is the same.
fn renames(deltas: &[&FileDelta]) -> Vec<(String, String)> {
    let mut out = BTreeSet::new();
    for d in deltas {
        let DeltaKind::Renamed { from } = &d.kind else {
            continue;
        };
        out.insert((from.clone(), d.path.clone()));
        let (mut a, mut b) = (from.as_str(), d.path.as_str());
        while let (Some((ad, an)), Some((bd, bn))) = (a.rsplit_once('/'), b.rsplit_once('/')) {
            if an != bn {
                break;
            }
            if ad != bd {
                out.insert((ad.to_string(), bd.to_string()));
            }
            (a, b) = (ad, bd);
        }
    }
    out.into_iter().collect()
}

/// `scope` with a renamed path in it (the whole, or a leading directory) renamed.
fn renamed(scope: &str, renames: &[(String, String)]) -> Option<String> {
    let bare = scope.strip_prefix("./").unwrap_or(scope);
    renames.iter().find_map(|(from, to)| {
        if bare == from {
            return Some(to.clone());
        }
        let rest = bare.strip_prefix(from.as_str())?.strip_prefix('/')?;
        Some(format!("{to}/{rest}"))
    })
}

/// RuboCop renames cops between versions (`Lint/HandleExceptions` became
/// `Lint/SuppressedException`). A cop whose `Exclude` list left the file and another cop,
/// not there before, that came with exactly the same files is that cop renamed: its old
/// entries take the new name. Files are the fingerprint: a cop turned off whole and another
/// turned off whole say nothing of being the same.
fn rename_cops(old: &mut [Entry], new: &[Entry]) {
    const EXCLUDE: &str = "rubocop exclude";
    let files = |entries: &[Entry]| {
        let mut by_cop: HashMap<String, BTreeSet<String>> = HashMap::new();
        for e in entries.iter().filter(|e| e.what == EXCLUDE) {
            by_cop
                .entry(e.rule.clone())
                .or_default()
                .insert(e.scope.clone());
        }
        by_cop
    };
    let cops = |entries: &[Entry]| -> BTreeSet<String> {
        entries
            .iter()
            .filter(|e| e.what.starts_with("rubocop "))
            .map(|e| e.rule.clone())
            .collect()
    };
    let (before, now) = (files(old), files(new));
    let (cops_before, cops_now) = (cops(old), cops(new));
    let mut arrived: Vec<(&String, &BTreeSet<String>)> = now
        .iter()
        .filter(|(cop, _)| !cops_before.contains(*cop))
        .collect();
    arrived.sort();
    let mut renames = HashMap::new();
    let mut departed: Vec<(&String, &BTreeSet<String>)> = before
        .iter()
        .filter(|(cop, _)| !cops_now.contains(*cop))
        .collect();
    departed.sort();
    for (from, set) in departed {
        if let Some(at) = arrived.iter().position(|(_, s)| *s == set) {
            let (to, _) = arrived.remove(at);
            renames.insert(from.clone(), to.clone());
        }
    }
    for e in old.iter_mut().filter(|e| e.what == EXCLUDE) {
        if let Some(to) = renames.get(&e.rule) {
            e.rule = to.clone();
        }
    }
}

/// The setting an entry is when it reaches every file: a linter disabled in golangci-lint
/// is excluded everywhere, a RuboCop cop turned off is excluded for every file.
fn everywhere(what: &str) -> &str {
    match what {
        config_yaml::GOLANGCI_DISABLE => "golangci exclude",
        "rubocop off" => "rubocop exclude",
        _ => what,
    }
}

/// Whether `e`, a new Cargo `allow` of a clippy lint that is off by default (`pedantic`,
/// `restriction`, `nursery`, `cargo`: see [`clippy_groups`]), only keeps off what was never
/// on: the file turned neither the lint nor its group on at the comparison point (`old`).
/// Such allows come with a group turned on for the first time (`pedantic = "warn"` and the
/// lints of it the project does not want), or turn off a lint nothing ran. An allow of a
/// lint that runs by default, or of a name the list does not know, silences it.
fn keeps_off(e: &Entry, old: &[Entry]) -> bool {
    let Some(lint) = e
        .rule
        .strip_prefix("clippy::")
        .filter(|_| e.what == "cargo allow")
    else {
        return false;
    };
    let Some(group) = clippy_groups::off_group(lint) else {
        return false;
    };
    // Lint names may be spelt with `-` (`clippy::cast-lossless`): the same lint.
    let bare = |rule: &str| rule.replace('-', "_");
    let was_on = |name: &str| {
        old.iter().any(|o| {
            o.what == config_toml::CARGO_ON && bare(&o.rule) == bare(&format!("clippy::{name}"))
        })
    };
    !was_on(group) && !was_on(lint)
}

/// The crate-wide lint allows the change removed from `d`, a `Cargo.toml` (`[lints]` or
/// `[workspace.lints]`), named as code names them in an attribute: `clippy::x` for a tool's
/// lint, `x` for rustc's own (`[lints.rust]`). Empty for any other file.
pub fn cargo_allows_removed(d: &FileDelta) -> Vec<String> {
    let Some(Read { new, old, .. }) = read(d) else {
        return Vec::new();
    };
    if kind_of(&d.path) != Some(ConfigKind::Toml(TomlKind::Cargo)) {
        return Vec::new();
    }
    let now = new.as_deref().map(counts).unwrap_or_default();
    let mut out: Vec<String> = counts(&old)
        .into_iter()
        .filter(|(id, n)| id.0 == "cargo allow" && *n > now.get(id).copied().unwrap_or(0))
        .map(|((_, rule, _), _)| {
            rule.strip_prefix("rust::")
                .unwrap_or(rule)
                .replace('-', "_")
        })
        .collect();
    out.sort();
    out
}

/// The rules ESLint configurations of the change stopped turning off, with the directory
/// of each configuration that lost them (`""` for the root): an `off` entry (`"rule":
/// "off"`, in an ESLint configuration file or `package.json`) whose count in that file fell,
/// and that the change's configurations, taken together, now hold fewer times than before
/// (an `off` moved to another configuration file is still off). Rules are given without a
/// plugin scope's `@` (see [`eslint_respelt`]), as [`eslint_rule`] spells them.
pub fn eslint_offs_removed(deltas: &[&FileDelta]) -> Vec<(String, BTreeSet<String>)> {
    const OFF: &str = "eslint off";
    let is_eslint = |path: &str| {
        matches!(
            kind_of(path),
            Some(ConfigKind::Eslint | ConfigKind::PackageJson)
        )
    };
    let mut per_file = Vec::new();
    let mut total: HashMap<String, isize> = HashMap::new();
    for d in deltas {
        let old_path = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            DeltaKind::Added => "",
            _ => d.path.as_str(),
        };
        if !is_eslint(old_path) && !is_eslint(&d.path) {
            continue;
        }
        let Some(Read { new, old, .. }) = read(d) else {
            continue;
        };
        let tally = |entries: &[Entry]| {
            let mut out: HashMap<String, isize> = HashMap::new();
            for e in entries.iter().filter(|e| e.what == OFF) {
                *out.entry(eslint_rule(&e.rule)).or_insert(0) += 1;
            }
            out
        };
        let (before, now) = (tally(&old), tally(new.as_deref().unwrap_or(&[])));
        let mut fell = BTreeSet::new();
        for (rule, &n) in &before {
            *total.entry(rule.clone()).or_insert(0) += n;
            if n > now.get(rule).copied().unwrap_or(0) {
                fell.insert(rule.clone());
            }
        }
        for (rule, &n) in &now {
            *total.entry(rule.clone()).or_insert(0) -= n;
        }
        let dir = old_path.rsplit_once('/').map_or("", |(dir, _)| dir);
        per_file.push((dir.to_string(), fell));
    }
    per_file
        .into_iter()
        .map(|(dir, fell)| {
            let gone = fell
                .into_iter()
                .filter(|rule| total.get(rule).is_some_and(|&n| n > 0))
                .collect();
            (dir, gone)
        })
        .filter(|(_, gone): &(String, BTreeSet<String>)| !gone.is_empty())
        .collect()
}

/// An ESLint rule name with its plugin scope's `@` dropped (`@typescript-eslint/x` is
/// `typescript-eslint/x`), so both spellings of a plugin's rule compare equal.
pub fn eslint_rule(rule: &str) -> String {
    rule.strip_prefix('@')
        .filter(|rest| rest.contains('/'))
        .unwrap_or(rule)
        .to_string()
}

/// An ESLint rule of a plugin under the plugin's other spelling: a scoped plugin
/// (`@vitest/eslint-plugin`) names its rules `@vitest/x` in an `.eslintrc`, while a flat
/// config registers the plugin under a key the project picks, usually the bare scope
/// (`vitest/x`). The two spellings are one rule of one plugin, so an `off` that changes
/// spelling as the configuration is migrated is the same suppression. `None` for a rule of
/// ESLint's own (no plugin) or of any other tool.
fn eslint_respelt(id: Id<'_>) -> Option<String> {
    let (what, rule, _) = id;
    if what != "eslint off" {
        return None;
    }
    let (plugin, name) = rule.split_once('/')?;
    if plugin.is_empty() || name.is_empty() || plugin == "@" {
        return None;
    }
    Some(match plugin.strip_prefix('@') {
        Some(bare) => format!("{bare}/{name}"),
        None => format!("@{plugin}/{name}"),
    })
}

/// The new configuration suppressions of a change, as `disabled_lint` findings.
pub fn findings(deltas: &[&FileDelta]) -> Vec<Finding> {
    let moved_paths = renames(deltas);
    let reads: Vec<(&FileDelta, Read)> = deltas
        .iter()
        .filter_map(|d| {
            let mut r = read(d)?;
            for e in &mut r.old {
                if let Some(to) = renamed(&e.scope, &moved_paths) {
                    e.scope = to;
                }
            }
            if let Some(new) = r.new.as_deref() {
                rename_cops(&mut r.old, new);
                config_baseline::rename_psalm_issues(&mut r.old, new);
                super::phpstan_messages::rename_rerendered(&mut r.old, new);
            }
            Some((*d, r))
        })
        .collect();
    // What left some file of the change: an entry that reappears elsewhere moved.
    let mut gone: HashMap<Id<'_>, usize> = HashMap::new();
    for (_, r) in &reads {
        let now = r.new.as_deref().map(counts).unwrap_or_default();
        for (id, n) in counts(&r.old) {
            let left = n.saturating_sub(now.get(&id).copied().unwrap_or(0));
            if left > 0 {
                *gone.entry(id).or_insert(0) += left;
            }
        }
    }
    // Rules silenced everywhere that left some file: the same rule now silenced for some
    // files only is narrowed, not new.
    let narrowed: BTreeSet<(&str, &str)> = gone
        .iter()
        .filter(|((_, _, scope), n)| scope.is_empty() && **n > 0)
        .map(|((what, rule, _), _)| (everywhere(what), *rule))
        .collect();
    let mut out = Vec::new();
    for (d, r) in &reads {
        let Some(new) = r.new.as_ref().filter(|_| r.reported != Reported::Nothing) else {
            continue;
        };
        let added: BTreeSet<u32> = d.added_lines.iter().map(|l| l.number).collect();
        // Rules off in a block over files the configuration ignored whole before: nothing
        // checked them, so nothing checked is silenced (see [`super::eslint_blocks`]).
        let freed = match (
            kind_of(&d.path),
            d.old_text.as_deref(),
            d.new_text.as_deref(),
        ) {
            (Some(ConfigKind::Eslint), Some(old), Some(now)) => {
                super::eslint_blocks::unignored_lines(old, now)
            }
            _ => BTreeSet::new(),
        };
        let before = counts(&r.old);
        let now = counts(new);
        let mut surplus: HashMap<Id<'_>, usize> = HashMap::new();
        for (&id, &n) in &now {
            let mut extra = n.saturating_sub(before.get(&id).copied().unwrap_or(0));
            if let Some(moved) = gone.get_mut(&id) {
                let taken = extra.min(*moved);
                *moved -= taken;
                extra -= taken;
            }
            // The same ESLint rule under its plugin's other spelling moved too.
            if let Some(other) = (extra > 0).then(|| eslint_respelt(id)).flatten() {
                let same = |k: &Id<'_>| k.0 == id.0 && k.1 == other && k.2 == id.2;
                if let Some((_, moved)) = gone.iter_mut().find(|(k, n)| same(k) && **n > 0) {
                    let taken = extra.min(*moved);
                    *moved -= taken;
                    extra -= taken;
                }
            }
            if extra > 0 {
                surplus.insert(id, extra);
            }
        }
        // A rule that left a list of this file, and another that came into the same list,
        // is a rename (`TCH` became `TC`), as for suppression lists in code.
        let mut renamed_away: HashMap<(&str, &str), usize> = HashMap::new();
        for (&(what, rule, scope), &n) in &before {
            let left = n.saturating_sub(now.get(&(what, rule, scope)).copied().unwrap_or(0));
            if left > 0 && LISTS.contains(&what) {
                *renamed_away.entry((what, scope)).or_insert(0) += left;
            }
        }
        // The new entries (index in `new`, line), before they are placed.
        let mut fresh: Vec<(usize, u32)> = Vec::new();
        for (at, e) in new.iter().enumerate().filter(|(_, e)| r.reported.covers(e)) {
            let Some(left) = surplus.get_mut(&e.id()).filter(|n| **n > 0) else {
                continue;
            };
            let Some(&line) = e.lines.iter().find(|l| added.contains(l)) else {
                continue;
            };
            let line = if e.anchored { e.lines[0] } else { line };
            *left -= 1;
            if !e.scope.is_empty() && narrowed.contains(&(everywhere(&e.what), e.rule.as_str())) {
                continue;
            }
            if freed.contains(&line) || keeps_off(e, &r.old) {
                continue;
            }
            if let Some(swapped) = e
                .list()
                .and_then(|l| renamed_away.get_mut(&l))
                .filter(|n| **n > 0)
            {
                *swapped -= 1;
                continue;
            }
            fresh.push((at, line));
        }
        // A block all of whose entries are new is reported once, at the line opening it.
        let fresh_at: BTreeSet<usize> = fresh.iter().map(|&(at, _)| at).collect();
        let whole_block = |group: u32| {
            added.contains(&group)
                && new
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| e.group == Some(group))
                    .all(|(at, _)| fresh_at.contains(&at))
        };
        let mut reported = BTreeSet::new();
        for (at, line) in fresh {
            let e = &new[at];
            let line = e.group.filter(|&g| whole_block(g)).unwrap_or(line);
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
                    e.label()
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
        let a = delta(
            "ruff.toml",
            Some("ignore = [\"E501\"]\n"),
            "line-length = 99\n",
        );
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

    #[test]
    fn a_rule_swapped_in_its_list_is_a_rename_and_a_rule_beside_it_is_new() {
        let old = "[tool.ruff.lint]\nignore = [\n  \"TCH\",\n]\n";
        let new = "[tool.ruff.lint]\nignore = [\n  \"TC\",\n]\n";
        assert!(lines_found("pyproject.toml", Some(old), new).is_empty());
        let wider = "[tool.ruff.lint]\nignore = [\n  \"TC\",\n  \"CPY\",\n]\n";
        assert_eq!(lines_found("pyproject.toml", Some(old), wider), vec![4]);
    }

    #[test]
    fn a_scope_that_follows_its_renamed_files_is_the_same() {
        let moved = FileDelta {
            kind: DeltaKind::Renamed {
                from: "examples/typing/a.py".into(),
            },
            ..delta("checks/typing/a.py", Some("x = 1\n"), "x = 1\n")
        };
        let old = "[tool.mypy]\nexclude = [\"examples/typing/a.py\"]\n[tool.ruff.lint.per-file-ignores]\n\"examples/*\" = [\"E741\"]\n";
        let new = "[tool.mypy]\nexclude = [\"checks/typing/a.py\"]\n[tool.ruff.lint.per-file-ignores]\n\"./checks/*\" = [\"E741\"]\n";
        let config = delta("pyproject.toml", Some(old), new);
        assert!(findings(&[&moved, &config]).is_empty());
        // Without the rename, the same text excludes other files.
        assert_eq!(findings(&[&config]).len(), 2);
    }

    #[test]
    fn rubocop_cop_renamed_with_its_files_is_the_same_and_a_new_cop_is_not() {
        let old = "Lint/HandleExceptions:\n  Exclude:\n    - 'a.rb'\nLint/EndAlignment:\n  Exclude:\n    - 'b.rb'\n";
        let new = "Lint/SuppressedException:\n  Exclude:\n    - 'a.rb'\nLayout/EndAlignment:\n  Exclude:\n    - 'b.rb'\n    - 'c.rb'\nLint/MissingSuper:\n  Exclude:\n    - 'd.rb'\nStyle/Alias:\n  Enabled: false\n";
        assert_eq!(lines_found(".rubocop.yml", Some(old), new), vec![7, 8, 11]);
    }

    #[test]
    fn renamed_directories_are_the_differing_leading_parts() {
        let d = FileDelta {
            kind: DeltaKind::Renamed {
                from: "a/x/y.py".into(),
            },
            ..delta("b/x/y.py", None, "")
        };
        assert_eq!(
            renames(&[&d]),
            vec![
                ("a".to_string(), "b".to_string()),
                ("a/x".to_string(), "b/x".to_string()),
                ("a/x/y.py".to_string(), "b/x/y.py".to_string()),
            ]
        );
        assert_eq!(
            renamed("./a/x/z.py", &renames(&[&d])).as_deref(),
            Some("b/x/z.py")
        );
        assert_eq!(renamed("ab/z.py", &renames(&[&d])), None);
    }
}
