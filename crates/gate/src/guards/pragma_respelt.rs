//! A C# suppression attribute respelt as a pragma over the same code.
//!
//! `[SuppressMessage("Trimming", "IL2057")]` (or `UnconditionalSuppressMessage`) over a
//! member, and `#pragma warning disable IL2057` put at the same place once the attribute is
//! gone (a lambda can no longer carry it, say), silence the same warning on the same code:
//! a rewrite, not a new suppression. The pragma must name no id the attribute did not.

/// The check id a suppression attribute names: its second string argument, up to a `:`
/// (`"IL2057"`, `"CA1822:MarkMembersAsStatic"` gives `CA1822`).
fn attribute_id(line: &str) -> Option<&str> {
    let at = line.find("SuppressMessage")?;
    let args = &line[at..];
    let mut strings = args.split('"').skip(1).step_by(2);
    let _category = strings.next()?;
    let id = strings.next()?;
    let id = id.split(':').next()?.trim();
    (!id.is_empty()).then_some(id)
}

/// The ids a `#pragma warning disable A, B` line lists (none for other lines).
fn pragma_ids(line: &str) -> Vec<&str> {
    let Some(rest) = line.trim().strip_prefix("#pragma warning disable") else {
        return Vec::new();
    };
    let rest = rest.split("//").next().unwrap_or("");
    rest.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Whether the pragma line `pragma` disables only the check the attribute line `attribute`
/// suppressed.
pub fn same_check(attribute: &str, pragma: &str) -> bool {
    let ids = pragma_ids(pragma);
    attribute_id(attribute).is_some_and(|id| !ids.is_empty() && ids.iter().all(|p| *p == id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_attribute_and_the_pragma_name_the_same_check() {
        let attribute = "            [UnconditionalSuppressMessage(\"Trimming\", \"IL2057\")]";
        assert!(same_check(attribute, "#pragma warning disable IL2057"));
        assert!(same_check(
            "[SuppressMessage(\"Performance\", \"CA1822:MarkMembersAsStatic\")]",
            "    #pragma warning disable CA1822 // static would break the API"
        ));
    }

    #[test]
    fn another_or_a_further_check_is_not_the_same() {
        let attribute = "[UnconditionalSuppressMessage(\"Trimming\", \"IL2057\")]";
        assert!(!same_check(attribute, "#pragma warning disable IL2026"));
        assert!(!same_check(
            attribute,
            "#pragma warning disable IL2057, IL2026"
        ));
        assert!(!same_check(attribute, "#pragma warning disable"));
        assert!(!same_check(
            "[Obsolete(\"x\", \"IL2057\")]",
            "#pragma warning disable IL2057"
        ));
    }
}
