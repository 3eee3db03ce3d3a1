//! Real git repositories in temp dirs for end-to-end tests.
#![allow(dead_code)]

use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub struct Repo {
    pub dir: tempfile::TempDir,
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

impl Repo {
    /// An empty repository on branch `main`, no commits.
    pub fn empty() -> Repo {
        let dir = tempfile::tempdir().expect("temp dir");
        git(dir.path(), &["init", "-q", "-b", "main"]);
        Repo { dir }
    }

    /// A repository with `files` committed on `main`.
    pub fn with(files: &[(&str, &str)]) -> Repo {
        let repo = Repo::empty();
        for (path, body) in files {
            repo.write(path, body);
        }
        repo.commit("initial");
        repo
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn join(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn write(&self, rel: &str, body: &str) {
        let path = self.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, body).unwrap();
    }

    pub fn remove(&self, rel: &str) {
        std::fs::remove_file(self.join(rel)).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.join(rel)).unwrap()
    }

    pub fn git(&self, args: &[&str]) -> String {
        git(self.path(), args)
    }

    pub fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
    }

    /// The loopgate binary, run in this repository with a clean environment.
    pub fn loopgate(&self) -> Command {
        let mut cmd = Command::cargo_bin("loopgate").expect("binary built");
        cmd.current_dir(self.path())
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY")
            .env("NO_COLOR", "1");
        cmd
    }
}

/// A node project whose `npm test` runs node's own test runner on `test/*.test.js`.
pub fn node_project(test_body: &str) -> Repo {
    Repo::with(&[
        (
            "package.json",
            r#"{"name":"demo","version":"1.0.0","scripts":{"test":"node --test test/"}}"#,
        ),
        ("test/math.test.js", test_body),
        ("src/math.js", "exports.add = (a, b) => a + b;\n"),
    ])
}

pub const PASSING_TEST: &str = "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math.js');\n\ntest('adds', () => {\n  assert.strictEqual(add(1, 2), 3);\n});\n\ntest('adds zero', () => {\n  assert.strictEqual(add(0, 2), 2);\n});\n";

pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            stdout(out),
            stderr(out)
        )
    })
}

/// The report of the guard called `name` in a receipt.
pub fn guard<'a>(receipt: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    receipt["guards"]
        .as_array()
        .and_then(|gs| gs.iter().find(|g| g["name"] == name))
        .unwrap_or_else(|| panic!("no guard `{name}` in {receipt}"))
}

/// `loopgate check --guards-only --json ARGS` in `repo`: the exit code and the receipt. Any
/// exit but 0 (pass), 1 (a check failed) or 3 (a guard tripped) fails the test.
pub fn guards_only(repo: &Repo, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = repo
        .loopgate()
        .args(["check", "--guards-only", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1 | 3)),
        "exit {:?}: {}{}",
        out.status.code(),
        stdout(&out),
        stderr(&out)
    );
    (out.status.code(), json(&out))
}

/// The message of every finding of guard `name`.
pub fn messages(receipt: &serde_json::Value, name: &str) -> Vec<String> {
    guard(receipt, name)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect()
}

/// `(path, line)` of every finding of guard `name` (line 0 when it has none).
pub fn lines_of(receipt: &serde_json::Value, name: &str) -> Vec<(String, u64)> {
    guard(receipt, name)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

/// Commit `files` (and a `.gitignore` for loopgate's state), make `change`, and run
/// `verify(exit code, receipt, mode)` on a guards-only check of the change uncommitted
/// (against HEAD) and then committed (`--against HEAD^`, judge mode).
pub fn both_ways(
    files: &[(&str, &str)],
    change: &dyn Fn(&Repo),
    verify: &dyn Fn(Option<i32>, &serde_json::Value, &str),
) {
    let mut all = files.to_vec();
    all.push((".gitignore", ".loopgate/\n"));
    let r = Repo::with(&all);
    change(&r);
    let (code, receipt) = guards_only(&r, &[]);
    verify(code, &receipt, "uncommitted, against HEAD");
    r.commit("the change");
    let (code, receipt) = guards_only(&r, &["--against", "HEAD^"]);
    verify(code, &receipt, "committed, --against HEAD^");
}

/// A change that writes `files` (path, text).
pub fn writing<'a>(files: &'a [(&'a str, &'a str)]) -> impl Fn(&Repo) + 'a {
    move |r| {
        for (path, body) in files {
            r.write(path, body);
        }
    }
}

/// The `deleted_tests` findings as (path, message).
pub fn deleted(receipt: &serde_json::Value) -> Vec<(String, String)> {
    guard(receipt, "deleted_tests")["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub fn assert_no_deleted_tests(code: Option<i32>, receipt: &serde_json::Value, mode: &str) {
    assert_eq!(deleted(receipt), [], "{mode}");
    assert_eq!(code, Some(0), "{mode}: {receipt}");
}

/// One `deleted_tests` finding, file-level on `path`, whose message says `says`; exit 3.
pub fn assert_one_deleted<'a>(
    path: &'a str,
    says: &'a str,
) -> impl Fn(Option<i32>, &serde_json::Value, &str) + 'a {
    move |code, receipt, mode| {
        let found = deleted(receipt);
        assert_eq!(found.len(), 1, "{mode}: {found:?}");
        assert_eq!(found[0].0, path, "{mode}");
        // A file-level finding: no line.
        assert_eq!(
            lines_of(receipt, "deleted_tests"),
            [(path.to_string(), 0)],
            "{mode}"
        );
        assert!(found[0].1.contains(says), "{mode}: {}", found[0].1);
        assert_eq!(code, Some(3), "{mode}");
    }
}

/// A judged change with no `new_skips` finding, and exit 0.
pub fn no_new_skips(code: Option<i32>, receipt: &serde_json::Value, mode: &str) {
    assert_eq!(lines_of(receipt, "new_skips"), vec![], "{mode}: {receipt}");
    assert_eq!(code, Some(0), "{mode}: {receipt}");
}

/// A judged change with no `debug_artifacts` finding (other guards may still fire).
pub fn no_debug_artifacts(_: Option<i32>, receipt: &serde_json::Value, mode: &str) {
    assert_eq!(
        lines_of(receipt, "debug_artifacts"),
        vec![],
        "{mode}: {receipt}"
    );
}

/// A judged change whose `new_skips` findings are exactly `found` (path, line), and exit 3.
pub fn skips_at(
    found: &'static [(&'static str, u64)],
) -> impl Fn(Option<i32>, &serde_json::Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = found.iter().map(|&(p, l)| (p.to_string(), l)).collect();
        assert_eq!(lines_of(receipt, "new_skips"), want, "{mode}: {receipt}");
        assert_eq!(code, Some(3), "{mode}");
    }
}

/// A judged change whose `disabled_lint` findings are exactly `want` (path, line).
pub fn lint_lines(
    want: Vec<(&'static str, u64)>,
) -> impl Fn(Option<i32>, &serde_json::Value, &str) {
    move |_, receipt, mode| {
        let want: Vec<(String, u64)> = want.iter().map(|(p, l)| (p.to_string(), *l)).collect();
        assert_eq!(
            lines_of(receipt, "disabled_lint"),
            want,
            "{mode}: {receipt}"
        );
    }
}

/// As [`lint_lines`], and the exit code says so: 3 with findings, 0 without.
pub fn lint_at(want: Vec<(&'static str, u64)>) -> impl Fn(Option<i32>, &serde_json::Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = want.iter().map(|(p, l)| (p.to_string(), *l)).collect();
        assert_eq!(
            lines_of(receipt, "disabled_lint"),
            want,
            "{mode}: {receipt}"
        );
        let findings = if want.is_empty() { 0 } else { 3 };
        assert_eq!(code, Some(findings), "{mode}: {receipt}");
    }
}
