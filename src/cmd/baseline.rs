use crate::cli::BaselineArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &BaselineArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate baseline` is not built yet")
}
