use crate::cli::HookArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &HookArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate hook` is not built yet")
}
