//! `git apply`, `git am` and `patch`: a patch may change any file, the gate files
//! included, and the command line does not say which. The patch is read when it can be
//! (a file that exists when the command is decided, a heredoc, `< file`): a patch that
//! names a gate file is `gate.tamper`; one that cannot be read needs a human.
//!
//! Reading the patch file is the one place agent mode reads file content (it already reads
//! symlinks): bounded, and never blocking on a FIFO or a device planted in its place.

use super::args::Arg;
use super::checks::Op;
use super::walk::{Analyzer, ShellState, Stdin};
use super::{rule, Finding};
use std::path::{Path, PathBuf};

/// Patches larger than this are not read (and so need a human).
const MAX_PATCH_BYTES: u64 = 8 << 20;

/// How the file names of a patch map onto the work tree.
pub(crate) struct Layout {
    /// Leading components stripped from each `---`/`+++`/`diff --git` name; `None`: any
    /// number (GNU patch without `-p` guesses).
    pub strip: Option<usize>,
    /// Directories the names are taken relative to (absolute).
    pub bases: Vec<PathBuf>,
}

/// Where the patch text comes from.
pub(crate) enum Source<'a> {
    File(&'a Arg),
    Stdin(&'a Stdin),
}

impl Analyzer<'_> {
    /// Judge the patches of `sources` as writes of every file they name.
    pub(crate) fn patch_sources(
        &mut self,
        sources: &[Source<'_>],
        layout: &Layout,
        display: &str,
        st: &ShellState,
    ) {
        for source in sources {
            let texts = match self.patch_texts(source, st) {
                Ok(texts) => texts,
                Err(why) => {
                    self.add(Finding::ask(
                        rule::DYNAMIC,
                        format!("`{display}` applies a patch that cannot be read before it runs ({why}), so the files it changes are not known"),
                        "write the patch to a file inside the repository first, then apply that file in its own command",
                    ));
                    continue;
                }
            };
            for text in texts {
                for name in named_paths(&text) {
                    for path in candidates(&name, layout) {
                        self.check_writes(
                            &[Arg::literal(&path.display().to_string())],
                            Op::Write,
                            display,
                            st,
                        );
                    }
                }
            }
        }
    }

    /// GNU `patch [OPTIONS] [ORIGFILE [PATCHFILE]]`.
    pub(crate) fn patch(&mut self, rest: &[Arg], stdin: &Stdin, display: &str, st: &ShellState) {
        let p = super::commands::Parsed::new(
            rest,
            &[
                "-p",
                "--strip",
                "-d",
                "--directory",
                "-i",
                "--input",
                "-o",
                "--output",
                "-r",
                "--reject-file",
                "-B",
                "--prefix",
                "-D",
                "--ifdef",
                "-F",
                "--fuzz",
                "-V",
                "--version-control",
                "-Y",
                "--basename-prefix",
                "-z",
                "--suffix",
                "-g",
                "--get",
                "--quoting-style",
            ],
        );
        if p.has("--dry-run", None) {
            return;
        }
        let outputs: Vec<Arg> = ["--output", "--reject-file"]
            .iter()
            .zip(["-o", "-r"])
            .filter_map(|(l, s)| p.value(l, Some(s)))
            .filter(|a| !a.is("-"))
            .collect();
        self.check_writes(&outputs, Op::Write, display, st);
        if let Some(orig) = p.operands.first() {
            // The one file named is the file patched, whatever the patch says.
            self.check_writes(std::slice::from_ref(*orig), Op::Write, display, st);
            return;
        }
        let strip = p
            .value("--strip", Some("-p"))
            .and_then(|v| v.text().and_then(|t| t.parse::<usize>().ok()));
        let mut local = st.clone();
        if let Some(dir) = p.value("--directory", Some("-d")) {
            self.cd_to(&dir, &mut local);
        }
        let Some(bases) = local.cwd.resolve(".", self.ctx.home.as_deref()) else {
            self.add(Finding::ask(
                rule::DYNAMIC,
                format!("`{display}` patches files in a directory only known when it runs"),
                "run patch from a directory spelled out literally",
            ));
            return;
        };
        let layout = Layout { strip, bases };
        let input = p.value("--input", Some("-i"));
        let patch_file = input.or_else(|| p.operands.get(1).map(|a| (*a).clone()));
        match &patch_file {
            Some(f) => self.patch_sources(&[Source::File(f)], &layout, display, st),
            None => self.patch_sources(&[Source::Stdin(stdin)], &layout, display, st),
        }
    }

    fn patch_texts(&self, source: &Source<'_>, st: &ShellState) -> Result<Vec<String>, String> {
        let files: Vec<&Arg> = match source {
            Source::File(a) => vec![*a],
            Source::Stdin(stdin) => {
                if let Some(text) = &stdin.text {
                    return Ok(vec![text.clone()]);
                }
                if stdin.remote || stdin.piped {
                    return Err("it is read from a pipe".into());
                }
                stdin.files.iter().collect()
            }
        };
        let mut out = Vec::new();
        for f in files {
            let Some(t) = f.text().filter(|_| f.pattern.is_none()) else {
                return Err(format!("`{}` is only known when the shell runs", f.show()));
            };
            if super::commands::reads_stdin_path(t) {
                return Err("it is read from standard input".into());
            }
            let paths = st
                .cwd
                .resolve(t, self.ctx.home.as_deref())
                .filter(|p| p.len() == 1)
                .ok_or_else(|| format!("`{t}` is relative to a directory not known yet"))?;
            if self.written.contains(&paths[0]) {
                return Err(format!("`{t}` is written by this same command"));
            }
            match read_patch(&paths[0]) {
                Ok(text) => out.push(text),
                // Nothing to apply when decided: the command fails, as `sh missing.sh`
                // does (a file written later is as unknown as any script's content).
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("`{}`: {e}", paths[0].display())),
            }
        }
        Ok(out)
    }
}

fn read_patch(path: &Path) -> std::io::Result<String> {
    let bytes = state::read_bounded(path, MAX_PATCH_BYTES, state::Follow::Yes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Every file name a patch (unified, context, git, or an mbox of them) names, as written.
pub(crate) fn named_paths(text: &str) -> Vec<Name> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(rest) = line.strip_prefix("diff --git ") {
            for n in git_header_names(rest) {
                out.push(Name::Prefixed(n));
            }
        } else if let Some(rest) = line
            .strip_prefix("--- ")
            .or_else(|| line.strip_prefix("+++ "))
            .or_else(|| {
                line.strip_prefix("*** ")
                    .filter(|_| !line.starts_with("****"))
            })
            .or_else(|| line.strip_prefix("Index: "))
        {
            let name = unquote(rest.split('\t').next().unwrap_or(rest).trim());
            if !name.is_empty() && name != "/dev/null" {
                out.push(Name::Prefixed(name));
            }
        } else if let Some(rest) = ["rename from ", "rename to ", "copy from ", "copy to "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
        {
            out.push(Name::Exact(unquote(rest.trim())));
        }
    }
    out
}

/// A file name from a patch: `Prefixed` ones carry the `a/`, `b/` (or other) leading
/// components the strip level removes; `Exact` ones (`rename to`) do not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Name {
    Prefixed(String),
    Exact(String),
}

/// `a/x b/y`, `"a/x y" "b/x y"`.
fn git_header_names(rest: &str) -> Vec<String> {
    if rest.starts_with('"') {
        return rest
            .split('"')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
    }
    // `a/PATH b/PATH`: the two halves are usually equal; split at the middle space that
    // makes them so, else at every ` b/`.
    let words: Vec<&str> = rest.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    for i in 1..words.len() {
        let (l, r) = (words[..i].join(" "), words[i..].join(" "));
        if l.split_once('/').map(|x| x.1) == r.split_once('/').map(|x| x.1) {
            return vec![l, r];
        }
    }
    for part in rest.split(" b/") {
        out.push(part.to_string());
    }
    out
}

fn unquote(s: &str) -> String {
    s.trim_matches('"').to_string()
}

/// Where a named file lands: stripped as the layout says, below each base.
fn candidates(name: &Name, layout: &Layout) -> Vec<PathBuf> {
    let rels: Vec<String> = match name {
        Name::Exact(n) => vec![n.clone()],
        Name::Prefixed(n) => {
            let comps: Vec<&str> = n.split('/').filter(|c| !c.is_empty()).collect();
            match layout.strip {
                Some(k) if k < comps.len() => vec![comps[k..].join("/")],
                Some(_) => Vec::new(),
                None => (0..comps.len()).map(|k| comps[k..].join("/")).collect(),
            }
        }
    };
    let mut out = Vec::new();
    for rel in rels {
        if rel.is_empty() || rel.starts_with('/') {
            continue;
        }
        for base in &layout.bases {
            out.push(base.join(&rel));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_header_is_read() {
        let text = "From x\nSubject: y\n---\ndiff --git a/loopgate.toml b/loopgate.toml\nindex 1..2\n--- a/loopgate.toml\n+++ b/loopgate.toml\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/x y/z b/x y/z\nsimilarity index 90%\nrename from .claude/s.json\nrename to .claude/settings.json\n*** ctx/a.c\t2020\n--- ctx/a.c\t2020\nIndex: svn/Makefile\n--- /dev/null\n";
        let names = named_paths(text);
        let has = |n: Name| names.contains(&n);
        assert!(has(Name::Prefixed("a/loopgate.toml".into())));
        assert!(has(Name::Prefixed("b/loopgate.toml".into())));
        assert!(has(Name::Prefixed("a/x y/z".into())));
        assert!(has(Name::Exact(".claude/settings.json".into())));
        assert!(has(Name::Prefixed("ctx/a.c".into())));
        assert!(has(Name::Prefixed("svn/Makefile".into())));
        assert!(!names
            .iter()
            .any(|n| *n == Name::Prefixed("/dev/null".into())));
    }

    #[test]
    fn strip_levels_and_bases() {
        let layout = |strip| Layout {
            strip,
            bases: vec![PathBuf::from("/r")],
        };
        let n = Name::Prefixed("a/sub/loopgate.toml".into());
        assert_eq!(
            candidates(&n, &layout(Some(1))),
            vec![PathBuf::from("/r/sub/loopgate.toml")]
        );
        assert_eq!(candidates(&n, &layout(None)).len(), 3);
        assert!(candidates(&n, &layout(Some(5))).is_empty());
    }
}
