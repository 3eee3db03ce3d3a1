#!/usr/bin/env bash
# The cost the kernel boundary adds to one agent shell command (issue 9): the same command
# run by a shell as the agent would run it unconfined, and as the tool gate rewrites it
# (`loopgate jail-shell`: Landlock on the pinned write roots, plus the mount namespace that
# makes the referee's files read-only), and Landlock only (`--no-mounts`). When bubblewrap
# is installed, the same read-only binds done by `bwrap` are measured for comparison.
# With LOOPGATE_BEFORE=/path/to/an/older/loopgate, that binary's jail-shell is measured in
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
rewrite() { # the tool gate's rewrite of "$1"
  printf '{"session_id":"bench","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$repo" "$1" \
    | CLAUDE_PROJECT_DIR="$repo" "$bin" hook claude \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["hookSpecificOutput"]["updatedInput"]["command"])'
}
jailed="$(rewrite true)"
printf '%s' "$jailed" > "$work/jailed.sh"
sed 's/ jail-shell / jail-shell --no-mounts /' "$work/jailed.sh" > "$work/landlock-only.sh"
# The floor of this design: the same two-shell chain (the agent's shell, then a bash with
# the hand-back trap) with no loopgate and no jail in between.
sed "1s#^'$bin' jail-shell .* -c 'true'\$#bash -c 'trap \"builtin pwd -P >| /dev/null\" EXIT; true'#" \
  "$work/jailed.sh" > "$work/no-loopgate.sh"
grep -q "^bash -c 'trap" "$work/no-loopgate.sh" || { echo "the floor's rewrite failed" >&2; exit 1; }
echo "rewritten: $(head -1 "$work/jailed.sh")"
# A plain program call (one program, literal words) is exec'd by the jail itself, with no
# second shell: measured on /bin/true, an external program, against the same unconfined.
rewrite /bin/true > "$work/jailed-plain.sh"
grep -q -- " -- '/bin/true'\$" "$work/jailed-plain.sh" || { echo "the plain rewrite failed" >&2; exit 1; }
echo "rewritten: $(cat "$work/jailed-plain.sh")"

cmds=("plain bash -c true=bash -c true"
      "reference: /bin/true=/bin/true"
      "reference: loopgate --version=$bin --version"
      "jail-shell (landlock + mounts)=bash $work/jailed.sh"
      "jail-shell (landlock only)=bash $work/landlock-only.sh"
      "floor: both shells, no loopgate=bash $work/no-loopgate.sh"
      "plain bash -c /bin/true=bash -c /bin/true"
      "jail-shell plain program /bin/true=bash $work/jailed-plain.sh")
if [ -n "${LOOPGATE_BEFORE:-}" ]; then
  sed "s|^'$bin' |'$LOOPGATE_BEFORE' |" "$work/jailed.sh" > "$work/before.sh"
  cmds+=("jail-shell (before binary)=bash $work/before.sh")
fi
if command -v bwrap >/dev/null; then
  binds=""
  for p in .git/hooks .git/config .claude; do binds="$binds --ro-bind $repo/$p $repo/$p"; done
  cmds+=("bwrap ro-binds + bash (no landlock)=bwrap --dev-bind / / $binds bash -c true")
fi
python3 "$root/bench/timing.py" "$runs" "${cmds[@]}"
echo "added cost of the jail = p50(jail-shell) - p50(plain bash) for the shell path (true is a"
echo "bash builtin), p50(jail-shell plain program) - p50(plain bash -c /bin/true) for a plain call;"
echo "the floor is one more exec"
echo "of loopgate (compare the /bin/true and loopgate --version references of this run)."
