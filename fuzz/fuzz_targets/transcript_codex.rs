//! Arbitrary bytes as a Codex rollout: the bytes are spliced into the `payload` of a usage record and of a `token_count` event so the Codex-specific fields are reached. The parser never panics, and the incremental step agrees
//! whether the lines are fed at once or in two pieces.
#![no_main]

use budget::{parse_codex_line, Tally};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_codex_line(data);
    let mut lines = Vec::new();
    for prefix in [
        &br#"{"type":"token_usage_record","payload":"#[..],
        &br#"{"type":"event_msg","payload":{"type":"token_count","info":"#[..],
    ] {
        let mut line = prefix.to_vec();
        line.extend(data.iter().filter(|&&b| b != b'\n'));
        line.extend_from_slice(b"}}\n");
        let _ = parse_codex_line(&line[..line.len() - 1]);
        lines.extend(line);
    }
    let mut whole = Tally::default();
    let used = whole.feed(&lines);
    let cut = data.len() % (lines.len() + 1);
    let mut split = Tally::default();
    let first = split.feed(&lines[..cut]);
    let rest = split.feed(&lines[first..]);
    assert_eq!(first + rest, used);
    assert_eq!(split, whole);
});
