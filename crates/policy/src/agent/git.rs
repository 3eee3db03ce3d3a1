//! `git.destructive` and the git side of `gate.tamper`.

use super::args::Arg;
use super::checks::Op;
use super::commands::Parsed;
use super::walk::{Analyzer, ShellState};
use super::{rule, Finding};

/// Global options of `git` that take a value as the next argument.
const GLOBAL_WITH_VALUE: [&str; 8] = [
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
    "--config-env",
    "--super-prefix",
];

/// Pathspecs that name the whole work tree (or the whole current directory).
fn is_whole_tree(a: &Arg) -> bool {
    matches!(
        a.text(),
        Some("." | "./" | ":/" | ":" | "*" | ":(top)" | ":/*" | "/" | "-A")
    )
}

impl Analyzer<'_> {
    fn git_deny(&mut self, display: &str, what: &str, suggestion: &str) {
        self.add(Finding::deny(
            rule::GIT,
            format!("`{display}` {what}"),
            suggestion,
        ));
    }

    fn git_tamper(&mut self, display: &str, what: &str) {
        self.add(Finding::deny(
            rule::TAMPER,
            format!("`{display}` {what}"),
            "let the hooks run; fix what they report instead of skipping them",
        ));
    }

    // One arm per subcommand reads as a table; guards would scatter each rule in two.
    #[allow(clippy::collapsible_match)]
    pub(crate) fn git(&mut self, rest: &[Arg], display: &str, st: &mut ShellState) {
        let mut i = 0;
        let mut local = st.clone();
        while i < rest.len() {
            let Some(t) = rest[i].text() else { break };
            if t == "-C" {
                if let Some(dir) = rest.get(i + 1) {
                    let mut sub = local.clone();
                    // `git -C dir` works in dir, exactly like `cd dir`.
                    self.cd_to(dir, &mut sub);
                    local = sub;
                }
            }
            if t == "-c" || t.starts_with("--config-env") {
                let kv = rest.get(i + 1).and_then(|a| a.text()).unwrap_or("");
                if kv.to_ascii_lowercase().starts_with("core.hookspath") {
                    self.git_tamper(
                        display,
                        "overrides core.hooksPath, switching the repository's hooks off",
                    );
                }
            }
            if GLOBAL_WITH_VALUE.contains(&t) {
                i += 2;
            } else if t.starts_with('-') {
                i += 1;
            } else {
                break;
            }
        }
        let Some(sub) = rest.get(i).and_then(|a| a.text()) else {
            return;
        };
        let args = &rest[i + 1..];
        match sub {
            "reset" => {
                if args.iter().any(|a| a.is("--hard")) {
                    self.git_deny(display, "discards every uncommitted change in the work tree", "commit or `git stash` first; `git reset --soft` or `git restore --staged FILE` only unstage");
                }
            }
            "clean" => {
                let p = Parsed::new(args, &["-e", "--exclude"]);
                let force = p.has("--force", Some('f'));
                let dry = p.has("--dry-run", Some('n')) || p.has("--interactive", Some('i'));
                if force && !dry {
                    self.git_deny(
                        display,
                        "deletes untracked files for good",
                        "run `git clean -n` to list what would go, then delete the specific paths",
                    );
                }
            }
            "checkout" => {
                let p = Parsed::new(
                    args,
                    &["-b", "-B", "--orphan", "--conflict", "--pathspec-from-file"],
                );
                let force = p.has("--force", None) || p.opts.iter().any(|(o, _)| *o == "-f");
                if force {
                    self.git_deny(
                        display,
                        "throws away local changes while switching",
                        "commit or `git stash` first, then switch",
                    );
                } else if p.operands.iter().any(|a| is_whole_tree(a)) {
                    self.git_deny(display, "discards the uncommitted changes of the whole tree", "`git stash` keeps them recoverable; `git checkout -- FILE` reverts one named file");
                }
            }
            "restore" => {
                let p = Parsed::new(args, &["-s", "--source", "--pathspec-from-file"]);
                let staged = p.has("--staged", Some('S'));
                let worktree = p.has("--worktree", Some('W')) || !staged;
                if worktree && p.operands.iter().any(|a| is_whole_tree(a)) {
                    self.git_deny(display, "discards the uncommitted changes of the whole tree", "`git stash` keeps them recoverable; `git restore --staged .` only unstages");
                }
            }
            "switch" => {
                let p = Parsed::new(args, &["-c", "-C", "--orphan"]);
                if p.has("--discard-changes", None)
                    || p.has("--force", None)
                    || p.opts.iter().any(|(o, _)| *o == "-f")
                {
                    self.git_deny(
                        display,
                        "throws away local changes while switching",
                        "commit or `git stash` first, then switch",
                    );
                }
            }
            "push" => {
                let p = Parsed::new(
                    args,
                    &["-o", "--push-option", "--repo", "--receive-pack", "--exec"],
                );
                let force = p.has("--force", Some('f'))
                    || p.opts.iter().any(|(o, _)| o.starts_with("--force"))
                    || p.operands
                        .iter()
                        .skip(1)
                        .any(|a| a.text().is_some_and(|t| t.starts_with('+')));
                let deletes = p.has("--delete", Some('d'))
                    || p.has("--mirror", None)
                    || p.operands
                        .iter()
                        .skip(1)
                        .any(|a| a.text().is_some_and(|t| t.starts_with(':')));
                if force {
                    self.git_deny(
                        display,
                        "force-pushes, rewriting the remote's history",
                        "push normally; if history must be rewritten, a human does it",
                    );
                } else if deletes {
                    self.git_deny(
                        display,
                        "deletes or mirrors remote refs",
                        "ask a human to delete remote branches",
                    );
                }
                if p.has("--no-verify", None) {
                    self.git_tamper(display, "skips the pre-push hooks");
                }
            }
            "branch" => {
                let p = Parsed::new(
                    args,
                    &[
                        "-u",
                        "--set-upstream-to",
                        "--contains",
                        "--merged",
                        "--no-merged",
                        "--points-at",
                        "--sort",
                        "--format",
                    ],
                );
                let force_delete = p
                    .opts
                    .iter()
                    .any(|(o, _)| !o.starts_with("--") && o.contains('D'))
                    || ((p.has("--delete", Some('d'))) && p.has("--force", Some('f')));
                if force_delete {
                    self.git_deny(
                        display,
                        "force-deletes a branch, unmerged commits included",
                        "`git branch -d` deletes only merged branches",
                    );
                }
            }
            "stash" => {
                if args.first().is_some_and(|a| a.is("drop") || a.is("clear")) {
                    self.git_deny(
                        display,
                        "destroys stashed work",
                        "leave the stash; `git stash list` shows it, a human can drop it",
                    );
                }
            }
            "reflog" => {
                if args
                    .first()
                    .is_some_and(|a| a.is("expire") || a.is("delete"))
                {
                    self.git_deny(
                        display,
                        "deletes reflog entries, the last way back to lost commits",
                        "leave the reflog alone",
                    );
                }
            }
            "filter-branch" | "filter-repo" => {
                self.git_deny(
                    display,
                    "rewrites the repository's history",
                    "ask a human to rewrite history",
                );
            }
            "update-ref" => {
                if args.iter().any(|a| a.is("-d") || a.is("--delete")) {
                    self.git_deny(
                        display,
                        "deletes a ref directly",
                        "`git branch -d` or `git tag -d` with their safety checks",
                    );
                }
            }
            "commit" => {
                let p = Parsed::new(
                    args,
                    &[
                        "-m",
                        "-F",
                        "-C",
                        "-c",
                        "-t",
                        "--message",
                        "--file",
                        "--author",
                        "--date",
                        "--template",
                        "--fixup",
                        "--squash",
                        "--trailer",
                        "--cleanup",
                        "--reuse-message",
                        "--reedit-message",
                    ],
                );
                let no_verify = p.has("--no-verify", None)
                    || p.opts
                        .iter()
                        .any(|(o, v)| v.is_none() && short_cluster_has(o, 'n', "mFCct"));
                if no_verify {
                    self.git_tamper(display, "skips the commit hooks (--no-verify)");
                }
            }
            "config" => {
                let p = Parsed::new(args, &["-f", "--file", "--type", "--default", "--comment"]);
                if p.operands
                    .first()
                    .and_then(|a| a.text())
                    .is_some_and(|k| k.eq_ignore_ascii_case("core.hooksPath"))
                    && (p.operands.len() > 1
                        || p.opts.iter().any(|(o, _)| o.starts_with("--unset")))
                {
                    self.git_tamper(
                        display,
                        "changes core.hooksPath, switching the repository's hooks off",
                    );
                }
            }
            "clone" => {
                let p = Parsed::new(
                    args,
                    &[
                        "-b",
                        "--branch",
                        "-o",
                        "--origin",
                        "--depth",
                        "-c",
                        "--config",
                        "--reference",
                        "--separate-git-dir",
                        "-u",
                        "--upload-pack",
                        "-j",
                        "--jobs",
                        "--filter",
                        "--template",
                    ],
                );
                let dest = match p.operands.get(1) {
                    Some(d) => (*d).clone(),
                    None => Arg::literal("."),
                };
                self.check_writes(&[dest], Op::Write, display, &local);
            }
            "worktree" => {
                if args.first().is_some_and(|a| a.is("add")) {
                    let p = Parsed::new(&args[1..], &["-b", "-B", "--reason"]);
                    if let Some(path) = p.operands.first() {
                        self.check_writes(&[(*path).clone()], Op::Write, display, &local);
                    }
                }
            }
            _ => {}
        }
    }
}

/// A short-option cluster (`-anm`) holding `flag` before any letter that takes a value.
fn short_cluster_has(opt: &str, flag: char, takes_value: &str) -> bool {
    if opt.starts_with("--") || !opt.starts_with('-') {
        return false;
    }
    for c in opt[1..].chars() {
        if c == flag {
            return true;
        }
        if takes_value.contains(c) {
            return false;
        }
    }
    false
}
