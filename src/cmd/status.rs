use crate::cli::StatusArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(dir: &Path, args: &StatusArgs) -> anyhow::Result<Exit> {
    let (repo, root) = gate::done::find_root(dir);
    state::cleanup::remove_stale_temps(&state::state_dir(&root));
    let loaded = gate::config::load(&root, || gate::detect::detected_checks(&root))?;
    let newest = gate::baseline::newest(&root)?;
    let latest = gate::store::latest(&root)?;
    let quarantine = gate::escape::open_quarantine(&root)?;
    let config_source = match &loaded.source {
        gate::config::Source::Embedded => "embedded default".to_string(),
        other => other.describe(),
    };
    let checks: Vec<_> = loaded
        .config
        .checks
        .iter()
        .map(|c| serde_json::json!({"name": c.name, "run": c.run, "shell": c.shell}))
        .collect();
    let status = serde_json::json!({
        "root": root,
        "git": repo.is_some(),
        "config": config_source,
        "config_hash": loaded.hash,
        "checks": checks,
        "profile": loaded.config.policy.profile,
        "baseline": newest.as_ref().map(|b| serde_json::json!({"session": b.session, "created_at": b.created_at, "head": b.head})),
        "latest_receipt": latest.as_ref().map(|r| serde_json::json!({"verdict": r.verdict, "exit_code": r.exit_code, "started_at": r.started_at, "via": r.via})),
        "quarantine": quarantine,
    });
    if args.json {
        println!("{}", serde_json::to_string_pretty(&status)?);
        return Ok(Exit::Pass);
    }
    println!(
        "root:      {}{}",
        root.display(),
        if repo.is_some() {
            ""
        } else {
            " (not a git repository)"
        }
    );
    println!("config:    {config_source}");
    if loaded.config.checks.is_empty() {
        println!("checks:    none (declare [[check]] in loopgate.toml)");
    }
    for c in &loaded.config.checks {
        println!(
            "check:     {}: {}{}",
            c.name,
            c.run,
            if c.shell { " [unvetted]" } else { "" }
        );
    }
    match &newest {
        Some(b) => println!("baseline:  session `{}` at {}", b.session, b.created_at),
        None => println!("baseline:  none recorded"),
    }
    match &latest {
        Some(r) => println!(
            "receipt:   {:?} (exit {}) at {} via {}",
            r.verdict, r.exit_code, r.started_at, r.via
        ),
        None => println!("receipt:   none yet"),
    }
    if let Some(q) = quarantine {
        println!("QUARANTINE: {q}");
    }
    Ok(Exit::Pass)
}
