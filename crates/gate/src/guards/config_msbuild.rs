//! Warnings turned off in MSBuild files. A `<NoWarn>` property in a project file
//! (`.csproj`, `.fsproj`, `.vbproj`) or in a file projects import (`.props`, `.targets`,
//! `Directory.Build.props`) lists compiler and analyzer warning ids that every source of
//! those projects stops reporting: each id is a suppression as wide as
//! `#pragma warning disable` at the top of every file. Read line by line, as these files
//! are written; the reading cannot fail.

use super::config_lint::Entry;

const WHAT: &str = "msbuild NoWarn";

/// MSBuild project files and the property files they import.
pub fn is_msbuild(name: &str) -> bool {
    [".csproj", ".fsproj", ".vbproj", ".props", ".targets"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// One entry per warning id of each `<NoWarn>` element, at the line that names it. Property
/// references (`$(NoWarn)`, which carries the ids set before) name no id; an element
/// inside an XML comment is not read.
pub fn no_warn_ids(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut in_comment = false;
    let mut open = false;
    for (i, raw) in text.lines().enumerate() {
        let number = i as u32 + 1;
        let mut rest = raw;
        while !rest.is_empty() {
            if in_comment {
                match rest.find("-->") {
                    Some(end) => {
                        rest = &rest[end + 3..];
                        in_comment = false;
                    }
                    None => break,
                }
                continue;
            }
            let comment = rest.find("<!--");
            let (code, after) = match comment {
                Some(at) => (&rest[..at], Some(&rest[at + 4..])),
                None => (rest, None),
            };
            read_code(code, number, &mut open, &mut out);
            match after {
                Some(a) => {
                    in_comment = true;
                    rest = a;
                }
                None => break,
            }
        }
    }
    out
}

/// The ids of one stretch of code outside comments; `open` carries a `<NoWarn>` whose
/// closing tag is on a later line.
fn read_code(code: &str, number: u32, open: &mut bool, out: &mut Vec<Entry>) {
    let mut rest = code;
    loop {
        if !*open {
            let Some(at) = opening(rest) else {
                return;
            };
            rest = &rest[at..];
            *open = true;
        }
        let (body, closed) = match rest.find("</NoWarn") {
            Some(end) => (&rest[..end], Some(end)),
            None => (rest, None),
        };
        for id in body.split([';', ',']) {
            let id = id.trim();
            if !id.is_empty() && !id.starts_with("$(") && !id.contains(['<', '>', ' ']) {
                out.push(Entry::new(WHAT, id, "", vec![number]));
            }
        }
        match closed {
            Some(end) => {
                *open = false;
                rest = &rest[end + "</NoWarn".len()..];
            }
            None => return,
        }
    }
}

/// Where the body of a `<NoWarn>` or `<NoWarn Condition="..">` opened in `s` starts.
fn opening(s: &str) -> Option<usize> {
    let at = s.find("<NoWarn")?;
    let tag = &s[at + "<NoWarn".len()..];
    if !tag.starts_with(['>', ' ', '\t']) {
        return None;
    }
    let close = tag.find('>')?;
    if tag[..close].ends_with('/') {
        return None;
    }
    Some(at + "<NoWarn".len() + close + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Vec<(String, u32)> {
        no_warn_ids(text)
            .into_iter()
            .map(|e| (e.rule, e.lines[0]))
            .collect()
    }

    #[test]
    fn each_id_of_a_no_warn_list_is_an_entry() {
        let text = "<Project>\n  <PropertyGroup>\n    <NoWarn>$(NoWarn);S8969;S8970</NoWarn>\n    <NoWarn Condition=\"'$(X)' == 'y'\">\n      CA1510,\n      RS0037\n    </NoWarn>\n  </PropertyGroup>\n</Project>\n";
        assert_eq!(
            ids(text),
            vec![
                ("S8969".into(), 3),
                ("S8970".into(), 3),
                ("CA1510".into(), 5),
                ("RS0037".into(), 6),
            ]
        );
    }

    #[test]
    fn commented_elements_references_and_other_properties_are_not_ids() {
        let text = "<!-- <NoWarn>CS1591</NoWarn> -->\n<NoWarn>$(NoWarn)</NoWarn>\n<WarningsAsErrors>CS8600</WarningsAsErrors>\n<NoWarnings>true</NoWarnings>\n<NoWarn />\n";
        assert!(ids(text).is_empty());
    }

    #[test]
    fn project_and_property_files_are_msbuild() {
        for name in [
            "Polly.csproj",
            "Common.props",
            "Test.targets",
            "Directory.Build.props",
        ] {
            assert!(is_msbuild(name));
        }
        assert!(!is_msbuild("props.json"));
    }
}
