use crate::cli::PolicyCommand;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &PolicyCommand) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate policy` is not built yet")
}
