//! `git.destructive` and the git side of `gate.tamper`.

use super::args::Arg;
use super::checks::Op;
use super::commands::Parsed;
use super::walk::{Analyzer, ShellState, Stdin};
use super::{rule, Finding};
use crate::programs::long_matches;

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
    pub(crate) fn git(
        &mut self,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &mut ShellState,
        depth: usize,
    ) {
        // Brace expansion happens before git sees its arguments: `reset --{soft,hard}`.
        let expanded: Vec<Arg>;
        let rest = if rest
            .iter()
            .any(|a| a.pattern.as_deref().is_some_and(|p| p.contains('{')))
        {
            expanded = rest.iter().flat_map(brace_words).collect();
            &expanded[..]
        } else {
            rest
        };
        let mut i = 0;
        let mut local = st.clone();
        // `-c alias.x=VALUE` (not `!...`: those run a shell and are asked about) makes `x`
        // stand for VALUE's git words; `-c key=value` settings that change what a
        // subcommand does (`remote.origin.mirror`, `gc.pruneExpire`) are kept too.
        let mut aliases: Vec<(String, String)> = Vec::new();
        let mut settings: Vec<(String, String)> = Vec::new();
        let mut work_tree: Option<Arg> = None;
        while i < rest.len() {
            let Some(t) = rest[i].text() else { break };
            if t == "--work-tree" {
                work_tree = rest.get(i + 1).cloned();
            } else if let Some(dir) = t.strip_prefix("--work-tree=") {
                work_tree = Some(Arg::literal(dir));
            }
            if t == "-C" {
                if let Some(dir) = rest.get(i + 1) {
                    let mut sub = local.clone();
                    // `git -C dir` works in dir, exactly like `cd dir`.
                    self.cd_to(dir, &mut sub);
                    local = sub;
                }
            }
            let setting = if t == "-c" || t == "--config-env" {
                Some(rest.get(i + 1).and_then(|a| a.text()).unwrap_or(""))
            } else {
                t.strip_prefix("--config-env=")
                    .or_else(|| t.strip_prefix("-c").filter(|r| !r.is_empty()))
            };
            if let Some(kv) = setting {
                let (key, value) = kv.split_once('=').unwrap_or((kv, ""));
                self.git_setting(key, Some(value), t.starts_with("--config-env"), display);
                let lower = key.to_ascii_lowercase();
                match lower.strip_prefix("alias.") {
                    Some(name) if !value.trim_start().starts_with('!') => {
                        aliases.push((name.to_string(), value.to_string()));
                    }
                    _ => settings.push((lower, value.to_string())),
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
            if let Some(word) = rest.get(i) {
                // `git $X --hard`, `git "$(echo reset)" --hard`: the subcommand is only
                // known when the shell runs.
                self.dynamic_code(display, word.dynamic.as_deref().unwrap_or(&word.raw));
            }
            return;
        };
        let args = &rest[i + 1..];
        if let Some((_, dir)) = settings.iter().find(|(k, _)| k == "core.worktree") {
            work_tree = Some(Arg::literal(dir));
        }
        if let Some(dir) = work_tree.filter(|_| WORK_TREE_WRITERS.contains(&sub)) {
            // `git --work-tree=$HOME checkout HEAD -- .bashrc` writes below that directory.
            self.check_writes(&[dir], Op::Write, display, &local);
        }
        if let Some(at) = aliases
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(sub))
        {
            // The other aliases stay defined (one may name another); this one is gone
            // from the new words, so the expansion ends.
            let mut words: Vec<Arg> = Vec::new();
            for (k, (n, v)) in aliases.iter().enumerate() {
                if k != at {
                    words.push(Arg::literal("-c"));
                    words.push(Arg::literal(&format!("alias.{n}={v}")));
                }
            }
            words.extend(aliases[at].1.split_whitespace().map(Arg::literal));
            words.extend(args.iter().cloned());
            self.git(&words, stdin, display, st, depth);
            return;
        }
        if let Some(word) = args.iter().find(|a| is_spread(a)) {
            if DESTRUCTIVE_CAPABLE.contains(&sub) {
                self.dynamic_code(
                    display,
                    &format!(
                        "{} (words only the shell knows, given to `git {sub}`)",
                        word.raw
                    ),
                );
            }
        }
        if let Some(url) = rest
            .iter()
            .filter_map(|a| a.text())
            .find(|t| t.to_ascii_lowercase().starts_with("ext::"))
        {
            // git's `ext::` transport runs the rest of the URL as a command.
            self.dynamic_code(display, url);
        }
        if !matches!(sub, "gc" | "maintenance" | "prune" | "repack")
            && settings
                .iter()
                .any(|(k, _)| k.starts_with("gc.") && k.contains("expire"))
        {
            // Any command that may run `gc --auto` (commit, merge, fetch, am, ...) prunes
            // with the expiry given here.
            self.git_deny(
                display,
                "sets a gc expiry for a command that may run `git gc --auto`, which then deletes unreachable objects, the last copy of lost commits",
                "leave gc's grace periods at their defaults",
            );
        }
        self.git_ref_moves(sub, args, display);
        match sub {
            "fast-import" if args.iter().any(|a| a.is("--force")) => {
                self.git_deny(
                    display,
                    "overwrites existing branches with the stream's commits, dropping what they pointed at",
                    "import without `--force`: git then refuses updates that would lose commits",
                );
            }
            "reset" => {
                if args
                    .iter()
                    .any(|a| a.text().is_some_and(|t| long_matches(t, "--hard")))
                {
                    self.git_deny(display, "discards every uncommitted change in the work tree", "commit or `git stash` first; `git reset --soft` or `git restore --staged FILE` only unstage");
                } else if args
                    .iter()
                    .any(|a| a.text().is_some_and(|t| long_matches(t, "--merge")))
                {
                    // `--merge` resets the index and every file whose work-tree copy
                    // matches it: what was staged is discarded, as by `--hard`.
                    self.git_deny(display, "discards the staged changes (the index and the files that match it are reset)", "`git reset --keep COMMIT` moves the branch and keeps local changes, or refuses");
                }
            }
            "clean" => {
                let p = Parsed::new(args, &["-e", "--exclude"]);
                // `-c clean.requireForce=false` makes a plain `git clean` delete.
                let unforced = settings.iter().any(|(k, v)| {
                    k == "clean.requireforce"
                        && matches!(
                            v.to_ascii_lowercase().as_str(),
                            "false" | "no" | "off" | "0"
                        )
                });
                let force = p.has("--force", Some('f')) || unforced;
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
                // `git checkout REF -- PATH` and `git checkout REF PATH` rewrite PATH from
                // REF; a lone operand may be a branch or a path, so every operand counts.
                self.git_pathspecs(&p, display, &local);
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
                if worktree {
                    self.git_pathspecs(&p, display, &local);
                }
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
                let force = force
                    || settings.iter().any(|(k, v)| {
                        k.starts_with("remote.") && k.ends_with(".push") && v.starts_with('+')
                    });
                let deletes = p.has("--delete", Some('d'))
                    || p.has("--mirror", None)
                    || p.has("--prune", None)
                    || settings.iter().any(|(k, v)| {
                        k.starts_with("remote.")
                            && k.ends_with(".mirror")
                            && !matches!(
                                v.to_ascii_lowercase().as_str(),
                                "false" | "no" | "off" | "0"
                            )
                    })
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
                if p.has("--receive-pack", None) || p.has("--exec", None) {
                    self.git_exec_option(display, "--receive-pack");
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
                if args
                    .iter()
                    .find(|a| a.text().is_some_and(|t| !t.starts_with('-')))
                    .is_some_and(|a| a.is("drop") || a.is("clear"))
                {
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
            "send-pack" => {
                let p = Parsed::new(args, &["--receive-pack", "--exec", "--push-option"]);
                if p.has("--force", Some('f'))
                    || p.has("--mirror", None)
                    || p.operands.iter().skip(1).any(|a| {
                        a.text()
                            .is_some_and(|t| t.starts_with('+') || t.starts_with(':'))
                    })
                {
                    self.git_deny(
                        display,
                        "force-pushes or deletes remote refs",
                        "push normally; if history must be rewritten, a human does it",
                    );
                }
            }
            "gc" | "prune" | "repack" | "maintenance" => {
                let p = Parsed::new(args, &["--expire", "--task", "--schedule"]);
                let prunes = match sub {
                    // `maintenance run` runs gc unless told other tasks; an expiry set
                    // to now prunes as `gc --prune=now` does.
                    "maintenance" => {
                        let tasks = p.values(&["--task"]);
                        args.first().is_some_and(|a| a.is("run"))
                            && (tasks.is_empty() || tasks.iter().any(|t| t.is("gc")))
                            && settings
                                .iter()
                                .any(|(k, _)| k.starts_with("gc.") && k.contains("expire"))
                    }
                    "gc" => {
                        (p.has("--prune", None) && !p.opts.iter().any(|(o, _)| o == "--no-prune"))
                            || settings
                                .iter()
                                .any(|(k, _)| k.starts_with("gc.") && k.contains("expire"))
                    }
                    "prune" => !p.has("--dry-run", Some('n')),
                    _ => false,
                };
                if prunes {
                    self.git_deny(
                        display,
                        "deletes unreachable objects now, the last copy of lost commits",
                        "`git gc` with its default grace period keeps them recoverable",
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
            "symbolic-ref" => {
                let p = Parsed::new(args, &["-m"]);
                if p.has("--delete", Some('d')) {
                    self.git_deny(
                        display,
                        "deletes a symbolic ref; without `HEAD` git no longer sees a repository",
                        "switch branches with `git switch BRANCH` instead",
                    );
                }
            }
            "update-ref" => {
                let stdin_deletes = args.iter().any(|a| a.is("--stdin"))
                    && match &stdin.text {
                        Some(text) => text
                            .lines()
                            .any(|l| l.trim_start().to_ascii_lowercase().starts_with("delete")),
                        None => {
                            if stdin.piped || !stdin.files.is_empty() || stdin.remote {
                                self.dynamic_code(
                                    display,
                                    "ref updates read from standard input (`delete REF` lines delete refs)",
                                );
                            }
                            false
                        }
                    };
                if stdin_deletes
                    || args.iter().any(|a| {
                        a.is("-d") || a.text().is_some_and(|t| long_matches(t, "--delete"))
                    })
                {
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
                let mut ops: Vec<&str> = p.operands.iter().filter_map(|a| a.text()).collect();
                if matches!(ops.first(), Some(&"set" | &"unset" | &"--add")) {
                    ops.remove(0);
                }
                let writes = ops.len() > 1
                    || p.opts.iter().any(|(o, _)| {
                        o.starts_with("--unset")
                            || o.starts_with("--add")
                            || o.starts_with("--replace")
                            || o.starts_with("--remove-section")
                            || o.starts_with("--rename-section")
                            || o == "--edit"
                            || o == "-e"
                    })
                    // `git config remove-section alias` drops every alias of the file:
                    // one operand, and a write all the same.
                    || p.operands.first().is_some_and(|a| {
                        a.is("unset") || a.is("remove-section") || a.is("rename-section") || a.is("edit")
                    });
                if writes {
                    // `git config -f loopgate.toml k v` rewrites that file, whatever it is.
                    if let Some(file) = p.value("--file", Some("-f")) {
                        self.check_writes(&[file], Op::Write, display, &local);
                    }
                    // `--global` and `--system` write the user's and the machine's files.
                    if p.has("--global", None) {
                        let file = Arg::literal("~/.gitconfig");
                        self.check_writes(&[file], Op::Write, display, &local);
                    }
                    if p.has("--system", None) {
                        let file = Arg::literal("/etc/gitconfig");
                        self.check_writes(&[file], Op::Write, display, &local);
                    }
                }
                if let (Some(key), true) = (ops.first(), writes) {
                    let alias_value = key
                        .to_ascii_lowercase()
                        .strip_prefix("alias.")
                        .and(ops.get(1).copied())
                        .filter(|v| !v.trim_start().starts_with('!'));
                    if let Some(value) = alias_value {
                        // `git config alias.wipe 'reset --hard'`: the alias is judged as
                        // the git command it stands for.
                        let words: Vec<Arg> = value.split_whitespace().map(Arg::literal).collect();
                        let before = self.findings_len();
                        self.git(&words, &Stdin::none(), display, &mut local.clone(), depth);
                        for mut f in self.take_findings_from(before) {
                            f.reason = format!(
                                "{} (the alias `{key}` stands for `git {value}`)",
                                f.reason
                            );
                            self.add(f);
                        }
                    }
                    if key.eq_ignore_ascii_case("core.hooksPath") {
                        self.git_tamper(
                            display,
                            "changes core.hooksPath, switching the repository's hooks off",
                        );
                    } else if let Some(why) = executing_key(key, ops.get(1).copied()) {
                        self.add(Finding::deny(
                            rule::TAMPER,
                            format!(
                                "`{display}` writes `{key}` to the git configuration, which {why}"
                            ),
                            "leave the repository's git configuration to a human",
                        ));
                    }
                }
            }
            "rm" | "mv" => {
                let p = Parsed::new(args, &["--pathspec-from-file"]);
                let cached = p.has("--cached", None);
                let paths: Vec<Arg> = p.operands.iter().map(|a| (*a).clone()).collect();
                if sub == "mv" {
                    let (srcs, dest) = paths.split_at(paths.len().saturating_sub(1));
                    self.check_writes(srcs, Op::MoveSource, display, &local);
                    self.check_writes(dest, Op::Write, display, &local);
                } else {
                    // `git rm --cached loopgate.toml`: the next commit deletes it from the
                    // committed configuration the gate is anchored to.
                    // With `-r` every entry below a directory operand leaves the index
                    // (`git rm -r --cached .loopgate`). The repository root itself stays a
                    // plain write, as for formatters: `git rm -r --cached . && git add .`
                    // is how a new `.gitignore` is applied.
                    if cached && p.has("-r", Some('r')) {
                        let below: Vec<Arg> = paths
                            .iter()
                            .filter(|a| self.strictly_below_repo(a, &local))
                            .cloned()
                            .collect();
                        self.check_writes(&below, Op::WriteTree, display, &local);
                    }
                    let op = if cached {
                        Op::Write
                    } else {
                        Op::Delete {
                            recursive: p.has("-r", Some('r')),
                        }
                    };
                    self.check_writes(&paths, op, display, &local);
                    // git reads them as pathspecs too: `':(glob)**/settings.json'`,
                    // `':(icase)LOOPGATE.TOML'`, `'*.toml'`.
                    for a in &paths {
                        let Some(spec) = a.text().and_then(pathspec) else {
                            continue;
                        };
                        let path = if spec.top {
                            Arg::literal(&self.ctx.repo_root.join(&spec.path).display().to_string())
                        } else {
                            Arg::literal(&spec.path)
                        };
                        if spec.wildcard || spec.icase {
                            self.git_wildcard(&path, spec.icase, op, display, &local);
                        } else if a.text().is_some_and(|t| t.starts_with(':')) {
                            self.check_writes(&[path], op, display, &local);
                        }
                    }
                }
            }
            "apply" | "am" => self.git_patch(sub, args, stdin, display, &local),
            "update-index" => {
                // `--remove` / `--force-remove` drop the named paths from the index: the
                // next commit deletes them, as `git rm --cached` does.
                if args
                    .iter()
                    .any(|a| a.is("--force-remove") || a.is("--remove"))
                {
                    let p = Parsed::new(args, &["--cacheinfo", "--chmod"]);
                    let paths: Vec<Arg> = p.operands.iter().map(|a| (*a).clone()).collect();
                    self.check_writes(&paths, Op::Write, display, &local);
                }
                // `--cacheinfo MODE,OBJECT,PATH` (or the three words) puts any blob at PATH
                // in the index: the next commit writes it there, as editing the file would.
                let mut staged: Vec<Arg> = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    // The object id is often a substitution (`$(git hash-object -w F)`);
                    // the path after the last comma is still plain text.
                    let raw_path = || {
                        a.raw
                            .rsplit_once(',')
                            .map(|(_, p)| p)
                            .filter(|p| !p.contains(['$', '`', '"', '\'', '\\']))
                            .map(Arg::literal)
                    };
                    if a.text().is_none() && a.raw.starts_with("--cacheinfo") {
                        staged.extend(raw_path());
                    }
                    if a.text().is_none() && i > 0 && args[i - 1].is("--cacheinfo") {
                        staged.extend(raw_path());
                    }
                    if let Some(v) = a.text().and_then(|t| t.strip_prefix("--cacheinfo")) {
                        let v = v.strip_prefix('=').unwrap_or(v);
                        if v.is_empty() {
                            match args.get(i + 1).and_then(|n| n.text()) {
                                Some(n) if n.contains(',') => {
                                    staged.extend(n.splitn(3, ',').nth(2).map(Arg::literal))
                                }
                                _ => staged.extend(args.get(i + 3).cloned()),
                            }
                        } else {
                            staged.extend(v.splitn(3, ',').nth(2).map(Arg::literal));
                        }
                    }
                }
                if !staged.is_empty() {
                    self.check_writes(&staged, Op::Write, display, &local);
                }
                let hides = args.iter().filter_map(|a| a.text()).find(|t| {
                    matches!(
                        *t,
                        "--skip-worktree"
                            | "--no-skip-worktree"
                            | "--assume-unchanged"
                            | "--no-assume-unchanged"
                    )
                });
                if let Some(flag) = hides {
                    self.add(Finding::deny(
                        rule::TAMPER,
                        format!("`{display}` sets `{flag}` on index entries: git status stops reporting (or starts reporting) their changes, and the guards read git status"),
                        "leave the index flags to a human; commit or revert the file instead",
                    ));
                }
            }
            "replace" => {
                // A replacement object makes every later command show another commit (or
                // a graft without parents) in place of the real one: history rewritten
                // without a new commit. Listing (`-l`) and deleting (`-d`) replacements are
                // not this.
                let lists = args
                    .iter()
                    .any(|a| a.is("-l") || a.is("--list") || a.is("-d") || a.is("--delete"))
                    || args.is_empty();
                if !lists {
                    self.git_deny(
                        display,
                        "replaces commits as every later git command sees them (`git replace`)",
                        "make a new commit instead; a human decides on replacements",
                    );
                }
            }
            "sparse-checkout" => {
                let verb = args
                    .iter()
                    .find_map(|a| a.text().filter(|t| !t.starts_with('-')));
                if !matches!(verb, Some("list" | "check-rules") | None) {
                    self.add(Finding::deny(
                        rule::TAMPER,
                        format!("`{display}` changes the sparse checkout: files it leaves out are removed from the work tree and hidden from git status, and so from the guards"),
                        "leave the sparse checkout to a human",
                    ));
                }
            }
            "read-tree" => {
                let p = Parsed::new(args, &["--prefix", "--index-output"]);
                if p.has("--reset", None) && p.has("-u", Some('u')) {
                    self.git_deny(
                        display,
                        "overwrites the work tree with a tree, discarding uncommitted changes",
                        "`git stash` first",
                    );
                }
            }
            "checkout-index" => {
                let p = Parsed::new(args, &["--prefix", "--stage"]);
                // It writes the named paths, below `--prefix` when one is given.
                let prefix = p.value("--prefix", None);
                let mut written: Vec<Arg> = prefix.iter().cloned().collect();
                for a in &p.operands {
                    written.push(match (&prefix, a.text()) {
                        (Some(pre), Some(t)) => match pre.text() {
                            Some(pt) => Arg::literal(&format!("{pt}{t}")),
                            None => pre.clone(),
                        },
                        _ => (*a).clone(),
                    });
                }
                self.check_writes(&written, Op::Write, display, &local);
                if p.has("--force", Some('f')) && p.has("--all", Some('a')) && prefix.is_none() {
                    self.git_deny(
                        display,
                        "overwrites every file of the work tree from the index",
                        "`git stash` first",
                    );
                }
            }
            "merge" | "cherry-pick" | "revert" => {
                let p = Parsed::new(
                    args,
                    &[
                        "-m",
                        "-s",
                        "-X",
                        "--strategy",
                        "--strategy-option",
                        "-F",
                        "--file",
                    ],
                );
                if p.has("--no-verify", None) {
                    self.git_tamper(display, "skips the repository's hooks (--no-verify)");
                }
            }
            "rebase" => {
                let p = Parsed::new(
                    args,
                    &[
                        "-x",
                        "--exec",
                        "--onto",
                        "-s",
                        "--strategy",
                        "-X",
                        "--strategy-option",
                    ],
                );
                if p.has("--no-verify", None) {
                    self.git_tamper(display, "skips the pre-rebase hook (--no-verify)");
                }
                for cmd in p.values(&["-x", "--exec"]) {
                    self.code_words(std::slice::from_ref(&cmd), display, &local, depth, false);
                }
            }
            "bisect" => {
                if args.first().is_some_and(|a| a.is("run")) && args.len() > 1 {
                    let sub =
                        super::walk::Invocation::nested(args[1..].to_vec(), display.to_string());
                    let mut sub_state = local.clone();
                    self.invoke(&sub, 0, &mut sub_state, depth);
                }
            }
            "submodule" => {
                if args
                    .iter()
                    .find(|a| !a.raw.starts_with('-'))
                    .is_some_and(|a| a.is("add"))
                {
                    // `git submodule add URL PATH` clones a whole tree into PATH, as
                    // `git clone URL PATH` does.
                    let p = Parsed::new(
                        args,
                        &["-b", "--branch", "--name", "--reference", "--depth"],
                    );
                    if let Some(dest) = p.operands.get(2) {
                        let dest = (*dest).clone();
                        self.check_writes(std::slice::from_ref(&dest), Op::Write, display, &local);
                        self.check_writes(&[dest], Op::WriteTree, display, &local);
                    }
                }
                // `deinit --force` removes the submodules' work trees even when they hold
                // changes nobody committed, as `git checkout -f` would.
                if args
                    .iter()
                    .find(|a| !a.raw.starts_with('-'))
                    .is_some_and(|a| a.is("deinit"))
                    && args.iter().any(|a| a.is("-f") || a.is("--force"))
                {
                    self.git_deny(
                        display,
                        "discards the submodules' uncommitted work (`deinit --force`)",
                        "commit or stash inside each submodule first, or run `deinit` without `--force`",
                    );
                }
                if let Some(at) = args.iter().position(|a| a.is("foreach")) {
                    let words: Vec<Arg> = args[at + 1..]
                        .iter()
                        .filter(|a| !a.is("--recursive"))
                        .cloned()
                        .collect();
                    self.code_words(&words, display, &local, depth, false);
                }
            }
            "grep" => {
                // `-O<cmd>` / `--open-files-in-pager=<cmd>` runs the matching files through
                // a command of the caller's choosing (git's pager when none is given).
                for a in args {
                    let Some(t) = a.text() else { continue };
                    if t == "--" {
                        break;
                    }
                    let cmd = t
                        .strip_prefix("--open-files-in-pager=")
                        .or_else(|| t.strip_prefix("-O").filter(|c| !c.is_empty()));
                    if let Some(cmd) = cmd {
                        self.code_words(&[Arg::literal(cmd)], display, &local, depth, false);
                    }
                }
            }
            "difftool" | "mergetool" => {
                let p = Parsed::new(args, &["-x", "--extcmd", "-t", "--tool"]);
                if !p.values(&["-x", "--extcmd"]).is_empty() {
                    self.git_exec_option(display, "--extcmd");
                }
            }
            "fetch" | "pull" | "ls-remote" | "archive" => {
                let p = Parsed::new(args, &["--upload-pack", "--exec", "-u"]);
                if p.has("--upload-pack", None) || (sub != "pull" && p.has("--exec", None)) {
                    self.git_exec_option(display, "--upload-pack");
                }
                if sub == "archive" {
                    // The file it is told to write.
                    let p = Parsed::new(
                        args,
                        &[
                            "-o", "--output", "--format", "--prefix", "--remote", "--exec",
                        ],
                    );
                    if let Some(out) = p.value("--output", Some("-o")) {
                        self.check_writes(&[out], Op::Write, display, &local);
                    }
                }
            }
            // Subcommands that write a file or directory they are told to.
            "format-patch" => {
                let p = Parsed::new(
                    args,
                    &[
                        "-o",
                        "--output-directory",
                        "-v",
                        "--reroll-count",
                        "--subject-prefix",
                        "--to",
                        "--cc",
                        "--from",
                        "--in-reply-to",
                        "--base",
                        "--suffix",
                        "--output",
                    ],
                );
                for out in [
                    p.value("--output-directory", Some("-o")),
                    p.value("--output", None),
                ]
                .into_iter()
                .flatten()
                {
                    self.check_writes(&[out], Op::Write, display, &local);
                }
            }
            "bundle" => {
                if args.first().is_some_and(|a| a.is("create")) {
                    let p = Parsed::new(&args[1..], &["--version"]);
                    if let Some(file) = p.operands.first() {
                        self.check_writes(&[(*file).clone()], Op::Write, display, &local);
                    }
                }
            }
            "merge-file" => {
                // Writes the merge into its first file, unless `-p` sends it to stdout.
                let p = Parsed::new(args, &["-L", "--marker-size", "--diff-algorithm"]);
                if !p.has("--stdout", Some('p')) {
                    let current: Vec<Arg> = p
                        .operands
                        .first()
                        .map(|a| (*a).clone())
                        .into_iter()
                        .collect();
                    self.check_writes(&current, Op::Write, display, &local);
                }
            }
            "init" => {
                let p = Parsed::new(
                    args,
                    &[
                        "--template",
                        "--separate-git-dir",
                        "-b",
                        "--initial-branch",
                        "--object-format",
                        "--ref-format",
                        "--shared",
                    ],
                );
                if let Some(dir) = p.operands.first() {
                    self.check_writes(&[(*dir).clone()], Op::Write, display, &local);
                }
                // A template directory is copied into the repository's `.git`, hooks
                // included, even when it already exists.
                let template = p.value("--template", None).is_some()
                    || settings.iter().any(|(k, _)| k == "init.templatedir");
                if template {
                    let dir = p.operands.first().and_then(|a| a.text()).unwrap_or(".");
                    let hooks = Arg::literal(&format!("{}/.git/hooks", dir.trim_end_matches('/')));
                    self.check_writes(&[hooks], Op::WriteTree, display, &local);
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
                if p.has("--upload-pack", None) || p.opts.iter().any(|(o, _)| o == "-u") {
                    self.git_exec_option(display, "--upload-pack");
                }
                for kv in p.values(&["-c", "--config"]) {
                    if let Some(t) = kv.text() {
                        let (key, value) = t.split_once('=').unwrap_or((t, ""));
                        self.git_setting(key, Some(value), false, display);
                    }
                }
                let dest = match p.operands.get(1) {
                    Some(d) => (*d).clone(),
                    None => Arg::literal("."),
                };
                self.check_writes(std::slice::from_ref(&dest), Op::Write, display, &local);
                // A whole tree lands in a directory named below the repository root
                // (`git clone URL .claude`), as when an archive is extracted there.
                if self.strictly_below_repo(&dest, &local) {
                    self.check_writes(&[dest], Op::WriteTree, display, &local);
                }
            }
            "worktree" => {
                if args.first().is_some_and(|a| a.is("remove")) {
                    let p = Parsed::new(&args[1..], &[]);
                    if p.has("--force", Some('f')) {
                        self.git_deny(
                            display,
                            "removes a worktree with its uncommitted changes",
                            "commit or stash in that worktree first; `git worktree remove` without `--force` refuses when it is dirty",
                        );
                    }
                }
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

/// Subcommands that write files of the work tree (`--work-tree DIR` moves it).
const WORK_TREE_WRITERS: &[&str] = &[
    "checkout",
    "restore",
    "reset",
    "switch",
    "stash",
    "merge",
    "pull",
    "cherry-pick",
    "revert",
    "rebase",
    "am",
    "apply",
    "checkout-index",
    "read-tree",
    "clean",
    "rm",
    "mv",
];

/// Subcommands whose effect a flag can turn destructive (`reset --hard`, `push -f`):
/// words only the shell knows (`"$@"`, `${a[@]}`) given to them are asked about.
const DESTRUCTIVE_CAPABLE: &[&str] = &[
    "reset",
    "push",
    "branch",
    "clean",
    "checkout",
    "restore",
    "switch",
    "stash",
    "reflog",
    "gc",
    "prune",
    "update-ref",
    "symbolic-ref",
    "worktree",
    "commit",
    "rm",
    "filter-branch",
    "send-pack",
    "config",
];

/// `"$@"`, `$*`, `${arr[@]}`, `$1`: a word that may expand to any number of words,
/// options included.
fn is_spread(a: &Arg) -> bool {
    a.value.is_none()
        && a.dynamic.as_deref().is_some_and(|d| {
            d.contains("$@")
                || d.contains("$*")
                || d.contains("[@]")
                || d.contains("[*]")
                || d.contains("${@")
                || d.contains("${*")
                || d.trim_start_matches(['"', '$', '{'])
                    .starts_with(|c: char| c.is_ascii_digit())
        })
}

/// The words one brace expansion makes of `a` (`--{soft,hard}` -> `--soft`, `--hard`);
/// `a` itself when it has none. A word left with a glob character stays a pattern.
pub(crate) fn brace_words(a: &Arg) -> Vec<Arg> {
    let expand = a
        .pattern
        .as_deref()
        .filter(|p| p.contains('{'))
        .and(a.text())
        .and_then(|t| expand_braces(t, 0));
    match expand {
        Some(words) => words
            .iter()
            .map(|w| {
                let mut word = Arg::literal(w);
                word.raw = a.raw.clone();
                if let Some(at) = w.find('{') {
                    // A sequence left after the lists (`x{1..3}`) is still for the shell.
                    word.pattern = Some(w[at..].to_string());
                } else if w.contains(['*', '?', '[']) {
                    word.pattern = Some(w.clone());
                }
                word
            })
            .collect(),
        None => vec![a.clone()],
    }
}

/// Bash brace expansion of one word: `pre{a,b}post` -> `preapost`, `prebpost`, nested
/// and repeated groups included. `None` when there is no group with a comma.
fn expand_braces(word: &str, depth: usize) -> Option<Vec<String>> {
    if depth > 4 {
        return None;
    }
    let bytes = word.as_bytes();
    let open = word.find('{')?;
    let mut level = 0;
    let mut commas = Vec::new();
    let mut close = None;
    for (k, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => level += 1,
            b'}' => {
                level -= 1;
                if level == 0 {
                    close = Some(k);
                    break;
                }
            }
            b',' if level == 1 => commas.push(k),
            _ => {}
        }
    }
    let close = close?;
    if commas.is_empty() {
        return None;
    }
    let (pre, post) = (&word[..open], &word[close + 1..]);
    let mut starts = vec![open + 1];
    starts.extend(commas.iter().map(|c| c + 1));
    let mut ends = commas.clone();
    ends.push(close);
    let mut out = Vec::new();
    for (s, e) in starts.into_iter().zip(ends) {
        let joined = format!("{pre}{}{post}", &word[s..e]);
        match expand_braces(&joined, depth + 1) {
            Some(more) => out.extend(more),
            None => out.push(joined),
        }
        if out.len() > 64 {
            return None;
        }
    }
    Some(out)
}

/// Why a git configuration key makes git run a program, if it does.
fn executing_key(key: &str, value: Option<&str>) -> Option<&'static str> {
    let k = key.to_ascii_lowercase();
    let last = k.rsplit('.').next().unwrap_or("");
    if k.starts_with("alias.") {
        return value
            .is_none_or(|v| v.trim_start().starts_with('!'))
            .then_some("defines an alias that runs a shell command");
    }
    // `core.fsmonitor` is a boolean (the built-in daemon) or a hook command.
    if k == "core.fsmonitor"
        && value.is_some_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "false" | "true" | "no" | "yes" | "off" | "on" | "0" | "1"
            )
        })
    {
        return None;
    }
    let runs = matches!(
        k.as_str(),
        "core.fsmonitor"
            | "core.pager"
            | "core.editor"
            | "core.sshcommand"
            | "core.gitproxy"
            | "core.askpass"
            | "diff.external"
            | "sequence.editor"
            | "credential.helper"
            | "gpg.program"
            | "uploadpack.packobjectshook"
            | "core.hookspath"
            | "include.path"
            | "protocol.allow"
            | "protocol.ext.allow"
            | "diff.tool"
            | "merge.tool"
            | "interactive.difffilter"
            | "init.templatedir"
            | "core.alternaterefscommand"
            | "sendemail.sendmailcmd"
            | "sendemail.tocmd"
            | "sendemail.cccmd"
    ) || (k.starts_with("filter.") && matches!(last, "clean" | "smudge" | "process"))
        || (k.starts_with("diff.") && matches!(last, "textconv" | "command"))
        || (k.starts_with("merge.") && last == "driver")
        || (k.starts_with("pager."))
        || (k.starts_with("gpg.") && last == "program")
        || (k.starts_with("includeif.") && last == "path")
        || (k.starts_with("remote.") && matches!(last, "uploadpack" | "receivepack" | "proxy"))
        || (k.starts_with("difftool.") || k.starts_with("mergetool.")) && last == "cmd"
        || (k.starts_with("credential.") && last == "helper");
    runs.then_some("makes git run a program it names")
}

impl Analyzer<'_> {
    /// `git -c key=value`, `--config-env key=VAR`, `clone -c key=value`.
    fn git_setting(&mut self, key: &str, value: Option<&str>, from_env: bool, display: &str) {
        if key.eq_ignore_ascii_case("core.hooksPath") {
            self.git_tamper(
                display,
                "overrides core.hooksPath, switching the repository's hooks off",
            );
            return;
        }
        let value = if from_env { None } else { value };
        // A pager or editor key set to a program that runs nothing but itself
        // (`-c core.pager=cat`, `-c pager.log=false`), as for `GIT_PAGER=cat`.
        let k = key.to_ascii_lowercase();
        let command_line = matches!(k.as_str(), "core.pager" | "core.editor" | "sequence.editor")
            || k.starts_with("pager.");
        let harmless = value.is_some_and(|v| {
            let v = v.trim();
            super::builtins::HARMLESS_COMMANDS.contains(&v)
                || (k.starts_with("pager.") && matches!(v, "false" | "no" | "off" | "0"))
        });
        if command_line && harmless {
            return;
        }
        if let Some(why) = executing_key(key, value) {
            self.add(Finding::ask(
                rule::DYNAMIC,
                format!("`{display}` sets `{key}` for this git call, which {why}"),
                "run git without configuration overrides that name programs",
            ));
        }
    }

    /// A path that resolves strictly below the repository root.
    fn strictly_below_repo(&self, a: &Arg, st: &ShellState) -> bool {
        a.text()
            .and_then(|t| st.cwd.resolve(t, self.ctx.home.as_deref()))
            .is_some_and(|ps| {
                ps.iter()
                    .all(|p| p.starts_with(&self.ctx.repo_root) && p != &self.ctx.repo_root)
            })
    }

    /// The pathspecs of `git checkout` / `git restore`: every file they select is
    /// rewritten. Magic (`:/x`, `:(top)x`) is resolved, exclusions skipped, and a
    /// wildcard (git's `*` also crosses `/`) is matched against the gate files.
    fn git_pathspecs(&mut self, p: &Parsed<'_>, display: &str, st: &ShellState) {
        if let Some(file) = p.value("--pathspec-from-file", None) {
            self.add(Finding::ask(
                rule::DYNAMIC,
                format!(
                    "`{display}` rewrites the paths listed in `{}`, which are only known when it runs",
                    file.show()
                ),
                "name the paths on the command line",
            ));
        }
        let root = self.ctx.repo_root.clone();
        for a in &p.operands {
            if is_whole_tree(a) {
                // Refused as `git.destructive` already.
                continue;
            }
            let Some(text) = a.text() else {
                self.check_writes(std::slice::from_ref(*a), Op::WriteTree, display, st);
                continue;
            };
            let Some(spec) = pathspec(text) else {
                continue;
            };
            let path = if spec.top {
                Arg::literal(&root.join(&spec.path).display().to_string())
            } else {
                Arg::literal(&spec.path)
            };
            if spec.wildcard || spec.icase {
                self.git_wildcard(&path, spec.icase, Op::Write, display, st);
            } else {
                self.check_writes(&[path], Op::WriteTree, display, st);
            }
        }
    }

    /// A wildcard pathspec: the gate files it selects, judged as writes.
    fn git_wildcard(
        &mut self,
        spec: &Arg,
        fold_case: bool,
        op: Op,
        display: &str,
        st: &ShellState,
    ) {
        let Some(text) = spec.text() else { return };
        let Some(bases) = st.cwd.resolve(".", self.ctx.home.as_deref()) else {
            self.check_writes(std::slice::from_ref(spec), Op::WriteTree, display, st);
            return;
        };
        for base in bases {
            let absolute = if text.starts_with('/') {
                text.to_string()
            } else {
                format!("{}/{text}", base.display())
            };
            let hits = self
                .protected()
                .selected_by_git_wildcard(&absolute, fold_case);
            let hits: Vec<Arg> = hits
                .iter()
                .map(|h| Arg::literal(&h.display().to_string()))
                .collect();
            self.check_writes(&hits, op, display, st);
        }
    }

    /// `git apply` / `git am`: the files the patch names are written.
    fn git_patch(
        &mut self,
        sub: &str,
        args: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
    ) {
        use super::patches::{Layout, Source};
        let p = Parsed::new(
            args,
            &[
                "-p",
                "-C",
                "--directory",
                "--exclude",
                "--include",
                "--whitespace",
                "--build-fake-ancestor",
                "--patch-format",
                "--resolvemsg",
                "--empty",
                "--quoted-cr",
            ],
        );
        let read_only = sub == "apply"
            && !p.has("--apply", None)
            && (p.has("--check", None)
                || p.has("--stat", None)
                || p.has("--numstat", None)
                || p.has("--summary", None));
        const AM_CONTROL: [&str; 7] = [
            "--continue",
            "--resolved",
            "--skip",
            "--abort",
            "--quit",
            "--show-current-patch",
            "--allow-empty",
        ];
        // `git am --continue` and kin go on with the series already read when it began.
        let control = sub == "am"
            && (AM_CONTROL.iter().any(|o| p.has(o, None)) || p.opts.iter().any(|(o, _)| o == "-r"));
        if read_only || control {
            return;
        }
        let strip = p
            .value("-p", Some("-p"))
            .and_then(|v| v.text().and_then(|t| t.parse::<usize>().ok()))
            .unwrap_or(1);
        let mut bases: Vec<std::path::PathBuf> = vec![self.ctx.repo_root.clone()];
        if let Some(dirs) = st.cwd.resolve(".", self.ctx.home.as_deref()) {
            bases.extend(dirs);
        }
        if let Some(dir) = p.value("--directory", None).and_then(|d| d.value) {
            let below: Vec<_> = bases.iter().map(|b| b.join(&dir)).collect();
            bases.extend(below);
        }
        let layout = Layout {
            strip: Some(strip),
            bases,
        };
        let sources: Vec<Source<'_>> = if p.operands.is_empty() {
            vec![Source::Stdin(stdin)]
        } else {
            p.operands.iter().map(|a| Source::File(a)).collect()
        };
        self.patch_sources(&sources, &layout, display, st);
    }

    fn git_exec_option(&mut self, display: &str, option: &str) {
        self.add(Finding::ask(
            rule::DYNAMIC,
            format!("`{display}` names the program git runs on the other side (`{option}`)"),
            "use the remote's default programs",
        ));
    }
}

/// A short-option cluster (`-anm`) holding `flag` before any letter that takes a value
/// (`-fm MSG` has `f`; `-mf` is `-m` with the value `f`).
pub(super) fn short_cluster_has(opt: &str, flag: char, takes_value: &str) -> bool {
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

/// One pathspec of `git checkout` / `git restore`, magic resolved.
struct Pathspec {
    path: String,
    /// Relative to the top of the work tree, not the current directory.
    top: bool,
    /// Holds git wildcards (`*`, `?`, `[`), matched across `/`.
    wildcard: bool,
    /// `:(icase)`: matched without case.
    icase: bool,
}

/// `None` for an exclusion (`:!x`, `:^x`, `:(exclude)x`), which rewrites nothing.
fn pathspec(text: &str) -> Option<Pathspec> {
    let (magic, path): (Vec<&str>, &str) = if let Some(rest) = text.strip_prefix(":(") {
        let (list, path) = rest.split_once(')')?;
        (list.split(',').map(str::trim).collect(), path)
    } else if let Some(rest) = text.strip_prefix(':') {
        // Short magic: `/` top, `!` and `^` exclude, then an optional `:`.
        let end = rest
            .find(|c: char| !matches!(c, '/' | '!' | '^'))
            .unwrap_or(rest.len());
        let mut magic = Vec::new();
        for c in rest[..end].chars() {
            magic.push(if c == '/' { "top" } else { "exclude" });
        }
        let path = rest[end..].strip_prefix(':').unwrap_or(&rest[end..]);
        (magic, path)
    } else {
        (Vec::new(), text)
    };
    if magic.contains(&"exclude") {
        return None;
    }
    let literal = magic.contains(&"literal");
    Some(Pathspec {
        path: if path.is_empty() {
            ".".into()
        } else {
            path.to_string()
        },
        top: magic.contains(&"top"),
        wildcard: !literal && path.contains(['*', '?', '[']),
        icase: magic.contains(&"icase"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brace_expansion_as_bash_does_it() {
        let e = |w: &str| expand_braces(w, 0);
        assert_eq!(e("--{soft,hard}").unwrap(), ["--soft", "--hard"]);
        assert_eq!(e("a{b,c{d,e}}f").unwrap(), ["abf", "acdf", "acef"]);
        assert_eq!(e("{a,b}{1,2}").unwrap(), ["a1", "a2", "b1", "b2"]);
        // No comma, no expansion: `{}` and `{x}` stay as written.
        assert!(e("{}").is_none() && e("{x}").is_none() && e("plain").is_none());
    }
}
