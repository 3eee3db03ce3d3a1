use crate::cli::InitArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &InitArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate init` is not built yet")
}
