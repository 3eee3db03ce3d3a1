use crate::cli::AuditCommand;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &AuditCommand) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate audit` is not built yet")
}
