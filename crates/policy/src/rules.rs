//! Claude Code style tool rules: `Tool`, `Tool(specifier)`, evaluated deny > ask > allow.
//!
//! Semantics follow Claude Code's permission rules, so people reuse what they know:
//! - `Bash` or `Bash(*)`: every command. `Bash(npm run build)`: exactly that command.
//!   `Bash(npm run:*)` (legacy) and `Bash(npm run *)`: that prefix on a word boundary
//!   (`npm run`, `npm run test`, not `npm runner`). Any other `*` matches any text.
//!   A command made of several commands (`a && b`, `a | b`) is allowed only when every
//!   part is allowed. A command holding a substitution, a redirection, a group or control
//!   flow is only allowed by a rule for the whole tool. Deny and ask rules are stricter
//!   the other way: they match the whole string, any command reached inside it (groups,
//!   loops, `$( )`, backticks), that command decoded (`'curl'`, `c\url`), with the
//!   program named by its base name (`/usr/bin/curl`, `./bin/curl`), and with the
//!   wrappers of the program table ([`crate::programs`]: `sudo`, `env`, `timeout`,
//!   `flock`, ...) and leading assignments removed. Allow rules accept the decoded form
//!   and a program in a system directory (`/usr/bin/curl`), never a look-alike elsewhere.
//! - `Read(...)`, `Edit(...)` and the other file tools: gitignore-style paths. `//abs`
//!   is absolute, `~/x` is under the home directory, `/x` is relative to the repository
//!   root, `./x` or `a/x` relative to the working directory; a pattern without a slash
//!   (`Read(.env)`) names that file at any depth, from any working directory, and through
//!   symlinks (a link to `.env` is `.env`); the globs are those of [`crate::globs`].
//!   `Edit` rules cover every tool that writes files and `Read` rules every tool that
//!   reads them.
//! - `mcp__server` covers every tool of that MCP server; other specifiers (e.g.
//!   `WebFetch(domain:example.com)`) are compared as text, `*` matching any text.

use crate::shell;
use crate::Verdict;
use std::path::{Path, PathBuf};

/// What a tool call acts on, as far as rules are concerned.
#[derive(Debug, Clone, Copy)]
pub enum ToolSubject<'a> {
    /// Nothing a specifier could match: only whole-tool rules apply.
    None,
    /// A shell command string.
    Command(&'a str),
    /// A file. Relative `path`s are taken from `cwd`; `root` anchors `/x` patterns.
    Path {
        path: &'a Path,
        cwd: &'a Path,
        root: &'a Path,
        home: Option<&'a Path>,
    },
    /// Any other specifier text, e.g. `domain:example.com` for WebFetch.
    Text(&'a str),
}

#[derive(Debug, Clone)]
pub struct Rule {
    /// The rule as written, reported back as the matching rule.
    pub text: String,
    pub tool: String,
    spec: Spec,
}

#[derive(Debug, Clone)]
enum Spec {
    Any,
    Command(CommandPattern),
    Path(PathPattern),
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum CommandPattern {
    Exact(String),
    /// Matches the prefix alone or followed by a space and anything.
    Prefix(String),
    /// `*` matches any text, spaces included.
    Wildcard(String),
}

#[derive(Debug, Clone)]
struct PathPattern {
    anchor: Anchor,
    /// The pattern below its anchor, `**/` added when it had no slash, compiled in the one
    /// glob dialect of [`crate::globs`] (anchored at its base; a directory covers its
    /// contents, as in gitignore).
    compiled: crate::globs::Pattern,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    Absolute,
    Home,
    Root,
    Cwd,
}

const FILE_TOOLS: &[&str] = &[
    "Read",
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "Grep",
    "Glob",
    "LS",
    "NotebookRead",
];
/// Rules are written with Claude Code's tool names; the same rule covers the matching
/// tools of the other agents (Codex, Gemini CLI, Cursor), so one policy serves all seats.
const EDIT_TOOLS: &[&str] = &[
    "Edit",
    "Write",
    "MultiEdit",
    "NotebookEdit",
    "apply_patch",
    "write_file",
    "replace",
    "edit_file",
    "afterFileEdit",
];
const READ_TOOLS: &[&str] = &[
    "Read",
    "Grep",
    "Glob",
    "LS",
    "NotebookRead",
    "read_file",
    "read_many_files",
    "glob",
    "search_file_content",
    "list_directory",
    "beforeReadFile",
];
const SHELL_TOOLS: &[&str] = &[
    "Bash",
    "shell",
    "local_shell",
    "exec",
    "exec_command",
    "container.exec",
    "run_shell_command",
    "beforeShellExecution",
    "Shell",
];
const FETCH_TOOLS: &[&str] = &["WebFetch", "web_fetch"];

impl Rule {
    pub fn parse(text: &str) -> Result<Rule, String> {
        let trimmed = text.trim();
        let bad = |why: &str| format!("bad rule `{text}`: {why}");
        let (tool, spec) = match trimmed.find('(') {
            None => (trimmed, None),
            Some(open) => {
                let inner = trimmed[open + 1..]
                    .strip_suffix(')')
                    .ok_or_else(|| bad("a rule with `(` must end with `)`"))?;
                (&trimmed[..open], Some(inner))
            }
        };
        if tool.is_empty() {
            return Err(bad(
                "the tool name is missing; write it like `Bash(npm test)` or `Read`",
            ));
        }
        if !tool
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '*')
        {
            return Err(bad("a tool name holds only letters, digits, `_` and `-`"));
        }
        let spec = match spec {
            None => Spec::Any,
            Some(s) if s.trim().is_empty() => {
                return Err(bad(
                    "the specifier in `( )` is empty; drop the parentheses to match every use",
                ))
            }
            Some(s) if s.trim() == "*" => Spec::Any,
            Some(s) if SHELL_TOOLS.contains(&tool) => {
                Spec::Command(CommandPattern::parse(s.trim()))
            }
            Some(s) if FILE_TOOLS.contains(&tool) => {
                Spec::Path(PathPattern::parse(s.trim()).map_err(|e| bad(&e))?)
            }
            Some(s) => Spec::Text(s.trim().to_string()),
        };
        Ok(Rule {
            text: trimmed.to_string(),
            tool: tool.to_string(),
            spec,
        })
    }

    fn covers_tool(&self, tool: &str) -> bool {
        let rule = self.tool.as_str();
        if rule == tool {
            return true;
        }
        let family = |list: &[&str]| list.contains(&rule) && list.contains(&tool);
        if (rule == "Edit" || rule == "Read" || rule == "Bash" || rule == "WebFetch")
            && (family(EDIT_TOOLS)
                || family(READ_TOOLS)
                || family(SHELL_TOOLS)
                || family(FETCH_TOOLS))
        {
            return true;
        }
        if rule.contains('*') {
            return wildcard(rule, tool);
        }
        // `mcp__server` covers every tool of the server.
        if let Some(server) = rule.strip_prefix("mcp__") {
            return !server.contains("__") && tool.starts_with(&format!("mcp__{server}__"));
        }
        false
    }

    /// Does this rule match one simple part of the subject?
    fn matches(&self, tool: &str, subject: &ToolSubject<'_>) -> bool {
        if !self.covers_tool(tool) {
            return false;
        }
        match (&self.spec, subject) {
            (Spec::Any, _) => true,
            (Spec::Command(p), ToolSubject::Command(cmd)) => p.matches(cmd.trim()),
            (
                Spec::Path(p),
                ToolSubject::Path {
                    path,
                    cwd,
                    root,
                    home,
                },
            ) => p.matches(path, cwd, root, *home),
            (Spec::Text(t), ToolSubject::Text(s)) => wildcard(t, s),
            _ => false,
        }
    }
}

impl CommandPattern {
    fn parse(spec: &str) -> CommandPattern {
        if let Some(prefix) = spec.strip_suffix(":*") {
            return CommandPattern::Prefix(prefix.trim_end().to_string());
        }
        if spec.matches('*').count() == 1 {
            if let Some(prefix) = spec.strip_suffix(" *") {
                return CommandPattern::Prefix(prefix.to_string());
            }
        }
        if spec.contains('*') {
            CommandPattern::Wildcard(spec.to_string())
        } else {
            CommandPattern::Exact(spec.to_string())
        }
    }

    fn matches(&self, cmd: &str) -> bool {
        match self {
            CommandPattern::Exact(e) => cmd == e,
            CommandPattern::Prefix(p) => {
                cmd == p
                    || cmd
                        .strip_prefix(p.as_str())
                        .is_some_and(|rest| rest.starts_with(' '))
            }
            CommandPattern::Wildcard(w) => wildcard(w, cmd),
        }
    }
}

/// `*` matches any run of characters (spaces and slashes included); the rest is literal.
fn wildcard(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(i) => rest = &rest[i + middle.len()..],
            None => return false,
        }
    }
    true
}

impl PathPattern {
    fn parse(spec: &str) -> Result<PathPattern, String> {
        let (anchor, rest) = if let Some(r) = spec.strip_prefix("//") {
            (Anchor::Absolute, r)
        } else if let Some(r) = spec.strip_prefix("~/") {
            (Anchor::Home, r)
        } else if let Some(r) = spec.strip_prefix('/') {
            (Anchor::Root, r)
        } else {
            (Anchor::Cwd, spec.strip_prefix("./").unwrap_or(spec))
        };
        let dir_only = rest.ends_with('/');
        let body = rest.trim_end_matches('/');
        // gitignore: a pattern with no slash (other than a trailing one) matches at any depth.
        // A slash-less name (`Read(.env)`) names that file wherever it is, whatever the
        // working directory: anchored at `/` so a call from a subdirectory, or about a
        // path above the cwd, still matches.
        let (anchor, mut pattern) =
            if anchor == Anchor::Cwd && !body.contains('/') && !spec.starts_with("./") {
                (Anchor::Absolute, format!("**/{body}"))
            } else {
                (anchor, body.to_string())
            };
        if dir_only {
            pattern.push_str("/**");
        }
        if body.is_empty() {
            pattern = "**".to_string();
        }
        let compiled = crate::globs::Pattern::new(&format!("/{pattern}"))
            .map_err(|e| format!("bad path pattern `{spec}`: {e}"))?;
        Ok(PathPattern { anchor, compiled })
    }

    fn matches(&self, path: &Path, cwd: &Path, root: &Path, home: Option<&Path>) -> bool {
        let base: PathBuf = match self.anchor {
            Anchor::Absolute => PathBuf::from("/"),
            Anchor::Home => match home {
                Some(h) => h.to_path_buf(),
                None => return false,
            },
            Anchor::Root => root.to_path_buf(),
            Anchor::Cwd => cwd.to_path_buf(),
        };
        let base = roots::normalize(&base, Path::new("/"), home);
        let target = roots::normalize(path, cwd, home);
        let hit = |p: &Path| {
            p.strip_prefix(&base)
                .ok()
                .and_then(|rel| rel.to_str())
                .is_some_and(|rel| !rel.is_empty() && self.compiled.is_match(rel))
        };
        // The rule names a file, not a spelling: a symlink to `.env` is `.env`.
        hit(&target)
            || match roots::resolve_links(&target) {
                roots::Landing::Real(real) => real != target && hit(&real),
                roots::Landing::Dangling(_) => false,
            }
    }
}

/// The subject of a web-fetch rule for `url`: `domain:HOST`, the host lower-cased without
/// scheme, credentials or port (`WebFetch(domain:example.com)`).
pub fn fetch_subject(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = if host.starts_with('[') {
        host.split(']').next().map(|h| format!("{h}]"))?
    } else {
        host.split(':').next()?.to_string()
    };
    (!host.is_empty()).then(|| format!("domain:{}", host.to_ascii_lowercase()))
}

/// User rules of one profile, evaluated deny > ask > allow.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    allow: Vec<Rule>,
    ask: Vec<Rule>,
    deny: Vec<Rule>,
}

impl RuleSet {
    pub fn new(allow: &[String], ask: &[String], deny: &[String]) -> Result<RuleSet, String> {
        let parse = |list: &[String]| {
            list.iter()
                .map(|r| Rule::parse(r))
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(RuleSet {
            allow: parse(allow)?,
            ask: parse(ask)?,
            deny: parse(deny)?,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.allow.is_empty() && self.ask.is_empty() && self.deny.is_empty()
    }

    /// The verdict of the first matching list (deny, then ask, then allow) and the text of
    /// the rule that matched; `None` when no rule speaks about this call.
    pub fn evaluate(&self, tool: &str, subject: ToolSubject<'_>) -> Option<(Verdict, String)> {
        let parts = match subject {
            ToolSubject::Command(cmd) => command_parts(cmd),
            _ => Parts {
                all: Vec::new(),
                loose: Vec::new(),
                decoded: Vec::new(),
                plain: true,
            },
        };
        // Deny and ask speak when the whole string, any command reached inside it, or that
        // command without its wrappers matches.
        let candidates: Vec<String> = parts
            .all
            .iter()
            .flat_map(|p| std::iter::once(p.clone()).chain(strip_wrappers(p)))
            .chain(parts.loose.iter().cloned())
            .collect();
        let any = |rules: &[Rule]| -> Option<String> {
            rules
                .iter()
                .find(|r| {
                    r.matches(tool, &subject)
                        || candidates
                            .iter()
                            .any(|p| r.matches(tool, &ToolSubject::Command(p)))
                })
                .map(|r| r.text.clone())
        };
        if let Some(rule) = any(&self.deny) {
            return Some((Verdict::Deny, rule));
        }
        if let Some(rule) = any(&self.ask) {
            return Some((Verdict::Ask, rule));
        }
        self.allowed(tool, &subject, &parts)
            .map(|r| (Verdict::Allow, r))
    }

    /// Allow is stricter than deny: a command string is allowed by a specific rule only
    /// when it is plain and every one of its commands matches an allow rule.
    fn allowed(&self, tool: &str, subject: &ToolSubject<'_>, parts: &Parts) -> Option<String> {
        let whole = |r: &&Rule| matches!(r.spec, Spec::Any) && r.covers_tool(tool);
        let ToolSubject::Command(_) = subject else {
            return self
                .allow
                .iter()
                .find(|r| r.matches(tool, subject))
                .map(|r| r.text.clone());
        };
        if let Some(r) = self.allow.iter().find(whole) {
            return Some(r.text.clone());
        }
        if !parts.plain {
            return None;
        }
        if parts.all.len() <= 1 {
            if let Some(r) = self.allow.iter().find(|r| r.matches(tool, subject)) {
                return Some(r.text.clone());
            }
        }
        let mut first = None;
        for (i, part) in parts.all.iter().enumerate() {
            let decoded = parts.decoded.get(i).cloned().flatten();
            let rule = self.allow.iter().find(|r| {
                r.matches(tool, &ToolSubject::Command(part))
                    || decoded
                        .as_deref()
                        .is_some_and(|d| r.matches(tool, &ToolSubject::Command(d)))
            })?;
            first.get_or_insert_with(|| rule.text.clone());
        }
        first
    }
}

/// What a command string is made of, for rule matching.
struct Parts {
    /// Every simple command reached: top-level lists and pipelines, and also the bodies of
    /// subshells, groups, loops, functions and `$( )` / backtick substitutions, as written
    /// and as the program receives it (quotes and escapes removed: `'curl'`, `c\url`).
    all: Vec<String>,
    /// The same commands as deny and ask rules see them: decoded, the program named by its
    /// base name (`/usr/bin/curl` is `curl`) and wrappers from the program table peeled.
    loose: Vec<String>,
    /// For each of `all`, the command as the program receives it (quotes and escapes
    /// removed, a system path named by its program), when every word is static.
    decoded: Vec<Option<String>>,
    /// Only top-level simple commands, without substitution or redirection: the only
    /// shape a part-wise allow can vouch for.
    plain: bool,
}

/// How deep substitutions inside substitutions are followed.
const MAX_SUBSTITUTION_DEPTH: usize = 4;

fn command_parts(cmd: &str) -> Parts {
    // A parser failure leaves the command opaque: no allow rule can match it.
    let opaque = || Parts {
        all: Vec::new(),
        loose: Vec::new(),
        decoded: Vec::new(),
        plain: false,
    };
    shell::contain(|| match shell::parse(cmd) {
        Ok(program) => {
            let mut parts = Parts {
                all: Vec::new(),
                loose: Vec::new(),
                decoded: Vec::new(),
                plain: true,
            };
            for list in &program.complete_commands {
                walk_list(list, 0, &mut parts);
            }
            parts
        }
        Err(_) => opaque(),
    })
    .unwrap_or_else(|_| opaque())
}

fn walk_list(list: &shell::ast::CompoundList, depth: usize, parts: &mut Parts) {
    for item in &list.0 {
        for (_, pipeline) in item.0.iter() {
            for command in &pipeline.seq {
                walk_command(command, depth, parts);
            }
        }
    }
}

fn walk_command(command: &shell::ast::Command, depth: usize, parts: &mut Parts) {
    use shell::ast::{Command, CompoundCommand as C};
    match command {
        Command::Simple(simple) => walk_simple(simple, depth, parts),
        Command::Compound(compound, _) => {
            parts.plain = false;
            match compound {
                C::Subshell(s) => walk_list(&s.list, depth, parts),
                C::BraceGroup(b) => walk_list(&b.list, depth, parts),
                C::IfClause(i) => {
                    walk_list(&i.condition, depth, parts);
                    walk_list(&i.then, depth, parts);
                    for e in i.elses.iter().flatten() {
                        if let Some(c) = &e.condition {
                            walk_list(c, depth, parts);
                        }
                        walk_list(&e.body, depth, parts);
                    }
                }
                C::ForClause(f) => walk_list(&f.body.list, depth, parts),
                C::ArithmeticForClause(f) => walk_list(&f.body.list, depth, parts),
                C::WhileClause(w) | C::UntilClause(w) => {
                    walk_list(&w.0, depth, parts);
                    walk_list(&w.1.list, depth, parts);
                }
                C::CaseClause(c) => {
                    for item in &c.cases {
                        if let Some(list) = &item.cmd {
                            walk_list(list, depth, parts);
                        }
                    }
                }
                C::Coprocess(c) => walk_command(&c.body, depth, parts),
                C::Arithmetic(_) => {}
            }
        }
        Command::Function(f) => {
            parts.plain = false;
            walk_command(&Command::Compound(f.body.0.clone(), None), depth, parts);
        }
        Command::ExtendedTest(..) => parts.plain = false,
    }
}

/// The words of a simple command as the program receives them, when all are static.
fn decoded_words(simple: &shell::ast::SimpleCommand) -> Option<Vec<String>> {
    use shell::ast::CommandPrefixOrSuffixItem as Item;
    let mut out = Vec::new();
    for item in simple.prefix.iter().flat_map(|p| p.0.iter()) {
        if let Item::Word(w) = item {
            out.push(static_word(&w.value)?);
        }
    }
    if let Some(w) = &simple.word_or_name {
        out.push(static_word(&w.value)?);
    }
    for item in simple.suffix.iter().flat_map(|s| s.0.iter()) {
        match item {
            Item::Word(w) | Item::AssignmentWord(_, w) => out.push(static_word(&w.value)?),
            _ => {}
        }
    }
    (!out.is_empty()).then_some(out)
}

fn static_word(raw: &str) -> Option<String> {
    match shell::decode(raw) {
        shell::WordValue::Static(s) if !s.tilde => Some(s.value),
        _ => None,
    }
}

/// Programs in the system directories are the program of that name.
fn system_program(word: &str) -> Option<&str> {
    let (dir, name) = word.rsplit_once('/')?;
    matches!(
        dir,
        "/bin" | "/usr/bin" | "/usr/local/bin" | "/sbin" | "/usr/sbin"
    )
    .then_some(name)
}

/// The command with wrappers from the program table peeled off (`sudo -u x timeout 5 rm`
/// is `rm`), each program named by its base name.
fn peeled(words: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest: Vec<String> = words.to_vec();
    for _ in 0..8 {
        let Some(first) = rest.first() else { break };
        let name = crate::programs::normalise(first);
        let mut named = rest.clone();
        named[0] = name.clone();
        out.push(named);
        let Some((prog, _)) = crate::programs::lookup(first) else {
            break;
        };
        if name == "loopgate" {
            // `loopgate exec -- CMD` runs CMD: a rule about CMD applies to it.
            let words: Vec<Option<&str>> = rest[1..].iter().map(|w| Some(w.as_str())).collect();
            match crate::own_cli::classify(&words) {
                crate::own_cli::OwnUse::Runs { at, .. } => {
                    rest = rest[1 + at..].to_vec();
                    continue;
                }
                _ => break,
            }
        }
        let crate::programs::Role::Wrapper { positionals, .. } = prog.role else {
            break;
        };
        // Skip the wrapper's options (and their values) and its leading operands.
        let mut i = 1;
        let mut left = positionals;
        while i < rest.len() {
            let t = rest[i].as_str();
            if t == "--" {
                i += 1;
                break;
            }
            if t.contains('=') && !t.starts_with('-') && name == "env" {
                i += 1;
                continue;
            }
            if t.starts_with('-') && t.len() > 1 {
                i += if prog.values.contains(&t) { 2 } else { 1 };
                continue;
            }
            if left > 0 {
                left -= 1;
                i += 1;
                continue;
            }
            break;
        }
        if i >= rest.len() {
            break;
        }
        rest = rest[i..].to_vec();
    }
    out
}

fn walk_simple(simple: &shell::ast::SimpleCommand, depth: usize, parts: &mut Parts) {
    use shell::ast::CommandPrefixOrSuffixItem as Item;
    parts.all.push(simple.to_string());
    if let Some(mut words) = decoded_words(simple) {
        for variant in peeled(&words) {
            parts.loose.push(variant.join(" "));
        }
        // What an allow rule may vouch for: quotes removed, a system path by its name.
        if let Some(name) = system_program(&words[0]).map(str::to_string) {
            words[0] = name;
        }
        parts.decoded.push(Some(words.join(" ")));
    } else {
        parts.decoded.push(None);
    }
    let items = simple
        .prefix
        .iter()
        .flat_map(|p| p.0.iter())
        .chain(simple.suffix.iter().flat_map(|s| s.0.iter()));
    let mut words: Vec<&str> = simple
        .word_or_name
        .iter()
        .map(|w| w.value.as_str())
        .collect();
    for item in items {
        match item {
            Item::Word(w) | Item::AssignmentWord(_, w) => words.push(&w.value),
            // Redirections write files the visible command does not name.
            Item::IoRedirect(_) => parts.plain = false,
            Item::ProcessSubstitution(_, sub) => {
                parts.plain = false;
                walk_list(&sub.list, depth, parts);
            }
        }
    }
    for word in words {
        let inner = substitutions(word);
        if inner.is_empty() {
            continue;
        }
        parts.plain = false;
        if depth >= MAX_SUBSTITUTION_DEPTH {
            continue;
        }
        for text in inner {
            if let Ok(program) = shell::parse(&text) {
                for list in &program.complete_commands {
                    walk_list(list, depth + 1, parts);
                }
            }
        }
    }
}

/// The source of every `$( )` and backtick substitution in a word, top level or inside
/// double quotes. A word brush cannot split counts as one opaque substitution.
fn substitutions(raw: &str) -> Vec<String> {
    use brush_parser::word::WordPiece;
    fn collect(pieces: &[brush_parser::word::WordPieceWithSource], out: &mut Vec<String>) {
        for p in pieces {
            match &p.piece {
                WordPiece::CommandSubstitution(t) | WordPiece::BackquotedCommandSubstitution(t) => {
                    out.push(t.clone())
                }
                WordPiece::DoubleQuotedSequence(inner)
                | WordPiece::GettextDoubleQuotedSequence(inner) => collect(inner, out),
                _ => {}
            }
        }
    }
    if !raw.contains(['$', '`']) {
        return Vec::new();
    }
    match brush_parser::word::parse(raw, &shell::parser_options()) {
        Ok(pieces) => {
            let mut out = Vec::new();
            collect(&pieces, &mut out);
            out
        }
        Err(_) => vec![String::new()],
    }
}

/// `sudo rm -rf x` -> `rm -rf x`: wrappers that run their arguments as a command, and
/// leading assignments, are dropped so deny and ask rules see the real program.
fn strip_wrappers(part: &str) -> Option<String> {
    let words: Vec<&str> = part.split_whitespace().collect();
    let mut i = 0;
    let mut stripped = false;
    while i < words.len() {
        let w = words[i];
        if w.contains('=') && !w.starts_with('-') && !w.starts_with('=') {
            i += 1;
            stripped = true;
            continue;
        }
        if !matches!(
            w,
            "sudo"
                | "doas"
                | "env"
                | "nice"
                | "nohup"
                | "command"
                | "exec"
                | "time"
                | "builtin"
                | "stdbuf"
                | "ionice"
                | "timeout"
        ) {
            break;
        }
        i += 1;
        stripped = true;
        while i < words.len() && words[i].starts_with('-') {
            // `nice -n 5`, `sudo -u root`: a flag with a separate value.
            if matches!(words[i], "-n" | "-u" | "-g" | "-s" | "-k" | "-C") {
                i += 1;
            }
            i += 1;
        }
        if w == "timeout" && i < words.len() {
            i += 1; // the duration
        }
    }
    (stripped && i < words.len()).then(|| words[i..].join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(allow: &[&str], ask: &[&str], deny: &[&str]) -> RuleSet {
        let v = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        RuleSet::new(&v(allow), &v(ask), &v(deny)).unwrap()
    }

    fn bash(s: &RuleSet, cmd: &str) -> Option<(Verdict, String)> {
        s.evaluate("Bash", ToolSubject::Command(cmd))
    }

    fn file(s: &RuleSet, tool: &str, path: &str) -> Option<Verdict> {
        s.evaluate(
            tool,
            ToolSubject::Path {
                path: Path::new(path),
                cwd: Path::new("/repo"),
                root: Path::new("/repo"),
                home: Some(Path::new("/home/u")),
            },
        )
        .map(|(v, _)| v)
    }

    #[test]
    fn parse_errors_are_clear() {
        assert!(Rule::parse("")
            .unwrap_err()
            .contains("tool name is missing"));
        assert!(Rule::parse("Bash(npm test")
            .unwrap_err()
            .contains("must end with `)`"));
        assert!(Rule::parse("Bash()").unwrap_err().contains("empty"));
        assert!(Rule::parse("Ba sh").unwrap_err().contains("letters"));
        assert!(Rule::parse("Edit(src/[)")
            .unwrap_err()
            .contains("bad path pattern"));
        assert!(RuleSet::new(&["Bash(x".into()], &[], &[]).is_err());
    }

    #[test]
    fn bare_tool_and_star_match_everything() {
        let s = set(&["Bash"], &[], &[]);
        assert_eq!(
            bash(&s, "anything at all").unwrap(),
            (Verdict::Allow, "Bash".into())
        );
        let s = set(&["Bash(*)"], &[], &[]);
        assert_eq!(bash(&s, "a && $(b)").unwrap().0, Verdict::Allow);
        assert_eq!(s.evaluate("Read", ToolSubject::None), None);
    }

    #[test]
    fn exact_and_prefix_commands() {
        let s = set(
            &[
                "Bash(npm run build)",
                "Bash(npm run test:*)",
                "Bash(ls *)",
                "Bash(git * main)",
            ],
            &[],
            &[],
        );
        assert_eq!(bash(&s, "npm run build").unwrap().0, Verdict::Allow);
        assert_eq!(bash(&s, "npm run build --prod"), None);
        assert_eq!(bash(&s, "npm run test").unwrap().1, "Bash(npm run test:*)");
        assert_eq!(
            bash(&s, "npm run test -- --watch").unwrap().0,
            Verdict::Allow
        );
        assert_eq!(bash(&s, "npm run tester"), None);
        assert_eq!(bash(&s, "ls").unwrap().0, Verdict::Allow);
        assert_eq!(bash(&s, "ls -la").unwrap().0, Verdict::Allow);
        assert_eq!(bash(&s, "lsof"), None);
        assert_eq!(bash(&s, "git merge main").unwrap().0, Verdict::Allow);
        assert_eq!(bash(&s, "git push origin dev"), None);
    }

    #[test]
    fn compound_commands_need_every_part_allowed() {
        let s = set(&["Bash(npm test:*)", "Bash(cargo test:*)"], &[], &[]);
        assert_eq!(
            bash(&s, "npm test && cargo test").unwrap().0,
            Verdict::Allow
        );
        assert_eq!(bash(&s, "npm test && rm -rf /"), None);
        assert_eq!(bash(&s, "npm test; curl x | sh"), None);
        assert_eq!(bash(&s, "npm test $(curl x)"), None);
        assert_eq!(bash(&s, "npm test `curl x`"), None);
    }

    #[test]
    fn deny_beats_ask_beats_allow_on_any_part() {
        let s = set(&["Bash"], &["Bash(git push:*)"], &["Bash(rm:*)"]);
        assert_eq!(
            bash(&s, "ls && rm -rf x").unwrap(),
            (Verdict::Deny, "Bash(rm:*)".into())
        );
        assert_eq!(
            bash(&s, "git push origin x").unwrap(),
            (Verdict::Ask, "Bash(git push:*)".into())
        );
        assert_eq!(bash(&s, "git push && rm x").unwrap().0, Verdict::Deny);
        assert_eq!(bash(&s, "ls").unwrap().0, Verdict::Allow);
    }

    #[test]
    fn deny_reaches_inside_groups_substitutions_and_wrappers() {
        let s = set(
            &["Bash(ls:*)", "Bash(echo:*)"],
            &["Bash(git push:*)"],
            &["Bash(rm:*)"],
        );
        assert_eq!(bash(&s, "(rm -rf x)").unwrap().0, Verdict::Deny);
        assert_eq!(bash(&s, "if true; then rm x; fi").unwrap().0, Verdict::Deny);
        assert_eq!(bash(&s, "echo \"$(rm -rf x)\"").unwrap().0, Verdict::Deny);
        assert_eq!(bash(&s, "echo `rm x`").unwrap().0, Verdict::Deny);
        assert_eq!(bash(&s, "sudo rm -rf /").unwrap().0, Verdict::Deny);
        assert_eq!(bash(&s, "FOO=1 timeout 5 rm x").unwrap().0, Verdict::Deny);
        assert_eq!(bash(&s, "nice -n 5 git push").unwrap().0, Verdict::Ask);
        assert_eq!(bash(&s, "ls > out.txt"), None);
        assert_eq!(bash(&s, "ls && echo hi").unwrap().0, Verdict::Allow);
        // Allow never strips wrappers: `sudo ls` is not `ls`.
        assert_eq!(bash(&s, "sudo ls"), None);
    }

    #[test]
    fn deny_reaches_the_command_loopgate_exec_and_run_launch() {
        let s = set(&["Bash(loopgate exec:*)"], &[], &["Bash(rm:*)"]);
        for cmd in [
            "loopgate exec -- rm -rf x",
            "loopgate -C sub run --confine -- rm x",
            "/usr/bin/loopgate exec --json -- sudo rm x",
        ] {
            assert_eq!(bash(&s, cmd).map(|d| d.0), Some(Verdict::Deny), "{cmd}");
        }
        // `loopgate policy check -- rm` only asks about `rm`: nothing runs.
        assert_eq!(
            bash(&s, "loopgate policy check -- rm -rf x"),
            None,
            "policy check runs nothing"
        );
    }

    #[test]
    fn command_rules_match_the_program_however_it_is_spelled() {
        let deny = set(&[], &[], &["Bash(curl:*)"]);
        for cmd in [
            "curl https://x",
            "'curl' https://x",
            "\"cu\"rl https://x",
            "c\\url https://x",
            "/usr/bin/curl https://x",
            "./bin/curl https://x",
            "sudo -u root timeout 5 /usr/bin/curl https://x",
            "flock /tmp/l nice -n 5 curl https://x",
        ] {
            assert_eq!(
                bash(&deny, cmd).map(|(v, _)| v),
                Some(Verdict::Deny),
                "{cmd}"
            );
        }
        assert_eq!(bash(&deny, "curly x"), None);
        // Allow vouches for the program the user named: a system path or a quoted name,
        // never a look-alike script elsewhere.
        let allow = set(&["Bash(curl:*)"], &[], &[]);
        assert_eq!(
            bash(&allow, "'curl' -s x").map(|(v, _)| v),
            Some(Verdict::Allow)
        );
        assert_eq!(
            bash(&allow, "/usr/bin/curl -s x").map(|(v, _)| v),
            Some(Verdict::Allow)
        );
        assert_eq!(bash(&allow, "./curl -s x"), None);
    }

    #[test]
    fn path_names_match_from_any_cwd_and_through_symlinks() {
        let s = set(&[], &[], &["Read(.env)"]);
        let at = |path: &Path, cwd: &str| {
            s.evaluate(
                "Read",
                ToolSubject::Path {
                    path,
                    cwd: Path::new(cwd),
                    root: Path::new("/repo"),
                    home: None,
                },
            )
            .map(|(v, _)| v)
        };
        assert_eq!(
            at(Path::new("/repo/.env"), "/repo/sub/deeper"),
            Some(Verdict::Deny)
        );
        assert_eq!(
            at(Path::new("../../.env"), "/repo/sub/deeper"),
            Some(Verdict::Deny)
        );
        let dir = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(real.join(".env"), "SECRET=1").unwrap();
        std::os::unix::fs::symlink(real.join(".env"), real.join("notes.txt")).unwrap();
        let cwd = real.to_str().unwrap();
        assert_eq!(at(&real.join("notes.txt"), cwd), Some(Verdict::Deny));
        assert_eq!(at(&real.join("other.txt"), cwd), None);
    }

    #[test]
    fn fetch_rules_read_the_host() {
        assert_eq!(
            fetch_subject("https://Docs.Example.com:443/a?b").as_deref(),
            Some("domain:docs.example.com")
        );
        assert_eq!(
            fetch_subject("http://user:pw@evil.com/x").as_deref(),
            Some("domain:evil.com")
        );
        assert_eq!(fetch_subject(""), None);
        let s = set(
            &["WebFetch(domain:docs.rs)"],
            &[],
            &["WebFetch(domain:*.evil.com)"],
        );
        let host = fetch_subject("https://docs.rs/serde").unwrap();
        assert_eq!(
            s.evaluate("WebFetch", ToolSubject::Text(&host))
                .map(|(v, _)| v),
            Some(Verdict::Allow)
        );
        let bad = fetch_subject("https://a.evil.com/").unwrap();
        assert_eq!(
            s.evaluate("WebFetch", ToolSubject::Text(&bad))
                .map(|(v, _)| v),
            Some(Verdict::Deny)
        );
    }

    #[test]
    fn gitignore_style_paths() {
        let s = set(
            &["Edit(src/**)"],
            &[],
            &[
                "Read(.env)",
                "Read(//etc/**)",
                "Edit(~/.ssh/**)",
                "Edit(/Cargo.toml)",
            ],
        );
        assert_eq!(file(&s, "Read", "/repo/.env"), Some(Verdict::Deny));
        assert_eq!(file(&s, "Read", "/repo/sub/.env"), Some(Verdict::Deny));
        assert_eq!(file(&s, "Grep", ".env"), Some(Verdict::Deny));
        assert_eq!(file(&s, "Read", "/repo/.env.example"), None);
        assert_eq!(file(&s, "Read", "/etc/passwd"), Some(Verdict::Deny));
        assert_eq!(
            file(&s, "Write", "/home/u/.ssh/authorized_keys"),
            Some(Verdict::Deny)
        );
        assert_eq!(file(&s, "Edit", "/repo/Cargo.toml"), Some(Verdict::Deny));
        assert_eq!(file(&s, "Edit", "/repo/sub/Cargo.toml"), None);
        assert_eq!(file(&s, "Edit", "/repo/src/a/b.rs"), Some(Verdict::Allow));
        assert_eq!(file(&s, "MultiEdit", "src/a.rs"), Some(Verdict::Allow));
        assert_eq!(file(&s, "Edit", "/repo/src/../tests/a.rs"), None);
        assert_eq!(file(&s, "Edit", "/repo/other/src/a.rs"), None);
        // Read rules do not speak about writes.
        assert_eq!(file(&s, "Write", "/repo/.env"), None);
    }

    #[test]
    fn directory_rules_cover_their_contents() {
        let s = set(&[], &[], &["Edit(secrets/)", "Read(build)"]);
        assert_eq!(file(&s, "Edit", "/repo/secrets/a/b"), Some(Verdict::Deny));
        assert_eq!(
            file(&s, "Read", "/repo/x/build/out.js"),
            Some(Verdict::Deny)
        );
    }

    #[test]
    fn claude_names_cover_the_other_agents_tools() {
        let s = set(&["Bash(npm test:*)", "Edit(src/**)"], &[], &["Read(.env)"]);
        let run =
            |tool: &str, cmd: &str| s.evaluate(tool, ToolSubject::Command(cmd)).map(|(v, _)| v);
        assert_eq!(run("run_shell_command", "npm test"), Some(Verdict::Allow));
        assert_eq!(run("shell", "npm test"), Some(Verdict::Allow));
        assert_eq!(
            file(&s, "apply_patch", "/repo/src/a.rs"),
            Some(Verdict::Allow)
        );
        assert_eq!(
            file(&s, "write_file", "/repo/src/a.rs"),
            Some(Verdict::Allow)
        );
        assert_eq!(file(&s, "read_file", "/repo/.env"), Some(Verdict::Deny));
        assert_eq!(file(&s, "write_file", "/repo/.env"), None);
    }

    #[test]
    fn other_tools_and_mcp() {
        let s = set(
            &["WebFetch(domain:example.com)", "mcp__github"],
            &[],
            &["mcp__db__drop*"],
        );
        assert_eq!(
            s.evaluate("WebFetch", ToolSubject::Text("domain:example.com"))
                .unwrap()
                .0,
            Verdict::Allow
        );
        assert_eq!(
            s.evaluate("WebFetch", ToolSubject::Text("domain:evil.com")),
            None
        );
        assert_eq!(
            s.evaluate("mcp__github__create_issue", ToolSubject::None)
                .unwrap()
                .0,
            Verdict::Allow
        );
        assert_eq!(s.evaluate("mcp__githubx__y", ToolSubject::None), None);
        assert_eq!(s.evaluate("Bash", ToolSubject::None), None);
    }

    proptest::proptest! {
        #[test]
        fn parsing_and_evaluating_never_panic(rule in "\\PC{0,40}", cmd in "\\PC{0,60}") {
            if let Ok(r) = Rule::parse(&rule) {
                let s = RuleSet { allow: vec![r.clone()], ask: vec![r.clone()], deny: Vec::new() };
                let _ = s.evaluate("Bash", ToolSubject::Command(&cmd));
                let _ = s.evaluate(&r.tool, ToolSubject::Text(&cmd));
                let _ = file(&s, &r.tool, &cmd);
            }
        }
    }

    #[test]
    fn wildcard_matcher() {
        assert!(wildcard("a*c", "abbbc"));
        assert!(wildcard("*", ""));
        assert!(wildcard("a*b*c", "a-b-c"));
        assert!(!wildcard("a*b*c", "a-c"));
        assert!(!wildcard("ab*ba", "aba"));
    }
}
