//! Properties of the single definition of "inside the write roots".

use proptest::prelude::*;
use sandbox::{is_inside, normalize, write_root_violations};
use std::path::{Path, PathBuf};

fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-c]{1,3}",
        1 => Just(".".to_string()),
        1 => Just("..".to_string()),
        1 => Just("".to_string()), // an empty segment makes a `//`
    ]
}

fn plain_segment() -> impl Strategy<Value = String> {
    "[a-c]{1,3}"
}

fn abs_path(seg: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    prop::collection::vec(seg, 0..6).prop_map(|parts| format!("/{}", parts.join("/")))
}

proptest! {
    #[test]
    fn a_path_below_a_root_is_never_reported(root in abs_path(plain_segment()), rest in abs_path(plain_segment()), other in abs_path(plain_segment())) {
        let path = PathBuf::from(format!("{root}{rest}"));
        let roots = vec![PathBuf::from(other), PathBuf::from(&root)];
        prop_assert!(write_root_violations(&[path], &roots).is_empty());
    }

    #[test]
    fn a_path_outside_every_root_is_always_reported(path in abs_path(segment()), roots in prop::collection::vec(abs_path(segment()), 0..4)) {
        let cwd = Path::new("/");
        let norm = normalize(Path::new(&path), cwd, None);
        let norm_roots: Vec<PathBuf> = roots.iter().map(|r| normalize(Path::new(r), cwd, None)).collect();
        let reported = write_root_violations(&[PathBuf::from(&path)], &roots.iter().map(PathBuf::from).collect::<Vec<_>>());
        if is_inside(&norm, &norm_roots) {
            prop_assert!(reported.is_empty());
        } else {
            prop_assert_eq!(reported, vec![norm]);
        }
    }

    #[test]
    fn a_path_in_a_disjoint_tree_is_always_reported(rest in abs_path(segment()), roots in prop::collection::vec(abs_path(plain_segment()), 0..4)) {
        // Roots live under /r; the path, even with `..` inside its tail, stays under /o.
        let path = PathBuf::from(format!("/o{}", rest.replace("..", "dd")));
        let roots: Vec<PathBuf> = roots.iter().map(|r| PathBuf::from(format!("/r{r}"))).collect();
        let reported = write_root_violations(std::slice::from_ref(&path), &roots);
        prop_assert_eq!(reported, vec![normalize(&path, Path::new("/"), None)]);
    }

    #[test]
    fn no_roots_reports_every_path(paths in prop::collection::vec(abs_path(segment()), 1..5)) {
        let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
        let reported = write_root_violations(&paths, &[]);
        prop_assert!(!reported.is_empty());
        prop_assert!(reported.windows(2).all(|w| w[0] < w[1]), "sorted and unique");
    }

    #[test]
    fn normalize_is_idempotent_and_absolute(path in abs_path(segment()), cwd in abs_path(plain_segment())) {
        let once = normalize(Path::new(&path), Path::new(&cwd), None);
        let twice = normalize(&once, Path::new("/elsewhere"), None);
        prop_assert_eq!(&once, &twice);
        prop_assert!(once.is_absolute());
        prop_assert!(!once.components().any(|c| matches!(c, std::path::Component::ParentDir | std::path::Component::CurDir)));
    }

    #[test]
    fn trailing_and_doubled_slashes_change_nothing(path in abs_path(plain_segment()), root in abs_path(plain_segment())) {
        let base = write_root_violations(&[PathBuf::from(&path)], &[PathBuf::from(&root)]);
        let slashy_path = format!("{}/", path.replace('/', "//"));
        let slashy_root = format!("{}//", root.replace('/', "//"));
        prop_assert_eq!(&base, &write_root_violations(&[PathBuf::from(slashy_path)], &[PathBuf::from(slashy_root)]));
    }

    #[test]
    fn a_sibling_sharing_the_root_as_prefix_is_outside(root in abs_path(plain_segment()), suffix in "[a-c]{1,3}", rest in abs_path(plain_segment())) {
        let sibling = PathBuf::from(format!("{}{suffix}{rest}", if root == "/" { "/x".to_string() } else { root.clone() }));
        let root_path = if root == "/" { PathBuf::from("/x") } else { PathBuf::from(&root) };
        prop_assert_eq!(write_root_violations(std::slice::from_ref(&sibling), &[root_path]), vec![sibling]);
    }
}

#[test]
fn relative_paths_are_taken_from_slash() {
    assert_eq!(
        write_root_violations(&[PathBuf::from("etc/passwd")], &[PathBuf::from("/etc")]),
        Vec::<PathBuf>::new()
    );
    assert_eq!(
        write_root_violations(&[PathBuf::from("repo/x")], &[PathBuf::from("etc")]),
        vec![PathBuf::from("/repo/x")]
    );
}

#[test]
fn resolve_roots_follows_a_symlinked_root_once() {
    let t = tempfile::tempdir().unwrap();
    let real = t.path().join("real");
    std::fs::create_dir(&real).unwrap();
    std::os::unix::fs::symlink(&real, t.path().join("link")).unwrap();
    let roots = sandbox::resolve_roots(&["link".into(), "missing/..//new".into()], t.path(), None);
    let real = std::fs::canonicalize(&real).unwrap();
    assert!(roots.contains(&real), "{roots:?}");
    assert!(roots.contains(&t.path().join("new")), "{roots:?}");
    assert!(write_root_violations(&[real.join("f")], &roots).is_empty());
}
