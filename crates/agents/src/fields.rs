//! Lenient field access shared by the protocol modules: a field of the wrong JSON type is
//! read as missing, so one odd field never sinks the whole payload.

use crate::ParseError;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub(crate) type Object = Map<String, Value>;

/// The payload as a JSON object, or the reason it is not one.
pub(crate) fn object(bytes: &[u8]) -> Result<Object, ParseError> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ParseError::NotObject),
        Err(e) => Err(ParseError::NotJson(e.to_string())),
    }
}

/// A non-empty string field.
pub(crate) fn string(object: &Object, key: &str) -> Option<String> {
    match object.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        _ => None,
    }
}

/// A path field (a non-empty string).
pub(crate) fn path(object: &Object, key: &str) -> Option<PathBuf> {
    string(object, key).map(PathBuf::from)
}

/// A boolean field; anything but `true` reads as false.
pub(crate) fn flag(object: &Object, key: &str) -> bool {
    matches!(object.get(key), Some(Value::Bool(true)))
}

/// A nested object field (empty when missing or not an object).
pub(crate) fn nested(object: &Object, key: &str) -> Object {
    match object.get(key) {
        Some(Value::Object(map)) => map.clone(),
        _ => Object::new(),
    }
}

/// The event name every protocol carries in `hook_event_name`.
pub(crate) fn event_name(object: &Object) -> Result<String, ParseError> {
    string(object, "hook_event_name").ok_or(ParseError::NoEvent("hook_event_name"))
}

/// `dir` joined onto `base` when it is relative (agents give tool directories relative to
/// the session's working directory).
pub(crate) fn under(base: Option<&Path>, dir: PathBuf) -> PathBuf {
    match base {
        Some(base) if dir.is_relative() => base.join(dir),
        _ => dir,
    }
}
