#!/usr/bin/env bash
# Agent-mode policy speed over the dcg corpus (DESIGN 7: a PreToolUse decision, whole
# process, p50 <= 2 ms and p99 <= 5 ms on a 2-core machine).
#
# Builds --release, then runs `loopgate policy check --mode agent --cwd <temp git repo>
# -- CMD` as a whole process for every corpus command and compares it with spawning
# /bin/true in the same run. While `loopgate policy check` is not wired yet, the
# whole-process subject is the policy crate's `agent_mode` example binary (the same
# decide() call, without the CLI). Also prints the in-process decide() distribution.
#
# Usage: bench/policy.sh [CORPUS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-/work/shared/corpora/dcg}"

cargo build --quiet --release -p policy --example agent_mode
example=target/release/examples/agent_mode
cargo build --quiet --release --bin loopgate || true
loopgate=target/release/loopgate

repo="$(mktemp -d)"
trap 'rm -rf "$repo"' EXIT
git -C "$repo" init --quiet
git -C "$repo" -c user.email=b@e -c user.name=bench commit --quiet --allow-empty -m init

if [ -x "$loopgate" ] && "$loopgate" policy check --mode agent --cwd "$repo" -- "git status" >/dev/null 2>&1; then
  subject=("$loopgate" policy check --mode agent --cwd "$repo" --)
else
  echo "note: \`loopgate policy check\` is not wired yet; whole-process figures use $example" >&2
  subject=("$example")
fi

"$example" --spawn "$corpus" "${subject[@]}"
"$example" --bench "$corpus"
