//! What a jailed agent command must not reach although it lies in or next to what it may
//! write: code that runs unconfined later (tool homes' programs and configuration, the git
//! hooks of submodules) and services that run commands for whoever connects. Planned into
//! every jail by `cmd::jail_plan`.

use std::path::{Path, PathBuf};

/// Tool homes among the writable tool caches (`gate::escape::TOOL_CACHES`) that also hold
/// what runs unconfined later: programs on the user's `PATH` (`~/.cargo/bin`, `~/go/bin`),
/// scripts the user's shell sources (`~/.cargo/env`), configuration every later build reads
/// (`~/.cargo/config.toml` with its `rustc-wrapper`, `~/.gradle/init.d`). With a mount
/// namespace each is read-only but for the download caches listed with it, so `cargo build`
/// still fetches crates while a jailed command cannot plant a program for the user's own
/// shell, nor create a configuration file that did not exist.
pub const TOOL_HOMES: &[(&str, &[&str])] = &[
    (
        ".cargo",
        &[
            "registry",
            "git",
            ".package-cache",
            ".package-cache-mutate",
            ".global-cache",
        ],
    ),
    ("go", &["pkg"]),
    (".bun", &["install"]),
    (".gradle", &["caches", "wrapper", "daemon", "native"]),
    (".m2", &["repository"]),
    (".yarn", &["berry", "cache"]),
];

/// The sockets of services that run commands for whoever connects, outside any jail: the
/// user's runtime dir (`systemd-run --user`, D-Bus, gpg-agent, podman), tmux's and
/// screen's servers (`tmux send-keys` types into the user's own shell), Docker. Landlock
/// does not govern connecting to a socket by path, so with a mount namespace they are
/// hidden from jailed commands like `deny_read` paths. Only those that exist.
pub fn service_sockets() -> Vec<PathBuf> {
    // SAFETY: geteuid cannot fail.
    let uid = unsafe { libc::geteuid() };
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let mut out: Vec<PathBuf> = Vec::new();
    out.extend(var("XDG_RUNTIME_DIR"));
    out.push(PathBuf::from(format!("/run/user/{uid}")));
    let tmux = var("TMUX_TMPDIR").unwrap_or_else(|| PathBuf::from("/tmp"));
    out.push(tmux.join(format!("tmux-{uid}")));
    out.extend(
        ["/run/screen", "/var/run/docker.sock", "/run/docker.sock"]
            .iter()
            .map(PathBuf::from),
    );
    out.retain(|p| p.is_absolute() && std::fs::symlink_metadata(p).is_ok());
    out
}

/// The hooks and config of every submodule's git dir (`.git/modules/NAME`, nested ones
/// below it): git runs them unconfined the next time the user works in the submodule,
/// as it runs the repository's own.
pub fn submodule_git_paths(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Some(common) = sandbox::mounts::git_code_paths(root)
        .first()
        .and_then(|hooks| hooks.parent().map(Path::to_path_buf))
    else {
        return out;
    };
    let mut todo = vec![(common.join("modules"), 0)];
    while let Some((dir, depth)) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if !e.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            if depth >= 8 {
                continue;
            }
            // A git dir: its own submodules sit in its `modules/`. Otherwise a part of a
            // name that holds a slash: walked on.
            if path.join("config").is_file() {
                out.push(path.join("hooks"));
                out.push(path.join("config"));
                todo.push((path.join("modules"), depth + 1));
            } else {
                todo.push((path, depth + 1));
            }
        }
    }
    out
}

/// Whether the ssh agent's socket (`$SSH_AUTH_SOCK`) lies in one of `dirs`.
pub fn ssh_agent_in(dirs: &[PathBuf]) -> bool {
    std::env::var_os("SSH_AUTH_SOCK")
        .map(PathBuf::from)
        .map(|s| std::fs::canonicalize(&s).unwrap_or(s))
        .is_some_and(|s| dirs.iter().any(|d| s.starts_with(d)))
}
