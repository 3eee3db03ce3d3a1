//! Secrets over the network: a command string that names a `[sandbox] deny_read` path (in
//! an operand, a redirect, an option value, or after `@` / `key=@` in a value) and runs a
//! program that sends data over the network (`programs::sends_over_network`) is asked
//! about. The two may sit in different commands of the string (`cat .env | curl -d @-`),
//! so each is noted as it is met and judged once, in `finish`.

use super::args::Arg;
use super::args::Cwd;
use super::walk::{Analyzer, ShellState, Stdin};
use super::{rule, Finding};
use crate::programs;
use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// A secret path named by the command string.
#[derive(Debug, Clone)]
pub(crate) struct Named {
    /// The word as written.
    pub word: String,
    /// The `deny_read` pattern it names.
    pub pattern: String,
}

/// A secret path as [`parts`], and what a word naming it reports.
#[derive(Debug)]
pub(crate) struct Secret {
    reported: String,
    parts: Vec<String>,
}

/// What words named, remembered for one working directory (see `secret_in`).
#[derive(Debug, Default)]
pub(crate) struct SecretWords {
    secrets: OnceCell<Vec<Secret>>,
    cwd: Option<Cwd>,
    named: HashMap<String, Option<String>>,
}

impl Analyzer<'_> {
    pub(crate) fn note_secrets_and_senders(
        &mut self,
        name: &str,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
    ) {
        if self.ctx.secret_paths.is_empty() {
            return;
        }
        let words: Vec<&str> = rest.iter().map(|a| a.text().unwrap_or(&a.raw)).collect();
        let fed = stdin.piped || stdin.text.is_some() || !stdin.files.is_empty();
        let interpreter = programs::is_interpreter(name);
        let code_sends = interpreter && words.iter().any(|w| calls_the_network(w));
        let sends = code_sends || programs::sends_over_network(name, &words, fed);
        if sends && self.sender.is_none() {
            self.sender = Some((name.to_string(), display.to_string()));
        }
        if self.secret_named.is_some() {
            return;
        }
        if dumps_environment(name, &words) {
            self.secret_named = Some(Named {
                word: display.to_string(),
                pattern: "the whole environment, where tokens and keys live".to_string(),
            });
            return;
        }
        if dumps_database(name, &words) {
            self.secret_named = Some(Named {
                word: display.to_string(),
                pattern: "a database's contents (users' data, password hashes)".to_string(),
            });
            return;
        }
        if let Some(what) = prints_credentials(name, &words) {
            self.secret_named = Some(Named {
                word: display.to_string(),
                pattern: what.to_string(),
            });
            return;
        }
        if name == "find" {
            if let Some(pattern) = self.secret_found_by_find(rest, st) {
                self.secret_named = Some(Named {
                    word: display.to_string(),
                    pattern,
                });
                return;
            }
        }
        let mut skip_next = false;
        let mut words: Vec<&Arg> = Vec::new();
        for a in rest {
            let text = a.text().unwrap_or(&a.raw);
            if std::mem::take(&mut skip_next) {
                continue;
            }
            if programs::identity_option(name, text) {
                skip_next = text == "-i";
                continue;
            }
            if text.contains("IdentityFile") {
                continue;
            }
            words.push(a);
        }
        words.extend(stdin.files.iter());
        // Text a sender reads on its standard input is what it acts on: `sftp host <<<
        // 'put .env'` uploads the file the text names.
        let fed_words: Vec<Arg> = match (&stdin.text, sends) {
            (Some(text), true) => text.split_whitespace().map(Arg::literal).collect(),
            _ => Vec::new(),
        };
        words.extend(fed_words.iter());
        // Inline code names paths inside its string literals: `open('.env')`,
        // `readFileSync(os.homedir() + '/.ssh/id_rsa')` reach no further than the literal.
        // A literal joined to the home directory (`os.homedir() + '/.ssh/id_rsa'`,
        // `$ENV{HOME} . "/.aws"`) is also read below home.
        let mut literals: Vec<Arg> = Vec::new();
        if interpreter {
            for code in rest
                .iter()
                .filter_map(|a| a.text())
                .filter(|t| programs::looks_like_code(t))
            {
                let from_home = ["HOME", "homedir", "expanduser", "Dir.home", "home_dir"]
                    .iter()
                    .any(|m| code.contains(m));
                for piece in code.split(|c: char| "'\"`(),;[]{}+ \t\n".contains(c)) {
                    if piece.is_empty() {
                        continue;
                    }
                    literals.push(Arg::literal(piece));
                    if from_home && piece.starts_with('/') {
                        literals.push(Arg::literal(&format!("~{piece}")));
                    }
                }
            }
        }
        words.extend(literals.iter());
        for a in words {
            let text = a.text().unwrap_or(&a.raw);
            if let Some(pattern) = self.secret_in(text, st) {
                self.secret_named = Some(Named {
                    word: a.raw.clone(),
                    pattern,
                });
                return;
            }
        }
    }

    /// The finding when the string both names a secret and sends over the network.
    pub(crate) fn secret_over_network(&mut self) {
        let (Some(named), Some((sender, display))) = (self.secret_named.take(), self.sender.take())
        else {
            return;
        };
        self.add(Finding::ask(
            rule::SECRET,
            format!(
                "`{display}` sends data over the network with `{sender}` while the command names the secret path `{}` ([sandbox] deny_read `{}`): the secret could leave the machine",
                named.word, named.pattern
            ),
            "keep secrets out of commands that reach the network; a human must approve this upload",
        ));
    }

    /// The `deny_read` pattern a word names: the word itself, its value after `=`, or what
    /// follows an `@` or a `<` (curl's `@file`, `key=@file;type=...`, and `key=<file`,
    /// which sends the file's content as the field's value; HTTPie's `field@file`).
    ///
    /// Remembered per word while the working directory stays the same: a wrapper (`env`,
    /// `sudo`, `timeout`) is scanned with every word after it, then the program it runs
    /// with the same words again, so `env env ... env cmd` scanned one long line 64 times
    /// (nearly all of a tool call's deadline on a loaded machine).
    fn secret_in(&mut self, text: &str, st: &ShellState) -> Option<String> {
        if self.secret_words.cwd.as_ref() != Some(&st.cwd) {
            self.secret_words.cwd = Some(st.cwd.clone());
            self.secret_words.named.clear();
        }
        if let Some(found) = self.secret_words.named.get(text) {
            return found.clone();
        }
        let found = self.secret_in_word(text, st);
        self.secret_words
            .named
            .insert(text.to_string(), found.clone());
        found
    }

    fn secret_in_word(&self, text: &str, st: &ShellState) -> Option<String> {
        let mut candidates = vec![text];
        if let Some((_, v)) = text.split_once('=') {
            candidates.push(v);
        }
        for sep in ['@', '<'] {
            if let Some((_, v)) = text.split_once(sep) {
                candidates.push(v.split(';').next().unwrap_or(v));
            }
        }
        // socat's addresses, `FILE:PATH,opts` (`OPEN:`, `GOPEN:`, ...).
        if let Some((kind, v)) = text.split_once(':') {
            if !kind.is_empty() && kind.chars().all(|c| c.is_ascii_alphabetic()) {
                candidates.push(v.split(',').next().unwrap_or(v));
            }
        }
        for c in candidates {
            if c.is_empty() || c.contains("://") {
                continue;
            }
            if is_process_environment(c) {
                return Some("the environment of a process".to_string());
            }
            for path in self.resolve_word(c, st) {
                if self.holds_the_workspace(&path) {
                    continue;
                }
                let path = parts(&path);
                if let Some(secret) = self.secrets().iter().find(|s| names(&path, &s.parts)) {
                    return Some(secret.reported.clone());
                }
            }
        }
        None
    }

    /// The `deny_read` patterns, then the credential files, as path parts: made once per
    /// command string rather than once per word and pattern.
    fn secrets(&self) -> &[Secret] {
        self.secret_words.secrets.get_or_init(|| {
            let patterns = self
                .ctx
                .secret_paths
                .iter()
                .map(|p| (p.as_str(), p.clone()));
            let files = CREDENTIAL_FILES
                .iter()
                .map(|f| (*f, format!("{f}, where a tool keeps its credentials")));
            patterns
                .chain(files)
                .filter_map(|(pattern, reported)| {
                    let path = self.pattern_path(pattern)?;
                    let parts = parts(&path).into_iter().map(Cow::into_owned).collect();
                    Some(Secret { reported, parts })
                })
                .collect()
        })
    }

    /// `find ROOT -name NAME`: the secret it selects by name without spelling its path
    /// (`find / -name id_rsa`, `find . -name .env`), a root at or above the secret and a
    /// name test (`-name`, `-iname`, `-path`, `-wholename`) whose last part meets the
    /// secret's name, either one a glob.
    fn secret_found_by_find(&self, rest: &[Arg], st: &ShellState) -> Option<String> {
        let mut roots: Vec<&str> = rest
            .iter()
            .map_while(|a| a.text())
            .take_while(|t| !t.starts_with('-') && !matches!(*t, "(" | "!" | ","))
            .collect();
        if roots.is_empty() {
            roots.push(".");
        }
        let tests = [
            "-name",
            "-iname",
            "-path",
            "-ipath",
            "-wholename",
            "-iwholename",
        ];
        let names: Vec<&str> = rest
            .windows(2)
            .filter(|w| w[0].text().is_some_and(|t| tests.contains(&t)))
            .filter_map(|w| w[1].text())
            .map(|v| v.rsplit('/').next().unwrap_or(v))
            .collect();
        if names.is_empty() {
            return None;
        }
        for root in roots {
            for dir in self.resolve_word(root, st) {
                for pattern in &self.ctx.secret_paths {
                    let Some(secret) = self.pattern_path(pattern) else {
                        continue;
                    };
                    let Some(last) = secret.file_name().and_then(|n| n.to_str()) else {
                        continue;
                    };
                    if secret.starts_with(&dir) && names.iter().any(|n| names_meet(n, last)) {
                        return Some(pattern.clone());
                    }
                }
            }
        }
        None
    }

    /// The repository root, home, or a directory above them: every command's ground (`.`
    /// to `jq`, `tar -C .`, `cd ~/project`), not a reach for a secret below it. Copying a
    /// whole tree that holds one is left to the jail, which hides the secret.
    fn holds_the_workspace(&self, path: &Path) -> bool {
        self.ctx.repo_root.starts_with(path)
            || self
                .ctx
                .home
                .as_deref()
                .is_some_and(|h| h.starts_with(path))
    }

    fn resolve_word(&self, word: &str, st: &ShellState) -> Vec<PathBuf> {
        let home = self.ctx.home.as_deref();
        let word = match (word.strip_prefix("~/"), home) {
            (Some(rest), Some(h)) => h.join(rest).to_string_lossy().into_owned(),
            _ => word.to_string(),
        };
        st.cwd.resolve(&word, home).unwrap_or_else(|| {
            vec![roots::normalize(
                Path::new(&word),
                &self.ctx.repo_root,
                home,
            )]
        })
    }

    /// A `deny_read` pattern as an absolute path: `~/x` under home, relative ones under
    /// the repository root (as the sandbox reads them).
    fn pattern_path(&self, pattern: &str) -> Option<PathBuf> {
        let home = self.ctx.home.as_deref();
        if let Some(rest) = pattern.strip_prefix("~/") {
            return Some(home?.join(rest));
        }
        if pattern == "~" {
            return home.map(Path::to_path_buf);
        }
        Some(roots::normalize(
            Path::new(pattern),
            &self.ctx.repo_root,
            home,
        ))
    }
}

/// Files in which tools keep passwords and tokens in the clear, whatever `deny_read` says:
/// named by a command that also sends over the network, they are a secret leaving the
/// machine. (They are not hidden from the jail by default: `git push` over HTTPS and
/// `npm publish` read them.)
const CREDENTIAL_FILES: [&str; 11] = [
    "~/.netrc",
    // The database clients' password files: PostgreSQL's and MySQL's.
    "~/.pgpass",
    "~/.my.cnf",
    "~/.git-credentials",
    "~/.npmrc",
    "~/.pypirc",
    "~/.docker/config.json",
    "~/.kube/config",
    "~/.config/gcloud",
    // GnuPG's private keys (2.1 and later, then the old keyring): `rsync ~/.gnupg/ HOST:`
    // copies them.
    "~/.gnupg/private-keys-v1.d",
    "~/.gnupg/secring.gpg",
];

/// A command whose purpose is to print a stored credential (`gh auth token`, `git
/// credential fill`, `gcloud auth print-access-token`, a `docker-credential-*` helper):
/// with a sender in the same string, the credential leaves the machine.
fn prints_credentials(name: &str, words: &[&str]) -> Option<&'static str> {
    let ops: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    let sub = |i: usize| ops.get(i).copied().unwrap_or("");
    let yes = match name {
        "gh" | "glab" => sub(0) == "auth" && (sub(1) == "token" || words.contains(&"--show-token")),
        "git" => {
            (sub(0) == "credential" && sub(1) == "fill")
                || (sub(0).starts_with("credential-") && sub(1) == "get")
        }
        "gcloud" => {
            (sub(0) == "auth" && ops.iter().any(|w| w.starts_with("print-")))
                || (sub(0) == "secrets" && sub(1) == "versions" && sub(2) == "access")
        }
        "aws" => {
            (sub(0) == "configure" && matches!(sub(1), "export-credentials" | "get"))
                || (sub(0) == "ecr" && sub(1) == "get-login-password")
                || (sub(0) == "sts"
                    && matches!(
                        sub(1),
                        "get-session-token" | "assume-role" | "get-federation-token"
                    ))
                || (sub(0) == "secretsmanager" && sub(1) == "get-secret-value")
                || (sub(0) == "ssm"
                    && sub(1).starts_with("get-parameter")
                    && words.contains(&"--with-decryption"))
        }
        "az" => {
            (sub(0) == "account" && sub(1) == "get-access-token")
                || (sub(0) == "keyvault"
                    && matches!(sub(1), "secret" | "key" | "certificate")
                    && matches!(sub(2), "show" | "download"))
        }
        "gpg" | "gpg2" => words.iter().any(|w| w.starts_with("--export-secret-")),
        "security" => {
            sub(0).starts_with("find-")
                && sub(0).ends_with("-password")
                && words.iter().any(|w| *w == "-w" || *w == "-g")
        }
        "pass" | "gopass" => sub(0) == "show",
        "op" => sub(0) == "read" || (sub(0) == "item" && sub(1) == "get"),
        "vault" => sub(0) == "read" || (sub(0) == "kv" && sub(1) == "get"),
        "secret-tool" => sub(0) == "lookup",
        "heroku" => sub(0) == "auth:token",
        // `config view --raw` (or `--flatten`) prints the kubeconfig with its client keys
        // and tokens; without it they are redacted.
        "kubectl" => {
            (sub(0) == "get" && sub(1).starts_with("secret"))
                || (sub(0) == "config"
                    && sub(1) == "view"
                    && words.iter().any(|w| matches!(*w, "--raw" | "--flatten")))
        }
        _ => name.starts_with("docker-credential-"),
    };
    yes.then_some("a credential the command prints")
}

/// A program that prints every environment variable (`env`, `printenv`, `export -p`,
/// `declare -x`, `set`): API tokens and keys live there, so with a sender in the same string it
/// is a secret leaving the machine. `env CMD` runs CMD instead; `printenv NAME` prints one
/// variable the command chose.
fn dumps_environment(name: &str, words: &[&str]) -> bool {
    let operands = words.iter().filter(|w| !w.starts_with('-')).count();
    match name {
        "env" | "printenv" => operands == 0,
        "export" => words.is_empty() || words.iter().all(|w| *w == "-p"),
        // `set` alone prints every variable; with options it only sets them.
        "set" => words.is_empty(),
        "jq" | "gojq" | "jaq" => jq_reads_environment(words),
        "declare" | "typeset" => {
            operands == 0
                && words
                    .iter()
                    .any(|w| w.starts_with('-') && w[1..].contains(['x', 'p']))
        }
        _ => false,
    }
}

/// A program that writes a whole database to its output (`pg_dump`, `mysqldump`,
/// `mongodump --archive`, `sqlite3 DB .dump`): with a sender in the same string the
/// data leaves the machine.
fn dumps_database(name: &str, words: &[&str]) -> bool {
    match name {
        "pg_dump" | "pg_dumpall" | "mysqldump" | "mariadb-dump" | "mongoexport" => true,
        "mongodump" => words.iter().any(|w| w.starts_with("--archive")),
        "redis-cli" => words.contains(&"--rdb"),
        "sqlite3" | "duckdb" => words.contains(&".dump"),
        _ => false,
    }
}

/// jq's `env` builtin and `$ENV` are the whole environment (`jq -n env`); `.env` is a
/// field of the input.
fn jq_reads_environment(words: &[&str]) -> bool {
    words.iter().filter(|w| !w.starts_with('-')).any(|w| {
        w.contains("$ENV")
            || w.match_indices("env").any(|(i, _)| {
                let before = w[..i].chars().next_back();
                let after = w[i + 3..].chars().next();
                let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
                !before.is_some_and(|c| word_char(c) || c == '.' || c == '$')
                    && !after.is_some_and(word_char)
            })
    })
}

/// Inline code that opens a connection: the standard network calls of the languages
/// loopgate screens (Python, Node, Ruby, Perl, PHP, Lua, R).
fn calls_the_network(code: &str) -> bool {
    [
        "urlopen",
        "urllib",
        "requests.",
        "http.client",
        "httpx.",
        "socket.",
        "fetch(",
        "http.request",
        "https.request",
        "http.get",
        "https.get",
        "net.connect",
        "Net::HTTP",
        "TCPSocket",
        "URI.open",
        "LWP::",
        "HTTP::Tiny",
        "IO::Socket",
        "curl_exec",
        "fsockopen",
        "stream_socket_client",
        "socket.http",
        "download.file",
        "httr::",
    ]
    .iter()
    .any(|m| code.contains(m))
}

/// Two file names of which either may be a glob (`id_rsa` and `id_*`, `*.env*` and
/// `.env`): whether one can stand for the other.
fn names_meet(a: &str, b: &str) -> bool {
    let matches = |glob: &str, name: &str| {
        glob.contains(['*', '?', '['])
            && globset::Glob::new(glob).is_ok_and(|g| g.compile_matcher().is_match(name))
    };
    a == b || matches(a, b) || matches(b, a)
}

/// `/proc/self/environ`, `/proc/PID/environ`: a process's environment read as a file.
fn is_process_environment(path: &str) -> bool {
    path.strip_prefix("/proc/")
        .and_then(|p| p.strip_suffix("/environ"))
        .is_some_and(|pid| !pid.is_empty() && !pid.contains('/'))
}

/// The path is the secret, lies under it, or is a directory above it (`~/.ssh` names
/// `~/.ssh/id_*`: copying the directory copies the key). A part of the path that is a
/// glob pattern stands for any name; a template (`.env.example`) is no secret, as in the
/// jail (`roots::deny_read_name`). Both are given as [`parts`].
fn names<P: AsRef<str>, S: AsRef<str>>(path: &[P], secret: &[S]) -> bool {
    path.iter().zip(secret.iter()).all(|(word, pat)| {
        let (word, pat) = (word.as_ref(), pat.as_ref());
        glob_reaches(word, pat) || roots::deny_read_name(pat, word)
    })
}

/// The names of a path, without its root, `.` or `..`.
fn parts(p: &Path) -> Vec<Cow<'_, str>> {
    p.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy()),
            _ => None,
        })
        .collect()
}

/// Whether a glob the command wrote (`*.json`, `id_*`) can expand to the secret's name: as
/// the shell expands it, a leading `.` must be written (`*` reaches no `.env`). Two globs
/// may meet, so they count.
fn glob_reaches(word: &str, pat: &str) -> bool {
    if !word.contains(['*', '?', '[']) {
        return false;
    }
    // A word the shell cannot read as a pattern (`.[].title`, jq's filter, where no `]`
    // closes the class the first `[` opens) stays the literal it is, compared elsewhere.
    let Ok(glob) = globset::Glob::new(word) else {
        return false;
    };
    if pat.starts_with('.') && !word.starts_with('.') {
        return false;
    }
    if pat.contains(['*', '?', '[']) {
        return true;
    }
    glob.compile_matcher().is_match(pat)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(path: &Path, secret: &Path) -> bool {
        super::names(&parts(path), &parts(secret))
    }

    #[test]
    fn a_path_names_the_secret_itself_what_lies_under_it_and_the_directories_above_it() {
        let key = Path::new("/h/.ssh/id_*");
        assert!(names(Path::new("/h/.ssh/id_rsa"), key));
        assert!(names(Path::new("/h/.ssh"), key));
        assert!(names(Path::new("/h/.ssh/*"), key));
        assert!(!names(Path::new("/h/.ssh/known_hosts"), key));
        assert!(!names(Path::new("/h/.sshx"), key));
        let aws = Path::new("/h/.aws");
        assert!(names(Path::new("/h/.aws/credentials"), aws));
        assert!(!names(Path::new("/h/src"), aws));
        let env = Path::new("/r/.env.*");
        assert!(names(Path::new("/r/.env.local"), env));
        assert!(!names(Path::new("/r/.env.example"), env));
        assert!(names(Path::new("/h/.ssh/id_*"), key));
        assert!(names(Path::new("/r/.env*"), Path::new("/r/.env")));
        assert!(!names(Path::new("/r/*.json"), Path::new("/r/.env")));
        assert!(!names(Path::new("/r/*"), Path::new("/r/.env")));
        // jq's `.[].title` is no pattern the shell expands: no `]` closes its class.
        assert!(!names(Path::new("/r/.[].title"), Path::new("/r/.env.*")));
        assert!(!names(Path::new("/r/.[].title"), Path::new("/r/.env")));
        assert!(names(Path::new("/r/.[e]nv"), Path::new("/r/.env")));
    }
}
