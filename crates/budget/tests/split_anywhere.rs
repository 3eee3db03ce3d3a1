//! Reading a transcript in any number of calls gives the totals of reading it at once.

use budget::{account, Tally};
use proptest::prelude::*;
use std::fs::OpenOptions;
use std::io::Write;

fn line(id: u8, out: u8, prompt: bool) -> String {
    if prompt {
        return r#"{"type":"user","message":{"content":"go"}}"#.to_string() + "\n";
    }
    format!(
        r#"{{"type":"assistant","message":{{"id":"m{id}","usage":{{"input_tokens":3,"output_tokens":{out},"cache_creation_input_tokens":5}}}}}}"#
    ) + "\n"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn incremental_equals_one_shot(
        lines in proptest::collection::vec((0u8..6, 0u8..50, proptest::bool::weighted(0.2)), 1..30),
        cuts in proptest::collection::vec(0usize..4000, 0..6),
    ) {
        let text: String = lines.iter().map(|(i, o, p)| line(*i, *o, *p)).collect();
        let mut whole = Tally::default();
        whole.feed(text.as_bytes());
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("t.jsonl");
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % (text.len() + 1)).collect();
        cuts.sort();
        cuts.push(text.len());
        let mut written = 0;
        let mut file = OpenOptions::new().create(true).append(true).open(&path).unwrap();
        let mut last = None;
        for cut in cuts {
            file.write_all(&text.as_bytes()[written..cut]).unwrap();
            written = cut;
            last = Some(account(&path, tmp.path(), "s").unwrap());
        }
        let usage = last.unwrap();
        prop_assert_eq!(usage.session_tokens, whole.totals.counted());
        prop_assert_eq!(usage.turn_tokens, whole.turn_tokens);
        prop_assert_eq!(usage.messages, whole.messages);
    }
}
