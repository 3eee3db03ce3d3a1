//! Reading and writing a settings file as a JSON object while keeping the user's layout as
//! far as serde_json allows: key order (the workspace enables `preserve_order`) and the
//! indentation unit of the existing file.

use super::InstallError;
use serde::Serialize;
use serde_json::{Map, Value};

/// The file's top-level object. An empty or whitespace-only file reads as `{}`.
pub(crate) fn parse_object(text: &str) -> Result<Map<String, Value>, InstallError> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(InstallError::Shape(
            "the top level is not a JSON object".into(),
        )),
        Err(e) => Err(InstallError::Parse(e.to_string())),
    }
}

/// Pretty JSON with the indentation unit found in `original` (two spaces by default) and a
/// final newline.
pub(crate) fn print(value: &Map<String, Value>, original: Option<&str>) -> String {
    let indent = original
        .and_then(indent_unit)
        .unwrap_or_else(|| "  ".into());
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    value
        .serialize(&mut serializer)
        .expect("a JSON map always serializes");
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    text.push('\n');
    text
}

/// The leading whitespace of the first indented line: the file's indentation unit.
fn indent_unit(text: &str) -> Option<String> {
    text.lines().skip(1).find_map(|line| {
        let rest = line.trim_start_matches([' ', '\t']);
        let width = line.len() - rest.len();
        (width > 0 && !rest.is_empty()).then(|| line[..width].to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indentation_of_the_original_is_kept() {
        let original = "{\n    \"a\": {\n        \"b\": 1\n    }\n}\n";
        let map = parse_object(original).unwrap();
        assert_eq!(print(&map, Some(original)), original);
        let tabs = "{\n\t\"a\": [\n\t\t1\n\t]\n}\n";
        assert_eq!(print(&parse_object(tabs).unwrap(), Some(tabs)), tabs);
    }

    #[test]
    fn bad_text_is_a_parse_error_and_arrays_are_refused() {
        assert!(matches!(
            parse_object("{ nope"),
            Err(InstallError::Parse(_))
        ));
        assert!(matches!(parse_object("[1]"), Err(InstallError::Shape(_))));
        assert!(parse_object("  \n").unwrap().is_empty());
    }
}
