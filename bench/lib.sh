#!/usr/bin/env bash
# The prologue the shell benchmarks share; `source` it after `set -euo pipefail`.
# BENCH_ROOT is the workspace. bench_bin sets BIN to the binary to measure: $LOOPGATE_BIN
# when set (an A/B against another commit's build), else a fresh release build; BASE to
# $LOOPGATE_BASE_BIN (a second build timed in the same rounds, or empty). bench_work makes
# WORK, removed on exit, and points HOME inside it so no user configuration of loopgate or
# git reaches a figure.
BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
T="python3 $BENCH_ROOT/bench/timing.py"

bench_bin() {
  if [ -n "${LOOPGATE_BIN:-}" ]; then
    BIN="$LOOPGATE_BIN"
  else
    cargo build --release --quiet --manifest-path "$BENCH_ROOT/Cargo.toml" --bin loopgate
    BIN="$("$BENCH_ROOT/bench/release-dir")/loopgate"
  fi
  BASE="${LOOPGATE_BASE_BIN:-}"
}

bench_work() { # [mktemp args]
  WORK="$(mktemp -d "$@")"
  trap 'rm -rf "$WORK"' EXIT
  export HOME="$WORK/home"
  mkdir -p "$HOME"
}
