//! One module per subcommand; each turns parsed arguments into an [`Exit`].

use crate::cli::{Cli, Command};
use crate::exit::Exit;

mod audit;
mod baseline;
mod check;
mod exec;
pub(crate) mod hook;
mod init;
mod install;
pub mod jail_plan;
pub mod jail_reach;
pub(crate) mod jail_shell;
mod policy;
mod quarantine;
mod receipt;
mod run;
mod status;
pub(crate) mod supervisor;

pub fn dispatch(cli: Cli) -> anyhow::Result<Exit> {
    let dir = match &cli.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir()
            .map_err(|e| anyhow::anyhow!("cannot read the current directory: {e}"))?,
    };
    match cli.command {
        Command::Init(args) => init::run(&dir, &args),
        Command::Check(args) => check::run(&dir, &args),
        Command::Baseline(args) => baseline::run(&dir, &args),
        Command::Status(args) => status::run(&dir, &args),
        Command::Receipt(args) => receipt::run(&dir, &args),
        Command::Policy(cmd) => policy::run(&dir, &cmd),
        Command::Hook(args) => hook::run(&dir, &args),
        Command::Install(args) => install::install(&dir, &args),
        Command::Uninstall(args) => install::uninstall(&dir, &args),
        Command::Exec(args) => exec::exec(&dir, &args),
        Command::Run(args) => run::run_agent(&dir, &args),
        Command::JailShell(args) => jail_shell::run(&dir, &args),
        Command::Audit(cmd) => audit::run(&dir, &cmd),
        Command::Quarantine(cmd) => quarantine::run(&dir, &cmd),
    }
}
