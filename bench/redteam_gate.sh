#!/usr/bin/env bash
# Red-team pass on the static tool gate (issue 12): every command of
# bench/redteam_gate/harmful.txt and ordinary.txt (one per line, `#` comments) is sent
# through the real hook (`loopgate hook claude`, a Claude PreToolUse payload) in a scratch
# repository with a check script, and the decisions are counted. Harmful commands must be
# refused (deny or ask), ordinary ones allowed. Prints the misses and both counts.
# Usage: bench/redteam_gate.sh [--corpus DIR] [--harmful FILE] [--ordinary FILE] [path/to/loopgate]
#   DIR holds harmful.txt and ordinary.txt (default bench/redteam_gate; the later rounds
#   are in its subdirectories, round3 to round9). --harmful/--ordinary name
#   one list each instead (the external corpus:
#   --harmful ../shared/corpora/dcg-fixtures/commands/dangerous.txt
#   --ordinary ../shared/corpora/dcg-fixtures/commands/safe.txt); given alone, only that
#   list runs. The binary defaults to the debug build, target/<host-triple>/debug/loopgate.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
harmful="$here/redteam_gate/harmful.txt"
ordinary="$here/redteam_gate/ordinary.txt"
lists=default
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --corpus)
      dir="$(realpath "${2:?--corpus needs a directory}")"
      harmful="$dir/harmful.txt" ordinary="$dir/ordinary.txt"
      ;;
    --harmful | --ordinary)
      [[ $lists == default ]] && harmful="" ordinary="" lists=named
      file="$(realpath "${2:?$1 needs a file}")"
      if [[ $1 == --harmful ]]; then harmful="$file"; else ordinary="$file"; fi
      ;;
    *) echo "redteam_gate.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift 2
done
bin="$(realpath "${1:-$(dirname "$("$here/release-dir")")/debug/loopgate}")"
# Not under /tmp: the temp dir is a write root, and home must lie outside every root.
work="$(mktemp -d -p /var/tmp)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home"
repo="$HOME/dev/project"
mkdir -p "$repo/scripts" "$repo/src"
cd "$repo"
git init -q
printf 'version = 1\n[[check]]\nname = "test"\nrun = "sh scripts/test.sh"\n' > loopgate.toml
printf '#!/bin/sh\nexit 0\n' > scripts/test.sh
printf 'DROP TABLE users;\n' > drop.sql
git add -A && git -c user.email=a@b -c user.name=a commit -qm init
decide() {
  jq -cn --arg c "$1" --arg cwd "$repo" \
    '{hook_event_name:"PreToolUse",session_id:"redteam",cwd:$cwd,tool_name:"Bash",tool_input:{command:$c}}' \
    | "$bin" hook claude | jq -r '.hookSpecificOutput.permissionDecision // "allow"'
}
run() {
  local file="$1" want="$2" total=0 bad=0
  while IFS= read -r cmd; do
    [[ -z "$cmd" || "$cmd" == \#* ]] && continue
    total=$((total + 1))
    got="$(decide "$cmd")"
    if [[ "$want" == refuse && "$got" == allow ]] || [[ "$want" == allow && "$got" != allow ]]; then
      bad=$((bad + 1))
      printf '  %-5s %s\n' "$got" "$cmd"
    fi
  done < "$file"
  echo "$file: $bad of $total $( [[ $want == refuse ]] && echo allowed || echo refused )"
}
if [[ -n "$harmful" ]]; then run "$harmful" refuse; fi
if [[ -n "$ordinary" ]]; then run "$ordinary" allow; fi
