//! Real git repositories in temp dirs, with a throwaway HOME next to them.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

pub const LOOPGATE: &str = env!("CARGO_BIN_EXE_loopgate");

pub struct TestRepo {
    root: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl TestRepo {
    /// A repository whose first commit holds `files` (path, text).
    pub fn with_files(files: &[(&str, &str)]) -> TestRepo {
        let root = tempfile::Builder::new()
            .prefix("loopgate-repo-")
            .tempdir()
            .unwrap();
        let home = tempfile::Builder::new()
            .prefix("loopgate-home-")
            .tempdir()
            .unwrap();
        let repo = TestRepo { root, home };
        repo.git(&["init", "-q", "-b", "main"]);
        repo.git(&["config", "user.email", "test@example.com"]);
        repo.git(&["config", "user.name", "loopgate test"]);
        repo.git(&["config", "commit.gpgsign", "false"]);
        for (path, text) in files {
            repo.write(path, text);
        }
        repo.write(".gitignore", ".loopgate/\n");
        repo.git(&["add", "-A"]);
        repo.git(&["commit", "-q", "-m", "start"]);
        repo
    }

    pub fn path(&self) -> PathBuf {
        std::fs::canonicalize(self.root.path()).unwrap()
    }

    pub fn home(&self) -> PathBuf {
        std::fs::canonicalize(self.home.path()).unwrap()
    }

    pub fn file(&self, rel: &str) -> PathBuf {
        self.path().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.root.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    pub fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.root.path().join(rel)).ok()
    }

    pub fn git(&self, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(args)
            .current_dir(self.root.path())
            .env("HOME", self.home.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Hook loopgate into Claude Code for this repository: `loopgate install claude` when
    /// it is built, else the same settings written here.
    pub fn install_claude_hooks(&self) {
        let installed = Command::new(LOOPGATE)
            .args(["install", "claude"])
            .current_dir(self.root.path())
            .env("HOME", self.home.path())
            .output()
            .expect("loopgate runs");
        assert!(
            installed.status.success(),
            "loopgate install claude failed: {}",
            String::from_utf8_lossy(&installed.stderr)
        );
        assert!(self.root.path().join(".claude/settings.json").exists());
    }

    /// The audit lines written so far.
    pub fn audit_lines(&self) -> Vec<Value> {
        let text = self.read(".loopgate/audit.ndjson").unwrap_or_default();
        text.lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }

    pub fn ledger(&self) -> Value {
        self.read(".loopgate/ledger.json")
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(json!({"entries": {}}))
    }

    pub fn latest_receipt(&self) -> Option<Value> {
        self.read(".loopgate/receipts/latest.json")
            .and_then(|t| serde_json::from_str(&t).ok())
    }

    pub fn root_dir(&self) -> &Path {
        self.root.path()
    }
}
