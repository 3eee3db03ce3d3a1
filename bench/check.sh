#!/usr/bin/env bash
# Done-gate benchmarks (DESIGN section 7). Prints figures; asserts nothing.
#  1. guards-only `check` on a 2,000-file repo (target <= 15 ms) and on an 80,000-file repo
#     (target: no slower than `git status` on the same tree), both with a few edits;
#  2. overhead of running a check through loopgate versus running it directly (<= 5 ms).
# Usage: bench/check.sh [RUNS] [overhead]   (default 30; `overhead` runs only section 2)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-30}"
ONLY="${2:-}"
cargo build --release --quiet
BIN="$PWD/target/release/loopgate"
T="python3 $PWD/bench/timing.py"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

make_repo() { # DIR FILES
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
  # The agent's work: a few edits, one new file, one skip.
  echo "exports.extra = 1; // TODO tidy" >> "$dir/pkg000/mod0/f1.js"
  echo "test.skip('later', () => {});" >> "$dir/pkg000/mod0/f0.test.js"
  echo "exports.n = 1;" > "$dir/pkg001/new.js"
  git -C "$dir" status --porcelain >/dev/null
}

if [ "$ONLY" != overhead ]; then
echo "== guards-only check on a 2,000-file repo"
make_repo "$WORK/small" 2000
(cd "$WORK/small" && $T "$RUNS" \
  "git status=git status --porcelain --untracked-files=all" \
  "loopgate check --guards-only=$BIN check --guards-only --json")

echo "== guards-only check on an 80,000-file repo"
make_repo "$WORK/big" 80000
(cd "$WORK/big" && $T "$((RUNS / 3 + 1))" \
  "git status=git status --porcelain --untracked-files=all" \
  "loopgate check --guards-only=$BIN check --guards-only --json")
fi

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
