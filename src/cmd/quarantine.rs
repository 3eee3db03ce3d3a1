use crate::cli::QuarantineCommand;
use crate::exit::Exit;
use sandbox::quarantine::{self, QuarantineError, Record};
use std::path::Path;

/// `loopgate quarantine list [--json]` and `loopgate quarantine release [ID]`.
pub fn run(dir: &Path, cmd: &QuarantineCommand) -> anyhow::Result<Exit> {
    let root = gate::git::root_of(dir).unwrap_or_else(|| dir.to_path_buf());
    let state_dir = state::state_dir(&root);
    match cmd {
        QuarantineCommand::List(args) => {
            let records = quarantine::list(&state_dir)?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&records)?);
            } else if records.is_empty() {
                println!("no quarantine");
            } else {
                for r in &records {
                    print_record(r);
                }
                println!(
                    "release with `loopgate quarantine release [ID]` once the paths are reviewed"
                );
            }
            Ok(Exit::Pass)
        }
        QuarantineCommand::Release(args) => {
            let corrupt = matches!(
                quarantine::list(&state_dir),
                Err(QuarantineError::Corrupt { .. })
            );
            let released = quarantine::release(&state_dir, args.id.as_deref())?;
            if corrupt {
                println!(
                    "removed the corrupt {}",
                    quarantine::path(&state_dir).display()
                );
            } else if released.is_empty() {
                println!("nothing to release");
            }
            for r in &released {
                println!("released {}", r.id);
                for p in &r.paths {
                    println!("  {}", p.display());
                }
            }
            if !released.is_empty() || corrupt {
                let config = gate::config::load(&root, Vec::new).ok().map(|l| l.config);
                let mut extra = serde_json::Map::new();
                extra.insert(
                    "released".into(),
                    serde_json::json!(released.iter().map(|r| &r.id).collect::<Vec<_>>()),
                );
                gate::evidence::append(
                    &root,
                    config.as_ref(),
                    audit::Record {
                        session: "human".into(),
                        agent: "cli".into(),
                        event: "quarantine_release".into(),
                        decision: Some("release".into()),
                        extra,
                        ..audit::Record::default()
                    },
                );
                let refreshed = gate::escape::acknowledge(&root)?;
                if refreshed > 0 {
                    println!("the watch roots as they are now are the new reference of {refreshed} baseline(s)");
                }
            }
            Ok(Exit::Pass)
        }
    }
}

fn print_record(r: &Record) {
    println!("{}  {}  session {}  {}", r.id, r.time, r.session, r.source);
    for p in &r.paths {
        println!("  {}", p.display());
    }
}
