//! The chain rules, as a pure walk over lines: every line must carry its own correct hash,
//! the next sequence number and the previous line's hash.

use crate::line::{decode, LineProblem, GENESIS};
use serde::Serialize;

/// What is wrong with the first broken line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BreakKind {
    /// The line's content no longer matches its hash, or it claims a different predecessor.
    Edited,
    /// Sequence numbers jump: lines (or a whole generation) are missing before this one.
    Deleted,
    /// Sequence numbers go backwards or come out of order.
    Reordered,
    /// The last line of the log stops mid-line.
    Truncated,
    /// Not a log line at all.
    Malformed,
    /// The anchor (`audit.anchor.json`) is missing, damaged or was found damaged.
    Anchor,
}

/// The link a line leaves for the next one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub seq: u64,
    pub hash: String,
}

/// One step of the walk. `last` is the previous good link, `None` at the start of the
/// oldest kept generation, which may begin mid-chain because older ones were rotated away.
/// `complete` is false only for bytes after the final newline of the newest file.
pub fn step(last: Option<&Link>, raw: &[u8], complete: bool) -> Result<Link, (BreakKind, String)> {
    let entry = match decode(raw) {
        Ok(entry) => entry,
        Err(_) if !complete => {
            return Err((
                BreakKind::Truncated,
                format!(
                    "the last line stops after {} bytes, without its end",
                    raw.len()
                ),
            ))
        }
        Err(LineProblem::HashMismatch) => {
            return Err((
                BreakKind::Edited,
                "the line's content does not match its hash".into(),
            ))
        }
        Err(LineProblem::Malformed(why)) => return Err((BreakKind::Malformed, why)),
    };
    let link = Link {
        seq: entry.seq,
        hash: entry.hash.clone(),
    };
    let Some(last) = last else {
        if entry.prev == GENESIS && entry.seq != 1 {
            return Err((
                BreakKind::Deleted,
                format!(
                    "the log starts at seq {}: the lines before it are missing",
                    entry.seq
                ),
            ));
        }
        if entry.seq == 1 && entry.prev != GENESIS {
            return Err((
                BreakKind::Edited,
                "seq 1 must start the chain, but its prev is not the genesis hash".into(),
            ));
        }
        return Ok(link);
    };
    let expected = last.seq.saturating_add(1);
    if entry.seq > expected {
        return Err((
            BreakKind::Deleted,
            format!(
                "seq jumps from {} to {}: {} line(s) missing",
                last.seq,
                entry.seq,
                entry.seq - expected
            ),
        ));
    }
    if entry.seq < expected {
        return Err((
            BreakKind::Reordered,
            format!("seq {} comes after seq {}", entry.seq, last.seq),
        ));
    }
    if entry.prev != last.hash {
        return Err((
            BreakKind::Edited,
            "prev does not match the hash of the line before: a line was replaced".into(),
        ));
    }
    Ok(link)
}

/// The sequence number a line claims, if it parses at all (used to tell a reorder from a
/// deletion: the "missing" line may just appear later).
pub fn claimed_seq(raw: &[u8]) -> Option<u64> {
    #[derive(serde::Deserialize)]
    struct Seq {
        seq: u64,
    }
    serde_json::from_slice::<Seq>(raw).ok().map(|s| s.seq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::{encode, Entry};
    use serde_json::{json, Map};

    fn line(seq: u64, prev: &str) -> (Vec<u8>, String) {
        let entry = Entry {
            time: "t".into(),
            seq,
            session: "s".into(),
            agent: "a".into(),
            event: "e".into(),
            tool: None,
            input: json!(null),
            decision: None,
            rule: None,
            reason: None,
            extra: Map::new(),
            prev: prev.into(),
            hash: String::new(),
        };
        let (mut bytes, hash) = encode(&entry);
        bytes.pop();
        (bytes, hash)
    }

    #[test]
    fn a_good_chain_walks() {
        let (l1, h1) = line(1, GENESIS);
        let (l2, h2) = line(2, &h1);
        let a = step(None, &l1, true).unwrap();
        let b = step(Some(&a), &l2, true).unwrap();
        assert_eq!(b, Link { seq: 2, hash: h2 });
    }

    #[test]
    fn a_gap_is_a_deletion() {
        let (l1, h1) = line(1, GENESIS);
        let (l3, _) = line(3, "ffff");
        let a = step(None, &l1, true).unwrap();
        let (kind, why) = step(Some(&a), &l3, true).unwrap_err();
        assert_eq!(kind, BreakKind::Deleted);
        assert_eq!(why, "seq jumps from 1 to 3: 1 line(s) missing");
        let _ = h1;
    }

    #[test]
    fn going_back_is_a_reorder_and_a_wrong_prev_an_edit() {
        let (l1, h1) = line(1, GENESIS);
        let a = step(None, &l1, true).unwrap();
        assert_eq!(
            step(Some(&a), &l1, true).unwrap_err().0,
            BreakKind::Reordered
        );
        let (l2, _) = line(2, "abcd");
        assert_eq!(step(Some(&a), &l2, true).unwrap_err().0, BreakKind::Edited);
        let _ = h1;
    }

    #[test]
    fn the_oldest_generation_may_start_mid_chain_but_not_fake_a_start() {
        let (l7, _) = line(7, "1234");
        assert!(step(None, &l7, true).is_ok());
        let (l7g, _) = line(7, GENESIS);
        assert_eq!(step(None, &l7g, true).unwrap_err().0, BreakKind::Deleted);
        let (l1, _) = line(1, "1234");
        assert_eq!(step(None, &l1, true).unwrap_err().0, BreakKind::Edited);
    }

    #[test]
    fn a_torn_end_is_truncation() {
        let (l1, _) = line(1, GENESIS);
        let (kind, _) = step(None, &l1[..10], false).unwrap_err();
        assert_eq!(kind, BreakKind::Truncated);
        assert_eq!(
            step(None, b"garbage", true).unwrap_err().0,
            BreakKind::Malformed
        );
    }
}
