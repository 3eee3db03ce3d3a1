//! The supervisor's wire format over its Unix socket: length-prefixed frames (a 4-byte
//! big-endian length, then the bytes), each read with a bound so a peer can never make the
//! other side allocate or wait without end.
//!
//! Request: a [`Head`] (JSON), then the hook's stdin. Reply: a [`Verdict`] (JSON); when it
//! admits the call, then an [`Answer`] (JSON), the hook's stdout and its stderr.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::PathBuf;

/// The largest JSON head or verdict.
pub const MAX_HEAD: u32 = 64 * 1024;
/// The largest stdout or stderr handed back (a hook answer is one JSON object).
pub const MAX_OUTPUT: u32 = 16 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// `claude`, `codex`, `cursor` or `gemini`.
    pub agent: String,
    /// The hook process's working directory.
    pub cwd: PathBuf,
    /// The agent's variables the hook reads (see `admit::FORWARDED`).
    pub env: BTreeMap<String, String>,
}

/// The supervisor's first answer: the call is admitted (and will be answered within
/// `limit_ms`), or refused with a reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Admitted { limit_ms: u64 },
    Refused { reason: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    pub code: i32,
}

pub fn write_frame(w: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    let len = u32::try_from(bytes.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a frame over 4 GiB"))?;
    w.write_all(&len.to_be_bytes())?;
    w.write_all(bytes)
}

/// One frame of at most `max` bytes; a longer one is an error, unread.
pub fn read_frame(r: &mut impl Read, max: u32) -> io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_be_bytes(len);
    if len > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a frame of {len} bytes, over the bound of {max}"),
        ));
    }
    let mut bytes = vec![0u8; len as usize];
    r.read_exact(&mut bytes)?;
    Ok(bytes)
}

pub fn write_json<T: Serialize>(w: &mut impl Write, value: &T) -> io::Result<()> {
    let bytes = serde_json::to_vec(value).map_err(io::Error::other)?;
    write_frame(w, &bytes)
}

pub fn read_json<T: for<'de> Deserialize<'de>>(r: &mut impl Read) -> io::Result<T> {
    let bytes = read_frame(r, MAX_HEAD)?;
    serde_json::from_slice(&bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_an_oversized_one_is_refused_unread() {
        let mut buf = Vec::new();
        write_frame(&mut buf, b"hello").unwrap();
        write_json(&mut buf, &Answer { code: 2 }).unwrap();
        let mut r = buf.as_slice();
        assert_eq!(read_frame(&mut r, 5).unwrap(), b"hello");
        assert_eq!(read_json::<Answer>(&mut r).unwrap(), Answer { code: 2 });
        let mut big = Vec::new();
        write_frame(&mut big, &[0u8; 10]).unwrap();
        let err = read_frame(&mut big.as_slice(), 9).unwrap_err();
        assert!(err.to_string().contains("over the bound of 9"), "{err}");
        let truncated = [0u8, 0, 0, 8, 1, 2];
        assert!(read_frame(&mut truncated.as_slice(), 100).is_err());
    }
}
