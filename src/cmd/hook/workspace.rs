//! Where a hook call happens: the agent's cwd, the repository root, the configuration and
//! the write roots, resolved once at the edge so the decisions stay pure.

use agents::HookInput;
use gate::config::{Config, Loaded};
use std::path::{Path, PathBuf};

/// The agent's cwd when it sent one (made absolute against ours), else ours.
pub fn cwd_of(input: &HookInput, dir: &Path) -> PathBuf {
    let base = absolute(dir);
    match &input.cwd {
        Some(cwd) if !cwd.as_os_str().is_empty() => sandbox::normalize(cwd, &base, None),
        _ => base,
    }
}

fn absolute(dir: &Path) -> PathBuf {
    if dir.is_absolute() {
        return dir.to_path_buf();
    }
    match std::env::current_dir() {
        Ok(cwd) => sandbox::normalize(dir, &cwd, None),
        Err(_) => dir.to_path_buf(),
    }
}

pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// Everything the tool gate needs, resolved.
pub struct Workspace {
    /// The repository root, or the cwd outside any repository.
    pub root: PathBuf,
    pub in_repo: bool,
    /// `loopgate.toml` exists (else the embedded defaults apply).
    pub from_file: bool,
    pub cwd: PathBuf,
    pub home: Option<PathBuf>,
    pub config: Config,
    pub write_roots: Vec<PathBuf>,
}

impl Workspace {
    /// Load the config of the repository around `cwd`. Checks are not detected here: the
    /// tool gate does not run them, and detection reads files a tool call should not pay for.
    pub fn load(cwd: &Path) -> Result<Workspace, String> {
        let found = gate::git::root_of(cwd);
        let in_repo = found.is_some();
        let root = canonical(&found.unwrap_or_else(|| cwd.to_path_buf()));
        let loaded: Loaded = gate::config::load(&root, Vec::new).map_err(|e| e.to_string())?;
        let home = home();
        let write_roots = write_roots(&loaded.config, &root, home.as_deref());
        Ok(Workspace {
            root,
            in_repo,
            from_file: matches!(loaded.source, gate::config::Source::File(_)),
            cwd: cwd.to_path_buf(),
            home,
            config: loaded.config,
            write_roots,
        })
    }
}

/// The configured write roots, resolved against the root, plus the temp dir when writable.
pub fn write_roots(config: &Config, root: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    let mut roots = sandbox::resolve_roots(&config.sandbox.write_roots, root, home);
    if config.sandbox.temp_writable {
        roots.push(canonical(&std::env::temp_dir()));
    }
    roots.sort();
    roots.dedup();
    roots
}

pub fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `path` made absolute and normalized, with its deepest existing ancestor's symlinks
/// resolved: a write through `link/x` where `link -> /etc` lands in `/etc`.
pub fn resolve_target(path: &Path, cwd: &Path, home: Option<&Path>) -> PathBuf {
    let lexical = sandbox::normalize(path, cwd, home);
    let mut existing = lexical.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                existing = parent;
            }
            _ => return lexical,
        }
    }
}
