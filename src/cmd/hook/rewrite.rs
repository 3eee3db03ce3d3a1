//! The kernel is the boundary: a shell command the tool gate lets through is rewritten to
//! run under loopgate's jail (`loopgate jail-shell`, see `cmd::jail_shell`), where the agent's
//! protocol can replace a tool's input (Claude Code `updatedInput`, Gemini CLI
//! `hookSpecificOutput.tool_input`). Static vetting explains early; Landlock and the mount
//! namespace enforce.

use super::workspace::Workspace;
use agents::{AgentKind, HookInput, Response, ToolCall};
use gate::config::{Confine, Network};
use policy::{Decision, Verdict};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// Set by `loopgate run --confine` for the agent it starts: the whole agent is already
/// under Landlock, and a nested mount namespace cannot be had there.
pub const RUN_CONFINED_ENV: &str = "LOOPGATE_RUN_CONFINED";

/// What happens to one allowed shell command.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// Run `command` (the rewritten text) instead; `level` says what confines it, `runner`
    /// what sets it up: `builtin` (`jail-shell` where the shell cannot load it) or
    /// `jail-shell`.
    Confine {
        command: String,
        level: String,
        runner: &'static str,
    },
    /// Run as sent, unconfined, and say why.
    Unconfined { why: String },
    /// Do not run at all (`confine = "required"` and the jail cannot be had).
    Refuse { why: String },
}

impl Plan {
    /// The audit fields of this plan.
    pub fn audit(&self) -> Map<String, Value> {
        let v = match self {
            Plan::Confine { level, runner, .. } => {
                json!({"mode": "jail", "runner": runner, "level": level})
            }
            Plan::Unconfined { why } => json!({"mode": "unconfined", "why": why}),
            Plan::Refuse { why } => json!({"mode": "refused", "why": why}),
        };
        let mut m = Map::new();
        m.insert("confinement".into(), v);
        m
    }
}

/// The environment facts a plan depends on, read at the edge.
#[derive(Debug, Clone)]
pub struct Kernel {
    pub landlock: Result<u32, String>,
    pub mounts: Result<(), String>,
    pub run_confined: bool,
    pub exe: Result<PathBuf, String>,
    /// Where the hand-back of the final directory goes; `None`: the session's temp dir.
    pub cwd_dir: Option<PathBuf>,
    /// The jail as a bash builtin, when it could be planned for this call's session.
    pub builtin: Option<BuiltinJail>,
}

/// The bash builtin that confines the agent's shell in place (`sandbox::builtin`), and its
/// steps for one session: planned by the hook from the session's pin.
#[derive(Debug, Clone, PartialEq)]
pub struct BuiltinJail {
    pub library: PathBuf,
    pub steps: Vec<String>,
    pub tmp: PathBuf,
}

impl BuiltinJail {
    /// Plan it for the pinned session of `ws` (the edge: the file system and the library
    /// file). `None` when any part cannot be had: the rewrite then uses `jail-shell` alone,
    /// which says why at run time.
    pub fn plan(
        ws: &Workspace,
        agent: AgentKind,
        session: &str,
        mounts: bool,
        abi: u32,
    ) -> Option<BuiltinJail> {
        let library = install_library()?;
        let plan = crate::cmd::jail_plan::from_pin(
            agent.name(),
            session,
            &ws.root,
            &ws.write_roots,
            &ws.config.sandbox,
            mounts,
        )
        .ok()?;
        // The agent's shell loads the library before it is confined: one a jailed command
        // could replace (the state dir inside a write root, with no read-only mount over
        // it) would run its code unconfined on the next command. `jail-shell` then.
        let real = std::fs::canonicalize(&library).ok()?;
        let replaceable = plan.mounts.is_none()
            && plan
                .confine
                .write_roots
                .iter()
                .chain(&plan.confine.extra_writable)
                .any(|w| real.starts_with(w));
        if replaceable {
            return None;
        }
        let prepared = match &plan.mounts {
            Some(m) => Some(sandbox::mounts::prepare(m).ok()?),
            None => None,
        };
        let rules = sandbox::confine::raw_rules(&plan.confine, abi);
        Some(BuiltinJail {
            library,
            steps: sandbox::builtin::steps(prepared.as_ref(), &rules)?,
            tmp: plan.tmp,
        })
    }
}

/// The builtin's library in loopgate's state dir (`lib/`, outside every write root, so no
/// jailed command can replace it), written there on first use.
fn install_library() -> Option<PathBuf> {
    sandbox::builtin::install(&state::user_state_dir()?.join("lib")).ok()
}

impl Kernel {
    pub fn probe() -> Kernel {
        Kernel {
            landlock: match sandbox::landlock_available() {
                sandbox::Availability::Available { abi } => Ok(abi),
                sandbox::Availability::Missing { reason } => Err(reason),
            },
            mounts: match sandbox::mounts::namespaces_available() {
                sandbox::mounts::NsAvailability::Available => Ok(()),
                sandbox::mounts::NsAvailability::Missing { reason } => Err(reason),
            },
            run_confined: std::env::var_os(RUN_CONFINED_ENV).is_some_and(|v| v == "1"),
            exe: std::env::current_exe()
                .map_err(|e| format!("the loopgate binary's own path cannot be read: {e}")),
            cwd_dir: None,
            builtin: None,
        }
    }

    /// [`Kernel::probe`], with the builtin planned for the session of `ws` when the plan
    /// would confine its commands.
    pub fn probe_for(ws: &Workspace, agent: AgentKind, session: Option<&str>) -> Kernel {
        let mut k = Kernel::probe();
        let wanted = ws.config.sandbox.confine != Confine::Off
            && !k.run_confined
            && agent_can_rewrite(agent).is_ok();
        if let (true, Ok(abi), Some(session)) =
            (wanted, &k.landlock, session.filter(|s| !s.is_empty()))
        {
            k.builtin = BuiltinJail::plan(ws, agent, session, k.mounts.is_ok(), *abi);
        }
        k
    }
}

/// Whether `agent` can be sent a rewritten shell command, and if not, what to do instead.
pub fn agent_can_rewrite(agent: AgentKind) -> Result<(), String> {
    match agent {
        AgentKind::Claude | AgentKind::Gemini => Ok(()),
        AgentKind::Codex => Err("Codex hooks cannot rewrite a command; run the agent as `loopgate run --confine -- codex` to confine it".into()),
        AgentKind::Cursor => Err("Cursor's beforeShellExecution cannot rewrite a command; run the agent under `loopgate run --confine` to confine it".into()),
    }
}

/// The plan for one allowed shell command of `input`'s session. Pure over its arguments.
pub fn plan(
    agent: AgentKind,
    session: Option<&str>,
    sandbox: &gate::config::SandboxConfig,
    command: &str,
    kernel: &Kernel,
) -> Plan {
    let confine = sandbox.confine;
    let required = confine == Confine::Required;
    let refuse_or = |why: String| {
        if required {
            Plan::Refuse {
                why: format!("[sandbox] confine = \"required\", but {why}"),
            }
        } else {
            Plan::Unconfined { why }
        }
    };
    if confine == Confine::Off {
        return Plan::Unconfined {
            why: "[sandbox] confine = \"off\"".into(),
        };
    }
    if kernel.run_confined {
        return Plan::Unconfined {
            why: "the agent already runs under `loopgate run --confine`".into(),
        };
    }
    if let Err(why) = agent_can_rewrite(agent) {
        return refuse_or(why);
    }
    let abi = match &kernel.landlock {
        Ok(abi) => *abi,
        Err(why) => return refuse_or(format!("Landlock is not available ({why})")),
    };
    let Some(session) = session.filter(|s| !s.is_empty()) else {
        return refuse_or(
            "the call names no session, so there is no pinned frame to confine it to".into(),
        );
    };
    let exe = match &kernel.exe {
        Ok(exe) => exe,
        Err(why) => {
            return Plan::Refuse { why: why.clone() };
        }
    };
    if command.contains('\0') {
        return Plan::Refuse {
            why: "the command holds a NUL byte".into(),
        };
    }
    let (mounts, level) = match &kernel.mounts {
        Ok(()) => (true, format!("landlock ABI {abi} + read-only mounts{}", extras(sandbox))),
        Err(why) if sandbox.network != Network::On => {
            return Plan::Refuse {
                why: format!("[sandbox] network = \"{}\" needs a network namespace, and none can be had here ({why})", network_name(sandbox.network)),
            }
        }
        Err(why) => (
            false,
            format!("landlock ABI {abi} only (no mount namespace: {why}); the referee's files inside the repository are watched, not protected, and deny_read is not enforced"),
        ),
    };
    let cwd_dir = kernel
        .cwd_dir
        .clone()
        .unwrap_or_else(|| sandbox::jail_files::session_tmp_path(agent.name(), session));
    Plan::Confine {
        runner: if kernel.builtin.is_some() {
            "builtin"
        } else {
            "jail-shell"
        },
        command: wrap(
            exe,
            agent,
            session,
            command,
            mounts,
            &cwd_dir,
            kernel.builtin.as_ref(),
        ),
        level,
    }
}

fn network_name(n: Network) -> &'static str {
    match n {
        Network::On => "on",
        Network::Off => "off",
        Network::Loopback => "loopback",
    }
}

fn extras(sandbox: &gate::config::SandboxConfig) -> String {
    let mut out = String::new();
    if !sandbox.deny_read.is_empty() {
        out.push_str(&format!(", unreadable: {}", sandbox.deny_read.join(" ")));
    }
    if sandbox.network != Network::On {
        out.push_str(&format!(", network {}", network_name(sandbox.network)));
    }
    out
}

/// The command the agent's shell runs instead of `command`.
///
/// With the bash builtin (`builtin`), a subshell of the agent's own shell loads it,
/// confines itself with the planned steps and then runs the command: no program is
/// started for the jail. Where the shell cannot load it (not bash, no loadable builtins),
/// the subshell becomes `jail-shell` instead, which plans the same jail from the pin.
///
/// A plain program call (`policy::plain_command`) is run as its words, which bash `exec`s
/// in place, and `jail-shell` gets the words too (it `exec`s the program itself): no second
/// shell, and no directory to carry back, since only a shell builtin can change it.
/// Anything else is `eval`ed (or run by `jail-shell -c`, which becomes the jailed `bash`);
/// then the outer shell moves to the directory the original ended in (Claude Code carries
/// the cwd across calls; the jailed shell leaves it in `cwd_dir/cwd.<pid of the outer
/// shell>`) and ends with the original's exit code, without forking anything else.
pub fn wrap(
    exe: &Path,
    agent: AgentKind,
    session: &str,
    command: &str,
    mounts: bool,
    cwd_dir: &Path,
    builtin: Option<&BuiltinJail>,
) -> String {
    let mut call = format!(
        "{} jail-shell --agent {} --session {}",
        quote(&exe.display().to_string()),
        agent.name(),
        quote(session)
    );
    if !mounts {
        call.push_str(" --no-mounts");
    }
    // The subshell that confines itself, or becomes `fallback` when it cannot.
    let jailed = |fallback: String, run: String| match builtin {
        Some(b) => {
            let steps: Vec<String> = b.steps.iter().map(|w| quote(w)).collect();
            format!(
                "( enable -f {} {name} 2>/dev/null || exec {fallback}\nbuiltin {name} {} || exit 126; export TMPDIR={}; {run} )",
                quote(&b.library.display().to_string()),
                steps.join(" "),
                quote(&b.tmp.display().to_string()),
                name = sandbox::builtin::NAME,
            )
        }
        None => fallback,
    };
    if let Some(words) = policy::plain_command::argv(command) {
        let words: Vec<String> = words.iter().map(|w| quote(w)).collect();
        let words = words.join(" ");
        return jailed(format!("{call} -- {words}"), words);
    }
    let file = format!("{}/cwd.", cwd_dir.display());
    let file = format!("{}\"$$\"", quote(&file));
    let shell = match builtin {
        Some(_) => format!(
            "__lg_c={}; {}",
            quote(command),
            jailed(
                format!("{call} --cwd-file {file} -c \"$__lg_c\""),
                format!(
                    ": 2>/dev/null >| {file}; trap {} EXIT; eval \"$__lg_c\"",
                    quote(&format!("builtin pwd -P >| {file} 2>/dev/null"))
                ),
            )
        ),
        None => format!("{call} --cwd-file {file} -c {}", quote(command)),
    };
    format!(
        "{shell}\n__lg_s=$?; __lg_d=; {{ IFS= builtin read -r __lg_d < {file}; }} 2>/dev/null && [ -n \"$__lg_d\" ] && builtin cd -- \"$__lg_d\" 2>/dev/null; __lg_r() {{ return \"$1\"; }}; __lg_r \"$__lg_s\""
    )
}

pub use policy::shell::quote;

/// The tool input to send back: the agent's own input with the command replaced.
pub fn rewritten_input(input: &HookInput, command: &str) -> Value {
    let mut obj = match &input.tool_input {
        Some(Value::Object(o)) => o.clone(),
        _ => Map::new(),
    };
    obj.insert("command".into(), Value::String(command.to_string()));
    Value::Object(obj)
}

/// The tool gate's last step for a shell call it did not refuse: confine it, or say why
/// not, or refuse it when confinement is required and cannot be had. Returns the decision
/// to audit, the audit fields, and the rewritten answer when there is one.
pub fn apply(
    ws: &Workspace,
    input: &HookInput,
    call: &ToolCall,
    decision: Decision,
) -> (Decision, Map<String, Value>, Option<Response>) {
    let ToolCall::Shell { command, .. } = call else {
        return (decision, Map::new(), None);
    };
    if decision.decision == Verdict::Deny {
        return (decision, Map::new(), None);
    }
    let plan = plan(
        input.agent,
        input.session_id.as_deref(),
        &ws.config.sandbox,
        command,
        &Kernel::probe_for(ws, input.agent, input.session_id.as_deref()),
    );
    let extra = plan.audit();
    match plan {
        Plan::Confine { command, level, .. } => {
            let ask = decision.decision == Verdict::Ask;
            let reason = if ask {
                format!(
                    "{} (if approved, it runs confined by the kernel: {level})",
                    super::tool_gate::reason_text(&decision)
                )
            } else {
                format!("loopgate: allowed ({}); runs confined by the kernel: {level}", decision.rule)
            };
            let response = Response::Rewrite {
                tool_input: rewritten_input(input, &command),
                reason,
                ask,
            };
            (decision, extra, Some(response))
        }
        Plan::Unconfined { .. } => (decision, extra, None),
        Plan::Refuse { why } => (
            super::tool_gate::deny(
                "sandbox.unavailable",
                format!("this shell command cannot run confined: {why}; ask the user to fix the sandbox or change [sandbox] confine"),
            ),
            extra,
            None,
        ),
    }
}

/// What the kernel offers here and what an agent's shell commands get from it, for
/// `loopgate status`: each piece with the level reached, or why it is missing.
pub fn kernel_status(sandbox: &gate::config::SandboxConfig) -> Value {
    let k = Kernel::probe();
    let agents: Map<String, Value> = [
        AgentKind::Claude,
        AgentKind::Gemini,
        AgentKind::Codex,
        AgentKind::Cursor,
    ]
    .iter()
    .map(|a| {
        let v = match plan(*a, Some("status"), sandbox, "true", &k) {
            Plan::Confine { level, .. } => json!({"shell_commands": "confined", "level": level}),
            Plan::Unconfined { why } => json!({"shell_commands": "unconfined", "why": why}),
            Plan::Refuse { why } => json!({"shell_commands": "refused", "why": why}),
        };
        (a.name().to_string(), v)
    })
    .collect();
    json!({
        "landlock": match &k.landlock {
            Ok(abi) => json!({"available": true, "abi": abi,
                "enforcement": sandbox::confine::enforcement_for(&sandbox::Availability::Available { abi: *abi })}),
            Err(why) => json!({"available": false, "why": why}),
        },
        "mount_namespaces": match &k.mounts {
            Ok(()) => json!({"available": true}),
            Err(why) => json!({"available": false, "why": why}),
        },
        "agents": agents,
    })
}

/// One sentence for the session's opening context.
pub fn session_note(ws: &Workspace, agent: AgentKind) -> String {
    let kernel = Kernel::probe();
    match plan(agent, Some("session"), &ws.config.sandbox, "true", &kernel) {
        Plan::Confine { level, .. } => {
            // Ready before the first command (best effort: the first command retries).
            install_library();
            format!(
            " Every shell command runs confined by the kernel ({level}): writes outside the write roots, and to loopgate.toml, .loopgate/, the agents' settings, .git/hooks and .git/config, fail with `Permission denied` or `Read-only file system`; /tmp is the session's own temp dir (`$TMPDIR`), or not writable where no mount namespace can be had (`mktemp` works either way)."
        )
        }
        Plan::Unconfined { why } => {
            format!(" Shell commands are not confined by the kernel ({why}); writes outside the write roots are detected when you stop.")
        }
        Plan::Refuse { why } => format!(" Shell commands are refused: {why}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(confine: Confine) -> gate::config::SandboxConfig {
        gate::config::SandboxConfig {
            confine,
            ..Default::default()
        }
    }

    fn kernel() -> Kernel {
        Kernel {
            landlock: Ok(7),
            mounts: Ok(()),
            run_confined: false,
            exe: Ok(PathBuf::from("/opt/lg dir/loopgate")),
            cwd_dir: Some(PathBuf::from("/state/cwd")),
            builtin: None,
        }
    }

    #[test]
    fn an_allowed_command_is_wrapped_with_the_session_and_every_byte_quoted() {
        let cmd = "echo 'it''s' \"$HOME\" `id` $(pwd)\nexit 3";
        let Plan::Confine { command, level, .. } = plan(
            AgentKind::Claude,
            Some("s'1"),
            &cfg(Confine::Auto),
            cmd,
            &kernel(),
        ) else {
            panic!("confined")
        };
        assert!(level.contains("read-only mounts"), "{level}");
        assert!(command.starts_with("'/opt/lg dir/loopgate' jail-shell --agent claude --session 's'\\''1' --cwd-file '/state/cwd/cwd.'\"$$\" -c "), "{command}");
        assert!(command.contains(&quote(cmd)), "{command}");
    }

    #[test]
    fn with_the_builtin_the_subshell_confines_itself_or_becomes_jail_shell() {
        let mut k = kernel();
        k.builtin = Some(BuiltinJail {
            library: PathBuf::from("/state/lib/j.so"),
            steps: vec!["landlock=1".into(), "rw=1:/r o".into(), "restrict".into()],
            tmp: PathBuf::from("/t"),
        });
        let confined =
            |cmd: &str| match plan(AgentKind::Claude, Some("s"), &cfg(Confine::Auto), cmd, &k) {
                Plan::Confine { command, .. } => command,
                other => panic!("{other:?}"),
            };
        let shell = confined("cd sub && make");
        assert!(shell.starts_with("__lg_c='cd sub && make'; ( enable -f '/state/lib/j.so' loopgate_jail 2>/dev/null || exec '/opt/lg dir/loopgate' jail-shell --agent claude --session 's' --cwd-file '/state/cwd/cwd.'\"$$\" -c \"$__lg_c\"\nbuiltin loopgate_jail 'landlock=1' 'rw=1:/r o' 'restrict' || exit 126; export TMPDIR='/t'; "), "{shell}");
        assert!(
            shell.contains(" EXIT; eval \"$__lg_c\" )\n__lg_s=$?;"),
            "{shell}"
        );
        let plain = confined("make -j2");
        assert!(
            plain.ends_with("'restrict' || exit 126; export TMPDIR='/t'; 'make' '-j2' )"),
            "{plain}"
        );
        assert!(plain.contains(" -- 'make' '-j2'\n"), "{plain}");
    }

    #[test]
    fn off_missing_landlock_and_required_each_say_why() {
        let mut k = kernel();
        assert_eq!(
            plan(AgentKind::Claude, Some("s"), &cfg(Confine::Off), "ls", &k),
            Plan::Unconfined {
                why: "[sandbox] confine = \"off\"".into()
            }
        );
        k.landlock = Err("simulated".into());
        assert!(matches!(
            plan(AgentKind::Claude, Some("s"), &cfg(Confine::Auto), "ls", &k),
            Plan::Unconfined { why } if why.contains("Landlock is not available (simulated)")
        ));
        assert!(matches!(
            plan(AgentKind::Claude, Some("s"), &cfg(Confine::Required), "ls", &k),
            Plan::Refuse { why } if why.contains("required") && why.contains("simulated")
        ));
    }

    #[test]
    fn codex_and_cursor_are_pointed_to_run_confine() {
        let k = kernel();
        for agent in [AgentKind::Codex, AgentKind::Cursor] {
            assert!(matches!(
                plan(agent, Some("s"), &cfg(Confine::Auto), "ls", &k),
                Plan::Unconfined { why } if why.contains("loopgate run --confine")
            ));
        }
    }

    #[test]
    fn without_namespaces_the_wrapper_asks_for_landlock_only() {
        let mut k = kernel();
        k.mounts = Err("simulated".into());
        let Plan::Confine { command, level, .. } =
            plan(AgentKind::Gemini, Some("s"), &cfg(Confine::Auto), "ls", &k)
        else {
            panic!()
        };
        assert!(command.contains(" --no-mounts"), "{command}");
        assert!(level.contains("landlock ABI 7 only"), "{level}");
    }
}
