#!/usr/bin/env bash
# Install the real agent clients the end-to-end tests drive, pinned, into target/agents/.
# Idempotent: does nothing when the pinned version is already there.
set -euo pipefail

CLAUDE_PACKAGE="@anthropic-ai/claude-code"
CLAUDE_VERSION="2.1.330"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${CARGO_TARGET_DIR:-$root/target}/agents"
installed="$dest/node_modules/$CLAUDE_PACKAGE/package.json"

if [[ -f "$installed" ]] && grep -q "\"version\": *\"$CLAUDE_VERSION\"" "$installed"; then
    echo "install-agents: $CLAUDE_PACKAGE@$CLAUDE_VERSION already in $dest"
    exit 0
fi

mkdir -p "$dest"
cd "$dest"
[[ -f package.json ]] || echo '{"name":"loopgate-test-agents","private":true}' > package.json
# No audit/fund traffic: the install should touch the registry and nothing else.
npm install --no-audit --no-fund --save-exact "$CLAUDE_PACKAGE@$CLAUDE_VERSION"
echo "install-agents: installed $CLAUDE_PACKAGE@$CLAUDE_VERSION into $dest"
"$dest/node_modules/.bin/claude" --version
