//! `loopgate run [--confine] -- AGENT ARGS...`: record a session baseline, run the agent
//! (jailed by Landlock when asked or required), then run the done gate on what it left.

use crate::cli::ExecArgs;
use crate::exit::Exit;
use gate::config::Confine;
use gate::done::{self, DoneRequest};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Between the SIGTERM and the SIGKILL the keeper sends the agent's tree when loopgate dies.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Directories and files under `$HOME` an agent writes while it works (sessions,
/// transcripts, caches), by the agent program's name, and the settings inside them that
/// the jail mounts read-only. Elsewhere its settings files are never writable.
struct AgentState {
    dirs: &'static [&'static str],
    files: &'static [&'static str],
    settings: &'static [&'static str],
}

fn agent_state(program: &str) -> AgentState {
    let (dirs, files) = agent_paths(program);
    // Codex 0.169 keeps its databases (and their -wal/-shm files, named by schema version)
    // in `~/.codex` itself, so the whole directory is writable and its settings are
    // mounted read-only.
    let settings: &[&str] = match program {
        "codex" => &[
            ".codex/config.toml",
            ".codex/hooks.json",
            ".codex/AGENTS.md",
            ".codex/prompts",
            ".codex/rules",
        ],
        _ => &[],
    };
    AgentState {
        dirs,
        files,
        settings,
    }
}

fn agent_paths(program: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match program {
        "claude" => (
            &[
                ".claude/projects",
                ".claude/todos",
                ".claude/statsig",
                ".claude/shell-snapshots",
                ".claude/session-env",
                ".claude/file-history",
                ".claude/debug",
                ".claude/plugins",
                ".claude/ide",
                ".cache/claude",
            ],
            &[".claude.json", ".claude.json.backup"],
        ),
        "codex" => (&[".codex"], &[]),
        "gemini" => (&[".gemini/tmp"], &[]),
        _ => (&[], &[]),
    }
}

/// Create the agent's state paths (a Landlock rule needs the path to exist) and list them.
fn prepare_agent_state(state: &AgentState, home: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in state.dirs {
        let p = home.join(d);
        if std::fs::create_dir_all(&p).is_ok() {
            out.push(p);
        }
    }
    for f in state.files {
        let p = home.join(f);
        if !p.exists() {
            if let Some(parent) = p.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            // An empty JSON object is what these agents write for "no state yet".
            let _ = std::fs::write(&p, "{}\n");
        }
        if p.exists() {
            out.push(p);
        }
    }
    out
}

/// The referee's files made read-only for the whole agent by a private mount namespace
/// (`gate::referee_files`, all of them: the agent's hooks are answered by the supervisor,
/// so nothing of loopgate's state need be writable inside), plus the agent's own settings
/// in its state dir. Without a mount namespace the files inside the write roots are left to
/// detection, but the supervisor's socket must not be writable.
fn read_only_state(
    root: &Path,
    agent_settings: Vec<PathBuf>,
    socket_dir: &Path,
    report: &sandbox::confine::ConfineReport,
    cmd: &mut Command,
) -> anyhow::Result<()> {
    if report.enforcement == sandbox::Enforcement::NotEnforced {
        return Ok(());
    }
    let referee = gate::referee_files::read_only_with(
        root,
        gate::referee_files::Scope::All,
        &report.writable,
        agent_settings,
    )?;
    if let gate::referee_files::RefereeFiles::Writable { reason } = &referee {
        let socket_dir = std::fs::canonicalize(socket_dir)?;
        if report
            .writable
            .iter()
            .any(|w| socket_dir.starts_with(std::fs::canonicalize(w).unwrap_or_else(|_| w.clone())))
        {
            anyhow::bail!("the supervisor's socket {} would be writable to the agent (no mount namespace: {reason}); set LOOPGATE_STATE_HOME outside the write roots", socket_dir.display());
        }
    }
    referee.apply(cmd);
    eprintln!("loopgate run: {}", referee.describe(root));
    Ok(())
}

pub fn run_agent(dir: &Path, args: &ExecArgs) -> anyhow::Result<Exit> {
    let (repo, root) = done::find_root(dir);
    if repo.is_none() {
        anyhow::bail!("{} is not inside a git repository: `loopgate run` needs git to baseline and check the agent's work", dir.display());
    }
    let loaded = gate::config::load(&root, || gate::detect::detected_checks(&root))?;
    let cfg = &loaded.config;
    let session = format!(
        "run-{}-{}",
        jiff::Timestamp::now().as_second(),
        std::process::id()
    );
    // Held here with the rest of the start: every file the agent changes after it is
    // hashed at the check, whatever an index it rewrote says.
    let started_at = jiff::Timestamp::now().to_string();
    gate::baseline::record(&root, &session, false)?;
    eprintln!("loopgate run: baseline recorded for session `{session}`");
    // The start is held here, outside the agent's reach: a jailed agent that rewrites the
    // baseline in `.loopgate/` or `loopgate.toml` cannot move the bar it is judged by.
    let working = gate::config::load(&root, Vec::new)?;
    let pinned = gate::comparison::PinnedStart {
        session: session.clone(),
        config: gate::baseline::RecordedConfig::of(&working),
        head: repo.as_ref().and_then(|r| r.resolve("HEAD").ok()),
        // `.loopgate/` stays writable to the jailed agent (its hooks write there), so a
        // baseline re-recorded in the same state is told apart by when it was written.
        baseline_created_at: gate::baseline::load(&root, &session)?.map(|b| b.created_at),
        started_at,
    };

    let (program, rest) = args.argv.split_first().expect("clap requires a program");
    let program_name = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut cmd = Command::new(program);
    cmd.args(rest)
        .current_dir(dir)
        .env("LOOPGATE_SESSION", &session);
    // The agent's whole tree dies with it and with loopgate. Before the jail's hook, which
    // must run in the agent, not in its keepers.
    let ownership = sandbox::tree::own(&mut cmd, sandbox::tree::wanted(), STOP_GRACE)?;
    let want_jail = args.confine || cfg.sandbox.confine == Confine::Required;
    let mut prepared = None;
    let mut supervisor = None;
    let mut confined = false;
    if want_jail {
        match sandbox::landlock_available() {
            sandbox::Availability::Missing { reason }
                if cfg.sandbox.confine == Confine::Required =>
            {
                anyhow::bail!(
                    "[sandbox] confine = \"required\" but Landlock is not available ({reason})"
                );
            }
            sandbox::Availability::Missing { reason } => {
                eprintln!("loopgate run: not confined ({reason}); writes outside the roots will be detected at the end instead");
            }
            sandbox::Availability::Available { .. } => {
                let home = std::env::var_os("HOME").map(PathBuf::from);
                let agent = agent_state(&program_name);
                let extra = home
                    .as_deref()
                    .map(|h| prepare_agent_state(&agent, h))
                    .unwrap_or_default();
                let settings: Vec<PathBuf> = home
                    .as_deref()
                    .map(|h| agent.settings.iter().map(|s| h.join(s)).collect())
                    .unwrap_or_default();
                // The agent's hooks run inside the jail, where the referee's state is
                // read-only: they forward their calls to the supervisor, outside it.
                let state_dir = state::user_state_dir().ok_or_else(|| {
                    anyhow::anyhow!("no HOME or LOOPGATE_STATE_HOME to keep loopgate's state in: `loopgate run --confine` needs one for its supervisor")
                })?;
                if let Some(pins) = gate::pin::dir() {
                    state::ensure_dir(&pins)?;
                }
                let plan = sandbox::ConfinePlan {
                    write_roots: gate::escape::write_roots(&root, cfg),
                    extra_writable: extra,
                    private_tmp: true,
                    scoped: false,
                };
                let p = sandbox::prepare(&plan)?;
                let sup = crate::cmd::supervisor::serve::start(
                    &state_dir,
                    &root,
                    cfg.gate.hook_deadline,
                )?;
                read_only_state(&root, settings, sup.dir(), p.report(), &mut cmd)?;
                cmd.env(crate::cmd::supervisor::ENV, sup.socket());
                supervisor = Some(sup);
                sandbox::apply(&mut cmd, &p);
                // Its hooks then leave shell commands as they are: the whole agent is jailed.
                cmd.env(crate::cmd::hook::rewrite::RUN_CONFINED_ENV, "1");
                eprintln!(
                    "loopgate run: `{program_name}` confined by Landlock ({})",
                    p.enforcement()
                );
                confined = p.enforcement() != sandbox::Enforcement::NotEnforced;
                prepared = Some(p);
            }
        }
    }
    let (finished, _) = sandbox::process::run_owned(cmd, ownership)
        .map_err(|e| anyhow::anyhow!("cannot start `{program}`: {e}"))?;
    drop(prepared);
    drop(supervisor);
    eprintln!(
        "loopgate run: `{program_name}` exited with {}; running the done gate",
        finished.code
    );
    let receipt = done::run(
        dir,
        &DoneRequest {
            via: "run".into(),
            session: Some(session),
            require_session: true,
            run_checks: true,
            run_guards: true,
            confined_run: confined,
            pinned: Some(pinned),
            ..DoneRequest::default()
        },
    )?;
    crate::report::print_receipt(&receipt);
    Ok(match receipt.exit_code {
        0 => Exit::Pass,
        1 => Exit::Failed,
        _ => Exit::Refused,
    })
}
