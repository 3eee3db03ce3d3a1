//! Guards: pure functions over the differences between the comparison point and the
//! working tree. The edge (git, the file system) builds [`FileDelta`]s; nothing in this
//! module reads a file or runs a process.

mod account;
mod alias_reach;
mod array_rows;
mod assumption_tests;
mod banners;
mod carried;
mod catch_all_codes;
mod cfg_ignore;
mod clippy_groups;
mod cmake_tests;
mod commented_tests;
mod config_baseline;
mod config_gradle;
mod config_ignores;
mod config_json;
mod config_ktlint;
mod config_lint;
mod config_msbuild;
mod config_text;
mod config_toml;
mod config_yaml;
mod coverage_pragmas;
mod dead_return;
mod debug;
mod deleted;
mod doc_fences;
mod doc_tests;
mod eslint_blocks;
mod eslint_narrowed;
mod expect_lints;
mod file_return;
mod fixture_params;
mod folded;
mod framework_fixtures;
mod gated_return;
mod go_build;
mod go_skips;
mod go_twins;
mod grown_condition;
mod harness;
mod heredoc;
mod hidden;
mod import_probe;
mod inline_annotations;
mod into_body;
mod js_announced_exit;
mod js_tests;
mod junit_port;
mod jvm_fixtures;
mod jvm_tests;
mod kept_skips;
mod languages;
mod lexer;
mod line;
mod lint;
mod lint_excluded;
mod lint_tests;
mod mark_aliases;
mod merged;
mod miri_gates;
mod module_skips;
mod module_wide;
mod moved_along;
mod moved_renamed;
mod named_subject;
mod named_tests;
mod new_parameter;
mod not_lowered;
mod output_modules;
mod parametrised;
mod phpstan_messages;
mod pragma_respelt;
mod print_helpers;
mod print_probes;
mod protected;
mod pyright_file_rules;
mod rewrapped;
mod rubocop_excluded;
mod rust_tests;
mod scan;
mod self_run;
mod setup_skips;
mod skip_helpers;
mod skip_owner;
mod skips;
mod split;
mod stand_in_prints;
mod test_moves;
mod test_paths;
mod tests_count;
mod todos;
mod tokens;
mod twins;
mod type_assertions;
pub mod unread;
mod unwalked;
mod vanished;
mod widen;
mod xctest_plans;

use crate::config::{GuardsConfig, Level};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

pub use deleted::Near;
pub use languages::Lang;
pub use policy::globs::{PathSet, Pattern, GATE_FILES};
pub use rust_tests::TestMacros;
pub use scan::SNIPPET_MAX_CHARS;
pub use test_paths::TestPaths;

/// One line the agent added (numbered in the current file) or removed (numbered in the
/// file at the comparison point), 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub number: u32,
    pub text: String,
}

impl Line {
    /// Every line of `text`, numbered from 1: a whole file added or removed, or read
    /// whole to see which tests it declares.
    pub(crate) fn all_of(text: &str) -> Vec<Line> {
        text.lines()
            .enumerate()
            .map(|(i, l)| Line {
                number: i as u32 + 1,
                text: l.into(),
            })
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum DeltaKind {
    Added,
    Modified,
    Deleted,
    Renamed { from: String },
}

/// Per-file counts of tests and skip markers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCounts {
    pub tests: u32,
    pub skips: u32,
}

/// What changed in one file between the comparison point and now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDelta {
    /// Repository-relative, `/`-separated. For `Deleted`, the path that is gone.
    pub path: String,
    pub kind: DeltaKind,
    /// Lines added since the comparison point, minus lines already dirty at baseline time.
    pub added_lines: Vec<Line>,
    /// Lines removed since the comparison point, numbered in `old_text` (every line of a
    /// deleted file). Empty when unknown (a file already dirty at baseline time): the
    /// change is then judged by what it added alone, never more leniently.
    pub removed_lines: Vec<Line>,
    /// The text at the comparison point (of the old path for renames), when it was read,
    /// is UTF-8 and under the size cap; `None` for a file dirty at baseline time.
    pub old_text: Option<String>,
    /// Counts at the comparison point (of the old path for renames); `None` when the file
    /// did not exist then or its text was not available.
    pub old_counts: Option<TestCounts>,
    /// Current text when the file exists, is UTF-8 and under the size cap.
    pub new_text: Option<String>,
}

impl FileDelta {
    /// The path as findings show it: a renamed file says where it moved from.
    pub fn shown_path(&self) -> String {
        match &self.kind {
            DeltaKind::Renamed { from } => format!("{} (was {from})", self.path),
            _ => self.path.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    pub snippet: String,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GuardStatus {
    Pass,
    Warn,
    Fail,
    Skipped,
    Off,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuardReport {
    pub name: String,
    pub level: Level,
    pub status: GuardStatus,
    pub findings: Vec<Finding>,
}

impl GuardReport {
    /// Status from level and findings: findings at `fail` fail, at `warn` warn.
    pub fn from_findings(name: &str, level: Level, findings: Vec<Finding>) -> GuardReport {
        let status = match (level, findings.is_empty()) {
            (Level::Off, _) => GuardStatus::Off,
            (_, true) => GuardStatus::Pass,
            (Level::Warn, false) => GuardStatus::Warn,
            (Level::Fail, false) => GuardStatus::Fail,
        };
        let findings = if level == Level::Off {
            Vec::new()
        } else {
            findings
        };
        GuardReport {
            name: name.into(),
            level,
            status,
            findings,
        }
    }

    /// Every guard reports `skipped` (never `pass`) when there is nothing to compare.
    pub fn skipped(name: &str, level: Level) -> GuardReport {
        GuardReport {
            name: name.into(),
            level,
            status: if level == Level::Off {
                GuardStatus::Off
            } else {
                GuardStatus::Skipped
            },
            findings: Vec::new(),
        }
    }
}

/// The guard names [`run_guards`] reports, in its order.
pub const DELTA_GUARDS: &[&str] = &[
    "config_edits",
    "protected_edits",
    "deleted_tests",
    "new_skips",
    "disabled_lint",
    "new_todos",
    "debug_artifacts",
];

/// The receipt's notes on configuration files of the change that do not parse, so a
/// suppression written in one (`disabled_lint` on), or a skip in an Xcode test plan
/// (`new_skips` on), is never passed in silence.
pub fn unparsable_configs(deltas: &[FileDelta], cfg: &GuardsConfig) -> Vec<unread::SkippedFile> {
    let all: Vec<&FileDelta> = deltas.iter().collect();
    let mut out = if cfg.disabled_lint == Level::Off {
        Vec::new()
    } else {
        unread::unparsable_notes(config_lint::unparsable(&all), &cfg.exclude)
    };
    // A test plan is read for the tests it skips (`new_skips`).
    if cfg.new_skips != Level::Off {
        out.extend(unread::unparsable_plan_notes(
            xctest_plans::unparsable(&all),
            &cfg.exclude,
        ));
    }
    out
}

/// The receipt's notes on coverage exclusion patterns the guards could not read (see
/// [`coverage_pragmas`]), so a pragma one of them defines is never passed in silence
/// (`disabled_lint` on).
pub fn unread_coverage_patterns(
    deltas: &[FileDelta],
    cfg: &GuardsConfig,
    near: &Near,
) -> Vec<unread::SkippedFile> {
    if cfg.disabled_lint == Level::Off {
        return Vec::new();
    }
    let visible = without_excluded(deltas, &PathSet::new(&cfg.exclude));
    let visible: Vec<&FileDelta> = visible.iter().map(|d| d.as_ref()).collect();
    repository_pragmas(&visible, near)
        .invalid
        .into_iter()
        .map(|(path, pattern)| unread::SkippedFile {
            note: format!(
                "{} (`{pattern}`)",
                unread::note(unread::Unread::UnreadPattern, unread::Side::Now, 0)
            ),
            path,
            why: unread::Unread::UnreadPattern,
            side: unread::Side::Now,
        })
        .collect()
}

/// The guards computed from deltas (every guard but `write_escape`, which comes from the
/// sandbox snapshot comparison), in a stable order: [`DELTA_GUARDS`].
///
/// `exclude` hides paths from every guard but `config_edits`: the gate's own files are
/// never exempt, or an agent could exclude them in the very file it edits.
pub fn run_guards(deltas: &[FileDelta], cfg: &GuardsConfig) -> Vec<GuardReport> {
    run_guards_near(deltas, cfg, &|_| Vec::new())
}

/// [`run_guards`], with `near(dirs)` giving the files of those directories as they are now
/// (`(path, text)`, text files only), read on demand: a test removed from one file may
/// still be in an unchanged neighbour.
pub fn run_guards_near(deltas: &[FileDelta], cfg: &GuardsConfig, near: &Near) -> Vec<GuardReport> {
    let on = |level: Level| level != Level::Off;
    let tests = TestPaths::new(&cfg.test_globs);
    let all: Vec<&FileDelta> = deltas.iter().collect();
    let visible = without_excluded(deltas, &PathSet::new(&cfg.exclude));
    let visible: Vec<&FileDelta> = visible.iter().map(|d| d.as_ref()).collect();

    let config = if on(cfg.config_edits) {
        protected::config_edits(&all, &protected::gate_files())
    } else {
        Vec::new()
    };
    let protect = if on(cfg.protected_edits) {
        protected::protected_edits(&visible, &PathSet::new(&cfg.protect))
    } else {
        Vec::new()
    };

    let want_counts = on(cfg.deleted_tests) || on(cfg.new_skips);
    let enabled = scan::Enabled {
        skips: on(cfg.new_skips),
        lint: on(cfg.disabled_lint),
        todos: on(cfg.new_todos),
        debug: on(cfg.debug_artifacts),
    };
    let builtin_tests = TestPaths::default();
    let plain = TestMacros::new(&cfg.test_macros);
    let imported = if want_counts {
        jvm_imports(&visible, &tests, near)
    } else {
        Vec::new()
    };
    let macros = plain.clone().with_jvm_tests(jvm_tests::declared_tests(
        visible
            .iter()
            .flat_map(|d| {
                let lang = Lang::from_path(&d.path);
                [d.old_text.as_deref(), d.new_text.as_deref()]
                    .into_iter()
                    .filter_map(move |t| Some((lang?, t?)))
            })
            .chain(
                imported
                    .iter()
                    .filter_map(|(path, text)| Some((Lang::from_path(path)?, text.as_str()))),
            ),
    ));
    let recounted: Vec<Option<FileDelta>> = if want_counts && macros.has_jvm_tests() {
        visible
            .iter()
            .map(|d| jvm_recount(d, &macros, &builtin_tests))
            .collect()
    } else {
        Vec::new()
    };
    let visible: Vec<&FileDelta> = visible
        .iter()
        .enumerate()
        .map(|(i, d)| recounted.get(i).and_then(Option::as_ref).unwrap_or(d))
        .collect();
    let mut added = scan::Marks::default();
    let mut new_counts: Vec<Option<TestCounts>> = Vec::with_capacity(visible.len());
    let mut rises = Vec::new();
    let packages = if enabled.skips {
        skip_helpers::go_packages(
            visible
                .iter()
                .filter_map(|d| Some((d.path.as_str(), d.new_text.as_deref()?))),
        )
    } else {
        Default::default()
    };
    let change_helpers = if enabled.skips {
        skip_helpers::in_change(visible.iter().filter_map(|d| {
            Some((
                d.path.as_str(),
                d.new_text.as_deref()?,
                tests.is_test(&d.path),
            ))
        }))
    } else {
        Vec::new()
    };
    // pytest skip marks applied by name, on each side of each file.
    let aliases = if enabled.skips {
        mark_aliases::for_change(&visible, &|p| tests.is_test(p), near)
    } else {
        Default::default()
    };
    // Coverage pragmas the repository defines, read when a Python line of the change
    // writes or removes a pragma.
    let coverage = if enabled.lint {
        repository_pragmas(&visible, near)
    } else {
        Default::default()
    };
    // What RuboCop's configuration excluded, read when a line of the change disables a cop.
    let rubocop = if enabled.lint {
        rubocop_exclusions(&visible, near)
    } else {
        Default::default()
    };
    // Skip lines the diff kept over a declaration that changed (see [`kept_skips`]): the
    // removed and the added side of each file.
    let kept: Vec<(Vec<Line>, Vec<Line>)> = visible
        .iter()
        .map(|d| {
            if enabled.skips {
                kept_skips::reanchored(d)
            } else {
                Default::default()
            }
        })
        .collect();
    // One pass per file: lex it once, count its tests, collect the markers on its added
    // lines.
    for (i, d) in visible.iter().enumerate() {
        let lang = Lang::from_path(&d.path);
        let gone = matches!(d.kind, DeltaKind::Deleted);
        let mut lexed = None;
        let mut new = None;
        if let (Some(lang), Some(text), Some(_)) = (lang, &d.new_text, d.old_counts) {
            if want_counts && !gone {
                let views = lexer::lex(&lang.syntax(), text, usize::MAX);
                // Both sides of a file are counted with the same names: one whose old text
                // is not at hand (dirty at baseline time) keeps its recorded count.
                let same = if d.old_text.is_some() {
                    &macros
                } else {
                    &plain
                };
                new = Some(tests_count::count_views(
                    lang,
                    &views,
                    text,
                    builtin_tests.is_test(&d.path),
                    same,
                ));
                lexed = Some(views);
            }
        }
        new_counts.push(new);
        if let (Some(lang), true, false) = (lang, enabled.any(), gone) {
            let test_rise = d
                .old_counts
                .zip(new)
                .map(|(old, new)| new.tests.saturating_sub(old.tests));
            let side = scan::FileLines {
                file: i,
                path: &d.path,
                lines: &d.added_lines,
                text: d.new_text.as_deref(),
                test_rise,
                removed: &d.removed_lines,
                shared_helpers: packages
                    .get(skip_helpers::package_of(&d.path))
                    .map_or(&[], Vec::as_slice),
                change_helpers: &change_helpers,
                mark_aliases: aliases.0.get(i).map_or(&[], Vec::as_slice),
                coverage: &coverage,
            };
            let skips_added = scan::scan(
                &side,
                lang,
                tests.is_test(&d.path),
                enabled,
                lexed,
                &mut added,
            );
            if enabled.skips {
                rises.extend(skip_count_rise(
                    d,
                    new,
                    skips_added,
                    builtin_tests.is_test(&d.path),
                ));
                if !kept[i].1.is_empty() {
                    let side = scan::FileLines {
                        lines: &kept[i].1,
                        test_rise: None,
                        ..side
                    };
                    scan::scan(
                        &side,
                        lang,
                        tests.is_test(&d.path),
                        scan::Enabled::SKIPS_ONLY,
                        None,
                        &mut added,
                    );
                }
            }
        }
    }
    let mut markers = account::marker_findings(
        &visible,
        &added,
        &kept,
        enabled,
        &tests,
        &new_counts,
        account::OldSide {
            aliases: &aliases.1,
            coverage: &coverage,
            rubocop: &rubocop,
        },
    );
    markers.skips.extend(rises);
    if enabled.skips {
        markers.skips.extend(go_build::findings(&visible));
        markers.skips.extend(xctest_plans::findings(&visible));
        markers.skips.extend(cmake_tests::findings(&visible));
        drop_framework_self_tests(&mut markers.skips, &added.skips, &visible, near);
    }
    if enabled.lint {
        markers.lint.extend(config_lint::findings(&visible));
        drop_lint_excluded(&mut markers.lint, &visible, near);
    }
    let deleted = if on(cfg.deleted_tests) {
        deleted::deleted_tests(&visible, &new_counts, &tests, &macros, near)
    } else {
        Vec::new()
    };

    let report = |name: &str, level: Level, findings: Vec<Finding>| {
        GuardReport::from_findings(name, level, sorted(findings))
    };
    vec![
        report("config_edits", cfg.config_edits, config),
        report("protected_edits", cfg.protected_edits, protect),
        report("deleted_tests", cfg.deleted_tests, deleted),
        report("new_skips", cfg.new_skips, markers.skips),
        report("disabled_lint", cfg.disabled_lint, markers.lint),
        report("new_todos", cfg.new_todos, markers.todos),
        report("debug_artifacts", cfg.debug_artifacts, markers.debug),
    ]
}

/// Skips found in a copy of the test framework that defines them are the framework's own
/// tests of its markers (see [`framework_fixtures::framework_copies`]): the defining header
/// is looked for in the change and, through `near`, in the directories above each file
/// that holds such a marker.
fn drop_framework_self_tests(
    skips: &mut Vec<Finding>,
    added: &[scan::Mark],
    visible: &[&FileDelta],
    near: &Near,
) {
    let mut labels = std::collections::BTreeSet::new();
    let mut dirs = std::collections::BTreeSet::new();
    for m in added {
        let found = framework_fixtures::header_dirs(&visible[m.file].path, &m.label);
        if !found.is_empty() {
            labels.insert(m.label.as_str());
            dirs.extend(found);
        }
    }
    if dirs.is_empty() {
        return;
    }
    let dirs: Vec<String> = dirs.into_iter().collect();
    let dir_of = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    let mut files: Vec<(String, String)> = visible
        .iter()
        .filter(|d| dirs.contains(&dir_of(&d.path)))
        .filter_map(|d| Some((d.path.clone(), d.new_text.clone()?)))
        .collect();
    files.extend(near(&dirs));
    let roots: Vec<String> = labels
        .into_iter()
        .flat_map(|label| {
            framework_fixtures::framework_copies(
                files.iter().map(|(p, t)| (p.as_str(), t.as_str())),
                label,
            )
        })
        .collect();
    if !roots.is_empty() {
        skips.retain(|f| !framework_fixtures::in_copy(&f.path, &roots));
    }
}

/// The coverage pragmas configured at the repository root as it is now (see
/// [`coverage_pragmas`]): a configuration file of the change is read from the change, the
/// others through `near`, and only when a Python line added or removed holds `pragma`.
fn repository_pragmas(deltas: &[&FileDelta], near: &Near) -> coverage_pragmas::CoveragePragmas {
    let pragma = |lines: &[Line]| lines.iter().any(|l| l.text.contains("pragma"));
    let wanted = deltas.iter().any(|d| {
        Lang::from_path(&d.path) == Some(Lang::Python)
            && (pragma(&d.added_lines) || pragma(&d.removed_lines))
    });
    if !wanted {
        return Default::default();
    }
    let in_change = |p: &str| deltas.iter().find(|d| d.path == p);
    let mut files: Vec<(String, String)> = Vec::new();
    let mut unchanged = false;
    for name in coverage_pragmas::CONFIG_FILES {
        match in_change(name) {
            Some(d) => files.extend(d.new_text.clone().map(|t| (name.to_string(), t))),
            None => unchanged = true,
        }
    }
    if unchanged {
        let root = near(&[String::new()]);
        files.extend(root.into_iter().filter(|(p, _)| {
            coverage_pragmas::CONFIG_FILES.contains(&p.as_str()) && in_change(p).is_none()
        }));
    }
    coverage_pragmas::CoveragePragmas::read(files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
}

/// Inline suppressions in files the repository keeps out of its linting (see
/// [`lint_excluded`]), before and after the change, are dropped. The configuration is read
/// only when such a finding is on a line of a source file: a file of the change from its
/// two sides, the others at the root through `near` (unchanged, so the same on both).
fn drop_lint_excluded(findings: &mut Vec<Finding>, deltas: &[&FileDelta], near: &Near) {
    let inline = |f: &Finding| f.line.is_some() && Lang::from_path(&f.path).is_some();
    if !findings.iter().any(inline) {
        return;
    }
    let is_config = |p: &str| lint_excluded::CONFIG_FILES.contains(&p);
    let mut before: Vec<(String, String)> = Vec::new();
    let mut after: Vec<(String, String)> = Vec::new();
    for d in deltas.iter().filter(|d| is_config(&d.path)) {
        before.extend(d.old_text.clone().map(|t| (d.path.clone(), t)));
        after.extend(d.new_text.clone().map(|t| (d.path.clone(), t)));
    }
    let in_change = |p: &str| deltas.iter().any(|d| d.path == p);
    let root: Vec<(String, String)> = near(&[String::new()])
        .into_iter()
        .filter(|(p, _)| is_config(p) && !in_change(p))
        .collect();
    before.extend(root.iter().cloned());
    after.extend(root);
    let read = |files: &[(String, String)]| {
        lint_excluded::Excluded::read(files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
    };
    let (before, after) = (read(&before), read(&after));
    if before.is_empty() || after.is_empty() {
        return;
    }
    findings.retain(|f| {
        !inline(f) || !lint_excluded::excluded_throughout(&before, &after, &f.path, &f.snippet)
    });
}

/// What the RuboCop configuration excluded at the comparison point (see
/// [`rubocop_excluded`]): a configuration file of the change as it was, the others at the
/// repository root through `near` (unchanged, so as they were), read only when a line the
/// change adds disables a cop inline.
fn rubocop_exclusions(deltas: &[&FileDelta], near: &Near) -> rubocop_excluded::Excluded {
    let wanted = deltas.iter().any(|d| {
        d.added_lines
            .iter()
            .any(|l| l.text.contains("rubocop:disable") || l.text.contains("rubocop:todo"))
    });
    if !wanted {
        return Default::default();
    }
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let old_path = |d: &FileDelta| match &d.kind {
        DeltaKind::Renamed { from } => from.clone(),
        _ => d.path.clone(),
    };
    let mut files: Vec<(String, String)> = deltas
        .iter()
        .filter(|d| rubocop_excluded::is_config(&name(&old_path(d))))
        .filter_map(|d| Some((old_path(d), d.old_text.clone()?)))
        .collect();
    let in_change = |p: &str| deltas.iter().any(|d| d.path == p || old_path(d) == p);
    files.extend(
        near(&[String::new()])
            .into_iter()
            .filter(|(p, _)| rubocop_excluded::is_config(&name(p)) && !in_change(p)),
    );
    rubocop_excluded::Excluded::read(files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
}

/// The files the change's JVM test files import annotations from (see
/// [`jvm_tests::imported_from`]), as they are now, read through `near` only when some
/// import may name a file of the repository.
fn jvm_imports(deltas: &[&FileDelta], tests: &TestPaths, near: &Near) -> Vec<(String, String)> {
    let mut wanted: std::collections::BTreeSet<String> = Default::default();
    for d in deltas.iter().filter(|d| tests.is_counted(&d.path)) {
        if !matches!(Lang::from_path(&d.path), Some(Lang::Java | Lang::Kotlin)) {
            continue;
        }
        for text in [&d.old_text, &d.new_text].into_iter().flatten() {
            wanted.extend(jvm_tests::imported_from(&d.path, text));
        }
    }
    if wanted.is_empty() {
        return Vec::new();
    }
    let dirs: std::collections::BTreeSet<String> = wanted
        .iter()
        .filter_map(|p| p.rsplit_once('/').map(|(dir, _)| dir.to_string()))
        .collect();
    let mut found = near(&dirs.into_iter().collect::<Vec<_>>());
    found.retain(|(path, _)| {
        path.rsplit_once('.')
            .is_some_and(|(stem, ext)| matches!(ext, "java" | "kt") && wanted.contains(stem))
    });
    found
}

/// A JVM file's count at the comparison point, recounted with the test annotations the
/// change declares (`macros`), when its old text is at hand; `None` when nothing changes.
fn jvm_recount(d: &FileDelta, macros: &TestMacros, builtin: &TestPaths) -> Option<FileDelta> {
    let lang = Lang::from_path(&d.path).filter(|l| matches!(l, Lang::Java | Lang::Kotlin))?;
    let (old, text) = (d.old_counts?, d.old_text.as_deref()?);
    let old_path = match &d.kind {
        DeltaKind::Renamed { from } => from.as_str(),
        _ => d.path.as_str(),
    };
    let tests = tests_count::count_with(lang, text, builtin.is_test(old_path), macros).tests;
    (tests != old.tests).then(|| FileDelta {
        old_counts: Some(TestCounts { tests, ..old }),
        ..d.clone()
    })
}

/// The per-file skip count rose by more than the markers found on added lines: a skip
/// came in some other way (an edit to a line that was already dirty at baseline time).
/// Calls left as they were to a function that only now skips are not counted (see
/// [`not_lowered::unchanged_calls_of_turned_helpers`]).
fn skip_count_rise(
    d: &FileDelta,
    new: Option<TestCounts>,
    added_markers: u32,
    is_test: bool,
) -> Option<Finding> {
    let (old, new) = (d.old_counts?, new?);
    if new.skips <= old.skips.saturating_add(added_markers) {
        return None;
    }
    let turned = match (Lang::from_path(&d.path), &d.old_text, &d.new_text) {
        (Some(lang), Some(before), Some(now)) => not_lowered::unchanged_calls_of_turned_helpers(
            lang,
            before,
            now,
            &d.added_lines,
            is_test,
        ),
        _ => 0,
    };
    (new.skips.saturating_sub(turned) > old.skips.saturating_add(added_markers)).then(|| Finding {
        path: d.path.clone(),
        line: None,
        snippet: format!("{}: skips {} -> {}", d.shown_path(), old.skips, new.skips),
        message: format!(
            "skip markers in `{}` rose from {} to {}: remove the new skips and make the tests pass",
            d.shown_path(),
            old.skips,
            new.skips
        ),
    })
}

/// Stable order for receipts: by path, then line (file-level findings first).
fn sorted(mut findings: Vec<Finding>) -> Vec<Finding> {
    findings.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
    findings
}

/// Drop deltas on excluded paths. A rename across the boundary is what it looks like
/// from inside: leaving the excluded area is a new file, entering it is a deletion.
fn without_excluded<'a>(deltas: &'a [FileDelta], exclude: &PathSet) -> Vec<Cow<'a, FileDelta>> {
    if exclude.patterns.is_empty() {
        return deltas.iter().map(Cow::Borrowed).collect();
    }
    let mut out = Vec::with_capacity(deltas.len());
    for d in deltas {
        let new_hidden = exclude.is_match(&d.path);
        match &d.kind {
            DeltaKind::Renamed { from } => match (exclude.is_match(from), new_hidden) {
                (true, true) => {}
                (false, false) => out.push(Cow::Borrowed(d)),
                (false, true) => out.push(Cow::Owned(FileDelta {
                    path: from.clone(),
                    kind: DeltaKind::Deleted,
                    added_lines: Vec::new(),
                    // Its lines still exist, hidden: nothing they held may cover an
                    // addition elsewhere.
                    removed_lines: Vec::new(),
                    old_counts: d.old_counts,
                    old_text: d.old_text.clone(),
                    new_text: None,
                })),
                (true, false) => out.push(Cow::Owned(FileDelta {
                    kind: DeltaKind::Added,
                    removed_lines: Vec::new(),
                    old_counts: None,
                    old_text: None,
                    ..d.clone()
                })),
            },
            _ if new_hidden => {}
            _ => out.push(Cow::Borrowed(d)),
        }
    }
    out
}

/// Tests and skip markers in one file, by language from its path. Files of no known
/// language have none. Skip markers that only mean "skip" inside tests (Ruby `skip`,
/// Go `t.Skip`) are counted when the path is a test path by the built-in globs.
pub fn count_tests(path: &str, text: &str) -> TestCounts {
    count_tests_with(path, text, &TestMacros::default())
}

/// [`count_tests`] with the Rust test macros in effect (`[guards] test_macros`): both
/// sides of a comparison must be counted with the same list.
pub fn count_tests_with(path: &str, text: &str, macros: &TestMacros) -> TestCounts {
    match Lang::from_path(path) {
        Some(lang) => {
            tests_count::count_with(lang, text, TestPaths::default().is_test(path), macros)
        }
        None => TestCounts::default(),
    }
}

/// Whether `path` is a test file by the built-in per-language globs or `extra` globs
/// (gitignore style). To ask about many paths, build a [`TestPaths`] once instead.
pub fn is_test_path(path: &str, extra: &[String]) -> bool {
    TestPaths::new(extra).is_test(path)
}

/// Whether `deleted_tests` compares the test count of `path`: every test path, plus every
/// Rust file (inline `#[cfg(test)]` tests). The edge should record `old_counts` for
/// exactly these paths.
pub fn is_counted_path(path: &str, extra: &[String]) -> bool {
    TestPaths::new(extra).is_counted(path)
}
