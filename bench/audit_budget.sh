#!/usr/bin/env bash
# Audit append latency (alone and with 4 contending writers) and budget accounting on a
# generated 50 MB Claude Code transcript. Prints the figures; targets (DESIGN section 7):
# one append <= 100 us, budget accounting after the first call <= 5 ms.
#
# Usage: bench/audit_budget.sh [APPENDS] [TRANSCRIPT_MB]
# Work files go under target/ (the repository's own disk, not a tmpfs) and are removed.
set -euo pipefail
cd "$(dirname "$0")/.."
appends="${1:-10000}"
megabytes="${2:-50}"
cargo build --quiet --release -p audit --example append_bench
cargo build --quiet --release -p budget --example budget_bench
work="$(pwd)/target/bench-audit-budget"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
"$(bench/release-dir)"/examples/append_bench "$work" "$appends"
"$(bench/release-dir)"/examples/budget_bench "$work" "$megabytes"
