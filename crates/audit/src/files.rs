//! Where the generations live and how to read lines from them without rereading
//! a whole file when only its end matters.

use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

pub const CURRENT: &str = "audit.ndjson";
pub const LOCK: &str = "audit.lock";

/// `audit.N.ndjson`: generation N (1 = the most recently rotated).
pub fn generation(dir: &Path, n: u32) -> PathBuf {
    dir.join(format!("audit.{n}.ndjson"))
}

/// Every rotated generation present in `dir`, as (N, path), oldest (highest N) first.
pub fn rotated(dir: &Path) -> io::Result<Vec<(u32, PathBuf)>> {
    let mut found = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(n) = name
            .strip_prefix("audit.")
            .and_then(|rest| rest.strip_suffix(".ndjson"))
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        found.push((n, entry.path()));
    }
    found.sort_by_key(|f| std::cmp::Reverse(f.0));
    Ok(found)
}

/// All generations that exist, oldest first, the current file last.
pub fn all_oldest_first(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = rotated(dir)?.into_iter().map(|(_, p)| p).collect();
    let current = dir.join(CURRENT);
    if current.exists() {
        files.push(current);
    }
    Ok(files)
}

/// The end of a file: its complete lines (oldest first, without `\n`) found in the last
/// `want` lines' worth of bytes, and whether the file ends mid-line.
pub struct Tail {
    pub lines: Vec<Vec<u8>>,
    pub ends_mid_line: bool,
}

/// Read backwards from the end of `file` until `want` complete lines are found or the
/// start of the file is reached; cost grows with the size of those lines, not the file.
pub fn read_tail(file: &mut File, want: usize) -> io::Result<Tail> {
    let len = file.metadata()?.len();
    let mut window: u64 = 4 * 1024;
    loop {
        let start = len.saturating_sub(window);
        file.seek(SeekFrom::Start(start))?;
        let mut buf = Vec::with_capacity((len - start) as usize);
        file.take(len - start).read_to_end(&mut buf)?;
        let ends_mid_line = !buf.is_empty() && *buf.last().unwrap_or(&b'\n') != b'\n';
        // Bytes after the last newline are a torn line, never a complete one.
        let complete_end = buf
            .iter()
            .rposition(|&b| b == b'\n')
            .map(|i| i + 1)
            .unwrap_or(0);
        let mut pieces: Vec<&[u8]> = buf[..complete_end].split(|&b| b == b'\n').collect();
        pieces.pop(); // empty piece after the final newline
                      // Unless the window reaches the file start, its first piece may be cut.
        if start > 0 && !pieces.is_empty() {
            pieces.remove(0);
        }
        if pieces.len() >= want || start == 0 {
            let skip = pieces.len().saturating_sub(want);
            return Ok(Tail {
                lines: pieces[skip..].iter().map(|p| p.to_vec()).collect(),
                ends_mid_line,
            });
        }
        window = window.saturating_mul(4);
    }
}

/// The length of `file` up to and including its last `\n` (0 when it has none): what is
/// left once a torn last line is cut off. Reads backwards from the end.
pub fn complete_len(file: &File) -> io::Result<u64> {
    use std::os::unix::fs::FileExt;
    let len = file.metadata()?.len();
    let mut end = len;
    let mut buf = vec![0u8; 4096];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(end - start) as usize];
        file.read_exact_at(chunk, start)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// The `seq` the first line of `path` claims, if it has a complete first line that parses.
/// Reads at most [`MAX_HEAD`] bytes.
pub fn first_seq(path: &Path) -> io::Result<Option<u64>> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut head = Vec::new();
    file.take(MAX_HEAD).read_to_end(&mut head)?;
    Ok(head
        .iter()
        .position(|&b| b == b'\n')
        .and_then(|end| crate::chain::claimed_seq(&head[..end])))
}

/// A first line longer than this is not looked for (a line is bounded by `max_field_bytes`
/// times a small factor; this is far above any real one).
pub const MAX_HEAD: u64 = 4 * 1024 * 1024;
