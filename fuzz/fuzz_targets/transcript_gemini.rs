//! Arbitrary bytes as a Gemini CLI chat recording: the bytes are spliced into a message's `tokens` and into a `$set` of the message list so the Gemini-specific fields are reached. The parser never panics, and the incremental step agrees
//! whether the lines are fed at once or in two pieces.
#![no_main]

use budget::{parse_gemini_line, Tally};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = parse_gemini_line(data);
    let mut lines = Vec::new();
    for prefix in [
        &br#"{"type":"gemini","id":"g","tokens":"#[..],
        &br#"{"$set":{"messages":"#[..],
    ] {
        let mut line = prefix.to_vec();
        line.extend(data.iter().filter(|&&b| b != b'\n'));
        line.extend_from_slice(b"}}\n");
        let _ = parse_gemini_line(&line[..line.len() - 1]);
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
