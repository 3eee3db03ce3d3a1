//! `loopgate exec` and `loopgate quarantine` end to end: the real binary, real child
//! processes, Landlock on this kernel, real git repositories in temp dirs.
//!
//! The repo and the "outside" dir live under the cargo target dir, not the system temp
//! dir, and the test config sets `temp_writable = false`, so "outside" is really outside.

use assert_cmd::Command;
use std::fs;
use std::path::{Path, PathBuf};

struct Fixture {
    _base: tempfile::TempDir,
    repo: PathBuf,
    outside: PathBuf,
}

fn fixture(confine: &str) -> Fixture {
    let base = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let root = fs::canonicalize(base.path()).unwrap();
    let repo = root.join("repo");
    let outside = root.join("outside");
    fs::create_dir_all(&repo).unwrap();
    fs::create_dir_all(&outside).unwrap();
    let st = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&repo)
        .status()
        .unwrap();
    assert!(st.success());
    fs::write(
        repo.join("loopgate.toml"),
        format!("version = 1\n\n[sandbox]\nwrite_roots = [\".\"]\ntemp_writable = false\nconfine = \"{confine}\"\n"),
    )
    .unwrap();
    Fixture {
        _base: base,
        repo,
        outside,
    }
}

fn loopgate(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("loopgate").unwrap();
    cmd.arg("-C").arg(dir).env_remove("LOOPGATE_NO_LANDLOCK");
    cmd
}

fn landlock() -> bool {
    matches!(
        sandbox::landlock_available(),
        sandbox::Availability::Available { .. }
    )
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn confined_writes_outside_fail_and_inside_succeed() {
    if !landlock() {
        eprintln!("skipped: no Landlock on this kernel");
        return;
    }
    let f = fixture("auto");
    let script = format!("echo x > {}/f; echo y > inside.txt", f.outside.display());
    let out = loopgate(&f.repo)
        .args(["exec", "--confine", "--", "sh", "-c", &script])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(
        !f.outside.join("f").exists(),
        "a confined child wrote outside the roots"
    );
    assert_eq!(
        fs::read_to_string(f.repo.join("inside.txt")).unwrap(),
        "y\n"
    );
    assert!(stderr.contains("Permission denied"), "{stderr}");
    assert!(stderr.contains("confinement fully enforced"), "{stderr}");
    assert_eq!(
        out.status.code(),
        Some(0),
        "the script's last command succeeded"
    );
}

#[test]
fn a_grandchild_inherits_the_jail() {
    if !landlock() {
        return;
    }
    let f = fixture("required");
    let script = format!(
        "sh -c 'sh -c \"echo x > {o}/deep\"; echo ok > {r}/marker'",
        o = f.outside.display(),
        r = f.repo.display()
    );
    let out = loopgate(&f.repo)
        .args(["exec", "--confine", "--", "sh", "-c", &script])
        .output()
        .unwrap();
    assert!(f.repo.join("marker").exists(), "{}", text(&out.stderr));
    assert!(
        !f.outside.join("deep").exists(),
        "a grandchild escaped the jail"
    );
}

#[test]
fn the_private_tmpdir_is_writable_0700_and_removed_afterwards() {
    if !landlock() {
        return;
    }
    let f = fixture("auto");
    let script = "echo t > \"$TMPDIR/t\" && stat -c %a \"$TMPDIR\" && echo \"$TMPDIR\"";
    let out = loopgate(&f.repo)
        .args(["exec", "--confine", "--", "sh", "-c", script])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("700"), "{stdout} {}", text(&out.stderr));
    let tmp = PathBuf::from(lines.next().unwrap());
    assert!(tmp
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("loopgate-jail-"));
    assert!(!tmp.exists(), "the private temp dir outlived the run");
    // The system temp dir itself is not writable with temp_writable = false.
    let out = loopgate(&f.repo)
        .args([
            "exec",
            "--confine",
            "--",
            "sh",
            "-c",
            "echo x > /tmp/loopgate-jail-probe-$$ && echo wrote",
        ])
        .output()
        .unwrap();
    assert!(!text(&out.stdout).contains("wrote"));
}

#[test]
fn required_without_landlock_exits_2_and_runs_nothing() {
    let f = fixture("required");
    let out = loopgate(&f.repo)
        .env("LOOPGATE_NO_LANDLOCK", "1")
        .args(["exec", "--confine", "--", "sh", "-c", "echo ran > marker"])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("confine = \"required\""), "{stderr}");
    assert!(stderr.contains("LOOPGATE_NO_LANDLOCK=1"), "{stderr}");
    assert!(
        !f.repo.join("marker").exists(),
        "the program ran unconfined"
    );
}

#[test]
fn auto_without_landlock_runs_with_the_degradation_note() {
    let f = fixture("auto");
    let script = format!("echo x > {}/f", f.outside.display());
    let out = loopgate(&f.repo)
        .env("LOOPGATE_NO_LANDLOCK", "1")
        .args(["exec", "--confine", "--json", "--", "sh", "-c", &script])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("confinement degraded to detection"),
        "{stderr}"
    );
    assert!(
        f.outside.join("f").exists(),
        "auto without Landlock runs unconfined"
    );
    let json: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(json["confinement"]["enforcement"], "not_enforced");
}

#[test]
fn off_in_config_with_an_explicit_confine_flag_still_confines() {
    if !landlock() {
        return;
    }
    let f = fixture("off");
    let script = format!("echo x > {}/f", f.outside.display());
    let out = loopgate(&f.repo)
        .args(["exec", "--confine", "--", "sh", "-c", &script])
        .output()
        .unwrap();
    assert!(!f.outside.join("f").exists(), "{}", text(&out.stderr));
}

#[test]
fn exit_codes_pass_through() {
    let f = fixture("auto");
    let code = |argv: &[&str]| {
        loopgate(&f.repo)
            .arg("exec")
            .arg("--")
            .args(argv)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(code(&["sh", "-c", "exit 42"]), Some(42));
    assert_eq!(code(&["sh", "-c", "exit 0"]), Some(0));
    assert_eq!(code(&["sh", "-c", "kill -KILL $$"]), Some(137));
    assert_eq!(code(&["false"]), Some(1));
    // No shell: the metacharacters are plain arguments.
    let out = loopgate(&f.repo)
        .args(["exec", "--", "echo", "a;", "$(id)", ">x"])
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout), "a; $(id) >x\n");
    assert!(!f.repo.join("x").exists());
}

#[test]
fn confined_exit_codes_and_json_report() {
    if !landlock() {
        return;
    }
    let f = fixture("auto");
    let out = loopgate(&f.repo)
        .args(["exec", "--confine", "--json", "--", "sh", "-c", "exit 7"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(7));
    let json: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(json["exit_code"], 7);
    assert_eq!(json["confinement"]["enforcement"], "fully_enforced");
    let writable: Vec<String> = json["confinement"]["writable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(
        writable.contains(&f.repo.display().to_string()),
        "{writable:?}"
    );
    assert!(writable.contains(&"/dev/null".to_string()));
}

#[test]
fn a_missing_program_is_exit_2_with_a_clear_message() {
    let f = fixture("auto");
    for confine in [false, true] {
        let mut cmd = loopgate(&f.repo);
        cmd.arg("exec");
        if confine {
            cmd.arg("--confine");
        }
        let out = cmd
            .args(["--", "no-such-program-loopgate"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("cannot run `no-such-program-loopgate`: program not found"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn quarantine_list_and_release_end_to_end() {
    let f = fixture("auto");
    let state = f.repo.join(".loopgate");
    let out = loopgate(&f.repo)
        .args(["quarantine", "list"])
        .output()
        .unwrap();
    assert_eq!(
        (out.status.code(), text(&out.stdout)),
        (Some(0), "no quarantine\n".to_string())
    );

    let a = sandbox::quarantine::record(&state, "sess-1", &[f.outside.join(".bashrc")]).unwrap();
    let b =
        sandbox::quarantine::record(&state, "sess-2", &[f.outside.join(".ssh/config")]).unwrap();
    let out = loopgate(&f.repo)
        .args(["quarantine", "list"])
        .output()
        .unwrap();
    let listing = text(&out.stdout);
    assert!(
        listing.contains(&a.id)
            && listing.contains("session sess-1")
            && listing.contains(".bashrc"),
        "{listing}"
    );
    let out = loopgate(&f.repo)
        .args(["quarantine", "list", "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 2);
    assert_eq!(json[1]["source"], "write_escape");

    let out = loopgate(&f.repo)
        .args(["quarantine", "release", "q-unknown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no quarantine has the id `q-unknown`"),
        "{}",
        text(&out.stderr)
    );

    let out = loopgate(&f.repo)
        .args(["quarantine", "release", &a.id])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains(&format!("released {}", a.id)));
    assert_eq!(sandbox::quarantine::list(&state).unwrap(), vec![b.clone()]);

    // From a subdirectory the repo root is found by walking up.
    fs::create_dir_all(f.repo.join("sub/dir")).unwrap();
    let out = loopgate(&f.repo.join("sub/dir"))
        .args(["quarantine", "release"])
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains(&format!("released {}", b.id)));
    assert!(sandbox::quarantine::is_quarantined(&state).is_none());
}

#[test]
fn a_corrupt_quarantine_file_fails_closed_until_released() {
    let f = fixture("auto");
    let state = f.repo.join(".loopgate");
    fs::create_dir_all(&state).unwrap();
    fs::write(state.join("quarantine.json"), "{not json").unwrap();
    let out = loopgate(&f.repo)
        .args(["quarantine", "list"])
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("corrupt")
            && stderr.contains("stays quarantined")
            && stderr.contains("loopgate quarantine release"),
        "{stderr}"
    );
    assert!(sandbox::quarantine::is_quarantined(&state).is_some());
    let out = loopgate(&f.repo)
        .args(["quarantine", "release", "q1"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "one id cannot be released from an unreadable file"
    );
    let out = loopgate(&f.repo)
        .args(["quarantine", "release"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("removed the corrupt"),
        "{}",
        text(&out.stdout)
    );
    let out = loopgate(&f.repo)
        .args(["quarantine", "list"])
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout), "no quarantine\n");
}
