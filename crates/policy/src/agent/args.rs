//! Arguments as the program will see them, and the places they can name on disk.

use crate::shell::{self, DynamicKind, WordValue};
use brush_parser::word::{
    Parameter, ParameterExpr, SpecialParameter, WordPiece, WordPieceWithSource,
};
use roots::normalize;
use std::path::{Path, PathBuf};

/// One argument after quote removal, or the reason it cannot be known statically.
#[derive(Debug, Clone)]
pub struct Arg {
    /// The source text, for messages.
    pub raw: String,
    /// The decoded value (`~`, `$HOME` and `$PWD` already expanded), when static.
    pub value: Option<String>,
    /// The unquoted pattern construct, when the shell may expand the word into many.
    pub pattern: Option<String>,
    /// What makes the word dynamic, when it is.
    pub dynamic: Option<String>,
    /// The word carries content fetched from the network (a substitution that downloads).
    pub remote: bool,
    /// `find -exec ... {}`: some path strictly below this directory.
    pub below: Option<PathBuf>,
}

impl Arg {
    pub fn literal(text: &str) -> Arg {
        Arg {
            raw: text.to_string(),
            value: Some(text.to_string()),
            pattern: None,
            dynamic: None,
            remote: false,
            below: None,
        }
    }

    /// The static value, if any.
    pub fn text(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// The static value or the source text: what a reader should see.
    pub fn show(&self) -> &str {
        self.value.as_deref().unwrap_or(&self.raw)
    }

    pub fn is(&self, s: &str) -> bool {
        self.value.as_deref() == Some(s)
    }
}

/// Decode a raw shell word. `$HOME`, `${HOME}` and a leading `~` become `home`; `$PWD`
/// becomes the single known cwd; anything else dynamic stays dynamic.
pub fn decode_arg(raw: &str, home: Option<&Path>, cwd: &Cwd) -> Arg {
    // `$(pwd)` and `` `pwd` `` print the working directory, which is `$PWD`.
    let mut text = if raw.contains("pwd") {
        raw.replace("$(pwd)", "${PWD}").replace("`pwd`", "${PWD}")
    } else {
        raw.to_string()
    };
    // Each pass replaces one known variable by its single-quoted value; bounded by the
    // number of pieces so a hostile word cannot loop.
    for _ in 0..8 {
        match shell::decode(&text) {
            WordValue::Static(s) => {
                let value = if s.tilde {
                    match home {
                        Some(h) => format!("{}{}", h.display(), &s.value[1..]),
                        None => {
                            return dynamic_arg(raw, "~");
                        }
                    }
                } else {
                    s.value
                };
                return Arg {
                    raw: raw.to_string(),
                    value: Some(value),
                    pattern: s.pattern,
                    dynamic: None,
                    remote: false,
                    below: None,
                };
            }
            WordValue::Dynamic(part) => {
                if part.kind != DynamicKind::Parameter {
                    return dynamic_arg(raw, &part.text);
                }
                match substitute_known(&text, home, cwd) {
                    Some(next) => text = next,
                    None => return dynamic_arg(raw, &part.text),
                }
            }
        }
    }
    dynamic_arg(raw, raw)
}

fn dynamic_arg(raw: &str, part: &str) -> Arg {
    Arg {
        raw: raw.to_string(),
        value: None,
        pattern: None,
        dynamic: Some(part.to_string()),
        remote: false,
        below: None,
    }
}

/// Replace the first `$HOME`/`$PWD` expansion (top level or inside double quotes) by its
/// value, single-quoted. `None` when the first parameter is not one we know.
fn substitute_known(text: &str, home: Option<&Path>, cwd: &Cwd) -> Option<String> {
    let pieces = brush_parser::word::parse(text, &shell::parser_options()).ok()?;
    let (start, end, value, in_double_quotes) = first_parameter(&pieces, home, cwd, false)??;
    let quoted = if in_double_quotes {
        value.chars().fold(String::new(), |mut q, c| {
            if matches!(c, '\\' | '$' | '`' | '"') {
                q.push('\\');
            }
            q.push(c);
            q
        })
    } else {
        format!("'{}'", value.replace('\'', "'\\''"))
    };
    let mut out = String::with_capacity(text.len() + quoted.len());
    out.push_str(text.get(..start)?);
    out.push_str(&quoted);
    out.push_str(text.get(end..)?);
    Some(out)
}

/// The span and known value of the first parameter expansion: `Some(None)` when the first
/// one is unknown, `None` when there is none.
#[allow(clippy::type_complexity)]
fn first_parameter(
    pieces: &[WordPieceWithSource],
    home: Option<&Path>,
    cwd: &Cwd,
    in_double_quotes: bool,
) -> Option<Option<(usize, usize, String, bool)>> {
    for piece in pieces {
        match &piece.piece {
            WordPiece::ParameterExpansion(expr) => {
                let known = match expr {
                    ParameterExpr::Parameter {
                        parameter: Parameter::Named(name),
                        indirect: false,
                    } => match name.as_str() {
                        "HOME" => home.map(|h| h.display().to_string()),
                        "PWD" => cwd.single().map(|c| c.display().to_string()),
                        _ => None,
                    },
                    // `$$`, `$?` and `$#` always expand to a non-empty run of digits: never a
                    // `/`, a `..` or nothing, so `/tmp/lock.$$` stays one name in `/tmp`.
                    ParameterExpr::Parameter {
                        parameter:
                            Parameter::Special(
                                SpecialParameter::ProcessId
                                | SpecialParameter::LastExitStatus
                                | SpecialParameter::PositionalParameterCount,
                            ),
                        indirect: false,
                    } => Some("0".to_string()),
                    _ => None,
                };
                return Some(
                    known.map(|v| (piece.start_index, piece.end_index, v, in_double_quotes)),
                );
            }
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => {
                if let Some(found) = first_parameter(inner, home, cwd, true) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// The working directory as far as it is known: every directory it may be (a `cd` that
/// may have failed leaves two), or `None` once a `cd` went somewhere only the shell knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cwd(pub Option<Vec<PathBuf>>);

const MAX_CWD_CANDIDATES: usize = 8;

impl Cwd {
    pub fn known(dir: PathBuf) -> Cwd {
        Cwd(Some(vec![dir]))
    }

    pub fn unknown() -> Cwd {
        Cwd(None)
    }

    pub fn single(&self) -> Option<&Path> {
        match &self.0 {
            Some(v) if v.len() == 1 => Some(&v[0]),
            _ => None,
        }
    }

    /// Either this or `other` (a command that may or may not have changed directory).
    pub fn union(&self, other: &Cwd) -> Cwd {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => {
                let mut all = a.clone();
                for d in b {
                    if !all.contains(d) {
                        all.push(d.clone());
                    }
                }
                if all.len() > MAX_CWD_CANDIDATES {
                    Cwd(None)
                } else {
                    Cwd(Some(all))
                }
            }
            _ => Cwd(None),
        }
    }

    /// Resolve a static path against every candidate.
    pub fn resolve(&self, path: &str, home: Option<&Path>) -> Option<Vec<PathBuf>> {
        let p = Path::new(path);
        if p.is_absolute() {
            return Some(vec![normalize(p, Path::new("/"), home)]);
        }
        let dirs = self.0.as_ref()?;
        Some(dirs.iter().map(|d| normalize(p, d, home)).collect())
    }
}

/// Where a write lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// One known path.
    Path(PathBuf),
    /// Entries of `dir` chosen by a pattern (`pattern` is the absolute pattern, if any);
    /// `all` when the pattern selects every entry (`*`), `climb` when it may match `..`.
    Below {
        dir: PathBuf,
        pattern: Option<String>,
        all: bool,
        climb: bool,
    },
    /// Only the running shell knows: the part that makes it so.
    Unknown(String),
}

/// Every place `arg` may name, resolved against `cwd`.
pub fn targets_of(arg: &Arg, cwd: &Cwd, home: Option<&Path>) -> Vec<Target> {
    if let Some(dir) = &arg.below {
        return vec![Target::Below {
            dir: dir.clone(),
            pattern: None,
            all: false,
            climb: false,
        }];
    }
    let Some(value) = arg.text() else {
        return vec![Target::Unknown(
            arg.dynamic.clone().unwrap_or_else(|| arg.raw.clone()),
        )];
    };
    if arg.pattern.is_none() {
        return match cwd.resolve(value, home) {
            Some(paths) => paths.into_iter().map(Target::Path).collect(),
            None => vec![Target::Unknown(format!(
                "{value} (relative to an unknown directory)"
            ))],
        };
    }
    if arg.pattern.as_deref().is_some_and(|p| p.starts_with('{')) {
        return vec![Target::Unknown(format!("{value} (brace expansion)"))];
    }
    pattern_targets(value, cwd, home)
}

fn has_glob(component: &str) -> bool {
    component.contains(['*', '?', '['])
        || component.contains("+(")
        || component.contains("@(")
        || component.contains("!(")
}

/// A glob stays inside the directory before its first pattern component, unless a `..`
/// follows the pattern (lexical folding would be wrong) or the component may match `..`.
fn pattern_targets(value: &str, cwd: &Cwd, home: Option<&Path>) -> Vec<Target> {
    let comps: Vec<&str> = value.split('/').collect();
    let Some(first_glob) = comps.iter().position(|c| has_glob(c)) else {
        return match cwd.resolve(value, home) {
            Some(paths) => paths.into_iter().map(Target::Path).collect(),
            None => vec![Target::Unknown(value.to_string())],
        };
    };
    if comps[first_glob + 1..].contains(&"..") {
        return vec![Target::Unknown(format!(
            "{value} (a pattern followed by ..)"
        ))];
    }
    let prefix = comps[..first_glob].join("/");
    let prefix = if prefix.is_empty() && value.starts_with('/') {
        "/".to_string()
    } else if prefix.is_empty() {
        ".".to_string()
    } else {
        prefix
    };
    let glob = comps[first_glob];
    let all = first_glob + 1 == comps.len() && matches!(glob, "*" | ".*" | "*.*" | "**");
    let climb =
        glob.starts_with('.') && !glob.starts_with("..") || glob.starts_with(".[") || glob == "..*";
    let rest = comps[first_glob..].join("/");
    match cwd.resolve(&prefix, home) {
        Some(dirs) => dirs
            .into_iter()
            .map(|dir| {
                let pattern = format!(
                    "{}/{}",
                    dir.display().to_string().trim_end_matches('/'),
                    rest
                );
                Target::Below {
                    dir,
                    pattern: Some(pattern),
                    all,
                    climb,
                }
            })
            .collect(),
        None => vec![Target::Unknown(format!(
            "{value} (relative to an unknown directory)"
        ))],
    }
}

/// Sinks that are never files on disk.
/// The `dynamic` note of an argument that is a process substitution, `<(...)` or `>(...)`:
/// the program gets a pipe's name (`/dev/fd/N`).
pub const PROCESS_SUBSTITUTION: &str = "process substitution";

pub fn is_sink(path: &Path) -> bool {
    matches!(
        path.to_str(),
        Some("/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "/dev/zero")
    ) || path.starts_with("/dev/fd")
        || path.starts_with("/proc/self/fd")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cwd() -> Cwd {
        Cwd::known(PathBuf::from("/r"))
    }

    #[test]
    fn home_and_pwd_are_expanded_but_quoted_dollars_are_not() {
        let home = Some(Path::new("/h"));
        assert_eq!(
            decode_arg("$HOME/x", home, &cwd()).value.as_deref(),
            Some("/h/x")
        );
        assert_eq!(
            decode_arg("\"${HOME}\"/x", home, &cwd()).value.as_deref(),
            Some("/h/x")
        );
        assert_eq!(
            decode_arg("~/x", home, &cwd()).value.as_deref(),
            Some("/h/x")
        );
        assert_eq!(
            decode_arg("$PWD/x", home, &cwd()).value.as_deref(),
            Some("/r/x")
        );
        assert_eq!(
            decode_arg("'$HOME'", home, &cwd()).value.as_deref(),
            Some("$HOME")
        );
        let d = decode_arg("$TMPDIR/x", home, &cwd());
        assert_eq!((d.value, d.dynamic.as_deref()), (None, Some("$TMPDIR")));
    }

    #[test]
    fn globs_stay_in_their_directory_unless_they_can_climb() {
        let t = targets_of(&decode_arg("/tmp/*", None, &cwd()), &cwd(), None);
        assert!(
            matches!(&t[0], Target::Below { dir, all: true, climb: false, .. } if dir == Path::new("/tmp"))
        );
        let t = targets_of(&decode_arg(".*", None, &cwd()), &cwd(), None);
        assert!(matches!(&t[0], Target::Below { dir, climb: true, .. } if dir == Path::new("/r")));
        let t = targets_of(&decode_arg("a/*/../../..", None, &cwd()), &cwd(), None);
        assert!(matches!(&t[0], Target::Unknown(_)));
        let t = targets_of(
            &decode_arg("x", None, &Cwd::unknown()),
            &Cwd::unknown(),
            None,
        );
        assert!(matches!(&t[0], Target::Unknown(_)));
    }

    #[test]
    fn a_failed_cd_leaves_both_directories() {
        let both = cwd().union(&Cwd::known(PathBuf::from("/tmp")));
        assert_eq!(
            both.resolve("y", None).unwrap(),
            vec![PathBuf::from("/r/y"), PathBuf::from("/tmp/y")]
        );
    }
}
