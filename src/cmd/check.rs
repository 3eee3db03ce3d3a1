use crate::cli::CheckArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &CheckArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate check` is not built yet")
}
