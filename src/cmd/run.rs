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
/// transcripts, caches), by the agent program's name. Its settings files are never here:
/// under the jail they stay read-only.
fn agent_state(program: &str) -> (&'static [&'static str], &'static [&'static str]) {
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
        "codex" => (
            &[".codex/sessions", ".codex/log", ".codex/cache"],
            &[".codex/history.jsonl", ".codex/auth.json"],
        ),
        "gemini" => (&[".gemini/tmp"], &[]),
        _ => (&[], &[]),
    }
}

/// Create the agent's state paths (a Landlock rule needs the path to exist) and list them.
fn prepare_agent_state(program: &str, home: &Path) -> Vec<PathBuf> {
    let (dirs, files) = agent_state(program);
    let mut out = Vec::new();
    for d in dirs {
        let p = home.join(d);
        if std::fs::create_dir_all(&p).is_ok() {
            out.push(p);
        }
    }
    for f in files {
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
                let mut extra = home
                    .as_deref()
                    .map(|h| prepare_agent_state(&program_name, h))
                    .unwrap_or_default();
                // The agent's hooks run inside the jail and pin their session there.
                if let Some(pins) = gate::pin::dir() {
                    if state::ensure_dir(&pins).is_ok() {
                        extra.push(pins);
                    }
                }
                let plan = sandbox::ConfinePlan {
                    write_roots: gate::escape::write_roots(&root, cfg),
                    extra_writable: extra,
                    private_tmp: true,
                };
                let p = sandbox::prepare(&plan)?;
                // The config, hook settings and git's code files, but not `.loopgate/`:
                // the agent's own hooks write their audit and ledger there from inside.
                let referee = gate::referee_files::read_only(
                    &root,
                    gate::referee_files::Scope::ExceptState,
                    &p.report().writable,
                )?;
                referee.apply(&mut cmd);
                eprintln!("loopgate run: {}", referee.describe(&root));
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
