//! When the index's stat cache may vouch for a file. git's status, and loopgate's own
//! comparison after it, take a tracked file whose stat data matches its index entry for
//! unchanged, unread. But the index is an ordinary file the agent can write: a script
//! that copies an edited file's new stat data into its entry, old blob id kept, hid the
//! edit from both. One field is out of the agent's reach: the file's ctime, which the
//! kernel sets to its own clock on every change and no unprivileged process can set
//! back. So a file whose ctime is not older than a moment loopgate recorded itself (a
//! session's start, never a time read from the judged tree) is hashed whatever the stat
//! cache says. Only those files are: the rest of a large tree costs no more than before.

use super::hidden::{self, DiskStat, IndexEntry};

/// How far the file system's clock may lag the clock a start was read from: the kernel
/// stamps ctime from a clock updated once a tick (at most 10 ms on Linux).
const CLOCK_LAG_NS: i128 = 50_000_000;

/// The moment from which loopgate trusts no stat data: files whose ctime is not older are
/// hashed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatAnchor {
    /// The start less the clock's lag, as (seconds, nanoseconds) since the epoch.
    from: (i64, u32),
}

impl StatAnchor {
    /// Every file is hashed: what a start that cannot be believed gives.
    pub const ALL: StatAnchor = StatAnchor {
        from: (i64::MIN, 0),
    };

    /// The anchor of a start loopgate recorded as RFC 3339 text (`recorded`), judged at
    /// `now`. A start that does not parse, or lies in the future (a damaged or rewritten
    /// record, a clock set back), vouches for nothing: every file is hashed.
    pub fn recorded_at(recorded: &str, now: jiff::Timestamp) -> StatAnchor {
        match recorded.parse::<jiff::Timestamp>() {
            Ok(start) if start <= now => {
                let from = start.as_nanosecond() - CLOCK_LAG_NS;
                StatAnchor {
                    from: (
                        from.div_euclid(1_000_000_000) as i64,
                        from.rem_euclid(1_000_000_000) as u32,
                    ),
                }
            }
            _ => StatAnchor::ALL,
        }
    }

    /// Whether a file whose ctime is `ctime` (seconds and nanoseconds, as the kernel gives
    /// them) changed at or after this anchor, or may have. A ctime of whole seconds may
    /// come from a file system that keeps no finer one (ext4 with small inodes, network
    /// mounts), which truncates: then the anchor's whole second counts.
    pub fn covers(self, ctime: (i64, u32)) -> bool {
        if ctime.1 == 0 {
            ctime.0 >= self.from.0
        } else {
            ctime >= self.from
        }
    }
}

/// Whether the file must be hashed to know if it matches its index entry: its stat data
/// does not match the entry to the nanosecond (see [`hidden::stat_vouches`]); or the
/// entry is racily clean (its mtime not older than the index's, `racy_from`; `None` when
/// git's status has already applied that rule); or the file changed at or after `anchor`
/// (`ctime`, untruncated), where an entry written by hand could carry the new stat data
/// over an old blob id.
pub fn must_hash(
    entry: &IndexEntry,
    disk: &DiskStat,
    ctime: (i64, u32),
    racy_from: Option<(u32, u32)>,
    anchor: Option<StatAnchor>,
) -> bool {
    !hidden::stat_vouches(entry, disk)
        || racy_from.is_some_and(|index| entry.mtime >= index)
        || anchor.is_some_and(|a| a.covers(ctime))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> IndexEntry {
        IndexEntry {
            path: "t".into(),
            raw: None,
            ctime: (1_800_000_000, 5),
            mtime: (1_700_000_000, 1),
            ino: 7,
            mode: 0o100644,
            size: 35,
            oid: [0; 20],
            hidden: false,
            stage: 0,
            intent_to_add: false,
        }
    }

    fn disk() -> DiskStat {
        DiskStat {
            ctime: (1_800_000_000, 5),
            mtime: (1_700_000_000, 1),
            ino: 7,
            size: 35,
        }
    }

    fn at(text: &str) -> jiff::Timestamp {
        text.parse().unwrap()
    }

    const NOW: &str = "2027-01-15T09:00:00Z";

    #[test]
    fn matching_stat_data_older_than_the_anchor_vouches() {
        // 1_800_000_000 is 2027-01-15T08:00:00Z.
        let anchor = StatAnchor::recorded_at("2027-01-15T08:00:00.500Z", at(NOW));
        assert!(!must_hash(
            &entry(),
            &disk(),
            (1_800_000_000, 400_000_000),
            Some((1_700_000_001, 0)),
            Some(anchor)
        ));
        // No anchor (no session): the stat data alone decides, as git does.
        assert!(!must_hash(
            &entry(),
            &disk(),
            (1_800_000_000, 5),
            None,
            None
        ));
    }

    /// The forged entry: every field equal to the disk's, but the file changed after the
    /// session started.
    #[test]
    fn a_file_changed_since_the_anchor_is_hashed_whatever_its_entry_says() {
        let anchor = StatAnchor::recorded_at("2027-01-15T08:00:00.500Z", at(NOW));
        assert!(must_hash(
            &entry(),
            &disk(),
            (1_800_000_000, 500_000_001),
            None,
            Some(anchor)
        ));
        assert!(must_hash(
            &entry(),
            &disk(),
            (1_800_000_001, 5),
            Some((1_900_000_000, 0)),
            Some(anchor)
        ));
    }

    /// The file system's clock is read once a tick: a change made just after the start
    /// may carry a ctime a few milliseconds before it.
    #[test]
    fn the_anchor_allows_for_the_file_systems_coarser_clock() {
        let anchor = StatAnchor::recorded_at("2027-01-15T08:00:00.005Z", at(NOW));
        assert!(anchor.covers((1_799_999_999, 990_000_000)));
        assert!(!anchor.covers((1_799_999_999, 900_000_000)));
        let anchor = StatAnchor::recorded_at("2027-01-15T08:00:00.500Z", at(NOW));
        assert!(anchor.covers((1_800_000_000, 490_000_000)));
        assert!(!anchor.covers((1_800_000_000, 400_000_000)));
    }

    /// A ctime in whole seconds may have been truncated (a file system without finer
    /// times): a change in the start's own second counts.
    #[test]
    fn a_ctime_in_whole_seconds_counts_from_the_starts_second() {
        let anchor = StatAnchor::recorded_at("2027-01-15T08:00:00.500Z", at(NOW));
        assert!(anchor.covers((1_800_000_000, 0)));
        assert!(anchor.covers((1_800_000_001, 0)));
        assert!(!anchor.covers((1_799_999_999, 0)));
    }

    #[test]
    fn an_unbelievable_start_vouches_for_nothing() {
        for recorded in ["", "yesterday", "2027-01-15T09:00:01Z", "t"] {
            let anchor = StatAnchor::recorded_at(recorded, at(NOW));
            assert_eq!(anchor, StatAnchor::ALL, "{recorded:?}");
            assert!(
                anchor.covers((0, 0)) && anchor.covers((i64::MIN, 1)),
                "{recorded:?}"
            );
        }
    }

    #[test]
    fn the_stat_and_racy_rules_still_apply() {
        let moved = DiskStat { ino: 8, ..disk() };
        assert!(must_hash(&entry(), &moved, (0, 1), None, None));
        // The entry's mtime is not older than the index's: racily clean.
        assert!(must_hash(
            &entry(),
            &disk(),
            (0, 1),
            Some((1_700_000_000, 1)),
            None
        ));
        assert!(!must_hash(
            &entry(),
            &disk(),
            (0, 1),
            Some((1_700_000_000, 2)),
            None
        ));
    }
}
