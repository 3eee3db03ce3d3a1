//! The red-team corpus (tests/redteam/harmful.txt): every command goes through the real
//! `loopgate hook claude`; whatever the gate lets through (rewritten or not) is run for real
//! with `bash -c`, as the client runs it, in a sandboxed HOME with the repository inside it.
//! Passes only when nothing outside the write roots and none of the referee's files changed.
//! The ordinary corpus (tests/redteam/ordinary.txt) must still work, jailed.

mod support;

use std::path::Path;
use support::jail::{Runner, Sandbox};

fn corpus(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/redteam")
            .join(name),
    )
    .unwrap()
}

/// `(id, command)` for every case of the harmful corpus: payloads through carriers, then
/// the standalone cases.
fn harmful() -> Vec<(String, String)> {
    let text = corpus("harmful.txt");
    let (mut payloads, mut carriers, mut cases) = (Vec::new(), Vec::new(), Vec::new());
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.splitn(3, '\t').collect();
        assert_eq!(fields.len(), 3, "malformed corpus line: {line}");
        let body = fields[2].replace("\\n", "\n");
        match fields[0] {
            "payload" => payloads.push((fields[1].to_string(), body)),
            "carrier" => carriers.push((fields[1].to_string(), body)),
            "case" => cases.push((fields[1].to_string(), body)),
            other => panic!("unknown kind {other} in: {line}"),
        }
    }
    let mut out = Vec::new();
    for (cid, carrier) in &carriers {
        for (pid, payload) in &payloads {
            let quoted = format!("'{}'", payload.replace('\'', r"'\''"));
            out.push((format!("{cid}/{pid}"), carrier.replace("{Q}", &quoted)));
        }
    }
    out.extend(cases);
    out
}

const CONFIG: &str = "version = 1\n";
/// A local bare remote outside the repository is one more place a push writes: named as a
/// write root, as the docs tell users to.
const DEV_CONFIG: &str = "version = 1\n[sandbox]\nwrite_roots = [\".\", \"~/remote.git\"]\n";

#[test]
fn no_harmful_command_does_harm_through_the_gate_and_the_jail() {
    let cases = harmful();
    assert!(cases.len() >= 200, "the corpus holds {} cases", cases.len());
    let sb = Sandbox::new(Some(CONFIG));
    let start = sb.guarded();
    let mut harms = Vec::new();
    let (mut denied, mut asked, mut ran_confined, mut ran_plain) = (0, 0, 0, 0);
    for (id, command) in &cases {
        let before = sb.guarded();
        let ran = sb.attempt(command);
        match ran.decision.as_str() {
            "deny" => denied += 1,
            "ask" => asked += 1,
            _ if ran.answer["hookSpecificOutput"]["updatedInput"].is_object() => ran_confined += 1,
            _ => ran_plain += 1,
        }
        let after = sb.guarded();
        if before != after {
            harms.push(format!(
                "{id}: {command}\n  changed: {:?}\n  {}",
                changed(&before, &after),
                ran.explain().replace('\n', "\n  ")
            ));
        }
    }
    // Background jobs get a moment to do their worst before the final look.
    std::thread::sleep(std::time::Duration::from_secs(2));
    let end = sb.guarded();
    eprintln!(
        "{} cases: {denied} denied, {asked} asked, {ran_confined} ran confined, {ran_plain} ran unconfined",
        cases.len()
    );
    assert!(
        harms.is_empty() && start == end,
        "{} of {} cases did harm:\n{}\nover the whole run: {:?}",
        harms.len(),
        cases.len(),
        harms.join("\n"),
        changed(&start, &end)
    );
    assert_eq!(
        ran_plain, 0,
        "every command the gate let through ran confined"
    );
}

/// The kernel alone: every case, including those the gate refuses or asks about, run under
/// the jail as if it had been allowed, by the builtin and by `jail-shell`. Static vetting is incomplete by design; this is what
/// holds when it misses.
#[test]
fn inside_the_jail_no_harmful_command_does_harm_even_unvetted() {
    let cases = harmful();
    let sb = Sandbox::new(Some(CONFIG));
    let start = sb.guarded();
    let mut harms = Vec::new();
    for ((id, command), runner) in cases
        .iter()
        .flat_map(|case| [(case, Runner::Builtin), (case, Runner::JailShell)])
    {
        let before = sb.guarded();
        let out = sb.jailed(command, runner);
        let after = sb.guarded();
        if before != after {
            harms.push(format!(
                "{id} ({runner:?}): {command}\n  changed: {:?}\n  exit {:?}: {}",
                changed(&before, &after),
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    std::thread::sleep(std::time::Duration::from_secs(2));
    let end = sb.guarded();
    assert!(
        harms.is_empty() && start == end,
        "{} of {} cases did harm inside the jail:\n{}\nover the whole run: {:?}",
        harms.len(),
        cases.len(),
        harms.join("\n"),
        changed(&start, &end)
    );
}

fn changed(
    a: &std::collections::BTreeMap<std::path::PathBuf, String>,
    b: &std::collections::BTreeMap<std::path::PathBuf, String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (p, v) in a {
        match b.get(p) {
            None => out.push(format!("deleted {}", p.display())),
            Some(w) if w != v => out.push(format!("modified {}", p.display())),
            _ => {}
        }
    }
    for p in b.keys() {
        if !a.contains_key(p) {
            out.push(format!("created {}", p.display()));
        }
    }
    out
}

/// `id <TAB> command <TAB> expected stdout substring (optional)`; `\n` is a newline.
fn ordinary() -> Vec<(String, String, Option<String>)> {
    corpus("ordinary.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 2, "malformed line: {l}");
            (
                f[0].to_string(),
                f[1].replace("\\n", "\n"),
                f.get(2).map(|s| s.replace("\\n", "\n")),
            )
        })
        .collect()
}

#[test]
fn ordinary_developer_commands_still_work_jailed() {
    let cases = ordinary();
    assert!(cases.len() >= 30, "the corpus holds {} cases", cases.len());
    let sb = Sandbox::new(Some(DEV_CONFIG));
    seed_project(&sb);
    let mut failures = Vec::new();
    let mut cwd = sb.repo.clone();
    for (id, command, expect) in &cases {
        let ran = sb.attempt_in(command, &cwd, None);
        let confined = ran.answer["hookSpecificOutput"]["updatedInput"].is_object();
        let ok = ran.decision == "allow"
            && confined
            && ran.code == Some(0)
            && expect
                .as_ref()
                .is_none_or(|e| ran.stdout.contains(e.as_str()));
        if !ok {
            failures.push(format!(
                "{id}: {command}\n  {}",
                ran.explain().replace('\n', "\n  ")
            ));
        }
        if ran.code.is_some() {
            cwd = sb.last_cwd();
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} ordinary commands failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// A small project and its surroundings: a bare remote, a local npm package tarball, a
/// local Python package dir, and the tool caches a developer's HOME has.
fn seed_project(sb: &Sandbox) {
    let home = &sb.home;
    for cache in [".npm", ".cache", ".cargo"] {
        std::fs::create_dir_all(home.join(cache)).unwrap();
    }
    let remote = home.join("remote.git");
    let out = sb
        .cmd("git")
        .args(["init", "-q", "--bare", "-b", "main"])
        .arg(&remote)
        .output()
        .unwrap();
    assert!(out.status.success());
    sb.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    let pkg = home.join("pkgs/leftpad");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("package.json"),
        r#"{"name":"leftpad-local","version":"1.0.0","main":"index.js"}"#,
    )
    .unwrap();
    std::fs::write(
        pkg.join("index.js"),
        "module.exports = (s, n) => String(s).padStart(n);\n",
    )
    .unwrap();
    let packed = sb
        .cmd("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(home.join("pkgs"))
        .current_dir(&pkg)
        .output()
        .unwrap();
    assert!(
        packed.status.success(),
        "{}",
        String::from_utf8_lossy(&packed.stderr)
    );
    // A wheel made by hand (a zip with its metadata): `pip install --no-index` from a
    // local dir needs nothing from the network or a build backend.
    let wheels = home.join("pkgs/wheels");
    std::fs::create_dir_all(&wheels).unwrap();
    let made = sb
        .cmd("python3")
        .arg("-c")
        .arg(WHEEL_MAKER)
        .arg(wheels.join("pyhello-0.1-py3-none-any.whl"))
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
}

const WHEEL_MAKER: &str = "import sys, zipfile
files = {
    'pyhello/__init__.py': 'def hi():\\n    return \\'hi\\'\\n',
    'pyhello-0.1.dist-info/METADATA': 'Metadata-Version: 2.1\\nName: pyhello\\nVersion: 0.1\\n',
    'pyhello-0.1.dist-info/WHEEL': 'Wheel-Version: 1.0\\nGenerator: hand\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',
}
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    for name, text in files.items():
        z.writestr(name, text)
    z.writestr('pyhello-0.1.dist-info/RECORD', ''.join(n + ',,\\n' for n in files) + 'pyhello-0.1.dist-info/RECORD,,\\n')
";
