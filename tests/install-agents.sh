#!/usr/bin/env bash
# Install the real agent clients the end-to-end tests drive, pinned, into target/agents/.
# Idempotent: does nothing when every pinned version is already there. Any npm failure
# stops the script with a non-zero exit (CI then fails instead of skipping the clients).
set -euo pipefail

# package@version, and the binary each package puts in node_modules/.bin.
PINNED=(
    "@anthropic-ai/claude-code@2.1.330 claude"
    "@openai/codex@0.169.0 codex"
    "@google/gemini-cli@0.61.0 gemini"
)

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${CARGO_TARGET_DIR:-$root/target}/agents"

# "name@version" -> name (scoped names start with @).
package_name() { local spec="$1"; echo "${spec%@*}"; }
package_version() { local spec="$1"; echo "${spec##*@}"; }

missing=()
for entry in "${PINNED[@]}"; do
    spec="${entry% *}"
    manifest="$dest/node_modules/$(package_name "$spec")/package.json"
    if [[ -f "$manifest" ]] && grep -q "\"version\": *\"$(package_version "$spec")\"" "$manifest"; then
        echo "install-agents: $spec already in $dest"
    else
        missing+=("$spec")
    fi
done

if ((${#missing[@]} > 0)); then
    mkdir -p "$dest"
    cd "$dest"
    [[ -f package.json ]] || echo '{"name":"loopgate-test-agents","private":true}' > package.json
    # No audit/fund traffic: the install should touch the registry and nothing else.
    # Optional dependencies stay on: Codex ships its Linux binary in one.
    if ! npm install --no-audit --no-fund --save-exact --include=optional "${missing[@]}"; then
        echo "install-agents: npm install ${missing[*]} failed" >&2
        exit 1
    fi
    echo "install-agents: installed ${missing[*]} into $dest"
fi

for entry in "${PINNED[@]}"; do
    spec="${entry% *}"
    bin="$dest/node_modules/.bin/${entry##* }"
    if ! version="$("$bin" --version 2>&1)"; then
        echo "install-agents: $bin --version failed: $version" >&2
        exit 1
    fi
    case "$version" in
        *"$(package_version "$spec")"*) echo "install-agents: ${entry##* } $version" ;;
        *)
            echo "install-agents: $bin reports '$version', expected $(package_version "$spec")" >&2
            exit 1
            ;;
    esac
done
