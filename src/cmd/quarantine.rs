use crate::cli::QuarantineCommand;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &QuarantineCommand) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate quarantine` is not built yet")
}
