//! `loopgate run`: baseline, the agent (jailed or watched), then the done gate; real
//! processes under real Landlock on this kernel.

mod gitrepo;

use gitrepo::{stderr, stdout, Repo};

fn repo_with_outside(confine: &str) -> (Repo, tempfile::TempDir) {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("rc"), "original\n").unwrap();
    let repo = Repo::with(&[(
        "loopgate.toml",
        &format!(
            "version = 1\n[gate]\nprograms = [\"true\"]\n[[check]]\nname = \"ok\"\nrun = \"true\"\n[sandbox]\ntemp_writable = false\nconfine = \"{confine}\"\nwatch_roots = [\"{}\"]\n",
            outside.path().display()
        ),
    )]);
    repo.write(".gitignore", ".loopgate/\n");
    repo.commit("ignore state");
    (repo, outside)
}

#[test]
fn confined_agent_cannot_write_outside_but_works_inside() {
    let (repo, outside) = repo_with_outside("auto");
    let target = outside.path().join("rc");
    let script = format!(
        "echo work > inside.txt; (echo evil > {0}) 2>/dev/null && echo WROTE || echo BLOCKED; sh -c 'echo evil2 > {0}' 2>/dev/null || echo CHILD-BLOCKED",
        target.display()
    );
    let out = repo
        .loopgate()
        .args(["run", "--confine", "--", "sh", "-c", &script])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("BLOCKED") && stdout(&out).contains("CHILD-BLOCKED"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("confined by Landlock (fully enforced)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "original\n");
    assert_eq!(repo.read("inside.txt"), "work\n");
    let receipt: serde_json::Value =
        serde_json::from_str(&repo.read(".loopgate/receipts/latest.json")).unwrap();
    assert_eq!(receipt["via"], "run");
    assert!(
        receipt["confinement"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["status"] == "confined"),
        "{receipt}"
    );
}

#[test]
fn unconfined_escape_is_detected_and_quarantined() {
    let (repo, outside) = repo_with_outside("off");
    let target = outside.path().join("rc");
    let script = format!("echo evil >> {}", target.display());
    let out = repo
        .loopgate()
        .args(["run", "--", "sh", "-c", &script])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(stdout(&out).contains("write_escape"), "{}", stdout(&out));
    let later = repo.loopgate().arg("check").output().unwrap();
    assert_eq!(
        later.status.code(),
        Some(3),
        "quarantined until released: {}",
        stdout(&later)
    );
    repo.loopgate()
        .args(["quarantine", "release"])
        .assert()
        .success();
}

#[test]
fn required_confinement_without_landlock_is_exit_2() {
    let (repo, _outside) = repo_with_outside("required");
    let out = repo
        .loopgate()
        .env("LOOPGATE_NO_LANDLOCK", "1")
        .args(["run", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("Landlock is not available"),
        "{}",
        stderr(&out)
    );
    let out = repo
        .loopgate()
        .env("LOOPGATE_NO_LANDLOCK", "1")
        .arg("check")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "checks are jailed too under required: {}",
        stderr(&out)
    );
}

#[test]
fn outside_git_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("loopgate")
        .unwrap()
        .current_dir(dir.path())
        .args(["run", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not inside a git repository"),
        "{}",
        stderr(&out)
    );
}

/// A whole agent under `run --confine` cannot rewrite the config, git's code-execution
/// files or loopgate's state (its hooks are answered by the supervisor outside the jail).
/// Without user namespaces it says they stayed writable.
#[test]
fn a_confined_agent_cannot_rewrite_the_config_git_hooks_or_state() {
    let (repo, _outside) = repo_with_outside("auto");
    repo.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
    let config = repo.read("loopgate.toml");
    let script = "for f in loopgate.toml .git/hooks/pre-commit .git/config .loopgate/probe; do \
                  (echo TAMPERED >> $f) 2>/dev/null && echo \"wrote $f\" || echo \"blocked $f\"; done";
    let out = repo
        .loopgate()
        .args(["run", "--confine", "--", "sh", "-c", script])
        .output()
        .unwrap();
    let said = stdout(&out);
    for f in [
        "loopgate.toml",
        ".git/hooks/pre-commit",
        ".git/config",
        ".loopgate/probe",
    ] {
        assert!(
            said.contains(&format!("blocked {f}")),
            "{said}{}",
            stderr(&out)
        );
    }
    assert_eq!(repo.read("loopgate.toml"), config);
    assert!(!repo.read(".git/hooks/pre-commit").contains("TAMPERED"));
    assert!(!repo.read(".git/config").contains("TAMPERED"));
    let err = stderr(&out);
    assert!(
        err.contains("the referee's files are read-only: .git/config, .git/hooks, .loopgate,")
            && err.contains("loopgate.toml"),
        "{err}"
    );
    assert_eq!(out.status.code(), Some(0), "{said}{err}");

    let out = repo
        .loopgate()
        .env("LOOPGATE_NO_USERNS", "1")
        .args([
            "run",
            "--confine",
            "--",
            "sh",
            "-c",
            "echo '# x' >> loopgate.toml",
        ])
        .output()
        .unwrap();
    assert!(
        stderr(&out).contains(
            "the referee's files stayed writable (no mount namespace: LOOPGATE_NO_USERNS=1"
        ),
        "{}",
        stderr(&out)
    );
    assert!(repo.read("loopgate.toml").ends_with("# x\n"));
}
