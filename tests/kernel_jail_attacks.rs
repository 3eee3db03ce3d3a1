//! Attacks on the jail itself (issue 9), each run for real through `loopgate hook claude`
//! and the client's own shell: what a jailed command leaves behind must not make the
//! unconfined shells around it (the agent's shell after the command, the next command's
//! jail) do what the jail refused.

mod support;

use std::path::{Path, PathBuf};
use support::jail::Sandbox;

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

fn rewritten(ran: &support::jail::Ran) -> String {
    ran.answer["hookSpecificOutput"]["updatedInput"]["command"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The session's temp dir as a jailed command sees it (`$TMPDIR`).
fn session_tmp(sb: &Sandbox) -> PathBuf {
    let ran = sb.attempt("echo \"$TMPDIR\"");
    assert_eq!(ran.code, Some(0), "{}", ran.explain());
    PathBuf::from(ran.stdout.trim_end())
}

#[test]
fn a_link_planted_where_the_clients_shell_writes_next_is_refused() {
    let sb = Sandbox::new(None);
    // Claude Code's shell writes `pwd -P` to a file of the system temp dir right after the
    // command, unconfined; the command can read that name from its own shell. A link
    // planted there would make the client's shell overwrite ~/.bashrc.
    std::fs::write(
        sb.repo.join("plant.sh"),
        "ln -s \"$HOME/.bashrc\" \"$1\" && echo planted\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./plant.sh \"$2\"");
    assert_eq!(ran.decision, "allow", "{}", ran.explain());
    assert!(
        rewritten(&ran).contains("builtin loopgate_jail"),
        "{}",
        ran.explain()
    );
    assert_eq!(
        read(&sb.home.join(".bashrc")),
        "# the user's shell\n",
        "{}",
        ran.explain()
    );
    assert!(!ran.stdout.contains("planted"), "{}", ran.explain());
    assert!(
        ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
    let file = sb.client_cwd_file();
    assert!(
        !std::fs::symlink_metadata(&file)
            .unwrap()
            .file_type()
            .is_symlink(),
        "{}",
        ran.explain()
    );
    assert_eq!(sb.last_cwd(), sb.repo, "{}", ran.explain());
}

#[test]
fn the_session_temp_dir_stays_writable_but_cannot_be_swapped_for_a_link() {
    let sb = Sandbox::new(None);
    let tmp = session_tmp(&sb);
    std::fs::write(
        sb.repo.join("keep.sh"),
        "echo kept > \"$TMPDIR/mine\" && cat \"$TMPDIR/mine\"\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./keep.sh");
    assert_eq!(ran.stdout, "kept\n", "{}", ran.explain());
    // Moved away and replaced by a link to HOME between the gate's check of the dir and the
    // next jail's rule for it, the next command could write all of HOME.
    std::fs::write(
        sb.repo.join("swap.sh"),
        "mv \"$TMPDIR\" \"$TMPDIR.moved\" && ln -s \"$HOME\" \"$TMPDIR\" && echo swapped\n",
    )
    .unwrap();
    let ran = sb.attempt("bash ./swap.sh");
    let moved = PathBuf::from(format!("{}.moved", tmp.display()));
    let swapped = !std::fs::symlink_metadata(&tmp).is_ok_and(|m| m.is_dir());
    if swapped {
        // Put it back for the other tests of this session name before failing.
        let _ = std::fs::remove_file(&tmp);
        let _ = std::fs::rename(&moved, &tmp);
    }
    assert!(!swapped, "{}", ran.explain());
    assert!(!moved.exists(), "{}", ran.explain());
    assert!(!ran.stdout.contains("swapped"), "{}", ran.explain());
    assert!(
        ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
}

#[test]
fn the_shared_system_temp_dir_is_not_writable_to_a_jailed_command() {
    let sb = Sandbox::new(None);
    let target = std::env::temp_dir().join(format!("lg-attack-{}", std::process::id()));
    std::fs::write(
        sb.repo.join("write.sh"),
        "echo x > \"$1\"; echo code=$?; echo y > \"$TMPDIR/ok\" && echo private=$?\n",
    )
    .unwrap();
    let ran = sb.attempt(&format!("bash ./write.sh '{}'", target.display()));
    let created = target.exists();
    let _ = std::fs::remove_file(&target);
    assert!(!created, "{}", ran.explain());
    assert!(ran.stdout.contains("code=1"), "{}", ran.explain());
    assert!(ran.stdout.contains("private=0"), "{}", ran.explain());
    assert!(
        ran.stderr.contains("Permission denied"),
        "{}",
        ran.explain()
    );
}
