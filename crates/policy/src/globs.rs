//! The one glob dialect of loopgate: gitignore-style globs over repository-relative
//! paths, compiled once per run, and the one list of gate files.
//!
//! Every seat uses these: the guards (`gate::guards` re-exports [`PathSet`] and
//! [`GATE_FILES`]; `gate` depends on `policy`, never the reverse), config validation, the
//! tool gate's file-write check, agent-mode shell vetting and user rules.
//!
//! - a pattern with no `/` (other than a trailing one) matches at any depth:
//!   `Cargo.toml` is every `Cargo.toml`; write `/Cargo.toml` for the root one only;
//! - a pattern with a `/` inside is anchored at the repository root;
//! - `*` and `?` stop at `/`, `**` crosses directories;
//! - a pattern also matches everything below a directory it names (`vendor` covers
//!   `vendor/a/b.js`); a trailing `/` matches only below.
//!
//! Negations (`!pattern`) are not supported; such a pattern matches nothing.

use globset::{Glob, GlobBuilder, GlobMatcher, GlobSet, GlobSetBuilder};
use std::sync::OnceLock;

/// One compiled pattern, keeping the text the user wrote (findings quote it).
#[derive(Debug, Clone)]
pub struct Pattern {
    pub text: String,
    /// Parsed, not yet compiled: a [`PathSet`] compiles all its patterns together (literal
    /// names and prefixes need no regular expression), and a lone pattern compiles on its
    /// first use.
    globs: Vec<Glob>,
    matchers: OnceLock<Vec<GlobMatcher>>,
}

impl Pattern {
    pub fn new(text: &str) -> Result<Pattern, globset::Error> {
        let mut globs = Vec::new();
        if !text.starts_with('!') && !text.trim().is_empty() {
            for glob in expand(text) {
                globs.push(
                    GlobBuilder::new(&glob)
                        .literal_separator(true)
                        .backslash_escape(true)
                        .build()?,
                );
            }
        }
        Ok(Pattern {
            text: text.to_string(),
            globs,
            matchers: OnceLock::new(),
        })
    }

    pub fn is_match(&self, path: &str) -> bool {
        self.matchers
            .get_or_init(|| self.globs.iter().map(Glob::compile_matcher).collect())
            .iter()
            .any(|m| m.is_match(path))
    }

    /// The last path component when it is a plain file name (no glob syntax): the file
    /// this pattern protects by name, which a sibling can shadow.
    pub fn literal_file_name(&self) -> Option<&str> {
        let text = self.text.as_str();
        if text.ends_with('/') || text.starts_with('!') {
            return None;
        }
        let name = text.rsplit('/').next()?;
        let plain = !name.is_empty()
            && !name.contains(['*', '?', '[', ']', '{', '}', '\\'])
            && name != "."
            && name != "..";
        plain.then_some(name)
    }
}

/// The globset globs one gitignore-style pattern stands for.
fn expand(text: &str) -> Vec<String> {
    let dir_only = text.ends_with('/');
    let trimmed = text.trim_end_matches('/');
    let anchored = trimmed.starts_with('/') || trimmed.contains('/');
    let body = trimmed.trim_start_matches('/');
    let base = if anchored || body.starts_with("**") {
        body.to_string()
    } else {
        format!("**/{body}")
    };
    if dir_only {
        vec![format!("{base}/**")]
    } else {
        vec![base.clone(), format!("{base}/**")]
    }
}

/// Paths the gate itself depends on, relative to the repository root (anchored there: a
/// `loopgate.toml` in a subdirectory is not the one loopgate reads). Writing, moving or
/// deleting one is `gate.tamper` in the tool gate and agent mode, and a `config_edits`
/// finding in the guards.
pub const GATE_FILES: &[&str] = &[
    "loopgate.toml",
    ".loopgate/**",
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/hooks.json",
    ".gemini/settings.json",
    ".github/workflows/loopgate.yml",
    // Not tracked, but they run code for the human at the next commit or git command.
    ".git/config",
    ".git/hooks/**",
    // Not tracked, but they decide what git status reports, and so what the guards see
    // (a new test file full of skips hidden by an exclude line).
    ".git/info/exclude",
    ".git/info/attributes",
];

/// Agent hook settings of a global install, relative to the home directory.
pub const HOME_GATE_FILES: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".codex/hooks.json",
    ".codex/config.toml",
    ".cursor/hooks.json",
    ".gemini/settings.json",
];

/// [`GATE_FILES`] anchored at the repository root, compiled once per process (a hook
/// call decides one tool call; compiling the globs is most of its cost otherwise).
pub fn gate_files() -> &'static PathSet {
    static SET: std::sync::OnceLock<PathSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let anchored: Vec<String> = GATE_FILES.iter().map(|g| format!("/{g}")).collect();
        PathSet::new(&anchored)
    })
}

/// [`HOME_GATE_FILES`] anchored at the home directory, compiled once per process.
pub fn home_gate_files() -> &'static PathSet {
    static SET: std::sync::OnceLock<PathSet> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let anchored: Vec<String> = HOME_GATE_FILES.iter().map(|g| format!("/{g}")).collect();
        PathSet::new(&anchored)
    })
}

/// The gate-file or protect pattern `rel` (repository-relative) matches, as written.
/// `protect` is the compiled `protect` list: a call that writes many files compiles it
/// once, not once per file.
pub fn gate_file_pattern(rel: &str, protect: &PathSet) -> Option<String> {
    let rel = rel.trim_start_matches('/');
    if rel.is_empty() {
        return None;
    }
    if let Some(p) = gate_files().first_match(rel) {
        return Some(p.text.trim_start_matches('/').to_string());
    }
    protect.first_match(rel).map(|p| p.text.clone())
}

/// The directory a pattern cannot reach above: the literal components before the first
/// glob character (`ci/*.yml` -> `ci`, `/docs/**` -> `docs`); deleting it, or a parent of
/// it, deletes whatever the pattern protects. `None` for a pattern that matches at any
/// depth (`*.lock`), whose files may be anywhere.
pub fn literal_prefix(pattern: &str) -> Option<String> {
    let trimmed = pattern.trim_end_matches('/');
    let anchored = trimmed.starts_with('/') || trimmed.contains('/');
    let body = trimmed.trim_start_matches('/');
    let mut parts = Vec::new();
    for comp in body.split('/') {
        if comp.contains(['*', '?', '[', '{', '\\']) {
            break;
        }
        parts.push(comp);
    }
    if parts.is_empty() || (!anchored && parts.len() < body.split('/').count()) {
        return None;
    }
    Some(parts.join("/"))
}

/// Several patterns; a path matches the set when any pattern matches it.
#[derive(Debug, Clone, Default)]
pub struct PathSet {
    pub patterns: Vec<Pattern>,
    /// Patterns that did not compile (the config validator normally refuses them first).
    pub invalid: Vec<String>,
    /// Every pattern's globs in one set; `owner[i]` is the pattern of glob `i`.
    set: GlobSet,
    owner: Vec<usize>,
    /// Globs without wildcards, and `literal/**`, matched by string comparison, with the
    /// pattern that owns each. They are what globset would match with its literal and
    /// prefix strategies anyway; building its prefix automaton for them cost more than
    /// the rest of a stop hook's guards.
    plain: Vec<(Plain, usize)>,
}

/// A glob that needs no automaton.
#[derive(Debug, Clone)]
enum Plain {
    /// The whole path, exactly.
    Exact(String),
    /// `dir/**`: every path that starts with `dir/`.
    Under(String),
}

/// `dir/**/**` (what a `dir/**` pattern expands to besides `dir/**`) only matches paths under
/// `dir/`, which the same pattern's `dir/**` already answers for.
fn redundant(glob: &str, siblings: &[Option<Plain>]) -> bool {
    siblings.iter().flatten().any(|p| match p {
        Plain::Under(prefix) => glob.strip_prefix(prefix.as_str()) == Some("**/**"),
        Plain::Exact(_) => false,
    })
}

impl Plain {
    fn of(glob: &str) -> Option<Plain> {
        let literal = |s: &str| !s.is_empty() && !s.contains(['*', '?', '[', ']', '{', '}', '\\']);
        if literal(glob) {
            return Some(Plain::Exact(glob.to_string()));
        }
        let dir = glob.strip_suffix("/**")?;
        literal(dir).then(|| Plain::Under(format!("{dir}/")))
    }

    fn is_match(&self, path: &str) -> bool {
        match self {
            Plain::Exact(p) => path == p,
            Plain::Under(prefix) => path.starts_with(prefix.as_str()),
        }
    }
}

impl PathSet {
    pub fn new<S: AsRef<str>>(texts: &[S]) -> PathSet {
        let mut set = PathSet::default();
        let mut builder = GlobSetBuilder::new();
        for text in texts {
            match Pattern::new(text.as_ref()) {
                Ok(p) => {
                    let owner = set.patterns.len();
                    let plains: Vec<Option<Plain>> =
                        p.globs.iter().map(|g| Plain::of(g.glob())).collect();
                    for (g, plain) in p.globs.iter().zip(plains.iter().cloned()) {
                        if let Some(plain) = plain {
                            set.plain.push((plain, owner));
                        } else if !redundant(g.glob(), &plains) {
                            builder.add(g.clone());
                            set.owner.push(owner);
                        }
                    }
                    set.patterns.push(p);
                }
                Err(_) => set.invalid.push(text.as_ref().to_string()),
            }
        }
        set.set = if set.owner.is_empty() {
            GlobSet::empty()
        } else {
            builder.build().unwrap_or_else(|_| GlobSet::empty())
        };
        set
    }

    pub fn is_match(&self, path: &str) -> bool {
        self.first_match(path).is_some()
    }

    /// The first pattern (in the order given) that matches `path`.
    pub fn first_match(&self, path: &str) -> Option<&Pattern> {
        let plain = self
            .plain
            .iter()
            .filter(|(p, _)| p.is_match(path))
            .map(|&(_, owner)| owner);
        let globbed = if self.owner.is_empty() {
            Vec::new()
        } else {
            self.set.matches(path)
        };
        let first = globbed
            .into_iter()
            .map(|i| self.owner[i])
            .chain(plain)
            .min()?;
        self.patterns.get(first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first pattern matching `path` when every glob goes through one globset, as
    /// before literal and `dir/**` globs were taken out of it.
    fn through_globset(texts: &[&str], path: &str) -> Option<usize> {
        let mut builder = GlobSetBuilder::new();
        let mut owner = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            for g in Pattern::new(text).unwrap().globs {
                builder.add(g);
                owner.push(i);
            }
        }
        let set = builder.build().unwrap();
        set.matches(path).into_iter().map(|i| owner[i]).min()
    }

    #[test]
    fn plain_globs_match_as_globset_would() {
        let texts = [
            "/loopgate.toml",
            "/.loopgate/**",
            "/.git/hooks/**",
            "docs/",
            "secret.txt",
            "src/*.rs",
            "/a/b",
            "**/*.lock",
            "x\\*y",
        ];
        let set = PathSet::new(&texts);
        for path in [
            "loopgate.toml",
            "loopgate.toml/x",
            "loopgate.tomlx",
            "sub/loopgate.toml",
            ".loopgate",
            ".loopgate/",
            ".loopgate/ledger.json",
            ".loopgate/a/b",
            ".loopgatex/a",
            ".git/hooks",
            ".git/hooks/pre-commit",
            "docs",
            "docs/a.md",
            "a/docs/b/c",
            "secret.txt",
            "deep/secret.txt",
            "secret.txt/inner",
            "src/main.rs",
            "src/a/main.rs",
            "a/b",
            "a/b/c",
            "a/bc",
            "Cargo.lock",
            "x/y/Cargo.lock",
            "x*y",
            "xzy",
            "",
        ] {
            let ours = set.first_match(path).map(|p| {
                set.patterns
                    .iter()
                    .position(|q| std::ptr::eq(p, q))
                    .unwrap()
            });
            assert_eq!(ours, through_globset(&texts, path), "path `{path}`");
        }
    }

    fn m(pattern: &str, path: &str) -> bool {
        Pattern::new(pattern).unwrap().is_match(path)
    }

    #[test]
    fn gate_files_are_anchored_and_the_workflow_is_one() {
        assert!(gate_files().is_match(".github/workflows/loopgate.yml"));
        assert!(gate_files().is_match(".loopgate/ledger.json"));
        assert!(!gate_files().is_match("sub/loopgate.toml"));
        assert!(gate_files().is_match(".git/info/exclude"));
        assert!(gate_files().is_match(".git/info/attributes"));
        assert!(!gate_files().is_match(".git/info/refs"));
        assert_eq!(
            gate_file_pattern("crates/a/Cargo.toml", &PathSet::new(&["Cargo.toml"])).as_deref(),
            Some("Cargo.toml")
        );
        assert_eq!(literal_prefix("ci/*.yml").as_deref(), Some("ci"));
        assert_eq!(literal_prefix("/docs/**").as_deref(), Some("docs"));
        assert_eq!(literal_prefix("Cargo.toml").as_deref(), Some("Cargo.toml"));
        assert_eq!(literal_prefix("*.lock"), None);
    }

    #[test]
    fn bare_names_match_at_any_depth() {
        assert!(m("Cargo.toml", "Cargo.toml"));
        assert!(m("Cargo.toml", "crates/a/Cargo.toml"));
        assert!(!m("Cargo.toml", "Cargo.toml.bak"));
        assert!(m("*.lock", "a/b/c.lock"));
    }

    #[test]
    fn slashes_anchor_at_the_root() {
        assert!(m("/Cargo.toml", "Cargo.toml"));
        assert!(!m("/Cargo.toml", "crates/a/Cargo.toml"));
        assert!(m(".cargo/config.toml", ".cargo/config.toml"));
        assert!(!m(".cargo/config.toml", "x/.cargo/config.toml"));
        assert!(!m("src/*.rs", "src/a/b.rs"));
        assert!(m("src/**/*.rs", "src/a/b.rs"));
    }

    #[test]
    fn directories_cover_their_contents() {
        assert!(m("vendor", "vendor/a/b.js"));
        assert!(m("vendor/", "x/vendor/a.js"));
        assert!(!m("vendor/", "vendor"));
        assert!(m(".loopgate/**", ".loopgate/receipts/latest.json"));
    }

    #[test]
    fn negations_match_nothing_and_bad_globs_are_kept_aside() {
        assert!(!m("!keep.js", "keep.js"));
        let set = PathSet::new(&["a/[", "b"]);
        assert_eq!(set.invalid, vec!["a/[".to_string()]);
        assert!(set.is_match("x/b"));
    }

    #[test]
    fn literal_file_names() {
        let name = |t: &str| {
            Pattern::new(t)
                .unwrap()
                .literal_file_name()
                .map(String::from)
        };
        assert_eq!(name("jest.config.js").as_deref(), Some("jest.config.js"));
        assert_eq!(name("/.cargo/config.toml").as_deref(), Some("config.toml"));
        assert_eq!(name("config/*.json"), None);
        assert_eq!(name("vendor/"), None);
    }
}
