#!/usr/bin/env bash
# Agent-mode policy speed over the dcg corpus (DESIGN 7: a PreToolUse decision, whole
# process, p50 <= 2 ms and p99 <= 5 ms on a 2-core machine).
#
# Builds --release, then runs `loopgate policy check --mode agent --cwd <temp git repo>
# -- CMD` as a whole process for every corpus command and compares it with spawning
# /bin/true in the same run. Also prints the in-process decide() distribution.
#
# Usage: bench/policy.sh [CORPUS_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus="${1:-$(cd .. && pwd)/shared/corpora/dcg}"

cargo build --quiet --release -p policy --example agent_mode
example="$(bench/release-dir)/examples/agent_mode"
cargo build --quiet --release --bin loopgate
loopgate="$(bench/release-dir)/loopgate"

repo="$(mktemp -d)"
trap 'rm -rf "$repo"' EXIT
git -C "$repo" init --quiet
git -C "$repo" -c user.email=b@e -c user.name=bench commit --quiet --allow-empty -m init

subject=("$loopgate" policy check --mode agent --cwd "$repo" --)

"$example" --spawn "$corpus" "${subject[@]}"
"$example" --bench "$corpus"
