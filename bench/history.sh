#!/usr/bin/env bash
# Real-history precision/recall of the done-gate guards, and their speed against `git status`
# on the same real repositories (issue 11, item 4). Prints figures; asserts nothing.
#
# Usage: bench/history.sh REPOS_DIR        (or LOOPGATE_HISTORY_REPOS=REPOS_DIR bench/history.sh)
#
# REPOS_DIR holds one clone per row of bench/history/repos.tsv, named by its `name` column:
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
REPOS="${1:-${LOOPGATE_HISTORY_REPOS:-}}"
if [ -z "$REPOS" ] || [ ! -d "$REPOS" ]; then
  echo "usage: bench/history.sh REPOS_DIR (clones of the urls in bench/history/repos.tsv)" >&2
  exit 2
fi
missing=0
while IFS=$'\t' read -r name url _lang head _range; do
  [ "$name" = name ] && continue
  if [ ! -d "$REPOS/$name/.git" ] || ! git -C "$REPOS/$name" cat-file -e "$head^{commit}" 2>/dev/null; then
    echo "missing: $REPOS/$name at $head; get it with: git clone $url $REPOS/$name" >&2
    missing=1
  fi
done < bench/history/repos.tsv
[ "$missing" = 0 ] || exit 2
cargo build --release --quiet
export LOOPGATE_BIN="$PWD/target/release/loopgate"
python3 bench/history.py run "$REPOS"
echo "== all commits"
python3 bench/history.py score
for set in recent marked probe; do
  echo "== $set commits only"
  python3 bench/history.py score "$set" | sed -n '2,10p'
done
echo "== guards-only speed on the same trees"
python3 bench/history.py speed "$REPOS"
