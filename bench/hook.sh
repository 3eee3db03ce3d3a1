#!/usr/bin/env bash
# Whole-process latency of `loopgate hook claude`, measured against spawning /bin/true in
# the same run (DESIGN section 7, issues 3 and 4):
#   1. PreToolUse over every command of the dcg corpus, in Claude-shaped payloads;
#   2. SubagentStop (guards only) on a 2,000-file repository vs `git status` there.
# Prints figures; asserts nothing. Usage: bench/hook.sh [rounds-per-command (default 5)]
# LOOPGATE_BASE_BIN=<another build> times it in the same rounds, for an A/B under one load.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-5}"
corpus="${LOOPGATE_DCG_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/shared/corpora/dcg}"

# LOOPGATE_BIN measures a prebuilt binary instead (an A/B against another commit's build).
source "$root/bench/lib.sh"
bench_bin
bin="$BIN"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$bin" "$corpus" "$work" "$rounds" <<'PY'
import json, os, pathlib, statistics, subprocess, sys, time, tomllib

binary, corpus, work, rounds = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]), int(sys.argv[4])
env = dict(os.environ, HOME=str(work / "home"))
(work / "home").mkdir()

def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)

def new_repo(name, files):
    repo = work / name
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "bench@example.com")
    git(repo, "config", "user.name", "bench")
    for rel, text in files:
        p = repo / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "start")
    return repo

def spawn_ms(argv, stdin_bytes, cwd):
    """Wall time of one whole process, from spawn to exit, stdin fed, output drained."""
    t = time.perf_counter()
    subprocess.run(argv, input=stdin_bytes, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - t) * 1000

def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]

def show(label, values):
    print(f"  {label:<38} n={len(values):>5}  p50 {pct(values, 50):7.3f} ms  p99 {pct(values, 99):7.3f} ms  max {max(values):7.3f} ms")

# 1. PreToolUse over the corpus.
commands = []
for path in sorted(corpus.rglob("*.toml")):
    data = tomllib.loads(path.read_text())
    commands += [c["command"] for c in data.get("case", []) if isinstance(c.get("command"), str)]
repo = new_repo("project", [("src/lib.rs", "pub fn x() {}\n")])
payloads = [json.dumps({
    "session_id": "bench", "transcript_path": str(work / "none.jsonl"), "cwd": str(repo),
    "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
    "tool_input": {"command": c, "description": "bench"}, "tool_use_id": "toolu_bench",
}).encode() for c in commands]

# LOOPGATE_BASE_BIN: another build measured in the same rounds (an A/B under the same load).
base = os.environ.get("LOOPGATE_BASE_BIN")
hook, true, base_hook = [], [], []
for _ in range(rounds):
    for p in payloads:
        true.append(spawn_ms(["/bin/true"], p, repo))
        hook.append(spawn_ms([binary, "hook", "claude"], p, repo))
        if base:
            base_hook.append(spawn_ms([base, "hook", "claude"], p, repo))
print(f"PreToolUse, {len(commands)} dcg corpus commands x {rounds} rounds (interleaved with /bin/true):")
show("/bin/true", true)
show("loopgate hook claude (PreToolUse)", hook)
print(f"  ratio p50 {pct(hook, 50) / pct(true, 50):.2f}x, p99 {pct(hook, 99) / pct(true, 99):.2f}x; "
      f"loopgate minus /bin/true: p50 {pct(hook, 50) - pct(true, 50):.3f} ms, p99 {pct(hook, 99) - pct(true, 99):.3f} ms")
if base:
    show("base build (LOOPGATE_BASE_BIN)", base_hook)
    print(f"  base ratio p50 {pct(base_hook, 50) / pct(true, 50):.2f}x, p99 {pct(base_hook, 99) / pct(true, 99):.2f}x")

# 2. SubagentStop (guards only) on a 2,000-file repository.
files = [(f"src/m{i // 100}/f{i}.js", f"export const v{i} = {i};\n") for i in range(1990)]
files += [(f"test/t{i}.test.js", f"test('t{i}', () => {{}});\n") for i in range(10)]
big = new_repo("big", files)
start = json.dumps({"session_id": "bench", "cwd": str(big), "hook_event_name": "SessionStart", "source": "startup"}).encode()
subprocess.run([binary, "hook", "claude"], input=start, cwd=big, env=env, capture_output=True, check=True)
for i in range(5):
    (big / f"src/m{i}/f{i * 100}.js").write_text(f"export const v = {i} + 1;\n")
stop = json.dumps({"session_id": "bench", "cwd": str(big), "hook_event_name": "SubagentStop",
                   "stop_hook_active": False, "agent_id": "a1"}).encode()
sub, status, true2 = [], [], []
for _ in range(20 * rounds):
    true2.append(spawn_ms(["/bin/true"], b"", big))
    status.append(spawn_ms(["git", "status", "--porcelain"], b"", big))
    sub.append(spawn_ms([binary, "hook", "claude"], stop, big))
print(f"SubagentStop guards-only on a {len(files)}-file repository (5 files changed):")
show("/bin/true", true2)
show("git status --porcelain", status)
show("loopgate hook claude (SubagentStop)", sub)
print(f"  ratio to git status: p50 {pct(sub, 50) / pct(status, 50):.2f}x, p99 {pct(sub, 99) / pct(status, 99):.2f}x")
PY
