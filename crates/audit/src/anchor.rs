//! `audit.anchor.json`: where the log stood after the last append, kept outside the log so
//! that removing lines from its end, emptying a file or deleting a generation shows.
//!
//! The anchor is one fixed-size record (a JSON object padded with spaces to [`SIZE`] bytes)
//! rewritten in place, under the log's lock, after every append: one `pwrite` of
//! [`SIZE`] bytes over blocks the file already owns, so it costs a few microseconds and never
//! needs new space on a full disk. It carries a BLAKE3 seal of its own body, so a torn or
//! hand-edited anchor is damaged, never silently believed.

use crate::line::GENESIS;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

pub const FILE_NAME: &str = "audit.anchor.json";
/// Where a damaged anchor is kept aside for a human to compare with the log.
pub const DAMAGED_NAME: &str = "audit.anchor.damaged.json";
/// Every anchor is exactly this long on disk, newline included.
pub const SIZE: usize = 512;
const VERSION: u32 = 1;

/// What the log looked like right after the last line the anchor vouches for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anchor {
    pub version: u32,
    /// The last line written (0 before the first line).
    pub seq: u64,
    /// Its hash ([`GENESIS`] before the first line).
    pub hash: String,
    /// Bytes of `audit.ndjson` right after that line.
    pub len: u64,
    /// The first line of `audit.ndjson` (0 when it has none yet).
    pub first_seq: u64,
    /// Rotated generations that exist: `audit.1.ndjson` .. `audit.<rotated>.ndjson`.
    pub rotated: u32,
    /// The first line of the oldest kept generation.
    pub oldest_seq: u64,
    /// 0 when the anchor has vouched for the log since its first line; otherwise the seq
    /// at which an anchor was created over an existing log (lines up to it are vouched for
    /// by their chain alone).
    pub since: u64,
    /// BLAKE3 (hex) of this object serialized with `seal` empty.
    pub seal: String,
}

impl Anchor {
    /// The anchor of a log with no line yet.
    pub fn empty() -> Anchor {
        Anchor {
            version: VERSION,
            seq: 0,
            hash: GENESIS.to_string(),
            len: 0,
            first_seq: 0,
            rotated: 0,
            oldest_seq: 0,
            since: 0,
            seal: String::new(),
        }
    }

    fn sealed(&self) -> String {
        let mut body = self.clone();
        body.seal = String::new();
        // Plain numbers and strings always serialize.
        let bytes = serde_json::to_vec(&body).unwrap_or_default();
        blake3::hash(&bytes).to_hex().to_string()
    }

    /// The fixed-size bytes written to disk.
    pub fn encode(&self) -> Vec<u8> {
        let mut sealed = self.clone();
        sealed.seal = self.sealed();
        let mut bytes = serde_json::to_vec(&sealed).unwrap_or_default();
        // The longest possible body (u64 maxima, two 64-digit hashes) is about 330 bytes.
        bytes.resize(SIZE - 1, b' ');
        bytes.push(b'\n');
        bytes
    }

    /// Parse and check the seal of what [`Anchor::encode`] wrote.
    pub fn decode(bytes: &[u8]) -> Result<Anchor, String> {
        if bytes.len() != SIZE {
            return Err(format!(
                "it holds {} bytes instead of {SIZE} (a torn or foreign write)",
                bytes.len()
            ));
        }
        let anchor: Anchor = serde_json::from_slice(bytes.trim_ascii_end())
            .map_err(|e| format!("it is not an anchor record ({e})"))?;
        if anchor.version != VERSION {
            return Err(format!("unknown anchor version {}", anchor.version));
        }
        if anchor.seal != anchor.sealed() {
            return Err("its seal does not match its content (edited or torn)".into());
        }
        Ok(anchor)
    }
}

/// What is on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Missing,
    Damaged(String),
    Valid(Anchor),
}

pub fn path(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

pub fn damaged_path(dir: &Path) -> PathBuf {
    dir.join(DAMAGED_NAME)
}

/// Read the anchor from an open file (one `pread`).
pub fn read_from(file: &File) -> io::Result<Found> {
    let mut buf = vec![0u8; SIZE + 1];
    let mut filled = 0;
    while filled < buf.len() {
        match file.read_at(&mut buf[filled..], filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(filled);
    Ok(match Anchor::decode(&buf) {
        Ok(anchor) => Found::Valid(anchor),
        Err(why) => Found::Damaged(why),
    })
}

/// Read the anchor of the log in `dir`.
pub fn read(dir: &Path) -> io::Result<Found> {
    // A regular file only, opened without blocking: a FIFO here must not stall a reader.
    match state::open_regular(&path(dir), state::Follow::No) {
        Ok(file) => read_from(&file),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Found::Missing),
        Err(e) => Err(e),
    }
}

/// Rewrite the anchor in place.
pub fn write_to(file: &File, anchor: &Anchor) -> io::Result<()> {
    file.write_all_at(&anchor.encode(), 0)
}

/// Create the anchor file whole (temp file and rename), so a failure leaves none at all
/// rather than a short one.
pub fn create(dir: &Path, anchor: &Anchor) -> io::Result<()> {
    state::atomic_write(&path(dir), &anchor.encode())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Anchor {
        Anchor {
            seq: 42,
            hash: "ab".repeat(32),
            len: 9000,
            first_seq: 30,
            rotated: 2,
            oldest_seq: 3,
            ..Anchor::empty()
        }
    }

    #[test]
    fn round_trips_at_a_fixed_size() {
        let bytes = sample().encode();
        assert_eq!(bytes.len(), SIZE);
        assert_eq!(*bytes.last().unwrap(), b'\n');
        let back = Anchor::decode(&bytes).unwrap();
        assert_eq!(back.seq, 42);
        assert_eq!(back.seal.len(), 64);
        let max = Anchor {
            seq: u64::MAX,
            len: u64::MAX,
            first_seq: u64::MAX,
            oldest_seq: u64::MAX,
            since: u64::MAX,
            rotated: u32::MAX,
            ..sample()
        };
        assert!(Anchor::decode(&max.encode()).is_ok(), "the largest fits");
    }

    #[test]
    fn an_edit_breaks_the_seal() {
        let text = String::from_utf8(sample().encode()).unwrap();
        let edited = text.replace("\"seq\":42", "\"seq\":41");
        let why = Anchor::decode(edited.as_bytes()).unwrap_err();
        assert!(why.contains("seal does not match"), "{why}");
    }

    #[test]
    fn a_torn_write_is_damage() {
        // A new anchor half written over an old one.
        let old = sample().encode();
        let new = Anchor {
            seq: 43,
            hash: "cd".repeat(32),
            ..sample()
        }
        .encode();
        let mut torn = new[..100].to_vec();
        torn.extend_from_slice(&old[100..]);
        assert!(Anchor::decode(&torn).is_err());
        let why = Anchor::decode(&new[..200]).unwrap_err();
        assert!(why.contains("200 bytes"), "{why}");
        assert!(Anchor::decode(b"").is_err());
    }
}
