//! A table-driven test split into several tables of its file: one test that ran every
//! case of a type (`TestRoute`, its rows the host, path, header, scheme ... cases) made
//! one table per matcher (`TestHost`, `TestPath`, ...), each holding that matcher's rows.
//! No one new test holds most of the old one, so a likeness with a single test cannot
//! see it; the new tables of its file, read together, hold the cases it ran: the string
//! literals of its own (a case's title, input and expectation), nearly every one whole.

use super::folded::{case_words, ran_cases, Table};
use super::hidden::{Before, Share};
use super::test_moves::Declared;

/// Fewer literals of its own than this say too little to follow a test across tables.
const OWN_MIN: usize = 4;

/// Whether the removed test `t` of the file at `at`, whose old file's text was `old` and
/// held the tests `before` (`t` among them), was split into tables the change added to that file: `t`
/// ran cases itself (parameterised, a loop or subtests); its own literals are those no
/// other test of the file held (at least four); at least two new tables of its file each
/// hold some of them; together they hold nine in ten of them, whole, and three quarters
/// of all its words. A case dropped in the split leaves its literals behind.
pub fn split_into_tables(
    t: &Declared,
    old: &str,
    before: &Before,
    at: usize,
    tables: &[Table],
) -> bool {
    if !ran_cases(t, old) {
        return false;
    }
    let own = before.own_by(t, Share::Literals);
    if own.len() < OWN_MIN {
        return false;
    }
    let pieces: Vec<&Table> = tables
        .iter()
        .filter(|table| {
            table.at == at && table.new && own.iter().any(|w| table.literals().contains(w))
        })
        .collect();
    if pieces.len() < 2 {
        return false;
    }
    let held_own = own
        .iter()
        .filter(|w| pieces.iter().any(|table| table.literals().contains(*w)))
        .count();
    let words = case_words(t);
    let held = words
        .iter()
        .filter(|w| pieces.iter().any(|table| table.rows().contains(*w)))
        .count();
    held_own * 10 >= own.len() * 9 && held * 4 >= words.len() * 3
}
