//! The documented range of every number, duration and size in `loopgate.toml`. A value
//! outside its range is a configuration error naming the key, never a silently weaker gate
//! (`max_bounces = 0` would let every red stop through; a write root of "" or "/" would make
//! the whole disk writable). docs/config.md lists the same ranges.

use std::time::Duration;

pub struct Range<T> {
    pub min: T,
    pub max: T,
}

pub const CHECK_TIMEOUT: Range<Duration> = Range {
    min: Duration::from_millis(100),
    max: Duration::from_secs(24 * 3600),
};
pub const HOOK_DEADLINE: Range<Duration> = Range {
    min: Duration::from_secs(1),
    max: Duration::from_secs(3600),
};
pub const MAX_BOUNCES: Range<u64> = Range { min: 1, max: 100 };
pub const TOKENS: Range<u64> = Range {
    min: 1,
    max: 1_000_000_000_000,
};
pub const AUDIT_KEEP: Range<u64> = Range { min: 1, max: 100 };
pub const AUDIT_MAX_BYTES: Range<u64> = Range {
    min: 1024,
    max: 64 * 1024 * 1024 * 1024,
};
pub const AUDIT_FIELD_BYTES: Range<u64> = Range {
    min: 64,
    max: 1024 * 1024,
};

pub fn count(key: &str, value: u64, range: Range<u64>) -> Result<(), String> {
    if value < range.min || value > range.max {
        return Err(format!(
            "{key} = {value} is out of range: it must be between {} and {}",
            range.min, range.max
        ));
    }
    Ok(())
}

pub fn size(key: &str, value: u64, range: Range<u64>) -> Result<(), String> {
    if value < range.min || value > range.max {
        return Err(format!(
            "{key} = {value} bytes is out of range: it must be between {} and {}",
            human_size(range.min),
            human_size(range.max)
        ));
    }
    Ok(())
}

pub fn duration(key: &str, value: Duration, range: Range<Duration>) -> Result<(), String> {
    if value < range.min || value > range.max {
        return Err(format!(
            "{key} = {} is out of range: it must be between {} and {}",
            human_duration(value),
            human_duration(range.min),
            human_duration(range.max)
        ));
    }
    Ok(())
}

/// A `deny_read` entry: a configured path (as [`root_path`]), never the file-system root
/// or the home directory itself (nothing would run), with `*` only in its last part.
pub fn deny_read_path(key: &str, path: &str) -> Result<(), String> {
    root_path(key, path, true)?;
    if matches!(path.trim_end_matches('/'), "~" | "." | "") {
        return Err(format!(
            "{key} names `{path}`: hiding the whole home or repository leaves nothing to run; name the secret paths"
        ));
    }
    let parts: Vec<&str> = path.split('/').collect();
    if parts[..parts.len() - 1].iter().any(|p| p.contains('*')) || path.contains("**") {
        return Err(format!(
            "{key} has `{path}`: a `*` may only appear in the last part of the path"
        ));
    }
    Ok(())
}

/// A configured root: a non-empty path without surrounding spaces or control characters.
/// A write root may not be the file-system root: that is `confine = "off"`, said plainly.
pub fn root_path(key: &str, root: &str, is_write_root: bool) -> Result<(), String> {
    if root.trim().is_empty() {
        return Err(format!(
            "{key} has an empty entry: write \".\" for the repository, or remove it"
        ));
    }
    if root.trim() != root {
        return Err(format!(
            "{key} has the entry `{root}` with surrounding spaces: remove them"
        ));
    }
    if root.chars().any(char::is_control) {
        return Err(format!("{key} has an entry with a control character"));
    }
    if is_write_root && names_fs_root(root) {
        return Err(format!(
            "{key} names `{root}`, the whole file system: that disables confinement; set [sandbox] confine = \"off\" if that is really meant"
        ));
    }
    Ok(())
}

/// A Rust macro name: a path of identifiers (`rstest`, `my_crate::case`), ending in `!`
/// for a function-like macro (`cases!`). Anything else could never match a macro, so a
/// typo would silently count nothing.
pub fn macro_name(key: &str, name: &str) -> Result<(), String> {
    let path = name.strip_suffix('!').unwrap_or(name);
    let ident = |part: &str| {
        let mut chars = part.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && part != "_"
    };
    if path.split("::").all(ident) {
        Ok(())
    } else {
        Err(format!(
            "{key} has `{name}`, which is not a Rust macro name: write `name` for an attribute (`#[name]`) or `name!` for a function-like macro, a path such as `my_crate::name` allowed"
        ))
    }
}

/// An absolute root that is the file-system root once `.` and `..` are folded, or once an
/// existing path's links are resolved (`/proc/self/root`). A relative root that climbs past
/// `/` depends on where the repository is; the resolved write roots drop it
/// (`gate::roots::write_roots`).
fn names_fs_root(root: &str) -> bool {
    use std::path::{Component, Path, PathBuf};
    let path = Path::new(root);
    if !path.is_absolute() {
        return false;
    }
    let mut folded = PathBuf::from("/");
    for c in path.components() {
        match c {
            Component::ParentDir => {
                folded.pop();
            }
            Component::Normal(n) => folded.push(n),
            _ => {}
        }
    }
    let real = std::fs::canonicalize(&folded).unwrap_or(folded);
    real.parent().is_none()
}

fn human_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 && s.is_multiple_of(3600) {
        format!("{}h", s / 3600)
    } else if s >= 60 && s.is_multiple_of(60) {
        format!("{}m", s / 60)
    } else if d.subsec_millis() == 0 {
        format!("{s}s")
    } else {
        format!("{}ms", d.as_millis())
    }
}

fn human_size(n: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if n >= size && n.is_multiple_of(size) {
            return format!("{}{unit}", n / size);
        }
    }
    format!("{n}B")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_name_the_key_and_the_bounds() {
        let e = count("[gate] max_bounces", 0, MAX_BOUNCES).unwrap_err();
        assert!(
            e.contains("[gate] max_bounces = 0") && e.contains("between 1 and 100"),
            "{e}"
        );
        assert!(count("[gate] max_bounces", 1, MAX_BOUNCES).is_ok());
        let e = duration(
            "[gate] hook_deadline",
            Duration::from_millis(10),
            HOOK_DEADLINE,
        )
        .unwrap_err();
        assert!(e.contains("10ms") && e.contains("between 1s and 1h"), "{e}");
        let e = size("[audit] max_bytes", 10, AUDIT_MAX_BYTES).unwrap_err();
        assert!(e.contains("between 1KiB and 64GiB"), "{e}");
    }

    #[test]
    fn macro_names_are_rust_paths() {
        for good in ["rstest", "cases!", "my_crate::case", "a::b!", "_x1"] {
            assert!(macro_name("[guards] test_macros", good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "!",
            " rstest",
            "cases !",
            "a::",
            "::a",
            "1x",
            "a-b",
            "#[rstest]",
            "_",
            "a!!",
        ] {
            let e = macro_name("[guards] test_macros", bad).unwrap_err();
            assert!(
                e.contains("[guards] test_macros") && e.contains(&format!("`{bad}`")),
                "{e}"
            );
        }
    }

    #[test]
    fn roots_must_be_real_paths() {
        for bad in [
            "",
            "  ",
            " src",
            "a\nb",
            "/",
            "//",
            "/.",
            "/..",
            "/tmp/..",
            "/proc/self/root",
        ] {
            assert!(
                root_path("[sandbox] write_roots", bad, true).is_err(),
                "{bad:?}"
            );
        }
        assert!(root_path("[sandbox] watch_roots", "/", false).is_ok());
        for good in [".", "src", "~/scratch", "/tmp/x", "../sibling"] {
            assert!(
                root_path("[sandbox] write_roots", good, true).is_ok(),
                "{good:?}"
            );
        }
    }
}
