//! Metadata snapshots of watch roots, for detecting writes that escaped the write roots.
//!
//! Only metadata is read (one `lstat` per entry), never content. Symlinks are recorded as
//! links and never followed inside a walk; a root that is itself a symlink is recorded as a
//! link and its target is scanned as a root of its own, so a dotfile managed through a
//! symlink is still watched. Every walk is bounded by an entry count and a depth.

use crate::snapshot_format::RootScanRepr;
use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags, Stat, CWD};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Bounds and exclusions of a scan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanOptions {
    /// Entries recorded per root (the root itself included); past it the root is truncated.
    pub max_entries: usize,
    /// Directory levels below a root that are listed (1 = the root's own children).
    pub max_depth: usize,
    /// Absolute paths that are neither recorded nor descended into.
    pub exclude: Vec<PathBuf>,
    /// Walker threads per root; 0 picks the number of CPUs (at most 4), 1 walks sequentially.
    /// The result is the same either way.
    pub threads: usize,
}

impl Default for ScanOptions {
    fn default() -> Self {
        ScanOptions {
            max_entries: 200_000,
            max_depth: 32,
            exclude: Vec::new(),
            threads: 0,
        }
    }
}

/// The metadata compared between two scans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Meta {
    pub size: u64,
    pub mtime_ns: i64,
    pub ctime_ns: i64,
    pub ino: u64,
    /// `st_mode`: permission bits and the file type.
    pub mode: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Dir,
    Symlink,
    Other,
}

impl Meta {
    pub fn kind(&self) -> Kind {
        match self.mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFLNK => Kind::Symlink,
            _ => Kind::Other,
        }
    }

    pub(crate) fn from_stat(st: &Stat) -> Meta {
        Meta {
            size: st.st_size as u64,
            mtime_ns: st
                .st_mtime
                .saturating_mul(1_000_000_000)
                .saturating_add(st.st_mtime_nsec as i64),
            ctime_ns: st
                .st_ctime
                .saturating_mul(1_000_000_000)
                .saturating_add(st.st_ctime_nsec as i64),
            ino: st.st_ino,
            mode: st.st_mode,
        }
    }
}

/// One recorded path, relative to its root (the root itself is the empty path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub rel: PathBuf,
    pub meta: Meta,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state", content = "error")]
pub enum RootStatus {
    Scanned,
    Missing,
    Unreadable(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "RootScanRepr", try_from = "RootScanRepr")]
pub struct RootScan {
    pub root: PathBuf,
    pub status: RootStatus,
    /// In walk order, which is the component-wise order of `rel`.
    pub entries: Vec<Entry>,
    /// Set when `max_entries` cut the walk short; says what was left unobserved.
    pub truncated: Option<String>,
    /// Directories (relative) that could not be listed; their children are unobserved.
    pub unlisted: Vec<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub v: u32,
    pub max_depth: usize,
    pub roots: Vec<RootScan>,
}

impl Snapshot {
    pub fn entry_count(&self) -> usize {
        self.roots.iter().map(|r| r.entries.len()).sum()
    }

    /// Human notes on what this snapshot could not see (missing, unreadable, truncated roots).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        for r in &self.roots {
            let root = r.root.display();
            match &r.status {
                RootStatus::Scanned => {}
                RootStatus::Missing => notes.push(format!(
                    "{root}: does not exist (a later creation is reported)"
                )),
                RootStatus::Unreadable(e) => {
                    notes.push(format!("{root}: unreadable ({e}); not observed"))
                }
            }
            if let Some(t) = &r.truncated {
                notes.push(format!("{root}: {t}"));
            }
            for d in &r.unlisted {
                notes.push(format!(
                    "{}: cannot be listed; its contents are not observed",
                    r.root.join(d).display()
                ));
            }
        }
        notes
    }
}

/// Scan `roots` by metadata. Never fails: missing and unreadable roots are recorded as such.
pub fn take(roots: &[PathBuf], opts: &ScanOptions) -> Snapshot {
    let mut scans = Vec::new();
    let mut seen = HashSet::new();
    let mut queue: Vec<PathBuf> = roots.to_vec();
    let mut i = 0;
    while i < queue.len() {
        let root = queue[i].clone();
        i += 1;
        if !seen.insert(root.clone()) {
            continue;
        }
        let scan = scan_root(&root, opts);
        let is_link = scan
            .entries
            .first()
            .is_some_and(|e| e.rel.as_os_str().is_empty() && e.meta.kind() == Kind::Symlink);
        // Only the given roots are followed, once, so a chain of links cannot loop.
        if is_link && i <= roots.len() {
            if let Ok(target) = std::fs::canonicalize(&root) {
                queue.push(target);
            }
        }
        scans.push(scan);
    }
    Snapshot {
        v: 1,
        max_depth: opts.max_depth,
        roots: scans,
    }
}

struct Walk<'a> {
    opts: &'a ScanOptions,
    exclude: HashSet<PathBuf>,
    entries: Vec<Entry>,
    unlisted: Vec<PathBuf>,
    truncated: Option<String>,
}

fn scan_root(root: &Path, opts: &ScanOptions) -> RootScan {
    let mut scan = RootScan {
        root: root.to_path_buf(),
        status: RootStatus::Scanned,
        entries: Vec::new(),
        truncated: None,
        unlisted: Vec::new(),
    };
    let st = match rustix::fs::lstat(root) {
        Ok(st) => st,
        Err(rustix::io::Errno::NOENT) | Err(rustix::io::Errno::NOTDIR) => {
            scan.status = RootStatus::Missing;
            return scan;
        }
        Err(e) => {
            scan.status = RootStatus::Unreadable(std::io::Error::from(e).to_string());
            return scan;
        }
    };
    let meta = Meta::from_stat(&st);
    scan.entries.push(Entry {
        rel: PathBuf::new(),
        meta,
    });
    if meta.kind() != Kind::Dir || opts.max_depth == 0 || opts.max_entries <= 1 {
        if meta.kind() == Kind::Dir && opts.max_entries <= 1 {
            scan.truncated = Some(truncation_note(opts.max_entries));
        }
        return scan;
    }
    let dir = match open_dir(CWD, root) {
        Ok(fd) => fd,
        Err(e) => {
            scan.status = RootStatus::Unreadable(std::io::Error::from(e).to_string());
            return scan;
        }
    };
    let exclude: HashSet<PathBuf> = opts
        .exclude
        .iter()
        .filter_map(|x| x.strip_prefix(root).ok())
        .filter(|rel| !rel.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .collect();
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
        n => n,
    };
    if threads > 1 {
        drop(dir);
        if let Some((entries, unlisted)) = crate::snapshot_parallel::walk(
            root,
            threads,
            opts.max_depth,
            opts.max_entries,
            &exclude,
        ) {
            scan.entries.extend(entries);
            scan.unlisted = unlisted;
            return scan;
        }
        // Over the bound: only the sequential walk stops at an exact prefix.
        let Ok(again) = open_dir(CWD, root) else {
            scan.status = RootStatus::Unreadable("the root could not be reopened".into());
            return scan;
        };
        return sequential(scan, again, opts, exclude);
    }
    sequential(scan, dir, opts, exclude)
}

fn sequential(
    mut scan: RootScan,
    dir: OwnedFd,
    opts: &ScanOptions,
    exclude: HashSet<PathBuf>,
) -> RootScan {
    let mut walk = Walk {
        opts,
        exclude,
        entries: std::mem::take(&mut scan.entries),
        unlisted: Vec::new(),
        truncated: None,
    };
    walk.dir(dir, &PathBuf::new(), 1);
    scan.entries = walk.entries;
    scan.unlisted = walk.unlisted;
    scan.truncated = walk.truncated;
    scan
}

pub(crate) fn open_dir<Fd: AsFd>(
    at: Fd,
    name: impl rustix::path::Arg,
) -> rustix::io::Result<OwnedFd> {
    rustix::fs::openat(
        at,
        name,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
}

/// The names in a directory, sorted bytewise (so the walk visits paths in the component-wise
/// order the diff relies on), and whether a read error cut the listing short.
pub(crate) fn list_names(fd: OwnedFd) -> Option<(Dir, Vec<Vec<u8>>, bool)> {
    let mut dir = Dir::new(fd).ok()?;
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut partial = false;
    while let Some(item) = dir.read() {
        match item {
            Ok(e) => {
                let name = e.file_name().to_bytes();
                if name != b"." && name != b".." {
                    names.push(name.to_vec());
                }
            }
            Err(_) => {
                partial = true;
                break;
            }
        }
    }
    names.sort_unstable();
    Some((dir, names, partial))
}

fn truncation_note(max: usize) -> String {
    format!("truncated after {max} entries; entries past that point are not observed")
}

impl Walk<'_> {
    fn dir(&mut self, fd: OwnedFd, rel: &Path, depth: usize) {
        let Some((dir, names, partial)) = list_names(fd) else {
            self.unlisted.push(rel.to_path_buf());
            return;
        };
        if partial {
            self.unlisted.push(rel.to_path_buf());
        }
        let Ok(dirfd) = dir.fd() else { return };
        for name in names {
            if self.truncated.is_some() {
                return;
            }
            if self.entries.len() >= self.opts.max_entries {
                self.truncated = Some(truncation_note(self.opts.max_entries));
                return;
            }
            let child = rel.join(OsStr::from_bytes(&name));
            if !self.exclude.is_empty() && self.exclude.contains(&child) {
                continue;
            }
            // A name that vanished between listing and stat is simply not there any more.
            let Ok(st) = rustix::fs::statat(dirfd, name.as_slice(), AtFlags::SYMLINK_NOFOLLOW)
            else {
                continue;
            };
            let meta = Meta::from_stat(&st);
            self.entries.push(Entry {
                rel: child.clone(),
                meta,
            });
            if FileType::from_raw_mode(st.st_mode) == FileType::Directory
                && depth < self.opts.max_depth
            {
                match open_dir(dirfd, name.as_slice()) {
                    Ok(sub) => self.dir(sub, &child, depth + 1),
                    Err(_) => self.unlisted.push(child),
                }
            }
        }
    }
}

/// How a path changed between two snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Created,
    Modified,
    Deleted,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub path: PathBuf,
    pub kind: ChangeKind,
}

/// The absolute paths created, modified or deleted between `old` and `new`: sorted, unique.
pub fn diff(old: &Snapshot, new: &Snapshot) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = changes(old, new).into_iter().map(|c| c.path).collect();
    paths.sort();
    paths.dedup();
    paths
}

/// [`diff`] with the kind of each change, sorted by path.
///
/// A directory whose children were listed in both scans is compared by type, inode and
/// permissions only: its times and size move whenever a child changes, and that child is
/// reported itself. A directory that was not listed (depth limit, unreadable) is compared on
/// every field, so a change below it still shows. Past a truncation point nothing is compared.
pub fn changes(old: &Snapshot, new: &Snapshot) -> Vec<Change> {
    let mut out = Vec::new();
    // A session watches dozens of roots, most of them absent dotfiles; looking each one up
    // by a linear search made this quadratic in component-wise path comparisons. The first
    // root of a path wins, as a linear search would pick it.
    let mut by_root: HashMap<&Path, &RootScan> = HashMap::with_capacity(old.roots.len());
    for o in &old.roots {
        by_root.entry(o.root.as_path()).or_insert(o);
    }
    for n in &new.roots {
        // A root that was not watched before has no baseline to differ from.
        if let Some(o) = by_root.get(n.root.as_path()) {
            diff_root(o, n, old.max_depth.min(new.max_depth), &mut out);
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.dedup_by(|a, b| a.path == b.path);
    out
}

fn diff_root(old: &RootScan, new: &RootScan, max_depth: usize, out: &mut Vec<Change>) {
    if matches!(old.status, RootStatus::Unreadable(_))
        || matches!(new.status, RootStatus::Unreadable(_))
    {
        return;
    }
    // Both walks visit in the same order, so a truncated walk saw a prefix of the full one.
    let horizon: Option<&Path> = [old, new]
        .iter()
        .filter(|s| s.truncated.is_some())
        .filter_map(|s| s.entries.last().map(|e| e.rel.as_path()))
        .min();
    let visible = |e: &&Entry| horizon.is_none_or(|h| e.rel.as_path() <= h);
    let a: Vec<&Entry> = old.entries.iter().filter(visible).collect();
    let b: Vec<&Entry> = new.entries.iter().filter(visible).collect();
    let unlisted: HashSet<&Path> = old
        .unlisted
        .iter()
        .chain(&new.unlisted)
        .map(PathBuf::as_path)
        .collect();
    let (mut i, mut j) = (0, 0);
    let mut push = |rel: &Path, kind| {
        out.push(Change {
            path: absolute(&new.root, rel),
            kind,
        })
    };
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.rel == y.rel => {
                let listed = x.meta.kind() == Kind::Dir
                    && y.meta.kind() == Kind::Dir
                    && depth(&x.rel) < max_depth
                    && !unlisted.contains(x.rel.as_path());
                let changed = if listed {
                    (x.meta.ino, x.meta.mode) != (y.meta.ino, y.meta.mode)
                } else {
                    x.meta != y.meta
                };
                if changed {
                    push(&x.rel, ChangeKind::Modified);
                }
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.rel < y.rel => {
                push(&x.rel, ChangeKind::Deleted);
                i += 1;
            }
            (Some(_), Some(y)) => {
                push(&y.rel, ChangeKind::Created);
                j += 1;
            }
            (Some(x), None) => {
                push(&x.rel, ChangeKind::Deleted);
                i += 1;
            }
            (None, Some(y)) => {
                push(&y.rel, ChangeKind::Created);
                j += 1;
            }
            (None, None) => break,
        }
    }
}

fn depth(rel: &Path) -> usize {
    rel.components().count()
}

fn absolute(root: &Path, rel: &Path) -> PathBuf {
    if rel.as_os_str().is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    }
}
