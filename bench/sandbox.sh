#!/usr/bin/env bash
# Jail figures (issue 5):
#  1. snapshot + re-scan of an 80,000-file committed git repo (as the main checkout of a
#     linked worktree, plus the default dotfile watch roots) against `git status` on it;
#  2. `loopgate exec -- /bin/true` against `loopgate exec --confine -- /bin/true`.
# Usage: bench/sandbox.sh [FILES]   (default 80000). Needs git; uses hyperfine if present.
set -euo pipefail

FILES=${1:-80000}
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/loopgate-bench-sandbox.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
REPO=$WORK/repo

echo "== building (release)"
(cd "$HERE" && cargo build --release --quiet --bin loopgate && cargo build --release --quiet -p sandbox --example snapshot_bench)
LOOPGATE="$("$HERE/bench/release-dir")/loopgate"
SNAP="$("$HERE/bench/release-dir")/examples/snapshot_bench"

echo "== creating a $FILES-file git repository in $REPO"
mkdir -p "$REPO"
python3 - "$REPO" "$FILES" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
per_dir = 200
for i in range(n):
    d = os.path.join(root, "src", f"m{i // (per_dir * 20):03d}", f"d{(i // per_dir) % 20:02d}")
    if i % per_dir == 0:
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"f{i:06d}.rs"), "w") as f:
        f.write(f"pub fn f{i}() -> u32 {{ {i} }}\n")
PY
git -C "$REPO" init -q
git -C "$REPO" -c user.email=b@e -c user.name=bench add -A
git -C "$REPO" -c gc.auto=0 -c user.email=b@e -c user.name=bench commit -q -m bench
git -C "$REPO" gc -q
git -C "$REPO" status --porcelain >/dev/null   # refresh the index stat cache
echo "files: $(git -C "$REPO" ls-files | wc -l)"

ms() { date +%s%N; }
loop_ms() { # loop_ms N CMD...: mean wall ms of N runs
  local n=$1; shift; local t0 t1
  t0=$(ms); for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 || true; done; t1=$(ms)
  echo "scale=3; ($t1 - $t0) / $n / 1000000" | bc
}

echo
echo "== 1. git status vs snapshot (warm cache)"
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 2 --runs 10 --export-json "$WORK/status.json" "git -C $REPO status --porcelain" >/dev/null
  GIT_MS=$(python3 -c "import json;print(round(json.load(open('$WORK/status.json'))['results'][0]['median']*1000,2))")
else
  GIT_MS=$(loop_ms 10 git -C "$REPO" status --porcelain)
fi
echo "git status --porcelain: median ${GIT_MS} ms"
echo "-- snapshot of the repo alone (working tree + .git minus shared git data):"
HOME_SAVE=$HOME
HOME=/nonexistent/home "$SNAP" --runs 7 --main "$REPO" | sed 's/^/   /'
echo "-- snapshot of the default watch roots (HOME=$HOME_SAVE) plus the repo as main checkout:"
"$SNAP" --runs 7 --main "$REPO" | sed 's/^/   /'

echo
echo "== 2. exec overhead: /bin/true unconfined vs confined"
cd "$REPO"
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 20 --runs 300 --export-json "$WORK/exec.json" \
    "$LOOPGATE exec -- /bin/true" "$LOOPGATE exec --confine -- /bin/true" 2>/dev/null | grep -E "Time|±|exec" || true
  python3 - "$WORK/exec.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
a, b = (x["median"] * 1000 for x in r)
print(f"unconfined median {a:.3f} ms, confined median {b:.3f} ms, overhead {b - a:.3f} ms (target <= 2 ms)")
PY
else
  A=$(loop_ms 200 "$LOOPGATE" exec -- /bin/true)
  B=$(loop_ms 200 "$LOOPGATE" exec --confine -- /bin/true)
  echo "unconfined mean ${A} ms, confined mean ${B} ms, overhead $(echo "$B - $A" | bc) ms (target <= 2 ms)"
fi
