//! Red-team attacks on the index: `.git/index` is an ordinary file the agent can write (a
//! script; the tool gate refuses `git update-index` spelled out, not a program that writes
//! the bytes), and both git's status and loopgate's own comparison of tracked files trust
//! its stat cache. Real git repositories, the real binary, the real hook protocol; the
//! index is rewritten here the way such a script would, byte by byte.

mod support;

use std::os::unix::fs::MetadataExt;
use std::process::{Command, Stdio};
use support::repo::{TestRepo, LOOPGATE};
use support::stops::{loopgate, start, stop, stop_decision, text};

/// The check fails while any test file says FAIL: emptying the failing test makes it
/// pass, so only the guards stand between the agent and a green stop.
const CHECKED: &str =
    "version = 1\n[[check]]\nname = \"t\"\nrun = \"sh t.sh\"\nshell = true\n[gate]\nmax_bounces = 3\n";
const RUNNER: &str = "! grep -l FAIL tests/*.test.js\n";
const GOOD_TEST: &str = "test('a', () => {});\n";
const FAILING_TEST: &str = "test('b', () => { throw 'FAIL' });\n";
/// Past every session these tests start: where the agent puts an edited file's mtime back.
const LONG_AGO: &str = "@1700000000";

fn repo(b_test: &str, filler: usize) -> TestRepo {
    let r = TestRepo::with_files(&[
        ("loopgate.toml", CHECKED),
        ("t.sh", RUNNER),
        ("tests/a.test.js", GOOD_TEST),
        ("tests/b.test.js", b_test),
    ]);
    if filler > 0 {
        for i in 0..filler {
            r.write(
                &format!("src/m{}/f{i}.js", i / 100),
                &format!("exports.v = {i};\n"),
            );
        }
        r.git(&["add", "-A"]);
        r.git(&["commit", "-qm", "filler"]);
    }
    // The layout the forging script below reads (git writes version 3 only for flags).
    r.git(&["update-index", "--index-version", "2"]);
    r
}

fn touch_back(r: &TestRepo, path: &str) {
    let ok = Command::new("touch")
        .args(["-d", LONG_AGO, path])
        .current_dir(r.path())
        .status()
        .expect("touch runs");
    assert!(ok.success());
}

/// SHA-1 of `bytes`, by coreutils: the index's trailing checksum.
fn sha1(bytes: &[u8]) -> [u8; 20] {
    use std::io::Write;
    let mut child = Command::new("sha1sum")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("sha1sum runs");
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    let hex = String::from_utf8(out.stdout).unwrap();
    let mut sum = [0u8; 20];
    for (i, byte) in sum.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
    }
    sum
}

/// What the agent's script does: the index entry of `path` gets the file's stat data as
/// it is now (ctime, mtime, dev, ino, uid, gid, size from `lstat`; the mode git recorded
/// is already the file's) and keeps its old blob id; the checksum is recomputed, so git
/// reads the index without complaint.
fn forge_entry(r: &TestRepo, path: &str) {
    let index_path = r.file(".git/index");
    let mut index = std::fs::read(&index_path).unwrap();
    let word = |bytes: &[u8], at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(&index[..4], b"DIRC");
    assert_eq!(word(&index, 4), 2, "an index of version 2");
    let meta = std::fs::symlink_metadata(r.file(path)).unwrap();
    let stat = [
        (0, meta.ctime() as u32),
        (4, meta.ctime_nsec() as u32),
        (8, meta.mtime() as u32),
        (12, meta.mtime_nsec() as u32),
        (16, meta.dev() as u32),
        (20, meta.ino() as u32),
        (28, meta.uid()),
        (32, meta.gid()),
        (36, meta.size() as u32),
    ];
    let mut at = 12;
    let mut forged = false;
    for _ in 0..word(&index, 8) {
        let flags = u16::from_be_bytes(index[at + 60..at + 62].try_into().unwrap());
        let len = usize::from(flags & 0x0fff);
        if &index[at + 62..at + 62 + len] == path.as_bytes() {
            for (offset, value) in stat {
                index[at + offset..at + offset + 4].copy_from_slice(&value.to_be_bytes());
            }
            forged = true;
        }
        at += (62 + len + 8) & !7;
    }
    assert!(forged, "{path} has an entry");
    let body = index.len() - 20;
    let sum = sha1(&index[..body]);
    index[body..].copy_from_slice(&sum);
    std::fs::write(&index_path, &index).unwrap();
}

/// The attack's edit: the failing test emptied, its mtime put back (so no racy-entry rule
/// reads it: the index is written later), the index entry forged over it.
fn empty_the_failing_test_unseen(r: &TestRepo) {
    r.write("tests/b.test.js", "\n");
    touch_back(r, "tests/b.test.js");
    forge_entry(r, "tests/b.test.js");
    assert_eq!(r.git(&["status", "--porcelain"]), "", "git looks");
}

fn assert_blocked(r: &TestRepo, session: &str) {
    let out = stop(r, session);
    assert_eq!(out.code, 0, "{}", out.explain());
    assert_eq!(stop_decision(&out), "block", "{}", out.explain());
    let reason = out.json()["reason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        reason.contains("deleted_tests") && reason.contains("tests/b.test.js"),
        "{reason}"
    );
}

fn assert_fails_deleted_tests(r: &TestRepo, args: &[&str]) {
    let out = loopgate(r, args);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(3), "{args:?}: {said}");
    assert!(
        said.contains("guard deleted_tests: fail") && said.contains("tests/b.test.js"),
        "{args:?}: {said}"
    );
}

/// Attack (an index written by hand, small tree: the `git status` path): in a session the
/// agent empties the failing test, puts the file's mtime back and has a script rewrite
/// the test's index entry with the file's new stat data and its old blob id. git's status
/// trusts the stat cache and reads a clean tree; so did loopgate's nanosecond check (every
/// field matched): the check went green and the Stop hook ALLOWED the stop, and
/// `check --session` PASSED. The file's ctime, which no unprivileged process can put
/// back, is newer than the session's start: the file is hashed and read as changed.
#[test]
fn an_index_written_by_hand_hides_no_edit_from_a_session() {
    let r = repo(FAILING_TEST, 0);
    start(&r, "s-forged");
    empty_the_failing_test_unseen(&r);
    assert_blocked(&r, "s-forged");
    assert_fails_deleted_tests(&r, &["check", "--session", "s-forged"]);
}

/// The same attack on a tree of more than 3,000 entries, where loopgate compares the
/// tracked files with the index itself (crates/gate/src/git/tracked.rs); the bare
/// `check` after a bare `loopgate baseline` is anchored at that baseline.
#[test]
fn an_index_written_by_hand_hides_no_edit_in_a_large_tree() {
    let r = repo(FAILING_TEST, 3_100);
    let out = loopgate(&r, &["baseline"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    start(&r, "s-forged-large");
    empty_the_failing_test_unseen(&r);
    assert_blocked(&r, "s-forged-large");
    assert_fails_deleted_tests(&r, &["check"]);
    assert_fails_deleted_tests(&r, &["check", "--session", "s-forged-large"]);
}

/// Lookalike: files rewritten in a session with the content they had (a formatter that
/// changed nothing, a checkout), their index entries refreshed by the same script, carry a
/// new ctime too: hashed, they match their blobs and the green tree stays green, on both
/// paths.
#[test]
fn a_file_rewritten_unchanged_under_a_forged_entry_is_no_finding() {
    for filler in [0, 3_100] {
        let r = repo(GOOD_TEST, filler);
        start(&r, "s-same");
        r.write("tests/b.test.js", GOOD_TEST);
        r.write("t.sh", RUNNER);
        for path in ["tests/b.test.js", "t.sh"] {
            touch_back(&r, path);
            forge_entry(&r, path);
        }
        assert_eq!(r.git(&["status", "--porcelain"]), "", "git looks");
        let out = stop(&r, "s-same");
        assert_eq!(out.code, 0, "{filler}: {}", out.explain());
        assert_eq!(stop_decision(&out), "allow", "{filler}: {}", out.explain());
        let out = loopgate(&r, &["check", "--session", "s-same"]);
        assert_eq!(out.status.code(), Some(0), "{filler}: {}", text(&out));
    }
}

/// The same attack by an agent under `loopgate run`: its start is the moment before the
/// run records its baseline, held by the supervisor (the agent cannot reach it). The
/// agent empties the test and puts its mtime back, then waits while the forging script
/// (played here by the test) rewrites the index; the run's own check then judges the tree.
#[test]
fn an_index_written_by_hand_hides_no_edit_from_loopgate_run() {
    let r = repo(FAILING_TEST, 0);
    let forged = r.home().join("forged");
    let agent = format!(
        "printf '\\n' > tests/b.test.js && touch -d {LONG_AGO} tests/b.test.js && \
         i=0; while [ ! -e '{}' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done",
        forged.display()
    );
    let child = Command::new(LOOPGATE)
        .args(["run", "--", "sh", "-c", &agent])
        .current_dir(r.path())
        .env("HOME", r.home())
        .env("NO_COLOR", "1")
        .env_remove("LOOPGATE_STATE_HOME")
        .env_remove("LOOPGATE_SESSION")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("loopgate runs");
    let edited = || {
        std::fs::symlink_metadata(r.file("tests/b.test.js"))
            .is_ok_and(|m| m.mtime() == 1_700_000_000)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !edited() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(edited(), "the agent edited within the 30 s deadline");
    forge_entry(&r, "tests/b.test.js");
    assert_eq!(r.git(&["status", "--porcelain"]), "", "git looks");
    std::fs::write(&forged, "").unwrap();
    let out = child.wait_with_output().unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(3), "{said}");
    assert!(
        said.contains("guard deleted_tests: fail") && said.contains("tests/b.test.js"),
        "{said}"
    );
}
