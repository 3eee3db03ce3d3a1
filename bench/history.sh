#!/usr/bin/env bash
# Real-history precision/recall of the done-gate guards, and their speed against `git status`
# on the same real repositories (issue 11, item 4). Prints figures; asserts nothing.
#
# Usage: bench/history.sh [--set NAME] REPOS_DIR   (or LOOPGATE_HISTORY_REPOS=REPOS_DIR ...)
#
# --set NAME measures another set of repositories, bench/history/NAME/*.tsv, instead of the
# default bench/history/*.tsv (the set the guards were tuned on); `--set heldout` is the
# held-out set, six other repositories kept out of tuning.
# REPOS_DIR holds one clone per row of the set's repos.tsv, named by its `name` column:
#     git clone https://github.com/pallets/click REPOS_DIR/click      (and so on)
# The script fetches nothing. It checks out each listed commit in those clones (detached,
# `git clean -fdx`), so use clones made for this. Steps:
#   1. `loopgate check --against C^ --guards-only --json` on every commit of commits.tsv;
#   2. precision and recall per guard against labels.tsv, for all commits and per commit set
#      (recent: the last 50 non-merge commits of each repository; marked: older commits whose
#      diffs add or remove markers, found with `git log -G`; probe: commits chosen for a known
#      blind spot), then every finding no label covers (label those before trusting the table);
#   3. per repository, guards-only median time against `git status --porcelain`, same tree.
set -euo pipefail
cd "$(dirname "$0")/.."
SET=()
DATA=bench/history
if [ "${1:-}" = --set ]; then
  if [ -z "${2:-}" ] || [ ! -f "bench/history/$2/repos.tsv" ]; then
    echo "bench/history.sh: --set needs the name of a directory of bench/history holding repos.tsv" >&2
    exit 2
  fi
  SET=(--set "$2")
  DATA="bench/history/$2"
  shift 2
fi
REPOS="${1:-${LOOPGATE_HISTORY_REPOS:-}}"
if [ -z "$REPOS" ] || [ ! -d "$REPOS" ]; then
  echo "usage: bench/history.sh [--set NAME] REPOS_DIR (clones of the urls in $DATA/repos.tsv)" >&2
  exit 2
fi
missing=0
while IFS=$'\t' read -r name url _lang head _range; do
  [ "$name" = name ] && continue
  if [ ! -d "$REPOS/$name/.git" ] || ! git -C "$REPOS/$name" cat-file -e "$head^{commit}" 2>/dev/null; then
    echo "missing: $REPOS/$name at $head; get it with: git clone $url $REPOS/$name" >&2
    missing=1
  fi
done < "$DATA/repos.tsv"
[ "$missing" = 0 ] || exit 2
cargo build --release --quiet
export LOOPGATE_BIN="$(bench/release-dir)/loopgate"
python3 bench/history.py "${SET[@]}" run "$REPOS"
echo "== all commits"
python3 bench/history.py "${SET[@]}" score
for set in recent marked probe; do
  echo "== $set commits only"
  python3 bench/history.py "${SET[@]}" score "$set" | sed -n '2,10p'
done
echo "== guards-only speed on the same trees"
python3 bench/history.py "${SET[@]}" speed "$REPOS"
