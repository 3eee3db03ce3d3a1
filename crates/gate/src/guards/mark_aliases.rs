//! pytest skip marks kept in a variable and applied by name. `needs_windows =
//! pytest.mark.skipif(not WIN, reason=..)`, written once (often in a shared `tests/utils.py`),
//! skips every test it is put on: `@needs_windows` over a test, `marks=needs_windows` (or
//! in a `marks=[..]` list) of a `pytest.param`, `pytestmark = needs_windows` (or in a
//! `pytestmark = [..]` list) for a whole module. Each such use is a skip, as the mark
//! written out there would be.
//!
//! The names are learned from the code, never from a list: a name bound at module level
//! to `pytest.mark.skip`, `.skipif` or `.xfail` in the file itself, or imported by name
//! (`from tests.utils import needs_windows`, `from ..utils import needs_py310`) from a
//! module of the repository that binds it so. A module is found by its path: relative
//! imports from the importing file's package, absolute ones from the repository root or
//! any directory above the importing file (where pytest's rootdir insertion puts them).
//!
//! An alias the change itself brought (not bound to a skip mark at the comparison point)
//! is reported once, at its definition, which the change writes: its uses in the same
//! change are that skip put to work, not more of them (see [`Side::New`]).

use super::languages::Lang;
use super::lexer::lex;
use super::line::LineCtx;
use super::tokens::Tok;
use super::{DeltaKind, FileDelta, Near};

/// pytest's marks that skip a test or expect it to fail.
const MARKS: &[&str] = &["skip", "skipif", "xfail"];

/// A name bound to a skip mark, and the label of that mark (`pytest.mark.skipif`): a use
/// carries the mark's label, so a mark written out and rewritten as its alias over the
/// same test pairs as the same skip.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alias {
    pub name: String,
    pub label: String,
}

/// unittest's decorators that skip a test or expect it to fail, kept in a variable the
/// same way (`skip_on_windows = unittest.skipIf(WIN, "..")`).
const UNITTEST: &[&str] = &["skip", "skipIf", "skipUnless", "expectedFailure"];

/// The names a Python module binds at module level to a skip mark, with their marks.
pub fn defined(text: &str) -> Vec<Alias> {
    if !text.contains("mark.") && !text.contains("unittest.") {
        return Vec::new();
    }
    let views = lex(&Lang::Python.syntax(), text, usize::MAX);
    let mut out = Vec::new();
    for view in &views {
        // Module level only: a name bound inside a function is that function's.
        if view.code.starts_with([' ', '\t'])
            || !(view.code.contains("mark") || view.code.contains("unittest"))
        {
            continue;
        }
        let cx = LineCtx::new(Lang::Python, view, false);
        let (Some(Tok::Ident(name)), Some(Tok::Punct('='))) = (cx.tok(0), cx.tok(1)) else {
            continue;
        };
        if cx.punct(2, '=') {
            continue;
        }
        // The value is the mark itself, not a mark among other things.
        let Some(ch) = cx.chains.iter().find(|c| c.start == 2) else {
            continue;
        };
        let n = &ch.names;
        let label = if n.len() == 3 && n[0] == "pytest" && n[1] == "mark" && MARKS.contains(&n[2]) {
            format!("pytest.mark.{}", n[2])
        } else if n.len() == 2 && n[0] == "unittest" && UNITTEST.contains(&n[1]) {
            format!("unittest.{}", n[1])
        } else {
            continue;
        };
        let whole = matches!(ch.after(&cx.toks), None | Some(Tok::Punct('(')));
        if whole && !out.iter().any(|a: &Alias| a.name == name) {
            out.push(Alias {
                name: name.to_string(),
                label,
            });
        }
    }
    out
}

/// One `from module import a, b as c` of a Python file: the module as written (leading
/// dots kept) and each imported name with the name it is bound to here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub module: String,
    pub names: Vec<(String, String)>,
}

/// The `from .. import ..` statements of a Python file, parenthesised lists over several
/// lines included. `import *` is listed as the name `*`: it binds every public name the
/// module binds, which is read from the module.
pub fn imports(text: &str) -> Vec<Import> {
    if !text.contains("import") {
        return Vec::new();
    }
    let views = lex(&Lang::Python.syntax(), text, usize::MAX);
    let mut out = Vec::new();
    let mut i = 0;
    while i < views.len() {
        let code = views[i].code.trim();
        i += 1;
        let Some(rest) = code.strip_prefix("from ") else {
            continue;
        };
        let Some((module, names)) = rest.split_once(" import ") else {
            continue;
        };
        let mut names = names.trim().to_string();
        if names.starts_with('(') {
            while !names.contains(')') && i < views.len() {
                names.push(' ');
                names.push_str(views[i].code.trim());
                i += 1;
            }
        } else {
            while names.ends_with('\\') && i < views.len() {
                names.pop();
                names.push(' ');
                names.push_str(views[i].code.trim());
                i += 1;
            }
        }
        let names = names
            .trim_start_matches('(')
            .split(')')
            .next()
            .unwrap_or("");
        let bound: Vec<(String, String)> = names
            .split(',')
            .filter_map(|part| {
                let mut words = part.split_whitespace();
                let name = words.next()?;
                let local = match (words.next(), words.next()) {
                    (Some("as"), Some(local)) => local,
                    _ => name,
                };
                let ident = |s: &str| s.chars().all(|c| c.is_alphanumeric() || c == '_');
                let star = name == "*" && local == "*";
                (star || (ident(name) && ident(local)))
                    .then(|| (name.to_string(), local.to_string()))
            })
            .collect();
        if !bound.is_empty() {
            out.push(Import {
                module: module.trim().to_string(),
                names: bound,
            });
        }
    }
    out
}

/// The modules a Python file binds to a name of its own, whose attributes it may then
/// apply as marks (`@h.skip_if_windows`): `import tests.helpers as h` (bound to `h`),
/// `import helpers` (to `helpers`), and `from tests import helpers as h`, which binds a
/// module when `tests/helpers.py` is one (the caller finds out). Each as (module as
/// written, leading dots kept; the name it is bound to).
pub fn module_imports(text: &str) -> Vec<(String, String)> {
    if !text.contains("import") {
        return Vec::new();
    }
    let ident = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
    let dotted = |s: &str| s.split('.').all(ident);
    let mut out = Vec::new();
    for import in imports(text) {
        for (name, local) in &import.names {
            if name == "*" {
                continue;
            }
            let module = if import.module.ends_with('.') {
                format!("{}{name}", import.module)
            } else {
                format!("{}.{name}", import.module)
            };
            out.push((module, local.clone()));
        }
    }
    for view in lex(&Lang::Python.syntax(), text, usize::MAX) {
        let Some(rest) = view.code.trim().strip_prefix("import ") else {
            continue;
        };
        for part in rest.split(',') {
            let words: Vec<&str> = part.split_whitespace().collect();
            match words[..] {
                [module] if dotted(module) => out.push((module.to_string(), module.to_string())),
                [module, "as", local] if dotted(module) && ident(local) => {
                    out.push((module.to_string(), local.to_string()))
                }
                _ => {}
            }
        }
    }
    out
}

/// The repository paths a module imported from the file at `path` may be: a relative
/// module from the file's package (one dot per level), an absolute one from the root or
/// from any directory above the file. Each as `pkg/mod.py` and `pkg/mod/__init__.py`.
pub fn module_paths(path: &str, module: &str) -> Vec<String> {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let dots = module.chars().take_while(|c| *c == '.').count();
    let rest = &module[dots..];
    let mut bases: Vec<String> = Vec::new();
    if dots > 0 {
        let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
        for _ in 1..dots {
            if parts.pop().is_none() {
                return Vec::new();
            }
        }
        bases.push(parts.join("/"));
    } else {
        let parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
        for n in (0..=parts.len()).rev() {
            bases.push(parts[..n].join("/"));
        }
    }
    if rest.is_empty() || !rest.split('.').all(|p| !p.is_empty()) {
        // `from . import x` imports a module, not a mark.
        return Vec::new();
    }
    let tail = rest.replace('.', "/");
    let mut out = Vec::new();
    for base in bases {
        let joined = if base.is_empty() {
            tail.clone()
        } else {
            format!("{base}/{tail}")
        };
        out.push(format!("{joined}.py"));
        out.push(format!("{joined}/__init__.py"));
    }
    out
}

/// The skip-mark aliases the Python file at `path` (text `text`) can apply: its own
/// module-level ones and those it imports by name from a module `read` gives the text of.
pub fn of_file<'t>(path: &str, text: &str, read: &dyn Fn(&str) -> Option<&'t str>) -> Vec<Alias> {
    let mut out = defined(text);
    for import in imports(text) {
        let Some(found) = module_paths(path, &import.module)
            .iter()
            .find_map(|p| read(p))
            .map(defined)
        else {
            continue;
        };
        for (name, local) in &import.names {
            if name == "*" {
                // Every public name the module binds, unless the file binds it itself.
                for a in found.iter().filter(|a| !a.name.starts_with('_')) {
                    if !out.iter().any(|o| o.name == a.name) {
                        out.push(a.clone());
                    }
                }
            } else if let Some(a) = found.iter().find(|a| &a.name == name) {
                out.retain(|o| &o.name != local);
                out.push(Alias {
                    name: local.clone(),
                    label: a.label.clone(),
                });
            }
        }
    }
    // A module's attributes, applied through the name the module is bound to.
    for (module, local) in module_imports(text) {
        let Some(found) = module_paths(path, &module)
            .iter()
            .find_map(|p| read(p))
            .map(defined)
        else {
            continue;
        };
        for a in found {
            out.push(Alias {
                name: format!("{local}.{}", a.name),
                label: a.label,
            });
        }
    }
    out
}

/// The aliases each file of a change applies, on the added side (`.0`, only those that
/// were skip marks at the comparison point as well: see [`kept`]) and on the removed side
/// (`.1`), in the order of `deltas`. Only Python test files (`is_test`) are read; modules
/// the change did not touch are read through `near`, once, and only for imports of a name
/// the file applies as a mark.
pub fn for_change(
    deltas: &[&FileDelta],
    is_test: &dyn Fn(&str) -> bool,
    near: &Near,
) -> (Vec<Vec<Alias>>, Vec<Vec<Alias>>) {
    let none = || {
        (
            vec![Vec::new(); deltas.len()],
            vec![Vec::new(); deltas.len()],
        )
    };
    let old_path = |d: &FileDelta| match &d.kind {
        DeltaKind::Renamed { from } => from.clone(),
        _ => d.path.clone(),
    };
    let python = |p: &str| Lang::from_path(p) == Some(Lang::Python) && is_test(p);
    // Each side of each Python test file, with the names it applies as marks.
    let mut wanted: Vec<String> = Vec::new();
    let mut any = false;
    for d in deltas {
        for (path, text) in [(d.path.clone(), &d.new_text), (old_path(d), &d.old_text)] {
            let Some(text) = text.as_deref().filter(|_| python(&path)) else {
                continue;
            };
            let names = applied_in(text);
            if names.is_empty() {
                continue;
            }
            any = true;
            let mut modules: Vec<String> = Vec::new();
            for import in imports(text) {
                if import
                    .names
                    .iter()
                    .any(|(_, local)| local == "*" || names.contains(local))
                {
                    modules.push(import.module);
                }
            }
            // A module bound to a name whose attribute is applied (`@h.needs_windows`).
            for (module, local) in module_imports(text) {
                let prefix = format!("{local}.");
                if names.iter().any(|n| n.starts_with(&prefix)) {
                    modules.push(module);
                }
            }
            for module in modules {
                for p in module_paths(&path, &module) {
                    if !wanted.contains(&p) {
                        wanted.push(p);
                    }
                }
            }
        }
    }
    if !any {
        return none();
    }
    let in_change = |p: &str| deltas.iter().any(|d| d.path == p || old_path(d) == p);
    let mut dirs: Vec<String> = Vec::new();
    for p in wanted.iter().filter(|p| !in_change(p)) {
        let dir = p.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    let unchanged: Vec<(String, String)> = if dirs.is_empty() {
        Vec::new()
    } else {
        near(&dirs)
            .into_iter()
            .filter(|(p, _)| wanted.contains(p) && !in_change(p))
            .collect()
    };
    let read_unchanged = |p: &str| {
        unchanged
            .iter()
            .find(|(q, _)| q == p)
            .map(|(_, t)| t.as_str())
    };
    // A file whose old text is not at hand reads as it is now.
    let read_new = |p: &str| {
        deltas
            .iter()
            .find(|d| d.path == p)
            .map(|d| d.new_text.as_deref())
            .unwrap_or_else(|| read_unchanged(p))
    };
    let read_old = |p: &str| {
        deltas
            .iter()
            .find(|d| old_path(d) == p && !matches!(d.kind, DeltaKind::Added))
            .map(|d| d.old_text.as_deref().or(d.new_text.as_deref()))
            .unwrap_or_else(|| read_unchanged(p))
    };
    let mut new_side = Vec::with_capacity(deltas.len());
    let mut old_side = Vec::with_capacity(deltas.len());
    for d in deltas {
        let from = old_path(d);
        let old = match (&d.old_text, python(&from)) {
            (Some(text), true) => of_file(&from, text, &read_old),
            _ => Vec::new(),
        };
        let new = match (&d.new_text, python(&d.path)) {
            (Some(text), true) => {
                // The same text's names as they were bound at the comparison point.
                let before = of_file(&d.path, text, &read_old);
                let before: Vec<Alias> = before
                    .into_iter()
                    .filter(|a| {
                        // A name the file binds itself counts only if its old text did.
                        !defined(text).iter().any(|o| o.name == a.name)
                            || d.old_text
                                .as_deref()
                                .is_some_and(|t| defined(t).iter().any(|o| o.name == a.name))
                    })
                    .collect();
                kept(of_file(&d.path, text, &read_new), &before)
            }
            _ => Vec::new(),
        };
        new_side.push(new);
        old_side.push(old);
    }
    (new_side, old_side)
}

/// The uses of `aliases` on one line of a Python test file, each as its mark's label:
/// `marks=` inside a decorator written on one line counts too, anchored to the test under
/// it as the same list wrapped over lines is (see [`super::scan::python_decorated`]).
pub fn uses(cx: &LineCtx, aliases: &[Alias], out: &mut Vec<String>) {
    if aliases.is_empty() || cx.lang != Lang::Python || !cx.is_test {
        return;
    }
    for name in applied_anywhere(cx) {
        if let Some(a) = aliases.iter().find(|a| a.name == name) {
            out.push(a.label.clone());
        }
    }
}

/// The dotted name (`needs_win`, `h.needs_win`) that starts at token `at`, and the index
/// of the token after it.
fn dotted_at(cx: &LineCtx, at: usize) -> Option<(String, usize)> {
    let Some(Tok::Ident(first)) = cx.tok(at) else {
        return None;
    };
    let mut name = first.to_string();
    let mut i = at + 1;
    while cx.punct(i, '.') {
        let Some(Tok::Ident(next)) = cx.tok(i + 1) else {
            return None;
        };
        name.push('.');
        name.push_str(next);
        i += 2;
    }
    Some((name, i))
}

/// The names a line applies as marks: `@name` alone on the line, `marks=name` or a name in
/// a `marks=[..]` / `(..)` list (also inside a decorator written on one line,
/// `@pytest.mark.parametrize("x", [1, pytest.param(2, marks=name)])`), `pytestmark = name`
/// or a name in its list. A name may be a module's attribute (`@h.needs_win`).
pub fn applied_anywhere(cx: &LineCtx) -> Vec<String> {
    applied_on(cx)
}

fn applied_on(cx: &LineCtx) -> Vec<String> {
    let mut out = Vec::new();
    if cx.punct(0, '@') {
        if let Some((n, end)) = dotted_at(cx, 1) {
            if end == cx.toks.len() {
                out.push(n);
                return out;
            }
        }
    }
    for i in 0..cx.toks.len() {
        let target = matches!(cx.tok(i), Some(Tok::Ident("marks")))
            || (i == 0 && cx.tok(0) == Some(Tok::Ident("pytestmark")));
        if !target || !cx.punct(i + 1, '=') || cx.punct(i + 2, '=') {
            continue;
        }
        let at = i + 2;
        if let Some((n, end)) = dotted_at(cx, at) {
            // The value is the name itself, not something built from it.
            if matches!(cx.tok(end), None | Some(Tok::Punct(',' | ')'))) {
                out.push(n);
            }
            continue;
        }
        if !(cx.punct(at, '[') || cx.punct(at, '(')) {
            continue;
        }
        elements(cx, at, 0, &mut out);
    }
    out
}

/// The bare names among a list's elements on this line, from token `from` on, where the
/// list's own depth is `depth + 1` (`depth` brackets are open at `from`, counting the
/// list's own when `from` is past it). Returns the depth open at the end of the line
/// (0: the list closed on this line).
fn elements(cx: &LineCtx, from: usize, mut depth: usize, out: &mut Vec<String>) -> usize {
    let own = if depth == 0 { 1 } else { depth };
    let mut j = from;
    while j < cx.toks.len() {
        match cx.tok(j) {
            Some(Tok::Punct('[' | '(' | '{')) => depth += 1,
            Some(Tok::Punct(']' | ')' | '}')) => {
                depth = depth.saturating_sub(1);
                if depth < own {
                    return 0;
                }
            }
            Some(Tok::Ident(_)) if depth == own => {
                let opens = (j == from && from == 0)
                    || cx.punct(j.wrapping_sub(1), '[')
                    || cx.punct(j.wrapping_sub(1), '(')
                    || cx.punct(j.wrapping_sub(1), ',');
                if let Some((n, end)) = dotted_at(cx, j) {
                    let closes = matches!(cx.tok(end), None | Some(Tok::Punct(',' | ']' | ')')));
                    if opens && closes {
                        out.push(n);
                    }
                    j = end;
                    continue;
                }
            }
            _ => {}
        }
        j += 1;
    }
    depth
}

/// The uses of `aliases` among the names `listed` gives a line, each as its mark's label.
pub fn listed_uses(names: &[String], aliases: &[Alias], out: &mut Vec<String>) {
    for name in names {
        if let Some(a) = aliases.iter().find(|a| &a.name == name) {
            out.push(a.label.clone());
        }
    }
}

/// For each line of a Python file (0-based), the names it applies as elements of a
/// `marks=[..]` or `pytestmark = [..]` list that opened on an earlier line and is still
/// open (`pytestmark = [` then `    needs_windows,` on a line of its own).
pub fn listed(text: &str) -> Vec<Vec<String>> {
    let views = lex(&Lang::Python.syntax(), text, usize::MAX);
    let mut out = vec![Vec::new(); views.len()];
    if !(text.contains("marks") || text.contains("pytestmark")) {
        return out;
    }
    // The depth of the open list's contents, its own bracket counted.
    let mut open = 0usize;
    for (k, view) in views.iter().enumerate() {
        if open == 0 && !view.code.contains("mark") {
            continue;
        }
        let cx = LineCtx::new(Lang::Python, view, true);
        if open > 0 {
            open = elements(&cx, 0, open, &mut out[k]);
            continue;
        }
        for i in 0..cx.toks.len() {
            let target = matches!(cx.tok(i), Some(Tok::Ident("marks")))
                || (i == 0 && cx.tok(0) == Some(Tok::Ident("pytestmark")));
            let list = cx.punct(i + 2, '[') || cx.punct(i + 2, '(');
            if target && cx.punct(i + 1, '=') && list {
                let mut ignored = Vec::new();
                open = elements(&cx, i + 2, 0, &mut ignored);
                break;
            }
        }
    }
    out
}

/// The names a Python file applies as marks anywhere (see [`applied_anywhere`]): only an import
/// of one of these can bring an alias the file uses.
pub fn applied_in(text: &str) -> Vec<String> {
    if !(text.contains('@') || text.contains("marks") || text.contains("pytestmark")) {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    for view in lex(&Lang::Python.syntax(), text, usize::MAX) {
        if !(view.code.contains('@') || view.code.contains("mark")) {
            continue;
        }
        let cx = LineCtx::new(Lang::Python, &view, true);
        for n in applied_anywhere(&cx) {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    for n in listed(text).into_iter().flatten() {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// The aliases a file applies on the added side that were skip marks at the comparison
/// point too: `new` less any name `old` did not bind to a skip mark.
fn kept(new: Vec<Alias>, old: &[Alias]) -> Vec<Alias> {
    new.into_iter()
        .filter(|a| old.iter().any(|o| o.name == a.name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(line: &str, aliases: &[Alias]) -> Vec<String> {
        let v = lex(&Lang::Python.syntax(), line, usize::MAX);
        let cx = LineCtx::new(Lang::Python, &v[0], true);
        let mut out = Vec::new();
        uses(&cx, aliases, &mut out);
        out
    }

    fn alias(name: &str) -> Vec<Alias> {
        vec![Alias {
            name: name.into(),
            label: "pytest.mark.skipif".into(),
        }]
    }

    #[test]
    fn module_level_skip_marks_are_aliases_other_values_are_not() {
        let text = "import pytest\nneeds_win = pytest.mark.skipif(\n    not WIN, reason='x'\n)\nflaky = pytest.mark.xfail\nslow = pytest.mark.slow\nboth = [pytest.mark.skip, 1]\ncond = pytest.mark.skipif == 1\ndef f():\n    inner = pytest.mark.skip\n";
        let names: Vec<String> = defined(text).into_iter().map(|a| a.name).collect();
        assert_eq!(names, ["needs_win", "flaky"]);
    }

    #[test]
    fn uses_by_decorator_param_and_pytestmark() {
        let a = alias("needs_win");
        assert_eq!(found("@needs_win", &a).len(), 1);
        assert_eq!(found("pytest.param(1, marks=needs_win),", &a).len(), 1);
        assert_eq!(
            found("pytest.param(1, marks=[needs_win, other]),", &a).len(),
            1
        );
        assert_eq!(found("pytestmark = needs_win", &a).len(), 1);
        assert_eq!(found("pytestmark = [needs_win]", &a).len(), 1);
        assert!(found("@needs_win.with_args(x)", &a).is_empty());
        assert!(found("x = needs_win", &a).is_empty());
        assert!(found("@other", &a).is_empty());
        assert!(found("marks=needs_win.mark", &a).is_empty());
    }

    #[test]
    fn imports_resolve_relative_and_absolute_modules() {
        let text = "from tests.utils import needs_linux, needs_win as nw\nfrom ....utils import (\n    needs_py310,\n)\n";
        let got = imports(text);
        assert_eq!(got[0].names[1], ("needs_win".into(), "nw".into()));
        assert_eq!(got[1].module, "....utils");
        assert_eq!(got[1].names, [("needs_py310".into(), "needs_py310".into())]);
        let p = module_paths("tests/a/b/c/test_x.py", "....utils");
        assert_eq!(p[0], "tests/utils.py");
        let p = module_paths("tests/test_x.py", "tests.utils");
        assert!(p.contains(&"tests/utils.py".to_string()));
        assert!(module_paths("tests/test_x.py", ".").is_empty());
    }
}
