#!/usr/bin/env bash
# The cost the kernel boundary adds to one agent shell command (issue 9): the same command
# run by a shell as the agent would run it unconfined, and as the tool gate rewrites it:
# the jail as a bash builtin in a subshell of that shell (Landlock on the pinned write
# roots, plus the mount namespace that makes the referee's files read-only), Landlock only
# (no user namespaces), and the `loopgate jail-shell` fallback of a shell that cannot load
# the builtin. Every row runs its text from a file with `bash FILE`. When bubblewrap is
# installed, the same read-only binds done by `bwrap` are measured for comparison.
# With LOOPGATE_BEFORE=/path/to/an/older/loopgate, that binary's rewrite is measured in
# the same run (before/after of a change, same machine load).
# Prints figures; asserts nothing. Usage: bench/jail_shell.sh [RUNS (default 300)]
set -euo pipefail

runs="${1:-300}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cargo build --release --quiet --manifest-path "$root/Cargo.toml" --bin loopgate
bin="$("$root/bench/release-dir")/loopgate"

work="$(mktemp -d "$root/target/bench-jail.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home"
repo="$HOME/repo"
mkdir -p "$repo" && cd "$repo"
git init -q -b main && git -c user.email=b@e -c user.name=b commit -q --allow-empty -m start
"$bin" install claude >/dev/null
printf '{"session_id":"bench","cwd":"%s","hook_event_name":"SessionStart"}' "$repo" \
  | CLAUDE_PROJECT_DIR="$repo" "$bin" hook claude >/dev/null
rewrite_with() { # the tool gate's rewrite of "$2" by the loopgate binary "$1"
  printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$repo" "$2" \
    | CLAUDE_PROJECT_DIR="$repo" "$1" hook claude \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["hookSpecificOutput"]["updatedInput"]["command"])'
}
rewrite() { rewrite_with "$bin" "$@"; }
# The rewrite loads the jail as a bash builtin into a subshell of the agent's shell; a shell
# that cannot load it runs `jail-shell` instead (measured by naming a library that is not
# there). Landlock only: the hook planned without user namespaces.
rewrite true > "$work/jailed.sh"
grep -q "enable -f" "$work/jailed.sh" || { echo "the rewrite has no builtin" >&2; exit 1; }
lib="$(grep -o "enable -f '[^']*'" "$work/jailed.sh" | cut -d"'" -f2)"
sed "s|$lib|/nonexistent/loopgate-jail.so|" "$work/jailed.sh" > "$work/jail-shell.sh"
LOOPGATE_NO_USERNS=1 rewrite true > "$work/landlock-only.sh"
grep -q "unshare=" "$work/landlock-only.sh" && { echo "the landlock-only rewrite has a namespace" >&2; exit 1; }
echo "rewritten: $(cat "$work/jailed.sh")"
# A plain program call (one program, literal words): run as its words, which bash execs in
# place (jail-shell execs the program itself): measured on /bin/true, an external program.
rewrite /bin/true > "$work/jailed-plain.sh"
sed "s|$lib|/nonexistent/loopgate-jail.so|" "$work/jailed-plain.sh" > "$work/jail-shell-plain.sh"
echo "rewritten: $(cat "$work/jailed-plain.sh")"

printf 'true' > "$work/plain.sh"
printf '/bin/true' > "$work/plain-program.sh"
cmds=("unconfined true=bash $work/plain.sh"
      "reference: /bin/true=/bin/true"
      "reference: loopgate --version=$bin --version"
      "jailed, builtin (landlock + mounts)=bash $work/jailed.sh"
      "jailed, builtin (landlock only)=bash $work/landlock-only.sh"
      "jailed, jail-shell fallback=bash $work/jail-shell.sh"
      "unconfined /bin/true=bash $work/plain-program.sh"
      "jailed /bin/true, builtin=bash $work/jailed-plain.sh"
      "jailed /bin/true, jail-shell fallback=bash $work/jail-shell-plain.sh")
if [ -n "${LOOPGATE_BEFORE:-}" ]; then
  rewrite_with "$LOOPGATE_BEFORE" true > "$work/before.sh"
  cmds+=("jailed by the before binary=bash $work/before.sh")
fi
if command -v bwrap >/dev/null; then
  binds=""
  for p in .git/hooks .git/config .claude; do binds="$binds --ro-bind $repo/$p $repo/$p"; done
  cmds+=("bwrap ro-binds + bash (no landlock)=bwrap --dev-bind / / $binds bash -c true")
fi
python3 "$root/bench/timing.py" "$runs" "${cmds[@]}"
echo "added cost of the jail = p50(jailed) - p50(unconfined true) for the shell path (true is a"
echo "bash builtin), p50(jailed /bin/true) - p50(unconfined /bin/true) for a plain call."
