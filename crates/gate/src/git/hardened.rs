//! The one place loopgate builds a git command. A repository is written by the agent being
//! judged, so nothing its configuration (or the environment it may have shaped) names as a
//! program may run when loopgate asks git a question: the done gate runs outside the jail.
//!
//! See [`command`] for the full list and docs/threat-model.md for the reasoning.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

/// `-c` overrides on every git command line. Command-line config outranks every config
/// file (system, global, repository, worktree, and anything they include), so no file can
/// undo these.
const OVERRIDES: &[&str] = &[
    // Hook or daemon run by status/diff to list changed files.
    "core.fsmonitor=false",
    // Every hook (post-index-change, post-checkout, ...): an empty directory of hooks.
    "core.hooksPath=/dev/null",
    // Pagers: output is a pipe anyway, and `--no-pager` is also passed.
    "core.pager=cat",
    // Signature verification runs gpg (or ssh-keygen, or gpgsm).
    "log.showSignature=false",
    "gpg.program=false",
    "gpg.ssh.program=false",
    "gpg.x509.program=false",
    // Network and prompting: not reached by loopgate's subcommands; closed anyway.
    "core.sshCommand=false",
    "core.askPass=",
    "credential.helper=",
    "core.editor=:",
    "sequence.editor=:",
    // Background maintenance would start `git gc` / `git maintenance`, with their hooks.
    "gc.auto=0",
    "maintenance.auto=false",
    // Plain data, asked for explicitly: paths as bytes, renames off (loopgate pairs
    // renames itself, see crate::renames).
    "core.quotePath=false",
    "diff.renames=false",
    "status.renames=false",
    // How status decides a file is unchanged without reading it: every stat field,
    // ctime included. With `checkStat=minimal` or `trustctime=false` in the repository's
    // or the user's config, a same-size edit whose mtime was put back (`touch -r`) read
    // as clean; ctime cannot be put back. (git compares whole seconds only; the edit made
    // within the second is caught by loopgate's own check, see `super::hidden`.)
    "core.checkStat=default",
    "core.trustctime=true",
    // A name that differs from a tracked one only in case is a file of its own here:
    // with `core.ignorecase=true` in a config the agent can write, a new `makefile` (which
    // make reads before the tracked `Makefile`) was neither untracked nor changed to git.
    "core.ignorecase=false",
];

/// Inherited variables loopgate sets itself; every other `GIT_*` variable is removed.
const ENV: &[(&str, &str)] = &[
    ("GIT_OPTIONAL_LOCKS", "0"),
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_PAGER", "cat"),
    ("GIT_NO_REPLACE_OBJECTS", "1"),
];

/// A git command in `root` that runs no program the repository or the environment names.
///
/// Neutralised, and why (all of them are documented by git as running a program):
/// - `core.fsmonitor` (the hook form and the daemon): `-c core.fsmonitor=false`.
/// - hooks, including `post-index-change` which `status` fires when it rewrites the index:
///   `-c core.hooksPath=/dev/null`, and `--no-optional-locks` / `GIT_OPTIONAL_LOCKS=0` so
///   status and diff never write the index in the first place.
/// - external diff (`diff.external`, `diff.<driver>.command`, `GIT_EXTERNAL_DIFF`) and
///   textconv (`diff.<driver>.textconv`): `--no-ext-diff --no-textconv` on every diff (the
///   caller's job: they are diff options), and the variable is removed.
/// - clean/smudge/process filters (`filter.<driver>.*`, any driver name): `filters` lists
///   the drivers to override with empty commands and `required=false` (see
///   [`super::Repo`]'s filter lookup; only status and work-tree diffs hash files, and
///   `cat-file --batch` without `--filters` runs none).
/// - pagers (`core.pager`, `pager.<cmd>`, `GIT_PAGER`, `PAGER`): `--no-pager`, `GIT_PAGER=cat`.
/// - signatures (`log.showSignature`, `gpg.program`, `gpg.ssh.program`, `gpg.x509.program`).
/// - `core.sshCommand`, `credential.helper`, `core.askPass`, `core.editor`,
///   `sequence.editor`: unreachable from status/diff/cat-file/rev-parse/for-each-ref/
///   merge-base/config, overridden anyway, with `GIT_TERMINAL_PROMPT=0`.
/// - automatic `gc` / `maintenance` (which would run hooks of their own).
/// - replace refs and grafts (`--no-replace-objects`): not code, but they would let the
///   judged tree rewrite what an old commit appears to contain.
/// - submodules: status and work-tree diffs pass `--ignore-submodules=dirty` (the caller's
///   job), so git never runs inside a submodule whose own config we have not read.
///
/// The environment: every inherited `GIT_*` variable is removed (`GIT_DIR`,
/// `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_EXTERNAL_DIFF`, `GIT_CONFIG_*`,
/// `GIT_CONFIG_PARAMETERS`, `GIT_EXEC_PATH`, `GIT_SSH*`, `GIT_ASKPASS`, `GIT_TRACE*`, ...)
/// but the few set in [`ENV`].
///
/// System config (`/etc/gitconfig`) is still read: it is the administrator's, outside any
/// write root, and it may carry settings the machine needs (`safe.directory`). Overrides
/// above still win over it. The user's global config is read too (its ignore rules and
/// line-ending settings shape what status reports) but is not trusted either: every
/// override applies to it, and its filters are neutralised like the repository's.
pub fn command(root: &Path, filters: &[String]) -> Command {
    let mut cmd = Command::new("git");
    // `-C`, not `current_dir`: std starts a child of a statically linked program with
    // posix_spawn (no copy of our page tables) only when it need not change directory.
    cmd.arg("-C").arg(root).stdin(Stdio::null());
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("GIT_") {
            cmd.env_remove(&key);
        }
    }
    cmd.envs(ENV.iter().copied());
    cmd.args(["--no-pager", "--no-optional-locks", "--no-replace-objects"]);
    // The work tree is the one loopgate judges, never one a `core.worktree` in the
    // repository's config points at (a pristine copy elsewhere would read as clean).
    cmd.arg("--work-tree").arg(root);
    for o in OVERRIDES {
        cmd.arg("-c").arg(o);
    }
    let mut pairs: Vec<(String, &str)> = Vec::new();
    for driver in filters {
        for (var, value) in [
            ("clean", ""),
            ("smudge", ""),
            ("process", ""),
            ("required", "false"),
        ] {
            pairs.push((format!("filter.{driver}.{var}"), value));
        }
    }
    // `-c` splits at the first `=`; a driver name holding one goes through the
    // environment form, which keeps key and value apart (git 2.31 and later).
    let (plain, odd): (Vec<_>, Vec<_>) = pairs.into_iter().partition(|(k, _)| !k.contains('='));
    for (key, value) in plain {
        cmd.arg("-c").arg(format!("{key}={value}"));
    }
    if !odd.is_empty() {
        cmd.env("GIT_CONFIG_COUNT", odd.len().to_string());
        for (i, (key, value)) in odd.into_iter().enumerate() {
            cmd.env(format!("GIT_CONFIG_KEY_{i}"), key);
            cmd.env(format!("GIT_CONFIG_VALUE_{i}"), value);
        }
    }
    cmd
}

/// Whether any config file git reads for this repository, besides the system one, could
/// define a filter driver: it mentions `filter` or includes another file. Reading a few
/// small files costs microseconds; asking `git config` costs a process.
pub fn may_define_filters(common_dir: &Path, git_dir: &Path) -> bool {
    let mut files = vec![common_dir.join("config"), git_dir.join("config.worktree")];
    if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        let home = Path::new(&home);
        files.push(home.join(".gitconfig"));
        files.push(home.join(".config/git/config"));
    }
    if let Some(xdg) = std::env::var_os("XDG_CONFIG_HOME").filter(|x| !x.is_empty()) {
        files.push(Path::new(&xdg).join("git/config"));
    }
    files.iter().any(|f| match std::fs::read(f) {
        Ok(bytes) => mentions_filter_or_include(&bytes),
        // Present but unreadable (a FIFO, a permission trick): ask git, fail closed.
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
    })
}

fn mentions_filter_or_include(bytes: &[u8]) -> bool {
    let lower = bytes.to_ascii_lowercase();
    let has = |word: &[u8]| lower.windows(word.len()).any(|w| w == word);
    has(b"filter") || has(b"include")
}

/// The filter drivers defined outside the system config, from `git config --show-scope
/// --null --name-only --get-regexp` output (`scope NUL key NUL`...).
pub fn parse_filter_drivers(out: &[u8]) -> Vec<String> {
    let mut fields = out.split(|b| *b == 0);
    let mut drivers: Vec<String> = Vec::new();
    while let (Some(scope), Some(key)) = (fields.next(), fields.next()) {
        if scope == b"system" {
            continue;
        }
        let key = String::from_utf8_lossy(key);
        // `filter.<driver>.<var>`: the section is case-insensitive, the driver is not,
        // and the driver may itself contain dots.
        let Some(rest) = key
            .get(7..)
            .filter(|_| key[..7].eq_ignore_ascii_case("filter."))
        else {
            continue;
        };
        if let Some((driver, _var)) = rest.rsplit_once('.') {
            if !drivers.iter().any(|d| d == driver) {
                drivers.push(driver.to_string());
            }
        }
    }
    drivers
}

/// Arguments as displayable text, for error messages.
pub fn shown(args: &[OsString]) -> String {
    args.iter()
        .map(|a| a.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_changes_directory_itself() {
        // A working directory set on the Command would make std fork this (static)
        // process instead of spawning git with posix_spawn.
        let cmd = command(Path::new("/some/repo"), &[]);
        assert_eq!(cmd.get_current_dir(), None);
        let args: Vec<_> = cmd.get_args().take(2).collect();
        assert_eq!(args, ["-C", "/some/repo"]);
    }

    #[test]
    fn drivers_from_every_scope_but_system() {
        let out = b"system\0filter.lfs.clean\0local\0filter.evil.process\0global\0filter.a.b.smudge\0local\0Filter.evil.clean\0command\0filter.x=y.clean\0";
        assert_eq!(parse_filter_drivers(out), vec!["evil", "a.b", "x=y"]);
        assert!(parse_filter_drivers(b"").is_empty());
        assert!(parse_filter_drivers(b"local\0filter\0local\0").is_empty());
    }

    #[test]
    fn the_prescan_looks_for_filters_and_includes_in_any_case() {
        assert!(mentions_filter_or_include(b"[Filter \"x\"]\n\tclean = y\n"));
        assert!(mentions_filter_or_include(
            b"[includeIf \"gitdir:/\"]\npath = z\n"
        ));
        assert!(!mentions_filter_or_include(
            b"[core]\n\tbare = false\n[user]\nname = f\n"
        ));
    }

    #[test]
    fn command_line_holds_the_overrides_and_filters() {
        let cmd = command(Path::new("/"), &["lfs".into(), "a=b".into()]);
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        for want in [
            "--no-optional-locks",
            "core.fsmonitor=false",
            "core.hooksPath=/dev/null",
            "core.checkStat=default",
            "core.trustctime=true",
            "filter.lfs.process=",
            "filter.lfs.required=false",
        ] {
            assert!(args.iter().any(|a| a == want), "{want} missing: {args:?}");
        }
        let envs: Vec<(String, Option<String>)> = cmd
            .get_envs()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.map(|v| v.to_string_lossy().into_owned()),
                )
            })
            .collect();
        assert!(envs.contains(&("GIT_CONFIG_KEY_0".into(), Some("filter.a=b.clean".into()))));
        assert!(envs.contains(&("GIT_CONFIG_COUNT".into(), Some("4".into()))));
    }
}
