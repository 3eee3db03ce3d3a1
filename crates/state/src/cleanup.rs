//! Temp files left behind by a killed writer. Every temp file loopgate makes in its state
//! directory is named `.tmp-<pid>-<random>`, so a later run can tell a dead writer's
//! leftovers from a live writer's file in progress and remove only the former.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Every loopgate temp file's name starts with this.
pub const TEMP_PREFIX: &str = ".tmp-";

/// A temp file younger than this is never touched: its writer may be alive in another pid
/// namespace, where its pid means nothing here.
pub const MIN_AGE: Duration = Duration::from_secs(10);

/// A temp file older than this is stale whoever wrote it: no write takes this long, and a
/// pid may have been reused by an unrelated process (or the name, from an older loopgate,
/// carries none).
pub const MAX_AGE: Duration = Duration::from_secs(60 * 60);

/// How deep below the state directory to look (`receipts/history`, `budget`, ...).
const MAX_DEPTH: usize = 3;

/// The prefix for a temp file made by this process: `.tmp-<pid>-`.
pub fn temp_prefix() -> String {
    format!("{TEMP_PREFIX}{}-", std::process::id())
}

/// The writer's pid a temp file name carries, if it is one of ours and has one.
pub fn writer_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(TEMP_PREFIX)?;
    let (pid, random) = rest.split_once('-')?;
    if random.is_empty() || pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether the temp file `name`, last modified `age` ago, is a dead writer's leftover.
/// `alive` answers whether a pid is running.
pub fn is_stale(name: &str, age: Duration, alive: impl Fn(u32) -> bool) -> bool {
    if !name.starts_with(TEMP_PREFIX) || age < MIN_AGE {
        return false;
    }
    if age >= MAX_AGE {
        return true;
    }
    match writer_pid(name) {
        Some(pid) => !alive(pid),
        None => false,
    }
}

/// Whether a process with this pid exists here. Unsure (no `/proc`) counts as alive.
fn process_alive(pid: u32) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Remove the stale temp files (see [`is_stale`]) in `state_dir` and the directories below
/// it. Returns how many went. Best effort: anything unreadable is left alone; symlinks are
/// never followed. Costs one `readdir` per state subdirectory.
pub fn remove_stale_temps(state_dir: &Path) -> usize {
    remove_in(state_dir, MAX_DEPTH, SystemTime::now())
}

fn remove_in(dir: &Path, depth: usize, now: SystemTime) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if depth > 0 {
                removed += remove_in(&entry.path(), depth - 1, now);
            }
            continue;
        }
        if !kind.is_file() {
            continue;
        }
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if !name.starts_with(TEMP_PREFIX) {
            continue;
        }
        let age = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .unwrap_or(Duration::ZERO);
        if is_stale(name, age, process_alive) && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: Duration = Duration::from_secs(30);

    #[test]
    fn names_carry_the_writer_pid() {
        assert_eq!(writer_pid(".tmp-123-abcDEF"), Some(123));
        assert_eq!(writer_pid(".tmp-abcDEF"), None);
        assert_eq!(writer_pid(".tmp-12x-abc"), None);
        assert_eq!(writer_pid(".tmp-12-"), None);
        assert_eq!(writer_pid("latest.json"), None);
        assert!(temp_prefix().starts_with(&format!(".tmp-{}-", std::process::id())));
    }

    #[test]
    fn only_a_dead_writers_file_or_a_very_old_one_is_stale() {
        let dead = |_| false;
        let alive = |_| true;
        assert!(is_stale(".tmp-7-abc", OLD, dead));
        assert!(!is_stale(".tmp-7-abc", OLD, alive), "a live writer's file");
        assert!(
            !is_stale(".tmp-7-abc", Duration::from_secs(1), dead),
            "too young to judge"
        );
        assert!(is_stale(".tmp-7-abc", MAX_AGE, alive), "pid reused");
        assert!(
            !is_stale(".tmp-legacy", OLD, dead),
            "no pid: age alone decides"
        );
        assert!(is_stale(".tmp-legacy", MAX_AGE, dead));
        assert!(!is_stale("audit.ndjson", MAX_AGE, dead), "not ours");
    }

    #[test]
    fn removes_dead_writers_files_in_subdirectories_only() {
        let tmp = tempfile::tempdir().unwrap();
        let sub = tmp.path().join("receipts");
        fs::create_dir(&sub).unwrap();
        let dead = sub.join(".tmp-4194304999-x");
        let mine = sub.join(format!("{}x", temp_prefix()));
        let other = sub.join("latest.json");
        for p in [&dead, &mine, &other] {
            fs::write(p, b"{}").unwrap();
        }
        let later = SystemTime::now() + OLD;
        assert_eq!(remove_in(tmp.path(), MAX_DEPTH, later), 1);
        assert!(!dead.exists());
        assert!(mine.exists() && other.exists());
    }
}
