use crate::cli::ExecArgs;
use crate::exit::Exit;
use gate::config::Confine;
use sandbox::confine::{ConfinePlan, ConfineReport, Enforcement, Prepared};
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Between the SIGTERM and the SIGKILL a keeper sends the tree when loopgate dies.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// `loopgate exec [--confine] [--json] -- PROGRAM ARGS...`: one argv, no shell, run in
/// `dir` with stdio inherited, owning its process tree (nothing it starts outlives it or
/// loopgate; see `sandbox::tree`). The child's exit code is loopgate's (128+n for a signal), so
/// this returns only on loopgate's own errors (exit 2) and otherwise exits the process.
pub fn exec(dir: &Path, args: &ExecArgs) -> anyhow::Result<Exit> {
    if !dir.is_dir() {
        anyhow::bail!("{}: not a directory", dir.display());
    }
    let program = &args.argv[0];
    let mut cmd = Command::new(program);
    cmd.args(&args.argv[1..]).current_dir(dir);
    // Before the confinement: its hook must run in the command, not in its keeper.
    let ownership = sandbox::tree::own(&mut cmd, sandbox::tree::wanted(), STOP_GRACE)?;
    let prepared = if args.confine {
        Some(confine(dir, &mut cmd)?)
    } else {
        None
    };
    let (finished, containment) = sandbox::process::run_owned(cmd, ownership)
        .map_err(|e| spawn_error(program, &e, prepared.is_some()))?;
    if args.json {
        let report = serde_json::json!({
            "argv": args.argv,
            "exit_code": finished.code,
            "signal": finished.signal,
            "duration_ms": finished.duration.as_millis() as u64,
            "confinement": prepared.as_ref().map(Prepared::report),
            "containment": containment,
        });
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{report}");
        let _ = out.flush();
    }
    // Dropping the plan removes the private temp dir before the process ends.
    drop(prepared);
    std::process::exit(i32::from(finished.code))
}

fn confine(dir: &Path, cmd: &mut Command) -> anyhow::Result<Prepared> {
    let root = match gate::git::root_of(dir) {
        Some(root) => root,
        None => {
            eprintln!(
                "loopgate: {} is not inside a git repository; the write roots are taken from it",
                dir.display()
            );
            std::fs::canonicalize(dir)?
        }
    };
    let loaded = gate::config::load(&root, Vec::new)?;
    let cfg = &loaded.config.sandbox;
    let plan = ConfinePlan {
        write_roots: gate::escape::write_roots(&root, &loaded.config),
        extra_writable: Vec::new(),
        private_tmp: true,
        scoped: false,
    };
    let prepared = sandbox::prepare(&plan)?;
    let report = prepared.report();
    if report.enforcement == Enforcement::NotEnforced {
        let why = report.reason.clone().unwrap_or_default();
        if cfg.confine == Confine::Required {
            anyhow::bail!(
                "confine = \"required\" in loopgate.toml, but Landlock confinement is not available: {why}; nothing was run"
            );
        }
        eprintln!("loopgate: confinement degraded to detection: {why}; running unconfined");
    } else {
        eprintln!("loopgate: {}", describe(report));
        read_only_referee(&root, report, cmd)?;
    }
    sandbox::apply(cmd, &prepared);
    Ok(prepared)
}

/// The referee's files inside the write roots made read-only by a private mount namespace,
/// where one can be had (registered before Landlock, which forbids mounting).
fn read_only_referee(root: &Path, report: &ConfineReport, cmd: &mut Command) -> anyhow::Result<()> {
    let referee =
        gate::referee_files::read_only(root, gate::referee_files::Scope::All, &report.writable)?;
    match &referee {
        gate::referee_files::RefereeFiles::Writable { reason } => eprintln!(
            "loopgate: the referee's files stay writable (no mount namespace: {reason}); edits to them are detected instead"
        ),
        gate::referee_files::RefereeFiles::ReadOnly(p) if !p.read_only.is_empty() => {
            let shown: Vec<String> = p.read_only.iter().map(|p| p.display().to_string()).collect();
            eprintln!("loopgate: read-only: {}", shown.join(", "));
        }
        gate::referee_files::RefereeFiles::ReadOnly(_) => {}
    }
    referee.apply(cmd);
    Ok(())
}

fn describe(report: &ConfineReport) -> String {
    let abi = report
        .abi
        .map(|a| format!(", Landlock ABI {a}"))
        .unwrap_or_default();
    let roots: Vec<String> = report
        .writable
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut line = format!(
        "confinement {}{abi}; writable: {}",
        report.enforcement,
        roots.join(", ")
    );
    if let Some(reason) = &report.reason {
        line.push_str(&format!(" ({reason})"));
    }
    line
}

fn spawn_error(program: &str, e: &std::io::Error, confined: bool) -> anyhow::Error {
    match e.kind() {
        std::io::ErrorKind::NotFound => {
            anyhow::anyhow!("cannot run `{program}`: program not found (looked in PATH unless the name has a `/`)")
        }
        _ if confined => anyhow::anyhow!("cannot start `{program}` confined: {e}"),
        std::io::ErrorKind::PermissionDenied => {
            anyhow::anyhow!("cannot run `{program}`: permission denied")
        }
        _ => anyhow::anyhow!("cannot run `{program}`: {e}"),
    }
}
