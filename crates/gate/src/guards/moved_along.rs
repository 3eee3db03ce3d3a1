//! Tests moved to another file together with what they test, and rewritten there. Where a
//! file's count fell, a removed test is carried by a new test of another file only when
//! that test holds every one of its own words and three quarters of all of them (see
//! [`super::hidden::carrier`]): words alone cannot tell a test moved and rewritten from a
//! real deletion whose values happen to be used by a new test elsewhere (about half of
//! them, when both tests exercise the same API). What tells them apart is that a move
//! takes the test's *subject* along, and that shows in code:
//!
//! - an import the removed test used left its file in the same change, and the new test
//!   uses that name too (`"unsafe"` left `assertions_test.go`, the new `TestUnsafePointers`
//!   of another package uses `unsafe.Pointer`): nothing else in the old file needed it;
//! - the new test's file is about a thing the removed test used by name (`JSONFormatter`
//!   in a test that went to `json_formatter_test.go`);
//! - another test of the same old file moved into that file by name or body in the same
//!   change (a group of tests that left for a new home), and the new test holds one of the
//!   removed test's own string literals whole (a big rewrite moves some tests by name and
//!   writes many short new ones beside them, which share half the words of any short test).
//!
//! With one of these, a new test that holds half of the removed test's words carries it.
//! And a new test whose name holds every word of the removed test's name (at least three:
//! `FieldValueError` in `TestTextEntryFieldValueError`) and a third of its words is that
//! test widened, wherever it now lives.

use super::hidden::{holds, name_words, shown, words};
use super::languages::Lang;
use super::test_moves::{subject, Declared};
use super::FileDelta;
use std::collections::BTreeSet;

/// What shows that the tests of one dropping file moved: the names its removed imports
/// brought in, the names each file of the change gained an import of (by delta index), and
/// the files other tests of it already moved into.
pub struct Evidence {
    pub imports_left: BTreeSet<String>,
    pub imports_gained: Vec<BTreeSet<String>>,
    pub siblings_in: BTreeSet<usize>,
}

/// The names the import lines the change added to `d` bring in (every import of a file
/// the change added).
pub fn imports_gained(d: &FileDelta) -> BTreeSet<String> {
    let Some(lang) = Lang::from_path(&d.path) else {
        return BTreeSet::new();
    };
    d.added_lines
        .iter()
        .flat_map(|l| imported(&l.text, lang))
        .collect()
}

/// The names the import lines the change removed from `d` brought in, less those an added
/// line imports again (an import reordered or rewrapped did not leave).
pub fn imports_left(d: &FileDelta) -> BTreeSet<String> {
    let Some(lang) = Lang::from_path(&d.path) else {
        return BTreeSet::new();
    };
    let again: BTreeSet<String> = d
        .added_lines
        .iter()
        .flat_map(|l| imported(&l.text, lang))
        .collect();
    d.removed_lines
        .iter()
        .flat_map(|l| imported(&l.text, lang))
        .filter(|n| !again.contains(n))
        .collect()
}

/// The names an import line brings into scope, by language; none for any other line.
pub fn imported(line: &str, lang: Lang) -> Vec<String> {
    let t = line.trim().trim_end_matches(';').trim();
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    let keep = |names: Vec<&str>| -> Vec<String> {
        names
            .into_iter()
            .map(str::trim)
            .filter(|n| ident(n))
            .map(str::to_string)
            .collect()
    };
    match lang {
        Lang::Go => {
            // `import "fmt"`, or a line of an `import ( .. )` block: `"unsafe"`, `j "encoding/json"`.
            let t = t.strip_prefix("import ").map_or(t, str::trim);
            let (alias, path) = match t.split_once(char::is_whitespace) {
                Some((a, p)) => (Some(a), p.trim()),
                None => (None, t),
            };
            let Some(path) = path.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
                return Vec::new();
            };
            if let Some(a) = alias {
                return keep(vec![a]);
            }
            let mut segs = path.rsplit('/');
            let mut last = segs.next().unwrap_or("");
            // `gopkg.in/yaml.v3`, `example.com/mod/v2`: the package is named before the version.
            if last.len() > 1
                && last.starts_with('v')
                && last[1..].chars().all(|c| c.is_ascii_digit())
            {
                last = segs.next().unwrap_or("");
            }
            keep(vec![last
                .split('.')
                .next()
                .unwrap_or("")
                .trim_start_matches("go-")])
        }
        Lang::Java | Lang::Kotlin => {
            let Some(rest) = t.strip_prefix("import ") else {
                return Vec::new();
            };
            let rest = rest.trim().strip_prefix("static ").unwrap_or(rest).trim();
            match rest.split_once(" as ") {
                Some((_, alias)) => keep(vec![alias]),
                None => keep(vec![rest.rsplit('.').next().unwrap_or("")]),
            }
        }
        Lang::Python => {
            let names = if let Some(rest) = t.strip_prefix("import ") {
                rest.split(',')
                    .map(|n| match n.split_once(" as ") {
                        Some((_, a)) => a,
                        None => n.trim().split('.').next().unwrap_or(""),
                    })
                    .collect()
            } else if let Some((_, rest)) = t
                .strip_prefix("from ")
                .and_then(|r| r.split_once(" import "))
            {
                rest.trim_matches(|c| c == '(' || c == ')' || c == ' ')
                    .split(',')
                    .map(|n| n.split_once(" as ").map_or(n, |(_, a)| a))
                    .collect()
            } else {
                Vec::new()
            };
            keep(names)
        }
        Lang::Js => {
            // `import X from`, `import { a, b as c } from`, `import * as ns from`,
            // `const x = require(..)`, `const { a } = require(..)`.
            let head = if let Some(rest) = t.strip_prefix("import ") {
                match rest.rsplit_once(" from ") {
                    Some((h, _)) => h,
                    None => return Vec::new(),
                }
            } else if t.contains("require(") {
                let decl = ["const ", "let ", "var "]
                    .iter()
                    .find_map(|k| t.strip_prefix(k));
                match decl.and_then(|d| d.split_once('=')) {
                    Some((h, _)) => h,
                    None => return Vec::new(),
                }
            } else {
                return Vec::new();
            };
            let head = head.trim().strip_prefix("type ").unwrap_or(head.trim());
            keep(
                head.split([',', '{', '}'])
                    .map(|n| {
                        let n = n.trim();
                        n.rsplit_once(" as ").map_or(n, |(_, a)| a)
                    })
                    .collect(),
            )
        }
        Lang::Rust => {
            let Some(rest) = t
                .strip_prefix("use ")
                .or_else(|| t.strip_prefix("pub use "))
            else {
                return Vec::new();
            };
            keep(
                rest.split([',', '{', '}'])
                    .map(|n| {
                        let n = n.trim();
                        match n.rsplit_once(" as ") {
                            Some((_, a)) => a,
                            None => n.rsplit("::").next().unwrap_or(""),
                        }
                    })
                    .collect(),
            )
        }
        _ => Vec::new(),
    }
}

/// An identifier without case and word separators: `JSONFormatter`, `json_formatter` and
/// `jsonFormatter` are one name.
fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether an identifier is made of two words or more: `snake_case`, `camelCase`,
/// `JSONFormatter` (a capital that ends a run of capitals and starts a word).
fn compound(name: &str) -> bool {
    let c: Vec<char> = name.chars().collect();
    (1..c.len()).any(|i| {
        let (prev, cur, next) = (c[i - 1], c[i], c.get(i + 1).copied());
        (prev == '_' && cur.is_alphanumeric() && c[..i - 1].iter().any(|x| x.is_alphanumeric()))
            || (cur.is_uppercase() && (prev.is_lowercase() || prev.is_ascii_digit()))
            || (cur.is_uppercase() && prev.is_uppercase() && next.is_some_and(char::is_lowercase))
    })
}

/// Whether the new test `c`, declared in the file `c_path` (delta index `c_at`), carries the
/// removed test `t`: see the module's comment.
/// `own_literals` are the string literals of `t` no other test of its old file held;
/// `peers` are the tests of `c`'s file after the change (`c` among them).
pub fn carries(
    t: &Declared,
    own_literals: &BTreeSet<String>,
    c: &Declared,
    peers: &[Declared],
    c_path: &str,
    c_at: usize,
    ev: &Evidence,
) -> bool {
    let mine = words(&t.body);
    if mine.is_empty() {
        return false;
    }
    let theirs = words(&c.body);
    let held = mine.iter().filter(|x| holds(&theirs, x)).count();
    let was = name_words(&shown(t));
    let widened = was.len() >= 3 && was.is_subset(&name_words(&shown(c))) && held * 3 >= mine.len();
    if widened {
        return true;
    }
    if held * 2 < mine.len() {
        return false;
    }
    // The import went along: it left the old file and arrived in the new test's file, for
    // this test alone. An import other tests of that file use too (`CliRunner`, a test
    // client; or the module a whole renamed file imports, which its tests that kept their
    // names use as well) is boilerplate, which says nothing of where one test went.
    let import_along = ev.imports_left.iter().any(|n| {
        mine.contains(n)
            && theirs.contains(n)
            && ev.imports_gained.get(c_at).is_some_and(|g| g.contains(n))
            && !peers
                .iter()
                .any(|p| p.sig != c.sig && words(&p.body).contains(n))
    });
    // A name of two words or more names one thing (`JSONFormatter`, `namespace_bindings`);
    // a single word (`pipeline`, an option's key) may be a property of anything.
    let about = subject(c_path)
        .map(folded)
        .filter(|s| s.chars().count() >= 4);
    let subject_named = about.is_some_and(|s| {
        mine.iter()
            .any(|w| !w.starts_with('"') && compound(w) && folded(w) == s)
    });
    // A neighbour that moved there says where the group went, not that this test went with
    // it: its own literals (values and messages no other test of its file held: what it
    // checked that its neighbours did not) must be there too, whole, every one of them. A
    // test whose own check was dropped as its neighbours moved was deleted, even when its
    // setup went along.
    let own: Vec<&String> = own_literals
        .iter()
        .filter(|l| l.trim_matches('"').chars().count() >= 3)
        .collect();
    let with_neighbour =
        ev.siblings_in.contains(&c_at) && !own.is_empty() && own.iter().all(|l| holds(&theirs, l));
    import_along || subject_named || with_neighbour
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn import_names_by_language() {
        assert_eq!(imported("\t\"unsafe\"", Lang::Go), ["unsafe"]);
        assert_eq!(imported("\tj \"encoding/json\"", Lang::Go), ["j"]);
        assert_eq!(imported("import \"gopkg.in/yaml.v3\"", Lang::Go), ["yaml"]);
        assert_eq!(imported("\t\"example.com/x/v2\"", Lang::Go), ["x"]);
        assert!(imported("\t\"a\",", Lang::Go).is_empty());
        assert_eq!(
            imported("import java.io.StringReader;", Lang::Java),
            ["StringReader"]
        );
        assert_eq!(
            imported("import static org.junit.Assert.fail;", Lang::Java),
            ["fail"]
        );
        assert_eq!(imported("import a.b.C as D", Lang::Kotlin), ["D"]);
        assert!(imported("import a.b.*;", Lang::Java).is_empty());
        assert_eq!(
            imported("from x.y import a, b as c", Lang::Python),
            ["a", "c"]
        );
        assert_eq!(imported("import os.path", Lang::Python), ["os"]);
        assert_eq!(
            imported("import { a, b as c } from './m'", Lang::Js),
            ["a", "c"]
        );
        assert_eq!(imported("const fs = require('fs')", Lang::Js), ["fs"]);
        assert_eq!(
            imported("use crate::a::{B, c as d};", Lang::Rust),
            ["B", "d"]
        );
        assert!(imported("x = 1", Lang::Python).is_empty());
    }

    #[test]
    fn compound_names() {
        assert!(compound("JSONFormatter"));
        assert!(compound("namespaceBindings"));
        assert!(compound("json_formatter"));
        assert!(!compound("pipeline"));
        assert!(!compound("_pipeline"));
        assert!(!compound("URL"));
    }

    #[test]
    fn folded_names() {
        assert_eq!(folded("JSONFormatter"), folded("json_formatter"));
        assert_eq!(folded("namespaceBindings"), folded("NamespaceBindings"));
    }
}
