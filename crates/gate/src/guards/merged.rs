//! A test merged into another: its statements now live in the body of a test that was
//! there before the change and grew with it (two tests combined into one, a test's cases
//! folded into a neighbour's table), in its own file or another file of the change. A
//! neighbour the same change renamed counts as there before: a new test whose body
//! carries over a removed test's (the rename [`super::test_moves::rewritten`] knows) is
//! that test, its old body what it was (`test_stringenum` and `test_integerenum` folded
//! into a `test_enumvalue` that is the first one renamed).
//!
//! The evidence is the body, read as a multiset of statements (normalised lines, see
//! [`super::test_moves`], a trailing `;` aside). For a removed test `R` and a kept test
//! whose body was `O` and is now `N`, `R` is carried by it when:
//! - most of `R` is in `N`: more than half of its statements;
//! - what `R` held beyond `O` arrived with the change: of the statements of `R` that `O`
//!   did not already hold, at least one and at least half are among those `N` gained
//!   (`N` minus `O`). A neighbour that was already alike, and gained nothing of `R`'s own,
//!   does not carry it: that is a near-duplicate deleted. The same holds read by shape,
//!   each statement's literals (strings, characters, numbers) aside: a case carried over
//!   with its values changed (`-F` became `-X`, the flag `"flag"` became `"stop"`) is still
//!   that case, when `R` held a statement of a shape `O` did not and `N` gained one of it;
//! - and it is more than a line of boilerplate: at least two statements of `R` are in
//!   `N`, or `R` is one statement that no other line of its file held.
//!
//! Each gained statement carries one removed statement at most, so two removed copies are
//! not both carried by one gain. A test deleted with the code it tested leaves no gained
//! statement of its own anywhere, and stays deleted.

use super::account::normalise;
use super::languages::Lang;
use super::test_moves::{declared, rewritten, same_tests, Declared};
use super::test_paths::TestPaths;
use super::{DeltaKind, FileDelta, Line};
use std::collections::{BTreeMap, HashMap};

/// A multiset of statements: each with how many times it occurs.
type Bag = BTreeMap<String, usize>;

/// A test the change kept (same declaration before and after) whose body gained
/// statements.
pub struct Receiver {
    /// Index of its file among the change's deltas.
    pub at: usize,
    /// The line that names it, as a finding shows it (`fn test_integer_key()`).
    pub name: String,
    after: Bag,
    before: Bag,
    /// `after` minus `before`; statements are taken out as they carry.
    gained: Bag,
    /// The same, by shape (see [`shape`]).
    before_shapes: Bag,
    gained_shapes: Bag,
}

/// The receivers of a change, with which of them gained each statement (a removed test
/// is only weighed against those that gained one of its own).
pub struct Receivers {
    list: Vec<Receiver>,
    gained_by: HashMap<String, Vec<usize>>,
}

/// A body line as a statement: a formatter's or a merge's trailing `;` is no difference.
fn statement(line: &str) -> String {
    normalise(line).trim_end_matches(';').trim_end().to_string()
}

fn bag(body: &[String]) -> Bag {
    let mut out = Bag::new();
    for l in body {
        *out.entry(statement(l)).or_default() += 1;
    }
    out
}

/// A statement with its literals blanked: strings and characters become `""`, numbers
/// `0`. Two statements of one shape do the same thing to other values.
fn shape(statement: &str) -> String {
    let mut out = String::with_capacity(statement.len());
    let mut chars = statement.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        if matches!(c, '"' | '\'' | '`') {
            let mut closed = false;
            let mut escaped = false;
            let rest: Vec<char> = chars.clone().collect();
            let mut used = 0;
            for &d in &rest {
                used += 1;
                if escaped {
                    escaped = false;
                } else if d == '\\' {
                    escaped = true;
                } else if d == c {
                    closed = true;
                    break;
                }
            }
            if closed {
                for _ in 0..used {
                    chars.next();
                }
                out.push_str("\"\"");
                prev = Some('"');
                continue;
            }
        }
        let word = prev.is_some_and(|p| p.is_alphanumeric() || p == '_');
        if c.is_ascii_digit() && !word {
            while chars
                .peek()
                .is_some_and(|d| d.is_ascii_alphanumeric() || *d == '_')
            {
                chars.next();
            }
            out.push('0');
            prev = Some('0');
            continue;
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

fn shapes(b: &Bag) -> Bag {
    let mut out = Bag::new();
    for (k, n) in b {
        *out.entry(shape(k)).or_default() += n;
    }
    out
}

/// The key a shape is indexed under, apart from the statements themselves.
fn shape_key(s: &str) -> String {
    format!("\0{s}")
}

fn size(b: &Bag) -> usize {
    b.values().sum()
}

/// `a` minus `b`: each statement of `b` takes away one equal statement of `a`.
fn minus(a: &Bag, b: &Bag) -> Bag {
    a.iter()
        .filter_map(|(k, n)| {
            let left = n.saturating_sub(b.get(k).copied().unwrap_or(0));
            (left > 0).then(|| (k.clone(), left))
        })
        .collect()
}

/// How many statements of `a` are statements of `b`, each of `b` used once.
fn shared(a: &Bag, b: &Bag) -> usize {
    a.iter()
        .map(|(k, n)| (*n).min(b.get(k).copied().unwrap_or(0)))
        .sum()
}

/// The tests of the change's files that kept their declaration and gained statements.
pub fn receivers(deltas: &[&FileDelta], tests: &TestPaths) -> Receivers {
    let builtin = TestPaths::default();
    let mut list = Vec::new();
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
        let mut pairs = same_tests(&mut before, &mut now);
        pairs.extend(renamed(before, now));
        for (was, t) in pairs {
            let (after, before) = (bag(&t.body), bag(&was.body));
            let gained = minus(&after, &before);
            // A body that swapped statements without growing was rewritten in place: what
            // it gained stands for what it lost, not for a removed neighbour.
            if !gained.is_empty() && size(&after) > size(&before) {
                let before_shapes = shapes(&before);
                let gained_shapes = minus(&shapes(&after), &before_shapes);
                list.push(Receiver {
                    at,
                    name: shown(&t),
                    after,
                    before,
                    gained,
                    before_shapes,
                    gained_shapes,
                });
            }
        }
    }
    let mut gained_by: HashMap<String, Vec<usize>> = HashMap::new();
    for (k, r) in list.iter().enumerate() {
        let keys = r.gained.keys().cloned();
        for line in keys.chain(r.gained_shapes.keys().map(|s| shape_key(s))) {
            gained_by.entry(line).or_default().push(k);
        }
    }
    Receivers { list, gained_by }
}

/// The tests of a file that the change renamed: each new test paired with the removed one
/// whose body it carries over, first by a declaration only respaced, then by a rewritten
/// body ([`rewritten`]), in order, each used once: the pairs `deleted` takes as renamed
/// in place.
fn renamed(mut gone: Vec<Declared>, mut arrived: Vec<Declared>) -> Vec<(Declared, Declared)> {
    let mut out = Vec::new();
    for exact in [true, false] {
        let mut i = 0;
        while i < gone.len() {
            let t = &gone[i];
            let hit = arrived.iter().position(|s| {
                if exact {
                    t.sig == s.sig
                } else {
                    rewritten(&t.body, &s.body)
                }
            });
            match hit {
                Some(j) => out.push((gone.remove(i), arrived.remove(j))),
                None => i += 1,
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

impl Receivers {
    /// The receiver that carries `removed` (a test whose file, at the comparison point,
    /// read `file`), taking the statements it used; the one that holds most of it first.
    pub fn carrier(&mut self, removed: &Declared, file: &str) -> Option<&Receiver> {
        let body = bag(&removed.body);
        let len = size(&body);
        if len == 0 {
            return None;
        }
        let alone = len == 1
            && body
                .keys()
                .all(|b| file.lines().filter(|l| statement(l) == *b).count() == 1);
        let body_shapes = shapes(&body);
        let mut candidates: Vec<usize> = body
            .keys()
            .cloned()
            .chain(body_shapes.keys().map(|s| shape_key(s)))
            .filter_map(|l| self.gained_by.get(&l))
            .flatten()
            .copied()
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut best: Option<(usize, usize)> = None;
        for k in candidates {
            let r = &self.list[k];
            let held = shared(&body, &r.after);
            if held * 2 <= len || (held < 2 && !alone) {
                continue;
            }
            let came = |own: &Bag, gained: &Bag| {
                let arrived = shared(own, gained);
                arrived > 0 && arrived * 2 >= size(own)
            };
            let by_shape = || came(&minus(&body_shapes, &r.before_shapes), &r.gained_shapes);
            if !came(&minus(&body, &r.before), &r.gained) && !by_shape() {
                continue;
            }
            if best.is_none_or(|(_, h)| held > h) {
                best = Some((k, held));
            }
        }
        let (k, _) = best?;
        let r = &mut self.list[k];
        let own = minus(&body, &r.before);
        r.gained = minus(&r.gained, &own);
        let own_shapes = minus(&body_shapes, &r.before_shapes);
        r.gained_shapes = minus(&r.gained_shapes, &own_shapes);
        Some(&self.list[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(String::from).collect()
    }

    fn receiver(before: &str, after: &str) -> Receivers {
        let (after, before) = (bag(&lines(after)), bag(&lines(before)));
        let before_shapes = shapes(&before);
        let r = Receiver {
            at: 0,
            name: "t".into(),
            gained: minus(&after, &before),
            gained_shapes: minus(&shapes(&after), &before_shapes),
            before_shapes,
            after,
            before,
        };
        let gained_by = r
            .gained
            .keys()
            .cloned()
            .chain(r.gained_shapes.keys().map(|s| shape_key(s)))
            .map(|k| (k, vec![0]))
            .collect();
        Receivers {
            list: vec![r],
            gained_by,
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
        let mut r = receiver(KEEP, &grown);
        assert!(r.carrier(&gone, "").is_some());
        // Its gain is spent: a second copy of the removed test is not carried again.
        assert!(r.carrier(&gone, "").is_none());
    }

    #[test]
    fn a_near_duplicate_whose_own_lines_went_nowhere_is_not_carried() {
        let gone = removed(
            "let j = r#\"{\"y\":null}\"#;\ntest_parse_err(&[(\nj,\n\"expected a number\",\n)]);",
        );
        let grown = format!("{KEEP}\nassert!(other());");
        assert!(receiver(KEEP, &grown).carrier(&gone, "").is_none());
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
        assert!(r().carrier(&gone, "").is_none());
        // One statement carried is the whole of a one-statement test only when no other
        // line of its file held it.
        let one = removed("setup();");
        assert!(r().carrier(&one, "setup();\n").is_some());
        assert!(r().carrier(&one, "setup();\nsetup();\n").is_none());
    }

    #[test]
    fn shapes_blank_literals_only() {
        assert_eq!(
            shape(r#".arg(Arg::new("flag").short('F').num_args(1..))"#),
            r#".arg(Arg::new("").short("").num_args(0..))"#
        );
        assert_eq!(shape("x2 = f(10, \"a\\\"b\")"), "x2 = f(0, \"\")");
        // An unclosed quote is left as it is.
        assert_eq!(
            shape("fn f<'a>(x: u8) -> [u8; 4]"),
            "fn f<'a>(x: u8) -> [u8; 0]"
        );
    }

    #[test]
    fn a_case_carried_over_with_other_values_is_carried() {
        let old = "let m = cmd()\n.arg(files())\n.get(vec![\"lip\", \";\"])\nassert!(m.has(\"files\"))\nassert!(m.has(\"other\"))";
        // The removed test: the same, with a flag that ends the values.
        let gone = removed("let m = cmd()\n.arg(files())\n.arg(Arg::new(\"flag\").short('F'))\n.get(vec![\"lip\", \"-F\"])\nassert!(m.has(\"files\"))\nassert!(m.has(\"other\"))");
        let grown =
            format!("{old}\n.arg(Arg::new(\"stop\").short('X'))\nlet m = again(vec![\"-X\"])");
        assert!(receiver(old, &grown).carrier(&gone, "").is_some());
        // A neighbour that gained statements of other shapes does not carry it.
        let other = format!("{old}\nassert!(m.none(\"x\"))");
        assert!(receiver(old, &other).carrier(&gone, "").is_none());
    }

    #[test]
    fn a_renamed_neighbour_pairs_with_the_test_it_carries_over() {
        let t = |name: &str, body: &str| Declared {
            key: format!("def {name}():"),
            sig: format!("def{name}():"),
            body: lines(body),
            empty: false,
        };
        let gone = vec![
            t("test_a", "x = 1\nassert f(x) == 2"),
            t("test_b", "y = 3\nassert g(y) == 4"),
        ];
        let arrived = vec![
            t("test_new", "z = 9"),
            t(
                "test_ab",
                "x = 1\nassert f(x) == 2\ny = 3\nassert g(y) == 4",
            ),
        ];
        let pairs = renamed(gone, arrived);
        assert_eq!(pairs.len(), 1);
        assert_eq!(
            (pairs[0].0.key.as_str(), pairs[0].1.key.as_str()),
            ("def test_a():", "def test_ab():")
        );
    }

    #[test]
    fn a_trailing_semicolon_is_no_difference() {
        let gone = removed("check!(i128::MIN u128::MAX)");
        let mut r = receiver("check!(0 1)", "check!(0 1)\ncheck!(i128::MIN u128::MAX);");
        assert!(r.carrier(&gone, "check!(i128::MIN u128::MAX)\n").is_some());
    }
}
