use crate::cli::InstallArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn install(_dir: &Path, _args: &InstallArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate install` is not built yet")
}

pub fn uninstall(_dir: &Path, _args: &InstallArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate uninstall` is not built yet")
}
