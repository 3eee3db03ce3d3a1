//! The pure incremental step: running totals fed one complete line at a time, whichever
//! agent wrote the transcript (see `transcript` for the three formats).
//!
//! Claude Code writes one line per content block of an assistant message, each repeating
//! `message.id` and `usage`; while the message streams, `output_tokens` on the earlier
//! lines is a partial count. For each id the count that wins is, field by field, the
//! largest value seen on any of its lines (the final line carries the final output count;
//! the input and cache fields repeat). A later line for a known id adds only the difference.

use crate::transcript::{parse_line, ApiUsage, LineKind};
use serde::{Deserialize, Serialize};
use std::collections::{HashSet, VecDeque};

/// Ids whose later lines can still raise their counts. A message's lines are written one
/// after the other, so a window this size is ample; a line for an id that has left the
/// window is a repeat of an already-counted message and adds nothing.
pub const RECENT_IDS: usize = 64;

/// Counts of one kind of token summed over the session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub input: u64,
    pub output: u64,
    pub cache_creation: u64,
    /// Reported, not counted against the budget.
    pub cache_read: u64,
}

impl Counts {
    /// What a budget counts: input + output + cache creation.
    pub fn counted(&self) -> u64 {
        self.input
            .saturating_add(self.output)
            .saturating_add(self.cache_creation)
    }
}

/// What is remembered about one message id: `[input, output, cache creation, cache read,
/// turn it was first seen in]`, as a compact array in the cache file.
type Seen = [u64; 5];

/// Everything accounting has learnt from the lines read so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub totals: Counts,
    /// Number of turns started so far (0 before the first prompt).
    pub turn: u64,
    /// Counted tokens of messages first seen in the current turn.
    pub turn_tokens: u64,
    /// Assistant messages counted (distinct ids, plus lines without an id).
    pub messages: u64,
    pub malformed_lines: u64,
    pub oversized_lines: u64,
    /// The most recent ids with their counts, oldest first.
    recent: VecDeque<(String, Seen)>,
    /// Every older id, as a 64-bit hash: enough to never count it twice, and small. Not in
    /// the serialized form: the cache layer keeps it in a file of its own, read only when
    /// new lines are fed (see `cache`), so a call with nothing new never parses it.
    #[serde(skip)]
    older: HashSet<u64>,
    /// The largest running total seen (Codex `token_count`); see [`Tally::counted`].
    #[serde(default)]
    pub cumulative: Counts,
    /// Tool calls named before the usage of the response that asked for them (Codex).
    #[serde(default)]
    pending_calls: Vec<String>,
    /// The latest tool calls whose asking response is counted, oldest first.
    #[serde(default)]
    settled_calls: VecDeque<String>,
}

/// Tool calls remembered as settled: more than one response can ask in parallel.
pub const RECENT_CALLS: usize = 64;

impl Tally {
    /// Account for one complete line (without its newline).
    pub fn feed_line(&mut self, line: &[u8]) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match parse_line(line) {
            Err(_) => self.malformed_lines += 1,
            Ok(kind) => self.apply(kind),
        }
    }

    fn apply(&mut self, kind: LineKind) {
        match kind {
            LineKind::Other => {}
            LineKind::Prompt => {
                self.turn += 1;
                self.turn_tokens = 0;
            }
            LineKind::Usage { id, usage, calls } => {
                self.add_usage(id, usage);
                let pending = std::mem::take(&mut self.pending_calls);
                for call in pending.into_iter().chain(calls) {
                    self.settle(call);
                }
            }
            LineKind::Cumulative(total) => {
                let c = &mut self.cumulative;
                c.input = c.input.max(total.input_tokens);
                c.output = c.output.max(total.output_tokens);
                c.cache_creation = c.cache_creation.max(total.cache_creation_input_tokens);
                c.cache_read = c.cache_read.max(total.cache_read_input_tokens);
            }
            LineKind::Call(id) => {
                if self.pending_calls.len() < RECENT_CALLS {
                    self.pending_calls.push(id);
                }
            }
            LineKind::Many(kinds) => kinds.into_iter().for_each(|k| self.apply(k)),
        }
    }

    fn settle(&mut self, call: String) {
        if self.settled_calls.contains(&call) {
            return;
        }
        self.settled_calls.push_back(call);
        if self.settled_calls.len() > RECENT_CALLS {
            self.settled_calls.pop_front();
        }
    }

    /// The older-id hashes, for the cache layer to store.
    pub fn older_ids(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self.older.iter().copied().collect();
        ids.sort_unstable();
        ids
    }

    /// Restore the older-id hashes the cache layer stored.
    pub fn set_older_ids(&mut self, ids: impl IntoIterator<Item = u64>) {
        self.older = ids.into_iter().collect();
    }

    /// Whether this transcript has shown that it names the calls its responses ask for
    /// (so waiting for one can succeed). An older Codex without usage records, or a
    /// transcript not written yet, never settles a call: nothing to wait for there.
    pub fn settles_calls(&self) -> bool {
        !self.settled_calls.is_empty()
    }

    /// Whether the response that asked for tool call `id` has been counted.
    pub fn settled(&self, id: &str) -> bool {
        self.settled_calls.iter().any(|c| c == id)
    }

    /// The counts a budget uses: the sum over responses, or a running total the agent
    /// wrote when that is larger (a response whose own record is missing).
    pub fn counted(&self) -> Counts {
        if self.cumulative.counted() > self.totals.counted() {
            self.cumulative
        } else {
            self.totals
        }
    }

    /// Feed every complete line of `bytes`; returns how many bytes were consumed (up to and
    /// including the last newline). A partial last line is left for a later call.
    pub fn feed(&mut self, bytes: &[u8]) -> usize {
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', bytes) {
            self.feed_line(&bytes[start..end]);
            start = end + 1;
        }
        start
    }

    fn add_usage(&mut self, id: Option<String>, usage: ApiUsage) {
        let new = [
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_creation_input_tokens,
            usage.cache_read_input_tokens,
        ];
        let (old, first_turn) = match id {
            // Without an id there is nothing to deduplicate on: count the line itself, so a
            // budget never undercounts.
            None => {
                self.messages += 1;
                ([0; 4], self.turn)
            }
            Some(id) => match self.recent.iter_mut().find(|(known, _)| *known == id) {
                Some((_, seen)) => {
                    let old = [seen[0], seen[1], seen[2], seen[3]];
                    for (s, n) in seen.iter_mut().zip(new) {
                        *s = (*s).max(n);
                    }
                    (old, seen[4])
                }
                None if self.older.contains(&id_hash(&id)) => return,
                None => {
                    self.messages += 1;
                    self.recent
                        .push_back((id, [new[0], new[1], new[2], new[3], self.turn]));
                    if self.recent.len() > RECENT_IDS {
                        if let Some((gone, _)) = self.recent.pop_front() {
                            self.older.insert(id_hash(&gone));
                        }
                    }
                    ([0; 4], self.turn)
                }
            },
        };
        let grow = |i: usize| new[i].saturating_sub(old[i]);
        let delta = Counts {
            input: grow(0),
            output: grow(1),
            cache_creation: grow(2),
            cache_read: grow(3),
        };
        self.totals.input = self.totals.input.saturating_add(delta.input);
        self.totals.output = self.totals.output.saturating_add(delta.output);
        self.totals.cache_creation = self
            .totals
            .cache_creation
            .saturating_add(delta.cache_creation);
        self.totals.cache_read = self.totals.cache_read.saturating_add(delta.cache_read);
        if first_turn == self.turn {
            self.turn_tokens = self.turn_tokens.saturating_add(delta.counted());
        }
    }
}

fn id_hash(id: &str) -> u64 {
    let digest = blake3::hash(id.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest.as_bytes()[..8]);
    u64::from_le_bytes(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assistant(id: &str, input: u64, output: u64, cc: u64) -> String {
        format!(
            r#"{{"type":"assistant","message":{{"id":"{id}","content":[],"usage":{{"input_tokens":{input},"output_tokens":{output},"cache_creation_input_tokens":{cc},"cache_read_input_tokens":1000}}}}}}"#
        )
    }

    fn prompt() -> String {
        r#"{"type":"user","message":{"role":"user","content":"next"}}"#.into()
    }

    fn feed_all(lines: &[String]) -> Tally {
        let mut t = Tally::default();
        let text = lines.join("\n") + "\n";
        assert_eq!(t.feed(text.as_bytes()), text.len());
        t
    }

    #[test]
    fn each_id_counts_once_with_its_largest_output() {
        let t = feed_all(&[
            prompt(),
            assistant("m1", 10, 1, 100),
            assistant("m1", 10, 1, 100),
            assistant("m1", 10, 50, 100),
            assistant("m2", 5, 5, 0),
        ]);
        assert_eq!(t.totals.input, 15);
        assert_eq!(t.totals.output, 55);
        assert_eq!(t.totals.cache_creation, 100);
        assert_eq!(t.totals.cache_read, 2000);
        assert_eq!(t.totals.counted(), 170);
        assert_eq!(t.messages, 2);
        assert_eq!(t.turn_tokens, 170);
    }

    #[test]
    fn ids_that_left_the_window_are_never_counted_again() {
        let mut lines = vec![assistant("first", 1, 1, 1)];
        for i in 0..RECENT_IDS + 5 {
            lines.push(assistant(&format!("m{i}"), 1, 0, 0));
        }
        lines.push(assistant("first", 1, 99, 1));
        let t = feed_all(&lines);
        assert_eq!(t.messages, RECENT_IDS as u64 + 6);
        assert_eq!(t.totals.counted(), 3 + RECENT_IDS as u64 + 5);
        let json = serde_json::to_string(&t).unwrap();
        let mut back: Tally = serde_json::from_str(&json).unwrap();
        assert_ne!(back, t, "the older ids are stored apart");
        back.set_older_ids(t.older_ids());
        assert_eq!(back, t);
    }

    #[test]
    fn a_prompt_starts_a_new_turn() {
        let t = feed_all(&[
            prompt(),
            assistant("m1", 10, 10, 0),
            prompt(),
            assistant("m2", 1, 2, 3),
            // A late line for m1 (an earlier turn) grows the session, not this turn.
            assistant("m1", 10, 20, 0),
        ]);
        assert_eq!(t.turn, 2);
        assert_eq!(t.turn_tokens, 6);
        assert_eq!(t.totals.counted(), 36);
    }

    #[test]
    fn partial_lines_wait_and_bad_lines_are_counted() {
        let mut t = Tally::default();
        let line = assistant("m1", 1, 1, 1);
        let text = format!("not json\n{}\n{}", line, &line[..20]);
        let used = t.feed(text.as_bytes());
        assert_eq!(used, text.len() - 20, "the partial line is not consumed");
        assert_eq!(t.malformed_lines, 1);
        assert_eq!(t.totals.counted(), 3);
        // Feeding the same bytes split anywhere gives the same result.
        let whole = format!("{line}\n{line}\n{}\n", assistant("m2", 2, 2, 2));
        let mut a = Tally::default();
        a.feed(whole.as_bytes());
        for cut in 0..whole.len() {
            let mut b = Tally::default();
            let used = b.feed(&whole.as_bytes()[..cut]);
            b.feed(&whole.as_bytes()[used..]);
            assert_eq!(a, b, "cut at {cut}");
        }
    }
}
