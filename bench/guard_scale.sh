#!/usr/bin/env bash
# How the guards grow with the size of one change (bad input: a gigantic test file).
# Prints figures; asserts nothing. For each shape, a test file of N tests is committed,
# then half of them (or every other line of their bodies) are removed, and
# `loopgate check --guards-only` runs on the working tree; N doubles from 250 to 2,000.
# The column to read is `growth`: the time for N over the time for N/2. Work linear in N
# gives about 2.0; 4.0 is quadratic, which a change deleting thousands of tests turns
# into minutes of a stop hook. Times are CPU seconds (user + system) of the check,
# median of RUNS runs, so machine load inflates them less than wall-clock time.
# Usage: bench/guard_scale.sh [RUNS]   (default 3). LOOPGATE_BIN measures a prebuilt binary.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-3}"
source bench/lib.sh
bench_bin
bench_work

# shape N old|new: prints the file; `new` drops every odd-numbered test.
python_tests() {
  python3 - "$1" "$2" <<'PY'
import sys
n, new = int(sys.argv[1]), sys.argv[2] == "new"
for i in range(n):
    if new and i % 2:
        continue
    print(f"def test_case_{i}():\n    value = compute({i}, 'alpha{i}')\n"
          f"    assert value == {i * 3}\n    assert other('beta{i}') is not None\n")
PY
}
js_tests() {
  python3 - "$1" "$2" <<'PY'
import sys
n, new = int(sys.argv[1]), sys.argv[2] == "new"
print("describe('many', () => {")
for i in range(n):
    if new and i % 2:
        continue
    print(f"  it('case {i}', () => {{\n    expect(compute({i}, 'alpha{i}')).toBe({i * 3});\n  }});")
print("});")
PY
}
go_tests() {
  python3 - "$1" "$2" <<'PY'
import sys
n, new = int(sys.argv[1]), sys.argv[2] == "new"
print("package many\n\nimport \"testing\"\n")
for i in range(n):
    if new and i % 2:
        continue
    print(f"func TestCase{i}(t *testing.T) {{\n\tif compute({i}, \"alpha{i}\") != {i * 3} {{\n"
          f"\t\tt.Fatal(\"case {i}\")\n\t}}\n}}\n")
PY
}

cpu() { # median CPU seconds of RUNS runs of the check in the current directory
  local xs=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -o "$WORK/time" -f '%U %S' "$BIN" check --guards-only >/dev/null 2>&1 || true
    xs+=("$(tail -1 "$WORK/time" | awk '{print $1 + $2}')")
  done
  printf '%s\n' "${xs[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'
}

printf '%-8s %6s %10s %8s\n' shape N cpu_s growth
for shape in python_tests:tests/test_many.py js_tests:test/many.test.js go_tests:many_test.go; do
  gen="${shape%%:*}" path="${shape#*:}"
  prev=""
  for n in 250 500 1000 2000; do
    repo="$WORK/$gen-$n"
    mkdir -p "$repo/$(dirname "$path")"
    git -C "$repo" init -q
    "$gen" "$n" old >"$repo/$path"
    git -C "$repo" add -A
    git -C "$repo" -c user.email=b@e -c user.name=bench commit -qm base
    "$gen" "$n" new >"$repo/$path"
    t="$(cd "$repo" && cpu)"
    growth="-"
    [ -n "$prev" ] && growth="$(awk -v a="$t" -v b="$prev" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')"
    printf '%-8s %6d %10s %8s\n' "${gen%_tests}" "$n" "$t" "$growth"
    prev="$t"
  done
done
