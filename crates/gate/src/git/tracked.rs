//! Tracked files compared with the index by loopgate itself, for trees large enough that
//! the comparison is the cost: `git status` stats every tracked file and trusts its stat
//! cache to the second, so the referee used to stat every file a second time to check
//! that cache to the nanosecond (see [`super::hidden::stat_vouches`]). Here each file is
//! stat'ed once, by loopgate, and git is left the questions it answers without the work
//! tree's tracked files: which files are untracked, and what the index stages.
//!
//! Directories are opened without following symbolic links: a tracked directory replaced
//! by a link (to a pristine copy elsewhere) reads as deleted, as it does to git.

use super::hidden::{DiskStat, IndexEntry};
use super::stat_anchor::{self, StatAnchor};
use rustix::fs::{openat2, readlinkat, statat, AtFlags, FileType, Mode, OFlags, ResolveFlags};
use rustix::io::Errno;
use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

/// What the work tree holds for one tracked file, against its index entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnDisk {
    Same,
    Modified,
    Deleted,
}

/// Below this many entries, when the index stages something (so `git diff-index` must
/// run as well), one `git status` costs less than the processes this path starts: in CPU
/// time the two paths are even between 2,000 and 3,000 entries on a 2-core VM, and this
/// one is cheaper from 5,000 (`perf stat -e task-clock`, bench trees). With nothing
/// staged this path starts one process, as `git status` does, at any size.
pub const MIN_ENTRIES: usize = 3_000;

/// The fewest entries worth a thread of their own.
const MIN_SHARE: usize = 1024;

/// The largest file hashed against an entry that recorded no size: a larger one is taken
/// as changed unread (racily clean entries are recent writes, rarely this large).
const UNRECORDED_SIZE_CAP: u64 = 64 << 20;

/// Compare `entries` (stage 0, no gitlinks, not flagged) with the files under `root`.
/// `index_mtime` is the index file's own mtime: an entry whose mtime is not older was
/// written in the index's last moment and may have changed again within the same clock
/// tick, so its stat data vouches for nothing (git's "racy" rule). Nor does it for a file
/// changed since `anchor` (see [`stat_anchor`]). `None` when the kernel cannot resolve
/// paths without following links (`openat2`, Linux 5.6): the caller then asks git.
pub fn compare(
    root: &Path,
    entries: &[&IndexEntry],
    index_mtime: (u32, u32),
    anchor: Option<StatAnchor>,
) -> Option<Vec<OnDisk>> {
    // One share is compared on the calling thread: no thread to start, and no look at
    // the machine's cores (which reads cgroup files).
    if entries.len() <= MIN_SHARE {
        return compare_part(root, entries, index_mtime, anchor);
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4);
    let chunk = entries.len().div_ceil(threads).max(MIN_SHARE);
    let parts: Vec<Option<Vec<OnDisk>>> = std::thread::scope(|s| {
        let handles: Vec<_> = entries
            .chunks(chunk)
            .map(|part| s.spawn(move || compare_part(root, part, index_mtime, anchor)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    });
    let mut all = Vec::with_capacity(entries.len());
    for part in parts {
        all.extend(part?);
    }
    Some(all)
}

fn compare_part(
    root: &Path,
    entries: &[&IndexEntry],
    index_mtime: (u32, u32),
    anchor: Option<StatAnchor>,
) -> Option<Vec<OnDisk>> {
    let root_fd = open_dir(rustix::fs::CWD, root, ResolveFlags::empty()).ok()?;
    let mut current: Option<(&str, Result<OwnedFd, Errno>)> = None;
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let (dir, name) = e.path.rsplit_once('/').unwrap_or(("", e.path.as_str()));
        if current.as_ref().is_none_or(|(d, _)| *d != dir) {
            let fd = if dir.is_empty() {
                root_fd.try_clone().map_err(|_| Errno::NOENT)
            } else {
                open_dir(
                    &root_fd,
                    dir,
                    ResolveFlags::NO_SYMLINKS | ResolveFlags::BENEATH,
                )
            };
            if let Err(errno) = &fd {
                if matches!(*errno, Errno::NOSYS | Errno::PERM | Errno::INVAL) {
                    return None;
                }
            }
            current = Some((dir, fd));
        }
        let Some((_, Ok(dir_fd))) = &current else {
            // The directory is gone, is no directory, or is a link: nothing under it is
            // the tracked file.
            out.push(OnDisk::Deleted);
            continue;
        };
        out.push(compare_one(
            dir_fd,
            Path::new(name),
            e,
            Some(index_mtime),
            anchor,
        ));
    }
    Some(out)
}

fn open_dir<Fd: AsFd>(
    at: Fd,
    path: impl rustix::path::Arg,
    resolve: ResolveFlags,
) -> Result<OwnedFd, Errno> {
    openat2(
        at,
        path,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
        resolve,
    )
}

/// One entry against the file `name` under `dir` (or an absolute `name`, with
/// `rustix::fs::CWD`). `racy_from` is the index's mtime for git's racy rule; `None` when
/// git's status has already applied that rule to the entry. `anchor`: see
/// [`stat_anchor::must_hash`].
pub fn compare_one(
    dir: impl AsFd,
    name: &Path,
    e: &IndexEntry,
    racy_from: Option<(u32, u32)>,
    anchor: Option<StatAnchor>,
) -> OnDisk {
    let dir = dir.as_fd();
    let st = match statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(st) => st,
        Err(Errno::NOENT | Errno::NOTDIR) => return OnDisk::Deleted,
        // Unreadable metadata: the guards look at the file themselves.
        Err(_) => return OnDisk::Modified,
    };
    let kind = FileType::from_raw_mode(st.st_mode);
    let link = e.mode & 0o170000 == 0o120000;
    match kind {
        FileType::Directory => return OnDisk::Deleted,
        FileType::Symlink if !link => return OnDisk::Modified,
        FileType::RegularFile if link => return OnDisk::Modified,
        FileType::Symlink | FileType::RegularFile => {}
        _ => return OnDisk::Modified,
    }
    if !link && (e.mode & 0o100 != 0) != (st.st_mode & 0o100 != 0) {
        return OnDisk::Modified;
    }
    // Truncated to 32 bits, as git stores them.
    let disk = DiskStat {
        ctime: (st.st_ctime as u32, st.st_ctime_nsec as u32),
        mtime: (st.st_mtime as u32, st.st_mtime_nsec as u32),
        ino: st.st_ino as u32,
        size: st.st_size as u32,
    };
    if !stat_anchor::must_hash(
        e,
        &disk,
        (st.st_ctime, st.st_ctime_nsec as u32),
        racy_from,
        anchor,
    ) {
        return OnDisk::Same;
    }
    // git's rule: another size than the recorded one is a change, unless none was recorded
    // (0: never stat'ed, or smudged as racily clean); nothing is read then. A size the
    // index cannot hold, or a large file with no size to compare, is taken as changed
    // unread too: a sparse file of any size costs the agent no disk, hashing it costs time.
    let size = st.st_size as u64;
    if size > u64::from(u32::MAX)
        || (e.size != 0 && size != u64::from(e.size))
        || (e.size == 0 && size > UNRECORDED_SIZE_CAP)
    {
        return OnDisk::Modified;
    }
    let id = if link {
        readlinkat(dir, name, Vec::new()).ok().and_then(|t| {
            gix_object::compute_hash(gix_hash::Kind::Sha1, gix_object::Kind::Blob, t.as_bytes())
                .ok()
        })
    } else {
        hash_file(dir, name, size)
    };
    let same = id.is_some_and(|id| id.as_slice() == e.oid);
    if same {
        OnDisk::Same
    } else {
        OnDisk::Modified
    }
}

/// The blob id of the file's content, read in pieces: `size` bytes exactly, as stat'ed (a
/// file that grew or shrank since gets another id).
fn hash_file(
    dir: rustix::fd::BorrowedFd<'_>,
    name: &Path,
    size: u64,
) -> Option<gix_hash::ObjectId> {
    let fd = rustix::fs::openat(
        dir,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK,
        Mode::empty(),
    )
    .ok()?;
    let mut file = std::fs::File::from(fd).take(size + 1);
    let mut hasher = gix_hash::hasher(gix_hash::Kind::Sha1);
    hasher.update(&gix_object::encode::loose_header(
        gix_object::Kind::Blob,
        size,
    ));
    let mut buf = vec![0; 64 * 1024];
    let mut read = 0u64;
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                read += n as u64;
                hasher.update(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    (read == size).then(|| hasher.try_finalize().ok()).flatten()
}
