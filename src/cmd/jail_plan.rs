//! What confines one agent shell command of a session, planned from the session's pin:
//! the Landlock write rules and the read-only mounts. One plan for both ways a command is
//! jailed: `loopgate jail-shell` (`cmd::jail_shell`) and the bash builtin the tool gate's
//! rewrite loads (`cmd::hook::rewrite`).

use sandbox::jail_files::{prune_hand_backs, session_tmp};
use std::path::{Path, PathBuf};

/// Tool homes among the writable tool caches (`gate::escape::TOOL_CACHES`) that also hold
/// what runs unconfined later: programs on the user's `PATH` (`~/.cargo/bin`, `~/go/bin`),
/// scripts the user's shell sources (`~/.cargo/env`), configuration every later build reads
/// (`~/.cargo/config.toml` with its `rustc-wrapper`, `~/.gradle/init.d`). With a mount
/// namespace each is read-only but for the download caches listed with it, so `cargo build`
/// still fetches crates while a jailed command cannot plant a program for the user's own
/// shell, nor create a configuration file that did not exist.
const TOOL_HOMES: &[(&str, &[&str])] = &[
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
fn service_sockets() -> Vec<PathBuf> {
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
fn submodule_git_paths(root: &Path) -> Vec<PathBuf> {
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

pub struct JailPlan {
    pub confine: sandbox::ConfinePlan,
    /// `None` when no mount namespace is wanted (`--no-mounts`).
    pub mounts: Option<sandbox::mounts::MountPlan>,
    /// The session's temp dir: writable, and the command's `$TMPDIR`.
    pub tmp: PathBuf,
}

/// The plan for `agent`'s session `session`: the write roots come from its pin, never from
/// the caller's cwd or arguments.
pub fn for_session(agent: &str, session: &str, mounts: bool) -> Result<JailPlan, String> {
    let pin = match gate::pin::load(agent, session) {
        Ok(Some(pin)) => pin,
        Ok(None) => return Err(format!("no pinned session `{session}` for {agent}")),
        Err(e) => return Err(format!("{e:#}")),
    };
    let config = pin.loaded().map_err(|e| format!("{e:#}"))?.config;
    from_pin(
        agent,
        session,
        &pin.root,
        &pin.write_roots,
        &config.sandbox,
        mounts,
    )
}

/// The plan from a pin's parts (the tool gate has them loaded already).
pub fn from_pin(
    agent: &str,
    session: &str,
    root: &Path,
    write_roots: &[PathBuf],
    sandbox: &gate::config::SandboxConfig,
    mounts: bool,
) -> Result<JailPlan, String> {
    let tmp = session_tmp(agent, session)?;
    prune_hand_backs(&tmp);
    // The same tool caches a confined check may write (dependency downloads), when they
    // exist: `npm install` and `cargo build` work unchanged, at the price that a jailed
    // command can poison them (docs/threat-model.md).
    let mut extra = vec![tmp.clone()];
    if let Some(home) = gate::roots::home() {
        // Without a mount namespace nothing inside a writable tool home can be made
        // read-only again: only its download caches that exist are writable then.
        let narrowed = |c: &&str| !mounts && TOOL_HOMES.iter().any(|(dir, _)| dir == c);
        extra.extend(
            gate::escape::TOOL_CACHES
                .iter()
                .filter(|c| !narrowed(c))
                .map(|c| home.join(c))
                .filter(|p| p.exists()),
        );
        if !mounts {
            for (dir, caches) in TOOL_HOMES {
                extra.extend(
                    caches
                        .iter()
                        .map(|c| home.join(dir).join(c))
                        .filter(|p| p.exists()),
                );
            }
        }
    }
    // The system temp dirs are shared with every unconfined process of the user: the
    // agent's own shell writes its cwd file there right after the command (Claude Code
    // `pwd -P >| /tmp/claude-<id>-cwd`, Gemini CLI `pgrep >/tmp/shell_pgrep_<id>.tmp`), so a
    // link planted there would make that shell write wherever it points, and the session's
    // temp dir could be swapped for a link between the gate's check and the jail's rule.
    // The command gets the session's own temp dir (`$TMPDIR`) instead.
    let shared_tmp = sandbox::system_temp_dirs();
    let write_roots: Vec<PathBuf> = write_roots
        .iter()
        .filter(|r| !shared_tmp.contains(r))
        .cloned()
        .collect();
    let confine = sandbox::ConfinePlan {
        write_roots,
        extra_writable: extra,
        private_tmp: false,
        scoped: true,
    };
    let mounts = mounts.then(|| {
        let mut writable = confine.write_roots.clone();
        writable.extend(confine.extra_writable.iter().cloned());
        let mut read_only = gate::referee_files::paths(root, gate::referee_files::Scope::All);
        // The program the rewrite falls back to and the agent's hooks run: replaced from
        // inside a write root (a build of its own repository), it would run unconfined next.
        read_only.extend(std::env::current_exe().ok());
        read_only.extend(submodule_git_paths(root));
        let mut writable_inside = Vec::new();
        if let Some(home) = gate::roots::home() {
            for (dir, caches) in TOOL_HOMES {
                read_only.push(home.join(dir));
                writable_inside.extend(caches.iter().map(|c| home.join(dir).join(c)));
            }
        }
        let hidden = {
            let mut hidden = sandbox::mounts::expand_hidden(
                &sandbox.deny_read,
                root,
                gate::roots::home().as_deref(),
            );
            // Never one that holds a writable path (a $TMPDIR inside the runtime dir).
            hidden.extend(
                service_sockets()
                    .into_iter()
                    .filter(|s| !writable.iter().any(|w| w.starts_with(s))),
            );
            hidden
        };
        sandbox::mounts::MountPlan {
            read_only,
            writable,
            writable_inside,
            hidden,
            private_tmp: Some(tmp.clone()),
            network: match sandbox.network {
                gate::config::Network::On => sandbox::mounts::NetMode::Host,
                gate::config::Network::Off => sandbox::mounts::NetMode::None,
                gate::config::Network::Loopback => sandbox::mounts::NetMode::Loopback,
            },
        }
    });
    Ok(JailPlan {
        confine,
        mounts,
        tmp,
    })
}
