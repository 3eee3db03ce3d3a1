//! Visit every command a shell string can run, with the shell state that matters.

use super::args::{decode_arg, Arg, Cwd};
use super::checks::Protected;
use super::{rule, AgentContext, Finding};
use crate::shell::{self, ast, Limits, ParseFailure};
use brush_parser::word::{ParameterExpr, ParameterTransformOp, WordPiece, WordPieceWithSource};
use std::path::PathBuf;

/// Nested shells (`bash -c`, `eval`, substitutions, heredocs) analysed at most this deep.
pub(crate) const MAX_DEPTH: usize = 12;
/// Simple commands analysed at most per decision.
const MAX_COMMANDS: usize = 4096;
/// What a shell knows while it runs a string: where it is, and which files this very
/// command downloaded (running one of them is running remote code).
#[derive(Debug, Clone)]
pub(crate) struct ShellState {
    pub cwd: Cwd,
    pub downloaded: Vec<PathBuf>,
    /// `HOME`, `PWD` or `CDPATH` was reassigned earlier in the string, so `~`, `$HOME`,
    /// `$PWD` and relative `cd` no longer mean what the context says.
    pub home_changed: bool,
    pub pwd_changed: bool,
    pub cdpath_changed: bool,
    /// Symlinks this command creates (`ln -s`): a later write through one lands where only
    /// the running shell knows.
    pub links: Vec<PathBuf>,
    /// Variables assigned a static value earlier in the string (`a=--hard; git reset $a`);
    /// `None` once a later assignment is not static.
    pub vars: Vec<(String, Option<String>)>,
    /// `cd`, `pushd` or `popd` was redefined as a function or alias earlier in the string:
    /// a later `cd` runs that instead, so where the shell ends up is unknown.
    pub cd_shadowed: bool,
    /// Aliases defined earlier in the string (`alias g=git`), name and replacement text: a
    /// script that turns on `expand_aliases` runs `g reset --hard` as `git reset --hard`.
    pub aliases: Vec<(String, String)>,
    /// Variables whose last assignment ran whatever happened before it (`d=/tmp/x; ...`,
    /// not after `&&`/`||`, in a branch, a loop or a function): their static value is the
    /// only one they can hold, so a word made of them is judged by its values alone.
    pub definite: Vec<String>,
    /// Walking code that may not run (the right side of `&&`/`||`, a branch, a loop body,
    /// a function body): an assignment here leaves the variable's value uncertain.
    pub conditional: bool,
}

impl ShellState {
    /// `name` may hold `value` from here on (`None`: a value only the shell knows).
    pub(crate) fn remember(&mut self, name: &str, value: Option<String>) {
        self.definite.retain(|n| n != name);
        if !self.vars.iter().any(|(n, v)| n == name && *v == value) {
            self.vars.push((name.to_string(), value));
        }
    }
}

pub(crate) struct Analyzer<'a> {
    pub ctx: &'a AgentContext,
    /// Compiled on the first write target: most commands write nothing.
    protected: Option<Protected>,
    findings: Vec<Finding>,
    commands: Vec<String>,
    steps: usize,
    out_of_bounds: bool,
    /// Wrappers being peeled right now (see `invoke`).
    pub(crate) wrapper_depth: usize,
    /// Programs analysed so far in this decision (see `invoke`).
    pub(crate) programs: usize,
    /// What the previous pipeline stage writes to the next one, when the string spells it.
    last_out: Option<PipeOut>,
    /// Standard input for the next simple command reached in a pipeline stage.
    pipe_in: Option<Stdin>,
    /// Every path this command string writes, in the order analysed (a patch file
    /// written and applied by one command is not there yet when the command is decided).
    pub(crate) written: Vec<PathBuf>,
    /// The content the string gave a file it wrote, where it spells it (`None`: written
    /// with something it does not spell), the last write last (`written_code.rs`).
    pub(crate) contents: Vec<(PathBuf, Option<String>)>,
    /// The first secret path the string names and the first network sender it runs
    /// (`secrets.rs`): together they are one finding, whichever commands they sit in.
    pub(crate) secret_named: Option<super::secrets::Named>,
    pub(crate) sender: Option<(String, String)>,
    pub(crate) secret_words: super::secrets::SecretWords,
}

/// The standard input a command gets, when the command string itself supplies it.
#[derive(Debug, Clone)]
pub(crate) struct Stdin {
    /// The content, when the command string spells it out (a heredoc, `echo ... |`).
    pub text: Option<String>,
    /// Content downloaded from the network flows in (a pipe from `curl`, ...).
    pub remote: bool,
    /// Fed by a pipe or a here-string whose content only the running shell knows.
    pub piped: bool,
    /// Files whose content flows in (`< file`, `cat a b |`).
    pub files: Vec<Arg>,
    /// The arguments of a `find` that prints the paths it selects into this pipe
    /// (`find target -name '*.o' | xargs rm`); empty otherwise.
    pub found: Vec<Arg>,
}

impl Stdin {
    pub fn none() -> Stdin {
        Stdin {
            text: None,
            remote: false,
            piped: false,
            files: Vec::new(),
            found: Vec::new(),
        }
    }
}

/// One simple command, words decoded, ready for the per-program rules.
#[derive(Debug, Clone)]
pub(crate) struct Invocation {
    pub argv: Vec<Arg>,
    pub stdin: Stdin,
    /// The arguments are completed from standard input (`xargs`).
    pub xargs: bool,
    /// The whole command as the user would read it.
    pub display: String,
}

impl Invocation {
    /// A command another command runs with these words (a runner, `xargs -I`, `find
    /// -exec`, `git bisect run`): no standard input of its own, arguments complete.
    pub fn nested(argv: Vec<Arg>, display: String) -> Invocation {
        Invocation {
            argv,
            stdin: Stdin::none(),
            xargs: false,
            display,
        }
    }
}

impl<'a> Analyzer<'a> {
    pub fn new(ctx: &'a AgentContext) -> Analyzer<'a> {
        Analyzer {
            ctx,
            protected: None,
            findings: Vec::new(),
            commands: Vec::new(),
            steps: 0,
            out_of_bounds: false,
            wrapper_depth: 0,
            programs: 0,
            last_out: None,
            pipe_in: None,
            written: Vec::new(),
            contents: Vec::new(),
            secret_named: None,
            sender: None,
            secret_words: Default::default(),
        }
    }

    pub fn analyse(&mut self, command: &str) {
        let mut state = ShellState {
            cwd: Cwd::known(self.ctx.cwd.clone()),
            downloaded: Vec::new(),
            home_changed: false,
            pwd_changed: false,
            cdpath_changed: false,
            links: Vec::new(),
            vars: Vec::new(),
            cd_shadowed: false,
            aliases: Vec::new(),
            definite: Vec::new(),
            conditional: false,
        };
        self.script(command, &mut state, 0, false);
    }

    pub fn protected(&mut self) -> &Protected {
        self.protected
            .get_or_insert_with(|| Protected::new(self.ctx))
    }

    /// `shopt -s nocaseglob`: later patterns (`rm LOOPGATE.*`) match without case. Kept
    /// for the rest of the string, whichever branch set it.
    pub(crate) fn fold_glob_case(&mut self) {
        self.protected
            .get_or_insert_with(|| Protected::new(self.ctx))
            .fold_case = true;
    }

    pub fn finish(mut self) -> (Vec<Finding>, Vec<String>) {
        self.secret_over_network();
        (self.findings, self.commands)
    }

    /// A bound was hit: the decision is `parse.bounds` whatever else is found.
    pub(crate) fn exhausted(&self) -> bool {
        self.out_of_bounds
    }

    pub(crate) fn findings_len(&self) -> usize {
        self.findings.len()
    }

    /// The findings added since `len`, removed (to be judged again by the caller).
    pub(crate) fn take_findings_from(&mut self, len: usize) -> Vec<Finding> {
        self.findings.split_off(len.min(self.findings.len()))
    }

    pub fn add(&mut self, finding: Finding) {
        // Identical findings from repeated words add nothing but length.
        if !self
            .findings
            .iter()
            .any(|f| f.rule == finding.rule && f.reason == finding.reason)
        {
            self.findings.push(finding);
        }
    }

    pub(crate) fn bounds(&mut self, why: String) {
        if !self.out_of_bounds {
            self.out_of_bounds = true;
            self.add(Finding::ask(
                rule::BOUNDS,
                why,
                "split the command into smaller, flatter commands",
            ));
        }
    }

    /// Parse and walk a whole script; true when its output may carry downloaded content.
    pub fn script(
        &mut self,
        text: &str,
        st: &mut ShellState,
        depth: usize,
        stdin_remote: bool,
    ) -> bool {
        if depth > MAX_DEPTH {
            self.bounds(format!(
                "shell strings nest more than {MAX_DEPTH} levels deep (bash -c, eval, substitutions)"
            ));
            return false;
        }
        if self.out_of_bounds {
            return false;
        }
        match shell::parse_with_limits(text, Limits::DEFAULT) {
            Ok(program) => {
                let mut downloads = false;
                for list in &program.complete_commands {
                    downloads |= self.list(list, st, depth, stdin_remote);
                }
                downloads
            }
            Err(failure @ (ParseFailure::TooLong { .. } | ParseFailure::TooDeep { .. })) => {
                self.bounds(failure.to_string());
                false
            }
            Err(failure) => {
                let shown: String = text.chars().take(120).collect();
                self.add(Finding::ask(
                    rule::PARSE,
                    format!("{failure} (in `{shown}`)"),
                    "fix the quoting so the command parses as bash",
                ));
                false
            }
        }
    }

    fn list(
        &mut self,
        list: &ast::CompoundList,
        st: &mut ShellState,
        depth: usize,
        stdin_remote: bool,
    ) -> bool {
        let mut downloads = false;
        for ast::CompoundListItem(and_or, sep) in &list.0 {
            if matches!(sep, ast::SeparatorOperator::Async) {
                // A background job runs in a subshell: its `cd` does not leak.
                let mut job = st.clone();
                downloads |= self.and_or(and_or, &mut job, depth, stdin_remote);
                continue;
            }
            let before = st.cwd.clone();
            downloads |= self.and_or(and_or, st, depth, stdin_remote);
            // The next command runs whether or not a `cd` in this one succeeded.
            if st.cwd != before {
                st.cwd = before.union(&st.cwd);
            }
        }
        downloads
    }

    fn and_or(
        &mut self,
        list: &ast::AndOrList,
        st: &mut ShellState,
        depth: usize,
        stdin_remote: bool,
    ) -> bool {
        let mut before = st.cwd.clone();
        let mut downloads = self.pipeline(&list.first, st, depth, stdin_remote);
        for next in &list.additional {
            let (pipeline, or) = match next {
                ast::AndOr::And(p) => (p, false),
                ast::AndOr::Or(p) => (p, true),
            };
            if or && st.cwd != before {
                // `a || b`: b runs when a failed, possibly before a's `cd` took effect.
                st.cwd = before.union(&st.cwd);
            }
            before = st.cwd.clone();
            let outer = std::mem::replace(&mut st.conditional, true);
            downloads |= self.pipeline(pipeline, st, depth, stdin_remote);
            st.conditional = outer;
        }
        downloads
    }

    fn pipeline(
        &mut self,
        pipeline: &ast::Pipeline,
        st: &mut ShellState,
        depth: usize,
        stdin_remote: bool,
    ) -> bool {
        if pipeline.seq.len() == 1 {
            return self.command(&pipeline.seq[0], st, depth, stdin_remote);
        }
        // Every stage of a multi-command pipeline runs in its own subshell, except the
        // last one under `shopt -s lastpipe` (a non-interactive shell honours it): a `cd`
        // there may move this shell, so afterwards either directory is possible.
        let mut upstream_remote = stdin_remote;
        let last = pipeline.seq.len() - 1;
        for (n, stage) in pipeline.seq.iter().enumerate() {
            let mut sub = st.clone();
            self.pipe_in = (n > 0).then(|| match self.last_out.take() {
                // `cat script.sh | sh` runs a file, as `sh script.sh` does.
                Some(PipeOut::Files(files)) => Stdin {
                    text: None,
                    remote: upstream_remote,
                    piped: false,
                    files,
                    found: Vec::new(),
                },
                Some(PipeOut::Found(found)) => Stdin {
                    text: None,
                    remote: upstream_remote,
                    piped: true,
                    files: Vec::new(),
                    found,
                },
                Some(PipeOut::Text(text)) => Stdin {
                    text: Some(text),
                    remote: upstream_remote,
                    piped: true,
                    files: Vec::new(),
                    found: Vec::new(),
                },
                None => Stdin {
                    text: None,
                    remote: upstream_remote,
                    piped: true,
                    files: Vec::new(),
                    found: Vec::new(),
                },
            });
            self.last_out = None;
            upstream_remote |= self.command(stage, &mut sub, depth, upstream_remote);
            self.pipe_in = None;
            if n == last && sub.cwd != st.cwd {
                st.cwd = st.cwd.union(&sub.cwd);
            }
        }
        self.last_out = None;
        upstream_remote
    }

    fn command(
        &mut self,
        command: &ast::Command,
        st: &mut ShellState,
        depth: usize,
        stdin_remote: bool,
    ) -> bool {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, st, depth, stdin_remote),
            ast::Command::Compound(compound, redirects) => {
                if let Some(list) = redirects {
                    let display = "compound command".to_string();
                    for r in &list.0 {
                        let mut body = None;
                        self.redirect(r, st, depth, &display, &mut body);
                    }
                }
                self.compound(compound, st, depth, stdin_remote)
            }
            ast::Command::Function(f) => {
                if matches!(f.fname.value.as_str(), "cd" | "pushd" | "popd") {
                    st.cd_shadowed = true;
                }
                let name = f.fname.value.as_str();
                if super::processes::fork_bomb(name, &f.body.to_string()) {
                    self.add(Finding::ask(
                        rule::PROCESSES,
                        format!("the function `{name}` starts copies of itself concurrently, without bound (a fork bomb)"),
                        "write a loop with a fixed count, or start the processes you need by name",
                    ));
                }
                // The body may run later, from anywhere: analyse it as written.
                let mut body = st.clone();
                body.conditional = true;
                self.compound(&f.body.0, &mut body, depth, false)
            }
            ast::Command::ExtendedTest(test, _) => {
                self.extended_test(&test.expr, st, depth);
                false
            }
        }
    }

    fn extended_test(&mut self, expr: &ast::ExtendedTestExpr, st: &mut ShellState, depth: usize) {
        use ast::ExtendedTestExpr as E;
        match expr {
            E::And(a, b) | E::Or(a, b) => {
                self.extended_test(a, st, depth);
                self.extended_test(b, st, depth);
            }
            E::Not(a) | E::Parenthesized(a) => self.extended_test(a, st, depth),
            E::UnaryTest(_, w) => {
                let arg = self.word(&w.value, st, depth);
                self.subscripts(&arg, st, depth);
            }
            E::BinaryTest(_, a, b) => {
                // `-eq` and its kin evaluate both sides as arithmetic, subscripts included.
                for w in [a, b] {
                    let arg = self.word(&w.value, st, depth);
                    self.subscripts(&arg, st, depth);
                }
            }
        }
    }

    /// Walk a branch that may or may not run: its `cd` makes the directory uncertain.
    fn branch(
        &mut self,
        list: &ast::CompoundList,
        st: &mut ShellState,
        depth: usize,
        stdin_remote: bool,
    ) -> bool {
        let mut sub = st.clone();
        sub.conditional = true;
        let downloads = self.list(list, &mut sub, depth, stdin_remote);
        if sub.cwd != st.cwd {
            st.cwd = st.cwd.union(&sub.cwd);
        }
        // Assigned in a branch that may not have run: no longer one value.
        st.definite.retain(|n| {
            sub.definite.contains(n)
                && !sub
                    .vars
                    .iter()
                    .any(|(m, v)| m == n && !st.vars.iter().any(|(o, w)| o == m && w == v))
        });
        st.downloaded = sub.downloaded;
        st.links = sub.links;
        st.home_changed |= sub.home_changed;
        st.pwd_changed |= sub.pwd_changed;
        st.cdpath_changed |= sub.cdpath_changed;
        // A variable a branch may have assigned keeps that value too: the analysis runs
        // the command once with the value and once without it.
        for (name, value) in sub.vars {
            st.remember(&name, value);
        }
        downloads
    }

    fn compound(
        &mut self,
        compound: &ast::CompoundCommand,
        st: &mut ShellState,
        depth: usize,
        stdin_remote: bool,
    ) -> bool {
        use ast::CompoundCommand as C;
        match compound {
            C::BraceGroup(group) => self.list(&group.list, st, depth, stdin_remote),
            C::Subshell(sub) => {
                let mut inner = st.clone();
                self.list(&sub.list, &mut inner, depth, stdin_remote)
            }
            C::ForClause(f) => {
                let mut values = Vec::new();
                for w in f.values.iter().flatten() {
                    values.push(self.word(&w.value, st, depth));
                }
                // `for f in --hard; do git reset $f; done`: the loop variable takes each
                // static word in turn (see `with_variables`).
                let mut inner = st.clone();
                for v in values.iter().take(8) {
                    for word in v
                        .text()
                        .map(|t| t.split_whitespace().collect::<Vec<_>>())
                        .unwrap_or_default()
                    {
                        inner.remember(&f.variable_name, Some(word.to_string()));
                    }
                }
                let downloads = self.branch(&f.body.list, &mut inner, depth, stdin_remote);
                st.cwd = inner.cwd;
                st.downloaded = inner.downloaded;
                st.links = inner.links;
                st.home_changed |= inner.home_changed;
                st.pwd_changed |= inner.pwd_changed;
                st.cdpath_changed |= inner.cdpath_changed;
                st.vars = inner.vars;
                downloads
            }
            C::ArithmeticForClause(f) => {
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.word(&e.value, st, depth);
                }
                self.branch(&f.body.list, st, depth, stdin_remote)
            }
            C::Arithmetic(a) => {
                self.word(&a.expr.value, st, depth);
                // `( ( git reset --hard ) )`: when the text is not an arithmetic expression,
                // bash runs it as nested subshells. It is judged that way too; a text that
                // does not parse as commands is plain arithmetic (no parse finding).
                if depth < MAX_DEPTH && a.expr.value.chars().any(|c| c.is_ascii_alphabetic()) {
                    let before = self.findings_len();
                    let listed = self.commands.len();
                    let written = self.written.len();
                    let mut sub = st.clone();
                    self.script(&format!("({})", a.expr.value), &mut sub, depth + 1, false);
                    let found = self.take_findings_from(before);
                    // A substitution read as the subshell's command word (`(( $(git status
                    // --porcelain | wc -l) == 0 ))`) is an operand: it ran, and was judged,
                    // when the words were expanded above.
                    let operand_only = found.iter().all(|f| f.rule == rule::DYNAMIC)
                        && a.expr.value.trim_start().starts_with(['$', '`']);
                    if found.is_empty()
                        || operand_only
                        || found.iter().any(|f| f.rule == rule::PARSE)
                    {
                        // Arithmetic after all: nothing ran, so nothing is listed.
                        self.commands.truncate(listed);
                        self.written.truncate(written);
                    } else {
                        for f in found {
                            self.add(f);
                        }
                    }
                }
                false
            }
            C::CaseClause(c) => {
                self.word(&c.value.value, st, depth);
                let mut downloads = false;
                for item in &c.cases {
                    for p in &item.patterns {
                        self.word(&p.value, st, depth);
                    }
                    if let Some(cmd) = &item.cmd {
                        downloads |= self.branch(cmd, st, depth, stdin_remote);
                    }
                }
                downloads
            }
            C::IfClause(i) => {
                let mut downloads = self.list(&i.condition, st, depth, stdin_remote);
                downloads |= self.branch(&i.then, st, depth, stdin_remote);
                for e in i.elses.iter().flatten() {
                    if let Some(cond) = &e.condition {
                        downloads |= self.branch(cond, st, depth, stdin_remote);
                    }
                    downloads |= self.branch(&e.body, st, depth, stdin_remote);
                }
                downloads
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                let mut downloads = self.list(&w.0, st, depth, stdin_remote);
                downloads |= self.branch(&w.1.list, st, depth, stdin_remote);
                downloads
            }
            C::Coprocess(c) => {
                let mut inner = st.clone();
                self.command(&c.body, &mut inner, depth, false)
            }
        }
    }

    /// Decode a word and analyse every command substitution inside it.
    pub fn word(&mut self, raw: &str, st: &ShellState, depth: usize) -> Arg {
        let mut remote = false;
        if raw.contains(['$', '`']) && !self.out_of_bounds {
            let mut subs = Vec::new();
            if let Ok(pieces) = brush_parser::word::parse(raw, &shell::parser_options()) {
                collect_substitutions(raw, &pieces, &mut subs, 0);
            }
            for inner in subs {
                let mut sub = st.clone();
                remote |= self.script(&inner, &mut sub, depth + 1, false);
            }
        }
        let home = if st.home_changed {
            None
        } else {
            self.ctx.home.as_deref()
        };
        let mut arg = if st.pwd_changed {
            decode_arg(raw, home, &Cwd::unknown())
        } else {
            decode_arg(raw, home, &st.cwd)
        };
        arg.remote = remote;
        arg
    }

    /// Analyse the substitutions of an unquoted heredoc body (the shell expands them).
    fn heredoc_substitutions(&mut self, body: &str, st: &ShellState, depth: usize) -> bool {
        if !body.contains(['$', '`']) {
            return false;
        }
        let mut subs = Vec::new();
        if let Ok(pieces) = brush_parser::word::parse_heredoc(body, &shell::parser_options()) {
            collect_substitutions(body, &pieces, &mut subs, 0);
        }
        let mut remote = false;
        for inner in subs {
            let mut sub = st.clone();
            remote |= self.script(&inner, &mut sub, depth + 1, false);
        }
        remote
    }

    /// `>(CMD)` reads what the outer command writes into it: a pipe whose content only
    /// the running shell knows (`echo 'rm -rf ~' > >(bash)` is `... | bash`). `<(CMD)`
    /// reads the shell's own input.
    fn process_substitution(
        &mut self,
        kind: &ast::ProcessSubstitutionKind,
        list: &ast::CompoundList,
        inner: &mut ShellState,
        depth: usize,
    ) -> bool {
        let outer = self.pipe_in.take();
        if matches!(kind, ast::ProcessSubstitutionKind::Write) {
            self.pipe_in = Some(Stdin {
                piped: true,
                ..Stdin::none()
            });
        }
        let remote = self.list(list, inner, depth + 1, false);
        self.pipe_in = outer;
        remote
    }

    fn redirect(
        &mut self,
        redirect: &ast::IoRedirect,
        st: &mut ShellState,
        depth: usize,
        display: &str,
        body: &mut Option<Stdin>,
    ) {
        use ast::{IoFileRedirectKind as K, IoFileRedirectTarget as T, IoRedirect as R};
        match redirect {
            R::File(_, kind, target) => match target {
                T::Filename(w) => {
                    let arg = self.word(&w.value, st, depth);
                    if matches!(kind, K::Write | K::Append | K::Clobber | K::ReadAndWrite) {
                        self.check_writes(&[arg], super::checks::Op::Write, display, st);
                    } else if matches!(kind, K::Read) {
                        *body = Some(Stdin {
                            files: vec![arg],
                            ..Stdin::none()
                        });
                    }
                }
                T::Duplicate(w) => {
                    let arg = self.word(&w.value, st, depth);
                    // `>&file` writes a file; `>&2`, `>&-` only duplicate descriptors.
                    let is_fd = arg.text().is_some_and(|t| {
                        t == "-" || t.trim_end_matches('-').chars().all(|c| c.is_ascii_digit())
                    });
                    if matches!(kind, K::DuplicateOutput) && !is_fd {
                        self.check_writes(&[arg], super::checks::Op::Write, display, st);
                    }
                }
                T::ProcessSubstitution(sub_kind, sub) => {
                    let mut inner = st.clone();
                    let remote = self.process_substitution(sub_kind, &sub.list, &mut inner, depth);
                    if matches!(kind, K::Read) {
                        *body = Some(Stdin {
                            text: None,
                            remote,
                            piped: true,
                            files: Vec::new(),
                            found: Vec::new(),
                        });
                    }
                }
                T::Fd(_) => {}
            },
            R::OutputAndError(w, _) => {
                let arg = self.word(&w.value, st, depth);
                self.check_writes(&[arg], super::checks::Op::Write, display, st);
            }
            R::HereDocument(_, doc) => {
                let remote =
                    doc.requires_expansion && self.heredoc_substitutions(&doc.doc.value, st, depth);
                *body = Some(Stdin {
                    text: Some(doc.doc.value.clone()),
                    remote,
                    piped: false,
                    files: Vec::new(),
                    found: Vec::new(),
                });
            }
            R::HereString(_, w) => {
                let arg = self.word(&w.value, st, depth);
                // `<<< "$X"`: content only the running shell knows.
                *body = Some(Stdin {
                    piped: arg.value.is_none(),
                    text: arg.value.clone(),
                    remote: arg.remote,
                    files: Vec::new(),
                    found: Vec::new(),
                });
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn item<'b>(
        &mut self,
        item: &'b ast::CommandPrefixOrSuffixItem,
        prefix: bool,
        st: &mut ShellState,
        depth: usize,
        argv: &mut Vec<Arg>,
        raw_parts: &mut Vec<String>,
        redirects: &mut Vec<&'b ast::IoRedirect>,
        assignments: &mut Vec<Arg>,
    ) {
        use ast::CommandPrefixOrSuffixItem as I;
        match item {
            I::Word(w) => {
                raw_parts.push(w.value.clone());
                argv.push(self.word(&w.value, st, depth));
            }
            I::AssignmentWord(_, w) if prefix => {
                raw_parts.push(w.value.clone());
                // Only the substitutions of a leading assignment run.
                let arg = self.word(&w.value, st, depth);
                assignments.push(arg);
            }
            // After the command name `x=y` is an ordinary argument (`dd of=...`).
            I::AssignmentWord(_, w) => {
                raw_parts.push(w.value.clone());
                argv.push(self.word(&w.value, st, depth));
            }
            I::IoRedirect(r) => {
                raw_parts.push(r.to_string());
                redirects.push(r)
            }
            I::ProcessSubstitution(kind, sub) => {
                let mut inner = st.clone();
                let remote = self.process_substitution(kind, &sub.list, &mut inner, depth);
                let raw = match kind {
                    ast::ProcessSubstitutionKind::Read => "<(...)",
                    ast::ProcessSubstitutionKind::Write => ">(...)",
                };
                raw_parts.push(raw.to_string());
                let mut arg = Arg::literal(raw);
                arg.value = None;
                arg.dynamic = Some(super::args::PROCESS_SUBSTITUTION.into());
                arg.remote = remote;
                argv.push(arg);
            }
        }
    }

    fn simple(
        &mut self,
        simple: &ast::SimpleCommand,
        st: &mut ShellState,
        depth: usize,
        stdin_remote: bool,
    ) -> bool {
        self.steps += 1;
        if self.steps > MAX_COMMANDS {
            self.bounds(format!(
                "the command string holds more than {MAX_COMMANDS} commands"
            ));
            return false;
        }
        let mut argv: Vec<Arg> = Vec::new();
        let mut redirects: Vec<&ast::IoRedirect> = Vec::new();
        let mut raw_parts: Vec<String> = Vec::new();
        let mut assignments: Vec<Arg> = Vec::new();
        for item in simple.prefix.iter().flat_map(|p| p.0.iter()) {
            self.item(
                item,
                true,
                st,
                depth,
                &mut argv,
                &mut raw_parts,
                &mut redirects,
                &mut assignments,
            );
        }
        if let Some(name) = &simple.word_or_name {
            raw_parts.push(name.value.clone());
            argv.push(self.word(&name.value, st, depth));
        }
        for item in simple.suffix.iter().flat_map(|s| s.0.iter()) {
            self.item(
                item,
                false,
                st,
                depth,
                &mut argv,
                &mut raw_parts,
                &mut redirects,
                &mut assignments,
            );
        }
        // Brace expansion comes before everything else the shell does to the words:
        // `mv loopgate.toml{,.bak}` is `mv loopgate.toml loopgate.toml.bak`.
        if argv
            .iter()
            .any(|a| a.pattern.as_deref().is_some_and(|p| p.contains('{')))
        {
            argv = argv.iter().flat_map(super::git::brace_words).collect();
        }
        let display = readable(&raw_parts);
        if !display.is_empty() {
            self.commands.push(display.clone());
        }
        let mut body: Option<Stdin> = None;
        for r in &redirects {
            self.redirect(r, st, depth, &display, &mut body);
        }
        let piped = self.pipe_in.take();
        let stdin = match (body, piped) {
            (Some(mut b), _) => {
                b.remote |= stdin_remote;
                b
            }
            (None, Some(mut p)) => {
                p.remote |= stdin_remote;
                p
            }
            (None, None) => Stdin {
                text: None,
                remote: stdin_remote,
                piped: false,
                files: Vec::new(),
                found: Vec::new(),
            },
        };
        for a in &assignments {
            if let Some((name, _)) = a.raw.split_once('=') {
                let value = a.text().and_then(|t| t.split_once('=')).map(|(_, v)| v);
                if argv.is_empty() {
                    // `n='a[$(cmd)]'` runs `cmd` when `n` is an integer variable.
                    self.subscripts(a, st, depth);
                    // `export PS4='$(cmd)'; set -x` as much as `PS4='$(cmd)' bash -x`.
                    self.shell_variable(name.trim_end_matches('+'), value, &display, st, depth);
                    // A bare assignment changes this shell for the commands after it.
                    match name.trim_end_matches('+') {
                        "HOME" => st.home_changed = true,
                        "PWD" => st.pwd_changed = true,
                        "CDPATH" => st.cdpath_changed = true,
                        _ => {}
                    }
                    let value = value
                        .filter(|_| !name.ends_with('+') && !a.raw.contains("=("))
                        .map(str::to_string);
                    let known = value.is_some();
                    st.remember(name.trim_end_matches('+'), value);
                    if known && !st.conditional {
                        st.definite.push(name.to_string());
                    }
                } else {
                    let program = argv
                        .first()
                        .and_then(|a| a.text())
                        .map(crate::programs::normalise);
                    // `CDPATH=~ cd .ssh`, `HOME=/ cd`: the assignment holds for that `cd`,
                    // whose directory is then not known.
                    if matches!(program.as_deref(), Some("cd" | "pushd")) {
                        match name.trim_end_matches('+') {
                            "CDPATH" => st.cdpath_changed = true,
                            "HOME" => st.home_changed = true,
                            _ => {}
                        }
                    }
                    self.hook_skip_variable(name, value, program.as_deref(), &display);
                    self.env_assignment(name.trim_end_matches('+'), value, &display, st, depth);
                }
            }
        }
        self.last_out = output_of(&argv, &stdin);
        self.remember_contents(&argv, &stdin, &redirects, st);
        if argv.is_empty() {
            return false;
        }
        // Whatever a command echoes of downloaded content is downloaded content.
        let carries_remote = argv.iter().any(|a| a.remote);
        // The words a variable assigned earlier in the string stands for are judged as
        // well as the unknown word (a branch or a `read` may have changed it since).
        let mut alternatives = with_variables(&argv, &st.vars);
        // Every unknown word is made of variables with one definite value, and they give
        // one reading: that reading is all the command can be (`d=/tmp/x; mkdir -p "$d"`),
        // and it moves this shell (`cd "$d"`) as the command itself would.
        // Not the command word (round six: an agent spells the program), and not under a
        // reassigned `IFS`, which splits values where the analysis does not.
        let definite = alternatives.len() == 1
            && argv.first().is_some_and(|a| a.value.is_some())
            && !st.vars.iter().any(|(n, _)| n == "IFS")
            && argv.iter().any(|a| a.value.is_none())
            && argv
                .iter()
                .filter(|a| a.value.is_none())
                .all(|a| made_of_definite(&a.raw, &st.definite));
        let argv = if definite {
            alternatives.remove(0)
        } else {
            for known in alternatives {
                let alt = Invocation {
                    argv: known,
                    stdin: stdin.clone(),
                    xargs: false,
                    display: display.clone(),
                };
                let mut sub = st.clone();
                self.invoke(&alt, 0, &mut sub, depth);
            }
            argv
        };
        let inv = Invocation {
            argv,
            stdin,
            xargs: false,
            display,
        };
        let remote_out = self.invoke(&inv, 0, st, depth);
        if remote_out {
            // `curl x > f`: the file now holds downloaded content.
            for r in &redirects {
                if let ast::IoRedirect::File(
                    _,
                    ast::IoFileRedirectKind::Write
                    | ast::IoFileRedirectKind::Append
                    | ast::IoFileRedirectKind::Clobber,
                    ast::IoFileRedirectTarget::Filename(w),
                ) = r
                {
                    let arg = decode_arg(&w.value, self.ctx.home.as_deref(), &st.cwd);
                    if let Some(paths) = arg
                        .text()
                        .and_then(|t| st.cwd.resolve(t, self.ctx.home.as_deref()))
                    {
                        st.downloaded.extend(paths);
                    }
                }
            }
        }
        remote_out || carries_remote
    }
}

impl Analyzer<'_> {
    /// What this command puts in the files it writes, when the string spells it: the
    /// output of `echo`/`printf`/`cat` redirected with `>` (appended to with `>>`), what
    /// `tee FILE` gets on standard input, and a `cp SRC DST` of such a file. Anything else
    /// written by redirection is content the string does not spell.
    fn remember_contents(
        &mut self,
        argv: &[Arg],
        stdin: &Stdin,
        redirects: &[&ast::IoRedirect],
        st: &ShellState,
    ) {
        let home = self.ctx.home.as_deref();
        let text = match &self.last_out {
            Some(PipeOut::Text(t)) => Some(t.clone()),
            _ => None,
        };
        for r in redirects {
            use ast::{IoFileRedirectKind as K, IoFileRedirectTarget as T};
            let ast::IoRedirect::File(_, kind, T::Filename(w)) = r else {
                continue;
            };
            if !matches!(kind, K::Write | K::Clobber | K::Append) {
                continue;
            }
            let arg = decode_arg(&w.value, home, &st.cwd);
            for path in arg
                .text()
                .and_then(|t| st.cwd.resolve(t, home))
                .unwrap_or_default()
            {
                let content = match (kind, &text) {
                    (K::Append, Some(t)) => match self.written_as(&path) {
                        // `echo` output is kept without its newline.
                        super::written_code::Written::Text(old) if old.ends_with('\n') => {
                            Some(format!("{old}{t}"))
                        }
                        super::written_code::Written::Text(old) => Some(format!("{old}\n{t}")),
                        _ => None,
                    },
                    (_, t) => t.clone(),
                };
                self.wrote_content(path, content);
            }
        }
        let words: Option<Vec<&str>> = argv.iter().map(|a| a.text()).collect();
        let Some(words) = words else { return };
        let name = words.first().map(|w| crate::programs::normalise(w));
        let operands: Vec<&str> = words
            .iter()
            .skip(1)
            .copied()
            .filter(|w| !w.starts_with('-'))
            .collect();
        match name.as_deref() {
            Some("tee") => {
                for o in operands {
                    for path in st.cwd.resolve(o, home).unwrap_or_default() {
                        self.wrote_content(path, stdin.text.clone());
                    }
                }
            }
            Some("cp" | "install" | "mv") if operands.len() == 2 => {
                let from = st.cwd.resolve(operands[0], home).unwrap_or_default();
                let to = st.cwd.resolve(operands[1], home).unwrap_or_default();
                let content = from.first().and_then(|f| match self.written_as(f) {
                    super::written_code::Written::Text(t) => Some(t),
                    _ => None,
                });
                for path in to {
                    self.wrote_content(path, content.clone());
                }
            }
            _ => {}
        }
    }
}

/// `raw` (a word as written) holds no substitution, and every `$NAME` / `${NAME}` in it
/// names a variable of `definite`.
fn made_of_definite(raw: &str, definite: &[String]) -> bool {
    if raw.contains("$(") || raw.contains('`') || raw.contains("$((") {
        return false;
    }
    let mut names = 0;
    let mut rest = raw;
    while let Some(at) = rest.find('$') {
        let after = &rest[at + 1..];
        let (name, used) = match after.strip_prefix('{') {
            Some(inner) => match inner.find('}') {
                Some(end) => (&inner[..end], end + 2),
                None => return false,
            },
            None => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..end], end)
            }
        };
        let plain = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        if !plain || !definite.iter().any(|d| d == name) {
            return false;
        }
        names += 1;
        rest = &after[used..];
    }
    names > 0
}

/// `printf FORMAT ARGS...` for formats made of text, `\n`, `\t` and `%s` (the format is
/// reused while arguments remain, as printf does); anything else is unknown.
pub(crate) fn printf_output(words: &[&str]) -> Option<String> {
    let (format, args) = words.split_first()?;
    let mut out = String::new();
    let mut next = 0;
    loop {
        let mut chars = format.chars().peekable();
        let mut used = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('\\') => out.push('\\'),
                    Some('0') => out.push('\0'),
                    _ => return None,
                },
                '%' => match chars.next() {
                    Some('s') => {
                        out.push_str(args.get(next).copied().unwrap_or(""));
                        next += 1;
                        used = true;
                    }
                    Some('%') => out.push('%'),
                    _ => return None,
                },
                c => out.push(c),
            }
        }
        if !used || next >= args.len() {
            return Some(out);
        }
    }
}

/// What one pipeline stage hands the next.
#[derive(Debug, Clone)]
pub(crate) enum PipeOut {
    /// Text the string spells out.
    Text(String),
    /// The content of files named literally (`cat a b`), judged like a script file.
    Files(Vec<Arg>),
    /// The paths a `find` with these arguments selects, one a line (or NUL-separated).
    Found(Vec<Arg>),
}

/// What a command writes to its standard output, when the string spells it out: `echo`
/// and `printf` of literal words, `cat` of a heredoc or of named files.
fn output_of(argv: &[Arg], stdin: &Stdin) -> Option<PipeOut> {
    let args = argv.get(1..).unwrap_or_default();
    let prog = argv.first()?.text()?;
    let words: Option<Vec<&str>> = argv[1..].iter().map(|a| a.text()).collect();
    let words = words?;
    match crate::programs::normalise(prog).as_str() {
        "echo" => {
            let start = words
                .iter()
                .take_while(|w| matches!(**w, "-n" | "-e" | "-E" | "-ne" | "-en"))
                .count();
            Some(PipeOut::Text(words[start..].join(" ")))
        }
        "printf" => {
            let words = words.strip_prefix(&["--"][..]).unwrap_or(&words);
            printf_output(words).map(PipeOut::Text)
        }
        // Only the paths: an action that runs, deletes or prints other text ends it.
        "find"
            if words.iter().all(|w| {
                !w.starts_with("-exec")
                    && !w.starts_with("-ok")
                    && !w.starts_with("-fprint")
                    && !matches!(*w, "-delete" | "-printf" | "-ls" | "-fls")
            }) =>
        {
            Some(PipeOut::Found(args.to_vec()))
        }
        "cat" if words.is_empty() => stdin.text.clone().map(PipeOut::Text),
        "cat"
            if words
                .iter()
                .all(|w| !w.starts_with('-') && !super::commands::reads_stdin_path(w)) =>
        {
            Some(PipeOut::Files(args.to_vec()))
        }
        _ => None,
    }
}

/// The argument lists `argv` may really be, beside itself: each word that is exactly
/// `$NAME`, `${NAME}` or `"$NAME"` takes the static values `NAME` was given earlier in the
/// string (a loop variable has several), and `$(echo ...)`, `$(printf ...)` or backticks
/// around them take their output; unquoted, the value is split into words as the shell
/// does. Empty when no word can be resolved.
fn with_variables(argv: &[Arg], vars: &[(String, Option<String>)]) -> Vec<Vec<Arg>> {
    let mut alternatives: Vec<Vec<Arg>> = vec![Vec::with_capacity(argv.len())];
    let mut changed = false;
    for a in argv {
        let (inner, quoted) = match a.raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            Some(r) => (r, true),
            None => (a.raw.as_str(), false),
        };
        let values: Vec<String> = if a.value.is_some() {
            Vec::new()
        } else if let Some(out) = static_substitution(inner) {
            vec![out]
        } else {
            // `${a[0]}`: an element of an array stands for what the array was given.
            let name = inner
                .strip_prefix("${")
                .and_then(|r| r.strip_suffix('}'))
                .map(|n| match n.split_once('[') {
                    Some((array, index)) if index.ends_with(']') => array,
                    _ => n,
                })
                .or_else(|| inner.strip_prefix('$'))
                .filter(|n| {
                    !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                });
            let mut values: Vec<String> = Vec::new();
            for (_, v) in vars.iter().filter(|(v, _)| Some(v.as_str()) == name) {
                if let Some(v) = v {
                    if !values.contains(v) {
                        values.push(v.clone());
                    }
                }
            }
            if name.is_none() {
                values = concatenation(&a.raw, vars);
            }
            values
        };
        if values.is_empty() {
            for alt in &mut alternatives {
                alt.push(a.clone());
            }
            continue;
        }
        changed = true;
        let mut next = Vec::new();
        for alt in &alternatives {
            for v in values.iter().take(8) {
                let mut alt = alt.clone();
                if quoted {
                    alt.push(Arg::literal(v));
                } else {
                    alt.extend(v.split_whitespace().map(Arg::literal));
                }
                next.push(alt);
            }
        }
        next.truncate(16);
        alternatives = next;
    }
    if changed {
        alternatives
    } else {
        Vec::new()
    }
}

/// The values of a word built from literal text and variables assigned earlier in the
/// string (`o=--ha; git reset ${o}rd`, `$p$s`, `"$d"/.config`): every combination of
/// their static values, at most eight. Empty when the word holds anything else (quotes
/// other than double, escapes, substitutions, globs) or names a variable with no value.
fn concatenation(raw: &str, vars: &[(String, Option<String>)]) -> Vec<String> {
    if raw.contains(['\'', '\\', '`', '*', '?', '[', ' ', '(']) || !raw.contains('$') {
        return Vec::new();
    }
    // Double quotes only group: they are dropped from the literal text between names.
    let mut out = vec![String::new()];
    let mut rest = raw;
    while !rest.is_empty() {
        let at = rest.find('$').unwrap_or(rest.len());
        let (lit, var) = rest.split_at(at);
        let lit = lit.replace('"', "");
        out.iter_mut().for_each(|o| o.push_str(&lit));
        if var.is_empty() {
            break;
        }
        let var = &var[1..];
        let (name, after) = match var.strip_prefix('{') {
            Some(b) => match b.split_once('}') {
                Some((n, after)) => (n, after),
                None => return Vec::new(),
            },
            None => {
                let end = var
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(var.len());
                var.split_at(end)
            }
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Vec::new();
        }
        let mut values: Vec<&str> = Vec::new();
        for (_, v) in vars.iter().filter(|(n, _)| n == name) {
            match v {
                Some(v) if !values.contains(&v.as_str()) => values.push(v),
                Some(_) => {}
                None => return Vec::new(),
            }
        }
        if values.is_empty() {
            return Vec::new();
        }
        out = out
            .iter()
            .flat_map(|o| values.iter().map(move |v| format!("{o}{v}")))
            .take(8)
            .collect();
        rest = after;
    }
    out
}

/// The output of `$(echo WORDS)`, `$(printf FORMAT ARGS)` or the same in backticks, when
/// every word is a plain literal.
fn static_substitution(word: &str) -> Option<String> {
    let inner = word
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| word.strip_prefix('`').and_then(|r| r.strip_suffix('`')))?;
    if inner.contains(['$', '`', '(', ')', ';', '|', '&', '<', '>', '"', '\n']) {
        return None;
    }
    let words: Vec<Arg> = inner
        .split_whitespace()
        .map(|w| decode_arg(w, None, &Cwd::unknown()))
        .collect();
    if words
        .iter()
        .any(|w| w.value.is_none() || w.pattern.is_some())
    {
        return None;
    }
    match output_of(&words, &Stdin::none())? {
        PipeOut::Text(t) => Some(t),
        PipeOut::Files(_) | PipeOut::Found(_) => None,
    }
}

fn readable(parts: &[String]) -> String {
    let joined = parts.join(" ");
    if joined.len() > 512 {
        let mut cut = 512;
        while !joined.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}...", &joined[..cut])
    } else {
        joined
    }
}

#[allow(clippy::collapsible_match)]
/// Every `$(...)` and backtick body in word pieces, including those inside double quotes,
/// parameter defaults (`${x:-$(cmd)}`) and arithmetic.
fn collect_substitutions(
    raw: &str,
    pieces: &[WordPieceWithSource],
    out: &mut Vec<String>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for piece in pieces {
        if let WordPiece::ParameterExpansion(ParameterExpr::Transform {
            op: ParameterTransformOp::PromptExpand,
            ..
        }) = &piece.piece
        {
            // `${x@P}` expands the value as a prompt, running its `$(...)`: judged as
            // `eval "${x}"`, which knows a value assigned earlier and asks otherwise.
            let whole = raw.get(piece.start_index..piece.end_index).unwrap_or("");
            if let Some(name) = whole.strip_prefix("${").and_then(|t| t.strip_suffix("@P}")) {
                out.push(format!("eval \"${{{name}}}\""));
                continue;
            }
        }
        if let WordPiece::ParameterExpansion(expr) = &piece.piece {
            if parameter_word(expr).is_none() {
                // `${x:$(cmd)}`, `${a[$(cmd)]}`, `${x/$(a)/$(b)}`: whatever the expansion
                // holds, its substitutions run.
                let inner = raw
                    .get(piece.start_index..piece.end_index)
                    .and_then(|t| t.strip_prefix("${"))
                    .and_then(|t| t.strip_suffix('}'));
                if let Some(inner) = inner.filter(|t| t.contains(['$', '`'])) {
                    if let Ok(p) = brush_parser::word::parse(inner, &shell::parser_options()) {
                        collect_substitutions(inner, &p, out, depth + 1);
                    }
                }
                continue;
            }
        }
        match &piece.piece {
            WordPiece::CommandSubstitution(s) | WordPiece::BackquotedCommandSubstitution(s) => {
                out.push(s.clone())
            }
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => {
                collect_substitutions(raw, inner, out, depth + 1)
            }
            WordPiece::ParameterExpansion(expr) => {
                if let Some(text) = parameter_word(expr) {
                    if text.contains(['$', '`']) {
                        if let Ok(p) = brush_parser::word::parse(text, &shell::parser_options()) {
                            collect_substitutions(text, &p, out, depth + 1);
                        }
                    }
                }
            }
            WordPiece::ArithmeticExpression(e) => {
                if e.value.contains(['$', '`']) {
                    if let Ok(p) = brush_parser::word::parse(&e.value, &shell::parser_options()) {
                        collect_substitutions(&e.value, &p, out, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The word inside a parameter expansion that the shell may expand in turn.
fn parameter_word(expr: &ParameterExpr) -> Option<&str> {
    use ParameterExpr as P;
    match expr {
        P::UseDefaultValues {
            default_value: v, ..
        }
        | P::AssignDefaultValues {
            default_value: v, ..
        } => v.as_deref(),
        P::IndicateErrorIfNullOrUnset {
            error_message: v, ..
        } => v.as_deref(),
        P::UseAlternativeValue {
            alternative_value: v,
            ..
        } => v.as_deref(),
        P::RemoveSmallestSuffixPattern { pattern: v, .. }
        | P::RemoveLargestSuffixPattern { pattern: v, .. }
        | P::RemoveSmallestPrefixPattern { pattern: v, .. }
        | P::RemoveLargestPrefixPattern { pattern: v, .. } => v.as_deref(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<Arg> {
        words
            .iter()
            .map(|w| decode_arg(w, None, &Cwd::unknown()))
            .collect()
    }

    fn texts(argvs: &[Vec<Arg>]) -> Vec<Vec<String>> {
        argvs
            .iter()
            .map(|a| a.iter().map(|w| w.show().to_string()).collect())
            .collect()
    }

    #[test]
    fn known_variables_and_static_substitutions_give_alternatives() {
        let vars = vec![
            ("a".to_string(), Some("--soft".to_string())),
            ("a".to_string(), Some("--hard".to_string())),
            ("b".to_string(), Some("x y".to_string())),
        ];
        assert_eq!(
            texts(&with_variables(&args(&["git", "reset", "$a"]), &vars)),
            [["git", "reset", "--soft"], ["git", "reset", "--hard"]]
        );
        // Unquoted values split; quoted ones stay one word.
        assert_eq!(
            texts(&with_variables(&args(&["f", "$b", "\"$b\""]), &vars)),
            [vec!["f", "x", "y", "x y"]]
        );
        assert_eq!(
            texts(&with_variables(
                &args(&["git", "reset", "$(printf -- --hard)"]),
                &[]
            )),
            [["git", "reset", "--hard"]]
        );
        // Unknown names, and substitutions that run anything else, change nothing.
        assert!(with_variables(&args(&["rm", "$c", "$(cat f)"]), &vars).is_empty());
    }
}
