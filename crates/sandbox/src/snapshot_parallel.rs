//! A multi-threaded walk of one root. Each directory is a task (list it, stat its
//! children); results are stitched back in the sequential walk's order, so a parallel
//! snapshot equals a sequential one. The system calls per entry (one `fstatat`) are the
//! whole cost of a scan, and git spreads its own `lstat`s over threads too.
//!
//! When the entry bound is exceeded this gives up (`None`) and the caller redoes the walk
//! sequentially: only the sequential walk stops at an exact prefix, which the diff's
//! truncation horizon depends on.

use crate::snapshot::{list_names, open_dir, Entry, Kind, Meta};
use rustix::fs::{AtFlags, CWD};
use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

struct Listing {
    /// Children in name order; `None` when the directory could not be opened.
    children: Option<Vec<(Vec<u8>, Meta)>>,
    /// Listing stopped on a read error part-way.
    partial: bool,
}

struct Queue {
    tasks: Vec<(PathBuf, usize)>,
    active: usize,
}

struct Shared<'a> {
    root: &'a Path,
    max_depth: usize,
    max_entries: usize,
    exclude: &'a HashSet<PathBuf>,
    queue: Mutex<Queue>,
    wake: Condvar,
    count: AtomicUsize,
    over: AtomicBool,
    results: Mutex<HashMap<PathBuf, Listing>>,
}

/// Entries below `root` (not the root itself) and the directories that could not be listed,
/// or `None` when more than `max_entries` (root included) exist.
pub(crate) fn walk(
    root: &Path,
    threads: usize,
    max_depth: usize,
    max_entries: usize,
    exclude: &HashSet<PathBuf>,
) -> Option<(Vec<Entry>, Vec<PathBuf>)> {
    let shared = Shared {
        root,
        max_depth,
        max_entries,
        exclude,
        queue: Mutex::new(Queue {
            tasks: vec![(PathBuf::new(), 1)],
            active: 0,
        }),
        wake: Condvar::new(),
        count: AtomicUsize::new(1),
        over: AtomicBool::new(false),
        results: Mutex::new(HashMap::new()),
    };
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| worker(&shared));
        }
    });
    if shared.over.load(Ordering::Relaxed) {
        return None;
    }
    let mut results = shared.results.into_inner().ok()?;
    let mut entries = Vec::with_capacity(shared.count.load(Ordering::Relaxed));
    let mut unlisted = Vec::new();
    stitch(Path::new(""), &mut results, &mut entries, &mut unlisted);
    Some((entries, unlisted))
}

fn worker(shared: &Shared) {
    loop {
        let task = {
            let Ok(mut q) = shared.queue.lock() else {
                return;
            };
            loop {
                if shared.over.load(Ordering::Relaxed) {
                    shared.wake.notify_all();
                    return;
                }
                if let Some(t) = q.tasks.pop() {
                    q.active += 1;
                    break t;
                }
                if q.active == 0 {
                    shared.wake.notify_all();
                    return;
                }
                q = match shared.wake.wait(q) {
                    Ok(q) => q,
                    Err(_) => return,
                };
            }
        };
        let (rel, depth) = task;
        let (listing, subdirs) = list(shared, &rel, depth);
        if let Ok(mut r) = shared.results.lock() {
            r.insert(rel, listing);
        }
        if let Ok(mut q) = shared.queue.lock() {
            q.tasks.extend(subdirs);
            q.active -= 1;
        }
        shared.wake.notify_all();
    }
}

fn list(shared: &Shared, rel: &Path, depth: usize) -> (Listing, Vec<(PathBuf, usize)>) {
    let path = if rel.as_os_str().is_empty() {
        shared.root.to_path_buf()
    } else {
        shared.root.join(rel)
    };
    // Opened by full path so queued tasks hold no descriptors (a wide tree would exhaust
    // them). Only the last component is opened without following links; a directory swapped
    // for a link mid-scan can only make the scan report more changes, never fewer.
    let Ok(fd) = open_dir(CWD, &path) else {
        return (
            Listing {
                children: None,
                partial: false,
            },
            Vec::new(),
        );
    };
    let Some((dir, names, partial)) = list_names(fd) else {
        return (
            Listing {
                children: None,
                partial: false,
            },
            Vec::new(),
        );
    };
    let Ok(dirfd) = dir.fd() else {
        return (
            Listing {
                children: None,
                partial: false,
            },
            Vec::new(),
        );
    };
    let mut children = Vec::with_capacity(names.len());
    let mut subdirs = Vec::new();
    for name in names {
        let child = rel.join(OsStr::from_bytes(&name));
        if !shared.exclude.is_empty() && shared.exclude.contains(&child) {
            continue;
        }
        let Ok(st) = rustix::fs::statat(dirfd, name.as_slice(), AtFlags::SYMLINK_NOFOLLOW) else {
            continue;
        };
        let meta = Meta::from_stat(&st);
        if meta.kind() == Kind::Dir && depth < shared.max_depth {
            subdirs.push((child, depth + 1));
        }
        children.push((name, meta));
    }
    let total = shared.count.fetch_add(children.len(), Ordering::Relaxed) + children.len();
    if total > shared.max_entries {
        shared.over.store(true, Ordering::Relaxed);
    }
    (
        Listing {
            children: Some(children),
            partial,
        },
        subdirs,
    )
}

fn stitch(
    rel: &Path,
    results: &mut HashMap<PathBuf, Listing>,
    entries: &mut Vec<Entry>,
    unlisted: &mut Vec<PathBuf>,
) {
    let Some(listing) = results.remove(rel) else {
        return;
    };
    let Some(children) = listing.children else {
        unlisted.push(rel.to_path_buf());
        return;
    };
    if listing.partial {
        unlisted.push(rel.to_path_buf());
    }
    for (name, meta) in children {
        let child = rel.join(OsStr::from_bytes(&name));
        entries.push(Entry {
            rel: child.clone(),
            meta,
        });
        if meta.kind() == Kind::Dir {
            stitch(&child, results, entries, unlisted);
        }
    }
}
