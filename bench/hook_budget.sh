#!/usr/bin/env bash
# The PreToolUse hook with a token budget on a 50 MB transcript, warm (the budget cache is
# already at the end of the transcript), whole process, against spawning /bin/true in the
# same run (DESIGN section 7: p50 <= 4x). One figure per agent transcript format: Claude
# Code JSONL, Codex rollout JSONL, Gemini CLI chat recording JSONL.
# Prints figures; asserts nothing. Usage: bench/hook_budget.sh [calls (default 300)] [MB (default 50)]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
calls="${1:-300}"
megabytes="${2:-50}"

cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin loopgate
bin="$("$root/bench/release-dir")/loopgate"

# Under target/: the repository's own disk, not a tmpfs.
work="${CARGO_TARGET_DIR:-$root/target}/bench-hook-budget"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

python3 - "$bin" "$work" "$calls" "$megabytes" <<'PY'
import json, os, pathlib, random, subprocess, sys, time

binary, work, calls, megabytes = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
env = dict(os.environ, HOME=str(work / "home"))
(work / "home").mkdir()
rng = random.Random(7)

def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)

repo = work / "project"
repo.mkdir()
git(repo, "init", "-q", "-b", "main")
# LOOPGATE_BENCH_NO_BUDGET=1: the same calls without a budget, for the difference.
budget = "" if os.environ.get("LOOPGATE_BENCH_NO_BUDGET") == "1" else "[budget]\nsession_tokens = 4000000000\n"
(repo / "loopgate.toml").write_text("version = 1\n" + budget)
(repo / "src").mkdir()
(repo / "src/lib.rs").write_text("pub fn x() {}\n")

def claude(i):
    text = "lorem ipsum " * rng.randint(20, 220)
    yield json.dumps({"type": "assistant", "uuid": f"a{i}", "message": {"id": f"msg_{i:024}", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": text}, {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": "ls"}}], "usage": {"input_tokens": rng.randint(3, 50), "cache_creation_input_tokens": rng.randint(0, 5000), "cache_read_input_tokens": rng.randint(20000, 120000), "output_tokens": rng.randint(50, 2000)}}})
    yield json.dumps({"type": "user", "uuid": f"r{i}", "message": {"role": "user", "content": [{"tool_use_id": f"toolu_{i}", "type": "tool_result", "content": "x" * rng.randint(200, 6200)}]}})

def codex(i):
    text = "lorem ipsum " * rng.randint(20, 220)
    yield json.dumps({"timestamp": "2026-11-22T19:38:46.967Z", "ordinal": 4 * i, "type": "response_item", "payload": {"type": "function_call", "id": f"fc_{i}", "name": "exec_command", "arguments": json.dumps({"cmd": "ls", "note": text}), "call_id": f"call_{i}"}})
    u = {"input_tokens": rng.randint(1000, 90000), "cached_input_tokens": 0, "cache_write_input_tokens": 0, "output_tokens": rng.randint(50, 2000), "reasoning_output_tokens": 0, "total_tokens": 0}
    yield json.dumps({"timestamp": "t", "ordinal": 4 * i + 1, "type": "token_usage_record", "payload": {"thread_id": "t", "turn_id": "u", "response_id": f"resp_{i}", "usage": u, "turn_token_usage": u, "thread_token_usage": u}})
    yield json.dumps({"timestamp": "t", "ordinal": 4 * i + 2, "type": "response_item", "payload": {"type": "function_call_output", "call_id": f"call_{i}", "output": "x" * rng.randint(200, 6200)}})
    yield json.dumps({"timestamp": "t", "ordinal": 4 * i + 3, "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": u, "last_token_usage": u, "model_context_window": 258400}}})

def gemini(i):
    text = "lorem ipsum " * rng.randint(20, 220)
    tokens = {"input": rng.randint(1000, 90000), "output": rng.randint(50, 2000), "cached": 0, "thoughts": 0, "tool": 0, "total": 0}
    msg = {"id": f"g{i}", "timestamp": "2026-11-22T19:39:19.548Z", "type": "gemini", "content": text, "thoughts": [], "tokens": tokens, "model": "gemini-3.1-pro-preview"}
    yield json.dumps(msg)
    yield json.dumps({"$set": {"lastUpdated": "2026-11-22T19:39:19.548Z"}})
    msg["toolCalls"] = [{"id": f"c{i}", "name": "run_shell_command", "args": {"command": "ls"}}]
    yield json.dumps(msg)
    yield json.dumps({"id": f"u{i}", "type": "user", "content": [{"functionResponse": {"id": f"c{i}", "name": "run_shell_command", "response": {"output": "x" * rng.randint(200, 6200)}}}]})

def transcript(name, gen):
    path = work / f"{name}.jsonl"
    with open(path, "w") as out:
        i = 0
        while out.tell() < megabytes * 1024 * 1024:
            i += 1
            for line in gen(i):
                out.write(line + "\n")
    return path, i

def payload(agent, path, last):
    if agent == "claude":
        return {"session_id": "bench-claude", "transcript_path": str(path), "cwd": str(repo), "hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": str(repo / "src/lib.rs")}, "tool_use_id": f"toolu_{last}"}
    if agent == "codex":
        return {"session_id": "bench-codex", "transcript_path": str(path), "cwd": str(repo), "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": f"call_{last}"}
    return {"session_id": "bench-gemini", "transcript_path": str(path), "cwd": str(repo), "hook_event_name": "BeforeTool", "tool_name": "read_file", "tool_input": {"file_path": str(repo / "src/lib.rs")}}

cpu = []

def spawn_ms(argv, stdin_bytes):
    """Wall time of one whole process; its CPU time (user + system) goes to `cpu`, which is
    steadier than wall time on a shared machine."""
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        p.stdin.write(stdin_bytes)
        p.stdin.close()
    except BrokenPipeError:
        pass
    _, _, usage = os.wait4(p.pid, 0)
    p.returncode = 0
    cpu.append((usage.ru_utime + usage.ru_stime) * 1000)
    return (time.perf_counter() - t) * 1000

def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]

print(f"PreToolUse {'WITHOUT' if not budget else 'with'} a token budget, {megabytes} MB transcript, warm, {calls} calls each (interleaved with /bin/true):")
for agent in ["claude", "codex", "gemini"]:
    path, last = transcript(agent, {"claude": claude, "codex": codex, "gemini": gemini}[agent])
    body = json.dumps(payload(agent, path, last)).encode()
    first = spawn_ms([binary, "hook", agent], body)
    out = subprocess.run([binary, "hook", agent], input=body, cwd=repo, env=env, capture_output=True)
    assert b"deny" not in out.stdout, out.stdout
    hook, true, hook_cpu, true_cpu = [], [], [], []
    for _ in range(calls):
        true.append(spawn_ms(["/bin/true"], body))
        true_cpu.append(cpu[-1])
        hook.append(spawn_ms([binary, "hook", agent], body))
        hook_cpu.append(cpu[-1])
    print(f"  {agent:<7} {path.stat().st_size / 1e6:5.1f} MB, first call {first:8.1f} ms | wall: /bin/true p50 {pct(true, 50):.3f} ms, hook p50 {pct(hook, 50):.3f} ms p99 {pct(hook, 99):.3f} ms, ratio p50 {pct(hook, 50) / pct(true, 50):.2f}x | cpu: /bin/true p50 {pct(true_cpu, 50):.3f} ms, hook p50 {pct(hook_cpu, 50):.3f} ms")
PY
