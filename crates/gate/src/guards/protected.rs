//! `config_edits` (the gate's own files) and `protected_edits` (the user's `protect`
//! globs), including new files that shadow a protected one.

use super::{DeltaKind, FileDelta, Finding};
use super::{PathSet, Pattern};

/// Extensions a tool may load a configuration from. A new sibling with one of these (or
/// none) next to a protected file of the same stem can take its place: `jest.config.ts`
/// next to `jest.config.js`, `.cargo/config` next to `.cargo/config.toml`. Other
/// extensions (`Cargo.lock` next to `Cargo.toml`) are not configuration and not findings.
const CONFIG_EXTENSIONS: &[&str] = &[
    "js",
    "mjs",
    "cjs",
    "ts",
    "mts",
    "cts",
    "jsx",
    "tsx",
    "json",
    "jsonc",
    "json5",
    "yaml",
    "yml",
    "toml",
    "ini",
    "cfg",
    "conf",
    "config",
    "xml",
    "properties",
    "py",
    "rb",
    "sh",
];

/// The names GNU make looks for in a directory, in the order it looks: a new file with an
/// earlier name is read instead of a protected one with a later name beside it, so it
/// changes what `make test` runs as much as an edit of the protected file would.
const MAKEFILES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

/// The gate's files, anchored at the repository root: a `loopgate.toml` in a
/// subdirectory is not the one loopgate reads.
pub fn gate_files() -> PathSet {
    policy::globs::gate_files().clone()
}

fn verb(kind: &DeltaKind) -> &'static str {
    match kind {
        DeltaKind::Added => "created",
        DeltaKind::Modified => "changed",
        DeltaKind::Deleted => "deleted",
        DeltaKind::Renamed { .. } => "renamed",
    }
}

/// The path of a delta that matched `set`: the current path, or the old one of a rename.
fn touched<'a>(d: &'a FileDelta, set: &'a PathSet) -> Option<(&'a str, &'a Pattern)> {
    if let Some(p) = set.first_match(&d.path) {
        return Some((&d.path, p));
    }
    match &d.kind {
        DeltaKind::Renamed { from } => set.first_match(from).map(|p| (from.as_str(), p)),
        _ => None,
    }
}

fn describe(d: &FileDelta, path: &str) -> String {
    match &d.kind {
        DeltaKind::Renamed { from } if from == path => format!("renamed to `{}`", d.path),
        DeltaKind::Renamed { from } => format!("created by renaming `{from}`"),
        kind => verb(kind).to_string(),
    }
}

pub fn config_edits(deltas: &[&FileDelta], gate: &PathSet) -> Vec<Finding> {
    deltas
        .iter()
        .filter_map(|d| {
            let (path, _) = touched(d, gate)?;
            Some(Finding {
                path: path.to_string(),
                line: None,
                snippet: format!("{path} {}", describe(d, path)),
                message: format!(
                    "`{path}` belongs to the gate itself and was {}: revert it; only a human changes the gate's configuration",
                    describe(d, path)
                ),
            })
        })
        .collect()
}

pub fn protected_edits(deltas: &[&FileDelta], protect: &PathSet) -> Vec<Finding> {
    let mut out: Vec<Finding> = protect
        .invalid
        .iter()
        .map(|glob| Finding {
            path: "loopgate.toml".into(),
            line: None,
            snippet: glob.clone(),
            message: format!(
                "the protect glob `{glob}` is not a valid glob, so nothing it names is protected: fix it in loopgate.toml"
            ),
        })
        .collect();
    for &d in deltas {
        if let Some((path, pattern)) = touched(d, protect) {
            out.push(Finding {
                path: path.to_string(),
                line: None,
                snippet: format!("{path} {}", describe(d, path)),
                message: format!(
                    "`{path}` is protected (by `{}`) and was {}: revert it; protected files are changed by a human",
                    pattern.text,
                    describe(d, path)
                ),
            });
            continue;
        }
        let is_new = matches!(d.kind, DeltaKind::Added | DeltaKind::Renamed { .. });
        if let Some(sibling) = is_new.then(|| shadowed(&d.path, protect)).flatten() {
            out.push(Finding {
                path: d.path.clone(),
                line: None,
                snippet: format!("{} next to {sibling}", d.path),
                message: format!(
                    "new file `{}` shadows the protected `{sibling}` (same name, another extension a tool may load instead): delete it and change the protected file only with a human",
                    d.path
                ),
            });
        }
    }
    out
}

/// `(stem, extension)` of a file name; a dotfile without another dot has no extension.
fn split_name(name: &str) -> (&str, Option<&str>) {
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, Some(ext)),
        _ => (name, None),
    }
}

/// The protected sibling that a new file at `path` shadows: same directory, same stem,
/// a different extension (which must be a configuration extension, or none); or a
/// makefile name make reads before the protected makefile beside it.
pub fn shadowed(path: &str, protect: &PathSet) -> Option<String> {
    let (dir, name) = match path.rsplit_once('/') {
        Some((dir, name)) => (Some(dir), name),
        None => (None, path),
    };
    let beside = |sibling: &str| match dir {
        Some(dir) => format!("{dir}/{sibling}"),
        None => sibling.to_string(),
    };
    if let Some(rank) = MAKEFILES.iter().position(|m| *m == name) {
        let protected_later = MAKEFILES[rank + 1..]
            .iter()
            .map(|later| beside(later))
            .find(|sibling| protect.is_match(sibling));
        if protected_later.is_some() {
            return protected_later;
        }
    }
    let (stem, ext) = split_name(name);
    if ext.is_some_and(|e| !CONFIG_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str())) {
        return None;
    }
    protect.patterns.iter().find_map(|pattern| {
        let literal = pattern.literal_file_name()?;
        let (p_stem, p_ext) = split_name(literal);
        if p_stem != stem || p_ext == ext {
            return None;
        }
        let sibling = beside(literal);
        pattern.is_match(&sibling).then_some(sibling)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shadows_are_same_dir_same_stem_other_config_extension() {
        let protect = PathSet::new(&[
            "jest.config.js",
            "/.cargo/config.toml",
            "Cargo.toml",
            ".eslintrc.json",
        ]);
        assert_eq!(
            shadowed("jest.config.ts", &protect).as_deref(),
            Some("jest.config.js")
        );
        assert_eq!(
            shadowed("web/jest.config.mjs", &protect).as_deref(),
            Some("web/jest.config.js")
        );
        assert_eq!(
            shadowed(".cargo/config", &protect).as_deref(),
            Some(".cargo/config.toml")
        );
        assert_eq!(
            shadowed(".eslintrc.js", &protect).as_deref(),
            Some(".eslintrc.json")
        );
        assert_eq!(shadowed("Cargo.lock", &protect), None);
        assert_eq!(shadowed("jest.config.js", &protect), None);
        assert_eq!(shadowed("jest.setup.ts", &protect), None);
        assert_eq!(shadowed("x/.cargo/config", &protect), None);
        assert_eq!(shadowed("jest.ts", &protect), None);
    }

    /// make reads `GNUmakefile`, then `makefile`, then `Makefile`: a new file earlier in
    /// that order beside a protected one takes its place; one later, or in a directory
    /// whose makefile is not protected, does not.
    #[test]
    fn a_makefile_make_reads_first_shadows_the_protected_one() {
        let root = PathSet::new(&["/Makefile"]);
        assert_eq!(shadowed("makefile", &root).as_deref(), Some("Makefile"));
        assert_eq!(shadowed("GNUmakefile", &root).as_deref(), Some("Makefile"));
        assert_eq!(shadowed("sub/makefile", &root), None);
        assert_eq!(shadowed("sub/GNUmakefile", &root), None);
        assert_eq!(shadowed("MAKEFILE", &root), None);
        assert_eq!(shadowed("makefile.bak", &root), None);
        let lower = PathSet::new(&["/makefile"]);
        assert_eq!(shadowed("GNUmakefile", &lower).as_deref(), Some("makefile"));
        assert_eq!(shadowed("Makefile", &lower), None);
        let everywhere = PathSet::new(&["Makefile"]);
        assert_eq!(
            shadowed("web/GNUmakefile", &everywhere).as_deref(),
            Some("web/Makefile")
        );
        let gnu = PathSet::new(&["/GNUmakefile"]);
        assert_eq!(shadowed("makefile", &gnu), None);
    }

    #[test]
    fn gate_files_are_anchored() {
        let gate = gate_files();
        assert!(gate.is_match("loopgate.toml"));
        assert!(gate.is_match(".loopgate/baselines/s.json"));
        assert!(gate.is_match(".claude/settings.local.json"));
        assert!(!gate.is_match("examples/loopgate.toml"));
        assert!(!gate.is_match(".claude/agents/x.md"));
    }
}
