#!/usr/bin/env bash
# The test command: installs the pinned real agent clients the end-to-end tests drive,
# then runs every test of the workspace against the built binary.
set -euo pipefail
cd "$(dirname "$0")"
if [ -x tests/install-agents.sh ]; then
  bash tests/install-agents.sh
fi
cargo test --workspace --locked "$@"
