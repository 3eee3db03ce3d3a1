//! One pass over the added lines of a file, feeding every marker guard (skips, lint
//! suppressions, TODOs, debugging leftovers) from a single lexing of the file.

use super::languages::Lang;
use super::lexer::{lex, lex_line, LineView};
use super::line::LineCtx;
use super::{
    banners, dead_return, debug, file_return, gated_return, js_announced_exit, junit_port, lint,
    miri_gates, output_modules, print_helpers, print_probes, skip_helpers, skips, stand_in_prints,
    todos, type_assertions, Finding, Line,
};
use std::collections::HashSet;

/// The guards fed by markers on lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Skips,
    Lint,
    Todos,
    Debug,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Skips, Kind::Lint, Kind::Todos, Kind::Debug];

    /// What a count of these markers is called in a finding.
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Skips => "skips",
            Kind::Lint => "suppressions",
            Kind::Todos => "unfinished-work markers",
            Kind::Debug => "debugging leftovers",
        }
    }

    /// Why a new marker of this kind is a finding, and what to do about it.
    pub fn message(self, labels: &[String]) -> &'static str {
        match self {
            Kind::Skips if labels.iter().any(|l| skips::is_focus(l)) => "a focus marker was added: it runs only these tests and silently skips all the others; remove it",
            Kind::Skips if labels.iter().any(|l| l == dead_return::LABEL) => "a bare `return` was added in front of more code of its block: the rest of the test never runs, which skips its checks without saying so; remove the `return` and make the test pass",
            Kind::Skips if labels.iter().any(|l| l == file_return::LABEL) => "a test file now returns at its top level: whenever it does, none of the tests below it are defined, so they neither run nor show as skipped; remove the `return` (skip the tests with the runner's own skip and a reason if they cannot run there)",
            Kind::Skips if labels.iter().any(|l| l == gated_return::LABEL) => "a test now returns early under a condition, before the rest of its checks: when the condition holds it passes having checked nothing, a skip the test report does not show; make the test fail when what it needs is missing instead",
            Kind::Skips if labels.iter().any(|l| skip_helpers::is_helper_label(l)) => "a call to a helper that skips the running test (its body skips or assumes) was added: remove it and make the test pass instead of skipping it",
            Kind::Skips => "a test skip marker was added: remove it and make the test pass instead of skipping it",
            Kind::Lint => "a lint or type-check suppression was added: fix the reported problem instead of silencing it",
            Kind::Todos => "an unfinished-work marker was added: finish the work now or remove the marker",
            Kind::Debug => "a debugging leftover was added: remove it",
        }
    }

    fn find(self, cx: &LineCtx, role: FileRole) -> Vec<String> {
        match self {
            Kind::Skips => skips::find(cx),
            Kind::Lint => lint::find(cx, role.type_test),
            Kind::Todos => todos::find(cx),
            // A type test is only type-checked: what it would print never runs. A test of a
            // CLI or a logger keeps the rules of tests.
            Kind::Debug => debug::find(cx, role.prints_for(cx.is_test)),
        }
    }
}

/// What a file's path (and first line) says about how its markers read.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileRole {
    /// Printing is what the file is for (see [`debug::prints_are_output`]).
    pub prints_are_output: bool,
    /// A type-test file, where `@ts-expect-error` asserts (see [`lint::is_type_test`]).
    pub type_test: bool,
    /// A command-line interface's or a logger's module (see
    /// [`output_modules::prints_for_a_living`]).
    pub output_module: bool,
}

impl FileRole {
    /// Whether what the file prints is its output, not a leftover: a file whose role is to
    /// print, a type test (only type-checked: its prints never run), or a CLI's or a
    /// logger's module outside tests (a test of the CLI keeps the rules of tests).
    pub fn prints_for(&self, is_test: bool) -> bool {
        self.prints_are_output || self.type_test || (self.output_module && !is_test)
    }

    pub fn of(path: &str, text: Option<&str>) -> Self {
        FileRole {
            prints_are_output: debug::prints_are_output(path, text),
            type_test: lint::is_type_test(path),
            output_module: output_modules::prints_for_a_living(path),
        }
    }
}

/// Which marker guards are on.
#[derive(Debug, Clone, Copy, Default)]
pub struct Enabled {
    pub skips: bool,
    pub lint: bool,
    pub todos: bool,
    pub debug: bool,
}

impl Enabled {
    /// Skips alone: skip lines read again to pair them (kept lines, a file's old side).
    pub const SKIPS_ONLY: Enabled = Enabled {
        skips: true,
        lint: false,
        todos: false,
        debug: false,
    };

    pub fn any(self) -> bool {
        self.skips || self.lint || self.todos || self.debug
    }

    pub fn has(self, kind: Kind) -> bool {
        match kind {
            Kind::Skips => self.skips,
            Kind::Lint => self.lint,
            Kind::Todos => self.todos,
            Kind::Debug => self.debug,
        }
    }
}

/// One marker on one added or removed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark<'a> {
    /// Index of the file's delta.
    pub file: usize,
    /// Numbered in the new text (added lines) or the old text (removed lines).
    pub line: u32,
    pub label: String,
    /// The whole line it is on.
    pub text: &'a str,
    /// For a skip on a line of its own (`@pytest.mark.skip`, `#[ignore]`, `[Ignore]`): the
    /// next non-blank line, the test it skips. A skip moved to another test is not the
    /// same skip.
    pub anchor: Option<&'a str>,
    /// For any other marker on a line without code of its own (`// eslint-disable-next-line`,
    /// `#[allow(x)]`, `// TODO`): the next non-blank line, the code it sits over. Among
    /// identical markers, the one that moved is the one that kept its code.
    pub next: Option<&'a str>,
}

/// Markers found on lines, per guard.
#[derive(Debug, Default)]
pub struct Marks<'a> {
    pub skips: Vec<Mark<'a>>,
    pub lint: Vec<Mark<'a>>,
    pub todos: Vec<Mark<'a>>,
    pub debug: Vec<Mark<'a>>,
}

impl<'a> Marks<'a> {
    pub fn of(&self, kind: Kind) -> &[Mark<'a>] {
        match kind {
            Kind::Skips => &self.skips,
            Kind::Lint => &self.lint,
            Kind::Todos => &self.todos,
            Kind::Debug => &self.debug,
        }
    }

    fn of_mut(&mut self, kind: Kind) -> &mut Vec<Mark<'a>> {
        match kind {
            Kind::Skips => &mut self.skips,
            Kind::Lint => &mut self.lint,
            Kind::Todos => &mut self.todos,
            Kind::Debug => &mut self.debug,
        }
    }
}

#[derive(Debug, Default)]
pub struct MarkerFindings {
    pub skips: Vec<Finding>,
    pub lint: Vec<Finding>,
    pub todos: Vec<Finding>,
    pub debug: Vec<Finding>,
}

impl MarkerFindings {
    pub fn of_mut(&mut self, kind: Kind) -> &mut Vec<Finding> {
        match kind {
            Kind::Skips => &mut self.skips,
            Kind::Lint => &mut self.lint,
            Kind::Todos => &mut self.todos,
            Kind::Debug => &mut self.debug,
        }
    }
}

pub const SNIPPET_MAX_CHARS: usize = 200;

/// The trimmed line, cut to a bounded length on a character boundary.
pub fn snippet(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(SNIPPET_MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &t[..cut]),
        None => t.to_string(),
    }
}

pub fn labels(found: &[String]) -> String {
    found
        .iter()
        .map(|l| format!("`{l}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn strip_cr(s: &str) -> &str {
    s.strip_suffix('\r').unwrap_or(s)
}

/// The lexed view of each line: from the whole file when its text is there (so a line
/// inside a block comment or a multi-line string is seen as such), else alone. `lexed` is
/// the file already lexed by the caller (whole), if it was.
pub fn views<'l>(
    lines: &'l [Line],
    text: Option<&str>,
    lang: Lang,
    lexed: Option<Vec<LineView>>,
) -> Vec<(&'l Line, LineView)> {
    let syntax = lang.syntax();
    let max = lines.iter().map(|l| l.number as usize).max().unwrap_or(0);
    let (raw, lexed): (Vec<&str>, Vec<LineView>) = match text {
        Some(text) if max > 0 => (
            text.split('\n').take(max).collect(),
            lexed.unwrap_or_else(|| lex(&syntax, text, max)),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let mut lexed: Vec<Option<LineView>> = lexed.into_iter().map(Some).collect();
    lines
        .iter()
        .map(|line| {
            let at = (line.number as usize).checked_sub(1);
            let same = at
                .and_then(|i| raw.get(i))
                .is_some_and(|r| strip_cr(r) == strip_cr(&line.text));
            let view = at
                .filter(|_| same)
                .and_then(|i| lexed.get_mut(i).and_then(Option::take))
                .unwrap_or_else(|| lex_line(&syntax, &line.text));
            (line, view)
        })
        .collect()
}

/// The lines of one file the marker scan reads: the added lines with the file's current
/// text, or the removed lines with its text at the comparison point.
pub struct FileLines<'a, 'p> {
    /// Index of the file's delta.
    pub file: usize,
    pub path: &'p str,
    pub lines: &'a [Line],
    pub text: Option<&'a str>,
    /// How many more tests the file holds than at the comparison point, when both counts
    /// are known (added side only; see [`junit_port`]).
    pub test_rise: Option<u32>,
    /// The lines removed from the file (added side only; see [`junit_port`]).
    pub removed: &'a [Line],
    /// The skip helpers of the file's Go package in the change (see
    /// [`skip_helpers::go_packages`]); empty for other languages.
    pub shared_helpers: &'p [String],
    /// The skip helpers of the change's test files on this side (see
    /// [`skip_helpers::in_change`]).
    pub change_helpers: &'p [skip_helpers::Declaring],
    /// The pytest skip marks the file applies by name on this side (see
    /// [`super::mark_aliases`]).
    pub mark_aliases: &'p [super::mark_aliases::Alias],
    /// The coverage pragmas the repository configures (see [`super::coverage_pragmas`]).
    pub coverage: &'p super::coverage_pragmas::CoveragePragmas,
}

/// Collect the markers of the enabled guards on `f`'s lines. Returns how many skip markers
/// were found.
pub fn scan<'a>(
    f: &FileLines<'a, '_>,
    lang: Lang,
    is_test: bool,
    on: Enabled,
    lexed: Option<Vec<LineView>>,
    out: &mut Marks<'a>,
) -> u32 {
    let mut skip_markers = 0u32;
    let mut all_lines: Option<Vec<&'a str>> = None;
    // Skips that come with a JUnit 3 to 4 port of a test that did not run before.
    let mut ported: Vec<Mark<'a>> = Vec::new();
    let mut added_numbers: Option<HashSet<u32>> = None;
    let mut removed_text: Option<Vec<&'a str>> = None;
    let role = FileRole::of(f.path, f.text);
    // Lines inside a suppression's list opened on an earlier line (see
    // [`lint::open_lists`]), read once the first added line needs it.
    let mut lists: Option<Vec<Option<&'static str>>> = None;
    // The names applied in multi-line lists of pytest marks (see [`super::mark_aliases`]).
    let mut listed: Option<Vec<Vec<String>>> = None;
    let helpers = if on.skips {
        skip_helpers::for_file(
            lang,
            f.path,
            f.text,
            lexed.as_deref(),
            is_test,
            f.shared_helpers,
            f.change_helpers,
        )
    } else {
        Vec::new()
    };
    // The whole file lexed, when `lexed` was not given and a reader needs it: the JS
    // options below, or what follows an added line (see [`dead_return`]). Lexed once.
    let mut whole: Option<Vec<LineView>> = None;
    let options_off = match (on.skips && lang == Lang::Js, &lexed, f.text) {
        (false, _, _) => Vec::new(),
        (true, Some(views), _) => skips::js_options_off(lang, views),
        (true, None, Some(text)) if skips::may_declare_options(text) => {
            skips::js_options_off(lang, whole.insert(lex(&lang.syntax(), text, usize::MAX)))
        }
        (true, None, _) => Vec::new(),
    };
    let lint_test = on.lint && super::lint_tests::asserts_lints(lang, is_test, f.text);
    for (line, view) in views(f.lines, f.text, lang, lexed) {
        if view.code.trim().is_empty() && view.comments.is_empty() {
            continue;
        }
        let mut cx = LineCtx::new(lang, &view, is_test);
        cx.skip_helpers = &helpers;
        cx.raw = &line.text;
        cx.options_off = &options_off;
        cx.mark_aliases = f.mark_aliases;
        cx.coverage = f.coverage;
        for kind in Kind::ALL.into_iter().filter(|k| on.has(*k)) {
            let mut found = kind.find(&cx, role);
            if kind == Kind::Lint && lint_test {
                super::lint_tests::drop_expectations(&mut found);
            }
            if kind == Kind::Lint && may_assert(lang, is_test, &view, &found) {
                let whole = whole.get_or_insert_with(|| {
                    f.text
                        .map(|t| lex(&lang.syntax(), t, usize::MAX))
                        .unwrap_or_default()
                });
                let at = (line.number as usize).saturating_sub(1);
                drop_type_assertion(whole, at, &mut found);
            }
            if kind == Kind::Skips && is_test && view.code.trim_start().starts_with("return") {
                let whole = whole.get_or_insert_with(|| {
                    f.text
                        .map(|t| lex(&lang.syntax(), t, usize::MAX))
                        .unwrap_or_default()
                });
                let at = (line.number as usize).saturating_sub(1);
                if dead_return::leaves_dead_code(lang, whole, at) {
                    found.push(dead_return::LABEL.to_string());
                } else if file_return::ends_file_early(lang, whole, at) {
                    found.push(file_return::LABEL.to_string());
                }
            }
            let opens_guard = |c: &str| c.starts_with("let ") || c.starts_with("if ");
            let miri = lang == Lang::Rust && mentions_miri(&view);
            if kind == Kind::Skips
                && (lang == Lang::Rust || (lang == Lang::Python && is_test))
                && (miri || opens_guard(view.code.trim_start()))
            {
                let whole = whole.get_or_insert_with(|| {
                    f.text
                        .map(|t| lex(&lang.syntax(), t, usize::MAX))
                        .unwrap_or_default()
                });
                let at = (line.number as usize).saturating_sub(1);
                // A Miri gate is read as one; any other guarded exit as a gated return.
                if miri {
                    if miri_gates::cfg_off_under_miri(whole, at) {
                        found.push(miri_gates::CFG_LABEL.to_string());
                    } else if miri_gates::returns_under_miri(whole, at, is_test) {
                        found.push(miri_gates::RETURN_LABEL.to_string());
                    }
                } else if gated_return::skips_rest(lang, whole, at) {
                    found.push(gated_return::LABEL.to_string());
                }
            }
            if kind == Kind::Skips
                && lang == Lang::Rust
                && found.is_empty()
                && view.code.trim_start().starts_with("#[")
            {
                // An attribute wrapped over lines is read whole (see [`super::cfg_ignore`]).
                let all = all_lines.get_or_insert_with(|| {
                    f.text.map(|t| t.split('\n').collect()).unwrap_or_default()
                });
                let at = (line.number as usize).saturating_sub(1);
                if let Some(joined) = super::cfg_ignore::joined(all, at) {
                    let view = lex_line(&lang.syntax(), &joined);
                    found = skips::find(&LineCtx::new(lang, &view, is_test));
                }
            }
            if kind == Kind::Skips
                && lang == Lang::Js
                && is_test
                && found.is_empty()
                && js_announced_exit::says_skip(&line.text)
            {
                let whole = whole.get_or_insert_with(|| {
                    f.text
                        .map(|t| lex(&lang.syntax(), t, usize::MAX))
                        .unwrap_or_default()
                });
                let at = (line.number as usize).saturating_sub(1);
                if js_announced_exit::skips_rest(whole, at, &line.text) {
                    found.push(js_announced_exit::LABEL.to_string());
                }
            }
            if kind == Kind::Skips && lang == Lang::Python && is_test && !f.mark_aliases.is_empty()
            {
                // An alias on a line of its own inside a list of marks opened above.
                let listed = listed.get_or_insert_with(|| {
                    f.text.map(super::mark_aliases::listed).unwrap_or_default()
                });
                let at = (line.number as usize).saturating_sub(1);
                if let Some(names) = listed.get(at) {
                    super::mark_aliases::listed_uses(names, f.mark_aliases, &mut found);
                }
            }
            if kind == Kind::Lint && found.is_empty() {
                let lists = lists.get_or_insert_with(|| {
                    f.text
                        .map(|t| lint::open_lists(lang, t))
                        .unwrap_or_default()
                });
                let inside = (line.number as usize)
                    .checked_sub(1)
                    .and_then(|i| lists.get(i).copied().flatten());
                if let Some(label) = inside {
                    if !lint::list_entries(&line.text).is_empty() {
                        found.push(label.to_string());
                    }
                }
            }
            if kind == Kind::Debug && found.is_empty() && !role.prints_for(is_test) {
                if let Some(ch) = cx.chains.iter().find(|ch| print_probes::is_print(&cx, ch)) {
                    let all = all_lines.get_or_insert_with(|| {
                        f.text.map(|t| t.split('\n').collect()).unwrap_or_default()
                    });
                    let number = line.number as usize;
                    let print = ch.names.join(".");
                    // A print standing in for a commented-out raise, a test's banner.
                    if stand_in_prints::replaces_commented_raise(all, number)
                        || (is_test && banners::prints_a_banner(all, number, &print))
                    {
                        found.push(format!("{print}("));
                    }
                }
            }
            if kind == Kind::Debug && !found.is_empty() {
                let all = all_lines.get_or_insert_with(|| {
                    f.text.map(|t| t.split('\n').collect()).unwrap_or_default()
                });
                let number = line.number as usize;
                if debug::under_debug_gate(all, number)
                    || found
                        .iter()
                        .all(|label| debug::gated_in_line(&view.code, label))
                {
                    found.clear();
                } else if !is_test && print_helpers::prints_for_its_function(all, number) {
                    found.retain(|label| !debug::is_print_label(label));
                } else if debug::in_catch_of_throwable(all, number) {
                    found.retain(|label| label != "printStackTrace()");
                } else if is_test && lang == Lang::Js {
                    let added = added_numbers
                        .get_or_insert_with(|| f.lines.iter().map(|l| l.number).collect());
                    if debug::repeats_a_kept_line(all, added, number) {
                        found.retain(|label| !debug::is_console_dump(label));
                    }
                }
            }
            if found.is_empty() {
                continue;
            }
            let mut anchor = None;
            let mut next = None;
            let mut port = false;
            let code = view.code.trim_start();
            if kind != Kind::Skips && (code.is_empty() || code.starts_with(['@', '#'])) {
                let all = all_lines.get_or_insert_with(|| {
                    f.text.map(|t| t.split('\n').collect()).unwrap_or_default()
                });
                next = all
                    .iter()
                    .skip(line.number as usize)
                    .find(|l| !l.trim().is_empty() && !bare_annotation(l))
                    .copied();
            }
            if kind == Kind::Skips {
                skip_markers = skip_markers.saturating_add(found.len() as u32);
                let all = all_lines.get_or_insert_with(|| {
                    f.text.map(|t| t.split('\n').collect()).unwrap_or_default()
                });
                // In Python a line opening with `[` is a list (the values of a wrapped
                // `parametrize`), not an attribute over a declaration.
                let attribute = match lang {
                    Lang::Python => &['@'][..],
                    _ => &['@', '#', '['][..],
                };
                if view.code.trim_start().starts_with(attribute) {
                    anchor = declaration(&line.text, all, line.number as usize);
                } else if in_doc_block(&line.text) {
                    anchor = under_comment(all, line.number as usize);
                } else if lang == Lang::Python && applies_alias(&view, f.mark_aliases) {
                    // A mark applied by name in a wrapped decorator list goes with the test
                    // under the decorator (see [`python_decorated`]); a mark written out
                    // there keeps its text, by which it pairs wherever it went.
                    anchor = python_decorated(all, line.number as usize);
                }
                let annotation_only = matches!(lang, Lang::Java | Lang::Kotlin)
                    && found
                        .iter()
                        .all(|l| l == "@Ignore" || l.starts_with("@Disabled"));
                port = annotation_only
                    && f.test_rise.is_some_and(|r| r > 0)
                    && junit_port::disabled_test_gets_annotations(
                        all,
                        added_numbers
                            .get_or_insert_with(|| f.lines.iter().map(|l| l.number).collect()),
                        removed_text.get_or_insert_with(|| {
                            f.removed.iter().map(|l| l.text.as_str()).collect()
                        }),
                        line.number,
                    );
            }
            let marks = found.into_iter().map(|label| Mark {
                file: f.file,
                line: line.number,
                label,
                text: &line.text,
                anchor,
                next,
            });
            if port {
                ported.extend(marks);
            } else {
                out.of_mut(kind).extend(marks);
            }
        }
    }
    // Each ported test is one more test in the file; more of them than that and some skip
    // fell on a test that was already counted, so none is excused.
    let ported_tests = ported.iter().map(|m| m.line).collect::<HashSet<_>>().len();
    if ported_tests as u64 > u64::from(f.test_rise.unwrap_or(0)) {
        out.skips.append(&mut ported);
    }
    skip_markers
}

/// Whether a line names Miri at all, in its code or a comment (a doc example): only those
/// are read for a gate on it (see [`miri_gates`]).
fn mentions_miri(view: &LineView) -> bool {
    view.code.contains("miri") || view.comments.iter().any(|c| c.contains("miri"))
}

/// What a skip on an annotation or attribute line applies to: the rest of its own line
/// after the annotations (`@Ignore("x") @Test public void f()`), else the first following
/// line that is more than annotations. A reformat that puts `@Test` on a line of its own,
/// or wraps an annotation's arguments over several lines (`@Ignore(` then the reason),
/// keeps the same declaration, so the skip stays the same skip.
pub(super) fn declaration<'a>(own: &'a str, all: &[&'a str], number: usize) -> Option<&'a str> {
    // Arguments left open at the end of a line: (bracket, its closer, depth).
    let mut open: Option<(char, char, usize)> = None;
    let lines = std::iter::once(own).chain(all.iter().skip(number).copied());
    for line in lines.take(ANNOTATION_LINES) {
        let mut rest = line.trim();
        if let Some((o, c, depth)) = open {
            match closing_from(rest, o, c, depth) {
                Ok(end) => {
                    open = None;
                    rest = rest[end..].trim();
                }
                Err(depth) => {
                    open = Some((o, c, depth));
                    continue;
                }
            }
        }
        match strip_annotations(rest) {
            Stripped::Rest(r) if !r.is_empty() => return Some(r),
            Stripped::Rest(_) => {}
            Stripped::Open(o, c, depth) => open = Some((o, c, depth)),
        }
    }
    // Arguments that never close: the line stands for itself, as it is.
    open.map(|_| own.trim())
}

/// A line of a `/** .. */` doc block (PHPDoc, Javadoc, JSDoc): what it says is about the
/// declaration under the block. A plain comment inside a body is not.
fn in_doc_block(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("/**") || (t.starts_with('*') && !t.starts_with("*/"))
}

/// The declaration under the doc block that holds line `number` (1-based): a marker written
/// there (PHPUnit's `@requires`) goes with what the block documents, as an attribute goes
/// with what it is on, so the two spellings of one skip pair.
fn under_comment<'a>(all: &[&'a str], number: usize) -> Option<&'a str> {
    let (at, first) = all
        .iter()
        .enumerate()
        .skip(number)
        .take(ANNOTATION_LINES)
        .find(|(_, l)| {
            let t = l.trim();
            !(t.is_empty() || t.starts_with('*') || t.starts_with("/*") || t.starts_with("//"))
        })?;
    declaration(first, all, at + 1)
}

/// The declaration under the Python decorator whose brackets are still open at line
/// `number` (1-based): a line of a `@pytest.mark.parametrize(` list wrapped over lines
/// (`pytest.param(X, marks=m),`) belongs to the test the decorator is on, as the same
/// list written on the decorator's own line does.
pub(super) fn python_decorated<'a>(all: &[&'a str], number: usize) -> Option<&'a str> {
    let at = number.checked_sub(1).filter(|&a| a < all.len())?;
    let from = at.saturating_sub(ANNOTATION_LINES);
    let decorator = (from..at)
        .rev()
        .find(|&i| all[i].trim_start().starts_with('@'))?;
    let depth = all[decorator..at]
        .iter()
        .fold(0usize, |depth, l| open_after(l, depth));
    if depth == 0 {
        return None;
    }
    declaration(all[decorator], all, decorator + 1)
}

/// Whether a Python line applies one of `aliases` by name (`marks=skip_non_linux`).
fn applies_alias(view: &LineView, aliases: &[super::mark_aliases::Alias]) -> bool {
    !aliases.is_empty()
        && super::mark_aliases::applied_anywhere(&LineCtx::new(Lang::Python, view, true))
            .iter()
            .any(|n| aliases.iter().any(|a| &a.name == n))
}

/// The brackets of any kind left open after `line`, `depth` of them open before it
/// (quotes followed, a `#` comment ignored).
fn open_after(line: &str, mut depth: usize) -> usize {
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '#' => break,
                '"' | '\'' => quote = Some(c),
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    depth
}

/// How far an annotation's arguments are followed over the lines after it.
pub(super) const ANNOTATION_LINES: usize = 40;

enum Stripped<'a> {
    /// What follows the annotations on the line, trimmed; a comment is nothing.
    Rest(&'a str),
    /// The line ends inside an annotation's brackets: (bracket, its closer, depth).
    Open(char, char, usize),
}

/// `line` without its leading annotations (`@A`, `@a.b(x, y)`, `#[a]`, `#![a]`, `[A]`).
fn strip_annotations(line: &str) -> Stripped<'_> {
    let mut rest = line.trim();
    loop {
        if rest.starts_with("//") || rest.starts_with("/*") || rest.starts_with("# ") {
            return Stripped::Rest("");
        }
        let (at, o, c) = if let Some(r) = rest.strip_prefix('@') {
            let name = r
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(r.len());
            if name == 0 {
                return Stripped::Rest(rest);
            }
            if !r[name..].starts_with('(') {
                rest = r[name..].trim();
                continue;
            }
            (1 + name, '(', ')')
        } else if rest.starts_with("#[") || rest.starts_with("#![") || rest.starts_with('[') {
            (rest.find('[').unwrap_or(0), '[', ']')
        } else {
            return Stripped::Rest(rest);
        };
        match closing_from(&rest[at..], o, c, 0) {
            Ok(end) => rest = rest[at + end..].trim(),
            Err(depth) => return Stripped::Open(o, c, depth),
        }
    }
}

/// The byte just past the bracket that brings `depth` open brackets (plus those `s` opens)
/// back to none, quotes respected; else the depth left at the end of `s`.
fn closing_from(s: &str, open: char, close: char, mut depth: usize) -> Result<usize, usize> {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            c if c == open => depth += 1,
            c if c == close => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Ok(i + c.len_utf8());
                }
            }
            _ => {}
        }
    }
    Err(depth)
}

/// How many markers of `kind` the whole text of the file at `path` holds.
pub fn total(kind: Kind, lang: Lang, path: &str, text: &str, is_test: bool) -> u32 {
    let role = FileRole::of(path, Some(text));
    let views = lex(&lang.syntax(), text, usize::MAX);
    let helpers = match kind {
        Kind::Skips => skip_helpers::of_views(lang, &views, is_test),
        _ => Vec::new(),
    };
    let options_off = match kind {
        Kind::Skips => skips::js_options_off(lang, &views),
        _ => Vec::new(),
    };
    let lint_test =
        kind == Kind::Lint && super::lint_tests::asserts_lints(lang, is_test, Some(text));
    let mut n = 0u32;
    for (at, (view, raw)) in views.iter().zip(text.split('\n')).enumerate() {
        if view.code.trim().is_empty() && view.comments.is_empty() {
            continue;
        }
        let mut cx = LineCtx::new(lang, view, is_test);
        cx.skip_helpers = &helpers;
        cx.raw = raw;
        cx.options_off = &options_off;
        let mut found = kind.find(&cx, role);
        if lint_test {
            super::lint_tests::drop_expectations(&mut found);
        }
        if kind == Kind::Lint && may_assert(lang, is_test, view, &found) {
            drop_type_assertion(&views, at, &mut found);
        }
        n = n.saturating_add(found.len() as u32);
    }
    n
}

/// Whether a line's lint markers hold a `@ts-expect-error` alone on a line of a JS/TS test
/// file, which may be a type test's assertion (see [`type_assertions`]).
fn may_assert(lang: Lang, is_test: bool, view: &LineView, found: &[String]) -> bool {
    lang == Lang::Js
        && is_test
        && view.code.trim().is_empty()
        && found.iter().any(|l| l == "@ts-expect-error")
}

/// Take the `@ts-expect-error` out of `found` when line `at` of the file asserts that the
/// statement under it does not type-check.
fn drop_type_assertion(views: &[LineView], at: usize, found: &mut Vec<String>) {
    if type_assertions::type_test_module(views) || type_assertions::asserts_type_error(views, at) {
        found.retain(|l| l != "@ts-expect-error");
    }
}

/// A line holding only an annotation or attribute (`@Override`, `@Test`, `#[inline]`):
/// it tells nothing of the code a suppression above it sits over, which is further down.
fn bare_annotation(line: &str) -> bool {
    let t = line.trim();
    let named = |rest: &str| {
        let name_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(rest.len());
        name_end > 0 && {
            let tail = rest[name_end..].trim();
            tail.is_empty() || (tail.starts_with('(') && tail.ends_with(')'))
        }
    };
    if let Some(rest) = t.strip_prefix('@') {
        return named(rest);
    }
    t.starts_with("#[") && t.ends_with(']') && !t.contains("allow(") && !t.contains("expect(")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skip_applies_to_the_declaration_past_other_annotations() {
        // The same test before and after a reformat that moved `@Test` to its own line.
        let old = [
            "  @Ignore(\"slow (see #1)\")",
            "  @Test public void f() {",
            "  }",
        ];
        let new = [
            "    @Ignore(\"slow (see #1)\")",
            "    @Test",
            "    public void f() {",
        ];
        assert_eq!(declaration(old[0], &old, 1), Some("public void f() {"));
        assert_eq!(declaration(new[0], &new, 1), Some("public void f() {"));
        // On the skip's own line; Rust and C# attributes.
        let own = ["@Ignore(\"x\") public static class C {"];
        assert_eq!(
            declaration(own[0], &own, 1),
            Some("public static class C {")
        );
        let rust = ["#[ignore]", "#[test]", "fn slow() {"];
        assert_eq!(declaration(rust[0], &rust, 1), Some("fn slow() {"));
        let cs = ["[Ignore(\"x\")]", "[Test]", "public void F()"];
        assert_eq!(declaration(cs[0], &cs, 1), Some("public void F()"));
        // Arguments that go on over lines are followed to their end; a comment is no
        // declaration.
        let py = [
            "@skip  # flaky",
            "@pytest.mark.parametrize(",
            "    'a', [1])",
            "def t(a):",
        ];
        assert_eq!(declaration(py[0], &py, 1), Some("def t(a):"));
        let java = ["@Ignore // later", "public final class T {"];
        assert_eq!(
            declaration(java[0], &java, 1),
            Some("public final class T {")
        );
    }

    #[test]
    fn a_skip_wrapped_over_lines_applies_to_the_same_declaration() {
        // google-java-format wrapped the reason of an existing `@Ignore`: the skip is still
        // over the same test, not over its own first line.
        let old = [
            "  @Test",
            "  @Ignore(\"advances after the exception (see #12)\")",
            "  public void octalPrefix() {",
        ];
        let new = [
            "  @Test",
            "  @Ignore(",
            "      \"advances after the exception\"",
            "          + \" (see #12)\")",
            "  public void octalPrefix() {",
        ];
        assert_eq!(
            declaration(old[1], &old, 2),
            Some("public void octalPrefix() {")
        );
        assert_eq!(
            declaration(new[1], &new, 2),
            Some("public void octalPrefix() {")
        );
        // black's wrapped skipif, a `)` inside the reason string, then the test.
        let py = [
            "@pytest.mark.skipif(",
            "    sys.platform == 'win32', reason='no fork() on windows :)'",
            ")",
            "def test_fork():",
        ];
        assert_eq!(declaration(py[0], &py, 1), Some("def test_fork():"));
        // Arguments that never close: the line stands for itself.
        let open = ["@Ignore(\"x\"", "public void f() {"];
        assert_eq!(declaration(open[0], &open, 1), Some("@Ignore(\"x\""));
    }

    #[test]
    fn snippets_are_trimmed_and_bounded() {
        assert_eq!(snippet("   x();  "), "x();");
        let long = "é".repeat(500);
        let s = snippet(&long);
        assert_eq!(s.chars().count(), SNIPPET_MAX_CHARS + 1);
        assert!(s.ends_with('…'));
    }

    #[test]
    fn a_line_of_only_an_annotation_is_not_the_code_under_a_suppression() {
        for line in [
            "  @Override",
            "@Test",
            "@Deprecated(since = \"2\")",
            "#[inline]",
            "  #[test]",
        ] {
            assert!(bare_annotation(line), "{line}");
        }
        for line in [
            "public <T> T read() {",
            "@Override public String toString() {",
            "#[allow(unused)]",
            "// @ts-expect-error",
            "val x = 1",
        ] {
            assert!(!bare_annotation(line), "{line}");
        }
    }
}
