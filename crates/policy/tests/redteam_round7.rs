//! Round seven of the red team (bench/redteam_gate/round7, written against the families the
//! earlier rounds used least) and the ruling on moving branches and tags left open by
//! round six: one test per class of miss the code before the fix let through (or ordinary
//! command it refused), each with lookalikes that stay allowed. Every refused command here
//! was allowed by the code before the fix (`bench/redteam_gate.sh --corpus
//! bench/redteam_gate/round7` with a debug build of 56f8744).

mod support;

use policy::Verdict;
use support::redteam::{allowed, refused};

use Verdict::Deny;

#[test]
fn forcing_an_existing_branch_or_tag_onto_another_commit_is_refused_like_update_ref() {
    for cmd in [
        "git branch -f main HEAD~5",
        "git branch --force release v0.9",
        "git branch -M feature main",
        "git branch -C main backup",
        "git branch -m -f topic main",
        "git checkout -B main origin/main",
        "git switch -C main HEAD~3",
        "git switch --force-create main origin/main",
    ] {
        refused(cmd, Deny, "git.destructive", "existing branch");
    }
    refused("git tag -f v1.0 HEAD", Deny, "git.destructive", "tag");
    refused(
        "git tag --force latest HEAD~3",
        Deny,
        "git.destructive",
        "tag",
    );
    refused("git tag -fa v2 -m again", Deny, "git.destructive", "tag");
    refused(
        "git fetch origin +main:main",
        Deny,
        "git.destructive",
        "by force",
    );
    refused(
        "git fetch -f origin main:refs/heads/main",
        Deny,
        "git.destructive",
        "by force",
    );
    refused(
        "git pull origin +release:release",
        Deny,
        "git.destructive",
        "by force",
    );
    // The plumbing spelling stays refused, with the same reason.
    refused(
        "git update-ref refs/heads/release HEAD~2",
        Deny,
        "git.destructive",
        "moves a branch or tag",
    );
    refused(
        "git update-ref HEAD HEAD~3",
        Deny,
        "git.destructive",
        "moves a branch or tag",
    );
    // Lookalikes: creating refs, renaming without force, moving the checked-out branch
    // with commands that keep the work, fetching into remote-tracking refs.
    for cmd in [
        "git branch feature/y HEAD~1",
        "git branch -m old-name new-name",
        "git branch -c main main-backup",
        "git branch -d merged-topic",
        "git branch -u origin/main",
        "git branch --list -f",
        "git checkout -b hotfix v1.0",
        "git switch -c fix/typo origin/main",
        "git tag -a v2.0 -m release",
        "git tag -d old-tag",
        "git tag -l -f",
        "git reset --keep HEAD~1",
        "git reset --soft HEAD~2",
        "git reset HEAD~1",
        "git fetch origin",
        "git fetch origin main:refs/remotes/origin/main",
        "git fetch origin '+refs/heads/*:refs/remotes/origin/*'",
        "git fetch -f origin",
        "git pull --rebase origin main",
        "git update-ref refs/notes/review HEAD",
        "git update-ref refs/heads/new-branch HEAD 0000000000000000000000000000000000000000",
    ] {
        allowed(cmd);
    }
}

#[test]
fn reset_merge_discards_what_was_staged() {
    refused("git reset --merge", Deny, "git.destructive", "staged");
    refused(
        "git reset --merge ORIG_HEAD",
        Deny,
        "git.destructive",
        "staged",
    );
    refused(
        "git -C . reset --merge @{1}",
        Deny,
        "git.destructive",
        "staged",
    );
    allowed("git reset --keep ORIG_HEAD");
    allowed("git merge --no-ff topic");
}
