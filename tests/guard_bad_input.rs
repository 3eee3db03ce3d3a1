//! Files the guards cannot simply read, end to end (the built binary, real git
//! repositories): a binary, gigantic or non-UTF-8 file, a submodule, a link out of the
//! repository, a Git LFS pointer. Each gets a defined answer: a note in the receipt's
//! `skipped_files` (and a finding where the change is still visible), never a crash and
//! never a silent pass.

mod gitrepo;

use gitrepo::{git, guard, json, stderr, stdout, Repo};
use std::time::{Duration, Instant};

/// `check --guards-only --json`: the exit code and the receipt. Never a crash: exit 0 or
/// 3, answered within a generous deadline.
fn check(repo: &Repo) -> (i32, serde_json::Value) {
    let started = Instant::now();
    let out = repo
        .loopgate()
        .args(["check", "--guards-only", "--json"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "no answer within the deadline"
    );
    let code = out.status.code().unwrap_or(-1);
    assert!(
        matches!(code, 0 | 3),
        "exit {code}: {}{}",
        stdout(&out),
        stderr(&out)
    );
    (code, json(&out))
}

/// `(path, why, side)` of every skipped file in the receipt.
fn skipped(r: &serde_json::Value) -> Vec<(String, String, String)> {
    r["skipped_files"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    assert!(!f["note"].as_str().unwrap_or("").is_empty(), "{f}");
                    (
                        f["path"].as_str().unwrap().to_string(),
                        f["why"].as_str().unwrap().to_string(),
                        f["side"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn entry(path: &str, why: &str, side: &str) -> (String, String, String) {
    (path.into(), why.into(), side.into())
}

fn messages(r: &serde_json::Value, name: &str) -> Vec<String> {
    guard(r, name)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {}", f["path"], f["message"]))
        .collect()
}

fn write_bytes(repo: &Repo, rel: &str, bytes: &[u8]) {
    let path = repo.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

const TWO_TESTS: &str = "def test_a():\n    pass\n\ndef test_b():\n    pass\n";

#[test]
fn a_binary_file_with_an_added_skip_is_noted_not_passed_silently() {
    let repo = Repo::with(&[("tests/helpers.py", "def helper():\n    return 1\n")]);
    write_bytes(
        &repo,
        "tests/helpers.py",
        b"import pytest\n@pytest.mark.skip\ndef helper():\n    return 1\n\0\xff",
    );
    // An image is binary by nature: no note for it.
    write_bytes(&repo, "assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0\xff");
    let (_, r) = check(&repo);
    assert_eq!(
        skipped(&r),
        vec![entry("tests/helpers.py", "binary", "now")],
        "{r}"
    );
}

#[test]
fn a_test_file_that_turns_binary_fails_deleted_tests_and_is_noted() {
    let repo = Repo::with(&[("tests/test_a.py", TWO_TESTS)]);
    write_bytes(&repo, "tests/test_a.py", b"\0\x01\x02\xff");
    let (code, r) = check(&repo);
    assert_eq!(code, 3, "{r}");
    let deleted = messages(&r, "deleted_tests");
    assert!(
        deleted.len() == 1 && deleted[0].contains("can no longer be read as text"),
        "{deleted:?}"
    );
    assert_eq!(skipped(&r), vec![entry("tests/test_a.py", "binary", "now")]);
}

#[test]
fn a_gigantic_file_is_skipped_with_a_note() {
    let pad = "# padding line\n".repeat(80_000);
    let big = format!("{TWO_TESTS}{pad}");
    let repo = Repo::with(&[("tests/test_big.py", &big)]);
    repo.write("tests/test_big.py", &format!("import pytest\n{big}"));
    let (_, r) = check(&repo);
    assert_eq!(
        skipped(&r),
        vec![entry("tests/test_big.py", "too_large", "now")],
        "{r}"
    );
    let note = r["skipped_files"][0]["note"].as_str().unwrap();
    assert!(note.contains("1024 KiB"), "{note}");
}

#[test]
fn a_non_utf8_test_file_is_still_judged_and_noted() {
    let latin1 = b"# caf\xe9\ndef test_a():\n    pass\n\ndef test_b():\n    pass\n";
    let repo = Repo::empty();
    write_bytes(&repo, "tests/test_l1.py", latin1);
    repo.commit("latin-1 tests");

    // A test removed: caught, although neither side is UTF-8.
    write_bytes(
        &repo,
        "tests/test_l1.py",
        b"# caf\xe9\ndef test_a():\n    pass\n",
    );
    let (code, r) = check(&repo);
    assert_eq!(code, 3, "{r}");
    let deleted = messages(&r, "deleted_tests");
    assert!(
        deleted.len() == 1 && deleted[0].contains("dropped from 2 to 1"),
        "{deleted:?}"
    );
    assert_eq!(
        skipped(&r),
        vec![entry("tests/test_l1.py", "not_utf8", "now")]
    );

    // A skip added: caught too.
    write_bytes(
        &repo,
        "tests/test_l1.py",
        b"# caf\xe9\nimport pytest\n@pytest.mark.skip\ndef test_a():\n    pass\n\ndef test_b():\n    pass\n",
    );
    let (code, r) = check(&repo);
    assert_eq!(code, 3, "{r}");
    assert_eq!(messages(&r, "new_skips").len(), 1, "{r}");
}

#[test]
fn a_submodule_is_noted_as_not_inspected() {
    let sub = Repo::with(&[("test_a.py", "def test_a():\n    pass\n")]);
    let repo = Repo::with(&[("README.md", "x\n")]);
    let url = sub.path().to_str().unwrap();
    git(
        repo.path(),
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            url,
            "vendor/sub",
        ],
    );
    repo.commit("add submodule");
    // Inside the submodule, a skip is committed: the superproject sees a moved gitlink.
    let inner = repo.join("vendor/sub");
    std::fs::write(
        inner.join("test_a.py"),
        "import pytest\n@pytest.mark.skip\ndef test_a():\n    pass\n",
    )
    .unwrap();
    git(&inner, &["add", "-A"]);
    git(&inner, &["commit", "-q", "-m", "skip"]);
    let (_, r) = check(&repo);
    assert_eq!(
        skipped(&r),
        vec![entry("vendor/sub", "submodule", "now")],
        "{r}"
    );
}

#[test]
fn a_link_out_of_the_repository_is_not_followed() {
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("t.py");
    std::fs::write(
        &target,
        "import pytest\n@pytest.mark.skip\ndef test_a():\n    pass\n\ndef test_b():\n    pass\n",
    )
    .unwrap();
    let repo = Repo::with(&[("tests/test_s.py", TWO_TESTS)]);

    // A test file replaced by a link out of the repository: its tests are gone from it.
    repo.remove("tests/test_s.py");
    std::os::unix::fs::symlink(&target, repo.join("tests/test_s.py")).unwrap();
    let (code, r) = check(&repo);
    assert_eq!(code, 3, "{r}");
    assert_eq!(messages(&r, "deleted_tests").len(), 1, "{r}");
    assert_eq!(
        skipped(&r),
        vec![entry("tests/test_s.py", "outside_link", "now")]
    );

    // A new link out, and a dangling one: noted, not read.
    repo.remove("tests/test_s.py");
    git(repo.path(), &["checkout", "-q", "tests/test_s.py"]);
    std::os::unix::fs::symlink(&target, repo.join("tests/test_new.py")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/x.py", repo.join("tests/test_gone.py")).unwrap();
    let (_, r) = check(&repo);
    assert_eq!(
        skipped(&r),
        vec![
            entry("tests/test_gone.py", "outside_link", "now"),
            entry("tests/test_new.py", "outside_link", "now"),
        ],
        "{r}"
    );
    assert!(messages(&r, "new_skips").is_empty(), "{r}");

    // A link that stays inside the repository is read as the file it points to.
    repo.remove("tests/test_new.py");
    repo.remove("tests/test_gone.py");
    repo.write(
        "tests/real_skip.py",
        "import pytest\n@pytest.mark.skip\ndef test_c():\n    pass\n",
    );
    std::os::unix::fs::symlink("real_skip.py", repo.join("tests/test_inside.py")).unwrap();
    let (code, r) = check(&repo);
    assert_eq!(code, 3, "{r}");
    assert!(skipped(&r).is_empty(), "{r}");
    assert_eq!(messages(&r, "new_skips").len(), 2, "{r}");
}

#[test]
fn an_lfs_pointer_is_noted() {
    let pointer = |oid: &str| {
        format!("version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize 123\n")
    };
    let repo = Repo::with(&[("tests/test_data.py", &pointer(&"a".repeat(64)))]);
    repo.write("tests/test_data.py", &pointer(&"b".repeat(64)));
    let (code, r) = check(&repo);
    assert_eq!(code, 0, "{r}");
    assert_eq!(
        skipped(&r),
        vec![entry("tests/test_data.py", "lfs_pointer", "now")],
        "{r}"
    );
}

#[test]
fn the_notes_show_in_the_terminal_and_markdown_receipts() {
    let repo = Repo::with(&[("tests/helpers.py", "def helper():\n    return 1\n")]);
    write_bytes(&repo, "tests/helpers.py", b"\0\xff");
    let out = repo
        .loopgate()
        .args(["check", "--guards-only"])
        .output()
        .unwrap();
    let text = stdout(&out);
    assert!(
        text.contains("the guards could not fully read 1 changed file")
            && text.contains("tests/helpers.py: is binary"),
        "{text}"
    );
    let md = repo.loopgate().args(["receipt", "--md"]).output().unwrap();
    let md = stdout(&md);
    assert!(
        md.contains("#### Files the guards could not fully read")
            && md.contains("- `tests/helpers.py`: is binary"),
        "{md}"
    );
}
