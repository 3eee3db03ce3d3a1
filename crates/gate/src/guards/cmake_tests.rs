//! CMake tests put under a condition. `add_test(NAME x ..)` registers a test with CTest; one
//! the file registered unconditionally, now inside a branch of an `if ()` of the same file,
//! is no longer registered when the branch is not taken: a skip decided at configure time,
//! as `#[cfg]` put on an existing Rust test, with no marker in the test.
//!
//! Read per file (`CMakeLists.txt`, `*.cmake`), by the test's name as written (`NAME x` or
//! the old signature's first argument, variables unexpanded). A test new to the file, one
//! that was conditional already, or one registered in no branch now (removed or moved
//! into a function) is none of this. Reported where the test is left out: the first
//! command of another branch of the innermost `if` that does not register it (typically
//! the `message("Skipping ..")` of the other branch), or the `if` line when no other
//! branch holds a command.

use super::{DeltaKind, FileDelta, Finding};
use std::collections::BTreeSet;

/// Whether the path is a CMake script.
pub fn is_cmake(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name == "CMakeLists.txt" || name.ends_with(".cmake")
}

/// One command: its name (lower case), its arguments' text, its first line (1-based).
struct Command {
    name: String,
    args: String,
    line: u32,
}

/// The commands of a CMake text, comments removed, each joined over the lines it spans.
fn commands(text: &str) -> Vec<Command> {
    let mut out = Vec::new();
    let mut open: Option<(String, String, u32, i32)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        // A `#` outside a string starts a comment.
        let mut code = String::new();
        let mut quoted = false;
        for c in raw.chars() {
            match c {
                '"' => quoted = !quoted,
                '#' if !quoted => break,
                _ => {}
            }
            code.push(c);
        }
        let mut rest = code.as_str();
        loop {
            if let Some((name, args, at, depth)) = open.as_mut() {
                let mut close = None;
                for (j, c) in rest.char_indices() {
                    match c {
                        '(' => *depth += 1,
                        ')' => {
                            *depth -= 1;
                            if *depth == 0 {
                                close = Some(j);
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                match close {
                    Some(j) => {
                        args.push(' ');
                        args.push_str(&rest[..j]);
                        out.push(Command {
                            name: std::mem::take(name),
                            args: std::mem::take(args),
                            line: *at,
                        });
                        open = None;
                        rest = &rest[j + 1..];
                    }
                    None => {
                        args.push(' ');
                        args.push_str(rest);
                        break;
                    }
                }
            } else {
                let t = rest.trim_start();
                let Some(paren) = t.find('(') else { break };
                let name = t[..paren].trim();
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    break;
                }
                open = Some((name.to_ascii_lowercase(), String::new(), line, 1));
                rest = &t[paren + 1..];
            }
        }
    }
    out
}

/// The name `add_test(..)` registers: `NAME x`, or the old signature's first argument.
fn test_name(args: &str) -> Option<String> {
    let words: Vec<&str> = args.split_whitespace().collect();
    match words.first()? {
        &"NAME" => words.get(1).map(|w| w.trim_matches('"').to_string()),
        w => Some(w.trim_matches('"').to_string()),
    }
}

/// An `if` being read: its line, and the first command line of each branch (none yet).
struct Frame {
    line: u32,
    branches: Vec<Option<u32>>,
    /// The branches that register some test.
    with_tests: BTreeSet<usize>,
}

/// Each `add_test` of the text: (name, line, where it is left out when conditional).
fn tests(text: &str) -> Vec<(String, Option<u32>)> {
    let mut stack: Vec<Frame> = Vec::new();
    // (name, depth of its innermost `if`, branch) until that `if` closes.
    let mut pending: Vec<(String, usize, usize)> = Vec::new();
    let mut out: Vec<(String, Option<u32>)> = Vec::new();
    for c in commands(text) {
        match c.name.as_str() {
            "if" => stack.push(Frame {
                line: c.line,
                branches: vec![None],
                with_tests: BTreeSet::new(),
            }),
            "elseif" | "else" => {
                if let Some(f) = stack.last_mut() {
                    f.branches.push(None);
                }
            }
            "endif" => {
                let Some(f) = stack.pop() else { continue };
                let depth = stack.len();
                // Tests of this frame's branches: where each is left out.
                for (name, _, branch) in pending.iter().filter(|p| p.1 == depth) {
                    let other = f
                        .branches
                        .iter()
                        .enumerate()
                        .filter(|(b, _)| b != branch && !f.with_tests.contains(b))
                        .find_map(|(_, first)| *first);
                    out.push((name.clone(), Some(other.unwrap_or(f.line))));
                }
                pending.retain(|p| p.1 != depth);
            }
            name => {
                if let Some(f) = stack.last_mut() {
                    let b = f.branches.len() - 1;
                    if f.branches[b].is_none() {
                        f.branches[b] = Some(c.line);
                    }
                    if name == "add_test" {
                        f.with_tests.insert(b);
                    }
                }
                if name == "add_test" {
                    if let Some(n) = test_name(&c.args) {
                        match stack.len() {
                            0 => out.push((n, None)),
                            d => pending.push((n, d - 1, stack[d - 1].branches.len() - 1)),
                        }
                    }
                }
            }
        }
    }
    // An `if` never closed: its tests are conditional, reported at the `if`.
    for (name, frame, _) in pending {
        out.push((name, Some(stack.get(frame).map_or(1, |f| f.line))));
    }
    out
}

/// The tests the change's CMake scripts put under a condition, as `new_skips` findings.
pub fn findings(deltas: &[&FileDelta]) -> Vec<Finding> {
    let mut out = Vec::new();
    for d in deltas {
        if !matches!(d.kind, DeltaKind::Modified | DeltaKind::Renamed { .. }) || !is_cmake(&d.path)
        {
            continue;
        }
        let (Some(old), Some(new)) = (d.old_text.as_deref(), d.new_text.as_deref()) else {
            continue;
        };
        let ran: BTreeSet<String> = tests(old)
            .into_iter()
            .filter(|(_, cond)| cond.is_none())
            .map(|(n, _)| n)
            .collect();
        let now = tests(new);
        let still: BTreeSet<&str> = now
            .iter()
            .filter(|(_, cond)| cond.is_none())
            .map(|(n, _)| n.as_str())
            .collect();
        let mut seen = BTreeSet::new();
        for (name, cond) in &now {
            let Some(line) = cond else { continue };
            if !ran.contains(name) || still.contains(name.as_str()) || !seen.insert(name) {
                continue;
            }
            let text = new.lines().nth(*line as usize - 1).unwrap_or("");
            out.push(Finding {
                path: d.path.clone(),
                line: Some(*line),
                snippet: super::scan::snippet(text),
                message: format!(
                    "the CMake test `{name}`, registered unconditionally before, is now inside an `if ()`: it is not registered, so it does not run, when the condition goes the other way; register it unconditionally and make it pass"
                ),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "enable_language(C)\nadd_executable(c-test c-test.c)\nadd_test(NAME c-test COMMAND c-test)\nadd_test(legacy legacy)\n";

    fn delta(old: &str, new: &str) -> FileDelta {
        FileDelta {
            path: "test/CMakeLists.txt".into(),
            kind: DeltaKind::Modified,
            added_lines: vec![],
            removed_lines: vec![],
            old_text: Some(old.into()),
            old_counts: None,
            new_text: Some(new.into()),
        }
    }

    fn lines(old: &str, new: &str) -> Vec<u32> {
        findings(&[&delta(old, new)])
            .iter()
            .filter_map(|f| f.line)
            .collect()
    }

    #[test]
    fn a_test_moved_under_an_if_is_reported_where_it_is_left_out() {
        let new = "enable_language(C)\n# why\nif (CMAKE_C_COMPILER_ID STREQUAL \"Clang\" AND CMAKE_C_COMPILER_VERSION\n    VERSION_LESS 3.8)\n  message(STATUS \"Skipping c-test\")\nelse ()\n  add_executable(c-test c-test.c)\n  add_test(NAME c-test COMMAND c-test)\nendif ()\nadd_test(legacy legacy)\n";
        assert_eq!(lines(BEFORE, new), [5]);
        let plain = "if (NOT WIN32)\n  add_test(NAME c-test COMMAND c-test)\nendif ()\nadd_test(legacy legacy)\n";
        assert_eq!(lines(BEFORE, plain), [1]);
        let old_signature = "add_test(NAME c-test COMMAND c-test)\nif (UNIX) # only\n  add_test(legacy\n    legacy)\nendif()\n";
        assert_eq!(lines(BEFORE, old_signature), [2]);
    }

    #[test]
    fn new_conditional_or_still_unconditional_tests_are_not() {
        // Still registered unconditionally, moved or reformatted.
        let moved = "add_test(legacy legacy)\nadd_test(\n  NAME c-test\n  COMMAND c-test)\n";
        assert!(lines(BEFORE, moved).is_empty());
        // A new test under a condition; one conditional before; one removed.
        let new_cond = "add_test(NAME c-test COMMAND c-test)\nadd_test(legacy legacy)\nif (X)\n  add_test(NAME extra COMMAND extra)\nendif ()\n";
        assert!(lines(BEFORE, new_cond).is_empty());
        let was_cond = "if (X)\n  add_test(NAME c-test COMMAND c-test)\nendif ()\n";
        assert!(lines(was_cond, &was_cond.replace("X", "Y")).is_empty());
        assert!(lines(BEFORE, "add_test(legacy legacy)\n").is_empty());
        // A commented-out `if` is no condition.
        let commented = "# if (X)\nadd_test(NAME c-test COMMAND c-test)\nadd_test(legacy legacy)\n";
        assert!(lines(BEFORE, commented).is_empty());
    }
}
