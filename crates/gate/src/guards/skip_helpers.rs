//! A test file's own skip helpers: functions whose body skips the running test
//! (`getClassOrSkipTest` around `assumeNoException`, `skip_without_network` around
//! `pytest.skip`, `skipIfShort(t)` around `t.Skip`). A call to one skips the test that makes
//! it as surely as the marker in its body would written there, so each call is a skip:
//! a change that adds a test calling the helper adds a skip, and one that replaces the
//! calls by assumptions written out rewrites the same skips.
//!
//! Helpers are known where the change shows them: declared in the same file, or in
//! another test file of the change in the same language (see [`in_change`]): called by
//! name, or qualified by that file's name (`LocaleProblems.assumeLocaleSupported(locale)`
//! for a helper of `LocaleProblems.java`, `helpers.skip_offline()` for one of
//! `helpers.py`; in Go, by its directory's package). A helper in a file the change did
//! not touch is not read.

use super::languages::Lang;
use super::lexer::{lex, LineView};
use super::line::{indent, LineCtx};
use super::skips;
use super::tokens::Tok;
use std::collections::BTreeMap;

/// The names of the skip helpers declared in a test file, from its text and, when the
/// caller has it, the text lexed whole (`views`). Empty for a file that is not a test file
/// or a language with no skip statement in a body.
pub fn of(lang: Lang, text: &str, views: Option<&[LineView]>, is_test: bool) -> Vec<String> {
    // Every body skip spells one of the hints: most test files hold none and are not read
    // further.
    if !is_test || !body_skips(lang) || !HINTS.iter().any(|h| text.contains(h)) {
        return Vec::new();
    }
    match views {
        Some(v) => of_views(lang, v, is_test),
        None => of_views(lang, &lex(&lang.syntax(), text, usize::MAX), is_test),
    }
}

/// [`of`] over a file already lexed whole.
pub fn of_views(lang: Lang, views: &[LineView], is_test: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if !is_test || !body_skips(lang) {
        return out;
    }
    // First the functions that skip in their body, then those that call one of them (a
    // shared test body calling `getClassOrSkipTest`), a few levels deep.
    let mut level: Vec<String> = Vec::new();
    for round in 0..=NESTING {
        let mut found: Vec<String> = Vec::new();
        for (i, view) in views.iter().enumerate() {
            let hinted = if round == 0 {
                HINTS.iter().any(|h| view.code.contains(h))
            } else {
                level.iter().any(|h| view.code.contains(h.as_str()))
            };
            if !hinted {
                continue;
            }
            let mut cx = LineCtx::new(lang, view, is_test);
            cx.skip_helpers = &level;
            let skips_here = if round == 0 {
                skips::find(&cx)
                    .iter()
                    .any(|l| skips::family(l) == "body.skip")
            } else {
                let mut calls_here = Vec::new();
                calls(&cx, &level, &mut calls_here);
                !calls_here.is_empty()
            };
            if !skips_here {
                continue;
            }
            let around =
                enclosing(lang, views, i).filter(|(n, at)| !is_test_fn(lang, n, views, *at));
            if let Some((name, _)) = around {
                if !out.contains(&name) && !found.contains(&name) {
                    found.push(name);
                }
            }
        }
        if found.is_empty() {
            break;
        }
        out.extend(found.iter().cloned());
        level = found;
    }
    out
}

/// The skip helpers declared in one test file of a change, as other files may call them.
pub struct Declaring {
    path: String,
    lang: Lang,
    names: Vec<String>,
}

/// The skip helpers declared in the test files of one side of a change: (path, text,
/// whether it is a test file).
pub fn in_change<'t>(files: impl IntoIterator<Item = (&'t str, &'t str, bool)>) -> Vec<Declaring> {
    let mut out = Vec::new();
    for (path, text, is_test) in files {
        let Some(lang) = Lang::from_path(path) else {
            continue;
        };
        let names = of(lang, text, None, is_test);
        if !names.is_empty() {
            out.push(Declaring {
                path: path.to_string(),
                lang,
                names,
            });
        }
    }
    out
}

/// A file or package name as a call qualifies with it: case, `_` and `-` aside
/// (`LocaleProblems`, `skip_helpers` as Ruby's `SkipHelpers`).
fn qualifier(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// How a qualified call to a helper of another file is listed among a file's helpers
/// (see [`calls`]): the qualifier, a `.`, the name.
fn qualified(head: &str, name: &str) -> String {
    format!("{}.{name}", qualifier(head))
}

/// The helpers of other test files of the change that a test file in `lang` at `path`
/// may call: by their name (not in Go, whose package helpers are
/// [`go_packages`]'s), unless the file declares a function of that name itself; and
/// qualified by their file's name, or in Go by their directory's.
fn foreign(
    lang: Lang,
    path: &str,
    text: Option<&str>,
    views: Option<&[LineView]>,
    change: &[Declaring],
) -> Vec<String> {
    let jvm = |l: Lang| matches!(l, Lang::Java | Lang::Kotlin);
    let from: Vec<&Declaring> = change
        .iter()
        .filter(|d| d.path != path && (d.lang == lang || (jvm(d.lang) && jvm(lang))))
        .collect();
    if from.is_empty() {
        return Vec::new();
    }
    let lexed;
    let views = match (views, text) {
        (Some(v), _) => v,
        (None, Some(t)) => {
            lexed = lex(&lang.syntax(), t, usize::MAX);
            &lexed[..]
        }
        (None, None) => &[],
    };
    let own: Vec<String> = views.iter().filter_map(|v| declared(lang, v)).collect();
    let mut out = Vec::new();
    for d in from {
        let (dir, file) = d.path.rsplit_once('/').unwrap_or(("", &d.path));
        let head = if lang == Lang::Go {
            dir.rsplit('/').next().unwrap_or("")
        } else {
            file.split('.').next().unwrap_or("")
        };
        for name in &d.names {
            if lang != Lang::Go && !own.contains(name) && !out.contains(name) {
                out.push(name.clone());
            }
            if !head.is_empty() {
                out.push(qualified(head, name));
            }
        }
    }
    out
}

/// How many levels of helpers calling helpers are followed.
const NESTING: usize = 3;

/// The helpers a test file may call: its own ([`of`]), or for a Go test file those of its
/// package in the change (`package`, from [`go_packages`], which read this file too); and
/// those of the change's other test files of its language (`change`, from [`in_change`]).
/// A file of another language beside Go test files calls none of theirs.
pub fn for_file(
    lang: Lang,
    path: &str,
    text: Option<&str>,
    views: Option<&[LineView]>,
    is_test: bool,
    package: &[String],
    change: &[Declaring],
) -> Vec<String> {
    let mut out = match text {
        _ if !is_test => return Vec::new(),
        _ if lang == Lang::Go && path.ends_with("_test.go") => package.to_vec(),
        Some(text) => of(lang, text, views, is_test),
        None => Vec::new(),
    };
    if body_skips(lang) {
        for h in foreign(lang, path, text, views, change) {
            if !out.contains(&h) {
                out.push(h);
            }
        }
    }
    out
}

/// Go's test files share their directory's package, so a helper declared in one
/// `_test.go` file is called from its siblings without an import. The helpers declared in
/// the given Go test files (path, text), gathered per directory: one side of a change.
pub fn go_packages<'t>(
    files: impl IntoIterator<Item = (&'t str, &'t str)>,
) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, text) in files {
        if Lang::from_path(path) != Some(Lang::Go) || !path.ends_with("_test.go") {
            continue;
        }
        let found = of(Lang::Go, text, None, true);
        if !found.is_empty() {
            let names = out.entry(package_of(path).to_string()).or_default();
            names.extend(
                found
                    .into_iter()
                    .filter(|n| !names.contains(n))
                    .collect::<Vec<_>>(),
            );
        }
    }
    out
}

/// The directory of a repository-relative path (`""` at the top).
pub fn package_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The languages whose tests skip themselves from their body.
fn body_skips(lang: Lang) -> bool {
    matches!(
        lang,
        Lang::Python | Lang::Go | Lang::Java | Lang::Kotlin | Lang::Ruby | Lang::Js
    )
}

const HINTS: &[&str] = &["kip", "ssume", "pending"];

/// The function whose body holds line `at`: the nearest line above it, less indented than
/// everything between, that declares a function (the line itself for a one-line
/// declaration). Its name and line index.
pub(super) fn enclosing(lang: Lang, views: &[LineView], at: usize) -> Option<(String, usize)> {
    if let Some(name) = declared(lang, &views[at]) {
        return Some((name, at));
    }
    let mut depth = indent(&views[at].code);
    for j in (0..at).rev() {
        let code = &views[j].code;
        let trimmed = code.trim();
        if trimmed.is_empty() || indent(code) >= depth {
            continue;
        }
        if let Some(name) = declared(lang, &views[j]) {
            return Some((name, j));
        }
        // The end of a signature over several lines (`):`, `) {`) says nothing of depth.
        if trimmed.starts_with([')', ']']) {
            continue;
        }
        // Another branch of a construct at this depth (Ruby's `rescue` at a method's own
        // level, `else`, `except`): its opener, or the declaration, is still above at the
        // same depth.
        if BRANCHES.iter().any(|b| {
            trimmed
                .strip_prefix(b)
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        }) {
            depth = indent(code) + 1;
            continue;
        }
        depth = indent(code);
        if depth == 0 {
            return None;
        }
    }
    None
}

/// Words that open another branch of a construct, written at its opener's depth.
const BRANCHES: &[&str] = &[
    "rescue", "ensure", "else", "elsif", "elif", "except", "finally", "when", "catch",
];

/// Keywords that open a statement, never a declaration, in the C-like languages.
const STATEMENTS: &[&str] = &[
    "return",
    "new",
    "throw",
    "if",
    "else",
    "for",
    "while",
    "switch",
    "catch",
    "try",
    "do",
    "case",
    "assert",
    "synchronized",
    "yield",
    "await",
];

/// The name of the function the line declares, if it declares one.
pub(super) fn declared(lang: Lang, view: &LineView) -> Option<String> {
    let cx = LineCtx::new(lang, view, true);
    let name_at = |i: usize| cx.ident(i).map(str::to_string);
    let after_keyword = |kw: &str| -> Option<usize> {
        (0..cx.toks.len().min(6)).find(|&i| cx.ident(i) == Some(kw))
    };
    match lang {
        Lang::Python => {
            let def = after_keyword("def")?;
            (def <= 1 && cx.punct(def + 2, '(')).then(|| name_at(def + 1))?
        }
        Lang::Ruby => {
            if cx.ident(0) != Some("def") {
                return None;
            }
            if cx.ident(1) == Some("self") && cx.punct(2, '.') {
                name_at(3)
            } else {
                name_at(1)
            }
        }
        Lang::Go => {
            if cx.ident(0) != Some("func") {
                return None;
            }
            let mut i = 1;
            if cx.punct(1, '(') {
                // A method's receiver: `func (s *Suite) skipUnlessDocker(`.
                i = (2..cx.toks.len()).find(|&k| cx.punct(k, ')'))? + 1;
            }
            (cx.punct(i + 1, '(') || cx.punct(i + 1, '[')).then(|| name_at(i))?
        }
        Lang::Js => {
            if let Some(f) = after_keyword("function") {
                let i = if cx.punct(f + 1, '*') { f + 2 } else { f + 1 };
                return cx.punct(i + 1, '(').then(|| name_at(i))?;
            }
            let kw = (0..2).find(|&i| matches!(cx.ident(i), Some("const" | "let" | "var")))?;
            let value = kw + 3;
            let arrow_or_fn = cx.punct(kw + 2, '=')
                && (cx.punct(value, '(')
                    || matches!(cx.ident(value), Some("function" | "async"))
                    || (cx.ident(value).is_some()
                        && cx.punct(value + 1, '=')
                        && cx.punct(value + 2, '>')));
            arrow_or_fn.then(|| name_at(kw + 1))?
        }
        Lang::Kotlin if after_keyword("fun").is_some() => {
            let f = after_keyword("fun")?;
            let paren = (f + 1..cx.toks.len()).find(|&i| cx.punct(i, '('))?;
            name_at(paren - 1)
        }
        Lang::Java | Lang::Kotlin => {
            let first = cx.ident(0)?;
            if STATEMENTS.contains(&first) || first == "fun" {
                return None;
            }
            let paren = (0..cx.toks.len()).find(|&i| cx.punct(i, '('))?;
            if paren < 2 || (0..paren).any(|i| cx.punct(i, '=')) {
                return None;
            }
            let name = cx.ident(paren - 1)?;
            let typed = matches!(
                cx.tok(paren - 2),
                Some(Tok::Ident(w)) if !STATEMENTS.contains(&w)
            ) || cx.punct(paren - 2, '>')
                || cx.punct(paren - 2, ']');
            (typed && !STATEMENTS.contains(&name)).then(|| name.to_string())
        }
        _ => None,
    }
}

/// Whether the function named `name`, declared on line `at`, is a test itself (a skip in
/// a test skips that test, and is found there) by the runner's naming rule or a test
/// annotation over it.
pub(super) fn is_test_fn(lang: Lang, name: &str, views: &[LineView], at: usize) -> bool {
    let named = match lang {
        Lang::Python | Lang::Ruby | Lang::Java | Lang::Kotlin => name.starts_with("test"),
        Lang::Go => ["Test", "Benchmark", "Example", "Fuzz"]
            .iter()
            .any(|p| name.starts_with(p)),
        _ => false,
    };
    let annotated = views[..at]
        .iter()
        .rev()
        .map(|v| v.code.trim())
        .filter(|c| !c.is_empty())
        .take_while(|c| c.starts_with('@'))
        .any(|c| {
            let name = c[1..]
                .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .next();
            name.is_some_and(|n| n.ends_with("Test") || n == "Theory")
        });
    named || annotated
}

/// The calls to `helpers` on the line, as skip labels (`getClassOrSkipTest(`): a plain
/// call, one on `self`/`this`, or one qualified by the name a helper of another file is
/// listed with (see [`for_file`]); never the helper's own declaration.
pub fn calls(cx: &LineCtx, helpers: &[String], out: &mut Vec<String>) {
    if helpers.is_empty() {
        return;
    }
    for ch in &cx.chains {
        let name = ch.last();
        let plain = helpers.iter().any(|h| h == name);
        let receiver_ok = match ch.names.len() {
            1 => plain && ch.free(&cx.toks),
            2 => {
                (plain && ["self", "this"].contains(&ch.head()))
                    || (ch.free(&cx.toks)
                        && helpers.iter().any(|h| *h == qualified(ch.head(), name)))
            }
            _ => false,
        };
        // Ruby calls a method with no arguments without brackets.
        let called = ch.called(&cx.toks)
            || (cx.lang == Lang::Ruby
                && !matches!(
                    ch.after(&cx.toks),
                    Some(Tok::Punct('=' | '.' | ':' | ',' | ')' | ']'))
                ));
        if receiver_ok && called && declared(cx.lang, cx.view).as_deref() != Some(name) {
            out.push(format!("{name}("));
        }
    }
    if cx.lang == Lang::Python {
        fixture_requests(cx, helpers, out);
    }
}

/// pytest runs a fixture a test asks for by name, as a parameter of the test
/// (`def test_x(no_trio):`) or in a `usefixtures("no_trio")` mark (a module's
/// `pytestmark`, a class's decorator): a skipping fixture asked for so skips the test as a
/// call to it would.
fn fixture_requests(cx: &LineCtx, helpers: &[String], out: &mut Vec<String>) {
    let mut push = |name: &str| {
        if helpers.iter().any(|h| h == name) {
            out.push(format!("{name}("));
        }
    };
    if declared(cx.lang, cx.view).is_some_and(|n| n.starts_with("test")) {
        let Some(open) = (0..cx.toks.len()).find(|&i| cx.punct(i, '(')) else {
            return;
        };
        let mut depth = 0usize;
        for i in open..cx.toks.len() {
            match cx.tok(i) {
                Some(Tok::Punct('(' | '[' | '{')) => depth += 1,
                Some(Tok::Punct(')' | ']' | '}')) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        break;
                    }
                }
                Some(Tok::Ident(name))
                    if depth == 1 && (cx.punct(i - 1, '(') || cx.punct(i - 1, ',')) =>
                {
                    push(name)
                }
                _ => {}
            }
        }
        return;
    }
    if !cx
        .chains
        .iter()
        .any(|ch| ch.last() == "usefixtures" && ch.called(&cx.toks))
    {
        return;
    }
    // The fixtures are named in strings, which the lexed code no longer holds.
    let Some((_, args)) = cx.raw.split_once("usefixtures(") else {
        return;
    };
    let args = args.split(')').next().unwrap_or("");
    for piece in args.split(',') {
        let name = piece.trim().trim_matches(['"', '\'']);
        if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            push(name);
        }
    }
}

/// Whether a skip label is a call to a helper (a plain name and a bracket).
pub fn is_helper_label(label: &str) -> bool {
    label.strip_suffix('(').is_some_and(|n| {
        !n.is_empty()
            && n.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '?' || c == '!')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(lang: Lang, text: &str) -> Vec<String> {
        of(lang, text, None, true)
    }

    fn labels(lang: Lang, text: &str, line: &str) -> Vec<String> {
        let helpers = names(lang, text);
        let view = super::super::lexer::lex_line(&lang.syntax(), line);
        let mut cx = LineCtx::new(lang, &view, true);
        cx.skip_helpers = &helpers;
        cx.raw = line;
        skips::find(&cx)
    }

    const JAVA: &str = "class T {\n    @Test\n    public void reads() {\n        Class<?> c = getClassOrSkipTest(\"java.util.SequencedSet\");\n    }\n\n    private Class<?> getClassOrSkipTest(String className) {\n        try {\n            return Class.forName(className);\n        } catch (ClassNotFoundException e) {\n            Assume.assumeNoException(\"no \" + className, e);\n            return null;\n        }\n    }\n}\n";

    #[test]
    fn a_java_method_around_an_assumption_is_a_helper_and_its_calls_skip() {
        assert_eq!(names(Lang::Java, JAVA), vec!["getClassOrSkipTest"]);
        assert_eq!(
            labels(
                Lang::Java,
                JAVA,
                "        Class<?> m = getClassOrSkipTest(\"java.util.SequencedMap\");"
            ),
            vec!["getClassOrSkipTest("]
        );
        // Its own declaration is no call; another method of that name on another object is
        // not this helper.
        assert!(labels(
            Lang::Java,
            JAVA,
            "    private Class<?> getClassOrSkipTest(String className) {"
        )
        .is_empty());
        assert!(labels(Lang::Java, JAVA, "        other.getClassOrSkipTest(x);").is_empty());
    }

    #[test]
    fn helpers_in_python_go_ruby_and_js() {
        let py = "import pytest\n\ndef needs_network():\n    if not online():\n        pytest.skip(\"offline\")\n\ndef test_get():\n    needs_network()\n";
        assert_eq!(names(Lang::Python, py), vec!["needs_network"]);
        assert_eq!(
            labels(Lang::Python, py, "    needs_network()"),
            vec!["needs_network("]
        );
        let go = "package x\n\nfunc skipUnlessDocker(t *testing.T) {\n\tif !docker() {\n\t\tt.Skip(\"no docker\")\n\t}\n}\n";
        assert_eq!(names(Lang::Go, go), vec!["skipUnlessDocker"]);
        let rb = "class T < Minitest::Test\n  def skip_on_jruby\n    skip 'jruby' if jruby?\n  end\n\n  def test_a\n    skip_on_jruby\n  end\nend\n";
        assert_eq!(names(Lang::Ruby, rb), vec!["skip_on_jruby"]);
        assert_eq!(
            labels(Lang::Ruby, rb, "    skip_on_jruby"),
            vec!["skip_on_jruby("]
        );
        let js = "function skipOnWindows(t) {\n  if (win) t.skip('windows')\n}\n";
        assert_eq!(names(Lang::Js, js), vec!["skipOnWindows"]);
    }

    #[test]
    fn a_skipping_fixture_asked_for_by_a_test_or_a_mark_skips_it() {
        let py = "import pytest\n\n@pytest.fixture\ndef no_trio(request):\n    if request.keywords.get('trio'):\n        pytest.skip('no trio')\n";
        assert_eq!(names(Lang::Python, py), vec!["no_trio"]);
        let asked = |line: &str| labels(Lang::Python, py, line);
        assert_eq!(asked("def test_db(client, no_trio):"), vec!["no_trio("]);
        assert_eq!(
            asked("pytestmark = pytest.mark.usefixtures(\"no_trio\")"),
            vec!["no_trio("]
        );
        assert_eq!(
            asked("@pytest.mark.usefixtures('db', 'no_trio')"),
            vec!["no_trio("]
        );
        // A default value or an annotation of that name, another fixture, a helper's
        // parameter: no request by a test.
        assert!(asked("def test_db(client, flag=no_trio):").is_empty());
        assert!(asked("def test_db(client: no_trio):").is_empty());
        assert!(asked("@pytest.mark.usefixtures('db')").is_empty());
        assert!(asked("def make_db(no_trio):").is_empty());
    }

    #[test]
    fn a_test_that_skips_itself_is_no_helper() {
        // Its skip is the test's own, found where it is; the test is not called by name.
        let py = "def test_fork():\n    if win:\n        pytest.skip('no fork')\n";
        assert!(names(Lang::Python, py).is_empty());
        let java = "class T {\n    @Test\n    public void reads() {\n        assumeTrue(isUnix());\n    }\n}\n";
        assert!(names(Lang::Java, java).is_empty());
        let go = "func TestFork(t *testing.T) {\n\tt.Skip(\"later\")\n}\n";
        assert!(names(Lang::Go, go).is_empty());
        // A skip inside a test callback has no named function around it.
        let js = "describe('x', () => {\n  it('y', function () {\n    this.skip()\n  })\n})\n";
        assert!(names(Lang::Js, js).is_empty());
    }

    #[test]
    fn a_go_test_file_takes_its_packages_helpers_and_no_other_file_does() {
        let package = vec!["skipWindows".to_string()];
        let go = "package conf\n\nfunc TestRead(t *testing.T) {\n\tskipWindows(t)\n}\n";
        let py = "def skipWindows(t):\n    return t\n\ndef test_read():\n    skipWindows(1)\n";
        let for_go = for_file(
            Lang::Go,
            "conf/read_test.go",
            Some(go),
            None,
            true,
            &package,
            &[],
        );
        assert_eq!(for_go, package);
        assert!(for_file(
            Lang::Go,
            "conf/read_test.go",
            Some(go),
            None,
            false,
            &package,
            &[],
        )
        .is_empty());
        let for_py = for_file(
            Lang::Python,
            "conf/test_read.py",
            Some(py),
            None,
            true,
            &package,
            &[],
        );
        assert!(for_py.is_empty(), "{for_py:?}");
    }

    /// The labels of `line` in a test file at `path` of a change whose test files are
    /// `change` (path, text).
    fn labels_in_change(
        path: &str,
        text: &str,
        line: &str,
        change: &[(&str, &str)],
    ) -> Vec<String> {
        let lang = Lang::from_path(path).unwrap();
        let declaring = in_change(change.iter().map(|(p, t)| (*p, *t, true)));
        let helpers = for_file(lang, path, Some(text), None, true, &[], &declaring);
        let view = super::super::lexer::lex_line(&lang.syntax(), line);
        let mut cx = LineCtx::new(lang, &view, true);
        cx.skip_helpers = &helpers;
        skips::find(&cx)
    }

    #[test]
    fn a_helper_of_another_file_of_the_change_skips_where_it_is_called() {
        let helper = "public class LocaleProblems {\n    public static void assumeSupported(Locale l) {\n        assumeTrue(ok(l));\n    }\n}\n";
        let change = [("src/test/java/x/LocaleProblems.java", helper)];
        let caller = "class ParserTest {\n    @Test\n    void parses() {\n    }\n}\n";
        let at = "src/test/java/x/time/ParserTest.java";
        let label = vec!["assumeSupported(".to_string()];
        for line in [
            "        LocaleProblems.assumeSupported(locale);",
            "        assumeSupported(locale);",
        ] {
            assert_eq!(labels_in_change(at, caller, line, &change), label, "{line}");
        }
        // Another class's method of that name is not the helper; nor is a call in the
        // file of another language, or with no such file in the change.
        assert!(
            labels_in_change(at, caller, "        Other.assumeSupported(l);", &change).is_empty()
        );
        let py = "def test_a():\n    pass\n";
        assert!(
            labels_in_change("tests/test_a.py", py, "    assumeSupported(l)", &change).is_empty()
        );
        assert!(labels_in_change(
            at,
            caller,
            "        LocaleProblems.assumeSupported(l);",
            &[]
        )
        .is_empty());
        // A file that declares its own function of that name calls its own.
        let own = "class ParserTest {\n    private void assumeSupported(Locale l) {\n        log(l);\n    }\n}\n";
        assert!(labels_in_change(at, own, "        assumeSupported(locale);", &change).is_empty());
    }

    #[test]
    fn python_and_go_helpers_of_other_files_are_called_by_module_or_package() {
        let py = "import pytest\n\ndef skip_offline():\n    if not online():\n        pytest.skip('offline')\n";
        let change = [("tests/net_helpers.py", py)];
        let test = "def test_get():\n    pass\n";
        assert_eq!(
            labels_in_change(
                "tests/test_get.py",
                test,
                "    net_helpers.skip_offline()",
                &change
            ),
            vec!["skip_offline("]
        );
        let go = "package testutil\n\nfunc SkipShort(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip(\"short\")\n\t}\n}\n";
        let change = [("internal/testutil/skip_test.go", go)];
        let test = "package conf\n\nfunc TestRead(t *testing.T) {\n}\n";
        assert_eq!(
            labels_in_change(
                "conf/read_test.go",
                test,
                "\ttestutil.SkipShort(t)",
                &change
            ),
            vec!["SkipShort("]
        );
        // In Go a plain call names the caller's own package, not that one.
        assert!(labels_in_change("conf/read_test.go", test, "\tSkipShort(t)", &change).is_empty());
    }

    #[test]
    fn outside_test_files_and_without_body_skips_there_are_none() {
        assert!(of(Lang::Java, JAVA, None, false).is_empty());
        let plain = "def helper():\n    return skip_list()\n";
        assert!(names(Lang::Python, plain).is_empty());
        assert!(is_helper_label("getClassOrSkipTest("));
        assert!(!is_helper_label("pytest.skip("));
        assert!(!is_helper_label("@Ignore"));
    }
}
