//! `.loopgate/quarantine.json`: the record of write escapes that blocks every later `check`
//! until a human releases it. A file that cannot be read counts as quarantined (fail closed).
//!
//! A release is one atomic rename: the file is replaced by one without the released
//! records and with a `pending` note naming what still has to follow (the acknowledged
//! snapshot of the watch roots, written before the rename, becoming the reference of the
//! older baselines; the audit line). Whoever finds the note carries it out ([`settle`]),
//! so a release killed at any point is either not done at all or done.

use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

pub const FILE_NAME: &str = "quarantine.json";
const LOCK_NAME: &str = "quarantine.lock";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub id: String,
    /// RFC 3339, UTC.
    pub time: String,
    pub session: String,
    pub paths: Vec<PathBuf>,
    /// What raised it, e.g. `write_escape`.
    pub source: String,
}

/// A committed release whose consequences are not all carried out yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    /// The records released (empty when a corrupt file was cleared).
    pub released: Vec<Record>,
    /// RFC 3339, UTC: baselines created before this take the acknowledged snapshot.
    pub time: String,
    /// File name, in the state directory, of the acknowledged snapshot of the watch roots
    /// (`None` when there was nothing to snapshot).
    pub snapshot: Option<String>,
    /// A corrupt quarantine file was cleared by this release.
    #[serde(default)]
    pub cleared_corrupt: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    records: Vec<Record>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pending: Option<Pending>,
}

#[derive(Debug, thiserror::Error)]
pub enum QuarantineError {
    #[error("{path}: the quarantine file is corrupt ({message}); the repository stays quarantined. Inspect it, then run `loopgate quarantine release` to clear every quarantine, or fix the JSON by hand")]
    Corrupt { path: PathBuf, message: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no quarantine has the id `{0}`; `loopgate quarantine list` shows the ids")]
    UnknownId(String),
}

pub fn path(state_dir: &Path) -> PathBuf {
    state_dir.join(FILE_NAME)
}

fn read(state_dir: &Path) -> Result<File, QuarantineError> {
    let p = path(state_dir);
    match state::read_json::<File>(&p) {
        Ok(f) => Ok(f),
        Err(state::ReadError::Missing) => Ok(File {
            version: 1,
            ..File::default()
        }),
        Err(state::ReadError::Corrupt(message)) => {
            Err(QuarantineError::Corrupt { path: p, message })
        }
        Err(state::ReadError::Io(source)) => Err(QuarantineError::Io { path: p, source }),
    }
}

fn write(state_dir: &Path, file: &File) -> Result<(), QuarantineError> {
    let p = path(state_dir);
    state::write_json(&p, file).map_err(|source| QuarantineError::Io { path: p, source })
}

fn lock(state_dir: &Path) -> Result<state::Lock, QuarantineError> {
    let p = state_dir.join(LOCK_NAME);
    state::Lock::acquire(&p, state::deadline::for_lock())
        .map_err(|source| QuarantineError::Io { path: p, source })
}

/// Record a write escape of `paths` by `session`.
pub fn record(
    state_dir: &Path,
    session: &str,
    paths: &[PathBuf],
) -> Result<Record, QuarantineError> {
    record_from(state_dir, session, paths, "write_escape")
}

/// Record a quarantine raised by `source`. A corrupt file is kept aside (renamed with a
/// `.corrupt` suffix) rather than lost, and the new record starts a fresh file.
pub fn record_from(
    state_dir: &Path,
    session: &str,
    paths: &[PathBuf],
    source: &str,
) -> Result<Record, QuarantineError> {
    let _lock = lock(state_dir)?;
    let mut file = match read(state_dir) {
        Ok(f) => f,
        Err(QuarantineError::Corrupt { path, .. }) => {
            let aside = path.with_extension("json.corrupt");
            std::fs::rename(&path, &aside)
                .map_err(|source| QuarantineError::Io { path, source })?;
            File {
                version: 1,
                ..File::default()
            }
        }
        Err(e) => return Err(e),
    };
    let now = jiff::Timestamp::now();
    let mut paths = paths.to_vec();
    paths.sort();
    paths.dedup();
    let rec = Record {
        id: new_id(&now, session, &paths, &file.records),
        time: now.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
        session: session.to_string(),
        paths,
        source: source.to_string(),
    };
    file.version = 1;
    file.records.push(rec.clone());
    write(state_dir, &file)?;
    Ok(rec)
}

fn new_id(now: &jiff::Timestamp, session: &str, paths: &[PathBuf], existing: &[Record]) -> String {
    let mut salt: u64 = 0;
    loop {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (
            now.as_nanosecond(),
            session,
            paths,
            std::process::id(),
            salt,
        )
            .hash(&mut h);
        let id = format!("q{:08x}", h.finish() as u32);
        if !existing.iter().any(|r| r.id == id) {
            return id;
        }
        salt += 1;
    }
}

/// Every active quarantine, oldest first.
pub fn list(state_dir: &Path) -> Result<Vec<Record>, QuarantineError> {
    Ok(read(state_dir)?.records)
}

/// Release one quarantine, or all with `None`, and return what was released, carrying
/// nothing further out (no snapshot to acknowledge). Releasing all also clears a corrupt
/// file (it is a human's explicit decision).
pub fn release(state_dir: &Path, id: Option<&str>) -> Result<Vec<Record>, QuarantineError> {
    let released = release_with(state_dir, id, |_| Ok(None))?;
    settle(state_dir, |_| Ok(()))?;
    Ok(released)
}

/// Release one quarantine, or all with `None`, in one committed step. Under the lock:
/// `acknowledge` is called with the records about to be released (before anything
/// changes) and returns the file name of the snapshot it wrote, then the quarantine file
/// is replaced by one without them and with a [`Pending`] note. Call [`settle`] after.
/// Returns the released records (empty: nothing to release, nothing written).
pub fn release_with(
    state_dir: &Path,
    id: Option<&str>,
    acknowledge: impl FnOnce(&[Record]) -> Result<Option<String>, QuarantineError>,
) -> Result<Vec<Record>, QuarantineError> {
    let _lock = lock(state_dir)?;
    let (mut file, cleared_corrupt) = match (read(state_dir), id) {
        (Ok(f), _) => (f, false),
        (Err(QuarantineError::Corrupt { .. }), None) => (
            File {
                version: 1,
                ..File::default()
            },
            true,
        ),
        (Err(e), _) => return Err(e),
    };
    let released: Vec<Record> = match id {
        None => std::mem::take(&mut file.records),
        Some(id) => {
            let Some(pos) = file.records.iter().position(|r| r.id == id) else {
                return Err(QuarantineError::UnknownId(id.to_string()));
            };
            vec![file.records.remove(pos)]
        }
    };
    if released.is_empty() && !cleared_corrupt {
        return Ok(released);
    }
    let keep = file.pending.as_ref().and_then(|p| p.snapshot.clone());
    remove_orphan_snapshots(state_dir, keep.as_deref());
    let snapshot = acknowledge(&released)?;
    state::crash::crash_point("release:snapshot-written");
    // An earlier release not yet settled is folded in: the newer snapshot supersedes its.
    let mut all = file
        .pending
        .take()
        .map(|p| {
            remove_snapshot(state_dir, p.snapshot.as_deref());
            p.released
        })
        .unwrap_or_default();
    all.extend(released.iter().cloned());
    file.version = 1;
    file.pending = Some(Pending {
        released: all,
        time: jiff::Timestamp::now().to_string(),
        snapshot,
        cleared_corrupt,
    });
    write(state_dir, &file)?;
    state::crash::crash_point("release:committed");
    Ok(released)
}

/// The committed release still to be carried out, if any.
pub fn pending(state_dir: &Path) -> Result<Option<Pending>, QuarantineError> {
    Ok(read(state_dir)?.pending)
}

/// Carry out a committed release: under the lock, `carry_out` is given the [`Pending`]
/// note (it must be idempotent: a crash inside it means it runs again), then the note and
/// its snapshot file are removed. Returns the note carried out, `None` when there was none.
pub fn settle(
    state_dir: &Path,
    carry_out: impl FnOnce(&Pending) -> Result<(), QuarantineError>,
) -> Result<Option<Pending>, QuarantineError> {
    if !path(state_dir).exists() {
        return Ok(None);
    }
    let _lock = lock(state_dir)?;
    let mut file = match read(state_dir) {
        Ok(f) => f,
        // Nothing can be pending in a file that does not parse; it stays quarantined.
        Err(QuarantineError::Corrupt { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let Some(pending) = file.pending.take() else {
        return Ok(None);
    };
    carry_out(&pending)?;
    state::crash::crash_point("release:carried-out");
    write(state_dir, &file)?;
    remove_snapshot(state_dir, pending.snapshot.as_deref());
    Ok(Some(pending))
}

/// Snapshots written by a release killed before its commit: nothing names them.
fn remove_orphan_snapshots(state_dir: &Path, keep: Option<&str>) {
    let Ok(entries) = std::fs::read_dir(state_dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if is_snapshot_name(name) && Some(name) != keep {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn remove_snapshot(state_dir: &Path, name: Option<&str>) {
    if let Some(name) = name.filter(|n| is_snapshot_name(n)) {
        let _ = std::fs::remove_file(state_dir.join(name));
    }
}

/// Acknowledged snapshots live in the state directory as `acknowledged-<id>.json`; any
/// other name in a pending note is not ours to read or remove.
pub fn is_snapshot_name(name: &str) -> bool {
    name.starts_with("acknowledged-")
        && name.ends_with(".json")
        && !name.contains('/')
        && !name.contains("..")
}

/// Why the repository is quarantined, or `None` when it is not. Never an error: a file
/// that cannot be read is a reason.
pub fn is_quarantined(state_dir: &Path) -> Option<String> {
    match read(state_dir) {
        Ok(f) if f.records.is_empty() => None,
        Ok(f) => {
            let paths: usize = f.records.iter().map(|r| r.paths.len()).sum();
            let ids: Vec<&str> = f.records.iter().map(|r| r.id.as_str()).collect();
            Some(format!(
                "quarantined after a write escape ({} record(s): {}; {paths} path(s)); a human must review and run `loopgate quarantine release`",
                f.records.len(),
                ids.join(", ")
            ))
        }
        Err(e) => Some(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let s = t.path().join(".loopgate");
        (t, s)
    }

    #[test]
    fn record_list_release_one_and_all() {
        let (_t, s) = dir();
        assert_eq!(is_quarantined(&s), None);
        let a = record(
            &s,
            "s1",
            &[PathBuf::from("/h/.bashrc"), PathBuf::from("/h/.bashrc")],
        )
        .unwrap();
        let b = record_from(&s, "s2", &[PathBuf::from("/h/.ssh/config")], "manual").unwrap();
        assert_ne!(a.id, b.id);
        assert_eq!(a.paths, vec![PathBuf::from("/h/.bashrc")]);
        assert_eq!(a.source, "write_escape");
        assert_eq!(list(&s).unwrap(), vec![a.clone(), b.clone()]);
        let reason = is_quarantined(&s).unwrap();
        assert!(
            reason.contains(&a.id) && reason.contains("loopgate quarantine release"),
            "{reason}"
        );
        assert_eq!(release(&s, Some(&a.id)).unwrap(), vec![a]);
        assert_eq!(list(&s).unwrap(), vec![b.clone()]);
        assert_eq!(release(&s, None).unwrap(), vec![b]);
        assert_eq!(is_quarantined(&s), None);
    }

    #[test]
    fn unknown_id_is_an_error_naming_it() {
        let (_t, s) = dir();
        record(&s, "s", &[PathBuf::from("/x")]).unwrap();
        let e = release(&s, Some("nope")).unwrap_err();
        assert!(e.to_string().contains("`nope`"), "{e}");
        assert_eq!(list(&s).unwrap().len(), 1);
    }

    #[test]
    fn corrupt_file_fails_closed_and_release_all_clears_it() {
        let (_t, s) = dir();
        std::fs::create_dir_all(&s).unwrap();
        std::fs::write(path(&s), b"{oops").unwrap();
        let reason = is_quarantined(&s).unwrap();
        assert!(
            reason.contains("corrupt") && reason.contains("loopgate quarantine release"),
            "{reason}"
        );
        assert!(matches!(list(&s), Err(QuarantineError::Corrupt { .. })));
        assert!(matches!(
            release(&s, Some("q1")),
            Err(QuarantineError::Corrupt { .. })
        ));
        assert_eq!(release(&s, None).unwrap(), vec![]);
        assert_eq!(is_quarantined(&s), None);
    }

    #[test]
    fn recording_over_a_corrupt_file_keeps_it_aside() {
        let (_t, s) = dir();
        std::fs::create_dir_all(&s).unwrap();
        std::fs::write(path(&s), b"[]").unwrap();
        record(&s, "s", &[PathBuf::from("/x")]).unwrap();
        assert_eq!(
            std::fs::read(s.join("quarantine.json.corrupt")).unwrap(),
            b"[]"
        );
        assert_eq!(list(&s).unwrap().len(), 1);
    }

    #[test]
    fn a_committed_release_is_pending_until_settled_once() {
        let (_t, s) = dir();
        let a = record(&s, "s", &[PathBuf::from("/x")]).unwrap();
        let released = release_with(&s, None, |records| {
            assert_eq!(records, std::slice::from_ref(&a));
            std::fs::write(s.join("acknowledged-1.json"), b"{}").unwrap();
            Ok(Some("acknowledged-1.json".into()))
        })
        .unwrap();
        assert_eq!(released, vec![a.clone()]);
        assert_eq!(is_quarantined(&s), None, "released as soon as committed");
        let pending = pending(&s).unwrap().unwrap();
        assert_eq!(pending.released, vec![a]);
        let mut runs = 0;
        let done = settle(&s, |p| {
            runs += 1;
            assert_eq!(p.snapshot.as_deref(), Some("acknowledged-1.json"));
            Ok(())
        })
        .unwrap();
        assert!(done.is_some());
        assert!(!s.join("acknowledged-1.json").exists());
        assert_eq!(super::pending(&s).unwrap(), None);
        assert!(settle(&s, |_| panic!("nothing left to do"))
            .unwrap()
            .is_none());
        assert_eq!(runs, 1);
    }

    #[test]
    fn a_failed_acknowledgement_releases_nothing() {
        let (_t, s) = dir();
        record(&s, "s", &[PathBuf::from("/x")]).unwrap();
        let err = release_with(&s, None, |_| Err(QuarantineError::UnknownId("boom".into())));
        assert!(err.is_err());
        assert_eq!(list(&s).unwrap().len(), 1);
        assert_eq!(pending(&s).unwrap(), None);
    }

    #[test]
    fn a_failed_settlement_stays_pending() {
        let (_t, s) = dir();
        record(&s, "s", &[PathBuf::from("/x")]).unwrap();
        release_with(&s, None, |_| Ok(None)).unwrap();
        assert!(settle(&s, |_| Err(QuarantineError::UnknownId("io".into()))).is_err());
        assert!(pending(&s).unwrap().is_some(), "carried out next time");
        assert!(settle(&s, |_| Ok(())).unwrap().is_some());
    }
}
