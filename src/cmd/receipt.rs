use crate::cli::ReceiptArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(_dir: &Path, _args: &ReceiptArgs) -> anyhow::Result<Exit> {
    anyhow::bail!("`loopgate receipt` is not built yet")
}
