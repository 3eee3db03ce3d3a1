//! Landlock on this kernel, with real child processes.

use sandbox::confine::{
    apply, landlock_available, prepare, Availability, ConfinePlan, Enforcement,
};
use std::fs;
use std::path::PathBuf;
use std::process::Command;

fn available() -> bool {
    matches!(landlock_available(), Availability::Available { .. })
}

/// Two sibling dirs under a dir this test controls (not the system temp dir).
fn dirs() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let base = fs::canonicalize(t.path()).unwrap();
    let inside = base.join("inside");
    let outside = base.join("outside");
    fs::create_dir(&inside).unwrap();
    fs::create_dir(&outside).unwrap();
    (t, inside, outside)
}

fn sh(script: &str, plan: &ConfinePlan) -> (std::process::Output, sandbox::Prepared) {
    let prepared = prepare(plan).unwrap();
    let mut cmd = Command::new("sh");
    cmd.args(["-c", script]);
    apply(&mut cmd, &prepared);
    (cmd.output().unwrap(), prepared)
}

#[test]
fn writes_land_inside_the_roots_only_and_grandchildren_inherit() {
    if !available() {
        eprintln!("skipped: no Landlock on this kernel");
        return;
    }
    let (_t, inside, outside) = dirs();
    let plan = ConfinePlan {
        write_roots: vec![inside.clone()],
        extra_writable: vec![],
        private_tmp: true,
        scoped: false,
    };
    let script = format!(
        "echo in > {i}/a; echo out > {o}/b; sh -c 'echo deep > {o}/c; echo deep > {i}/d'; echo t > \"$TMPDIR/t\" && echo tmp-ok; echo null > /dev/null && echo null-ok",
        i = inside.display(),
        o = outside.display()
    );
    let (out, prepared) = sh(&script, &plan);
    assert_eq!(prepared.enforcement(), Enforcement::Fully);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        inside.join("a").exists() && inside.join("d").exists(),
        "{stderr}"
    );
    assert!(!outside.join("b").exists(), "the child could write outside");
    assert!(
        !outside.join("c").exists(),
        "the grandchild could write outside"
    );
    assert!(stderr.contains("Permission denied"), "{stderr}");
    assert!(
        stdout.contains("tmp-ok") && stdout.contains("null-ok"),
        "{stdout} {stderr}"
    );
}

#[test]
fn deleting_renaming_and_truncating_outside_are_refused() {
    if !available() {
        return;
    }
    let (_t, inside, outside) = dirs();
    fs::write(outside.join("keep"), "precious").unwrap();
    let plan = ConfinePlan {
        write_roots: vec![inside.clone()],
        ..Default::default()
    };
    let script = format!(
        "rm -f {o}/keep; mv {o}/keep {i}/stolen; truncate -s 0 {o}/keep; mkdir {o}/d; ln -s /etc {o}/l; true",
        i = inside.display(),
        o = outside.display()
    );
    let (out, _p) = sh(&script, &plan);
    assert!(out.status.success());
    assert_eq!(
        fs::read_to_string(outside.join("keep")).unwrap(),
        "precious"
    );
    assert!(!inside.join("stolen").exists());
    assert!(!outside.join("d").exists() && fs::symlink_metadata(outside.join("l")).is_err());
}

#[test]
fn reads_stay_open_everywhere() {
    if !available() {
        return;
    }
    let (_t, inside, outside) = dirs();
    fs::write(outside.join("r"), "readable").unwrap();
    let plan = ConfinePlan {
        write_roots: vec![inside],
        ..Default::default()
    };
    let (out, _p) = sh(
        &format!("cat {}/r; ls / >/dev/null && echo ls-ok", outside.display()),
        &plan,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "readablels-ok\n");
}

#[test]
fn extra_writable_files_are_writable_but_not_their_siblings() {
    if !available() {
        return;
    }
    let (_t, inside, outside) = dirs();
    let state = outside.join("state.json");
    fs::write(&state, "{}").unwrap();
    let plan = ConfinePlan {
        write_roots: vec![inside],
        extra_writable: vec![state.clone()],
        private_tmp: false,
        scoped: false,
    };
    let (_out, p) = sh(
        &format!(
            "echo 1 > {}; echo 2 > {}/other",
            state.display(),
            outside.display()
        ),
        &plan,
    );
    assert_eq!(fs::read_to_string(&state).unwrap(), "1\n");
    assert!(!outside.join("other").exists());
    assert!(p.report().writable.contains(&state));
}

#[test]
fn a_scoped_child_cannot_signal_a_process_outside_its_jail_but_can_its_own() {
    if !matches!(landlock_available(), Availability::Available { abi } if abi >= 6) {
        eprintln!("skipped: no Landlock scopes (ABI 6) on this kernel");
        return;
    }
    let (_t, inside, _) = dirs();
    let mut outsider = Command::new("sleep").arg("30").spawn().unwrap();
    let script = format!(
        "kill -0 {}; echo outside=$?; sleep 30 & kill $!; wait $!; echo own=$?",
        outsider.id()
    );
    let run = |scoped: bool| {
        let plan = ConfinePlan {
            write_roots: vec![inside.clone()],
            scoped,
            ..Default::default()
        };
        let (out, _) = sh(&script, &plan);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (scoped, unscoped) = (run(true), run(false));
    let _ = outsider.kill();
    let _ = outsider.wait();
    assert_eq!(scoped, "outside=1\nown=143\n");
    assert_eq!(unscoped, "outside=0\nown=143\n");
}
