//! How many git processes a guards-only check starts. Each costs milliseconds on a busy
//! machine, more than the work it does, so the old contents a run needs (the config at the
//! comparison point, the old side of every changed file) are read from the object store
//! in-process, with no `git cat-file` at all in a plain repository. A `git` first on PATH
//! logs every subcommand, then runs the real one; the verdicts show the answers still
//! arrived whole.

mod gitrepo;

use gitrepo::{json, Repo};
use std::path::{Path, PathBuf};

/// A `git` that logs its subcommand to `log`, then runs the real git.
fn logging_git(dir: &Path, log: &Path) -> PathBuf {
    let found = std::process::Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    let real = String::from_utf8_lossy(&found.stdout).trim().to_string();
    assert!(!real.is_empty(), "git is on PATH");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("git");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in\n  cat-file|status|diff|diff-files|diff-index|ls-files|rev-parse|for-each-ref|merge-base|config) echo \"$a\" >> '{log}'; break;;\nesac; done\nexec '{real}' \"$@\"\n",
            log = log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn calls(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect()
}

fn project() -> Repo {
    let repo = Repo::with(&[
        (
            "loopgate.toml",
            "version = 1\n[guards]\nnew_todos = \"fail\"\n",
        ),
        (".gitignore", ".loopgate/\n"),
        (
            "test/a.test.js",
            "const test = require('node:test');\ntest('a', () => {});\ntest('b', () => {});\n",
        ),
        ("src/lib.js", "exports.x = 1;\n"),
    ]);
    repo.write(
        "test/a.test.js",
        "const test = require('node:test');\ntest('a', () => {});\ntest.skip('b', () => {});\n",
    );
    repo.write(
        "src/lib.js",
        "exports.x = 1;\nexports.y = 2; // TODO later\n",
    );
    repo
}

fn run(repo: &Repo, args: &[&str], tmp: &Path) -> (serde_json::Value, Vec<String>) {
    let log = tmp.join("git.log");
    let _ = std::fs::remove_file(&log);
    let bin = logging_git(tmp, &log);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = repo
        .loopgate()
        .args(args)
        .env("PATH", path)
        .output()
        .unwrap();
    (json(&out), calls(&log))
}

fn findings(receipt: &serde_json::Value, guard: &str) -> Vec<(String, u64)> {
    receipt["guards"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["name"] == guard)
        .flat_map(|g| g["findings"].as_array().unwrap().clone())
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// With nothing staged the tracked files are compared in-process and HEAD is read from
/// the ref files: git only lists the untracked files, a walk that stats no tracked file.
#[test]
fn a_dirty_tree_is_judged_with_one_untracked_listing_and_no_other_git_process() {
    let repo = project();
    let tmp = tempfile::tempdir().unwrap();
    let (receipt, calls) = run(&repo, &["check", "--guards-only", "--json"], tmp.path());
    assert_eq!(calls, vec!["ls-files"], "git processes started");
    // The committed config was read from the object store (it raises new_todos to fail)...
    assert!(
        receipt["config"]["source"]
            .as_str()
            .is_some_and(|s| s.starts_with("loopgate.toml at ")),
        "{receipt}"
    );
    // ...and so was the old side of each modified file: only the added lines are findings.
    assert_eq!(
        findings(&receipt, "new_skips"),
        vec![("test/a.test.js".into(), 3)]
    );
    assert_eq!(
        findings(&receipt, "new_todos"),
        vec![("src/lib.js".into(), 2)]
    );
}

#[test]
fn judging_against_a_ref_reads_every_blob_without_a_git_process() {
    let repo = project();
    repo.commit("work");
    repo.write("src/more.js", "exports.z = 3;\n");
    let tmp = tempfile::tempdir().unwrap();
    let (receipt, calls) = run(
        &repo,
        &["check", "--guards-only", "--json", "--against", "HEAD~1"],
        tmp.path(),
    );
    let readers = calls.iter().filter(|c| *c == "cat-file").count();
    assert_eq!(readers, 0, "no blob reader process: {calls:?}");
    assert_eq!(
        findings(&receipt, "new_skips"),
        vec![("test/a.test.js".into(), 3)]
    );
    assert_eq!(
        findings(&receipt, "new_todos"),
        vec![("src/lib.js".into(), 2)]
    );
}

/// Staged work in a small tree: one `git status`, which the in-process reading cannot
/// replace with fewer processes; the staged edit and the unstaged one are both judged. The
/// untracked listing started ahead of the walk is given up (killed, so it may not get as
/// far as logging itself).
#[test]
fn a_small_tree_with_staged_work_is_judged_with_one_status() {
    let repo = project();
    repo.git(&["add", "src/lib.js"]);
    let tmp = tempfile::tempdir().unwrap();
    let (receipt, calls) = run(&repo, &["check", "--guards-only", "--json"], tmp.path());
    let listings = calls.iter().filter(|c| *c == "ls-files").count();
    let others: Vec<&String> = calls.iter().filter(|c| *c != "ls-files").collect();
    assert_eq!(others, vec!["status"], "git processes started: {calls:?}");
    assert!(listings <= 1, "git processes started: {calls:?}");
    assert_eq!(
        findings(&receipt, "new_skips"),
        vec![("test/a.test.js".into(), 3)]
    );
    assert_eq!(
        findings(&receipt, "new_todos"),
        vec![("src/lib.js".into(), 2)]
    );
}

/// Every edit staged, so the files on disk match the index and only the staged side shows
/// the work: the index's tree is not HEAD's, so it is never read as "nothing staged".
#[test]
fn staged_work_whose_files_match_the_index_is_still_judged() {
    let repo = project();
    repo.git(&["add", "-A"]);
    let tmp = tempfile::tempdir().unwrap();
    let (receipt, calls) = run(&repo, &["check", "--guards-only", "--json"], tmp.path());
    assert!(!calls.contains(&"diff-index".to_string()), "{calls:?}");
    assert_eq!(
        findings(&receipt, "new_todos"),
        vec![("src/lib.js".into(), 2)]
    );
}
