//! `.loopgate/` in the repository's `.gitignore`: added once, never removed (the state
//! directory outlives an uninstall).

const ENTRY: &str = ".loopgate/";

/// The new `.gitignore` text, or `None` when the state directory is already ignored.
pub fn add_state_dir(existing: Option<&str>) -> Option<String> {
    let text = existing.unwrap_or("");
    let already = text.lines().any(|line| {
        matches!(
            line.trim(),
            ".loopgate"
                | ".loopgate/"
                | "/.loopgate"
                | "/.loopgate/"
                | ".loopgate/*"
                | "/.loopgate/*"
        )
    });
    if already {
        return None;
    }
    let mut out = text.to_string();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(ENTRY);
    out.push('\n');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_once_with_a_newline_before_it() {
        assert_eq!(add_state_dir(None).as_deref(), Some(".loopgate/\n"));
        let once = add_state_dir(Some("target")).unwrap();
        assert_eq!(once, "target\n.loopgate/\n");
        assert_eq!(add_state_dir(Some(&once)), None);
        assert_eq!(add_state_dir(Some("/.loopgate\n")), None);
    }
}
