//! One pass over the added lines of a file, feeding every marker guard (skips, lint
//! suppressions, TODOs, debugging leftovers) from a single lexing of the file.

use super::languages::Lang;
use super::lexer::{lex, lex_line, LineView};
use super::line::LineCtx;
use super::{debug, junit_port, lint, skips, todos, DeltaKind, FileDelta, Finding, Line};
use std::collections::HashSet;

/// Which marker guards are on.
#[derive(Debug, Clone, Copy, Default)]
pub struct Enabled {
    pub skips: bool,
    pub lint: bool,
    pub todos: bool,
    pub debug: bool,
}

impl Enabled {
    pub fn any(self) -> bool {
        self.skips || self.lint || self.todos || self.debug
    }
}

#[derive(Debug, Default)]
pub struct MarkerFindings {
    pub skips: Vec<Finding>,
    pub lint: Vec<Finding>,
    pub todos: Vec<Finding>,
    pub debug: Vec<Finding>,
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

fn labels(found: &[String]) -> String {
    found
        .iter()
        .map(|l| format!("`{l}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn strip_cr(s: &str) -> &str {
    s.strip_suffix('\r').unwrap_or(s)
}

/// The lexed view of each added line: from the whole file when its text is there (so a
/// line inside a block comment or a multi-line string is seen as such), else alone.
/// `lexed` is the file already lexed by the caller (whole), if it was.
fn views(d: &FileDelta, lang: Lang, lexed: Option<Vec<LineView>>) -> Vec<(&Line, LineView)> {
    let syntax = lang.syntax();
    let max = d
        .added_lines
        .iter()
        .map(|l| l.number as usize)
        .max()
        .unwrap_or(0);
    let (raw, lexed): (Vec<&str>, Vec<LineView>) = match &d.new_text {
        Some(text) if max > 0 => (
            text.split('\n').take(max).collect(),
            lexed.unwrap_or_else(|| lex(&syntax, text, max)),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let mut lexed: Vec<Option<LineView>> = lexed.into_iter().map(Some).collect();
    d.added_lines
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

/// Scan one file's added lines; returns how many skip markers were found in them.
/// `test_rise` is how many more tests the file holds than at the comparison point, when
/// both counts are known (see [`junit_port`]).
pub fn scan(
    d: &FileDelta,
    lang: Lang,
    is_test: bool,
    on: Enabled,
    lexed: Option<Vec<LineView>>,
    test_rise: Option<u32>,
    out: &mut MarkerFindings,
) -> u32 {
    let mut skip_markers = 0u32;
    // Skips that come with a JUnit 3 to 4 port of a test that did not run before.
    let mut ported: Vec<Finding> = Vec::new();
    let mut port_check: Option<(Vec<&str>, HashSet<u32>)> = None;
    let output_file = on.debug && debug::prints_are_output(&d.path, d.new_text.as_deref());
    for (line, view) in views(d, lang, lexed) {
        if view.code.trim().is_empty() && view.comments.is_empty() {
            continue;
        }
        let cx = LineCtx::new(lang, &view, is_test);
        let finding = |found: &[String], message: String| Finding {
            path: d.path.clone(),
            line: Some(line.number),
            snippet: snippet(&line.text),
            message: match &d.kind {
                DeltaKind::Renamed { .. } => {
                    format!("{message} ({}) in {}", labels(found), d.shown_path())
                }
                _ => format!("{message} ({})", labels(found)),
            },
        };
        if on.skips {
            let found = skips::find(&cx);
            if !found.is_empty() {
                skip_markers = skip_markers.saturating_add(found.len() as u32);
                let message = if found.iter().any(|l| skips::is_focus(l)) {
                    "a focus marker was added: it runs only these tests and silently skips all the others; remove it".to_string()
                } else {
                    "a test skip marker was added: remove it and make the test pass instead of skipping it".to_string()
                };
                let annotation_only = matches!(lang, Lang::Java | Lang::Kotlin)
                    && found
                        .iter()
                        .all(|l| l == "@Ignore" || l.starts_with("@Disabled"));
                let port = annotation_only
                    && test_rise.is_some_and(|r| r > 0)
                    && d.new_text.as_deref().is_some_and(|text| {
                        let (lines, added) = port_check.get_or_insert_with(|| {
                            (
                                text.lines().collect(),
                                d.added_lines.iter().map(|l| l.number).collect(),
                            )
                        });
                        junit_port::disabled_test_gets_annotations(lines, added, line.number)
                    });
                if port {
                    ported.push(finding(&found, message));
                } else {
                    out.skips.push(finding(&found, message));
                }
            }
        }
        if on.lint {
            let found = lint::find(&cx);
            if !found.is_empty() {
                out.lint.push(finding(
                    &found,
                    "a lint or type-check suppression was added: fix the reported problem instead of silencing it".into(),
                ));
            }
        }
        if on.todos {
            let found = todos::find(&cx);
            if !found.is_empty() {
                out.todos.push(finding(
                    &found,
                    "an unfinished-work marker was added: finish the work now or remove the marker"
                        .into(),
                ));
            }
        }
        if on.debug {
            let found = debug::find(&cx, output_file);
            if !found.is_empty() {
                out.debug.push(finding(
                    &found,
                    "a debugging leftover was added: remove it".into(),
                ));
            }
        }
    }
    // Each ported test is one more test in the file; more of them than that and some
    // skip fell on a test that was already counted, so none is excused.
    if ported.len() as u64 > u64::from(test_rise.unwrap_or(0)) {
        out.skips.append(&mut ported);
    }
    skip_markers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_are_trimmed_and_bounded() {
        assert_eq!(snippet("   x();  "), "x();");
        let long = "é".repeat(500);
        let s = snippet(&long);
        assert_eq!(s.chars().count(), SNIPPET_MAX_CHARS + 1);
        assert!(s.ends_with('…'));
    }
}
