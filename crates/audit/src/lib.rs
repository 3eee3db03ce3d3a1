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

mod chain;
mod files;
mod line;
mod stats;
mod truncate;

pub use chain::{BreakKind, Link};
pub use line::{Entry, Record, GENESIS};
pub use stats::{SessionStats, Stats};
pub use truncate::{truncate_str, truncate_value};

use serde::Serialize;
use std::fs::{self, File};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
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

    /// Whether any generation of the log exists.
    pub fn exists(&self) -> io::Result<bool> {
        Ok(!files::all_oldest_first(&self.dir)?.is_empty())
    }

    /// Append one line for `record`, chained to the last line written by anyone.
    pub fn append(&self, record: Record) -> io::Result<Entry> {
        state::ensure_dir(&self.dir)?;
        let _lock = state::Lock::acquire(
            &self.dir.join(files::LOCK),
            state::deadline::within(state::deadline::SHORT_WAIT),
        )?;
        let mut file = open_current(&self.dir)?;
        let (last, torn) = last_link(&self.dir, &mut file)?;
        let mut entry = self.entry_for(record, last.as_ref());
        let (mut bytes, hash) = line::encode(&entry);
        entry.hash = hash;
        let len = file.metadata()?.len();
        if len > 0 && len + bytes.len() as u64 > self.settings.max_bytes {
            drop(file);
            self.rotate()?;
            file = open_current(&self.dir)?;
        } else if torn {
            // Finish the torn line so ours stands whole; verify still reports the damage.
            bytes.insert(0, b'\n');
        }
        file.write_all(&bytes)?;
        Ok(entry)
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

    /// Walk every kept generation, oldest first, and report the first broken line.
    pub fn verify(&self) -> io::Result<VerifyReport> {
        let files = files::all_oldest_first(&self.dir)?;
        let mut report = VerifyReport {
            files: files.clone(),
            lines: 0,
            last_seq: None,
            broken: None,
        };
        // One generation in memory at a time.
        let mut last: Option<Link> = None;
        for (fi, path) in files.iter().enumerate() {
            let bytes = fs::read(path)?;
            for (li, (raw, complete)) in split_lines(&bytes).into_iter().enumerate() {
                match chain::step(last.as_ref(), raw, complete) {
                    Ok(link) => {
                        report.lines += 1;
                        report.last_seq = Some(link.seq);
                        last = Some(link);
                    }
                    Err((mut kind, mut detail)) => {
                        if kind == BreakKind::Deleted {
                            let missing = last.as_ref().map(|l| l.seq + 1).unwrap_or(1);
                            if appears_later(&bytes, li, &files[fi + 1..], missing)? {
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
        Ok(report)
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
