use crate::cli::InitArgs;
use crate::exit::Exit;
use std::path::Path;

pub fn run(dir: &Path, args: &InitArgs) -> anyhow::Result<Exit> {
    let (_, root) = gate::done::find_root(dir);
    let path = root.join(gate::config::FILE_NAME);
    if path.exists() && !args.force {
        anyhow::bail!(
            "{} already exists; use --force to overwrite it",
            path.display()
        );
    }
    let stacks = gate::detect::detect(&root);
    let text = gate::detect::init_template(&stacks);
    state::atomic_write(&path, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o644))?;
    let names: Vec<&str> = stacks.iter().map(|s| s.name()).collect();
    println!(
        "wrote {} ({})",
        path.display(),
        if names.is_empty() {
            "no stack detected: declare your checks".to_string()
        } else {
            format!("detected: {}", names.join(", "))
        }
    );
    Ok(Exit::Pass)
}
