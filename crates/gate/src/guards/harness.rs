//! Cargo integration test targets declared with `harness = false`. Cargo builds such a
//! file as a plain program and `cargo test` runs its `main`: that run is the target's one
//! test, whatever `#[test]` functions the file declares (no harness runs them). Turning a
//! `#[test]` file into such a target, its test's body now run by `main`, loses no test.

use std::collections::BTreeSet;

/// The repository paths of the `[[test]]` targets with `harness = false` that the manifest
/// at `manifest` (a repository path ending in `Cargo.toml`) declares: the target's `path`,
/// or `tests/<name>.rs` by its `name`, next to the manifest. A manifest that does not
/// parse declares none.
pub fn targets(manifest: &str, text: &str) -> BTreeSet<String> {
    let dir = manifest
        .rsplit_once('/')
        .map_or(String::new(), |(d, _)| format!("{d}/"));
    let Ok(table) = text.parse::<toml::Table>() else {
        return BTreeSet::new();
    };
    let Some(list) = table.get("test").and_then(|t| t.as_array()) else {
        return BTreeSet::new();
    };
    list.iter()
        .filter_map(|t| t.as_table())
        .filter(|t| t.get("harness").and_then(|h| h.as_bool()) == Some(false))
        .filter_map(|t| {
            let rel = match (t.get("path"), t.get("name")) {
                (Some(p), _) => p.as_str()?.to_string(),
                (None, Some(n)) => format!("tests/{}.rs", n.as_str()?),
                _ => return None,
            };
            Some(format!("{dir}{}", rel.trim_start_matches("./")))
        })
        .collect()
}

/// The manifest that would declare the integration test at `path`: the `Cargo.toml` of the
/// directory that holds its `tests/` directory. `None` for a file under no `tests/`.
pub fn manifest_of(path: &str) -> Option<String> {
    let at = if path.starts_with("tests/") {
        0
    } else {
        path.rfind("/tests/")? + 1
    };
    Some(format!("{}Cargo.toml", &path[..at]))
}

/// Whether the file declares a `main` at its top level, unindented: what `cargo test`
/// runs for a harness-less target.
pub fn has_main(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.strip_prefix("pub ").unwrap_or(l);
        let l = l.strip_prefix("async ").unwrap_or(l);
        l.strip_prefix("fn main")
            .is_some_and(|rest| rest.trim_start().starts_with('('))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harnessless_targets_by_path_or_name() {
        let toml = "[package]\nname = \"x\"\n\n[[test]]\nname = \"a\"\npath = \"tests/a.rs\"\nharness = false\n\n[[test]]\nname = \"b\"\nharness = false\n\n[[test]]\nname = \"c\"\nharness = true\n\n[[test]]\nname = \"d\"\n";
        let got: Vec<String> = targets("Cargo.toml", toml).into_iter().collect();
        assert_eq!(got, ["tests/a.rs", "tests/b.rs"]);
        let got: Vec<String> = targets("crates/x/Cargo.toml", toml).into_iter().collect();
        assert_eq!(got, ["crates/x/tests/a.rs", "crates/x/tests/b.rs"]);
        assert!(targets("Cargo.toml", "[[test]\nname=").is_empty());
    }

    #[test]
    fn manifests_and_mains() {
        assert_eq!(manifest_of("tests/a.rs").as_deref(), Some("Cargo.toml"));
        assert_eq!(
            manifest_of("crates/x/tests/a.rs").as_deref(),
            Some("crates/x/Cargo.toml")
        );
        assert_eq!(manifest_of("src/lib.rs"), None);
        assert!(has_main("#[cfg_attr(lib_build, test)]\nfn main() {\n}\n"));
        assert!(!has_main("mod m {\n    fn main() {}\n}\nfn mainly() {}\n"));
    }
}
