#!/usr/bin/env bash
# Agent-mode refusal rates on loopgate's own corpus (issue 12): harmful commands refused
# (ask or deny) and ordinary agent commands allowed, per family, from
# crates/policy/tests/data/{harmful,ordinary}.toml. Prints figures; the pass/fail bar
# (>= 95% and 100%) is asserted by crates/policy/tests/families.rs.
# Usage: bench/families.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --quiet --release -p policy --test families -- --nocapture 2>&1 \
  | grep -E '^(harmful|ordinary|harmful commands)' || true
