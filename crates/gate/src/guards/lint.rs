//! Lint, type-check and coverage suppressions per language. Comment directives must open a
//! comment (as the tools themselves require: `// eslint-disable-next-line`, `# noqa`),
//! so prose that mentions a directive mid-sentence is not a finding. Attribute forms
//! (`#[allow(...)]`, `@SuppressWarnings`) are matched on code tokens.

use super::doc_tests;
use super::languages::Lang;
use super::line::{starts_with_directive, LineCtx};
use super::tokens::Tok;

/// (directive, case-insensitive)
type Directive = (&'static str, bool);

pub fn directives(lang: Lang) -> &'static [Directive] {
    match lang {
        Lang::Js => &[
            ("eslint-disable", false),
            ("@ts-ignore", false),
            ("@ts-expect-error", false),
            ("@ts-nocheck", false),
            ("tslint:disable", false),
            ("biome-ignore", false),
            ("oxlint-disable", false),
            ("deno-lint-ignore", false),
            ("jshint ignore", false),
            ("istanbul ignore", false),
            ("c8 ignore", false),
            ("v8 ignore", false),
            ("$FlowFixMe", false),
            ("$FlowIgnore", false),
            ("NOSONAR", false),
        ],
        Lang::Python => &[
            ("noqa", true),
            ("type: ignore", false),
            ("pylint: disable", false),
            ("pylint: skip-file", false),
            ("pyright: ignore", false),
            ("ty: ignore", false),
            ("mypy: ignore-errors", false),
            ("ruff: noqa", false),
            ("flake8: noqa", true),
            ("pragma: no cover", false),
            ("pragma: no branch", false),
            ("nosec", false),
        ],
        Lang::Go => &[
            ("nolint", false),
            ("lint:ignore", false),
            ("#nosec", false),
            ("nosec", false),
        ],
        Lang::Java | Lang::Kotlin => &[
            ("NOPMD", false),
            ("CHECKSTYLE:OFF", false),
            ("CHECKSTYLE.OFF", false),
            ("noinspection", false),
            ("NOSONAR", false),
            ("ktlint-disable", false),
        ],
        Lang::Ruby => &[
            ("rubocop:disable", false),
            ("rubocop:todo", false),
            ("standard:disable", false),
            ("steep:ignore", false),
            (":nocov:", false),
        ],
        Lang::Elixir => &[("credo:disable-for", false), ("coveralls-ignore", false)],
        Lang::CSharp => &[("ReSharper disable", false), ("NOSONAR", false)],
        Lang::Php => &[
            ("@phpstan-ignore", false),
            ("@psalm-suppress", false),
            ("phpcs:ignore", false),
            ("phpcs:disable", false),
            ("@codingStandardsIgnore", false),
            ("@SuppressWarnings", false),
            ("@codeCoverageIgnore", false),
        ],
        Lang::Swift => &[("swiftlint:disable", false)],
        Lang::C => &[
            ("NOLINT", false),
            ("NOLINTNEXTLINE", false),
            ("NOLINTBEGIN", false),
            ("cppcheck-suppress", false),
            ("LCOV_EXCL", false),
        ],
        Lang::Shell => &[("shellcheck disable", false)],
        // `-line`, `-next-line` and the block form (to `stylelint-enable` or the end of
        // the file) reach as ESLint's directives do; see `widen`.
        Lang::Css | Lang::Scss => &[("stylelint-disable", false)],
        Lang::Rust | Lang::Erlang | Lang::Data | Lang::Jsonc => &[],
    }
}

/// The label of an ESLint inline rule configuration that turns rules off.
pub const ESLINT_OFF: &str = "eslint rule: off";

/// The rules an ESLint inline configuration comment turns off (`eslint no-undef: 0`,
/// `eslint a: "off", b: ["off", {..}]`), from the comment's text; empty when it is no
/// such comment or turns every rule it names on (`1`, `2`, `"warn"`, `"error"`).
pub fn eslint_rules_off(piece: &str) -> Vec<String> {
    let Some(rest) = piece.trim_start().strip_prefix("eslint") else {
        return Vec::new();
    };
    if !rest.starts_with(char::is_whitespace) {
        return Vec::new();
    }
    let rest = rest.trim_end();
    let rest = rest.strip_suffix("*/").unwrap_or(rest);
    // `-- why` ends the configuration.
    let rest = rest.split(" -- ").next().unwrap_or(rest);
    let mut out = Vec::new();
    for item in top_level_commas(rest) {
        let Some((rule, value)) = item.split_once(':') else {
            continue;
        };
        let rule = rule.trim().trim_matches(['"', '\'']);
        let value = value.trim();
        let severity = value
            .strip_prefix('[')
            .map_or(value, |v| v.split(',').next().unwrap_or(""))
            .trim()
            .trim_end_matches(']')
            .trim()
            .trim_matches(['"', '\'']);
        let valid = !rule.is_empty()
            && rule
                .chars()
                .all(|c| c.is_alphanumeric() || "-_/@.".contains(c));
        if valid && (severity == "0" || severity == "off") {
            out.push(rule.to_string());
        }
    }
    out
}

/// `s` split at the commas outside brackets and braces.
fn top_level_commas(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// The labels of a line holding only entries of a suppression's list opened on an earlier
/// line (`clippy::needless_lifetimes,` inside `#![allow(` .. `)]`): each names one more
/// rule the attribute silences.
const LIST_OPENERS: &[(&str, &str)] = &[
    ("#![allow(", "#![allow(..)] entry"),
    ("#[allow(", "#[allow(..)] entry"),
    ("#![expect(", "#![expect(..)] entry"),
    ("#[expect(", "#[expect(..)] entry"),
    ("@SuppressWarnings(", "@SuppressWarnings(..) entry"),
    ("@Suppress(", "@Suppress(..) entry"),
    ("@file:Suppress(", "@file:Suppress(..) entry"),
];

/// Whether `label` is that of an entry of a multi-line suppression list.
pub fn is_list_entry(label: &str) -> bool {
    LIST_OPENERS.iter().any(|(_, l)| *l == label)
}

/// For each line of `text` (0-based), the entry label when the line is inside a
/// suppression's argument list that opened on an earlier line and has not closed yet.
pub fn open_lists(lang: Lang, text: &str) -> Vec<Option<&'static str>> {
    let mut out = Vec::new();
    if !matches!(lang, Lang::Rust | Lang::Java | Lang::Kotlin) {
        return out;
    }
    let mut open: Option<(&'static str, i32)> = None;
    for line in text.split('\n') {
        let code = line.split("//").next().unwrap_or("");
        if let Some((label, depth)) = open {
            out.push(Some(label));
            let depth = depth + paren_depth(code);
            open = (depth > 0).then_some((label, depth));
            continue;
        }
        out.push(None);
        let compact: String = code.split_whitespace().collect();
        let opener = LIST_OPENERS
            .iter()
            .find(|(o, _)| compact.starts_with(o) && (o.starts_with('#') == (lang == Lang::Rust)));
        if let Some((_, label)) = opener {
            let depth = paren_depth(code);
            open = (depth > 0).then_some((*label, depth));
        }
    }
    out
}

/// How many more `(` than `)` the code holds, outside string literals.
fn paren_depth(code: &str) -> i32 {
    let (mut depth, mut quote, mut escaped) = (0, false, false);
    for c in code.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quote => escaped = true,
            '"' => quote = !quote,
            '(' if !quote => depth += 1,
            ')' if !quote => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The rules a line inside a suppression's list names (`clippy::a, clippy::b,`,
/// `"unchecked",`): names, paths or string literals, the list's closers aside.
pub fn list_entries(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let code = code.trim().trim_end_matches([')', ']', '}', ',', ' ']);
    let code = code.trim_start_matches(['{', ' ']);
    let rule = |s: &str| {
        let bare = s.trim_matches('"');
        !bare.is_empty()
            && (s.starts_with('"') || !s.contains(char::is_whitespace))
            && bare
                .chars()
                .all(|c| c.is_alphanumeric() || "_:.-/ ".contains(c))
    };
    let items: Vec<&str> = code
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if items.is_empty() || !items.iter().all(|s| rule(s)) {
        return Vec::new();
    }
    items
        .iter()
        .map(|s| s.trim_matches('"').to_string())
        .collect()
}

/// Whether `path` is a type-test file: TypeScript (or checked JavaScript) that is never
/// run, only type-checked, where `// @ts-expect-error` over a statement is the assertion
/// that the statement does not type-check (`expectError(...)` in another spelling). The
/// default file patterns of the type-test runners:
/// - `*.test-d.*` and `*.spec-d.*`: tsd and Vitest's `typecheck.include`;
/// - `*.tst.*`: TSTyche;
/// - `*.test.*` directly in a `__typetests__` or `typetests` directory: TSTyche;
/// - any file under a `test-d` directory: tsd;
/// - a TypeScript file under a `typings` directory inside a test directory (`test`,
///   `tests`, `__tests__`): typings tests that the build only compiles with `tsc`.
///
/// A `types/` directory is not enough: it also holds the declarations the tests check.
pub fn is_type_test(path: &str) -> bool {
    typings_test(path) || runner_type_test(path)
}

fn typings_test(path: &str) -> bool {
    let ts = [".ts", ".mts", ".cts", ".tsx"]
        .iter()
        .any(|e| path.ends_with(e))
        && !path.ends_with(".d.ts");
    let mut dirs = path.split('/').rev().skip(1).collect::<Vec<_>>();
    dirs.reverse();
    let test_dir = dirs
        .iter()
        .position(|d| ["test", "tests", "__tests__"].contains(d));
    ts && test_dir.is_some_and(|t| dirs[t + 1..].contains(&"typings"))
}

fn runner_type_test(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or(path);
    let parent = parts.next();
    // What the name says before its extension: `a.test-d.ts` -> `test-d`.
    let segments: Vec<&str> = name.split('.').collect();
    let kind = match segments.len() {
        n if n >= 3 && !segments[0].is_empty() => segments[n - 2],
        _ => "",
    };
    ["test-d", "spec-d", "tst"].contains(&kind)
        || (kind == "test" && matches!(parent, Some("__typetests__" | "typetests")))
        || path.split('/').rev().skip(1).any(|d| d == "test-d")
}

/// Whether a Biome suppression comment names only the formatter (`biome-ignore format:
/// keep the table aligned`, also `biome-ignore-all` and `-start`): it keeps a hand layout,
/// as `prettier-ignore` or `rustfmt::skip` do, and silences no lint or type rule.
fn biome_format_only(piece: &str) -> bool {
    let Some(rest) = piece.trim_start().strip_prefix("biome-ignore") else {
        return false;
    };
    let rest = ["-all", "-start", "-end"]
        .iter()
        .find_map(|v| rest.strip_prefix(v))
        .unwrap_or(rest);
    let categories = rest.split(':').next().unwrap_or("");
    let mut words = categories.split_whitespace().peekable();
    words.peek().is_some() && words.all(|w| w == "format")
}

/// Whether a comment piece sits inside a Markdown code span of its comment: an odd number
/// of backticks before it (`# merging before \`# type: ignore\` would ..`). That is prose
/// naming a directive, quoted as code, not one: every tool wants its directive to open a
/// comment, and a quoted one is part of a sentence.
fn in_code_span(cx: &LineCtx, piece: &str) -> bool {
    cx.view.comments.iter().any(|comment| {
        let (start, end) = (comment.as_ptr() as usize, piece.as_ptr() as usize);
        end >= start
            && end <= start + comment.len()
            && comment[..end - start].matches('`').count() % 2 == 1
    })
}

/// The suppressions on one line, as short labels (`eslint-disable`, `#[allow(`).
/// `type_test`: the line is in a type-test file ([`is_type_test`]), where
/// `@ts-expect-error` is an assertion; `@ts-ignore` and the rest stay suppressions there.
pub fn find(cx: &LineCtx, type_test: bool) -> Vec<String> {
    let mut out = Vec::new();
    let table = directives(cx.lang);
    for piece in cx.comment_pieces() {
        if in_code_span(cx, piece) {
            continue;
        }
        if let Some((d, _)) = table
            .iter()
            .find(|(d, ci)| starts_with_directive(piece, d, *ci))
        {
            let assertion = type_test && *d == "@ts-expect-error";
            let formatter = *d == "biome-ignore" && biome_format_only(piece);
            if !(assertion || formatter) {
                out.push(d.to_string());
            }
        } else if cx.lang == Lang::Js && !eslint_rules_off(piece).is_empty() {
            out.push(ESLINT_OFF.to_string());
        } else if let Some(pragma) = (cx.lang == Lang::Python)
            .then(|| cx.coverage.find(piece))
            .flatten()
        {
            out.push(pragma);
        }
    }
    if let Some(hidden) = doc_tests::hidden_code(cx.lang, cx.view) {
        rust(&LineCtx::new(Lang::Rust, &hidden, cx.is_test), &mut out);
    }
    match cx.lang {
        Lang::Rust => rust(cx, &mut out),
        Lang::Java | Lang::Kotlin => jvm(cx, &mut out),
        Lang::CSharp => pragmas(cx, &mut out),
        Lang::C => {
            pragmas(cx, &mut out);
            out.extend(pragma_macro(cx));
        }
        Lang::Python
            if cx.chains.iter().any(|ch| {
                ch.last() == "no_type_check" && ch.before(&cx.toks) == Some(Tok::Punct('@'))
            }) =>
        {
            out.push("@no_type_check".into());
        }
        _ => {}
    }
    if cx.lang == Lang::CSharp {
        let attr = cx.chains.iter().any(|ch| {
            [
                "SuppressMessage",
                "SuppressMessageAttribute",
                "UnconditionalSuppressMessage",
                "UnconditionalSuppressMessageAttribute",
            ]
            .contains(&ch.last())
                && matches!(ch.before(&cx.toks), Some(Tok::Punct('[' | ',')))
        });
        if attr {
            out.push("[SuppressMessage]".into());
        }
        // C#'s coverage exclusion: the member it marks leaves the coverage report, as
        // `pragma: no cover` or `@codeCoverageIgnore` take code out of it.
        let coverage = cx.chains.iter().any(|ch| {
            [
                "ExcludeFromCodeCoverage",
                "ExcludeFromCodeCoverageAttribute",
            ]
            .contains(&ch.last())
                && matches!(ch.before(&cx.toks), Some(Tok::Punct('[' | ',')))
        });
        if coverage {
            out.push("[ExcludeFromCodeCoverage]".into());
        }
    }
    out
}

fn rust(cx: &LineCtx, out: &mut Vec<String>) {
    let Some(at) = cx.attribute_start() else {
        return;
    };
    // `#[allow(..)]`, `#![expect(..)]`, `#[cfg_attr(test, allow(..))]`
    for i in at..cx.toks.len() {
        if let Some(name @ ("allow" | "expect")) = cx.ident(i) {
            let opener = i == at || cx.punct(i - 1, ',');
            let inside_cfg_attr = i > at && cx.ident(at) == Some("cfg_attr");
            if cx.punct(i + 1, '(') && (i == at || (opener && inside_cfg_attr)) {
                out.push(format!("#[{name}("));
                return;
            }
        }
    }
}

/// Whether a JVM annotation's simple name says it silences a check: `Suppress` itself, or
/// `Suppress` followed by what it silences when that is named as a check, a warning or a
/// lint (`SuppressWarnings`, `SuppressFBWarnings`, `SuppressLint`, animal-sniffer's
/// conventional `SuppressSignatureCheck`, forbidden-apis' `SuppressForbidden`). Other
/// `Suppress..` annotations switch off something else (PowerMock's
/// `SuppressStaticInitializationFor`, Lucene's `SuppressCodecs`).
fn suppresses_a_check(name: &str) -> bool {
    const WHAT: &[&str] = &[
        "Warning",
        "Warnings",
        "Check",
        "Checks",
        "Lint",
        "Forbidden",
    ];
    name == "Suppress"
        || name
            .strip_prefix("Suppress")
            .is_some_and(|what| WHAT.iter().any(|w| what.ends_with(w)))
}

fn jvm(cx: &LineCtx, out: &mut Vec<String>) {
    for ch in &cx.chains {
        if !suppresses_a_check(ch.last()) {
            continue;
        }
        let annotated = ch.before(&cx.toks) == Some(Tok::Punct('@'));
        // Kotlin file-wide form: `@file:Suppress("...")`.
        let file_wide = ch.start >= 3
            && cx.punct(ch.start - 1, ':')
            && cx.ident(ch.start - 2) == Some("file")
            && cx.punct(ch.start - 3, '@');
        if annotated || file_wide {
            out.push(format!("@{}", ch.last()));
        }
    }
}

fn pragmas(cx: &LineCtx, out: &mut Vec<String>) {
    if !cx.punct(0, '#') {
        return;
    }
    let words: Vec<&str> = (1..cx.toks.len().min(6))
        .filter_map(|i| cx.ident(i))
        .collect();
    let hit = match cx.lang {
        Lang::CSharp => {
            words.starts_with(&["pragma", "warning", "disable"])
                || words.starts_with(&["nullable", "disable"])
        }
        _ => {
            (words.len() >= 4
                && words[0] == "pragma"
                && ["GCC", "clang"].contains(&words[1])
                && words[2] == "diagnostic"
                && words[3] == "ignored")
                || (words.starts_with(&["pragma", "warning"])
                    && cx.toks.contains(&Tok::Ident("disable")))
        }
    };
    if hit {
        out.push(format!("#{}", words.join(" ")));
    }
}

/// A warning-silencing pragma written through a macro, as C and C++ libraries do to
/// reach several compilers from one line: a statement-leading call of `__pragma` (MSVC's
/// operator) or of a macro whose name says it wraps one (`FMT_PRAGMA_GCC`,
/// `HEDLEY_PRAGMA`), whose argument is the body of a pragma that silences a named warning:
/// `warning(disable : 4702)` (numbers only) or `diagnostic ignored "-W.."` (a string),
/// optionally after `GCC`/`clang`. A body whose warning is a macro parameter
/// (`__pragma(warning(disable: warnings))` inside a `#define`) names none: it defines a
/// suppression helper rather than suppressing. The macro's own `#define` line starts with
/// `#` and is not a call.
fn pragma_macro(cx: &LineCtx) -> Option<String> {
    let name = cx.ident(0)?;
    let wraps_pragma = name == "__pragma" || name.to_ascii_uppercase().contains("PRAGMA");
    if !wraps_pragma || !cx.punct(1, '(') {
        return None;
    }
    let mut i = 2;
    if cx.ident(i).is_some_and(|c| c == "GCC" || c == "clang") {
        i += 1;
    }
    match (cx.ident(i), cx.ident(i + 1)) {
        (Some("warning"), _) if cx.punct(i + 1, '(') && cx.ident(i + 2) == Some("disable") => {
            let ids = cx
                .toks
                .get(i + 3..)
                .unwrap_or_default()
                .iter()
                .take_while(|t| **t != Tok::Punct(')'));
            let (mut numbers, mut names) = (0, 0);
            for t in ids {
                match t {
                    Tok::Num => numbers += 1,
                    Tok::Ident(_) => names += 1,
                    _ => {}
                }
            }
            (numbers > 0 && names == 0).then(|| format!("{name}(warning(disable"))
        }
        (Some("diagnostic"), Some("ignored")) if cx.toks.get(i + 2) == Some(&Tok::Str) => {
            Some(format!("{name}(diagnostic ignored"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::lex_line;
    use super::*;

    fn found(lang: Lang, line: &str) -> Vec<String> {
        let view = lex_line(&lang.syntax(), line);
        find(&LineCtx::new(lang, &view, false), false)
    }

    fn hits(lang: Lang, line: &str) -> bool {
        !found(lang, line).is_empty()
    }

    /// A line comment in `lang` holding `body`.
    fn comment(lang: Lang, body: &str) -> String {
        let marker = lang.syntax().line_comments[0];
        format!("x = 1 {marker} {body}")
    }

    /// A string literal in `lang` holding `body`.
    fn string(body: &str) -> String {
        format!("x = \"{body}\"")
    }

    const ALL: &[Lang] = &[
        Lang::Js,
        Lang::Python,
        Lang::Go,
        Lang::Rust,
        Lang::Java,
        Lang::Kotlin,
        Lang::Ruby,
        Lang::Elixir,
        Lang::CSharp,
        Lang::Php,
        Lang::Swift,
        Lang::C,
        Lang::Shell,
        Lang::Scss,
    ];

    #[test]
    fn every_directive_is_caught_in_a_comment_and_not_in_a_string_or_prose() {
        for &lang in ALL {
            for (directive, _) in directives(lang) {
                let line = comment(lang, &format!("{directive} reason"));
                assert_eq!(
                    found(lang, &line),
                    vec![directive.to_string()],
                    "{lang:?}: {line}"
                );
                let block = format!("/* {directive} */");
                if lang.syntax().block_comment.is_some() {
                    assert!(hits(lang, &block), "{lang:?}: {block}");
                }
                let quoted = string(directive);
                assert!(!hits(lang, &quoted), "{lang:?}: {quoted}");
                let prose = comment(lang, &format!("we avoid {directive} here"));
                assert!(!hits(lang, &prose), "{lang:?}: {prose}");
                if directive.ends_with(|c: char| c.is_alphanumeric()) {
                    let longer = comment(lang, &format!("{directive}zz"));
                    assert!(!hits(lang, &longer), "{lang:?}: {longer}");
                }
            }
        }
    }

    #[test]
    fn js_suppressions_are_caught() {
        for line in [
            "// eslint-disable-next-line no-console",
            "/* eslint-disable */",
            "foo(); // eslint-disable-line",
            "// @ts-ignore",
            "  // @ts-expect-error wrong type on purpose",
            "// @ts-nocheck",
            "/* istanbul ignore next */",
            "// biome-ignore lint/suspicious: x",
            "// biome-ignore-all lint/style/useConst format: both",
        ] {
            assert!(hits(Lang::Js, line), "{line}");
        }
        assert_eq!(found(Lang::Js, "// @ts-ignore"), vec!["@ts-ignore"]);
    }

    #[test]
    fn js_lookalikes_are_not_suppressions() {
        for line in [
            "const s = '// eslint-disable-line';",
            "// biome-ignore format: keep the hand layout",
            "/* biome-ignore-all format: generated table */",
            "// we never use eslint-disable here",
            "// eslint-disabled rules are listed below",
            "ts_ignore(x)",
            "// @ts-ignored",
        ] {
            assert!(!hits(Lang::Js, line), "{line}");
        }
    }

    #[test]
    fn ts_expect_error_is_an_assertion_in_a_type_test_file_only() {
        let in_type_test = |line: &str| {
            let view = lex_line(&Lang::Js.syntax(), line);
            find(&LineCtx::new(Lang::Js, &view, true), true)
        };
        // tsd's `expectError(f(1))` written as TSTyche and Vitest type tests write it.
        assert!(in_type_test("  // @ts-expect-error").is_empty());
        assert!(in_type_test("// @ts-expect-error: a number is no route").is_empty());
        // A suppression of a type error stays one, in a type test as anywhere.
        assert_eq!(in_type_test("  // @ts-ignore"), vec!["@ts-ignore"]);
        assert_eq!(in_type_test("// @ts-nocheck"), vec!["@ts-nocheck"]);
        assert_eq!(
            in_type_test("// eslint-disable-next-line @typescript-eslint/no-explicit-any"),
            vec!["eslint-disable"]
        );
        // Outside a type test, `@ts-expect-error` silences the checker.
        assert_eq!(
            found(Lang::Js, "  // @ts-expect-error"),
            vec!["@ts-expect-error"]
        );
    }

    #[test]
    fn type_test_files_are_the_type_test_runners_own_patterns() {
        for path in [
            "test/types/content-type-parser.test-d.ts",
            "index.test-d.ts",
            "src/mount.test-d.tsx",
            "src/mount.spec-d.mts",
            "test/types/fastify.tst.ts",
            "typetests/config.test.ts",
            "src/__typetests__/hooks.test.tsx",
            "test-d/index.ts",
            "packages/a/test-d/nested/options.ts",
            "test/module/typings/esm/index.ts",
            "tests/typings/cjs/index.mts",
        ] {
            assert!(is_type_test(path), "{path}");
        }
        for path in [
            "test/types/instance.ts",
            "types/index.d.ts",
            "src/route.test.ts",
            "src/route.spec.ts",
            "src/tst.ts",
            "src/test-d.ts",
            "src/typetests/helpers.ts",
            "src/__typetests__/nested/a.test.ts",
            "test-data/fixtures.ts",
            "lib/test-dx/a.ts",
            "src/typings/index.ts",
            "typings/test/index.ts",
            "test/typings/index.d.ts",
            "test/typings/run.js",
            "test/unit/index.ts",
        ] {
            assert!(!is_type_test(path), "{path}");
        }
    }

    #[test]
    fn eslint_rules_turned_off_inline_are_suppressions_and_turned_on_are_not() {
        for line in [
            "/*eslint no-undef:0*/",
            "/* eslint no-console: \"off\", eqeqeq: 2 */",
            "/* eslint quotes: [\"off\", \"double\"] */",
            "/* eslint @typescript-eslint/no-explicit-any: off */",
            "/* eslint indent: [0, 4] */",
            "/* eslint eqeqeq: off -- legacy code */",
        ] {
            assert_eq!(found(Lang::Js, line), vec![ESLINT_OFF], "{line}");
        }
        for line in [
            "/* eslint no-undef: 2 */",
            "/* eslint eqeqeq: \"error\", quotes: [\"warn\", \"double\"] */",
            "/* eslint-env node */",
            "// eslint is run in CI: 0 errors",
            "const s = '/* eslint no-undef: 0 */';",
        ] {
            assert!(!hits(Lang::Js, line), "{line}");
        }
        assert_eq!(
            eslint_rules_off(" eslint a: 0, b: [\"off\", {x: 1}], c: 1"),
            vec!["a", "b"]
        );
    }

    #[test]
    fn entries_of_multi_line_suppression_lists_are_found() {
        let text = "#![allow(\n    clippy::a,\n    clippy::b, clippy::c, // why\n)]\nfn f() {}\n#![allow(x)]\ny";
        assert_eq!(
            open_lists(Lang::Rust, text),
            vec![
                None,
                Some("#![allow(..)] entry"),
                Some("#![allow(..)] entry"),
                Some("#![allow(..)] entry"),
                None,
                None,
                None
            ]
        );
        assert_eq!(list_entries("    clippy::a,"), vec!["clippy::a"]);
        assert_eq!(
            list_entries("    clippy::b, clippy::c, // why"),
            vec!["clippy::b", "clippy::c"]
        );
        assert!(list_entries(")]").is_empty());
        let java = "@SuppressWarnings({\n    \"unchecked\",\n    \"rawtypes\"})\nclass A {}";
        let lists = open_lists(Lang::Java, java);
        assert_eq!(lists[1], Some("@SuppressWarnings(..) entry"));
        assert_eq!(lists[2], Some("@SuppressWarnings(..) entry"));
        assert_eq!(lists[3], None);
        assert_eq!(list_entries("    \"rawtypes\"})"), vec!["rawtypes"]);
        // Other attributes' lists are not suppressions.
        let derive = "#[derive(\n    Debug,\n)]";
        assert!(open_lists(Lang::Rust, derive).iter().all(Option::is_none));
    }

    #[test]
    fn python_suppressions_are_caught() {
        for line in [
            "import os  # noqa",
            "import os  # noqa: F401",
            "x = f()  # NOQA",
            "x: int = y  # type: ignore[assignment]",
            "x = y  # type:ignore",
            "# pylint: disable=invalid-name",
            "x = 1  # pyright: ignore",
            "if x:  # pragma: no cover",
            "elif y:  # pragma: no branch",
            "while True:  # pragma:no branch",
            "run(cmd)  # nosec",
            "x = 1  # type: int  # noqa",
            "x = y  # see `z`  # type: ignore",
            "@no_type_check",
            "@typing.no_type_check",
        ] {
            assert!(hits(Lang::Python, line), "{line}");
        }
        for line in [
            "# this needs no noqa at all",
            "noqa = 1",
            "s = '# noqa'",
            "# type: int",
            "# nosecurity review needed",
            "no_type_check = 1",
            "# a comment like `# type: ignore` follows the bracket",
        ] {
            assert!(!hits(Lang::Python, line), "{line}");
        }
    }

    #[test]
    fn rust_suppressions_are_caught() {
        assert!(hits(Lang::Rust, "#[allow(dead_code)]"));
        assert!(hits(Lang::Rust, "#![allow(clippy::all)]"));
        assert!(hits(Lang::Rust, "#[expect(unused)]"));
        assert!(hits(Lang::Rust, "#[cfg_attr(test, allow(dead_code))]"));
        assert!(!hits(Lang::Rust, "let allow = allow(x);"));
        assert!(!hits(Lang::Rust, "// #[allow(dead_code)]"));
        assert!(hits(Lang::Rust, "/// # #![allow(deprecated)]"));
        assert!(!hits(Lang::Rust, "/// #[allow(dead_code)] is how"));
        assert!(!hits(Lang::Rust, "#[derive(Debug)]"));
        assert!(!hits(Lang::Rust, "#[serde(allow_unknown)]"));
    }

    #[test]
    fn go_suppressions_are_caught() {
        assert!(hits(Lang::Go, "x := f() //nolint:errcheck"));
        assert!(hits(Lang::Go, "x := f() // nolint"));
        assert!(hits(Lang::Go, "x := f() // #nosec G104"));
        assert!(!hits(Lang::Go, "// nolinter is a tool"));
        assert!(!hits(Lang::Go, "s := \"//nolint\""));
    }

    #[test]
    fn jvm_suppressions_are_caught() {
        assert!(hits(Lang::Java, "@SuppressWarnings(\"unchecked\")"));
        assert!(hits(Lang::Java, "int x; // NOPMD"));
        assert!(hits(Lang::Kotlin, "@Suppress(\"UNCHECKED_CAST\")"));
        assert!(hits(Lang::Kotlin, "@file:Suppress(\"x\")"));
        assert!(!hits(Lang::Java, "suppressWarnings(x);"));
        assert!(!hits(Lang::Java, "String s = \"@SuppressWarnings\";"));
    }

    #[test]
    fn other_language_suppressions_are_caught() {
        assert!(hits(
            Lang::Scss,
            "  margin: 0; // stylelint-disable-line declaration-no-important"
        ));
        assert!(hits(Lang::Css, "/* stylelint-disable-next-line a */"));
        assert!(!hits(Lang::Css, "/* stylelint-enable */"));
        assert!(!hits(
            Lang::Css,
            "a::before { content: \"/* stylelint-disable */\"; }"
        ));
        assert!(!hits(Lang::Scss, "// we never use stylelint-disable here"));
        assert!(hits(Lang::Swift, "// swiftlint:disable force_cast"));
        assert!(hits(Lang::Ruby, "def x # rubocop:disable Metrics/AbcSize"));
        assert!(hits(Lang::Php, "    /** @phpstan-ignore-next-line */"));
        assert!(hits(Lang::Php, "     * @psalm-suppress MixedAssignment"));
        assert!(hits(Lang::CSharp, "#pragma warning disable CS0168"));
        assert!(hits(Lang::CSharp, "[SuppressMessage(\"x\", \"y\")]"));
        assert!(hits(
            Lang::CSharp,
            "    [UnconditionalSuppressMessage(\"Trimming\", \"IL2057\")]"
        ));
        assert!(hits(Lang::CSharp, "    [ExcludeFromCodeCoverage]"));
        assert!(hits(
            Lang::CSharp,
            "[System.Diagnostics.CodeAnalysis.ExcludeFromCodeCoverage(Justification = \"x\")]"
        ));
        assert!(!hits(
            Lang::CSharp,
            "var t = typeof(ExcludeFromCodeCoverageAttribute);"
        ));
        assert!(!hits(
            Lang::CSharp,
            "using System.Diagnostics.CodeAnalysis;"
        ));
        assert!(hits(Lang::C, "int x; // NOLINT(bugprone-foo)"));
        assert!(hits(Lang::C, "#pragma GCC diagnostic ignored \"-Wunused\""));
        // The same pragmas through a macro call.
        assert!(hits(Lang::C, "FMT_PRAGMA_MSVC(warning(disable : 4702))"));
        assert!(hits(
            Lang::C,
            "  FMT_PRAGMA_GCC(diagnostic ignored \"-Wconversion\")"
        ));
        assert!(hits(Lang::C, "__pragma(warning(disable: 4996))"));
        assert!(hits(
            Lang::C,
            "JSON_PRAGMA(clang diagnostic ignored \"-Wfloat-equal\")"
        ));
        assert!(!hits(Lang::C, "FMT_PRAGMA_MSVC(warning(push))"));
        assert!(!hits(Lang::C, "FMT_PRAGMA_GCC(diagnostic push)"));
        assert!(!hits(Lang::C, "#  define FMT_PRAGMA_MSVC(x) __pragma(x)"));
        assert!(!hits(Lang::C, "disable_warning(diagnostic ignored)"));
        // A suppression helper's body names its warning by a parameter: no warning yet.
        assert!(!hits(Lang::C, "    __pragma(warning(disable: warnings))"));
        assert!(!hits(
            Lang::C,
            "  HEDLEY_PRAGMA(clang diagnostic ignored x)"
        ));
        assert!(hits(Lang::Shell, "# shellcheck disable=SC2086"));
        assert!(hits(Lang::Elixir, "# credo:disable-for-next-line"));
        assert!(!hits(Lang::CSharp, "#pragma warning restore CS0168"));
        assert!(!hits(Lang::C, "#pragma once"));
        assert!(!hits(Lang::Swift, "let swiftlint = \"swiftlint:disable\""));
        assert!(!hits(Lang::Ruby, "# see rubocop docs on disabling"));
        assert!(!hits(Lang::Shell, "echo shellcheck disable"));
    }
}
