//! Code this same command string writes and then runs: `echo 'git push -f' > /tmp/x.sh &&
//! sh /tmp/x.sh`, `printf 'all:\n\trm -rf ~\n' > M && make -f M`, a `package.json` written
//! and then `npm install`, a `setup.py` written and then `pip install DIR`. The file does
//! not exist (or holds something else) when the command is decided, so reading it then
//! would judge the wrong text; the string itself says what goes in. When it spells the
//! content (`echo`, `printf`, `cat` of a heredoc or here-string, copied on by `cp`), the
//! code is judged as what it is: shell code walked, a makefile's recipes, a manifest's
//! scripts, Python screened. A manifest or `setup.py` written with content the string does
//! not spell is asked about, as a patch written by the same command is; a script whose
//! content is not spelled stays the program's own business, as `sh t.sh` is (a compiler's
//! output run next, `cc -o /tmp/a a.c && /tmp/a`, is ordinary).

use super::args::Arg;
use super::walk::{Analyzer, ShellState};
use super::{rule, Finding};
use crate::programs::Lang;
use std::path::{Path, PathBuf};

/// What the string wrote to a file, as far as it knows.
pub(crate) enum Written {
    /// Not written by this string.
    No,
    /// Written with content the string does not spell.
    Unknown,
    /// Written with exactly this text.
    Text(String),
}

impl Analyzer<'_> {
    /// Record that `path` now holds `text` (`None`: something the string does not spell).
    pub(crate) fn wrote_content(&mut self, path: PathBuf, text: Option<String>) {
        self.contents.retain(|(p, _)| *p != path);
        self.contents.push((path, text));
    }

    pub(crate) fn written_as(&self, path: &Path) -> Written {
        match self.contents.iter().rev().find(|(p, _)| p == path) {
            Some((_, Some(t))) => Written::Text(t.clone()),
            Some((_, None)) => Written::Unknown,
            None if self.written.iter().any(|p| p == path) => Written::Unknown,
            None => Written::No,
        }
    }

    /// Every place `word` may name, resolved in each directory the shell may be in.
    fn places(&self, word: &str, st: &ShellState) -> Vec<PathBuf> {
        st.cwd
            .resolve(word, self.ctx.home.as_deref())
            .unwrap_or_default()
    }

    /// A script a shell runs (`sh FILE`, `source FILE`, `./FILE`) or an interpreter runs
    /// (`python3 FILE`), written with spelled content by this string: judged as its code.
    pub(crate) fn written_script(
        &mut self,
        lang: Option<(&str, Lang)>,
        path: &str,
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        for place in self.places(path, st) {
            let Written::Text(text) = self.written_as(&place) else {
                continue;
            };
            let shebang = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("#!"))
                .and_then(|l| l.split_whitespace().last())
                .and_then(crate::programs::lookup);
            // `#!/usr/bin/env python3` makes the file Python whatever runs it by path.
            let from_shebang: Option<(String, Lang)> = match shebang {
                Some((p, n)) => match p.role {
                    crate::programs::Role::Interpreter { lang, .. } => Some((n, lang)),
                    _ => None,
                },
                None => None,
            };
            let lang = lang.or(from_shebang.as_ref().map(|(n, l)| (n.as_str(), *l)));
            let before = self.findings_len();
            match lang {
                Some((name, lang)) => {
                    self.screened_code((name, lang), &text, display, st, depth, true)
                }
                None => {
                    let mut sub = st.clone();
                    self.script(&text, &mut sub, depth + 1, false);
                }
            }
            self.annotate_from(before, &place);
        }
    }

    /// `make -f FILE`, or a `Makefile` in the directory, written by this string.
    pub(crate) fn written_makefile(
        &mut self,
        files: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        let names: Vec<String> = if files.is_empty() {
            ["GNUmakefile", "makefile", "Makefile"]
                .iter()
                .map(|s| s.to_string())
                .collect()
        } else {
            files
                .iter()
                .filter_map(|f| f.text())
                .map(str::to_string)
                .collect()
        };
        for name in names {
            for place in self.places(&name, st) {
                match self.written_as(&place) {
                    Written::No => {}
                    Written::Unknown => {
                        self.written_unknown(&place, display, "its recipes run any command")
                    }
                    Written::Text(text) => match super::makefile::plain_recipes(&text) {
                        Some(recipes) => {
                            let before = self.findings_len();
                            for recipe in recipes {
                                let mut sub = st.clone();
                                self.script(&recipe, &mut sub, depth + 1, false);
                            }
                            self.annotate_from(before, &place);
                        }
                        None => self.written_unknown(
                            &place,
                            display,
                            "make expands its variables and functions to commands only make knows",
                        ),
                    },
                }
            }
        }
    }

    /// `npm|pnpm|yarn|bun install|ci|run|test|...` in a directory whose `package.json` this
    /// string wrote: every script the manifest names may run (lifecycle scripts on
    /// install, the named one on run), so each is judged as the shell code it is.
    pub(crate) fn written_manifest(
        &mut self,
        name: &str,
        rest: &[Arg],
        display: &str,
        st: &ShellState,
        depth: usize,
    ) {
        if !matches!(name, "npm" | "pnpm" | "yarn" | "bun") {
            return;
        }
        let words: Vec<&str> = rest.iter().filter_map(|a| a.text()).collect();
        let runs_scripts = words.iter().any(|w| {
            matches!(
                *w,
                "install"
                    | "i"
                    | "ci"
                    | "add"
                    | "run"
                    | "run-script"
                    | "rum"
                    | "urn"
                    | "test"
                    | "t"
                    | "tst"
                    | "start"
                    | "stop"
                    | "restart"
                    | "rebuild"
                    | "rb"
                    | "pack"
                    | "publish"
                    | "link"
                    | "ln"
                    | "update"
                    | "up"
                    | "upgrade"
            )
        }) || (words.is_empty() && name == "yarn");
        if !runs_scripts {
            return;
        }
        let dir = ["--prefix", "-C", "--dir", "--cwd"]
            .iter()
            .find_map(|o| {
                rest.windows(2)
                    .find(|w| w[0].is(o))
                    .and_then(|w| w[1].text())
                    .or_else(|| {
                        words
                            .iter()
                            .find_map(|w| w.strip_prefix(o).and_then(|r| r.strip_prefix('=')))
                    })
            })
            .unwrap_or(".");
        let manifest = format!("{}/package.json", dir.trim_end_matches('/'));
        for place in self.places(&manifest, st) {
            match self.written_as(&place) {
                Written::No => {}
                Written::Unknown => {
                    self.written_unknown(&place, display, "its scripts run any command")
                }
                Written::Text(text) => {
                    let scripts: Vec<String> = serde_json::from_str::<serde_json::Value>(&text)
                        .ok()
                        .and_then(|v| v.get("scripts").cloned())
                        .and_then(|s| s.as_object().cloned())
                        .map(|o| {
                            o.values()
                                .filter_map(|v| v.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default();
                    let before = self.findings_len();
                    for script in scripts {
                        let mut sub = st.clone();
                        self.script(&script, &mut sub, depth + 1, false);
                    }
                    self.annotate_from(before, &place);
                }
            }
        }
    }

    /// `pip install DIR` whose `setup.py` this string wrote: pip runs it.
    pub(crate) fn written_setup_py(
        &mut self,
        name: &str,
        rest: &[Arg],
        display: &str,
        st: &ShellState,
    ) {
        let pip = matches!(name, "pip" | "pip3" | "uv")
            || (name.starts_with("python")
                && rest.windows(2).any(|w| w[0].is("-m") && w[1].is("pip")));
        if !pip || !rest.iter().any(|a| a.is("install")) {
            return;
        }
        for word in rest.iter().filter_map(|a| a.text()) {
            if word.starts_with('-') || matches!(word, "install" | "pip" | "-m") {
                continue;
            }
            let setup = format!("{}/setup.py", word.trim_end_matches('/'));
            for place in self.places(&setup, st) {
                match self.written_as(&place) {
                    Written::No => {}
                    Written::Unknown => self.written_unknown(&place, display, "pip runs it"),
                    Written::Text(text) => {
                        let before = self.findings_len();
                        self.inline_code("python", Lang::Python, &text, display);
                        self.annotate_from(before, &place);
                    }
                }
            }
        }
    }

    fn written_unknown(&mut self, place: &Path, display: &str, why: &str) {
        self.add(Finding::ask(
            rule::DYNAMIC,
            format!(
                "`{display}` runs `{}`, which this same command writes first with content only known when it runs ({why})",
                place.display()
            ),
            "write the file in one command, review it, then run it in the next",
        ));
    }

    /// Say which written file the findings since `before` come from.
    fn annotate_from(&mut self, before: usize, place: &Path) {
        for mut f in self.take_findings_from(before) {
            f.reason = format!(
                "{} (in `{}`, which this same command writes and then runs)",
                f.reason,
                place.display()
            );
            self.add(f);
        }
    }
}
