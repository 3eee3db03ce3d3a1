//! `loopgate check`, `baseline`, `status`, `receipt`, `init` end to end: the built binary on
//! real git repositories with real checks (node's own test runner).

mod gitrepo;

use gitrepo::{guard, json, node_project, stderr, stdout, Repo, PASSING_TEST};

const FAILING_TEST: &str = "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../src/math.js');\n\ntest('adds', () => {\n  assert.strictEqual(add(2, 2), 5, 'two and two make five');\n});\n";

#[test]
fn embedded_default_runs_npm_test_and_passes() {
    let repo = node_project(PASSING_TEST);
    let out = repo.loopgate().arg("check").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("check npm-test: pass"),
        "{}",
        stdout(&out)
    );
    let receipt: serde_json::Value =
        serde_json::from_str(&repo.read(".loopgate/receipts/latest.json")).unwrap();
    assert_eq!(receipt["verdict"], "pass");
    assert_eq!(receipt["config"]["source"], "embedded");
    assert_eq!(receipt["checks"][0]["argv"][0][0], "npm");
    assert_eq!(receipt["checks"][0]["vetted"], true);
    assert_eq!(receipt["baseline"]["kind"], "merge-base");
    assert_eq!(receipt["environment"]["os"], "linux");
    assert_eq!(receipt["body_hash"].as_str().unwrap().len(), 64);
}

/// loopgate's state never goes into git: on a repository where `install` never added
/// `.loopgate/` to `.gitignore`, a check's receipts are not untracked files for `git add -A`.
#[test]
fn a_check_leaves_no_state_for_git_to_commit() {
    let repo = node_project(PASSING_TEST);
    assert!(!repo.join(".gitignore").exists());
    let out = repo.loopgate().arg("check").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(repo.join(".loopgate/receipts/latest.json").is_file());
    assert_eq!(
        repo.git(&["status", "--porcelain", "--untracked-files=all"]),
        ""
    );
    repo.git(&["add", "-A"]);
    assert_eq!(repo.git(&["diff", "--cached", "--name-only"]), "");
}

#[test]
fn failing_test_exits_1_with_the_output_tail() {
    let repo = node_project(FAILING_TEST);
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(r["verdict"], "fail");
    assert_eq!(r["checks"][0]["status"], "fail");
    let tail = r["checks"][0]["output_tail"].as_str().unwrap();
    assert!(tail.contains("two and two make five"), "{tail}");
}

#[test]
fn added_skip_is_tampering_and_outranks_failure() {
    let repo = node_project(FAILING_TEST);
    repo.write(
        "test/math.test.js",
        &FAILING_TEST.replace("test('adds'", "test.skip('adds'"),
    );
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    let r = json(&out);
    assert_eq!(out.status.code(), Some(3), "{r}");
    assert_eq!(r["baseline"]["kind"], "head");
    let skips = guard(&r, "new_skips");
    assert_eq!(skips["status"], "fail");
    assert_eq!(skips["findings"][0]["path"], "test/math.test.js");
    assert_eq!(skips["findings"][0]["line"], 5);
}

#[test]
fn bad_ref_is_exit_2_naming_the_ref() {
    let repo = node_project(PASSING_TEST);
    let out = repo
        .loopgate()
        .args(["check", "--against", "no-such-branch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`no-such-branch` does not resolve"),
        "{}",
        stderr(&out)
    );
    let out = repo
        .loopgate()
        .args(["check", "--against", "--upload-pack=x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn explicit_ref_judges_a_branch_against_main() {
    let repo = node_project(PASSING_TEST);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.remove("test/math.test.js");
    repo.write("test/other.test.js", "// placeholder\n");
    repo.commit("drop the math test");
    let out = repo
        .loopgate()
        .args(["check", "--against", "main", "--json", "--no-guards"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = repo
        .loopgate()
        .args(["check", "--against", "main", "--json"])
        .output()
        .unwrap();
    let r = json(&out);
    assert_eq!(r["baseline"]["kind"], "explicit");
    assert_eq!(out.status.code(), Some(3), "{r}");
    let deleted = guard(&r, "deleted_tests");
    assert_eq!(deleted["status"], "fail");
    assert_eq!(deleted["findings"][0]["path"], "test/math.test.js");
}

#[test]
fn malformed_config_names_file_and_line() {
    let repo = node_project(PASSING_TEST);
    repo.write(
        "loopgate.toml",
        "version = 1\n[guards]\nnew_skip = \"off\"\n",
    );
    let out = repo.loopgate().arg("check").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("loopgate.toml") && err.contains("line 3") && err.contains("new_skip"),
        "{err}"
    );
    assert!(
        !repo.join(".loopgate/receipts/latest.json").exists(),
        "no receipt on a config error"
    );
}

#[test]
fn refused_check_never_runs_and_exits_3() {
    let repo = Repo::with(&[(
        "loopgate.toml",
        "version = 1\n[[check]]\nname = \"sneaky\"\nrun = \"npm test | tee out.txt\"\n",
    )]);
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    let r = json(&out);
    assert_eq!(out.status.code(), Some(3), "{r}");
    assert_eq!(r["checks"][0]["status"], "refused");
    assert!(
        r["checks"][0]["reason"].as_str().unwrap().contains('|'),
        "{r}"
    );
    assert!(!repo.join("out.txt").exists());
}

#[test]
fn shell_opt_out_runs_and_is_marked_unvetted() {
    let repo = Repo::with(&[(
        "loopgate.toml",
        "version = 1\n[[check]]\nname = \"piped\"\nrun = \"echo hello | tr a-z A-Z\"\nshell = true\n",
    )]);
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(r["checks"][0]["vetted"], false);
    let human = repo.loopgate().arg("receipt").output().unwrap();
    assert!(stdout(&human).contains("unvetted"), "{}", stdout(&human));
}

#[test]
fn timeout_is_reported_as_timeout() {
    let repo = Repo::with(&[(
        "loopgate.toml",
        "version = 1\n[[check]]\nname = \"slow\"\nrun = \"sleep 30\"\ntimeout = \"300ms\"\nshell = true\n",
    )]);
    let out = repo
        .loopgate()
        .args(["check", "--json", "--no-guards"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r = json(&out);
    assert_eq!(r["checks"][0]["status"], "timeout");
    assert!(r["checks"][0]["reason"].as_str().unwrap().contains("300ms"));
}

#[test]
fn only_selects_and_unknown_name_is_exit_2() {
    let repo = Repo::with(&[(
        "loopgate.toml",
        "version = 1\n[[check]]\nname = \"a\"\nrun = \"true\"\nshell = true\n[[check]]\nname = \"b\"\nrun = \"false\"\nshell = true\n",
    )]);
    let out = repo
        .loopgate()
        .args(["check", "--only", "a", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["checks"].as_array().unwrap().len(), 1);
    let out = repo
        .loopgate()
        .args(["check", "--only", "c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`c`") && stderr(&out).contains("a, b"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn outside_git_guards_are_skipped_never_passed() {
    let dir = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("loopgate")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    assert_eq!(r["baseline"]["kind"], "none");
    for g in r["guards"].as_array().unwrap() {
        assert_ne!(g["status"], "pass", "{g}");
    }
    assert!(r["guards"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["status"] == "skipped"));
}

#[test]
fn repo_without_commits_and_detached_head_work() {
    let repo = Repo::empty();
    repo.write("a.txt", "x\n");
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(json(&out)["baseline"]["kind"], "none");
    repo.commit("one");
    repo.commit("two");
    repo.git(&["checkout", "-q", "--detach", "HEAD~1"]);
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = json(&out);
    assert!(r["repo"]["branch"].is_null());
    assert_eq!(r["baseline"]["kind"], "merge-base");
}

#[test]
fn non_utf8_path_and_binary_test_file_do_not_panic() {
    use std::os::unix::ffi::OsStrExt;
    let repo = node_project(PASSING_TEST);
    let name = std::ffi::OsStr::from_bytes(b"test/bad-\xff.test.js");
    std::fs::write(repo.path().join(name), b"test.skip('x')\n").unwrap();
    std::fs::write(
        repo.join("test/blob.test.js"),
        [0u8, 159, 146, 150, 0, 1, 2],
    )
    .unwrap();
    let big = "// filler line\n".repeat(200_000);
    repo.write("test/huge.test.js", &big);
    // A new file whose name is not UTF-8 cannot be named to the guards (its skip would go
    // unseen): refused, naming it, whether or not the guards run.
    for args in [
        vec!["check", "--json", "--no-guards"],
        vec!["check", "--json"],
    ] {
        let out = repo.loopgate().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(r"`test/bad-\xff.test.js`: its name is not UTF-8"),
            "{}",
            stderr(&out)
        );
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    std::fs::remove_file(repo.path().join(name)).unwrap();
    let out = repo
        .loopgate()
        .args(["check", "--json", "--no-guards"])
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1 | 3)),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    json(&out);
}

#[test]
fn session_baseline_does_not_blame_lines_already_dirty() {
    let repo = node_project(PASSING_TEST);
    // Dirty before the session starts: a TODO and a skip someone else left.
    repo.write(
        "src/math.js",
        "exports.add = (a, b) => a + b; // TODO: overflow\n",
    );
    repo.write(
        "test/extra.test.js",
        "const test = require('node:test');\ntest.skip('later', () => {});\n",
    );
    let out = repo
        .loopgate()
        .args(["baseline", "--session", "s1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = repo
        .loopgate()
        .args(["check", "--session", "s1", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "nothing is the agent's yet: {}",
        stdout(&out)
    );
    // The agent now adds a skip of its own.
    repo.write(
        "test/math.test.js",
        &PASSING_TEST.replace("test('adds zero'", "test.skip('adds zero'"),
    );
    let out = repo
        .loopgate()
        .args(["check", "--session", "s1", "--json"])
        .output()
        .unwrap();
    let r = json(&out);
    assert_eq!(out.status.code(), Some(3), "{r}");
    assert_eq!(r["baseline"]["kind"], "session");
    let skips = guard(&r, "new_skips");
    let paths: Vec<&str> = skips["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, vec!["test/math.test.js"], "{skips}");
    let todos = guard(&r, "new_todos");
    assert_eq!(todos["status"], "pass", "{todos}");
}

#[test]
fn session_baseline_if_missing_and_unknown_session() {
    let repo = node_project(PASSING_TEST);
    let first = repo
        .loopgate()
        .args(["baseline", "--session", "s2", "--json"])
        .output()
        .unwrap();
    assert_eq!(json(&first)["created"], true);
    let again = repo
        .loopgate()
        .args(["baseline", "--session", "s2", "--if-missing", "--json"])
        .output()
        .unwrap();
    assert_eq!(json(&again)["created"], false);
    let out = repo
        .loopgate()
        .args(["check", "--session", "nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no baseline for session `nope`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn corrupt_state_files_are_errors_not_passes() {
    let repo = node_project(PASSING_TEST);
    // A bare check reads the baseline a bare `loopgate baseline` records (`manual`).
    repo.loopgate().args(["baseline"]).assert().success();
    repo.write(
        ".loopgate/baselines/manual.json",
        "{\"version\": 1, truncated",
    );
    let out = repo.loopgate().arg("check").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("manual.json") && stderr(&out).contains("corrupt"),
        "{}",
        stderr(&out)
    );
    repo.remove(".loopgate/baselines/manual.json");
    repo.loopgate().arg("check").assert().success();
    let latest = repo.join(".loopgate/receipts/latest.json");
    let text = std::fs::read_to_string(&latest)
        .unwrap()
        .replace("\"pass\"", "\"fail\"");
    std::fs::write(&latest, text).unwrap();
    let out = repo.loopgate().arg("receipt").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("does not match its hash"),
        "{}",
        stderr(&out)
    );
    std::fs::write(&latest, "garbage").unwrap();
    let out = repo.loopgate().arg("status").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn receipt_markdown_and_history_is_bounded() {
    let repo = node_project(FAILING_TEST);
    for _ in 0..22 {
        repo.loopgate().args(["check", "--quiet"]).assert().code(1);
    }
    let history = std::fs::read_dir(repo.join(".loopgate/receipts"))
        .unwrap()
        .count();
    assert_eq!(history, 21, "20 kept plus latest.json");
    let out = repo.loopgate().args(["receipt", "--md"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let md = stdout(&out);
    assert!(
        md.contains("## loopgate receipt") && md.contains("| npm-test | fail | 1 |"),
        "{md}"
    );
    assert!(md.contains("two and two make five"), "{md}");
}

#[test]
fn github_actions_annotations_and_summary() {
    let repo = node_project(PASSING_TEST);
    repo.write(
        "src/math.js",
        "exports.add = (a, b) => a + b; // FIXME later\n",
    );
    let summary = repo.join("summary.md");
    let out = repo
        .loopgate()
        .arg("check")
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "warn-level findings do not fail: {}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("::warning file=src/math.js,line=1,title=loopgate new_todos::"),
        "{}",
        stdout(&out)
    );
    assert!(std::fs::read_to_string(summary)
        .unwrap()
        .contains("## loopgate receipt"));
}

#[test]
fn init_writes_a_config_that_check_reads() {
    let repo = node_project(PASSING_TEST);
    let out = repo.loopgate().arg("init").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("node (npm)"));
    let text = repo.read("loopgate.toml");
    assert!(text.contains("run = \"npm test\""));
    let out = repo.loopgate().arg("init").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--force"));
    repo.loopgate().args(["init", "--force"]).assert().success();
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    assert_eq!(
        json(&out)["config"]["source"],
        repo.join("loopgate.toml")
            .canonicalize()
            .unwrap()
            .display()
            .to_string()
    );
}

#[test]
fn status_reports_config_baseline_and_receipt() {
    let repo = node_project(PASSING_TEST);
    repo.loopgate()
        .args(["baseline", "--session", "abc"])
        .assert()
        .success();
    repo.loopgate()
        .args(["check", "--quiet"])
        .assert()
        .success();
    let out = repo.loopgate().args(["status", "--json"]).output().unwrap();
    let s = json(&out);
    assert_eq!(s["config"], "embedded default");
    assert_eq!(s["baseline"]["session"], "abc");
    assert_eq!(s["latest_receipt"]["verdict"], "pass");
    assert_eq!(s["checks"][0]["run"], "npm test");
}

#[test]
fn state_dir_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let repo = node_project(PASSING_TEST);
    repo.loopgate()
        .args(["check", "--quiet"])
        .assert()
        .success();
    let mode = std::fs::metadata(repo.join(".loopgate"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700);
}

/// A node project that watches a directory outside it (holding `rc`), with the system temp
/// dir not writable so that directory is outside the write roots.
fn watched_project() -> (Repo, tempfile::TempDir) {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("rc"), "original\n").unwrap();
    let repo = node_project(PASSING_TEST);
    repo.write(
        "loopgate.toml",
        &format!(
            "version = 1\n[[check]]\nname = \"t\"\nrun = \"npm test\"\n[sandbox]\ntemp_writable = false\nwatch_roots = [\"{}\"]\n",
            outside.path().display()
        ),
    );
    repo.commit("config");
    (repo, outside)
}

#[test]
fn write_escape_is_detected_quarantined_and_released() {
    let (repo, outside) = watched_project();
    repo.loopgate().args(["baseline"]).assert().success();
    std::fs::write(outside.path().join("rc"), "tampered, and longer\n").unwrap();
    std::fs::write(outside.path().join("new-file"), "x").unwrap();
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    let r = json(&out);
    assert_eq!(out.status.code(), Some(3), "{r}");
    let escape = guard(&r, "write_escape");
    let paths: Vec<String> = escape["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    let rc = outside.path().join("rc").canonicalize().unwrap();
    assert!(paths.contains(&rc.display().to_string()), "{paths:?}");
    assert!(r["quarantine"].is_string(), "{r}");
    // Undoing the change is not enough: a human has to release the quarantine.
    std::fs::write(outside.path().join("rc"), "original\n").unwrap();
    std::fs::remove_file(outside.path().join("new-file")).unwrap();
    repo.loopgate().args(["baseline"]).assert().success();
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let list = repo
        .loopgate()
        .args(["quarantine", "list"])
        .output()
        .unwrap();
    assert!(stdout(&list).contains("rc"), "{}", stdout(&list));
    repo.loopgate()
        .args(["quarantine", "release"])
        .assert()
        .success();
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let audit = repo.read(".loopgate/audit.ndjson");
    let events: Vec<serde_json::Value> = audit
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let escape = events
        .iter()
        .find(|e| e["event"] == "write_escape")
        .expect("escape audited");
    assert!(
        escape["extra"]["paths"].to_string().contains("rc"),
        "{escape}"
    );
    assert!(
        events.iter().any(|e| e["event"] == "quarantine_release"),
        "{audit}"
    );
    repo.loopgate().args(["audit", "verify"]).assert().success();
}

#[test]
fn release_acknowledges_the_current_watch_roots() {
    let (repo, outside) = watched_project();
    repo.loopgate().args(["baseline"]).assert().success();
    std::fs::write(outside.path().join("rc"), "reviewed change\n").unwrap();
    repo.loopgate().args(["check", "--quiet"]).assert().code(3);
    // Without the acknowledgement the unchanged baseline would quarantine again at once.
    repo.loopgate()
        .args(["quarantine", "release"])
        .assert()
        .success();
    repo.loopgate().args(["check", "--quiet"]).assert().code(0);
    // A later escape is still caught.
    std::fs::write(outside.path().join("rc"), "a second, later change\n").unwrap();
    repo.loopgate().args(["check", "--quiet"]).assert().code(3);
}

/// A reader that goes away (`loopgate check --json | head -0`) ends the report quietly, like
/// any Unix filter's writer, after the receipt is stored: no panic, no half-told failure.
#[test]
fn a_closed_reader_ends_the_report_without_a_panic() {
    use std::os::unix::process::ExitStatusExt;
    let repo = node_project(PASSING_TEST);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("loopgate"))
        .current_dir(repo.path())
        .args(["check", "--guards-only", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGPIPE),
        "{:?} {err}",
        out.status
    );
    assert!(repo
        .read(".loopgate/receipts/latest.json")
        .contains("\"verdict\""));
}
