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
        "kernel": crate::cmd::hook::rewrite::kernel_status(&loaded.config.sandbox),
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
    let kernel = &status["kernel"];
    match kernel["landlock"]["abi"].as_u64() {
        Some(abi) => println!(
            "landlock:  ABI {abi} ({})",
            kernel["landlock"]["enforcement"].as_str().unwrap_or("")
        ),
        None => println!(
            "landlock:  missing: {}",
            kernel["landlock"]["why"].as_str().unwrap_or("")
        ),
    }
    match kernel["mount_namespaces"]["why"].as_str() {
        None => {
            println!("mount ns:  available (the referee's files are read-only to jailed commands)")
        }
        Some(why) => println!("mount ns:  missing: {why}"),
    }
    if let Some(agents) = kernel["agents"].as_object() {
        for (name, a) in agents {
            let what = a["shell_commands"].as_str().unwrap_or("");
            let detail = a["level"].as_str().or(a["why"].as_str()).unwrap_or("");
            println!("shell:     {name}: {what} ({detail})");
        }
    }
    if let Some(q) = quarantine {
        println!("QUARANTINE: {q}");
    }
    Ok(Exit::Pass)
}
