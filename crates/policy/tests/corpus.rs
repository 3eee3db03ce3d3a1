//! The dcg regression corpus (`../shared/corpora/dcg` beside the repository, or
//! `$LOOPGATE_DCG_CORPUS`) through agent mode.
//!
//! Every case is decided with the repository at `/home/dev/project` as cwd and repo root,
//! the write roots that repository and the system temp dir, home `/home/dev`, profile
//! `standard`. `ask` counts as `deny` for the comparison: the corpus only knows allow and
//! deny, and an `ask` stops the agent until a human says yes, exactly as a deny does.
//!
//! Each disagreement with the corpus label must be listed, with its reason, in
//! `tests/data/dcg-divergences.toml`; an unlisted disagreement and a stale entry both fail.
//! `edge_cases/` are only required to decide within the bound without panicking.

use policy::agent::{decide, AgentContext};
use policy::{Profile, Verdict};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The corpus ships in `shared/` beside the repository checkout (CI clones it there too).
fn corpus_dir() -> std::path::PathBuf {
    match std::env::var_os("LOOPGATE_DCG_CORPUS") {
        Some(dir) => dir.into(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/dcg"),
    }
}

/// The corpus holds about 350 cases; far fewer means it was not found or not read.
const MIN_CASES: usize = 300;
/// The PreToolUse hook's own deadline: every case must be decided inside it (a decision
/// past it would fail open). This catches hangs, not slowness; speed is in bench/policy.sh.
const BOUND: Duration = Duration::from_secs(10);

fn ctx() -> AgentContext {
    AgentContext {
        cwd: PathBuf::from("/home/dev/project"),
        repo_root: PathBuf::from("/home/dev/project"),
        home: Some(PathBuf::from("/home/dev")),
        write_roots: vec![PathBuf::from("/home/dev/project"), std::env::temp_dir()],
        protected: vec![],
        secret_paths: vec![],
        profile: Profile::Standard,
    }
}

struct Case {
    file: String,
    key: String,
    command: String,
    expected: Option<String>,
}

fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus dir")
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            toml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

fn cases() -> Vec<Case> {
    let corpus = corpus_dir();
    assert!(
        corpus.is_dir(),
        "the dcg corpus is missing at {}: check out shared/ beside the repository or set LOOPGATE_DCG_CORPUS",
        corpus.display()
    );
    let mut files = Vec::new();
    toml_files(&corpus, &mut files);
    let mut out = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&corpus).unwrap().display().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        let doc: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let Some(list) = doc.get("case").and_then(|c| c.as_array()) else {
            continue;
        };
        for c in list {
            // Cases that feed raw hook JSON are not shell commands: the hook tests own them.
            let Some(command) = c.get("command").and_then(|v| v.as_str()) else {
                continue;
            };
            let expected = c
                .get("expected")
                .or_else(|| c.get("expected_decision"))
                .and_then(|v| v.as_str())
                .map(str::to_string);
            let key = c
                .get("description")
                .or_else(|| c.get("id"))
                .and_then(|v| v.as_str())
                .unwrap_or(command)
                .to_string();
            out.push(Case {
                file: rel.clone(),
                key,
                command: command.to_string(),
                expected,
            });
        }
    }
    out
}

#[derive(Debug, serde::Deserialize)]
struct Divergence {
    file: String,
    case: String,
    command: String,
    decision: String,
    rule: String,
    reason: String,
}

#[derive(Debug, serde::Deserialize)]
struct DivergenceFile {
    divergence: Vec<Divergence>,
}

fn as_label(v: Verdict) -> &'static str {
    match v {
        Verdict::Allow => "allow",
        Verdict::Ask | Verdict::Deny => "deny",
    }
}

#[test]
fn every_corpus_case_decides_in_bounds_and_matches_or_is_explained() {
    let cases = cases();
    assert!(
        cases.len() >= MIN_CASES,
        "corpus not found or truncated: {} cases",
        cases.len()
    );
    let listed: DivergenceFile = toml::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/dcg-divergences.toml"
        ))
        .unwrap(),
    )
    .expect("divergence file parses");
    let mut listed_by_key: BTreeMap<(String, String), &Divergence> = BTreeMap::new();
    for d in &listed.divergence {
        assert!(
            !d.reason.trim().is_empty(),
            "divergence without a reason: {d:?}"
        );
        listed_by_key.insert((d.file.clone(), d.case.clone()), d);
    }
    let ctx = ctx();
    let mut problems = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut slowest = Duration::ZERO;
    for case in &cases {
        let started = Instant::now();
        let decision = decide(&case.command, &ctx);
        let took = started.elapsed();
        slowest = slowest.max(took);
        if took > BOUND {
            problems.push(format!("{} `{}`: took {took:?}", case.file, case.key));
        }
        if case.file.starts_with("edge_cases/") {
            continue;
        }
        let Some(expected) = &case.expected else {
            continue;
        };
        let got = as_label(decision.decision);
        let key = (case.file.clone(), case.key.clone());
        if got == expected {
            if listed_by_key.contains_key(&key) {
                problems.push(format!(
                    "stale divergence entry: {} `{}` now agrees ({got})",
                    case.file, case.key
                ));
            }
            continue;
        }
        seen.insert(key.clone());
        match listed_by_key.get(&key) {
            Some(d) if d.rule == decision.rule && d.command == case.command => {}
            Some(d) => problems.push(format!(
                "divergence entry out of date for {} `{}`: listed rule {} / command {:?}, now rule {} ({})",
                case.file, case.key, d.rule, d.command, decision.rule, decision.reason
            )),
            None => problems.push(format!(
                "unexplained: {} `{}` command {:?}: corpus {expected}, loopgate {:?} by {} ({})\n[[divergence]]\nfile = {:?}\ncase = {:?}\ncommand = {:?}\ndecision = \"{}\"\nrule = \"{}\"\nreason = \"\"\n",
                case.file, case.key, case.command, decision.decision, decision.rule, decision.reason,
                case.file, case.key, case.command, format!("{:?}", decision.decision).to_lowercase(), decision.rule
            )),
        }
    }
    for (key, d) in &listed_by_key {
        if !seen.contains(key) && !problems.iter().any(|p| p.contains(&key.1)) {
            problems.push(format!(
                "stale divergence entry (case not found or agrees): {} `{}`",
                d.file, d.case
            ));
        }
    }
    for d in &listed.divergence {
        let decided = decide(&d.command, &ctx);
        let label = format!("{:?}", decided.decision).to_lowercase();
        if label != d.decision {
            problems.push(format!(
                "divergence {} `{}` lists decision {} but loopgate says {label}",
                d.file, d.case, d.decision
            ));
        }
    }
    eprintln!(
        "{} cases, {} listed divergences, slowest decision {slowest:?}",
        cases.len(),
        listed.divergence.len()
    );
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
