use crate::cli::QuarantineCommand;
use crate::exit::Exit;
use sandbox::quarantine::{self, Record};
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
            let released = gate::escape::release(&root, args.id.as_deref())?;
            if released.cleared_corrupt {
                println!(
                    "removed the corrupt {}",
                    quarantine::path(&state_dir).display()
                );
            } else if released.records.is_empty() {
                println!("nothing to release");
            }
            for r in &released.records {
                println!("released {}", r.id);
                for p in &r.paths {
                    println!("  {}", p.display());
                }
            }
            if released.refreshed > 0 {
                println!(
                    "the watch roots as they are now are the new reference of {} baseline(s)",
                    released.refreshed
                );
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
