//! One log line: its fields, how it is written, and how its own hash is checked.
//!
//! The hash covers the exact bytes of the line with its trailing `,"hash":"…"` member
//! removed (and the newline). Hashing the written bytes, rather than a re-serialization,
//! means verification never depends on how a JSON library orders or escapes things.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `prev` of the very first line ever written.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

const HASH_HEX_LEN: usize = 64;
const HASH_OPEN: &[u8] = b",\"hash\":\"";
/// `,"hash":"` + 64 hex digits + `"}`.
const HASH_SUFFIX_LEN: usize = HASH_OPEN.len() + HASH_HEX_LEN + 2;

/// What a caller records; the log adds time, sequence number and the chain.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub session: String,
    /// `claude`, `codex`, `cursor`, `gemini`, `cli`, ...
    pub agent: String,
    /// `PreToolUse`, `Stop`, `write_escape`, `budget_exhausted`, ...
    pub event: String,
    /// The tool attempted; `None` for gate events.
    pub tool: Option<String>,
    /// The tool input as the agent sent it (strings truncated on append).
    pub input: Value,
    /// `allow`, `ask`, `deny`, `block`, ...
    pub decision: Option<String>,
    /// The rule id that decided, e.g. `fs.escape`.
    pub rule: Option<String>,
    pub reason: Option<String>,
    /// Free-form facts: budget numbers, escaped paths, ...
    pub extra: Map<String, Value>,
}

/// A line as written: the record plus time, sequence number and the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// RFC 3339, UTC.
    pub time: String,
    /// 1 for the first line ever; +1 per line, across rotations.
    pub seq: u64,
    pub session: String,
    pub agent: String,
    pub event: String,
    pub tool: Option<String>,
    pub input: Value,
    pub decision: Option<String>,
    pub rule: Option<String>,
    pub reason: Option<String>,
    pub extra: Map<String, Value>,
    /// Hash of the previous line, or [`GENESIS`].
    pub prev: String,
    /// BLAKE3 (hex) of this line without its `hash` member.
    pub hash: String,
}

/// The fields in written order, without `hash`: serialized, these are the hashed bytes.
#[derive(Serialize)]
struct Body<'a> {
    time: &'a str,
    seq: u64,
    session: &'a str,
    agent: &'a str,
    event: &'a str,
    tool: &'a Option<String>,
    input: &'a Value,
    decision: &'a Option<String>,
    rule: &'a Option<String>,
    reason: &'a Option<String>,
    extra: &'a Map<String, Value>,
    prev: &'a str,
}

/// Serialize `entry` (its `hash` is ignored and recomputed) into one line with `\n`.
/// Returns the line and the hash.
pub fn encode(entry: &Entry) -> (Vec<u8>, String) {
    let body = Body {
        time: &entry.time,
        seq: entry.seq,
        session: &entry.session,
        agent: &entry.agent,
        event: &entry.event,
        tool: &entry.tool,
        input: &entry.input,
        decision: &entry.decision,
        rule: &entry.rule,
        reason: &entry.reason,
        extra: &entry.extra,
        prev: &entry.prev,
    };
    // Serializing plain strings, numbers and `Value`s cannot fail.
    let mut bytes = serde_json::to_vec(&body).unwrap_or_else(|_| b"{}".to_vec());
    let hash = blake3::hash(&bytes).to_hex().to_string();
    bytes.pop(); // the closing brace
    bytes.extend_from_slice(HASH_OPEN);
    bytes.extend_from_slice(hash.as_bytes());
    bytes.extend_from_slice(b"\"}\n");
    (bytes, hash)
}

/// Why one line cannot be trusted on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineProblem {
    /// Not a JSON object with every field, or no well-formed trailing hash.
    Malformed(String),
    /// Well-formed, but the content does not match the hash.
    HashMismatch,
}

/// Parse one line (without its `\n`) and check its own hash.
pub fn decode(line: &[u8]) -> Result<Entry, LineProblem> {
    if line.len() < HASH_SUFFIX_LEN + 2 {
        return Err(LineProblem::Malformed("too short to be a log line".into()));
    }
    let split = line.len() - HASH_SUFFIX_LEN;
    let suffix = &line[split..];
    let hex = &suffix[HASH_OPEN.len()..HASH_OPEN.len() + HASH_HEX_LEN];
    let well_formed = suffix.starts_with(HASH_OPEN)
        && suffix.ends_with(b"\"}")
        && hex
            .iter()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b));
    if !well_formed {
        return Err(LineProblem::Malformed(
            "the line does not end with its hash".into(),
        ));
    }
    let entry: Entry = serde_json::from_slice(line)
        .map_err(|e| LineProblem::Malformed(format!("not a log line: {e}")))?;
    let mut body = Vec::with_capacity(split + 1);
    body.extend_from_slice(&line[..split]);
    body.push(b'}');
    if blake3::hash(&body).to_hex().as_bytes() != hex {
        return Err(LineProblem::HashMismatch);
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    pub(crate) fn sample(seq: u64, prev: &str) -> Entry {
        Entry {
            time: "2026-01-01T00:00:00Z".into(),
            seq,
            session: "s1".into(),
            agent: "claude".into(),
            event: "PreToolUse".into(),
            tool: Some("Bash".into()),
            input: json!({"command": "ls \"a\" é"}),
            decision: Some("allow".into()),
            rule: None,
            reason: None,
            extra: Map::new(),
            prev: prev.into(),
            hash: String::new(),
        }
    }

    #[test]
    fn round_trips_and_hash_is_the_last_member() {
        let (bytes, hash) = encode(&sample(1, GENESIS));
        assert_eq!(*bytes.last().unwrap(), b'\n');
        let line = &bytes[..bytes.len() - 1];
        let text = std::str::from_utf8(line).unwrap();
        assert!(text.ends_with(&format!(",\"hash\":\"{hash}\"}}")), "{text}");
        let entry = decode(line).unwrap();
        assert_eq!(entry.hash, hash);
        assert_eq!(entry.seq, 1);
        assert_eq!(entry.input["command"], "ls \"a\" é");
    }

    #[test]
    fn any_edit_is_a_hash_mismatch() {
        let (bytes, _) = encode(&sample(1, GENESIS));
        let text = String::from_utf8(bytes[..bytes.len() - 1].to_vec()).unwrap();
        let edited = text.replace("\"allow\"", "\"deny\"");
        assert_eq!(decode(edited.as_bytes()), Err(LineProblem::HashMismatch));
    }

    #[test]
    fn a_cut_line_is_malformed() {
        let (bytes, _) = encode(&sample(1, GENESIS));
        let cut = &bytes[..bytes.len() / 2];
        assert!(matches!(decode(cut), Err(LineProblem::Malformed(_))));
        assert!(matches!(decode(b""), Err(LineProblem::Malformed(_))));
    }
}
