//! Bounding what an agent can put into the log: every string (and object key) of a JSON
//! value is cut to `max` bytes at a character boundary, with a marker saying how long it was.

use serde_json::{Map, Value};

/// Cut `text` to at most `max` bytes of its own content, keeping UTF-8 whole, and say so.
pub fn truncate_str(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while end > 0 && !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…[truncated: {} bytes]", &text[..end], text.len())
}

/// A copy of `value` with every string and key truncated to `max` bytes.
pub fn truncate_value(value: &Value, max: usize) -> Value {
    match value {
        Value::String(s) => Value::String(truncate_str(s, max)),
        Value::Array(items) => Value::Array(items.iter().map(|v| truncate_value(v, max)).collect()),
        Value::Object(map) => Value::Object(truncate_map(map, max)),
        other => other.clone(),
    }
}

pub fn truncate_map(map: &Map<String, Value>, max: usize) -> Map<String, Value> {
    map.iter()
        .map(|(k, v)| (truncate_str(k, max), truncate_value(v, max)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_strings_are_untouched() {
        assert_eq!(truncate_str("abc", 3), "abc");
    }

    #[test]
    fn long_strings_keep_a_prefix_and_a_marker() {
        assert_eq!(truncate_str("abcdef", 2), "ab…[truncated: 6 bytes]");
    }

    #[test]
    fn cuts_never_split_a_character() {
        // "é" is two bytes: a cut at 1 byte must fall back to 0.
        assert_eq!(truncate_str("éa", 1), "…[truncated: 3 bytes]");
    }

    #[test]
    fn nested_strings_and_keys_are_bounded() {
        let long = "x".repeat(100);
        let v = json!({"command": long, "list": [long], long.clone(): 1, "n": 5});
        let t = truncate_value(&v, 10);
        let text = serde_json::to_string(&t).unwrap();
        assert!(!text.contains(&"x".repeat(11)), "{text}");
        assert_eq!(t["n"], 5);
        assert!(t["command"]
            .as_str()
            .unwrap()
            .ends_with("[truncated: 100 bytes]"));
    }
}
