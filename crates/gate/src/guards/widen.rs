//! Whether a rewritten marker reaches further than it did (see `account`). A marker kept
//! in its file with new text is the same marker unless it widened:
//!
//! - **suppressions** (`disabled_lint`): the directive's reach grew (one line -> a block ->
//!   the whole file: `eslint-disable-next-line` -> `eslint-disable`, `#[allow]` ->
//!   `#![allow]`, `@Suppress` -> `@file:Suppress`), a bare directive replaced a scoped
//!   one (`nolint:errcheck` -> `nolint`, `type: ignore[attr]` -> `type: ignore`), or the
//!   list names more rules than before. A rule swapped for another in a list of the same
//!   length is taken as a rename (`golint` -> `revive`), not a widening;
//! - **skips** (`new_skips`): a conditional skip became unconditional (`skipif(cond)` ->
//!   `skipif(True)`, `skipUnless(cond)` -> `skipUnless(False)`, `xfail(cond)` -> `xfail`).
//!   A skip of another kind is another label, so `skipif` -> `skip` is a new marker anyway;
//! - **TODOs and debugging leftovers** never widen: reworded, they are the same marker.

use super::languages::Lang;
use super::lexer::lex_line;
use super::line::{directive_len, LineCtx};
use super::lint;
use super::scan::Kind;

/// Whether `new`, a rewrite of `old` carrying the same marker `label`, reaches further.
pub fn widened(kind: Kind, lang: Lang, label: &str, old: &str, new: &str) -> bool {
    match kind {
        Kind::Lint => {
            let (old, new) = (suppression(lang, label, old), suppression(lang, label, new));
            new.reach > old.reach
                || match (old.rules, new.rules) {
                    (Some(_), None) => true,
                    (Some(o), Some(n)) => {
                        n.len() > o.len() || super::catch_all_codes::gained(label, &o, &n)
                    }
                    (None, _) => false,
                }
        }
        Kind::Skips => skip_widened(label, old, label, new),
        Kind::Todos | Kind::Debug => false,
    }
}

/// Whether `new`, a suppression added to a file, stays within `old`, a file-wide one of the
/// same directive that the change removed from that file (`#![allow(warnings)]` replaced by
/// `#[allow(dead_code)]` on one item, `@file:Suppress("a", "b")` by `@Suppress("a")` on one
/// function): the file silences less than it did, so the new one is no new suppression.
/// The old one must reach the whole file and the new one less; the old one must be bare
/// or name each rule the new one names (or, in Rust, a lint group holding it: `warnings`
/// holds every lint that warns, `unused` the `unused_*` lints and `dead_code`).
pub fn within_file_wide(lang: Lang, label: &str, old: &str, new: &str) -> bool {
    let (old, new) = (suppression(lang, label, old), suppression(lang, label, new));
    if old.reach != 2 || new.reach == 2 {
        return false;
    }
    let holds = |wide: &str, rule: &str| {
        wide == rule
            || (lang == Lang::Rust
                && (wide == "warnings"
                    || (wide == "unused" && (rule == "dead_code" || rule.starts_with("unused_")))))
    };
    match (old.rules, new.rules) {
        (None, _) => true,
        (Some(o), Some(n)) => !n.is_empty() && n.iter().all(|r| o.iter().any(|w| holds(w, r))),
        (Some(_), None) => false,
    }
}

/// The rules a suppression narrower than its file names (`#[allow(clippy::a, b)]` gives
/// `clippy::a`, `b`; a `reason = ".."` is no rule), or `None` when it reaches the whole
/// file, names no rule, or is bare (every rule).
pub fn item_rules(lang: Lang, label: &str, line: &str) -> Option<Vec<String>> {
    let scope = suppression(lang, label, line);
    let rules: Vec<String> = scope
        .rules?
        .into_iter()
        .filter(|r| !r.contains('='))
        .collect();
    (scope.reach < 2 && !rules.is_empty()).then_some(rules)
}

/// Whether the suppression `label` on `line` names no rule, so silences every one
/// (`//nolint`, `# type: ignore`).
pub fn bare(lang: Lang, label: &str, line: &str) -> bool {
    suppression(lang, label, line).rules.is_none()
}

/// Whether the suppression `label` on `line` reaches the whole file (`#![allow(..)]`,
/// `/* eslint-disable */`, `/* eslint no-undef: 0 */`, `@file:Suppress(..)`).
pub fn file_wide(lang: Lang, label: &str, line: &str) -> bool {
    suppression(lang, label, line).reach == 2
}

/// What one suppression covers.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Scope {
    /// 0: a line, 1: a block or an item, 2: the whole file.
    reach: u8,
    /// The rules it names; `None` for a bare directive (every rule).
    rules: Option<Vec<String>>,
}

/// Directives whose text after them is a reason, never a list of rules.
const NO_RULES: &[&str] = &[
    "@ts-ignore",
    "@ts-expect-error",
    "@ts-nocheck",
    "$FlowIgnore",
    "NOSONAR",
    "NOPMD",
    "pragma: no cover",
    "jshint ignore",
    "istanbul ignore",
    "c8 ignore",
    "v8 ignore",
    "mypy: ignore-errors",
    "pylint: skip-file",
    ":nocov:",
    "coveralls-ignore",
    "@codeCoverageIgnore",
    "LCOV_EXCL",
    "CHECKSTYLE:OFF",
    "CHECKSTYLE.OFF",
    "@codingStandardsIgnore",
    "@SuppressWarnings",
];

/// Directives followed by rules as words (`eslint-disable-next-line a, b -- reason`).
const WORD_LISTS: &[&str] = &[
    "eslint-disable",
    "stylelint-disable",
    "oxlint-disable",
    "tslint:disable",
    "deno-lint-ignore",
    "rubocop:disable",
    "rubocop:todo",
    "standard:disable",
    "steep:ignore",
    "swiftlint:disable",
    "ReSharper disable",
    "noinspection",
    "ktlint-disable",
    "phpcs:ignore",
    "phpcs:disable",
    "@psalm-suppress",
    "@phpstan-ignore",
    "cppcheck-suppress",
    "credo:disable-for",
    "nosec",
    "#nosec",
];

/// Directives naming exactly one rule as their first word, then a reason.
const FIRST_WORD: &[&str] = &["biome-ignore", "lint:ignore"];

/// Directives whose first word says how far they reach (`istanbul ignore next`).
const WORD_VARIANT: &[&str] = &["istanbul ignore", "c8 ignore", "v8 ignore", "jshint ignore"];

fn suppression(lang: Lang, label: &str, line: &str) -> Scope {
    let view = lex_line(&lang.syntax(), line);
    let cx = LineCtx::new(lang, &view, false);
    if label == lint::ESLINT_OFF {
        // The rules turned off: more of them is a wider suppression.
        let rules = cx
            .comment_pieces()
            .into_iter()
            .flat_map(lint::eslint_rules_off)
            .collect();
        return Scope {
            reach: 2,
            rules: Some(rules),
        };
    }
    let table = lint::directives(lang);
    if let Some((_, ignore_case)) = table.iter().find(|(d, _)| *d == label) {
        for piece in cx.comment_pieces() {
            if let Some(n) = directive_len(piece, label, *ignore_case) {
                let rest: String = piece.chars().skip(n).collect();
                return comment_scope(label, &rest);
            }
        }
    }
    code_scope(label, line)
}

fn comment_scope(label: &str, rest: &str) -> Scope {
    let (variant, rest) = split_variant(label, rest);
    let reach = reach_of(variant);
    if NO_RULES.contains(&label) {
        return Scope {
            reach,
            rules: Some(Vec::new()),
        };
    }
    let rest = rest.trim_start();
    let rules = if let Some(inner) = bracketed(rest) {
        names(inner)
    } else if let Some(after) = rest.strip_prefix([':', '=']) {
        listed(after.trim_start())
    } else if FIRST_WORD.contains(&label) {
        rest.split_whitespace().next().map_or(Vec::new(), names)
    } else if WORD_LISTS.contains(&label) {
        names(rest.split("--").next().unwrap_or(""))
    } else {
        Vec::new()
    };
    Scope {
        reach,
        rules: (!rules.is_empty()).then_some(rules),
    }
}

/// The part glued to the directive that says how far it reaches (`-next-line`,
/// `:next`, `NEXTLINE`), and the rest.
fn split_variant<'r>(label: &str, rest: &'r str) -> (&'r str, &'r str) {
    if WORD_VARIANT.contains(&label) {
        let t = rest.trim_start();
        let end = t.find(char::is_whitespace).unwrap_or(t.len());
        return (&t[..end], &t[end..]);
    }
    for glued in [":next", ":this", ":previous"] {
        if let Some(after) = rest.strip_prefix(glued) {
            return (&rest[..glued.len()], after);
        }
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(rest.len());
    (&rest[..end], &rest[end..])
}

fn reach_of(variant: &str) -> u8 {
    let v = variant.to_ascii_lowercase();
    if v.contains("file") {
        2
    } else if ["line", "next", "this", "previous", "once"]
        .iter()
        .any(|w| v.contains(w))
        || v == "if"
        || v == "else"
    {
        0
    } else {
        1
    }
}

/// The inside of a leading `(...)` or `[...]`.
fn bracketed(s: &str) -> Option<&str> {
    let close = match s.chars().next()? {
        '(' => ')',
        '[' => ']',
        _ => return None,
    };
    let end = s.find(close).unwrap_or(s.len());
    Some(&s[1..end])
}

/// A comma list that may have spaces after its commas (`E501, F401 reason`): the list
/// ends at the first space not after a comma.
fn listed(s: &str) -> Vec<String> {
    let mut list = String::new();
    for word in s.split_whitespace() {
        if list.is_empty() || list.ends_with(',') || word.starts_with(',') {
            list.push_str(word);
        } else {
            break;
        }
    }
    names(&list)
}

fn names(s: &str) -> Vec<String> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Attributes and pragmas: `#[allow(a, b)]`, `@SuppressWarnings({"a", "b"})`,
/// `#pragma warning disable CS1, CS2`.
fn code_scope(label: &str, line: &str) -> Scope {
    let name = label
        .trim_start_matches(['#', '[', '@', '!'])
        .trim_end_matches(['(', ']'])
        .rsplit(' ')
        .next()
        .unwrap_or("");
    let reach = if line.contains("#![") || line.contains("@file:") {
        2
    } else {
        1
    };
    let rules = match word_at(line, name) {
        Some(at) => {
            let after = line[at + name.len()..].trim_start();
            match balanced(after) {
                Some(inner) => items(inner),
                None => names(after.split("//").next().unwrap_or("")),
            }
        }
        None => Vec::new(),
    };
    Scope {
        reach,
        rules: Some(rules),
    }
}

/// Where `name` stands as a whole word in `line`.
fn word_at(line: &str, name: &str) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(name).map(|(i, _)| i).find(|&i| {
        !line[..i].chars().next_back().is_some_and(word)
            && !line[i + name.len()..].chars().next().is_some_and(word)
    })
}

/// The inside of a leading `(...)`, nesting and strings respected.
fn balanced(s: &str) -> Option<&str> {
    if !s.starts_with('(') {
        return None;
    }
    Some(closing_at(s).map_or(&s[1..], |i| &s[1..i]))
}

/// Where the bracket `s` starts with closes, nesting and strings respected.
fn closing_at(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Items of an argument list, split at commas outside strings and nested brackets; the
/// braces of an array argument (`{"a", "b"}`) hold the items.
fn items(inner: &str) -> Vec<String> {
    let inner = inner.trim();
    let inner = inner
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .unwrap_or(inner);
    top_level(inner)
        .into_iter()
        .map(|s| s.trim().trim_matches(['"', '\'']).trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

pub(super) fn top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// Skips that apply when their first argument is true / false.
pub(super) const SKIP_WHEN_TRUE: &[&str] = &["skipif", "skipIf", "xfail", "XCTSkipIf"];
const SKIP_UNLESS: &[&str] = &["skipUnless", "runIf", "XCTSkipUnless"];

/// Whether skip `new` (label `new_label`), a rewrite of `old` (label `old_label`, a
/// spelling of the same skip: `@skipIf` and `pytest.mark.skipif`), skips where it did not.
pub fn skip_widened(old_label: &str, old: &str, new_label: &str, new: &str) -> bool {
    let bare = |label: &str| -> String {
        label
            .trim_start_matches('@')
            .trim_end_matches('(')
            .rsplit('.')
            .next()
            .unwrap_or("")
            .to_string()
    };
    let (old_name, name) = (bare(old_label), bare(new_label));
    let when = if SKIP_WHEN_TRUE.contains(&name.as_str()) {
        true
    } else if SKIP_UNLESS.contains(&name.as_str()) {
        false
    } else {
        return false;
    };
    let always = |arg: &Option<String>| always_skips(when, arg.as_deref());
    // A call that goes on past its line (`skipif(` wrapped by a formatter) has its
    // condition on the next lines: not known to be constant, so no widening seen.
    if unclosed(new, &name) {
        return false;
    }
    let (was, now) = (condition(old, &old_name), condition(new, &name));
    !always(&was) && always(&now)
}

/// Whether a skip line (label `label`) skips only under a condition: a conditional skip
/// (`skipif`, `xfail`, `skipUnless`, ...) whose condition is not a constant, or is on the
/// lines after it.
pub fn conditional_skip(label: &str, line: &str) -> bool {
    let name = label
        .trim_start_matches('@')
        .trim_end_matches('(')
        .rsplit('.')
        .next()
        .unwrap_or("");
    let when = if SKIP_WHEN_TRUE.contains(&name) {
        true
    } else if SKIP_UNLESS.contains(&name) {
        false
    } else {
        return false;
    };
    if unclosed(line, name) {
        return true;
    }
    condition(line, name).is_some_and(|c| !always_skips(when, Some(&c)))
}

/// Whether a conditional skip with this first argument skips every time: no condition at
/// all, or a constant one. `when`: it skips when its argument is true (`skipif`), not
/// false (`skipUnless`).
fn always_skips(when: bool, arg: Option<&str>) -> bool {
    match arg {
        None => true,
        Some(a) if when => ["True", "true", "1", "!0", "not False"].contains(&a),
        Some(a) => ["False", "false", "0", "!1", "not True"].contains(&a),
    }
}

/// Whether `name(` on the line opens a call that does not close on it.
fn unclosed(line: &str, name: &str) -> bool {
    let Some(at) = word_at(line, name) else {
        return false;
    };
    let rest = line[at + name.len()..].trim_start();
    rest.starts_with('(') && !closes(rest)
}

/// Whether the bracket `s` starts with closes within `s`, strings respected.
fn closes(s: &str) -> bool {
    closing_at(s).is_some()
}

/// The first positional argument of `name(...)` on the line, trimmed; `None` when there
/// is no call, no argument, or the first one is a keyword (`reason="x"`).
pub(super) fn condition(line: &str, name: &str) -> Option<String> {
    let at = word_at(line, name)?;
    let inner = balanced(line[at + name.len()..].trim_start())?;
    let first = top_level(inner).first()?.trim().to_string();
    let keyword = first.split_once('=').is_some_and(|(k, v)| {
        !v.starts_with('=')
            && k.trim().chars().all(|c| c.is_alphanumeric() || c == '_')
            && !k.trim().is_empty()
    });
    (!first.is_empty() && !keyword).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lint(lang: Lang, label: &str, old: &str, new: &str) -> bool {
        widened(Kind::Lint, lang, label, old, new)
    }

    #[test]
    fn a_suppression_within_a_removed_file_wide_one_is_narrower() {
        let rust = |old: &str, new: &str| within_file_wide(Lang::Rust, "#[allow(", old, new);
        assert!(rust("#![allow(warnings)]", "#[allow(dead_code)]"));
        assert!(rust("#![allow(warnings)]", "    #[allow(non_snake_case)]"));
        assert!(rust(
            "#![allow(unused)]",
            "#[allow(unused_imports, dead_code)]"
        ));
        assert!(rust(
            "#![allow(dead_code, unsafe_code)]",
            "#[allow(unsafe_code)]"
        ));
        assert!(within_file_wide(
            Lang::Kotlin,
            "@Suppress",
            "@file:Suppress(\"UNCHECKED_CAST\", \"DEPRECATION\")",
            "    @Suppress(\"DEPRECATION\")"
        ));
        // A rule the file-wide one did not name, a file-wide one replacing another, or an
        // old one that was not file-wide: not narrower.
        assert!(!rust("#![allow(dead_code)]", "#[allow(unsafe_code)]"));
        assert!(!rust("#![allow(unused)]", "#[allow(clippy::all)]"));
        assert!(!rust(
            "#![allow(dead_code)]",
            "#[allow(dead_code, unsafe_code)]"
        ));
        assert!(!rust("#![allow(warnings)]", "#![allow(dead_code)]"));
        assert!(!rust("#[allow(warnings)]", "#[allow(dead_code)]"));
        assert!(!within_file_wide(
            Lang::Kotlin,
            "@Suppress",
            "@file:Suppress(\"UNCHECKED_CAST\")",
            "    @Suppress(\"DEPRECATION\")"
        ));
    }

    #[test]
    fn renamed_or_narrowed_rules_do_not_widen() {
        assert!(!lint(
            Lang::Js,
            "eslint-disable",
            "// eslint-disable-next-line no-unused-vars",
            "// eslint-disable-next-line @typescript-eslint/no-unused-vars"
        ));
        assert!(!lint(
            Lang::Go,
            "nolint",
            "x := f() //nolint:golint,staticcheck",
            "x := f() //nolint:staticcheck"
        ));
        assert!(!lint(
            Lang::Python,
            "type: ignore",
            "x = old_name()  # type: ignore",
            "x = new_name()  # type: ignore"
        ));
        assert!(!lint(
            Lang::Python,
            "noqa",
            "import a  # noqa: F401, E501",
            "import b  # noqa: E501 long line"
        ));
        assert!(!lint(
            Lang::Js,
            "@ts-ignore",
            "// @ts-ignore the types lag",
            "// @ts-ignore upstream types are wrong, see the issue"
        ));
        assert!(!lint(
            Lang::Rust,
            "#[allow(",
            "#[allow(clippy::a, clippy::b)]",
            "#[allow(clippy::a)]"
        ));
        assert!(!lint(
            Lang::Java,
            "@SuppressWarnings",
            "@SuppressWarnings({\"unchecked\", \"rawtypes\"})",
            "@SuppressWarnings(\"unchecked\")"
        ));
    }

    #[test]
    fn more_eslint_rules_turned_off_widen() {
        let off = crate::guards::lint::ESLINT_OFF;
        assert!(lint(
            Lang::Js,
            off,
            "/* eslint no-undef: 0 */",
            "/* eslint no-undef: 0, no-console: \"off\" */"
        ));
        // A rule turned on beside it turns nothing more off.
        assert!(!lint(
            Lang::Js,
            off,
            "/* eslint no-undef: 0 */",
            "/* eslint no-undef: \"off\", eqeqeq: 2 */"
        ));
    }

    #[test]
    fn a_rule_added_widens() {
        assert!(lint(
            Lang::Js,
            "eslint-disable",
            "// eslint-disable-next-line no-console",
            "// eslint-disable-next-line no-console, no-alert -- both"
        ));
        assert!(lint(
            Lang::Go,
            "nolint",
            "x := f() //nolint:staticcheck",
            "x := f() //nolint:golint,staticcheck"
        ));
        assert!(lint(
            Lang::Python,
            "pylint: disable",
            "# pylint: disable=invalid-name",
            "# pylint: disable=invalid-name,too-many-locals"
        ));
        assert!(lint(
            Lang::Rust,
            "#[allow(",
            "#[allow(dead_code)]",
            "#[allow(dead_code, unused)]"
        ));
        assert!(lint(
            Lang::Kotlin,
            "@Suppress",
            "@Suppress(\"A\")",
            "@Suppress(\"A\", \"B\")"
        ));
        assert!(lint(
            Lang::CSharp,
            "#pragma warning disable",
            "#pragma warning disable CS0168",
            "#pragma warning disable CS0168, CS0219"
        ));
    }

    #[test]
    fn a_bare_directive_replacing_a_scoped_one_widens() {
        assert!(lint(
            Lang::Go,
            "nolint",
            "x := f() //nolint:errcheck",
            "x := f() //nolint"
        ));
        assert!(lint(
            Lang::Python,
            "type: ignore",
            "x = f()  # type: ignore[attr-defined]",
            "x = f()  # type: ignore"
        ));
        assert!(lint(
            Lang::Python,
            "noqa",
            "import os  # noqa: F401",
            "import os  # noqa"
        ));
        assert!(lint(
            Lang::Js,
            "eslint-disable",
            "/* eslint-disable no-console */",
            "/* eslint-disable */"
        ));
        assert!(lint(
            Lang::C,
            "NOLINT",
            "int x; // NOLINT(bugprone-foo)",
            "int x; // NOLINT"
        ));
        // Scoped replacing bare is narrower.
        assert!(!lint(
            Lang::Go,
            "nolint",
            "x := f() //nolint",
            "x := f() //nolint:errcheck"
        ));
    }

    #[test]
    fn a_longer_reach_widens() {
        assert!(lint(
            Lang::Js,
            "eslint-disable",
            "// eslint-disable-next-line no-console",
            "/* eslint-disable no-console */"
        ));
        assert!(!lint(
            Lang::Js,
            "eslint-disable",
            "/* eslint-disable no-console */",
            "// eslint-disable-next-line no-console"
        ));
        assert!(lint(
            Lang::Rust,
            "#[allow(",
            "#[allow(dead_code)]",
            "#![allow(dead_code)]"
        ));
        assert!(lint(
            Lang::Swift,
            "swiftlint:disable",
            "// swiftlint:disable:next force_cast",
            "// swiftlint:disable force_cast"
        ));
        assert!(lint(
            Lang::Js,
            "istanbul ignore",
            "/* istanbul ignore next */",
            "/* istanbul ignore file */"
        ));
    }

    #[test]
    fn a_skip_wrapped_over_lines_or_respelt_is_read_by_its_own_label() {
        // A formatter put the condition on the next line: it is not known to be constant.
        assert!(!skip_widened(
            "pytest.mark.skipif",
            "@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')",
            "pytest.mark.skipif",
            "@pytest.mark.skipif(",
        ));
        // Each side is read by its own spelling of the skip.
        assert!(!skip_widened(
            "@skipIf",
            "@skipIf(sys.platform == 'win32', 'posix only')",
            "pytest.mark.skipif",
            "@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')",
        ));
        assert!(skip_widened(
            "@skipIf",
            "@skipIf(sys.platform == 'win32', 'posix only')",
            "pytest.mark.skipif",
            "@pytest.mark.skipif(True, reason='posix only')",
        ));
    }

    #[test]
    fn a_skip_becoming_unconditional_widens() {
        let skip =
            |label: &str, old: &str, new: &str| widened(Kind::Skips, Lang::Python, label, old, new);
        assert!(!skip(
            "pytest.mark.skipif",
            "@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')",
            "@pytest.mark.skipif(IS_WINDOWS, reason='posix only')"
        ));
        assert!(skip(
            "pytest.mark.skipif",
            "@pytest.mark.skipif(sys.platform == 'win32', reason='x')",
            "@pytest.mark.skipif(True, reason='x')"
        ));
        assert!(skip(
            "unittest.skipUnless",
            "@unittest.skipUnless(has_db(), 'needs a db')",
            "@unittest.skipUnless(False, 'needs a db')"
        ));
        assert!(skip(
            "pytest.mark.xfail",
            "@pytest.mark.xfail(sys.version_info < (3, 9), reason='old')",
            "@pytest.mark.xfail(reason='old')"
        ));
        assert!(widened(
            Kind::Skips,
            Lang::Js,
            "it.skipIf",
            "it.skipIf(isWindows)('x', () => {})",
            "it.skipIf(true)('x', () => {})"
        ));
        // An unconditional skip reworded stays what it was.
        assert!(!skip(
            "pytest.mark.skip",
            "@pytest.mark.skip(reason='a')",
            "@pytest.mark.skip(reason='b')"
        ));
        assert!(!skip(
            "pytest.mark.xfail",
            "@pytest.mark.xfail",
            "@pytest.mark.xfail(reason='known')"
        ));
    }

    #[test]
    fn todos_and_debug_leftovers_never_widen() {
        assert!(!widened(
            Kind::Todos,
            Lang::Js,
            "TODO",
            "// TODO a",
            "// TODO a and b and c"
        ));
        assert!(!widened(
            Kind::Debug,
            Lang::Js,
            "console.log",
            "console.log(a)",
            "console.log(a, b)"
        ));
    }
}
