//! A test merged into another: its statements now live in the body of a test that was
//! there before the change and grew with it (two tests combined into one, a test's cases
//! folded into a neighbour's table), in its own file or another file of the change.
//!
//! The evidence is the body, read as a multiset of statements (normalised lines, see
//! [`super::test_moves`], a trailing `;` aside). For a removed test `R` and a kept test
//! whose body was `O` and is now `N`, `R` is carried by it when:
//! - most of `R` is in `N`: more than half of its statements;
//! - what `R` held beyond `O` arrived with the change: of the statements of `R` that `O`
//!   did not already hold, at least one and at least half are among those `N` gained
//!   (`N` minus `O`). A neighbour that was already alike, and gained nothing of `R`'s own,
//!   does not carry it: that is a near-duplicate deleted;
//! - and it is more than a line of boilerplate: at least two statements of `R` are in
//!   `N`, or `R` is one statement that no other line of its file held.
//!
//! Each gained statement carries one removed statement at most, so two removed copies are
//! not both carried by one gain. A test deleted with the code it tested leaves no gained
//! statement of its own anywhere, and stays deleted.

use super::account::normalise;
use super::languages::Lang;
use super::test_moves::{declared, same_tests, Declared};
use super::test_paths::TestPaths;
use super::{DeltaKind, FileDelta, Line};

/// A test the change kept (same declaration before and after) whose body gained
/// statements.
pub struct Receiver {
    /// Index of its file among the change's deltas.
    pub at: usize,
    /// The line that names it, as a finding shows it (`fn test_integer_key()`).
    pub name: String,
    after: Vec<String>,
    before: Vec<String>,
    /// `after` minus `before`, as a multiset; statements are taken out as they carry.
    gained: Vec<String>,
}

/// A body line as a statement: a formatter's or a merge's trailing `;` is no difference.
fn statement(line: &str) -> String {
    normalise(line).trim_end_matches(';').trim_end().to_string()
}

fn statements(body: &[String]) -> Vec<String> {
    body.iter().map(|l| statement(l)).collect()
}

/// `a` minus `b`, each line of `b` taking away one equal line of `a`.
fn minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut left: Vec<&String> = b.iter().collect();
    a.iter()
        .filter(|l| match left.iter().position(|x| x == l) {
            Some(i) => {
                left.swap_remove(i);
                false
            }
            None => true,
        })
        .cloned()
        .collect()
}

/// How many lines of `a` are lines of `b`, each line of `b` used once.
fn shared(a: &[String], b: &[String]) -> usize {
    a.len() - minus(a, b).len()
}

/// The tests of the change's files that kept their declaration and gained statements.
pub fn receivers(deltas: &[&FileDelta], tests: &TestPaths) -> Vec<Receiver> {
    let builtin = TestPaths::default();
    let mut out = Vec::new();
    for (at, d) in deltas.iter().enumerate() {
        let old_path = match &d.kind {
            DeltaKind::Renamed { from } => from.as_str(),
            DeltaKind::Modified => d.path.as_str(),
            DeltaKind::Added | DeltaKind::Deleted => continue,
        };
        let (Some(old), Some(new)) = (d.old_text.as_deref(), d.new_text.as_deref()) else {
            continue;
        };
        let changed = !d.added_lines.is_empty() || !d.removed_lines.is_empty();
        if !changed || !tests.is_counted(&d.path) {
            continue;
        }
        let (Some(old_lang), Some(lang)) = (Lang::from_path(old_path), Lang::from_path(&d.path))
        else {
            continue;
        };
        let mut before = declared(
            &Line::all_of(old),
            Some(old),
            old_lang,
            builtin.is_test(old_path),
        );
        let mut now = declared(
            &Line::all_of(new),
            Some(new),
            lang,
            builtin.is_test(&d.path),
        );
        for (was, t) in same_tests(&mut before, &mut now) {
            let (after, before) = (statements(&t.body), statements(&was.body));
            let gained = minus(&after, &before);
            if !gained.is_empty() {
                out.push(Receiver {
                    at,
                    name: shown(&t),
                    after,
                    before,
                    gained,
                });
            }
        }
    }
    out
}

/// The naming line of a test without its opening bracket: `fn test_x()`, `func TestX(t
/// *testing.T)`.
fn shown(t: &Declared) -> String {
    let named = t.key.rsplit(" / ").next().unwrap_or(&t.key);
    named.trim_end_matches(['{', ' ', ':']).to_string()
}

/// The receiver that carries `removed` (a test whose file, at the comparison point, read
/// `file`), taking the statements it used; the one that holds most of it first.
pub fn carrier(receivers: &mut [Receiver], removed: &Declared, file: &str) -> Option<usize> {
    let body = statements(&removed.body);
    if body.is_empty() {
        return None;
    }
    let alone = body.len() == 1 && file.lines().filter(|l| statement(l) == body[0]).count() == 1;
    let mut best: Option<(usize, usize)> = None;
    for (k, r) in receivers.iter().enumerate() {
        let held = shared(&body, &r.after);
        if held * 2 <= body.len() || (held < 2 && !alone) {
            continue;
        }
        let own = minus(&body, &r.before);
        let arrived = shared(&own, &r.gained);
        if arrived == 0 || arrived * 2 < own.len() {
            continue;
        }
        if best.is_none_or(|(_, h)| held > h) {
            best = Some((k, held));
        }
    }
    let (k, _) = best?;
    let own = minus(&body, &receivers[k].before);
    receivers[k].gained = minus(&receivers[k].gained, &own);
    Some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(String::from).collect()
    }

    fn receiver(before: &str, after: &str) -> Receiver {
        let (after, before) = (statements(&lines(after)), statements(&lines(before)));
        Receiver {
            at: 0,
            name: "t".into(),
            gained: minus(&after, &before),
            after,
            before,
        }
    }

    fn removed(body: &str) -> Declared {
        Declared {
            key: "fn gone() {".into(),
            sig: "fngone(){".into(),
            body: lines(body),
            empty: false,
        }
    }

    const KEEP: &str =
        "let j = r#\"{\"x\":null}\"#;\ntest_parse_err(&[(\nj,\n\"expected a number\",\n)]);";

    #[test]
    fn a_test_folded_into_its_neighbour_is_carried() {
        let gone = removed("let j = r#\"{\" 1\":null}\"#;\ntest_parse_err(&[(\nj,\n\"unexpected whitespace\",\n)]);");
        let grown = format!("{KEEP}\nlet j = r#\"{{\" 1\":null}}\"#;\ntest_parse_err(&[(\nj,\n\"expected a number\",\n)]);");
        let mut r = [receiver(KEEP, &grown)];
        assert_eq!(carrier(&mut r, &gone, ""), Some(0));
        // Its gain is spent: a second copy of the removed test is not carried again.
        assert_eq!(carrier(&mut r, &gone, ""), None);
    }

    #[test]
    fn a_near_duplicate_whose_own_lines_went_nowhere_is_not_carried() {
        let gone = removed(
            "let j = r#\"{\"y\":null}\"#;\ntest_parse_err(&[(\nj,\n\"expected a number\",\n)]);",
        );
        let grown = format!("{KEEP}\nassert!(other());");
        assert_eq!(carrier(&mut [receiver(KEEP, &grown)], &gone, ""), None);
    }

    #[test]
    fn shared_boilerplate_is_not_enough() {
        let gone = removed("setup();\nassert_eq!(parse(\"b\"), 2);");
        let r = || {
            receiver(
                "assert_eq!(parse(\"a\"), 1);",
                "setup();\nassert_eq!(parse(\"a\"), 1);",
            )
        };
        assert_eq!(carrier(&mut [r()], &gone, ""), None);
        // One statement carried is the whole of a one-statement test only when no other
        // line of its file held it.
        let one = removed("setup();");
        assert_eq!(carrier(&mut [r()], &one, "setup();\n"), Some(0));
        assert_eq!(carrier(&mut [r()], &one, "setup();\nsetup();\n"), None);
    }

    #[test]
    fn a_trailing_semicolon_is_no_difference() {
        let gone = removed("check!(i128::MIN u128::MAX)");
        let mut r = [receiver(
            "check!(0 1)",
            "check!(0 1)\ncheck!(i128::MIN u128::MAX);",
        )];
        assert_eq!(
            carrier(&mut r, &gone, "check!(i128::MIN u128::MAX)\n"),
            Some(0)
        );
    }
}
