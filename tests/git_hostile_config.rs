//! loopgate never runs a program that a repository's git config (or the environment it
//! inherits) names: a real repository whose `.git/config`, includes, global config and
//! environment point every program-running git setting at a script that leaves a marker,
//! then every command that asks git a question. No marker may appear.

mod gitrepo;

use gitrepo::{stderr, stdout, Repo};
use std::path::{Path, PathBuf};

/// Every hook name git documents (githooks(5)), `post-index-change` included.
const HOOKS: &[&str] = &[
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "update",
    "proc-receive",
    "post-receive",
    "post-update",
    "reference-transaction",
    "push-to-checkout",
    "pre-auto-gc",
    "post-rewrite",
    "sendemail-validate",
    "fsmonitor-watchman",
    "p4-changelist",
    "p4-prepare-changelist",
    "p4-post-changelist",
    "p4-pre-submit",
    "post-index-change",
];

struct Trap {
    dir: tempfile::TempDir,
}

impl Trap {
    fn new() -> Trap {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("markers")).unwrap();
        std::fs::create_dir_all(dir.path().join("hooks")).unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Trap { dir }
    }

    /// A script that leaves the marker `name` and passes stdin through (so a filter that
    /// did run would still produce output).
    fn script(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(format!("{name}.sh"));
        let marker = self.dir.path().join("markers").join(name);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\ntouch '{}'\ncat 2>/dev/null\nexit 0\n",
                marker.display()
            ),
        )
        .unwrap();
        make_executable(&path);
        path
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn markers(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path().join("markers"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A repository with two commits and a dirty filtered file, then a hostile config.
fn hostile_repo(trap: &Trap) -> Repo {
    let repo = Repo::with(&[
        (
            "loopgate.toml",
            "version = 1\n[gate]\nprograms = [\"true\"]\n[[check]]\nname = \"ok\"\nrun = \"true\"\n",
        ),
        (".gitignore", ".loopgate/\n"),
        (
            ".gitattributes",
            "*.dat filter=evil diff=evil merge=evil\n*.inc filter=inc\n*.home filter=home\n",
        ),
        ("data.dat", "aaaa\n"),
        ("more.inc", "cccc\n"),
        ("notes.home", "eeee\n"),
        ("test/a.test.js", "test('a', () => {});\n"),
    ]);
    repo.write("src/lib.js", "exports.x = 1;\n");
    repo.commit("second");

    // Hooks in both places git looks: the default directory and a configured one.
    for hook in HOOKS {
        let script = trap.script(&format!("hook-{hook}"));
        for dir in [trap.dir.path().join("hooks"), repo.join(".git/hooks")] {
            let target = dir.join(hook);
            std::fs::copy(&script, &target).unwrap();
            make_executable(&target);
        }
    }
    let s = |name: &str| trap.script(name).display().to_string();
    let include = trap.dir.path().join("included.config");
    std::fs::write(
        &include,
        format!(
            "[filter \"inc\"]\n\tclean = {}\n\tsmudge = {}\n\trequired = true\n[core]\n\tpager = {}\n",
            s("inc-clean"),
            s("inc-smudge"),
            s("inc-pager")
        ),
    )
    .unwrap();
    let mut config = std::fs::read_to_string(repo.join(".git/config")).unwrap();
    config.push_str(&format!(
        "[core]
\tfsmonitor = {fsmonitor}
\thooksPath = {hooks}
\tpager = {pager}
\tsshCommand = {ssh}
\taskPass = {askpass}
\teditor = {editor}
\tuntrackedCache = true
[sequence]
\teditor = {seq}
[pager]
\tstatus = {pstatus}
\tdiff = {pdiff}
[diff]
\texternal = {external}
\trenames = copies
[status]
\trenames = true
[diff \"evil\"]
\ttextconv = {textconv}
\tcommand = {dcommand}
[merge \"evil\"]
\tdriver = {mdriver}
[filter \"evil\"]
\tclean = {clean}
\tsmudge = {smudge}
\tprocess = {process}
\trequired = true
[log]
\tshowSignature = true
[gpg]
\tprogram = {gpg}
[credential]
\thelper = {cred}
[gc]
\tauto = 1
[include]
\tpath = {include}
",
        fsmonitor = s("fsmonitor"),
        hooks = trap.dir.path().join("hooks").display(),
        pager = s("pager"),
        ssh = s("ssh"),
        askpass = s("askpass"),
        editor = s("editor"),
        seq = s("sequence-editor"),
        pstatus = s("pager-status"),
        pdiff = s("pager-diff"),
        external = s("diff-external"),
        textconv = s("textconv"),
        dcommand = s("diff-command"),
        mdriver = s("merge-driver"),
        clean = s("clean"),
        smudge = s("smudge"),
        process = s("process"),
        gpg = s("gpg"),
        cred = s("credential"),
        include = include.display(),
    ));
    std::fs::write(repo.join(".git/config"), config).unwrap();
    // The user's global config, in the HOME loopgate runs with, is no safer.
    std::fs::write(
        trap.home().join(".gitconfig"),
        format!(
            "[filter \"home\"]\n\tclean = {}\n\tprocess = {}\n[core]\n\tfsmonitor = {}\n",
            s("home-clean"),
            s("home-process"),
            s("home-fsmonitor")
        ),
    )
    .unwrap();
    // Dirty filtered files with the same size, so git must hash (filter) them to compare.
    repo.write("data.dat", "bbbb\n");
    repo.write("more.inc", "dddd\n");
    repo.write("notes.home", "ffff\n");
    repo
}

/// loopgate in `repo` with a hostile environment around it.
fn loopgate(repo: &Repo, trap: &Trap) -> assert_cmd::Command {
    let s = |name: &str| trap.script(name).display().to_string();
    let mut cmd = repo.loopgate();
    cmd.env("HOME", trap.home())
        .env("XDG_CONFIG_HOME", trap.home().join(".config"))
        .env("GIT_EXTERNAL_DIFF", s("env-external-diff"))
        .env("GIT_PAGER", s("env-git-pager"))
        .env("PAGER", s("env-pager"))
        .env("GIT_EDITOR", s("env-editor"))
        .env("GIT_ASKPASS", s("env-askpass"))
        .env("GIT_SSH_COMMAND", s("env-ssh"))
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "core.fsmonitor")
        .env("GIT_CONFIG_VALUE_0", s("env-config-fsmonitor"))
        .env(
            "GIT_CONFIG_PARAMETERS",
            format!(
                "'core.hookspath'='{}'",
                trap.dir.path().join("hooks").display()
            ),
        )
        .env("GIT_DIR", trap.dir.path().join("no-such-git-dir"))
        .env("GIT_WORK_TREE", trap.dir.path())
        .env("GIT_INDEX_FILE", trap.dir.path().join("no-such-index"));
    cmd
}

fn ok(out: &std::process::Output, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{what}\n--- stdout ---\n{}\n--- stderr ---\n{}",
        stdout(out),
        stderr(out)
    );
}

#[test]
fn no_command_runs_what_the_repository_configures() {
    let trap = Trap::new();
    let repo = hostile_repo(&trap);
    // The trap is armed: plain git in this repository runs the configured programs.
    let armed = std::process::Command::new("git")
        .current_dir(repo.path())
        .env("HOME", trap.home())
        .args(["status", "--porcelain"])
        .output()
        .unwrap();
    assert!(armed.status.success() || !trap.markers().is_empty());
    assert!(
        trap.markers().iter().any(|m| m == "fsmonitor"),
        "plain git status did not run the trap: {:?}",
        trap.markers()
    );
    for entry in std::fs::read_dir(trap.dir.path().join("markers")).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }

    let runs: &[(&str, &[&str])] = &[
        ("check", &["check", "--json"]),
        (
            "check --against HEAD~1",
            &["check", "--against", "HEAD~1", "--json"],
        ),
        ("check --guards-only", &["check", "--guards-only", "--json"]),
        ("baseline", &["baseline", "--session", "s1"]),
        ("check --session", &["check", "--session", "s1", "--json"]),
        ("status", &["status"]),
        ("run -- true", &["run", "--", "true"]),
    ];
    for (what, args) in runs {
        let out = loopgate(&repo, &trap).args(*args).output().unwrap();
        assert!(
            trap.markers().is_empty(),
            "`loopgate {what}` ran repository-configured programs: {:?}\n{}",
            trap.markers(),
            stderr(&out)
        );
        ok(&out, what);
    }
    // The receipt saw the dirty file: git did answer, through the hostile config.
    let out = loopgate(&repo, &trap)
        .args(["check", "--guards-only", "--json"])
        .output()
        .unwrap();
    let receipt = gitrepo::json(&out);
    assert_eq!(receipt["repo"]["dirty"], true, "{receipt}");

    let payload = serde_json::to_vec(&serde_json::json!({
        "session_id": "s1",
        "transcript_path": repo.join(".no-transcript.jsonl"),
        "cwd": repo.path(),
        "permission_mode": "default",
        "hook_event_name": "Stop",
        "stop_hook_active": false,
    }))
    .unwrap();
    let out = loopgate(&repo, &trap)
        .args(["hook", "claude"])
        .write_stdin(payload)
        .output()
        .unwrap();
    assert!(
        trap.markers().is_empty(),
        "the Stop hook ran repository-configured programs: {:?}\n{}",
        trap.markers(),
        stdout(&out)
    );
    ok(&out, "hook claude Stop");
    // Nothing wrote the index either (no optional locks): post-index-change had no cause.
    assert!(!repo.join(".git/index.lock").exists());
}

/// The cheap pre-check (does any config file mention filters?) must see through includes:
/// here the repository's config only includes a file, and the filter lives there.
#[test]
fn a_filter_defined_only_in_an_included_file_never_runs() {
    let trap = Trap::new();
    let repo = Repo::with(&[
        (".gitattributes", "*.dat filter=hidden\n"),
        (".gitignore", ".loopgate/\n"),
        ("data.dat", "aaaa\n"),
    ]);
    let included = trap.dir.path().join("elsewhere.config");
    std::fs::write(
        &included,
        format!(
            "[filter \"hidden\"]\n\tclean = {}\n\trequired = true\n",
            trap.script("hidden-clean").display()
        ),
    )
    .unwrap();
    let mut config = std::fs::read_to_string(repo.join(".git/config")).unwrap();
    config.push_str(&format!("[include]\n\tpath = {}\n", included.display()));
    std::fs::write(repo.join(".git/config"), config).unwrap();
    repo.write("data.dat", "bbbb\n");

    let out = repo
        .loopgate()
        .env("HOME", trap.home())
        .args(["check", "--guards-only", "--json"])
        .output()
        .unwrap();
    assert!(
        trap.markers().is_empty(),
        "the included filter ran: {:?}\n{}",
        trap.markers(),
        stderr(&out)
    );
    ok(&out, "check --guards-only");
    assert_eq!(gitrepo::json(&out)["repo"]["dirty"], true);
}
