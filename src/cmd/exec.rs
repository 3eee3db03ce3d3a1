use crate::cli::ExecArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn exec(_dir: &Path, _args: &ExecArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate exec` is not built yet")
}

pub fn run_agent(_dir: &Path, _args: &ExecArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate run` is not built yet")
}
