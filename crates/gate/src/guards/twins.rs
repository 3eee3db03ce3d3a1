//! Twin tests made one: a test that left its file under its name for another file of the
//! change, where that file's own test of the same check was renamed to it. `splitn` of
//! `tests/tests.rs` and `static_splitn` of `tests/native_static.rs` split the same text
//! and expected the same parts; the change renamed the second `splitn`, kept its body and
//! removed the first. The receiving file's count stays, so the move found no room, yet
//! nothing either twin checked stopped running.

use super::hidden::{arrivals, carrier, test_name, Before, Reach};
use super::test_moves::Declared;

/// A test the change renamed inside its file: the new test (its file's delta index,
/// itself) whose body is, line for line, that of a test the same file removed.
pub struct Renamed {
    pub at: usize,
    pub test: Declared,
}

/// The renamed test of `renamed` (not in `used`) that the removed test `t` of the file at
/// `from` (whose tests were `before`) is the twin of: it bears `t`'s name, in another
/// file, and holds `t` by the words of its body as a test renamed and reworded as it moved
/// does (every one of `t`'s own words, at least two, and three quarters of all).
pub fn twin_of(
    t: &Declared,
    before: &Before,
    from: usize,
    renamed: &[Renamed],
    used: &[usize],
) -> Option<usize> {
    let name = test_name(t);
    let candidates: Vec<usize> = (0..renamed.len())
        .filter(|k| {
            !used.contains(k) && renamed[*k].at != from && test_name(&renamed[*k].test) == name
        })
        .collect();
    candidates.into_iter().find(|&k| {
        let list = arrivals(&[(renamed[k].at, renamed[k].test.clone())]);
        carrier(t, before, &list, Reach::Moved { from }).is_some()
    })
}

/// The tests `arrived` in a file (its delta index `at`) that carry the body of one the file
/// lost (`gone`), line for line under a new name.
pub fn renamed_in(at: usize, gone: &[Declared], arrived: &[Declared]) -> Vec<Renamed> {
    let mut left: Vec<&Declared> = gone.iter().collect();
    let mut out = Vec::new();
    for a in arrived {
        if a.body.is_empty() {
            continue;
        }
        if let Some(i) = left
            .iter()
            .position(|g| g.body == a.body && test_name(g) != test_name(a))
        {
            left.swap_remove(i);
            out.push(Renamed {
                at,
                test: a.clone(),
            });
        }
    }
    out
}
