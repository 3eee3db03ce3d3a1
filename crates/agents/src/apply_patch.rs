//! The paths an `apply_patch` envelope touches. Codex hands the raw patch text to hooks as
//! `tool_input.command`; its own parser accepts surrounding whitespace on marker lines, so
//! this reader trims the same way: a path Codex would write must never be missed here.

use std::collections::HashSet;
use std::path::PathBuf;

const MARKERS: [&str; 4] = [
    "*** Add File:",
    "*** Update File:",
    "*** Delete File:",
    "*** Move to:",
];

/// Every path named by an add, update, delete or move marker, in order, without duplicates.
/// Paths are returned as written (relative ones are relative to the session's cwd).
/// Linear in the patch: a multi-megabyte patch naming a hundred thousand files must be read
/// well inside the hook's deadline (a search through the list per path was quadratic).
pub fn patch_paths(patch: &str) -> Vec<PathBuf> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut paths: Vec<PathBuf> = Vec::new();
    for line in patch.lines() {
        let line = line.trim();
        for marker in MARKERS {
            if let Some(rest) = line.strip_prefix(marker) {
                let path = rest.trim();
                if !path.is_empty() && seen.insert(path) {
                    paths.push(PathBuf::from(path));
                }
            }
        }
    }
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_kind_is_read() {
        let patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Update File: src/b.rs\n\
                     *** Move to: src/c.rs\n@@\n-x\n+y\n*** Delete File: d.md\n*** End Patch\n";
        let paths: Vec<String> = patch_paths(patch)
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        assert_eq!(paths, ["a.txt", "src/b.rs", "src/c.rs", "d.md"]);
    }

    #[test]
    fn indented_markers_and_crlf_are_still_read() {
        let patch = "*** Begin Patch\r\n   *** Add File:   /abs/x.txt  \r\n+1\r\n*** End Patch";
        assert_eq!(patch_paths(patch), [PathBuf::from("/abs/x.txt")]);
    }

    #[test]
    fn duplicates_and_empty_paths_are_dropped() {
        let patch = "*** Update File: a\n*** Update File: a\n*** Add File:\n";
        assert_eq!(patch_paths(patch), [PathBuf::from("a")]);
    }

    #[test]
    fn text_without_markers_touches_nothing() {
        // Content lines of an added file start with `+`, so a marker inside them is not one.
        assert!(patch_paths("just words\n+*** Add File: not-a-marker\n").is_empty());
        assert!(patch_paths("").is_empty());
    }
}
