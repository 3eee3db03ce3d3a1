//! Go build constraints that take a test file out of a plain `go test ./...`.
//!
//! A `//go:build integration` (or legacy `// +build integration`) line put on a test file
//! that ran skips every test in it, as surely as a `t.Skip()` in each, without a marker
//! anywhere. A plain run sets no custom tag, so a constraint that cannot hold with every
//! custom tag off excludes the file. Platform and toolchain tags (`linux`, `!windows`,
//! `amd64`, `cgo`, `go1.21`, `race`, ...) are left free: some ordinary machine satisfies
//! them, and gating a test to the platforms it can run on is not a skip.

use super::{DeltaKind, FileDelta, Finding};

const GOOS: &[&str] = &[
    "aix",
    "android",
    "darwin",
    "dragonfly",
    "freebsd",
    "hurd",
    "illumos",
    "ios",
    "js",
    "linux",
    "nacl",
    "netbsd",
    "openbsd",
    "plan9",
    "solaris",
    "wasip1",
    "windows",
    "zos",
];

const GOARCH: &[&str] = &[
    "386",
    "amd64",
    "amd64p32",
    "arm",
    "armbe",
    "arm64",
    "arm64be",
    "loong64",
    "mips",
    "mipsle",
    "mips64",
    "mips64le",
    "mips64p32",
    "mips64p32le",
    "ppc",
    "ppc64",
    "ppc64le",
    "riscv",
    "riscv64",
    "s390",
    "s390x",
    "sparc",
    "sparc64",
    "wasm",
];

/// Tags some ordinary build may set without the user asking for a custom one.
fn free_tag(tag: &str) -> bool {
    GOOS.contains(&tag)
        || GOARCH.contains(&tag)
        || matches!(
            tag,
            "unix" | "cgo" | "gc" | "gccgo" | "race" | "msan" | "asan"
        )
        || tag.starts_with("go1.")
        || tag.starts_with("goexperiment.")
}

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Tag(String),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
}

impl Expr {
    fn eval(&self, on: &dyn Fn(&str) -> bool) -> bool {
        match self {
            Expr::Tag(t) => on(t),
            Expr::Not(e) => !e.eval(on),
            Expr::And(a, b) => a.eval(on) && b.eval(on),
            Expr::Or(a, b) => a.eval(on) || b.eval(on),
        }
    }

    fn free_tags(&self, out: &mut Vec<String>) {
        match self {
            Expr::Tag(t) if free_tag(t) && !out.contains(t) => out.push(t.clone()),
            Expr::Tag(_) => {}
            Expr::Not(e) => e.free_tags(out),
            Expr::And(a, b) | Expr::Or(a, b) => {
                a.free_tags(out);
                b.free_tags(out);
            }
        }
    }

    /// Whether some setting of the free tags, every custom tag off, satisfies it. Past a
    /// dozen free tags it is taken to hold (nothing is claimed that was not checked).
    fn holds_in_a_plain_build(&self) -> bool {
        let mut free = Vec::new();
        self.free_tags(&mut free);
        if free.len() > 12 {
            return true;
        }
        (0u32..1 << free.len()).any(|bits| {
            self.eval(&|t: &str| {
                free.iter()
                    .position(|f| f == t)
                    .is_some_and(|i| bits & (1 << i) != 0)
            })
        })
    }
}

/// `//go:build` expressions: `||`, `&&`, `!`, parentheses, tags.
fn parse_go_build(text: &str) -> Option<Expr> {
    let mut toks = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("||").or_else(|| rest.strip_prefix("&&")) {
            toks.push(rest[..2].to_string());
            rest = r;
        } else if let Some(c @ ('!' | '(' | ')')) = rest.chars().next() {
            toks.push(c.to_string());
            rest = &rest[1..];
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            toks.push(rest[..end].to_string());
            rest = &rest[end..];
        }
        rest = rest.trim_start();
    }
    let mut at = 0;
    let e = or(&toks, &mut at)?;
    (at == toks.len()).then_some(e)
}

fn or(toks: &[String], at: &mut usize) -> Option<Expr> {
    let mut e = and(toks, at)?;
    while toks.get(*at).map(String::as_str) == Some("||") {
        *at += 1;
        e = Expr::Or(Box::new(e), Box::new(and(toks, at)?));
    }
    Some(e)
}

fn and(toks: &[String], at: &mut usize) -> Option<Expr> {
    let mut e = unary(toks, at)?;
    while toks.get(*at).map(String::as_str) == Some("&&") {
        *at += 1;
        e = Expr::And(Box::new(e), Box::new(unary(toks, at)?));
    }
    Some(e)
}

fn unary(toks: &[String], at: &mut usize) -> Option<Expr> {
    let t = toks.get(*at)?.as_str();
    *at += 1;
    match t {
        "!" => Some(Expr::Not(Box::new(unary(toks, at)?))),
        "(" => {
            let e = or(toks, at)?;
            (toks.get(*at).map(String::as_str) == Some(")")).then(|| *at += 1)?;
            Some(e)
        }
        "||" | "&&" | ")" => None,
        tag => Some(Expr::Tag(tag.to_string())),
    }
}

/// A legacy `// +build` line: space-separated options, any of which may hold; each a
/// comma-separated list of terms that must all hold; a term `!tag` negated.
fn parse_plus_build(text: &str) -> Option<Expr> {
    let term = |t: &str| match t.strip_prefix('!') {
        Some(tag) if !tag.is_empty() => Some(Expr::Not(Box::new(Expr::Tag(tag.to_string())))),
        None if !t.is_empty() => Some(Expr::Tag(t.to_string())),
        _ => None,
    };
    let option = |o: &str| -> Option<Expr> {
        let mut terms = o.split(',').map(term);
        let first = terms.next()??;
        terms.try_fold(first, |e, t| Some(Expr::And(Box::new(e), Box::new(t?))))
    };
    let mut options = text.split_whitespace().map(option);
    let first = options.next()??;
    options.try_fold(first, |e, o| Some(Expr::Or(Box::new(e), Box::new(o?))))
}

/// The file's build constraint, read where Go reads it (line comments and blank lines
/// before the package clause), with the 1-based line that states it. `//go:build` wins
/// over legacy `// +build` lines, which must all hold.
fn constraint(text: &str) -> Option<(u32, String, Expr)> {
    let mut legacy: Option<(u32, String, Expr)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some(comment) = t.strip_prefix("//") else {
            break;
        };
        let number = i as u32 + 1;
        if let Some(expr) = comment.strip_prefix("go:build") {
            if expr.starts_with([' ', '\t']) {
                return parse_go_build(expr).map(|e| (number, t.to_string(), e));
            }
        } else if let Some(expr) = comment.trim_start().strip_prefix("+build") {
            let Some(e) = parse_plus_build(expr) else {
                continue;
            };
            legacy = Some(match legacy {
                Some((n, s, prev)) => (n, s, Expr::And(Box::new(prev), Box::new(e))),
                None => (number, t.to_string(), e),
            });
        }
    }
    legacy
}

/// The constraint that keeps `text` out of a plain build, if it has one.
fn excluded(text: &str) -> Option<(u32, String)> {
    constraint(text)
        .filter(|(_, _, e)| !e.holds_in_a_plain_build())
        .map(|(n, s, _)| (n, s))
}

/// Go test files that held tests and ran in a plain `go test ./...`, and no longer do
/// because the change gave them a constraint that needs a custom tag. A new file written
/// behind a tag (`//go:build integration`) is how integration tests are kept apart, and a
/// file that was already excluded is as it was: neither is a finding.
pub fn findings(deltas: &[&FileDelta]) -> Vec<Finding> {
    let mut out = Vec::new();
    for d in deltas {
        let existed = matches!(d.kind, DeltaKind::Modified | DeltaKind::Renamed { .. });
        if !existed || !d.path.ends_with("_test.go") {
            continue;
        }
        let held_tests = d.old_counts.is_some_and(|c| c.tests > 0);
        let (Some(old), Some(new)) = (d.old_text.as_deref(), d.new_text.as_deref()) else {
            continue;
        };
        if !held_tests || excluded(old).is_some() {
            continue;
        }
        if let Some((line, text)) = excluded(new) {
            let tests = d.old_counts.map_or(0, |c| c.tests);
            out.push(Finding {
                path: d.path.clone(),
                line: Some(line),
                snippet: super::scan::snippet(&text),
                message: format!(
                    "a build constraint was added that leaves the {tests} test(s) of `{}` out of a plain `go test ./...` (`{text}` needs a tag nobody sets by default): remove it and make the tests pass",
                    d.shown_path()
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(text: &str) -> Option<u32> {
        excluded(text).map(|(n, _)| n)
    }

    #[test]
    fn a_custom_tag_or_ignore_keeps_a_file_out() {
        assert_eq!(out("//go:build integration\n\npackage a\n"), Some(1));
        assert_eq!(
            out("// Copyright\n\n//go:build ignore\n\npackage a\n"),
            Some(3)
        );
        assert_eq!(out("//go:build linux && e2e\n\npackage a\n"), Some(1));
        assert_eq!(out("// +build integration\n\npackage a\n"), Some(1));
        assert_eq!(out("// +build linux,slow\n\npackage a\n"), Some(1));
        assert_eq!(out("//go:build !(linux || !linux)\npackage a\n"), Some(1));
    }

    #[test]
    fn platform_gates_and_negated_tags_run_somewhere() {
        for text in [
            "package a\n",
            "//go:build linux\n\npackage a\n",
            "//go:build !windows && (amd64 || arm64)\n\npackage a\n",
            "//go:build !integration\n\npackage a\n",
            "//go:build go1.21 && cgo\n\npackage a\n",
            "// +build !windows\n\npackage a\n",
            "//go:build integration || linux\n\npackage a\n",
            // After the package clause it is no constraint at all.
            "package a\n\n//go:build integration\n",
            // Not the directive: no space after it.
            "//go:buildintegration\npackage a\n",
        ] {
            assert_eq!(out(text), None, "{text}");
        }
    }

    #[test]
    fn go_build_wins_over_legacy_lines() {
        let text = "//go:build linux\n// +build integration\n\npackage a\n";
        assert_eq!(out(text), None);
    }

    #[test]
    fn malformed_expressions_claim_nothing() {
        for text in [
            "//go:build (integration\npackage a\n",
            "//go:build && x\npackage a\n",
            "//go:build a b\npackage a\n",
            "//go:build $\npackage a\n",
        ] {
            assert_eq!(out(text), None, "{text}");
        }
    }
}
