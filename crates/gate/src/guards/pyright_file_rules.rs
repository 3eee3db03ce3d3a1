//! Pyright rules turned off for a whole file by a comment, `# pyright: reportX=false`.
//!
//! Such a comment (a line of its own, at the top level) switches a rule off for every line
//! of its file. A change that removes it and puts `# pyright: ignore[reportX]` on the one
//! line that still needs it silences less than before: the ignore is narrowed, not new.
//! An ignore of a rule the removed comment did not name, or a comment still in the file
//! (written again elsewhere), does not count.

/// The rules the file-level pyright comments among `removed` turned off
/// (`# pyright: reportUnknownMemberType=false, reportUnusedImport=false`), leaving out any
/// such comment still in `now` word for word.
pub fn rules_removed(removed: &[&str], now: &str) -> Vec<String> {
    let kept = |line: &str| now.lines().any(|l| l.trim_end() == line.trim_end());
    removed
        .iter()
        .filter(|l| !kept(l))
        .filter_map(|l| file_rules_off(l))
        .flatten()
        .collect()
}

/// The rules a top-level `# pyright: rule=false, other=false` comment turns off; `None`
/// for any other line (an ignore, `# pyright: strict`, an indented comment).
fn file_rules_off(line: &str) -> Option<Vec<String>> {
    let body = line
        .strip_prefix('#')?
        .trim_start()
        .strip_prefix("pyright:")?;
    let mut rules = Vec::new();
    for setting in body.split(',') {
        let (rule, value) = setting.split_once('=')?;
        let rule = rule.trim();
        let value = value.trim();
        if !rule.chars().all(|c| c.is_ascii_alphanumeric()) || rule.is_empty() {
            return None;
        }
        if matches!(value, "false" | "none" | "\"none\"") {
            rules.push(rule.to_string());
        }
    }
    (!rules.is_empty()).then_some(rules)
}

/// Whether `line` holds a `# pyright: ignore[..]` listing only rules among `off`.
pub fn ignore_within(line: &str, off: &[String]) -> bool {
    let Some(at) = line.find("pyright: ignore[") else {
        return false;
    };
    let list = &line[at + "pyright: ignore[".len()..];
    let Some((list, _)) = list.split_once(']') else {
        return false;
    };
    let rules: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    !rules.is_empty() && rules.iter().all(|r| off.iter().any(|o| o == r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_wide_rule_removed_narrows_a_line_ignore_of_it() {
        let off = rules_removed(
            &["# pyright: reportUnknownMemberType=false", ""],
            "import sys\nx = 1\n",
        );
        assert_eq!(off, vec!["reportUnknownMemberType".to_string()]);
        assert!(ignore_within(
            "    v = f\"{p.major}\"  # pyright: ignore[reportUnknownMemberType]",
            &off
        ));
        assert!(!ignore_within(
            "v = p.major  # pyright: ignore[reportAttributeAccessIssue]",
            &off
        ));
        assert!(!ignore_within("v = p.major  # pyright: ignore", &off));
    }

    #[test]
    fn other_comments_or_one_still_there_are_not_file_wide_rules_removed() {
        for (removed, now) in [
            ("# pyright: strict", ""),
            ("    # pyright: reportX=false", ""),
            ("x = 1  # pyright: ignore[reportX]", ""),
            ("# pyright: reportX=true", ""),
            (
                "# pyright: reportX=false",
                "# pyright: reportX=false\nimport os\n",
            ),
        ] {
            assert!(rules_removed(&[removed], now).is_empty(), "{removed}");
        }
    }
}
