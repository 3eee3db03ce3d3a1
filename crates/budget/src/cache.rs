//! The I/O edge: the per-session cache file, the lock, and reading only new bytes.

use crate::{BudgetError, Tally, Usage};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Lines longer than this are skipped (and counted) without being held in memory.
pub const MAX_LINE_BYTES: usize = 32 * 1024 * 1024;
const CHUNK: usize = 1024 * 1024;
/// Bytes before the offset whose hash tells a grown file from a replaced one.
const ANCHOR_BYTES: u64 = 256;
const VERSION: u32 = 2;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Cache {
    version: u32,
    transcript: PathBuf,
    dev: u64,
    ino: u64,
    /// Just after the last newline consumed.
    offset: u64,
    /// Hash of the `ANCHOR_BYTES` before `offset`.
    anchor: String,
    /// Inside an over-long line: discard up to the next newline.
    skipping: bool,
    /// Hash of the `<session>.ids` file that goes with this cache (the tally's older ids).
    #[serde(default)]
    ids_hash: String,
    tally: Tally,
}

/// `<state_dir>/budget/<session>.json`. Session ids come from agents: anything but a plain
/// short name is replaced by its hash so it can never point outside the directory.
pub fn cache_path(state_dir: &Path, session: &str) -> PathBuf {
    let plain = !session.is_empty()
        && session.len() <= 128
        && !session.starts_with('.')
        && session
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    let name = if plain {
        session.to_string()
    } else {
        format!("h-{}", &blake3::hash(session.as_bytes()).to_hex()[..32])
    };
    state_dir.join("budget").join(format!("{name}.json"))
}

/// `<state_dir>/budget/<session>.ids`: the older-id hashes, 8 bytes each. Kept apart from
/// the cache because a 50 MB transcript has thousands of them, and parsing them on every
/// call cost more than the rest of the hook (they are needed only when new lines arrive).
fn ids_path(cache: &Path) -> PathBuf {
    cache.with_extension("ids")
}

fn lock_path(cache: &Path) -> PathBuf {
    cache.with_extension("lock")
}

/// `<state_dir>/budget/<session>.exhausted`: kept apart from the cache so that the cache
/// can be rewritten cheaply while the marker, which nothing can rebuild, is written once
/// with a full fsync and never touched again.
fn marker_path(cache: &Path) -> PathBuf {
    cache.with_extension("exhausted")
}

fn state_err(path: &Path) -> impl FnOnce(io::Error) -> BudgetError + '_ {
    move |source| BudgetError::State {
        path: path.to_path_buf(),
        source,
    }
}

/// A missing, corrupt or outdated cache only costs a rescan. One that cannot be read at all
/// (a FIFO, a device, a symlink or a huge file planted in its place) is an error: rescanning
/// would then try to rewrite it, and the budget cannot be trusted while it is there.
fn load(path: &Path) -> Result<Cache, BudgetError> {
    match state::read_json::<Cache>(path) {
        Ok(c) if c.version == VERSION => Ok(c),
        Ok(_) | Err(state::ReadError::Missing) | Err(state::ReadError::Corrupt(_)) => {
            Ok(Cache::default())
        }
        Err(state::ReadError::Io(source)) => Err(BudgetError::State {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Rewritten in place, under the session lock that every reader and writer takes. Not a
/// temp file and rename: on ext4 a rename over an existing file starts writeback and costs
/// milliseconds at the tail (measured p90 2-4 ms), more than a hook call may spend; and not
/// fsynced: the totals are derived data. A crash mid-write leaves bytes that do not parse
/// (trailing garbage or a cut object), which [`load`] turns into a rescan.
fn store(path: &Path, cache: &Cache) -> Result<(), BudgetError> {
    let write = || -> io::Result<()> {
        let bytes = serde_json::to_vec(cache).map_err(io::Error::other)?;
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            // Never wait on a FIFO planted here, never write through a symlink.
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .open(path)?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::other(format!(
                "{} is not a regular file",
                path.display()
            )));
        }
        file.write_all(&bytes)?;
        file.set_len(bytes.len() as u64)?;
        Ok(())
    };
    write().map_err(state_err(path))
}

/// Load the older ids into the cache's tally; false when the file does not match the hash
/// the cache recorded.
fn load_ids(path: &Path, cache: &mut Cache) -> bool {
    let bytes = match std::fs::read(ids_path(path)) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(_) => return false,
    };
    if bytes.len() % 8 != 0 || blake3::hash(&bytes).to_hex().as_str() != cache.ids_hash {
        return false;
    }
    let ids = bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
    cache.tally.set_older_ids(ids);
    true
}

/// Write the older ids (before the cache that names their hash), in place like the cache.
fn store_ids(path: &Path, cache: &mut Cache) -> Result<(), BudgetError> {
    let bytes: Vec<u8> = cache
        .tally
        .older_ids()
        .iter()
        .flat_map(|id| id.to_le_bytes())
        .collect();
    let hash = blake3::hash(&bytes).to_hex().to_string();
    if hash == cache.ids_hash {
        return Ok(());
    }
    let ids = ids_path(path);
    let write = || -> io::Result<()> {
        let mut file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(&ids)?;
        file.write_all(&bytes)?;
        file.set_len(bytes.len() as u64)?;
        Ok(())
    };
    write().map_err(state_err(&ids))?;
    cache.ids_hash = hash;
    Ok(())
}

fn anchor(file: &mut File, offset: u64) -> io::Result<String> {
    let start = offset.saturating_sub(ANCHOR_BYTES);
    file.seek(SeekFrom::Start(start))?;
    let mut buf = Vec::with_capacity((offset - start) as usize);
    Read::by_ref(file)
        .take(offset - start)
        .read_to_end(&mut buf)?;
    Ok(blake3::hash(&buf).to_hex().to_string())
}

/// Bring the session's totals up to date with `transcript` and return them. Costs
/// O(bytes appended since the last call); a transcript that shrank or was replaced is
/// rescanned from the start (the exhausted marker, a separate file, is not affected).
///
/// A transcript that does not exist (yet: agents create it lazily, after the first hook
/// calls of a session) is no new usage: the totals already on record, zero at first.
pub fn account(transcript: &Path, state_dir: &Path, session: &str) -> Result<Usage, BudgetError> {
    account_call(transcript, state_dir, session, None)
}

fn account_call(
    transcript: &Path,
    state_dir: &Path,
    session: &str,
    call: Option<Call>,
) -> Result<Usage, BudgetError> {
    let path = cache_path(state_dir, session);
    let read_err = |source| BudgetError::Transcript {
        path: transcript.to_path_buf(),
        source,
    };
    let mut file = match state::open_regular(transcript, state::Follow::Yes) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let cache = load(&path)?;
            let mut usage = Usage::from_tally(&cache.tally, marker_path(&path).exists());
            usage.call_counted = call_counted(&cache.tally, call);
            return Ok(usage);
        }
        Err(e) => return Err(read_err(e)),
    };
    let parent = path.parent().unwrap_or(state_dir);
    state::ensure_dir(parent).map_err(state_err(parent))?;
    let _lock = state::Lock::acquire(&lock_path(&path), state::deadline::for_lock())
        .map_err(state_err(&path))?;
    // Measured under the lock: a caller that got the lock first may have read further than
    // the length seen before waiting, which must not look like a shrunk transcript.
    let meta = file.metadata().map_err(read_err)?;
    let mut cache = load(&path)?;
    let len = meta.len();
    let same_file = cache.transcript == transcript
        && cache.dev == meta.dev()
        && cache.ino == meta.ino()
        && cache.offset <= len
        && anchor(&mut file, cache.offset).map_err(read_err)? == cache.anchor;
    if !same_file {
        cache = Cache {
            version: VERSION,
            transcript: transcript.to_path_buf(),
            dev: meta.dev(),
            ino: meta.ino(),
            ..Cache::default()
        };
    }
    let was_exhausted = marker_path(&path).exists();
    let usage = |cache: &Cache| {
        let mut u = Usage::from_tally(&cache.tally, was_exhausted);
        u.call_counted = call_counted(&cache.tally, call);
        u
    };
    if same_file && cache.offset == len {
        return Ok(usage(&cache));
    }
    if same_file && !load_ids(&path, &mut cache) {
        // The ids file does not match the cache (a crash between the two writes): start
        // over rather than risk counting a message twice or not at all.
        cache = Cache {
            version: VERSION,
            transcript: transcript.to_path_buf(),
            dev: meta.dev(),
            ino: meta.ino(),
            ..Cache::default()
        };
    }
    read_new(&mut file, len, &mut cache).map_err(read_err)?;
    cache.anchor = anchor(&mut file, cache.offset).map_err(read_err)?;
    store_ids(&path, &mut cache)?;
    store(&path, &cache)?;
    Ok(usage(&cache))
}

/// A tool call to wait for: its id, and whether the agent's transcript format always names
/// the calls its responses ask for (Claude Code's `tool_use` blocks do). When it does not
/// (Codex writes the usage records that settle a call only since 0.169), a transcript that
/// has never settled a call is not waited on: the wait could only run out.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    pub id: &'a str,
    pub always_named: bool,
}

/// Whether the response that asked for `call` is counted; `None` when no call is named, or
/// when there is nothing to wait for (see [`Call`]).
fn call_counted(tally: &crate::Tally, call: Option<Call>) -> Option<bool> {
    call.filter(|c| c.always_named || tally.settles_calls())
        .map(|c| tally.settled(c.id))
}

/// [`account`], waiting (at most `wait`) until the response that asked for tool call `call`
/// is on record, so that a tool call is judged on the usage up to and including the
/// message that asked for it. Agents write their transcript asynchronously: at the time
/// of the hook it may lag a response or two. Polls only the new bytes; the lock is never
/// held while waiting. Past `wait` the answer is the usage on record then, with
/// [`Usage::call_counted`] `Some(false)`. See [`Call`] for when there is nothing to wait for.
pub fn account_until(
    transcript: &Path,
    state_dir: &Path,
    session: &str,
    call: Option<Call>,
    wait: Duration,
) -> Result<Usage, BudgetError> {
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        let usage = account_call(transcript, state_dir, session, call)?;
        if usage.call_counted != Some(false) || started.elapsed() >= wait {
            return Ok(usage);
        }
        std::thread::sleep(pause.min(wait.saturating_sub(started.elapsed())));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Feed the complete lines between `cache.offset` and `len` to the tally, in chunks.
fn read_new(file: &mut File, len: u64, cache: &mut Cache) -> io::Result<()> {
    file.seek(SeekFrom::Start(cache.offset))?;
    let mut reader = file.take(len - cache.offset);
    let mut buf: Vec<u8> = Vec::with_capacity(CHUNK);
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let n = reader.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        let mut data = &chunk[..n];
        if cache.skipping {
            match memchr::memchr(b'\n', data) {
                Some(i) => {
                    cache.skipping = false;
                    cache.offset += i as u64 + 1;
                    data = &data[i + 1..];
                }
                None => {
                    cache.offset += n as u64;
                    continue;
                }
            }
        }
        buf.extend_from_slice(data);
        let used = cache.tally.feed(&buf);
        cache.offset += used as u64;
        buf.drain(..used);
        if buf.len() > MAX_LINE_BYTES {
            // One line already longer than the bound: drop it and skip to its end.
            cache.tally.oversized_lines += 1;
            cache.offset += buf.len() as u64;
            buf.clear();
            cache.skipping = true;
        }
    }
    Ok(())
}

/// Record that `session` went over budget, with the message that said so. Idempotent: the
/// first message is kept. Written atomically and fsynced: this is the one budget fact that
/// cannot be recomputed.
pub fn mark_exhausted(state_dir: &Path, session: &str, message: &str) -> Result<(), BudgetError> {
    let marker = marker_path(&cache_path(state_dir, session));
    if marker.exists() {
        return Ok(());
    }
    let body = serde_json::json!({ "exhausted": message });
    state::write_json(&marker, &body).map_err(state_err(&marker))
}

/// Whether `session` was ever marked over budget: the Stop hook then never bounces.
pub fn exhausted(state_dir: &Path, session: &str) -> bool {
    marker_path(&cache_path(state_dir, session)).exists()
}
