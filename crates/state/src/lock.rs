//! Exclusive advisory locks with a deadline. A plain `flock` waits forever, and any
//! process that can write `.loopgate/` can hold one (`flock .loopgate/audit.lock sleep
//! 1e9`): a hook waiting on it would be killed by the agent's timeout, which fails open.
//! So a lock is tried without blocking, retried with short sleeps, and given up at the
//! caller's deadline with an error that names the file and, when it can be found, the pid
//! that holds it.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;
use std::time::{Duration, Instant};

/// An exclusive advisory lock held for the guard's lifetime (read-modify-write of a state
/// file by concurrent hook processes goes through one of these).
pub struct Lock {
    file: File,
}

/// The first retries are quick (honest holders keep a lock for microseconds to
/// milliseconds); later ones back off so a long wait costs little CPU.
const FIRST_SLEEP: Duration = Duration::from_micros(200);
const MAX_SLEEP: Duration = Duration::from_millis(20);

impl Lock {
    /// Take the lock on `path` (created 0600 if missing), waiting no later than `deadline`.
    /// Fails with `ErrorKind::TimedOut` naming the lock file (and its holder when known).
    pub fn acquire(path: &Path, deadline: Instant) -> io::Result<Lock> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::ensure_dir(dir)?;
        }
        // Non-blocking open: a FIFO planted at the lock path must not stall the open.
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("lock {}: {e}", path.display())))?;
        let started = Instant::now();
        let mut sleep = FIRST_SLEEP;
        loop {
            if fs4::fs_std::FileExt::try_lock_exclusive(&file)? {
                return Ok(Lock { file });
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(timed_out(path, &file, now - started));
            }
            std::thread::sleep(sleep.min(deadline - now));
            sleep = (sleep * 2).min(MAX_SLEEP);
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs4::fs_std::FileExt::unlock(&self.file);
    }
}

fn timed_out(path: &Path, file: &File, waited: Duration) -> io::Error {
    let holder = file
        .metadata()
        .ok()
        .and_then(|m| holder_pid(m.dev(), m.ino()))
        .map(|pid| format!(" (held by pid {pid})"))
        .unwrap_or_default();
    io::Error::new(
        io::ErrorKind::TimedOut,
        format!(
            "the lock {} could not be taken within {} ms{holder}",
            path.display(),
            waited.as_millis()
        ),
    )
}

/// The pid holding a lock on the file `dev`/`ino`, from `/proc/locks` (Linux; `None`
/// elsewhere or when it cannot be told). Only read after a wait failed.
fn holder_pid(dev: u64, ino: u64) -> Option<u32> {
    let text = crate::bounded::read_bounded(
        Path::new("/proc/locks"),
        4 * 1024 * 1024,
        crate::Follow::Yes,
    )
    .ok()?;
    let text = String::from_utf8_lossy(&text);
    let want = format!(
        "{:02x}:{:02x}:{ino}",
        libc::major(dev as libc::dev_t),
        libc::minor(dev as libc::dev_t)
    );
    let suffix = format!(":{ino}");
    let mut by_inode = None;
    for line in text.lines() {
        // `1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF`; blocked waiters are `->` lines.
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.get(1) == Some(&"->") || fields.len() < 6 {
            continue;
        }
        let (pid, id) = (fields[4], fields[5]);
        if id == want {
            return pid.parse().ok();
        }
        if by_inode.is_none() && id.ends_with(&suffix) {
            by_inode = pid.parse().ok();
        }
    }
    by_inode
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;

    #[test]
    fn a_held_lock_times_out_naming_the_file_and_the_holder() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("audit.lock");
        std::fs::write(&path, b"").unwrap();
        // Its own process group: flock(1) forks `sleep`, which inherits the locked file.
        let mut holder = std::process::Command::new("flock")
            .arg(&path)
            .args(["sleep", "30"])
            .process_group(0)
            .spawn()
            .expect("flock(1) runs");
        // Wait until the holder really has it.
        let probe_deadline = Instant::now() + Duration::from_secs(10);
        while let Ok(probe) = Lock::acquire(&path, Instant::now()) {
            drop(probe);
            assert!(Instant::now() < probe_deadline, "flock never took the lock");
            std::thread::sleep(Duration::from_millis(20));
        }
        let err = Lock::acquire(&path, Instant::now() + Duration::from_millis(300))
            .err()
            .expect("the lock is held");
        unsafe { libc::kill(-(holder.id() as i32), libc::SIGKILL) };
        let _ = holder.wait();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        let text = err.to_string();
        assert!(text.contains("audit.lock"), "{text}");
        assert!(text.contains("held by pid"), "{text}");
        // Released: it can be taken again.
        Lock::acquire(&path, Instant::now() + Duration::from_secs(5)).unwrap();
    }

    #[test]
    fn a_free_lock_is_taken_and_released() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("d").join("x.lock");
        let first = Lock::acquire(&path, Instant::now()).unwrap();
        assert!(Lock::acquire(&path, Instant::now()).is_err());
        drop(first);
        Lock::acquire(&path, Instant::now()).unwrap();
    }
}
