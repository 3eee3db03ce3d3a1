#!/usr/bin/env python3
"""Real-history precision/recall benchmark of the done-gate guards (issue 11, item 4).

The repositories are real open-source projects; none of their code is kept here, only the
commit list (bench/history/commits.tsv), the labels (bench/history/labels.tsv) and where to
get the repositories (bench/history/repos.tsv). Clone each repository into REPOS_DIR/<name>
(the `name` column of repos.tsv) from its url, e.g.

    git clone https://github.com/pallets/click REPOS_DIR/click

Every commit listed must be reachable in the clone (the pinned `head` column of repos.tsv).

Usage: bench/history.py [--set NAME] SUBCOMMAND ...

--set NAME reads and writes the data of another set of repositories, bench/history/NAME/
(repos.tsv, commits.tsv, labels.tsv), and records findings apart from the default set's.
The default set (bench/history/*.tsv) is the one the guards were tuned on; `--set heldout`
is a second set of repositories kept out of tuning, to check that figures carry over.

Subcommands (REPOS_DIR defaults to $LOOPGATE_HISTORY_REPOS):
  run [REPOS_DIR]        check out every listed commit C and record the findings of
                         `loopgate check --against C^ --guards-only --json` (sequentially)
  score [SET...]         match the recorded findings against the labels: precision and
                         recall per guard, then every finding no label covers; SET limits
                         it to commits of those sets (recent, marked, probe)
  speed [REPOS_DIR]      per repository, guards-only median time vs `git status` on the
                         same tree: the pinned head with its last commit's change left
                         uncommitted ($LOOPGATE_HISTORY_RUNS runs, default 30)
  candidates [REPOS_DIR] [REPO COMMIT...]
                         what a guard looks for in each commit's diff, found by plain
                         regexes independent of loopgate, with whether loopgate reported it:
                         the worklist for labelling misses
  select [REPOS_DIR]     rebuild commits.tsv (recent commits plus commits whose diffs add
                         or remove markers, found with `git log -G`; `probe` rows, picked by
                         hand for a known blind spot, are kept); normally not needed

`run` and `speed` check commits out in the clones (detached, `git clean -fdx`): use clones
made for this. Environment: LOOPGATE_BIN (default the release build,
bench/release-dir), LOOPGATE_HISTORY_OUT (where
findings are recorded, default target/history-findings.jsonl, or
target/history-findings-NAME.jsonl with --set NAME), LOOPGATE_HISTORY_MARKED (for `select`:
how many older marker commits each repository contributes before the extra deleted-test and
skip commits, default 12; a larger figure keeps every commit a smaller one picks).
"""
import collections
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "history")


def release_dir():
    """Where `cargo build --release` puts the binary: .cargo/config.toml names the host's
    target, so <target-dir>/<host-triple>/release (bench/release-dir)."""
    return subprocess.run([os.path.join(HERE, "release-dir")], check=True, capture_output=True,
                          text=True).stdout.strip()


BIN = os.environ.get("LOOPGATE_BIN") or os.path.join(release_dir(), "loopgate")
OUT = os.environ.get("LOOPGATE_HISTORY_OUT", os.path.join(ROOT, "target", "history-findings.jsonl"))


def use_set(name):
    """Point DATA and the default OUT at the set NAME (a subdirectory of bench/history)."""
    global DATA, OUT
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        sys.exit(f"--set {name!r}: a set is named by letters, digits, '-' or '_'")
    DATA = os.path.join(HERE, "history", name)
    if not os.path.isfile(os.path.join(DATA, "repos.tsv")):
        sys.exit(f"--set {name}: no {os.path.join(DATA, 'repos.tsv')}")
    OUT = os.environ.get("LOOPGATE_HISTORY_OUT",
                         os.path.join(ROOT, "target", f"history-findings-{name}.jsonl"))
GUARDS = ["config_edits", "protected_edits", "deleted_tests", "new_skips", "disabled_lint",
          "new_todos", "debug_artifacts"]
RECENT = 50  # most recent non-merge commits per repository
# older commits per repository found by marker regexes, all kinds in turn
MARKED = int(os.environ.get("LOOPGATE_HISTORY_MARKED", "12"))
EXTRA = 8  # then more of them that delete tests or add skips, the guards that fail a build


def tsv(name):
    with open(os.path.join(DATA, name)) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    head, rows = rows[0], rows[1:]
    return [dict(zip(head, r)) for r in rows]


def git(repo, *args, check=True):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
                       errors="replace")
    if check and r.returncode != 0:
        sys.exit(f"git {' '.join(args)} in {repo} failed: {r.stderr.strip()}")
    return r.stdout


def repos_dir(argv):
    d = argv[0] if argv else os.environ.get("LOOPGATE_HISTORY_REPOS")
    if not d or not os.path.isdir(d):
        sys.exit("give the directory holding the clones (see `bench/history.py` docstring), "
                 "as an argument or in LOOPGATE_HISTORY_REPOS")
    return d


def clone_of(rdir, name):
    path = os.path.join(rdir, name)
    if not os.path.isdir(os.path.join(path, ".git")):
        sys.exit(f"{path} is not a clone; clone the url listed in repos.tsv there")
    return path


# ---------------------------------------------------------------- findings


def checkout(path, commit):
    git(path, "checkout", "-q", "-f", "--detach", commit)
    git(path, "clean", "-q", "-f", "-d", "-x")


def findings_at(path, commit):
    """Findings of a guards-only check of C against C^, as (guard, path, line, snippet)."""
    r = subprocess.run([BIN, "check", "--against", commit + "^", "--guards-only", "--json"],
                       cwd=path, capture_output=True, text=True, errors="replace")
    if r.returncode not in (0, 3):
        sys.exit(f"loopgate failed at {commit} in {path} (exit {r.returncode}): {r.stderr}")
    receipt = json.loads(r.stdout)
    out = []
    for g in receipt.get("guards", []):
        for f in g.get("findings", []):
            out.append({"guard": g["name"], "path": f.get("path", ""),
                        "line": f.get("line") or 0, "snippet": f.get("snippet", ""),
                        "message": f.get("message", "")})
    return out


def cmd_run(argv):
    rdir = repos_dir(argv)
    repos = {r["name"]: r for r in tsv("repos.tsv")}
    commits = tsv("commits.tsv")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    start = time.time()
    with open(OUT, "w") as out:
        for name in repos:
            path = clone_of(rdir, name)
            for c in [c for c in commits if c["repo"] == name]:
                checkout(path, c["commit"])
                for f in findings_at(path, c["commit"]):
                    out.write(json.dumps({"repo": name, "commit": c["commit"], **f}) + "\n")
            checkout(path, repos[name]["head"])
    print(f"ran {len(commits)} commits in {time.time() - start:.0f} s; findings in {OUT}")


def load_findings():
    with open(OUT) as f:
        return [json.loads(line) for line in f if line.strip()]


def where(f):
    return f"{f['path']}:{f['line']}"


def cmd_score(argv):
    """argv: the commit sets to score (recent, marked, probe); all when empty."""
    commits = [c for c in tsv("commits.tsv") if not argv or c["set"] in argv]
    listed = {(c["repo"], c["commit"]) for c in commits}
    labels = tsv("labels.tsv")
    findings = [f for f in load_findings() if (f["repo"], f["commit"]) in listed]
    label_of = {(l["repo"], l["commit"], l["guard"], l["where"]): l for l in labels
                if (l["repo"], l["commit"]) in listed}
    found = {(f["repo"], f["commit"], f["guard"], where(f)) for f in findings}
    tp = collections.Counter()
    fp = collections.Counter()
    fn = collections.Counter()
    unlabelled = []
    for f in findings:
        key = (f["repo"], f["commit"], f["guard"], where(f))
        lab = label_of.get(key)
        if lab is None:
            unlabelled.append(f)
        elif lab["verdict"] == "false":
            fp[f["guard"]] += 1
        else:  # true, or a former miss that is now found
            tp[f["guard"]] += 1
    gone = []
    for key, lab in label_of.items():
        if key in found:
            continue
        if lab["verdict"] in ("true", "missed"):
            fn[lab["guard"]] += 1
            if lab["verdict"] == "true":
                gone.append(lab)
    print(f"{len(commits)} commits ({len({c['repo'] for c in commits})} repositories), "
          f"{len(findings)} findings, {len(labels)} labels")
    print(f"{'guard':<16} {'found':>6} {'true':>5} {'false':>5} {'missed':>6} "
          f"{'precision':>9} {'recall':>7}")
    for g in GUARDS:
        n = tp[g] + fp[g]
        p = f"{tp[g] / n:.3f}" if n else "-"
        r = f"{tp[g] / (tp[g] + fn[g]):.3f}" if tp[g] + fn[g] else "-"
        print(f"{g:<16} {n:>6} {tp[g]:>5} {fp[g]:>5} {fn[g]:>6} {p:>9} {r:>7}")
    n, t = sum(tp.values()) + sum(fp.values()), sum(tp.values())
    if n:
        print(f"{'all':<16} {n:>6} {t:>5} {sum(fp.values()):>5} {sum(fn.values()):>6} "
              f"{t / n:>9.3f} {t / (t + sum(fn.values())):>7.3f}")
    if gone:
        print(f"\nlabelled true but no longer reported ({len(gone)}):")
        for l in gone:
            print(f"  {l['repo']} {l['commit'][:10]} {l['guard']} {l['where']}  ({l['reason']})")
    if unlabelled:
        print(f"\nunlabelled findings ({len(unlabelled)}): label them in bench/history/labels.tsv")
        for f in unlabelled:
            print(f"  {f['repo']}\t{f['commit']}\t{f['guard']}\t{where(f)}\t{f['snippet'][:100]}")


# ---------------------------------------------------------------- candidates (no loopgate)

# Plain regexes over a diff's added (or, for tests, removed) lines. Deliberately broad: they
# propose; a human reading the diff decides. Nothing here is shared with loopgate's guards.
MARKERS = {
    "new_skips": r"(pytest\.(mark\.)?(skip|skipif|xfail)\b|\bunittest\.skip|skipTest\(|SkipTest"
                 r"|@skip\w*|expectedFailure|\b(it|test|describe|suite|context|bench)(\.\w+)*"
                 r"\.(skip|only|todo|skipIf|runIf|failing)\b|\b[xf](it|describe|test|context)\s*\("
                 r"|\.Skip(f|Now)?\(|#\[ignore|\bignore\s*\)\]|@Ignore\b|@Disabled\w*"
                 r"|enabled\s*=\s*false|^\s*(skip|pending)\b|[:,]\s*(skip|pending)\b"
                 r"|\bthis\.skip\(|^\s*x(it|describe|context|specify)\b"
                 r"|\bassume(True|False|That|NoException)\s*\(|importorskip"
                 r"|XCTSkip\w*\s*\(|\.disabled\s*\(|@(module|describe)?tag\s+:?skip|\bDISABLED_\w"
                 r"|GTEST_SKIP|\bSKIP\s*\(|TEST_CASE\s*\(.*\[[.!]|\bpending\s*\("
                 r"|markTest(Skipped|Incomplete)|@requires\b|#\[Requires\w*|->skip\w*\("
                 r"|\bSkip\s*=|\[Ignore|\bSkip\.(If|Unless)\w*|Assert\.Inconclusive"
                 r"|Assume\.\w+\(|\[Explicit"
                 r"|\b(omit|pend)(_if|_unless)?(\s+[\"':]|\s*\(|\s*$))",
    "disabled_lint": r"(noqa|type:\s*ignore|pylint:\s*disable|pyright:\s*ignore|pragma:\s*no cover"
                     r"|no_type_check|eslint-disable|@ts-(ignore|expect-error|nocheck)|biome-ignore"
                     r"|deno-lint-ignore|istanbul ignore|c8 ignore|v8 ignore|\bnolint\b|lint:ignore"
                     r"|#nosec|#!?\[(allow|expect)\(|cfg_attr\(.*allow\(|@Suppress\w*|NOPMD|NOSONAR"
                     r"|CHECKSTYLE|rubocop:\s*(disable|todo)|standard:disable|:nocov:"
                     r"|shellcheck disable|swiftlint:\s*disable|credo:disable|coveralls-ignore"
                     r"|@dialyzer|NOLINT|cppcheck-suppress|LCOV_EXCL"
                     r"|#\s*pragma\s+(GCC|clang)\s+diagnostic\s+ignored|#\s*pragma\s+warning\s*\(\s*disable"
                     r"|#\s*pragma\s+warning\s+disable|SuppressMessage|phpcs:\s*(ignore|disable)"
                     r"|@phpstan-ignore|@psalm-suppress|@codeCoverageIgnore|@SuppressWarnings"
                     r"|ktlint-disable|detekt:|ReSharper\s+disable|NoWarn)",
    "new_todos": r"(\b(TODO|FIXME|XXX|HACK)\b|todo!\()",
    "debug_artifacts": r"(console\.(log|debug|trace|dir|table)\b|\bdebugger\b|breakpoint\(\)"
                       r"|\b[ip]?pdb\b|pudb|dbg!|binding\.(pry|irb|break)|byebug"
                       r"|System\.(out|err)\.print|printStackTrace\(|^\s*println?\(|spew\.Dump"
                       r"|runtime\.Breakpoint|debugPrint\(|\bdump\(|IO\.(inspect|puts)|\bdbg\("
                       r"|IEx\.pry|std::c(out|err)\b|fprintf\s*\(\s*stderr|^\s*printf\s*\("
                       r"|\bvar_dump\(|\bprint_r\(|\bvar_export\(|\bdd\(|\berror_log\("
                       r"|Console\.(Write|Error)|Debug\.(Write|Print)|Trace\.Write|Debugger\.Break)",
}
TEST_DECL = (r"^\s*(def test\w*\s*\(|async def test\w*\s*\(|func Test\w*\(|#\[(\w+::)*test\b"
             r"|#\[rstest|@(Test|ParameterizedTest|RepeatedTest|TestFactory)\b"
             r"|(it|test|specify)(\.\w+)*\s*\(|(it|specify|test|should)\s+['\"]|def test_"
             r"|public void test\w*\s*\(|(override\s+)?func test\w*\s*\(|@Test\b"
             r"|(TYPED_)?TEST(_F|_P|_CASE)?\s*\(|(test|property|describe)\s+[\"']"
             r"|(public\s+)?function\s+test\w*\s*\(|#\[Test\]|@test\b"
             r"|\[(Fact|Theory|Test|TestMethod|TestCase)\b|fun\s+`)")
# Rust keeps unit tests next to the code they test, in files of any name.
RUST_TEST = r"^\s*#\[(\w+::)*test\b"
CODE_EXT = {"py", "js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts", "go", "rs", "java",
            "kt", "rb", "sh", "swift", "ex", "exs", "c", "cc", "cpp", "cxx", "h", "hpp",
            "php", "cs", "kts"}


def diff_lines(path, commit):
    """(file, line number in C or C^, sign, text) for every changed line, git's renames on."""
    text = git(path, "diff", "-U0", "-M", "--no-color", "--no-ext-diff", commit + "^", commit)
    file = old = None
    n_new = n_old = 0
    for line in text.splitlines():
        if line.startswith("+++ "):
            file = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("--- "):
            old = line[6:] if line.startswith("--- a/") else None
        elif line.startswith("@@"):
            m = re.match(r"@@ -(\d+)(?:,\d+)? \+(\d+)", line)
            n_old, n_new = int(m.group(1)), int(m.group(2))
        elif line.startswith("+") and file:
            yield file, n_new, "+", line[1:]
            n_new += 1
        elif line.startswith("-") and (old or file):
            yield old or file, n_old, "-", line[1:]
            n_old += 1


def candidates(path, commit):
    """What the commit's diff adds (markers) or removes (tests), net of moved lines."""
    lines = list(diff_lines(path, commit))
    norm = lambda s: re.sub(r"\s+", " ", s.strip())
    added = collections.Counter(norm(t) for _, _, s, t in lines if s == "+")
    removed = collections.Counter(norm(t) for _, _, s, t in lines if s == "-")
    out = []
    for file, n, sign, text in lines:
        ext = file.rsplit(".", 1)[-1] if "." in file else ""
        if ext not in CODE_EXT:
            continue
        moved = (removed if sign == "+" else added)[norm(text)] > 0
        if sign == "+":
            for guard, rx in MARKERS.items():
                if re.search(rx, text):
                    out.append((guard, file, n, text.strip(), moved))
        elif re.search(TEST_DECL, text) and (re.search(r"(test|spec)", file, re.I) or
                                             (ext == "rs" and re.search(RUST_TEST, text))):
            out.append(("deleted_tests", file, n, text.strip(), moved))
    return out


def cmd_candidates(argv):
    rdir = repos_dir(argv[:1])
    pick = argv[1:]
    findings = collections.defaultdict(list)
    if os.path.exists(OUT):
        for f in load_findings():
            findings[(f["repo"], f["commit"])].append(f)
    for c in tsv("commits.tsv"):
        if pick and not (c["repo"] in pick or any(c["commit"].startswith(p) for p in pick)):
            continue
        path = clone_of(rdir, c["repo"])
        got = findings[(c["repo"], c["commit"])]
        for guard, file, n, text, moved in candidates(path, c["commit"]):
            hit = any(f["guard"] == guard and f["path"] == file and
                      (f["line"] == n or guard == "deleted_tests") for f in got)
            print(f"{c['repo']}\t{c['commit']}\t{guard}\t{file}:{n}\t"
                  f"{'reported' if hit else 'NOT-REPORTED'}{' moved' if moved else ''}\t"
                  f"{text[:110]}")


def cmd_select(argv):
    rdir = repos_dir(argv)
    rows = []
    # Probe commits are picked by hand for a known blind spot; they are kept as they are.
    # A new set has no commits.tsv yet: nothing to keep.
    known = tsv("commits.tsv") if os.path.exists(os.path.join(DATA, "commits.tsv")) else []
    probes = [(c["repo"], c["commit"], c["set"]) for c in known if c["set"] == "probe"]
    for r in tsv("repos.tsv"):
        path = clone_of(rdir, r["name"])
        # A commit whose blobs the mirror lacks (large binaries are left out) cannot be
        # diffed; it is passed over.
        recent = [c for c in git(path, "rev-list", "--no-merges", "-n", str(RECENT + 10),
                                 r["head"]).split() if readable(path, c)][:RECENT]
        rows += [(r["name"], c, "recent") for c in recent]
        older = recent[-1] + "^"
        seen = set(recent)
        picked = []
        # Alternate between marker kinds so each repository contributes several kinds.
        per_kind = {}
        for guard, rx in MARKERS.items():
            if guard in ("new_todos", "debug_artifacts"):
                continue
            log = git(path, "log", "--no-merges", "--format=%H", "-n", "40", "-P",
                      "-G", rx, older, "--", *[f"*.{e}" for e in CODE_EXT])
            per_kind[guard] = log.split()
        per_kind["deleted_tests"] = git(path, "log", "--no-merges", "--format=%H", "-n", "40",
                                        "-P", "-G", TEST_DECL, older, "--",
                                        *[f"*.{e}" for e in CODE_EXT]).split()
        while len(picked) < MARKED and any(per_kind.values()):
            for guard in list(per_kind):
                while per_kind[guard]:
                    c = per_kind[guard].pop(0)
                    if c not in seen and readable(path, c) and has_candidate(path, c, guard):
                        seen.add(c)
                        picked.append(c)
                        break
                if len(picked) >= MARKED:
                    break
        for guard in ("deleted_tests", "new_skips") * EXTRA:
            while per_kind[guard] and len(picked) < MARKED + EXTRA:
                c = per_kind[guard].pop(0)
                if c not in seen and readable(path, c) and has_candidate(path, c, guard):
                    seen.add(c)
                    picked.append(c)
                    break
        rows += [(r["name"], c, "marked") for c in picked]
    rows += probes
    with open(os.path.join(DATA, "commits.tsv"), "w") as f:
        f.write("repo\tcommit\tset\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    print(f"{len(rows)} commits")


def readable(path, commit):
    """Whether every blob of C and of C^ is in the clone (so both can be checked out).
    Submodule entries are commits of other repositories, never in this clone: not asked."""
    for c in (commit, commit + "^"):
        entries = git(path, "ls-tree", "-r", c).splitlines()
        blobs = "".join(e.split()[2] + "\n" for e in entries if e.split()[1] != "commit")
        r = subprocess.run(["git", "-C", path, "cat-file", "--batch-check"], input=blobs,
                           capture_output=True, text=True)
        if " missing" in r.stdout:
            return False
    return True


def has_candidate(path, commit, guard):
    for g, file, _n, _t, moved in candidates(path, commit):
        if g == guard and not moved:
            return True
    return False


# ---------------------------------------------------------------- speed


def cmd_speed(argv):
    rdir = repos_dir(argv)
    runs = int(os.environ.get("LOOPGATE_HISTORY_RUNS", "30"))
    timing = os.path.join(HERE, "timing.py")
    for r in tsv("repos.tsv"):
        path = clone_of(rdir, r["name"])
        # The tree at the pinned head with its last change uncommitted (HEAD moved back one
        # commit, index and files kept): a working tree with a real edit in it.
        checkout(path, r["head"])
        git(path, "reset", "-q", "--soft", r["head"] + "^")
        print(f"== {r['name']} ({r['language']}, {len(git(path, 'ls-files').splitlines())} files)",
              flush=True)
        subprocess.run([sys.executable, timing, str(runs),
                        "git status=git status --porcelain",
                        f"loopgate guards-only={BIN} check --guards-only --json"], cwd=path)
        checkout(path, r["head"])


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--set":
        use_set(sys.argv[2])
        del sys.argv[1:3]
    elif len(sys.argv) >= 2 and sys.argv[1].startswith("--set="):
        use_set(sys.argv[1][len("--set="):])
        del sys.argv[1]
    if len(sys.argv) < 2 or sys.argv[1] not in ("run", "score", "speed", "candidates", "select"):
        sys.exit(__doc__)
    {"run": cmd_run, "score": cmd_score, "speed": cmd_speed, "candidates": cmd_candidates,
     "select": cmd_select}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
