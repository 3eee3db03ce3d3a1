//! `loopgate.toml`: parsing, validation and the embedded defaults.
//!
//! Unknown keys are errors (a typo in a guard name must never silently turn a guard off).

use crate::bounds;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const FILE_NAME: &str = "loopgate.toml";
pub const DEFAULT_CHECK_TIMEOUT: Duration = Duration::from_secs(600);

/// A guard's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Off,
    Warn,
    Fail,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CheckSpec {
    pub name: String,
    pub run: String,
    /// "10m", "30s", "1h30m"; default 10 minutes.
    #[serde(default, with = "duration_opt")]
    pub timeout: Option<Duration>,
    /// Explicit opt-out of vetting: run through `sh -c`, marked unvetted in receipts.
    #[serde(default)]
    pub shell: bool,
}

impl CheckSpec {
    pub fn timeout(&self) -> Duration {
        self.timeout.unwrap_or(DEFAULT_CHECK_TIMEOUT)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct GuardsConfig {
    pub config_edits: Level,
    pub protected_edits: Level,
    pub deleted_tests: Level,
    pub new_skips: Level,
    pub disabled_lint: Level,
    pub write_escape: Level,
    pub new_todos: Level,
    pub debug_artifacts: Level,
    /// Globs (gitignore style, relative to the repo root) whose edits are findings.
    pub protect: Vec<String>,
    /// Added to the built-in per-language test globs.
    pub test_globs: Vec<String>,
    /// Rust macros that declare tests, added to the built-in ones: `name` for an
    /// attribute (`#[name]`), `name!` for a test-generating function-like macro.
    pub test_macros: Vec<String>,
    /// Paths no guard looks at.
    pub exclude: Vec<String>,
}

impl Default for GuardsConfig {
    fn default() -> Self {
        GuardsConfig {
            config_edits: Level::Fail,
            protected_edits: Level::Fail,
            deleted_tests: Level::Fail,
            new_skips: Level::Fail,
            disabled_lint: Level::Fail,
            write_escape: Level::Fail,
            new_todos: Level::Warn,
            debug_artifacts: Level::Warn,
            protect: Vec::new(),
            test_globs: Vec::new(),
            test_macros: Vec::new(),
            exclude: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct GateConfig {
    /// Consecutive bounces without progress before a stop is let through red.
    pub max_bounces: u32,
    /// Stop running checks after the first failure.
    pub fail_fast: bool,
    /// Programs added to the check-mode allowlist.
    pub programs: Vec<String>,
    /// Every hook answers within this deadline, well inside the agent's own hook timeout.
    #[serde(with = "duration")]
    pub hook_deadline: Duration,
}

impl Default for GateConfig {
    fn default() -> Self {
        GateConfig {
            max_bounces: 3,
            fail_fast: false,
            programs: Vec::new(),
            hook_deadline: Duration::from_secs(540),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confine {
    Auto,
    Required,
    Off,
}

/// What a jailed agent shell command may reach on the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Network {
    /// Unrestricted (`npm install`, `cargo build`, `git push` over the network work).
    On,
    /// No network at all: a private network namespace with no interface up.
    Off,
    /// Only the loopback interface of a private network namespace (local test servers).
    Loopback,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxConfig {
    /// Relative paths are taken from the repository root. Empty means nothing is writable.
    pub write_roots: Vec<String>,
    pub temp_writable: bool,
    pub watch_roots: Vec<String>,
    pub confine: Confine,
    /// Paths a jailed agent shell command may not read (hidden by the mount namespace):
    /// `~` expanded, relative ones from the repository root, `*` allowed in the last part.
    pub deny_read: Vec<String>,
    pub network: Network,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            write_roots: vec![".".into()],
            temp_writable: true,
            watch_roots: Vec::new(),
            confine: Confine::Auto,
            // Private keys, not all of ~/.ssh: known_hosts and config stay readable, so
            // `git push` over SSH works through ssh-agent.
            deny_read: ["~/.ssh/id_*", "~/.aws", "~/.config/gh", ".env", ".env.*"]
                .map(String::from)
                .to_vec(),
            network: Network::On,
        }
    }
}

pub use policy::Profile;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct PolicyConfig {
    pub profile: Profile,
    pub allow: Vec<String>,
    pub ask: Vec<String>,
    pub deny: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct BudgetConfig {
    pub session_tokens: Option<u64>,
    pub turn_tokens: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuditConfig {
    #[serde(with = "byte_size")]
    pub max_bytes: u64,
    pub keep: u32,
    pub max_field_bytes: usize,
}

impl Default for AuditConfig {
    fn default() -> Self {
        AuditConfig {
            max_bytes: 50 * 1024 * 1024,
            keep: 3,
            max_field_bytes: 4096,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub version: u32,
    #[serde(default, rename = "check")]
    pub checks: Vec<CheckSpec>,
    #[serde(default)]
    pub guards: GuardsConfig,
    #[serde(default)]
    pub gate: GateConfig,
    #[serde(default)]
    pub sandbox: SandboxConfig,
    #[serde(default)]
    pub policy: PolicyConfig,
    #[serde(default)]
    pub budget: BudgetConfig,
    #[serde(default)]
    pub audit: AuditConfig,
}

/// Where the configuration came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// No file: the embedded default.
    Embedded,
    /// The working tree's file.
    File(PathBuf),
    /// `loopgate.toml` as committed in `commit`.
    Commit { commit: String },
    /// The file's text as recorded when the session started.
    Session { session: String },
}

impl Source {
    /// For receipts and `status`.
    pub fn describe(&self) -> String {
        match self {
            Source::Embedded => "embedded".into(),
            Source::File(p) => p.display().to_string(),
            Source::Commit { commit } => {
                format!("{FILE_NAME} at {}", &commit[..commit.len().min(12)])
            }
            Source::Session { session } => format!("{FILE_NAME} as recorded for session {session}"),
        }
    }
}

/// A config file larger than this is refused unread.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct Loaded {
    pub config: Config,
    pub source: Source,
    /// BLAKE3 of the file bytes, or of the canonical JSON of the embedded default.
    pub hash: String,
    /// The file's text (`None` for the embedded default), so it can be recorded as an anchor.
    pub text: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

impl Config {
    /// The protected globs in effect: `[guards] protect` and, anchored at the root, every
    /// file a check runs by name (`sh t.sh`, `./scripts/test.sh`): rewriting the test
    /// runner turns a red check green without touching a test.
    pub fn protect_globs(&self) -> Vec<String> {
        let mut out = self.guards.protect.clone();
        for check in &self.checks {
            for path in policy::check_inputs::script_paths(&check.run) {
                let glob = format!("/{path}");
                if !out.contains(&glob) {
                    out.push(glob);
                }
            }
        }
        out
    }

    /// The embedded default for a repository with no `loopgate.toml`.
    pub fn embedded(checks: Vec<CheckSpec>) -> Config {
        Config {
            version: 1,
            checks,
            guards: GuardsConfig::default(),
            gate: GateConfig::default(),
            sandbox: SandboxConfig::default(),
            policy: PolicyConfig::default(),
            budget: BudgetConfig::default(),
            audit: AuditConfig::default(),
        }
    }

    /// Parse and validate a file's text. `path` only names the file in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let invalid = |message: String| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let config: Config = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        config.validate().map_err(invalid)?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), String> {
        if self.version != 1 {
            return Err(format!(
                "version = {} is not supported; this loopgate reads version = 1",
                self.version
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        for check in &self.checks {
            if check.name.trim().is_empty() {
                return Err("a [[check]] has an empty name".into());
            }
            if check.run.trim().is_empty() {
                return Err(format!("check `{}` has an empty `run`", check.name));
            }
            if !seen.insert(check.name.as_str()) {
                return Err(format!("two checks are named `{}`", check.name));
            }
            if let Some(t) = check.timeout {
                bounds::duration(
                    &format!("check `{}` timeout", check.name),
                    t,
                    bounds::CHECK_TIMEOUT,
                )?;
            }
        }
        if let Some(n) = self.budget.session_tokens {
            bounds::count("[budget] session_tokens", n, bounds::TOKENS)?;
        }
        if let Some(n) = self.budget.turn_tokens {
            bounds::count("[budget] turn_tokens", n, bounds::TOKENS)?;
        }
        bounds::count("[audit] keep", self.audit.keep.into(), bounds::AUDIT_KEEP)?;
        bounds::size(
            "[audit] max_bytes",
            self.audit.max_bytes,
            bounds::AUDIT_MAX_BYTES,
        )?;
        bounds::count(
            "[audit] max_field_bytes",
            self.audit.max_field_bytes as u64,
            bounds::AUDIT_FIELD_BYTES,
        )?;
        bounds::count(
            "[gate] max_bounces",
            self.gate.max_bounces.into(),
            bounds::MAX_BOUNCES,
        )?;
        bounds::duration(
            "[gate] hook_deadline",
            self.gate.hook_deadline,
            bounds::HOOK_DEADLINE,
        )?;
        for root in &self.sandbox.write_roots {
            bounds::root_path("[sandbox] write_roots", root, true)?;
        }
        for root in &self.sandbox.watch_roots {
            bounds::root_path("[sandbox] watch_roots", root, false)?;
        }
        for path in &self.sandbox.deny_read {
            bounds::deny_read_path("[sandbox] deny_read", path)?;
        }
        for program in &self.gate.programs {
            if program.trim().is_empty() || program.trim() != program {
                return Err(format!(
                    "[gate] programs has the entry `{program}`: a program name must be non-empty and have no surrounding spaces"
                ));
            }
        }
        for name in &self.guards.test_macros {
            bounds::macro_name("[guards] test_macros", name)?;
        }
        for (key, globs) in [
            ("protect", &self.guards.protect),
            ("test_globs", &self.guards.test_globs),
            ("exclude", &self.guards.exclude),
        ] {
            for glob in globs {
                if glob.trim().is_empty() {
                    return Err(format!("[guards] {key} has an empty glob"));
                }
                // The same dialect the guards and the tool gate match with (policy::globs).
                policy::globs::Pattern::new(glob)
                    .map_err(|e| format!("[guards] {key}: bad glob `{glob}`: {e}"))?;
            }
        }
        Ok(())
    }

    /// A stable hash of what the config means (used when there is no file).
    pub fn canonical_hash(&self) -> String {
        let json = serde_json::to_vec(self).expect("config serializes");
        blake3::hash(&json).to_hex().to_string()
    }
}

/// Load `loopgate.toml` from `root`'s working tree, or the embedded default built from
/// `detected` checks. Only for commands that have no comparison point to anchor to (see
/// [`crate::anchor`] for the config in effect when judging).
pub fn load(root: &Path, detected: impl FnOnce() -> Vec<CheckSpec>) -> Result<Loaded, ConfigError> {
    let path = root.join(FILE_NAME);
    match read_file(&path)? {
        Some(bytes) => from_bytes(Some(&bytes), Source::File(path.clone()), &path, detected),
        None => from_bytes(None, Source::Embedded, &path, detected),
    }
}

/// The bytes of a config file, `None` when it does not exist. Anything that is not a
/// regular file (a FIFO, a device, a directory) or is larger than [`MAX_FILE_BYTES`] is an
/// error, read without blocking.
pub fn read_file(path: &Path) -> Result<Option<Vec<u8>>, ConfigError> {
    // Bounded and non-blocking: a FIFO, a device (a symlink to /dev/zero) or a huge file in
    // place of the config is an error, never a hang or an exhausted memory.
    match state::read_bounded(path, MAX_FILE_BYTES, state::Follow::Yes) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(ConfigError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The config a file's bytes mean (`None`: no file, the embedded default). `name` only
/// names the file in errors.
pub fn from_bytes(
    bytes: Option<&[u8]>,
    source: Source,
    name: &Path,
    detected: impl FnOnce() -> Vec<CheckSpec>,
) -> Result<Loaded, ConfigError> {
    let Some(bytes) = bytes else {
        let config = Config::embedded(detected());
        let hash = config.canonical_hash();
        return Ok(Loaded {
            config,
            source: Source::Embedded,
            hash,
            text: None,
        });
    };
    let text = std::str::from_utf8(bytes).map_err(|_| ConfigError::Invalid {
        path: name.to_path_buf(),
        message: "the file is not UTF-8 text".into(),
    })?;
    let config = Config::parse(text, name)?;
    Ok(Loaded {
        config,
        source,
        hash: blake3::hash(bytes).to_hex().to_string(),
        text: Some(text.to_string()),
    })
}

pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let span: jiff::SignedDuration = text.trim().parse().map_err(|_| {
        format!("`{text}` is not a duration; write it like \"30s\", \"10m\" or \"1h30m\"")
    })?;
    Duration::try_from(span).map_err(|_| format!("`{text}` is a negative duration"))
}

pub fn parse_byte_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`{text}` is not a size; write it like \"50MiB\""))?;
    let mult: u64 = match unit.trim() {
        "" | "B" => 1,
        "KiB" | "K" | "KB" => 1024,
        "MiB" | "M" | "MB" => 1024 * 1024,
        "GiB" | "G" | "GB" => 1024 * 1024 * 1024,
        other => {
            return Err(format!(
                "`{other}` is not a size unit; use B, KiB, MiB or GiB"
            ))
        }
    };
    n.checked_mul(mult)
        .filter(|v| *v > 0)
        .ok_or_else(|| format!("`{text}` is out of range"))
}

mod duration {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}ms", d.as_millis()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let text = String::deserialize(d)?;
        super::parse_duration(&text).map_err(serde::de::Error::custom)
    }
}

mod duration_opt {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::Duration;

    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => super::duration::serialize(d, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        let text = String::deserialize(d)?;
        super::parse_duration(&text)
            .map(Some)
            .map_err(serde::de::Error::custom)
    }
}

mod byte_size {
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Int(u64),
        Text(String),
    }

    pub fn serialize<S: Serializer>(n: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(*n)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        match Raw::deserialize(d)? {
            Raw::Int(0) => Err(serde::de::Error::custom("a size must be above zero")),
            Raw::Int(n) => Ok(n),
            Raw::Text(t) => super::parse_byte_size(&t).map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(text, Path::new("loopgate.toml")).map_err(|e| e.to_string())
    }

    #[test]
    fn design_sketch_parses() {
        let c = parse(
            r#"
version = 1
[[check]]
name = "test"
run = "cargo test --quiet"
timeout = "10m"
[guards]
new_todos = "off"
protect = ["Cargo.toml"]
[gate]
max_bounces = 5
[sandbox]
write_roots = [".", "/tmp/x"]
confine = "required"
[policy]
profile = "strict"
allow = ["Bash(cargo test:*)"]
[budget]
session_tokens = 2_000_000
[audit]
max_bytes = "1MiB"
"#,
        )
        .unwrap();
        assert_eq!(c.checks[0].timeout(), Duration::from_secs(600));
        assert_eq!(c.guards.new_todos, Level::Off);
        assert_eq!(c.guards.deleted_tests, Level::Fail);
        assert_eq!(c.gate.max_bounces, 5);
        assert_eq!(c.sandbox.confine, Confine::Required);
        assert_eq!(c.policy.profile, Profile::Strict);
        assert_eq!(c.budget.session_tokens, Some(2_000_000));
        assert_eq!(c.audit.max_bytes, 1024 * 1024);
    }

    #[test]
    fn unknown_key_names_the_key_and_line() {
        let err = parse("version = 1\n[guards]\nnew_skip = \"off\"\n").unwrap_err();
        assert!(err.contains("new_skip"), "{err}");
        assert!(err.contains("line 3"), "{err}");
        assert!(err.starts_with("loopgate.toml"), "{err}");
    }

    #[test]
    fn bad_level_is_an_error() {
        let err = parse("version = 1\n[guards]\nnew_skips = \"maybe\"\n").unwrap_err();
        assert!(err.contains("maybe") || err.contains("variant"), "{err}");
    }

    #[test]
    fn missing_version_and_wrong_version() {
        assert!(parse("").unwrap_err().contains("version"));
        assert!(parse("version = 2").unwrap_err().contains("version = 2"));
    }

    #[test]
    fn duplicate_check_names_and_empty_run() {
        let dup = "version = 1\n[[check]]\nname='a'\nrun='x'\n[[check]]\nname='a'\nrun='y'\n";
        assert!(parse(dup).unwrap_err().contains("two checks are named `a`"));
        let empty = "version = 1\n[[check]]\nname='a'\nrun='  '\n";
        assert!(parse(empty).unwrap_err().contains("empty `run`"));
    }

    #[test]
    fn bad_timeout_and_sizes() {
        let t = "version = 1\n[[check]]\nname='a'\nrun='x'\ntimeout='soon'\n";
        assert!(parse(t).unwrap_err().contains("not a duration"));
        assert!(parse("version = 1\n[audit]\nmax_bytes = '5 lots'\n").is_err());
        assert!(parse("version = 1\n[audit]\nmax_bytes = 0\n").is_err());
        assert!(parse("version = 1\n[budget]\nturn_tokens = 0\n").is_err());
        assert!(parse("version = 1\n[guards]\nprotect = ['a/[']\n")
            .unwrap_err()
            .contains("bad glob"));
    }

    #[test]
    fn sizes_and_durations() {
        assert_eq!(parse_byte_size("50MiB").unwrap(), 50 * 1024 * 1024);
        assert_eq!(parse_byte_size("4096").unwrap(), 4096);
        assert!(parse_byte_size("99999999999999999GiB").is_err());
        assert_eq!(parse_duration("1h30m").unwrap(), Duration::from_secs(5400));
        assert!(parse_duration("10").is_err());
    }

    #[test]
    fn embedded_hash_is_stable_and_sensitive() {
        let a = Config::embedded(vec![]);
        let mut b = Config::embedded(vec![]);
        assert_eq!(
            a.canonical_hash(),
            Config::embedded(vec![]).canonical_hash()
        );
        b.gate.max_bounces = 9;
        assert_ne!(a.canonical_hash(), b.canonical_hash());
    }
}
