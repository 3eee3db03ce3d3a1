//! A confined check cannot rewrite the referee's files (issue 9): the done gate runs each
//! check under Landlock and, where a user namespace can be had, in a private mount
//! namespace that holds loopgate's state, the config and git's code-execution files
//! read-only. Real binary, real Landlock and namespaces on this kernel.

mod gitrepo;

use gitrepo::{json, stderr, Repo};
use std::os::unix::fs::PermissionsExt;

const TARGETS: [&str; 3] = [
    ".loopgate/ledger.json",
    "loopgate.toml",
    ".git/hooks/pre-commit",
];

/// A repository whose one check tries to append to each target, printing what happened.
fn tampering_repo() -> Repo {
    let repo = Repo::with(&[
        (
            "loopgate.toml",
            "version = 1\n\n[[check]]\nname = \"tamper\"\nrun = \"./tamper.sh\"\n\n[sandbox]\nconfine = \"auto\"\n",
        ),
        (
            "tamper.sh",
            "#!/bin/sh\nfor f in .loopgate/ledger.json loopgate.toml .git/hooks/pre-commit; do\n  if echo TAMPERED >> \"$f\"; then echo \"wrote $f\"; else echo \"blocked $f\"; fi\ndone\n",
        ),
        (".gitignore", ".loopgate/\n"),
    ]);
    std::fs::set_permissions(
        repo.join("tamper.sh"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    repo.commit("executable");
    repo.write(".loopgate/ledger.json", "{}\n");
    repo.write(".git/hooks/pre-commit", "#!/bin/sh\nexit 0\n");
    repo
}

fn confinement_note(receipt: &serde_json::Value) -> String {
    receipt["confinement"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["note"].as_str())
        .find(|n| n.starts_with("checks ran"))
        .unwrap_or_else(|| panic!("no check confinement note in {receipt}"))
        .to_string()
}

#[test]
fn a_confined_check_cannot_rewrite_the_ledger_the_config_or_a_git_hook() {
    let repo = tampering_repo();
    let out = repo.loopgate().args(["check", "--json"]).output().unwrap();
    let receipt = json(&out);
    for t in TARGETS {
        assert!(
            !repo.read(t).contains("TAMPERED"),
            "the check rewrote {t}: {receipt}\n{}",
            stderr(&out)
        );
    }
    let tail = receipt["checks"][0]["output_tail"].as_str().unwrap();
    for t in TARGETS {
        assert!(tail.contains(&format!("blocked {t}")), "{tail}");
    }
    assert!(tail.contains("Read-only file system"), "{tail}");
    let note = confinement_note(&receipt);
    assert!(note.contains("read-only"), "{note}");
    for p in [".loopgate", "loopgate.toml", ".git/hooks", ".git/config"] {
        assert!(note.contains(p), "{p} not named in: {note}");
    }
    assert_eq!(out.status.code(), Some(0), "{receipt}");
}

#[test]
fn without_user_namespaces_the_receipt_says_the_referees_files_stayed_writable() {
    let repo = tampering_repo();
    let out = repo
        .loopgate()
        .args(["check", "--json"])
        .env("LOOPGATE_NO_USERNS", "1")
        .output()
        .unwrap();
    let receipt = json(&out);
    let note = confinement_note(&receipt);
    assert!(
        note.contains("stayed writable") && note.contains("LOOPGATE_NO_USERNS=1"),
        "{note}"
    );
    // Honest: Landlock alone cannot keep a file inside the write root.
    assert!(repo.read("loopgate.toml").contains("TAMPERED"));
}
