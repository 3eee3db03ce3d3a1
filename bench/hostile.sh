#!/usr/bin/env bash
# Headroom of the tool-call hook on hostile payloads (tests/hook_faults.rs): a command of
# 2,500 nested `env` words (Claude and Gemini payloads) and a 6 MB Codex `apply_patch`
# naming 170,000 files. Prints p50/p99 against spawning /bin/true in the same run, so the
# ratios hold on a loaded machine; the decision must come well inside the 10 s tool-call
# deadline (docs/hooks-wiring.md). Asserts nothing.
# Usage: bench/hostile.sh [RUNS]   (default 5). LOOPGATE_BIN measures a prebuilt binary;
# LOOPGATE_BASE_BIN adds rows for another build (an A/B in the same run).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
source bench/lib.sh
bench_bin
bench_work
mkdir -p "$WORK/repo/src"
git -C "$WORK/repo" init -q -b main
echo 'pub fn one() -> u32 { 1 }' > "$WORK/repo/src/lib.rs"
git -C "$WORK/repo" add -A
git -C "$WORK/repo" -c user.name=b -c user.email=b@example.invalid commit -q -m init

python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
repo = f"{work}/repo"
command = "env " * 2500 + "rm x"
with open(f"{work}/env_claude.json", "w") as f:
    json.dump({"session_id": "s1", "cwd": repo, "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command}}, f)
with open(f"{work}/env_gemini.json", "w") as f:
    json.dump({"session_id": "g1", "cwd": repo, "hook_event_name": "BeforeTool",
               "tool_name": "run_shell_command", "tool_input": {"command": command}}, f)
parts, size, n = ["*** Begin Patch\n"], 16, 0
while size < 6 * 1024 * 1024:
    line = f"*** Add File: src/gen/f{n:06}.txt\n+x\n"
    parts.append(line)
    size += len(line)
    n += 1
parts.append("*** Add File: /etc/loopgate-escape.txt\n+x\n*** End Patch\n")
with open(f"{work}/patch_codex.json", "w") as f:
    json.dump({"session_id": "c1", "cwd": repo, "hook_event_name": "PreToolUse",
               "model": "gpt-5-codex", "permission_mode": "default", "turn_id": "t1",
               "tool_name": "apply_patch", "tool_input": {"command": "".join(parts)},
               "tool_use_id": "call_patch_1"}, f)
PY

rows=("true (direct)=/bin/true")
for b in "new=$BIN" ${BASE:+"base=$BASE"}; do
  label="${b%%=*}" bin="${b#*=}"
  rows+=("$label: 2,500 nested env (claude)=$bin hook claude < $WORK/env_claude.json"
         "$label: 2,500 nested env (gemini)=$bin hook gemini < $WORK/env_gemini.json"
         "$label: 6 MB apply_patch (codex)=$bin hook codex < $WORK/patch_codex.json")
done
# The answers themselves, once: a row that timed out says hook.deadline here.
for f in env_claude:claude patch_codex:codex; do
  echo "answer of $BIN to ${f%%:*}: $(cd "$WORK/repo" && "$BIN" hook "${f##*:}" < "$WORK/${f%%:*}.json" | grep -o '"permissionDecisionReason":"[^"(]*([^)]*)' | head -n 1)"
done
(cd "$WORK/repo" && $T "$RUNS" "${rows[@]}")
