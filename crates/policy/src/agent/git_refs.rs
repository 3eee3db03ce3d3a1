//! Moving branches and tags by force: the `git.destructive` side of ref moves
//! (docs/rule-packs.md, "Moving branches and tags").
//!
//! The rule, one for the porcelain and the plumbing: the agent may reshape the branch it
//! works on with commands that keep its work or refuse (`reset --soft/--mixed/--keep`,
//! `commit --amend`, `rebase`), and may create any branch or tag. It may not put an
//! existing branch or tag on another commit by force (`branch -f/-M/-C`, `checkout -B`,
//! `switch -C`, `tag -f`, a forced `fetch` into a local branch, `update-ref`): those refs
//! hold commits the agent did not make (the default branch, a teammate's branch, a
//! release), git's own safety check is what the force switches off, and what is left of
//! the old position is a reflog nobody reads (tags keep none). Whether the ref exists, or
//! is the one checked out, is not known when the command is decided; the forced spelling
//! is the signal, and each refusal names the unforced one that fails instead of moving.

use super::args::Arg;
use super::commands::Parsed;
use super::git::short_cluster_has;
use super::walk::Analyzer;
use super::{rule, Finding};

/// The options of `git branch` that take a value.
const BRANCH_VALUES: &[&str] = &[
    "-u",
    "--set-upstream-to",
    "--contains",
    "--no-contains",
    "--merged",
    "--no-merged",
    "--points-at",
    "--sort",
    "--format",
];

/// The options of `git tag` that take a value.
const TAG_VALUES: &[&str] = &[
    "-m",
    "--message",
    "-F",
    "--file",
    "-u",
    "--local-user",
    "--cleanup",
    "--sort",
    "--format",
    "--contains",
    "--no-contains",
    "--points-at",
    "--merged",
    "--no-merged",
    "--trailer",
];

/// The options of `git fetch` and `git pull` that take a value.
const FETCH_VALUES: &[&str] = &[
    "--upload-pack",
    "--exec",
    "-u",
    "--depth",
    "--deepen",
    "--shallow-since",
    "--shallow-exclude",
    "-j",
    "--jobs",
    "-o",
    "--server-option",
    "--refmap",
    "--negotiation-tip",
    "-s",
    "--strategy",
    "-X",
    "--strategy-option",
];

/// An object id made only of zeros: `update-ref REF NEW 0{40}` creates REF and fails
/// when it exists.
fn is_null_oid(t: &str) -> bool {
    (t.len() == 40 || t.len() == 64) && t.bytes().all(|b| b == b'0')
}

/// A fetch or pull refspec (`+main:main`, `main:refs/heads/x`) whose destination is a
/// local branch or tag, forced by its `+` or by `force`.
fn forced_local_destination(spec: &str, force: bool) -> bool {
    let (forced, spec) = match spec.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (force, spec),
    };
    let Some((_, dst)) = spec.split_once(':') else {
        return false;
    };
    forced
        && !dst.is_empty()
        && (dst.starts_with("refs/heads/")
            || dst.starts_with("refs/tags/")
            || !dst.starts_with("refs/"))
}

impl Analyzer<'_> {
    fn ref_move_deny(&mut self, display: &str, what: &str, suggestion: &str) {
        self.add(Finding::deny(
            rule::GIT,
            format!("`{display}` {what}"),
            suggestion,
        ));
    }

    /// The forced moves of an existing branch or tag that `git SUB ARGS` makes, if any.
    pub(crate) fn git_ref_moves(&mut self, sub: &str, args: &[Arg], display: &str) {
        const BRANCH: &str = "puts an existing branch on another commit by force, dropping the commits only it held (its reflog is all that is left of them)";
        const NEW_BRANCH: &str =
            "`git switch -c NEW COMMIT` or `git branch NEW COMMIT` make a new branch and refuse to overwrite one";
        match sub {
            "branch" => {
                let p = Parsed::new(args, BRANCH_VALUES);
                let short = |c: char| p.opts.iter().any(|(o, _)| short_cluster_has(o, c, "u"));
                let deleting = p.has("--delete", Some('d')) || short('D');
                let listing = [
                    "--list",
                    "--show-current",
                    "--contains",
                    "--no-contains",
                    "--merged",
                    "--no-merged",
                    "--points-at",
                ]
                .iter()
                .any(|o| p.has(o, None))
                    || short('l');
                // `-M`/`-C` rename or copy over an existing branch; `-f` with `-m`/`-c`
                // does the same, and `-f NAME [START]` resets NAME.
                let overwrites = short('M') || short('C');
                let forced = p.has("--force", Some('f')) && !p.operands.is_empty();
                if !deleting && !listing && (overwrites || forced) {
                    self.ref_move_deny(display, BRANCH, "`git branch -m OLD NEW` renames and `git branch NEW COMMIT` creates; both refuse to overwrite an existing branch");
                }
            }
            "checkout" if args.iter().any(|a| a.is("-B")) => {
                self.ref_move_deny(display, BRANCH, NEW_BRANCH);
            }
            "switch"
                if args.iter().any(|a| {
                    a.is("-C") || a.text().is_some_and(|t| t.starts_with("--force-create"))
                }) =>
            {
                self.ref_move_deny(display, BRANCH, NEW_BRANCH);
            }
            "tag" => {
                let p = Parsed::new(args, TAG_VALUES);
                let short = |c: char| p.opts.iter().any(|(o, _)| short_cluster_has(o, c, "mFu"));
                let forced = p.has("--force", None) || short('f');
                let other_mode = p.has("--delete", Some('d'))
                    || p.has("--list", Some('l'))
                    || p.has("--verify", Some('v'));
                if forced && !other_mode && !p.operands.is_empty() {
                    self.ref_move_deny(
                        display,
                        "moves an existing tag to another commit by force; tags keep no reflog, so where it pointed is lost",
                        "`git tag NEW COMMIT` makes a new tag and refuses to overwrite one",
                    );
                }
            }
            "fetch" | "pull" => {
                let p = Parsed::new(args, FETCH_VALUES);
                let force = p.has("--force", Some('f'));
                if p.operands
                    .iter()
                    .skip(1)
                    .filter_map(|a| a.text())
                    .any(|t| forced_local_destination(t, force))
                {
                    self.ref_move_deny(
                        display,
                        "updates a local branch or tag by force from the remote, dropping the commits only it held",
                        "fetch into the remote-tracking refs (`git fetch origin`) and merge or rebase from there",
                    );
                }
            }
            "update-ref" => {
                let p = Parsed::new(args, &["-m"]);
                // `git update-ref REF NEW [OLD]`: any ref a branch or tag lives under, or
                // HEAD (the checked-out branch, which `git branch -f` itself refuses to
                // move). An all-zero OLD only creates.
                let moves = p.operands.len() >= 2
                    && !p.has("--delete", Some('d'))
                    && p.operands[0].text().is_some_and(|r| {
                        r == "HEAD" || r.starts_with("refs/heads/") || r.starts_with("refs/tags/")
                    })
                    && !p
                        .operands
                        .get(2)
                        .and_then(|a| a.text())
                        .is_some_and(is_null_oid);
                if moves {
                    self.ref_move_deny(
                        display,
                        "moves a branch or tag to another commit directly, dropping the commits it pointed at",
                        "`git branch NEW COMMIT` creates a branch without moving one; `git reset --soft COMMIT` moves the checked-out branch and keeps the work",
                    );
                }
            }
            _ => {}
        }
    }
}
