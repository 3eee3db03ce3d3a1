use crate::cli::BaselineArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(dir: &Path, args: &BaselineArgs) -> anyhow::Result<Exit> {
    let session = args
        .session
        .as_deref()
        .unwrap_or(gate::baseline::MANUAL_SESSION);
    if session.trim().is_empty() {
        anyhow::bail!("--session needs a non-empty id");
    }
    if let Some(root) = gate::git::root_of(dir) {
        state::cleanup::remove_stale_temps(&state::state_dir(&root));
    }
    let outcome = gate::baseline::record(dir, session, args.if_missing)?;
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "session": outcome.session,
                "created": outcome.created,
                "path": outcome.path,
            })
        );
    } else if outcome.created {
        println!(
            "baseline recorded for session `{}`: {}",
            outcome.session,
            outcome.path.display()
        );
    } else {
        println!(
            "session `{}` already has a baseline: {}",
            outcome.session,
            outcome.path.display()
        );
    }
    Ok(Exit::Pass)
}
