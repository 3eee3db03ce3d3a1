//! Which paths outside the repository are worth watching for escapes, and which parts of
//! them change on their own so often that watching them would only cry wolf.
//!
//! The list favours places where a write outlives the session and runs code or changes
//! behaviour later: shell start-up files, git and package-manager configs, SSH, the agents'
//! own settings, `~/.config` (autostart and systemd user units live there) and `~/.local/bin`.
//! Files an agent or a desktop rewrites during normal work (transcripts, caches, histories,
//! token refreshes, browser and editor profiles) are left out; see `docs/threat-model.md`.

use std::path::{Path, PathBuf};

/// Files and directories directly under `$HOME`.
const HOME_ENTRIES: &[&str] = &[
    // Shell start-up and login files.
    ".profile",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".bash_aliases",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".inputrc",
    ".xprofile",
    ".xsessionrc",
    ".pam_environment",
    // Editors and terminals that run code from their config.
    ".vimrc",
    ".exrc",
    ".tmux.conf",
    ".emacs",
    // Git, SSH, GPG.
    ".gitconfig",
    ".git-credentials",
    ".ssh",
    ".gnupg/gpg.conf",
    ".gnupg/gpg-agent.conf",
    ".gnupg/common.conf",
    // XDG config (noisy parts excluded below) and the user's PATH directory.
    ".config",
    ".local/bin",
    // Package managers and cloud tools: registries, credentials, build hooks.
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pypirc",
    ".pip/pip.conf",
    ".condarc",
    ".netrc",
    ".cargo/config.toml",
    ".cargo/config",
    ".cargo/credentials.toml",
    ".cargo/credentials",
    ".m2/settings.xml",
    ".gradle/gradle.properties",
    ".gradle/init.gradle",
    ".gradle/init.d",
    ".docker/config.json",
    ".kube/config",
    ".aws/config",
    ".aws/credentials",
    // Agents' user settings (not their transcripts, sessions, caches or token files).
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/CLAUDE.md",
    ".claude/commands",
    ".claude/agents",
    ".claude/skills",
    ".claude/hooks",
    ".codex/config.toml",
    ".codex/hooks.json",
    ".codex/AGENTS.md",
    ".codex/prompts",
    ".codex/rules",
    ".gemini/settings.json",
    ".gemini/GEMINI.md",
    ".gemini/commands",
    ".cursor/hooks.json",
    ".cursor/mcp.json",
    ".cursor/rules",
];

/// Parts of `~/.config` rewritten by running applications or by tools an agent runs
/// legitimately (npm's update notifier, Go telemetry): watching them only produces noise.
const NOISY_CONFIG: &[&str] = &[
    "google-chrome",
    "chromium",
    "BraveSoftware",
    "microsoft-edge",
    "vivaldi",
    "Code",
    "Code - OSS",
    "VSCodium",
    "Cursor",
    "Windsurf",
    "JetBrains",
    "Slack",
    "discord",
    "Signal",
    "spotify",
    "pulse",
    "dconf",
    "ibus",
    "evolution",
    "libreoffice",
    "gcloud",
    "github-copilot",
    "configstore",
    "go/telemetry",
    "htop",
    "procps",
];

/// Git writes these in the shared `.git` of the main checkout during ordinary work in a
/// linked worktree (objects, refs, reflogs, the worktree's own admin dir).
const SHARED_GIT_WRITES: &[&str] = &[
    ".git/objects",
    ".git/refs",
    ".git/logs",
    ".git/packed-refs",
    ".git/worktrees",
    ".git/rr-cache",
    ".git/lfs",
    ".git/shallow",
];

/// The watch roots of DESIGN section 6 before configured ones are added: the main checkout
/// when the repository is a linked worktree, then the user's dotfiles and tool configs.
/// Paths that do not exist are kept: creating one is exactly what must be noticed.
/// `repo_root` is left to [`default_excludes`] (the agent writes there legitimately).
pub fn default_watch_roots(
    home: Option<&Path>,
    repo_root: &Path,
    main_checkout: Option<PathBuf>,
) -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(main) = main_checkout.filter(|m| m != repo_root) {
        roots.push(main);
    }
    if let Some(home) = home {
        roots.extend(HOME_ENTRIES.iter().map(|e| home.join(e)));
    }
    roots
}

/// What a scan of [`default_watch_roots`] skips: the repository itself, the noisy parts of
/// `~/.config`, and the shared git data of the main checkout.
pub fn default_excludes(
    home: Option<&Path>,
    repo_root: &Path,
    main_checkout: Option<&Path>,
) -> Vec<PathBuf> {
    let mut out = vec![repo_root.to_path_buf()];
    if let Some(home) = home {
        out.extend(NOISY_CONFIG.iter().map(|e| home.join(".config").join(e)));
    }
    if let Some(main) = main_checkout {
        out.extend(SHARED_GIT_WRITES.iter().map(|e| main.join(e)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worktree_adds_the_main_checkout_first() {
        let roots = default_watch_roots(
            Some(Path::new("/h")),
            Path::new("/wt"),
            Some(PathBuf::from("/main")),
        );
        assert_eq!(roots[0], PathBuf::from("/main"));
        assert!(roots.contains(&PathBuf::from("/h/.bashrc")));
        assert!(roots.contains(&PathBuf::from("/h/.claude/settings.json")));
        assert!(
            !roots.iter().any(|r| r.starts_with("/h/.claude/projects")),
            "transcripts are the agent's own"
        );
        assert!(
            !roots.contains(&PathBuf::from("/h/.claude.json")),
            "rewritten by Claude Code on every start"
        );
    }

    #[test]
    fn no_home_and_no_worktree_watches_nothing() {
        assert!(default_watch_roots(None, Path::new("/r"), None).is_empty());
        assert!(default_watch_roots(None, Path::new("/r"), Some(PathBuf::from("/r"))).is_empty());
    }

    #[test]
    fn excludes_cover_the_repo_noise_and_shared_git_data() {
        let x = default_excludes(
            Some(Path::new("/h")),
            Path::new("/wt"),
            Some(Path::new("/main")),
        );
        assert!(x.contains(&PathBuf::from("/wt")));
        assert!(x.contains(&PathBuf::from("/h/.config/google-chrome")));
        assert!(x.contains(&PathBuf::from("/main/.git/objects")));
        assert!(
            !x.contains(&PathBuf::from("/main/.git/hooks")),
            "hooks run for the human: watched"
        );
        assert!(!x.contains(&PathBuf::from("/main/.git/config")));
    }
}
