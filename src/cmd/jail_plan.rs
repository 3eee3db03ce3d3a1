//! What confines one agent shell command of a session, planned from the session's pin:
//! the Landlock write rules and the read-only mounts. One plan for both ways a command is
//! jailed: `loopgate jail-shell` (`cmd::jail_shell`) and the bash builtin the tool gate's
//! rewrite loads (`cmd::hook::rewrite`).

use super::jail_reach;
use sandbox::jail_files::{prune_hand_backs, session_tmp};
use std::path::{Path, PathBuf};

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
        let narrowed = |c: &&str| !mounts && jail_reach::TOOL_HOMES.iter().any(|(dir, _)| dir == c);
        extra.extend(
            gate::escape::TOOL_CACHES
                .iter()
                .filter(|c| !narrowed(c))
                .map(|c| home.join(c))
                .filter(|p| p.exists()),
        );
        if !mounts {
            for (dir, caches) in jail_reach::TOOL_HOMES {
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
        read_only.extend(jail_reach::submodule_git_paths(root));
        let mut writable_inside = Vec::new();
        if let Some(home) = gate::roots::home() {
            for (dir, caches) in jail_reach::TOOL_HOMES {
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
                jail_reach::service_sockets()
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
            // An ssh agent's socket in the shared /tmp (`/tmp/ssh-XXXX/agent.N`) must stay
            // reachable for `git push` over ssh: /tmp then stays the shared one, not writable.
            private_tmp: (!jail_reach::ssh_agent_in(&sandbox::system_temp_dirs()))
                .then(|| tmp.clone()),
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
