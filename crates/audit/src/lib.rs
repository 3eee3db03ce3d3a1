//! The hash-chained audit log: one NDJSON line per attempted tool call or gate event.
//!
//! Contract for callers: [`AuditLog::append`] returns an error when the line cannot be
//! written (read-only directory, full disk, ...). The caller prints it on stderr and goes
//! on: a failure to audit never changes or delays a decision. See `docs/audit.md`.
//!
//! Durability: each append is one `write` of the whole line, under an exclusive lock, to a
//! file opened with `O_APPEND`; it is not fsynced (an fsync costs milliseconds, and a hook
//! must answer fast). A line therefore survives the writer crashing, not the machine
//! losing power; rotation fsyncs the rotated file before renaming it.

mod anchor;
mod chain;
mod ends;
mod files;
mod line;
mod stats;
mod truncate;

pub use anchor::{
    Anchor, Found as AnchorFound, DAMAGED_NAME as ANCHOR_DAMAGED_NAME, FILE_NAME as ANCHOR_NAME,
};
pub use chain::{BreakKind, Link};
pub use ends::Witness;
pub use line::{Entry, Record, GENESIS};
pub use stats::{SessionStats, Stats};
pub use truncate::{truncate_str, truncate_value};

use anchor::Found;
use ends::{Snapshot, Walked};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// How big the log may grow and how much of an agent's input it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AuditSettings {
    /// Rotate before a line would take the current file past this size.
    pub max_bytes: u64,
    /// Rotated generations kept (`audit.1.ndjson` .. `audit.<keep>.ndjson`); at least 1.
    pub keep: u32,
    /// Every string of `input`, `extra` and `reason` is cut to this many bytes.
    pub max_field_bytes: usize,
}

impl Default for AuditSettings {
    fn default() -> Self {
        AuditSettings {
            max_bytes: 50 * 1024 * 1024,
            keep: 3,
            max_field_bytes: 4096,
        }
    }
}

/// The log of one state directory (`<repo>/.loopgate`).
#[derive(Debug, Clone)]
pub struct AuditLog {
    dir: PathBuf,
    settings: AuditSettings,
}

/// The outcome of [`AuditLog::verify`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// The generations read, oldest first.
    pub files: Vec<PathBuf>,
    /// Lines that verified before the first break (all of them when intact).
    pub lines: u64,
    /// Sequence number of the last good line.
    pub last_seq: Option<u64>,
    pub broken: Option<Break>,
    /// The anchor the log was checked against, when it has a valid one.
    pub anchor: Option<Anchor>,
    /// Receipts whose recorded anchor was checked against the log.
    pub witnesses: u64,
}

impl VerifyReport {
    pub fn intact(&self) -> bool {
        self.broken.is_none()
    }
}

/// The first line that breaks the chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Break {
    pub file: PathBuf,
    /// 1-based line number within `file`.
    pub line: u64,
    pub kind: BreakKind,
    pub detail: String,
}

impl std::fmt::Display for Break {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = serde_json::to_value(self.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        write!(
            f,
            "{}:{}: {}: {}",
            self.file.display(),
            self.line,
            kind,
            self.detail
        )
    }
}

impl AuditLog {
    pub fn new(state_dir: &Path, settings: AuditSettings) -> AuditLog {
        AuditLog {
            dir: state_dir.to_path_buf(),
            settings,
        }
    }

    /// The current file, `<state_dir>/audit.ndjson`.
    pub fn path(&self) -> PathBuf {
        self.dir.join(files::CURRENT)
    }

    /// Whether any generation of the log, or its anchor, exists.
    pub fn exists(&self) -> io::Result<bool> {
        Ok(!files::all_oldest_first(&self.dir)?.is_empty()
            || anchor::path(&self.dir).exists()
            || anchor::damaged_path(&self.dir).exists())
    }

    /// Append one line for `record`, chained to the last line written by anyone, and move
    /// the anchor to it. A torn last line (a crash or a full disk mid-write) is cut off
    /// first, and a missing or damaged anchor is replaced, each recorded as a line of its
    /// own before `record`'s.
    pub fn append(&self, record: Record) -> io::Result<Entry> {
        state::ensure_dir(&self.dir)?;
        let _lock = state::Lock::acquire(
            &self.dir.join(files::LOCK),
            state::deadline::within(state::deadline::SHORT_WAIT),
        )?;
        let anchor_file = open_anchor(&self.dir)?;
        let found = match &anchor_file {
            Some(f) => anchor::read_from(f)?,
            None => Found::Missing,
        };
        let mut file = open_current(&self.dir)?;
        let len = file.metadata()?.len();
        let start = match found {
            // The usual case: the file ends exactly where the anchor says, so its last line
            // is the anchored one and nothing needs reading.
            Found::Valid(a) if a.len == len && a.seq > 0 => Start {
                last: Some(Link {
                    seq: a.seq,
                    hash: a.hash.clone(),
                }),
                anchor: a,
                notes: Vec::new(),
                len,
                anchor_file,
            },
            found => self.recover(&mut file, len, found, anchor_file)?,
        };

        let mut entries = Vec::with_capacity(start.notes.len() + 1);
        let mut bytes = Vec::new();
        let mut last = start.last;
        for r in start.notes.into_iter().chain(std::iter::once(record)) {
            let mut entry = self.entry_for(r, last.as_ref());
            let (line, hash) = line::encode(&entry);
            entry.hash = hash;
            bytes.extend_from_slice(&line);
            last = Some(Link {
                seq: entry.seq,
                hash: entry.hash.clone(),
            });
            entries.push(entry);
        }
        let mut anchor = start.anchor;
        let mut len = start.len;
        if len > 0 && len + bytes.len() as u64 > self.settings.max_bytes {
            drop(file);
            self.rotate()?;
            file = open_current(&self.dir)?;
            len = 0;
            let rotated = files::rotated(&self.dir)?;
            anchor.rotated = rotated.len() as u32;
            anchor.oldest_seq = match rotated.first() {
                Some((_, oldest)) => files::first_seq(oldest)?.unwrap_or(0),
                None => 0,
            };
            anchor.first_seq = 0;
        }
        if anchor.first_seq == 0 {
            anchor.first_seq = entries[0].seq;
        }
        if anchor.rotated == 0 {
            anchor.oldest_seq = anchor.first_seq;
        }
        file.write_all(&bytes)?;
        let written = entries.pop().expect("the caller's entry is always there");
        anchor.seq = written.seq;
        anchor.hash = written.hash.clone();
        anchor.len = len + bytes.len() as u64;
        match &start.anchor_file {
            Some(f) => anchor::write_to(f, &anchor),
            None => anchor::create(&self.dir, &anchor),
        }
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("the line was written but the anchor could not be moved to it: {e}"),
            )
        })?;
        Ok(written)
    }

    /// The slow start of an append, when the file does not end where the anchor says:
    /// cut a torn last line, decide which line to chain to (never a number already used:
    /// the anchor's, unless whole lines were written after it), and replace a missing or
    /// damaged anchor.
    fn recover(
        &self,
        file: &mut File,
        len: u64,
        found: Found,
        mut anchor_file: Option<File>,
    ) -> io::Result<Start> {
        let mut notes = Vec::new();
        let mut len = len;
        let complete = files::complete_len(file)?;
        if complete < len {
            file.set_len(complete)?;
            let mut extra = serde_json::Map::new();
            extra.insert("file".into(), files::CURRENT.into());
            extra.insert("offset".into(), complete.into());
            extra.insert("cut_bytes".into(), (len - complete).into());
            notes.push(note(
                "audit_repair",
                format!(
                    "cut a torn last line: {} byte(s) after offset {complete} were never a whole line (a crash or a full disk while writing)",
                    len - complete
                ),
                extra,
            ));
            len = complete;
        }
        let (from_log, _) = last_link(&self.dir, file)?;
        let anchor = match found {
            // A rotation whose line was never written (a full disk, a kill): the anchored
            // line now ends the newest rotated generation and the current file is new.
            Found::Valid(a)
                if len == 0
                    && a.len > 0
                    && from_log
                        .as_ref()
                        .is_some_and(|l| l.seq == a.seq && l.hash == a.hash) =>
            {
                let rotated = files::rotated(&self.dir)?;
                Anchor {
                    len: 0,
                    first_seq: 0,
                    rotated: rotated.len() as u32,
                    oldest_seq: match rotated.first() {
                        Some((_, oldest)) => files::first_seq(oldest)?.unwrap_or(0),
                        None => 0,
                    },
                    ..a
                }
            }
            Found::Valid(a) => a,
            Found::Missing if from_log.is_none() && files::rotated(&self.dir)?.is_empty() => {
                Anchor::empty()
            }
            Found::Missing => {
                let adopted = self.adopt(from_log.as_ref(), len)?;
                notes.push(note(
                    "audit_anchor_created",
                    format!(
                        "the log had no anchor; anchored from seq {} as found",
                        adopted.seq
                    ),
                    serde_json::Map::new(),
                ));
                adopted
            }
            Found::Damaged(why) => {
                anchor_file = None;
                fs::rename(anchor::path(&self.dir), anchor::damaged_path(&self.dir))?;
                let adopted = self.adopt(from_log.as_ref(), len)?;
                let mut extra = serde_json::Map::new();
                extra.insert("damage".into(), why.clone().into());
                notes.push(note(
                    "audit_anchor_damaged",
                    format!(
                        "the anchor was damaged ({why}); kept aside as {} and a new one started at seq {}",
                        anchor::DAMAGED_NAME,
                        adopted.seq
                    ),
                    extra,
                ));
                adopted
            }
        };
        let anchored = (anchor.seq > 0).then(|| Link {
            seq: anchor.seq,
            hash: anchor.hash.clone(),
        });
        let last = match (anchored, from_log) {
            (Some(a), Some(l)) if l.seq > a.seq => Some(l),
            (Some(a), _) => Some(a),
            (None, l) => l,
        };
        Ok(Start {
            last,
            anchor,
            notes,
            len,
            anchor_file,
        })
    }

    /// An anchor for the log as it is, for when there is none to trust.
    fn adopt(&self, last: Option<&Link>, len: u64) -> io::Result<Anchor> {
        let rotated = files::rotated(&self.dir)?;
        let first_seq = files::first_seq(&self.path())?.unwrap_or(0);
        let oldest_seq = match rotated.first() {
            Some((_, oldest)) => files::first_seq(oldest)?.unwrap_or(0),
            None => first_seq,
        };
        let seq = last.map(|l| l.seq).unwrap_or(0);
        Ok(Anchor {
            seq,
            hash: last
                .map(|l| l.hash.clone())
                .unwrap_or_else(|| GENESIS.to_string()),
            len,
            first_seq,
            rotated: rotated.len() as u32,
            oldest_seq,
            since: seq,
            ..Anchor::empty()
        })
    }

    /// The anchor as it stands (seq and hash of the last line it vouches for), read under
    /// the lock: what a receipt records. `None` when there is no valid anchor; never creates
    /// anything.
    pub fn anchored(&self) -> io::Result<Option<Link>> {
        if !self.dir.is_dir() {
            return Ok(None);
        }
        let _lock = state::Lock::acquire(
            &self.dir.join(files::LOCK),
            state::deadline::within(state::deadline::SHORT_WAIT),
        )?;
        Ok(match anchor::read(&self.dir)? {
            Found::Valid(a) if a.seq > 0 => Some(Link {
                seq: a.seq,
                hash: a.hash,
            }),
            _ => None,
        })
    }

    fn entry_for(&self, record: Record, last: Option<&Link>) -> Entry {
        let max = self.settings.max_field_bytes.max(1);
        let mut input = truncate::truncate_value(&record.input, max);
        // Many small fields can still add up; bound the whole input too.
        let whole = serde_json::to_string(&input).unwrap_or_default();
        let cap = max.saturating_mul(8);
        if whole.len() > cap {
            input = serde_json::Value::String(truncate::truncate_str(&whole, cap));
        }
        let cut = |s: Option<String>| s.map(|s| truncate::truncate_str(&s, max));
        Entry {
            time: jiff::Timestamp::now().to_string(),
            seq: last.map(|l| l.seq).unwrap_or(0).saturating_add(1),
            session: truncate::truncate_str(&record.session, max),
            agent: truncate::truncate_str(&record.agent, max),
            event: truncate::truncate_str(&record.event, max),
            tool: cut(record.tool),
            input,
            decision: cut(record.decision),
            rule: cut(record.rule),
            reason: cut(record.reason),
            extra: truncate::truncate_map(&record.extra, max),
            prev: last
                .map(|l| l.hash.clone())
                .unwrap_or_else(|| GENESIS.to_string()),
            hash: String::new(),
        }
    }

    /// `audit.ndjson` -> `audit.1.ndjson` -> ... -> `audit.<keep>.ndjson`; older ones go.
    /// Called with the lock held.
    fn rotate(&self) -> io::Result<()> {
        let keep = self.settings.keep.max(1);
        for (n, path) in files::rotated(&self.dir)? {
            if n >= keep {
                fs::remove_file(path)?;
            }
        }
        for n in (1..keep).rev() {
            let from = files::generation(&self.dir, n);
            if from.exists() {
                fs::rename(&from, files::generation(&self.dir, n + 1))?;
            }
        }
        let current = self.path();
        File::open(&current)?.sync_all()?;
        fs::rename(&current, files::generation(&self.dir, 1))?;
        if let Ok(dir) = File::open(&self.dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// Walk every kept generation, oldest first, and report the first broken line; then
    /// check the log against its anchor.
    pub fn verify(&self) -> io::Result<VerifyReport> {
        self.verify_with(&[])
    }

    /// [`AuditLog::verify`], and also check that every witness (a receipt that recorded
    /// the anchor when it was sealed) names a line the log still holds.
    pub fn verify_with(&self, witnesses: &[Witness]) -> io::Result<VerifyReport> {
        let snap = self.open_for_verify()?;
        let mut report = VerifyReport {
            files: snap.files.iter().map(|(p, _)| p.clone()).collect(),
            lines: 0,
            last_seq: None,
            broken: None,
            anchor: match &snap.anchor {
                Found::Valid(a) => Some(a.clone()),
                _ => None,
            },
            witnesses: witnesses.len() as u64,
        };
        let mut wanted: BTreeMap<u64, Option<String>> =
            witnesses.iter().map(|w| (w.seq, None)).collect();
        if let Found::Valid(a) = &snap.anchor {
            wanted.insert(a.seq, None);
        }
        let mut firsts: Vec<Option<u64>> = Vec::new();
        let mut current_lines = 0u64;
        let mut current_len = None;
        // One generation in memory at a time.
        let mut last: Option<Link> = None;
        for (fi, (path, file)) in snap.files.iter().enumerate() {
            let mut bytes = Vec::new();
            (&*file).read_to_end(&mut bytes)?;
            let is_current = path.file_name().is_some_and(|n| n == files::CURRENT);
            if is_current {
                current_len = Some(bytes.len() as u64);
            }
            firsts.push(None);
            for (li, (raw, complete)) in split_lines(&bytes).into_iter().enumerate() {
                match chain::step(last.as_ref(), raw, complete) {
                    Ok(link) => {
                        report.lines += 1;
                        report.last_seq = Some(link.seq);
                        if li == 0 {
                            firsts[fi] = Some(link.seq);
                        }
                        if is_current {
                            current_lines += 1;
                        }
                        if let Some(slot) = wanted.get_mut(&link.seq) {
                            *slot = Some(link.hash.clone());
                        }
                        last = Some(link);
                    }
                    Err((mut kind, mut detail)) => {
                        if kind == BreakKind::Deleted {
                            let missing = last.as_ref().map(|l| l.seq + 1).unwrap_or(1);
                            let later: Vec<PathBuf> = snap.files[fi + 1..]
                                .iter()
                                .map(|(p, _)| p.clone())
                                .collect();
                            if appears_later(&bytes, li, &later, missing)? {
                                kind = BreakKind::Reordered;
                                detail = format!("{detail}, but seq {missing} appears later");
                            }
                        }
                        report.broken = Some(Break {
                            file: path.clone(),
                            line: li as u64 + 1,
                            kind,
                            detail,
                        });
                        return Ok(report);
                    }
                }
            }
        }
        let walked = Walked {
            last_seq: report.last_seq,
            lines: report.lines,
            firsts,
            current_lines,
            current_len,
            hashes: wanted,
        };
        report.broken = ends::check(&self.dir, &snap, &walked, witnesses);
        Ok(report)
    }

    /// Under the lock: the anchor, and every generation opened, so the walk sees the files
    /// as one consistent state even if writers rotate meanwhile. Creates nothing.
    fn open_for_verify(&self) -> io::Result<Snapshot> {
        let _lock = if self.dir.is_dir() {
            state::Lock::acquire(&self.dir.join(files::LOCK), state::deadline::for_lock()).ok()
        } else {
            None
        };
        let anchor = anchor::read(&self.dir)?;
        let damaged_aside = anchor::damaged_path(&self.dir).exists();
        let mut opened = Vec::new();
        for path in files::all_oldest_first(&self.dir)? {
            match File::open(&path) {
                Ok(f) => opened.push((path, f)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Snapshot {
            anchor,
            damaged_aside,
            files: opened,
        })
    }

    /// The last `n` lines that parse, oldest first, across generations.
    pub fn tail(&self, n: usize) -> io::Result<Vec<Entry>> {
        let mut out: Vec<Entry> = Vec::new();
        if n == 0 {
            return Ok(out);
        }
        for path in files::all_oldest_first(&self.dir)?.iter().rev() {
            let mut file = File::open(path)?;
            let tail = files::read_tail(&mut file, n - out.len())?;
            let mut found: Vec<Entry> = tail
                .lines
                .iter()
                .filter_map(|l| serde_json::from_slice(l).ok())
                .collect();
            found.append(&mut out);
            out = found;
            if out.len() >= n {
                break;
            }
        }
        let skip = out.len().saturating_sub(n);
        Ok(out.split_off(skip))
    }

    /// Attempts, decisions, denials by rule, per session, over every kept generation.
    pub fn stats(&self) -> io::Result<Stats> {
        let mut stats = Stats::default();
        for path in files::all_oldest_first(&self.dir)? {
            let bytes = fs::read(&path)?;
            for (raw, _) in split_lines(&bytes) {
                match serde_json::from_slice::<Entry>(raw) {
                    Ok(entry) => stats.add(&entry),
                    Err(_) => stats.unreadable += 1,
                }
            }
        }
        Ok(stats)
    }
}

/// Where an append starts from.
struct Start {
    /// The link to chain to.
    last: Option<Link>,
    /// The anchor to move forward.
    anchor: Anchor,
    /// Repair events to write before the caller's line.
    notes: Vec<Record>,
    /// Bytes of the current file before this append.
    len: u64,
    /// The anchor file to rewrite in place; `None` to create one.
    anchor_file: Option<File>,
}

/// A line the log writes about itself.
fn note(event: &str, reason: String, extra: serde_json::Map<String, serde_json::Value>) -> Record {
    Record {
        session: "loopgate".into(),
        agent: "loopgate".into(),
        event: event.into(),
        tool: None,
        input: serde_json::Value::Null,
        decision: Some("repair".into()),
        rule: Some("audit.integrity".into()),
        reason: Some(reason),
        extra,
    }
}

fn open_anchor(dir: &Path) -> io::Result<Option<File>> {
    // Non-blocking and never through a link: a FIFO or a symlink planted in the anchor's
    // place must not stall a hook or redirect its writes.
    let path = anchor::path(dir);
    let file = match OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(&path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(format!(
            "{} is not a regular file",
            path.display()
        )));
    }
    Ok(Some(file))
}

fn open_current(dir: &Path) -> io::Result<File> {
    // Non-blocking, regular files only: a FIFO planted here must not stall a hook.
    let file = state::open_append(&dir.join(files::CURRENT))?;
    // A file created looser by someone else is tightened, as the state directory is.
    if file.metadata()?.permissions().mode() & 0o077 != 0 {
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// The link to chain to, and whether the current file ends mid-line. Reads only the end of
/// the current file (or of the newest rotated one when the current file is empty).
fn last_link(dir: &Path, current: &mut File) -> io::Result<(Option<Link>, bool)> {
    let tail = files::read_tail(current, 1)?;
    if let Some(link) = tail.lines.last().and_then(|l| lenient_link(l)) {
        return Ok((Some(link), tail.ends_mid_line));
    }
    if tail.ends_mid_line || !tail.lines.is_empty() {
        // The file has content but no usable last line: look further back.
        let deeper = files::read_tail(current, 64)?;
        let link = deeper.lines.iter().rev().find_map(|l| lenient_link(l));
        return Ok((link, tail.ends_mid_line));
    }
    let Some((_, newest)) = files::rotated(dir)?.into_iter().last() else {
        return Ok((None, false));
    };
    let mut file = File::open(newest)?;
    let rotated = files::read_tail(&mut file, 1)?;
    Ok((rotated.lines.last().and_then(|l| lenient_link(l)), false))
}

/// The `seq` and `hash` a line claims. Deliberately not re-verified: the writer chains to
/// what is written, and `verify` is the one that judges.
fn lenient_link(raw: &[u8]) -> Option<Link> {
    #[derive(serde::Deserialize)]
    struct Claimed {
        seq: u64,
        hash: String,
    }
    serde_json::from_slice::<Claimed>(raw).ok().map(|c| Link {
        seq: c.seq,
        hash: c.hash,
    })
}

/// Lines of a file without their `\n`, each with whether it was complete. A trailing empty
/// piece (the file ends with `\n`) is not a line.
fn split_lines(bytes: &[u8]) -> Vec<(&[u8], bool)> {
    let Some(&last) = bytes.last() else {
        return Vec::new();
    };
    let ends_whole = last == b'\n';
    let body = if ends_whole {
        &bytes[..bytes.len() - 1]
    } else {
        bytes
    };
    let pieces: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    let n = pieces.len();
    pieces
        .into_iter()
        .enumerate()
        .map(|(i, p)| (p, ends_whole || i + 1 < n))
        .collect()
}

/// Whether a line claiming `seq` comes after line `line` of `bytes` or in a later file.
fn appears_later(bytes: &[u8], line: usize, later: &[PathBuf], seq: u64) -> io::Result<bool> {
    let claims = |raw: &[u8]| chain::claimed_seq(raw) == Some(seq);
    if split_lines(bytes)
        .into_iter()
        .skip(line + 1)
        .any(|(raw, _)| claims(raw))
    {
        return Ok(true);
    }
    for path in later {
        if split_lines(&fs::read(path)?)
            .into_iter()
            .any(|(raw, _)| claims(raw))
        {
            return Ok(true);
        }
    }
    Ok(false)
}
