//! Arbitrary bytes as an agent transcript (any of the three formats): the line parser and the incremental step
//! must never panic, and reading in two pieces must agree with reading at once.
#![no_main]

use budget::{check, parse_line, Limits, Tally, Usage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for line in data.split(|&b| b == b'\n') {
        let _ = parse_line(line);
    }
    let mut whole = Tally::default();
    let used = whole.feed(data);
    assert!(used <= data.len());
    let cut = data
        .first()
        .map(|&b| b as usize % (data.len() + 1))
        .unwrap_or(0);
    let mut split = Tally::default();
    let first = split.feed(&data[..cut]);
    let rest = split.feed(&data[first..]);
    assert_eq!(first + rest, used);
    assert_eq!(split, whole);
    let usage = Usage::from_tally(&whole, false);
    let _ = check(&usage, &Limits::new(Some(1), Some(0)));
});
