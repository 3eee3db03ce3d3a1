use crate::cli::StatusArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &StatusArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate status` is not built yet")
}
