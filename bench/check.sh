#!/usr/bin/env bash
# Done-gate benchmarks (DESIGN section 7, issue 11). Prints figures; asserts nothing.
#  1. guards-only `check` on a 2,000-file repo and on an 80,000-file repo (target: no
#     slower than `git status` on the same tree), both with a few edits;
#  2. guards-only `check` on real repositories (target: median at most 2x `git status`):
#     LOOPGATE_BENCH_REPOS="DIR DIR ..." names local clones (never committed here); each is
#     cloned again into a temp dir and given a few edits (lines appended to three source
#     files, one file renamed, one added);
#  3. a Claude SubagentStop hook (guards only, pinned session) on a 2,000-file repo
#     (target <= 15 ms);
#  4. overhead of running a check through loopgate versus running it directly (<= 5 ms).
# Usage: bench/check.sh [RUNS] [overhead|guards]   (default 30; `overhead` runs only
# section 4, `guards` sections 1-3). LOOPGATE_BIN measures a prebuilt binary instead;
# LOOPGATE_BASE_BIN adds a row for another build (an A/B in the same run).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-30}"
ONLY="${2:-}"
source bench/lib.sh
bench_bin
bench_work

# The rows every guards-only comparison prints: git status first, so ratios are to it.
rows() { # ARGS...
  local row=("git status=git status --porcelain --untracked-files=all"
             "loopgate check --guards-only=$BIN check --guards-only --json $*")
  [ -n "$BASE" ] && row+=("base build=$BASE check --guards-only --json $*")
  printf '%s\n' "${row[@]}"
}
timed() { # RUNS ARGS...
  local runs="$1"; shift
  local lines=()
  mapfile -t lines < <(rows "$@")
  $T "$runs" "${lines[@]}"
}

make_tree() { # DIR FILES
  local dir="$1" n="$2"
  mkdir -p "$dir"
  git -C "$dir" init -q -b main
  python3 - "$dir" "$n" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    # About ten files per directory, as in an ordinary source tree.
    d = os.path.join(root, f"pkg{(i // 100) % 1000:03d}", f"mod{(i // 10) % 10}")
    os.makedirs(d, exist_ok=True)
    name = f"f{i}.test.js" if i % 10 == 0 else f"f{i}.js"
    with open(os.path.join(d, name), "w") as f:
        f.write(f"// file {i}\nconst test = require('node:test');\ntest('t{i}', () => {{}});\n" if i % 10 == 0 else f"exports.v{i} = {i};\n")
PY
  git -C "$dir" add -A
  git -C "$dir" -c user.name=b -c user.email=b@example.invalid commit -q -m init
}

make_edits() { # DIR
  local dir="$1"
  # The agent's work: a few edits, one new file, one skip.
  echo "exports.extra = 1; // TODO tidy" >> "$dir/pkg000/mod0/f1.js"
  echo "test.skip('later', () => {});" >> "$dir/pkg000/mod0/f0.test.js"
  echo "exports.n = 1;" > "$dir/pkg001/new.js"
  git -C "$dir" status --porcelain >/dev/null
}

make_repo() { # DIR FILES
  make_tree "$1" "$2"
  make_edits "$1"
}

# A real repository's clone with a few edits of the kind an agent makes.
edit_real() { # DIR
  local dir="$1" f
  mapfile -t files < <(git -C "$dir" ls-files -- '*.py' '*.js' '*.ts' '*.rs' '*.go' '*.java' '*.rb' | head -n 200)
  for f in "${files[@]:0:1}" "${files[@]:60:1}" "${files[@]:120:1}"; do
    [ -n "$f" ] && printf '\n// edited by the benchmark\n' >> "$dir/$f"
  done
  f="${files[7]:-}"
  [ -n "$f" ] && mv "$dir/$f" "$dir/${f%.*}_moved.${f##*.}"
  echo "new = 1" > "$dir/bench_new_file.txt"
}

if [ "$ONLY" != overhead ]; then
echo "== guards-only check on a 2,000-file repo"
make_repo "$WORK/small" 2000
(cd "$WORK/small" && timed "$RUNS")

echo "== guards-only check on an 80,000-file repo"
make_repo "$WORK/big" 80000
(cd "$WORK/big" && timed "$((RUNS / 3 + 1))")

if [ -n "${LOOPGATE_BENCH_REPOS:-}" ]; then
  ratios=()
  for src in $LOOPGATE_BENCH_REPOS; do
    name="$(basename "$src")"
    echo "== guards-only check on $name ($(git -C "$src" ls-files | wc -l) files)"
    git -c init.defaultBranch=main clone -q "$src" "$WORK/real-$name"
    edit_real "$WORK/real-$name"
    out="$(cd "$WORK/real-$name" && timed "$RUNS")"
    echo "$out"
    ratios+=("$(echo "$out" | awk '/^loopgate check/ {print $NF}' | tr -d x)")
  done
  printf '%s\n' "${ratios[@]}" | sort -n | awk '{r[NR] = $1} END {
    m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
    printf "== median over %d real repositories: loopgate check --guards-only is %.2fx git status\n", NR, m }'
else
  echo "== real repositories: set LOOPGATE_BENCH_REPOS to local clones to measure them"
fi

echo "== SubagentStop hook (guards only, pinned session) on a 2,000-file repo"
make_tree "$WORK/hook" 2000
# The session starts on the clean tree; the subagent's edits come after.
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' "$WORK/hook" \
  | (cd "$WORK/hook" && "$BIN" hook claude >/dev/null)
make_edits "$WORK/hook"
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a1"}' "$WORK/hook" > "$WORK/stop.json"
hook_rows=("git status=git status --porcelain --untracked-files=all"
           "SubagentStop=$BIN hook claude < $WORK/stop.json")
[ -n "$BASE" ] && hook_rows+=("SubagentStop, base build=$BASE hook claude < $WORK/stop.json")
(cd "$WORK/hook" && $T "$RUNS" "${hook_rows[@]}")
fi
[ "$ONLY" = guards ] && exit 0

echo "== overhead of a check run through loopgate"
mkdir -p "$WORK/over" && git -C "$WORK/over" init -q
printf 'version = 1\n[gate]\nprograms = ["true"]\n[[check]]\nname = "noop"\nrun = "true"\n' > "$WORK/over/loopgate.toml"
mkdir -p "$WORK/over-off" && git -C "$WORK/over-off" init -q
printf 'version = 1\n[gate]\nprograms = ["true"]\n[[check]]\nname = "noop"\nrun = "true"\n[sandbox]\nconfine = "off"\n' > "$WORK/over-off/loopgate.toml"
# The first row jails the check with Landlock (confine = "auto", the default); the second
# runs it unconfined, which separates the jail's cost from the gate's. The last two hold
# the check's process tree by weaker means than this machine's best (sandbox::tree); their
# difference to the unconfined row is what the stronger containment costs.
(cd "$WORK" && $T "$RUNS" \
  "true (direct)=/bin/true" \
  "loopgate check, confined=$BIN -C over check --no-guards --quiet" \
  "loopgate check, confine off=$BIN -C over-off check --no-guards --quiet" \
  "confine off, subreaper=env LOOPGATE_CONTAINMENT=subreaper $BIN -C over-off check --no-guards --quiet" \
  "confine off, process group=env LOOPGATE_CONTAINMENT=process-group $BIN -C over-off check --no-guards --quiet")
