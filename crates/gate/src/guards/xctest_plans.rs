//! Xcode test plans (`*.xctestplan`): JSON files that say, per test target, which tests a
//! run of the plan leaves out. A name put in a target's `skippedTests` stops that test (a
//! class, or `Class/testMethod()`) from running in every configuration the plan drives,
//! with no marker in the test's code: a skip written in configuration.
//!
//! Per plan file and per target (keyed by its `target.identifier`, else its name), the
//! skipped names are compared as sets with the same target of the plan at the comparison
//! point, so reordering or reformatting the list adds nothing; a plan the change adds
//! counts every name it skips. A name a plan of the change stopped skipping for the same
//! target (a plan deleted, renamed or split, the list moved) and another plan of the
//! change now skips is moved, not new. The other way round: a name taken out of a target's
//! `selectedTests` (the target then runs only the names listed) is skipped; a target
//! that ran all its tests and is given `selectedTests` now runs only those; a target
//! switched to `"enabled" : false` runs none.
//!
//! A plan whose text is not JSON is not guessed at: the receipt notes it (see
//! [`unparsable`]), and when only the comparison point does not parse, the plan is read
//! as if it were new (never more leniently).

use super::unread::Side;
use super::{DeltaKind, FileDelta, Finding};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Whether the path is an Xcode test plan.
pub fn is_test_plan(path: &str) -> bool {
    path.ends_with(".xctestplan")
}

/// One step of a path into a JSON document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Seg {
    Key(String),
    Index(usize),
}

/// The line (1-based) of each key and of each string value of a JSON text, by its path.
/// The text is JSON (serde parsed it); this only walks it again to place what it holds.
fn places(text: &str) -> HashMap<Vec<Seg>, u32> {
    enum Frame {
        Obj { key: Option<String>, want_key: bool },
        Arr { index: usize },
    }
    let path = |stack: &[Frame]| -> Vec<Seg> {
        stack
            .iter()
            .map(|f| match f {
                Frame::Obj { key, .. } => Seg::Key(key.clone().unwrap_or_default()),
                Frame::Arr { index } => Seg::Index(*index),
            })
            .collect()
    };
    let mut out = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut line = 1u32;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => line += 1,
            b'{' => stack.push(Frame::Obj {
                key: None,
                want_key: true,
            }),
            b'[' => stack.push(Frame::Arr { index: 0 }),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Obj { want_key, .. }) => *want_key = true,
                Some(Frame::Arr { index }) => *index += 1,
                None => {}
            },
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let raw = text.get(start..=i.min(bytes.len() - 1)).unwrap_or("");
                let s: String = serde_json::from_str(raw).unwrap_or_default();
                match stack.last_mut() {
                    Some(Frame::Obj { key, want_key }) if *want_key => {
                        *key = Some(s);
                        *want_key = false;
                        out.entry(path(&stack)).or_insert(line);
                    }
                    _ => {
                        out.entry(path(&stack)).or_insert(line);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// One test target of a plan.
#[derive(Debug, Default)]
struct Target {
    key: String,
    /// The skipped names, each with its line.
    skipped: Vec<(String, u32)>,
    /// `selectedTests` and its key's line, when the target lists them.
    selected: Option<(BTreeSet<String>, u32)>,
    /// `"enabled" : false`, with its line.
    disabled: Option<u32>,
}

/// The test targets of a plan; `None` when the text is not JSON.
fn targets(text: &str) -> Option<Vec<Target>> {
    let root: Value = serde_json::from_str(text).ok()?;
    let Some(list) = root.get("testTargets").and_then(Value::as_array) else {
        return Some(Vec::new());
    };
    let at = places(text);
    let line = |p: Vec<Seg>| at.get(&p).copied().unwrap_or(1);
    let base = |i: usize| vec![Seg::Key("testTargets".into()), Seg::Index(i)];
    let with = |i: usize, rest: &[Seg]| {
        let mut p = base(i);
        p.extend_from_slice(rest);
        p
    };
    let mut out = Vec::new();
    for (i, t) in list.iter().enumerate() {
        let about = t.get("target");
        let key = ["identifier", "name"]
            .iter()
            .find_map(|k| about.and_then(|a| a.get(*k)).and_then(Value::as_str))
            .map_or_else(|| format!("#{i}"), str::to_string);
        let names = |k: &str| -> Vec<(String, u32)> {
            t.get(k)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .enumerate()
                        .filter_map(|(j, v)| {
                            let name = v.as_str()?;
                            Some((
                                name.to_string(),
                                line(with(i, &[Seg::Key(k.into()), Seg::Index(j)])),
                            ))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let selected = t.get("selectedTests").and_then(Value::as_array).map(|_| {
            (
                names("selectedTests").into_iter().map(|(n, _)| n).collect(),
                line(with(i, &[Seg::Key("selectedTests".into())])),
            )
        });
        let disabled = (t.get("enabled") == Some(&Value::Bool(false)))
            .then(|| line(with(i, &[Seg::Key("enabled".into())])));
        out.push(Target {
            key,
            skipped: names("skippedTests"),
            selected,
            disabled,
        });
    }
    Some(out)
}

/// The test plans of the change whose text does not parse, with the side that does not.
pub fn unparsable(deltas: &[&FileDelta]) -> Vec<(String, Side)> {
    super::config_lint::unparsable_by(deltas, |path, text| {
        is_test_plan(path) && text.is_some_and(|t| targets(t).is_none())
    })
}

/// A plan's targets by key.
type Targets = BTreeMap<String, Target>;

/// A plan's targets at the comparison point; `None` when its text is not at hand (dirty at
/// baseline time): then only names on added lines are new.
fn before(d: &FileDelta) -> Option<Targets> {
    if matches!(d.kind, DeltaKind::Added) {
        return Some(BTreeMap::new());
    }
    let old = d.old_text.as_deref()?;
    // Not JSON then: read as a new plan.
    let list = targets(old).unwrap_or_default();
    Some(list.into_iter().map(|t| (t.key.clone(), t)).collect())
}

fn finding(d: &FileDelta, line: u32, snippet: String, message: String) -> Finding {
    Finding {
        path: d.path.clone(),
        line: Some(line),
        snippet: super::scan::snippet(&snippet),
        message,
    }
}

/// The new skips the change's test plans hold, as `new_skips` findings.
pub fn findings(deltas: &[&FileDelta]) -> Vec<Finding> {
    let plans: Vec<&FileDelta> = deltas
        .iter()
        .copied()
        .filter(|d| {
            is_test_plan(&d.path)
                || matches!(&d.kind, DeltaKind::Renamed { from } if is_test_plan(from))
        })
        .collect();
    let read: Vec<(&FileDelta, Option<Targets>, Vec<Target>)> = plans
        .iter()
        .map(|d| {
            let now = match d.kind {
                DeltaKind::Deleted => Vec::new(),
                _ => d
                    .new_text
                    .as_deref()
                    .filter(|_| is_test_plan(&d.path))
                    .and_then(targets)
                    .unwrap_or_default(),
            };
            (*d, before(d), now)
        })
        .collect();
    // Names some plan of the change stopped skipping for a target: one another plan now
    // skips for the same target moved there.
    let mut gone: HashMap<(String, String), usize> = HashMap::new();
    for (_, old, now) in &read {
        let Some(old) = old else { continue };
        for t in old.values() {
            let kept: BTreeSet<&str> = now
                .iter()
                .filter(|n| n.key == t.key)
                .flat_map(|n| n.skipped.iter().map(|(s, _)| s.as_str()))
                .collect();
            for (name, _) in t.skipped.iter().filter(|(s, _)| !kept.contains(s.as_str())) {
                *gone.entry((t.key.clone(), name.clone())).or_insert(0) += 1;
            }
        }
    }
    let mut out = Vec::new();
    for (d, old, now) in &read {
        let added: BTreeSet<u32> = d.added_lines.iter().map(|l| l.number).collect();
        let text_at = |n: u32| {
            d.new_text
                .as_deref()
                .and_then(|t| t.lines().nth(n as usize - 1))
                .unwrap_or("")
                .to_string()
        };
        for t in now {
            let was = old.as_ref().and_then(|o| o.get(&t.key));
            let skipped_before: BTreeSet<&str> = was
                .map(|w| w.skipped.iter().map(|(s, _)| s.as_str()).collect())
                .unwrap_or_default();
            let mut seen = BTreeSet::new();
            for (name, line) in &t.skipped {
                if !seen.insert(name.as_str()) || skipped_before.contains(name.as_str()) {
                    continue;
                }
                if old.is_none() && !added.contains(line) {
                    continue;
                }
                if let Some(n) = gone
                    .get_mut(&(t.key.clone(), name.clone()))
                    .filter(|n| **n > 0)
                {
                    *n -= 1;
                    continue;
                }
                out.push(finding(
                    d,
                    *line,
                    text_at(*line),
                    format!(
                        "`{name}` was added to the `skippedTests` of a test target in an Xcode test plan: it no longer runs in this plan; remove it from the list and make it pass"
                    ),
                ));
            }
            let Some(was) = was else { continue };
            match (&was.selected, &t.selected) {
                (Some((before, _)), Some((now, line))) => {
                    for name in before.difference(now) {
                        out.push(finding(
                            d,
                            *line,
                            format!("selectedTests: -{name}"),
                            format!(
                                "`{name}` was taken out of the `selectedTests` of a test target in an Xcode test plan, which runs only the tests it lists: it no longer runs in this plan; put it back and make it pass"
                            ),
                        ));
                    }
                }
                (None, Some((_, line))) => out.push(finding(
                    d,
                    *line,
                    text_at(*line),
                    "a test target of an Xcode test plan that ran all its tests now lists `selectedTests`: every test it does not list stops running in this plan; remove the list and make the tests pass".into(),
                )),
                _ => {}
            }
            if let (None, Some(line)) = (was.disabled, t.disabled) {
                out.push(finding(
                    d,
                    line,
                    text_at(line),
                    "a test target of an Xcode test plan was switched off (`\"enabled\" : false`): none of its tests runs in this plan; switch it back on and make the tests pass".into(),
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::Line;

    fn plan(skipped: &[&str]) -> String {
        let names: Vec<String> = skipped.iter().map(|s| format!("        \"{s}\"")).collect();
        format!(
            "{{\n  \"testTargets\" : [\n    {{\n      \"skippedTests\" : [\n{}\n      ],\n      \"target\" : {{\n        \"containerPath\" : \"container:App.xcodeproj\",\n        \"identifier\" : \"F811\",\n        \"name\" : \"App Tests\"\n      }}\n    }}\n  ],\n  \"version\" : 1\n}}\n",
            names.join(",\n")
        )
    }

    fn delta(path: &str, kind: DeltaKind, old: Option<&str>, new: Option<&str>) -> FileDelta {
        let added = match (old, new) {
            (None, Some(n)) => Line::all_of(n),
            _ => Vec::new(),
        };
        FileDelta {
            path: path.into(),
            kind,
            added_lines: added,
            removed_lines: vec![],
            old_text: old.map(str::to_string),
            old_counts: None,
            new_text: new.map(str::to_string),
        }
    }

    fn lines(found: &[Finding]) -> Vec<(String, u32)> {
        found
            .iter()
            .map(|f| (f.path.clone(), f.line.unwrap_or(0)))
            .collect()
    }

    #[test]
    fn a_new_plan_counts_every_skipped_name_at_its_line() {
        let new = plan(&["CombineTests", "WebSocketTests"]);
        let d = delta("T/iOS-Old.xctestplan", DeltaKind::Added, None, Some(&new));
        let found = findings(&[&d]);
        assert_eq!(
            lines(&found),
            [
                ("T/iOS-Old.xctestplan".into(), 5),
                ("T/iOS-Old.xctestplan".into(), 6)
            ]
        );
        assert_eq!(found[0].snippet, "\"CombineTests\",");
    }

    #[test]
    fn names_compared_as_sets_per_target() {
        let old = plan(&["A", "B"]);
        let new = plan(&["B", "A", "C"]);
        let d = delta("p.xctestplan", DeltaKind::Modified, Some(&old), Some(&new));
        assert_eq!(lines(&findings(&[&d])), [("p.xctestplan".into(), 7)]);
        // Reordered only: nothing.
        let d = delta(
            "p.xctestplan",
            DeltaKind::Modified,
            Some(&old),
            Some(&plan(&["B", "A"])),
        );
        assert!(findings(&[&d]).is_empty());
        // Another target's list is another list.
        let other = old.replace("F811", "F999");
        let d = delta(
            "p.xctestplan",
            DeltaKind::Modified,
            Some(&other),
            Some(&new),
        );
        assert_eq!(findings(&[&d]).len(), 3);
    }

    #[test]
    fn a_name_moved_between_plans_of_the_change_is_not_new() {
        let old = plan(&["A", "B"]);
        let a = delta("old.xctestplan", DeltaKind::Deleted, Some(&old), None);
        let b = delta(
            "new.xctestplan",
            DeltaKind::Added,
            None,
            Some(&plan(&["A", "B", "C"])),
        );
        assert_eq!(lines(&findings(&[&a, &b])), [("new.xctestplan".into(), 7)]);
    }

    #[test]
    fn selected_tests_removed_and_targets_switched_off() {
        let old =
            "{\"testTargets\":[{\"selectedTests\":[\"A\",\"B\"],\"target\":{\"name\":\"T\"}}]}";
        let new = "{\n\"testTargets\":[{\n\"selectedTests\":[\"A\"],\n\"enabled\" : false,\n\"target\":{\"name\":\"T\"}}]}";
        let d = delta("p.xctestplan", DeltaKind::Modified, Some(old), Some(new));
        let found = findings(&[&d]);
        assert_eq!(
            lines(&found),
            [("p.xctestplan".into(), 3), ("p.xctestplan".into(), 4)]
        );
        assert_eq!(found[0].snippet, "selectedTests: -B");
        // A new selection on a target that ran everything.
        let all = "{\"testTargets\":[{\"target\":{\"name\":\"T\"}}]}";
        let d = delta("p.xctestplan", DeltaKind::Modified, Some(all), Some(new));
        assert_eq!(findings(&[&d]).len(), 2);
    }

    #[test]
    fn malformed_plans_are_noted_and_read_as_new_when_only_the_old_one_is() {
        let bad = "{ \"testTargets\" : [ ";
        let d = delta("p.xctestplan", DeltaKind::Modified, Some(bad), Some(bad));
        assert!(findings(&[&d]).is_empty());
        assert_eq!(
            unparsable(&[&d]),
            [
                ("p.xctestplan".to_string(), Side::Now),
                ("p.xctestplan".to_string(), Side::Then)
            ]
        );
        let d = delta(
            "p.xctestplan",
            DeltaKind::Modified,
            Some(bad),
            Some(&plan(&["A"])),
        );
        assert_eq!(findings(&[&d]).len(), 1);
        // Other JSON files are no plans.
        let d = delta("p.json", DeltaKind::Modified, Some(bad), Some(bad));
        assert!(unparsable(&[&d]).is_empty());
    }

    #[test]
    fn places_follow_keys_and_values() {
        let at = places("{\"a\": [\"x\",\n \"y\"], \"b\": {\n\"c\": \"z\"}}");
        assert_eq!(at[&vec![Seg::Key("a".into()), Seg::Index(1)]], 2);
        assert_eq!(at[&vec![Seg::Key("b".into()), Seg::Key("c".into())]], 3);
    }
}
