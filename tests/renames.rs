//! Renames read right in every comparison mode: a pure rename is no change, a test dropped
//! or a skip added in a renamed file still is, and the repository's rename config changes
//! nothing. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{guard, guards_only as check, Repo};

/// A test file with three tests and one skipped test, distinct per `name`.
fn test_file(name: &str) -> String {
    let mut s = String::from(
        "const test = require('node:test');\nconst assert = require('node:assert');\n\n",
    );
    for i in 1..=3 {
        s.push_str(&format!(
            "test('{name} case {i}', () => {{\n  assert.strictEqual({i} + {i}, {});\n}});\n\n",
            2 * i
        ));
    }
    s.push_str(&format!(
        "test.skip('{name} later', () => {{\n  assert.ok('{name}');\n}});\n"
    ));
    s
}

/// The same file with its second test removed.
fn without_second_test(name: &str) -> String {
    let full = test_file(name);
    let cut = format!("test('{name} case 2', () => {{\n  assert.strictEqual(2 + 2, 4);\n}});\n\n");
    assert!(full.contains(&cut));
    full.replace(&cut, "")
}

const NAMES: [&str; 3] = ["alpha", "beta", "gamma"];

/// A repository with `test/unit/{alpha,beta,gamma}.test.js`, each holding a skip already.
/// `hostile_renames` sets git's rename detection to what an agent might configure.
fn repo(hostile_renames: bool) -> Repo {
    let files: Vec<(String, String)> = NAMES
        .iter()
        .map(|n| (format!("test/unit/{n}.test.js"), test_file(n)))
        .collect();
    let mut all: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_str()))
        .collect();
    all.push(("src/lib.js", "exports.x = 1;\n"));
    all.push((".gitignore", ".loopgate/\n"));
    let repo = Repo::with(&all);
    if hostile_renames {
        repo.git(&["config", "diff.renames", "copies"]);
        repo.git(&["config", "status.renames", "true"]);
        repo.git(&["config", "diff.renameLimit", "1"]);
    }
    repo
}

/// Move the directory: every file renamed, content unchanged.
fn rename_dir(repo: &Repo) {
    repo.git(&["mv", "test/unit", "test/spec"]);
}

/// Rename alpha and drop a test from it; rename beta and add a skip to it.
fn rename_and_edit(repo: &Repo) {
    std::fs::create_dir_all(repo.join("test/spec")).unwrap();
    repo.git(&["mv", "test/unit/alpha.test.js", "test/spec/alpha.test.js"]);
    repo.write("test/spec/alpha.test.js", &without_second_test("alpha"));
    repo.git(&["mv", "test/unit/beta.test.js", "test/spec/beta.test.js"]);
    let beta = test_file("beta") + "\ntest.skip('beta new', () => {});\n";
    repo.write("test/spec/beta.test.js", &beta);
}

fn findings(receipt: &serde_json::Value, name: &str) -> Vec<String> {
    guard(receipt, name)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            format!(
                "{}:{} {}",
                f["path"].as_str().unwrap(),
                f["line"],
                f["message"].as_str().unwrap()
            )
        })
        .collect()
}

fn assert_pure_rename_is_no_change(code: Option<i32>, r: &serde_json::Value, mode: &str) {
    assert!(
        findings(r, "new_skips").is_empty() && findings(r, "deleted_tests").is_empty(),
        "{mode}: a pure rename was judged a change: skips {:#?} deleted {:#?}",
        findings(r, "new_skips"),
        findings(r, "deleted_tests")
    );
    assert_eq!(code, Some(0), "{mode}: {r}");
}

fn assert_edits_in_renamed_files_are_seen(code: Option<i32>, r: &serde_json::Value, mode: &str) {
    let deleted = findings(r, "deleted_tests");
    assert_eq!(deleted.len(), 1, "{mode}: {deleted:#?}");
    assert!(
        deleted[0].starts_with("test/spec/alpha.test.js:null")
            && deleted[0].contains("test/spec/alpha.test.js (was test/unit/alpha.test.js)")
            && deleted[0].contains("dropped from 4 to 3"),
        "{mode}: {deleted:#?}"
    );
    let skips = findings(r, "new_skips");
    assert_eq!(
        skips.len(),
        1,
        "{mode}: only the added skip is new: {skips:#?}"
    );
    assert!(
        skips[0].starts_with("test/spec/beta.test.js:")
            && skips[0].contains("(was test/unit/beta.test.js)"),
        "{mode}: {skips:#?}"
    );
    assert_eq!(code, Some(3), "{mode}: a lowered bar is exit 3 (tampered)");
}

fn committed_against_parent(hostile: bool) {
    let mode = format!("--against C^ (hostile config: {hostile})");
    let r = repo(hostile);
    rename_dir(&r);
    r.commit("move the tests");
    let (code, receipt) = check(&r, &["--against", "HEAD^"]);
    assert_pure_rename_is_no_change(code, &receipt, &mode);

    let r = repo(hostile);
    rename_and_edit(&r);
    r.commit("move and edit the tests");
    let (code, receipt) = check(&r, &["--against", "HEAD^"]);
    assert_edits_in_renamed_files_are_seen(code, &receipt, &mode);
}

fn uncommitted(hostile: bool) {
    let mode = format!("working tree vs HEAD (hostile config: {hostile})");
    let r = repo(hostile);
    rename_dir(&r);
    let (code, receipt) = check(&r, &[]);
    assert_eq!(receipt["baseline"]["kind"], "head", "{receipt}");
    assert_pure_rename_is_no_change(code, &receipt, &mode);

    // Plain `mv` (unstaged: a deletion and an untracked file) reads the same.
    let r = repo(hostile);
    std::fs::rename(r.join("test/unit"), r.join("test/spec")).unwrap();
    let (code, receipt) = check(&r, &[]);
    assert_pure_rename_is_no_change(code, &receipt, &format!("{mode}, plain mv"));

    let r = repo(hostile);
    rename_and_edit(&r);
    let (code, receipt) = check(&r, &[]);
    assert_edits_in_renamed_files_are_seen(code, &receipt, &mode);
}

fn session_with_committed_work(hostile: bool) {
    let mode = format!("session baseline, committed work (hostile config: {hostile})");
    let r = repo(hostile);
    r.loopgate()
        .args(["baseline", "--session", "S"])
        .assert()
        .success();
    rename_dir(&r);
    r.commit("move the tests");
    let (code, receipt) = check(&r, &["--session", "S"]);
    assert_eq!(receipt["baseline"]["kind"], "session", "{receipt}");
    assert_pure_rename_is_no_change(code, &receipt, &mode);

    let r = repo(hostile);
    r.loopgate()
        .args(["baseline", "--session", "S"])
        .assert()
        .success();
    rename_and_edit(&r);
    r.commit("move and edit the tests");
    let (code, receipt) = check(&r, &["--session", "S"]);
    assert_edits_in_renamed_files_are_seen(code, &receipt, &mode);
}

fn session_with_uncommitted_work(hostile: bool) {
    let mode = format!("session baseline, uncommitted work (hostile config: {hostile})");
    let r = repo(hostile);
    r.loopgate()
        .args(["baseline", "--session", "S"])
        .assert()
        .success();
    rename_dir(&r);
    let (code, receipt) = check(&r, &["--session", "S"]);
    assert_eq!(receipt["baseline"]["kind"], "session", "{receipt}");
    assert_pure_rename_is_no_change(code, &receipt, &mode);

    let r = repo(hostile);
    r.loopgate()
        .args(["baseline", "--session", "S"])
        .assert()
        .success();
    rename_and_edit(&r);
    let (code, receipt) = check(&r, &["--session", "S"]);
    assert_edits_in_renamed_files_are_seen(code, &receipt, &mode);
}

fn branch_against_merge_base(hostile: bool) {
    let mode = format!("merge-base with main (hostile config: {hostile})");
    let r = repo(hostile);
    r.git(&["switch", "-q", "-c", "feature"]);
    rename_dir(&r);
    r.commit("move the tests");
    let (code, receipt) = check(&r, &[]);
    assert_eq!(receipt["baseline"]["kind"], "merge-base", "{receipt}");
    assert_pure_rename_is_no_change(code, &receipt, &mode);

    let r = repo(hostile);
    r.git(&["switch", "-q", "-c", "feature"]);
    rename_and_edit(&r);
    r.commit("move and edit the tests");
    let (code, receipt) = check(&r, &[]);
    assert_edits_in_renamed_files_are_seen(code, &receipt, &mode);
}

#[test]
fn committed_renames_on_a_branch_against_the_merge_base() {
    branch_against_merge_base(false);
}

#[test]
fn committed_renames_against_an_explicit_ref() {
    committed_against_parent(false);
}

#[test]
fn uncommitted_renames_against_head() {
    uncommitted(false);
}

#[test]
fn committed_renames_in_a_session() {
    session_with_committed_work(false);
}

#[test]
fn uncommitted_renames_in_a_session() {
    session_with_uncommitted_work(false);
}

#[test]
fn the_repository_rename_config_changes_no_answer() {
    committed_against_parent(true);
    uncommitted(true);
    session_with_committed_work(true);
    session_with_uncommitted_work(true);
    branch_against_merge_base(true);
}
