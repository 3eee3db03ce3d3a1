//! The stored form of a root scan, kept small because sessions store snapshots of large
//! trees: entries are grouped in runs that share a parent directory (so a path prefix is
//! written once per run), each entry is a tuple, and ctime is stored as its distance from
//! mtime (usually 0 or small). Names that are not UTF-8 are stored as byte arrays, exactly.

use crate::snapshot::{Entry, Meta, RootScan, RootStatus};
use serde::{Deserialize, Serialize};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub(crate) enum PathText {
    Text(String),
    Bytes(Vec<u8>),
}

impl From<&Path> for PathText {
    fn from(p: &Path) -> Self {
        match p.to_str() {
            Some(s) => PathText::Text(s.to_owned()),
            None => PathText::Bytes(p.as_os_str().as_bytes().to_vec()),
        }
    }
}

impl PathText {
    fn into_path(self) -> PathBuf {
        match self {
            PathText::Text(s) => PathBuf::from(s),
            PathText::Bytes(b) => PathBuf::from(OsStr::from_bytes(&b)),
        }
    }
}

/// name, size, mtime_ns, ctime_ns - mtime_ns, inode, mode
type EntryTuple = (PathText, u64, i64, i64, u64, u32);

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct RootScanRepr {
    root: PathText,
    status: RootStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    truncated: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unlisted: Vec<PathText>,
    groups: Vec<(PathText, Vec<EntryTuple>)>,
}

fn split(rel: &Path) -> (&Path, &Path) {
    match (rel.parent(), rel.file_name()) {
        (Some(parent), Some(name)) => (parent, Path::new(name)),
        _ => (Path::new(""), Path::new("")),
    }
}

impl From<RootScan> for RootScanRepr {
    fn from(scan: RootScan) -> Self {
        let mut groups: Vec<(PathBuf, Vec<EntryTuple>)> = Vec::new();
        for e in &scan.entries {
            let (parent, name) = split(&e.rel);
            let m = e.meta;
            let tuple = (
                PathText::from(name),
                m.size,
                m.mtime_ns,
                m.ctime_ns.wrapping_sub(m.mtime_ns),
                m.ino,
                m.mode,
            );
            match groups.last_mut() {
                Some((p, run)) if p.as_path() == parent => run.push(tuple),
                _ => groups.push((parent.to_path_buf(), vec![tuple])),
            }
        }
        RootScanRepr {
            root: PathText::from(scan.root.as_path()),
            status: scan.status,
            truncated: scan.truncated,
            unlisted: scan
                .unlisted
                .iter()
                .map(|p| PathText::from(p.as_path()))
                .collect(),
            groups: groups
                .into_iter()
                .map(|(p, run)| (PathText::from(p.as_path()), run))
                .collect(),
        }
    }
}

impl TryFrom<RootScanRepr> for RootScan {
    type Error = String;

    fn try_from(repr: RootScanRepr) -> Result<Self, String> {
        let mut entries = Vec::new();
        for (parent, run) in repr.groups {
            let parent = parent.into_path();
            for (name, size, mtime_ns, ctime_delta, ino, mode) in run {
                let name = name.into_path();
                if name.components().count() > 1 || parent.is_absolute() {
                    return Err(format!(
                        "snapshot entry `{}` is not a plain name",
                        name.display()
                    ));
                }
                let rel = if name.as_os_str().is_empty() {
                    parent.clone()
                } else {
                    parent.join(name)
                };
                let meta = Meta {
                    size,
                    mtime_ns,
                    ctime_ns: mtime_ns.wrapping_add(ctime_delta),
                    ino,
                    mode,
                };
                entries.push(Entry { rel, meta });
            }
        }
        // The diff walks both sides in order; a hand-edited file must not break that.
        if !entries.is_sorted_by(|a, b| a.rel <= b.rel) {
            entries.sort_by(|a, b| a.rel.cmp(&b.rel));
        }
        Ok(RootScan {
            root: repr.root.into_path(),
            status: repr.status,
            entries,
            truncated: repr.truncated,
            unlisted: repr.unlisted.into_iter().map(PathText::into_path).collect(),
        })
    }
}
