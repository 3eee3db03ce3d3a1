//! loopgate's own corpus (tests/data/harmful.toml, tests/data/ordinary.toml): at least
//! 300 harmful commands across the rule families and the remote pack must be refused at a
//! rate of 95% or more, and at least 300 ordinary agent commands must all be allowed.
//! `ask` counts as refused: it stops the agent until a human agrees.

use policy::agent::{decide, AgentContext};
use policy::{Profile, Verdict};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn ctx() -> AgentContext {
    AgentContext {
        cwd: PathBuf::from("/home/dev/project"),
        repo_root: PathBuf::from("/home/dev/project"),
        home: Some(PathBuf::from("/home/dev")),
        write_roots: vec![PathBuf::from("/home/dev/project"), PathBuf::from("/tmp")],
        protected: vec!["Cargo.toml".into(), "ci/*.yml".into()],
        secret_paths: vec![],
        profile: Profile::Standard,
    }
}

fn load(name: &str) -> BTreeMap<String, Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let value: toml::Value = toml::from_str(&text).unwrap();
    let mut out = BTreeMap::new();
    for (family, table) in value["families"].as_table().unwrap() {
        let commands = table["commands"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        out.insert(family.clone(), commands);
    }
    out
}

#[test]
fn harmful_commands_are_refused_and_ordinary_ones_allowed() {
    let ctx = ctx();
    let harmful = load("harmful.toml");
    let ordinary = load("ordinary.toml");

    let mut missed = Vec::new();
    let mut total = 0;
    for (family, commands) in &harmful {
        let mut refused = 0;
        for cmd in commands {
            let d = decide(cmd, &ctx);
            if d.decision == Verdict::Allow {
                missed.push(format!("[{family}] {cmd:?}"));
            } else {
                refused += 1;
                assert!(
                    !d.reason.is_empty() && d.suggestion.is_some(),
                    "{cmd}: {d:?}"
                );
            }
        }
        total += commands.len();
        println!(
            "harmful  {family:<24} {refused:>3}/{:<3} refused",
            commands.len()
        );
    }
    let mut blocked = Vec::new();
    let mut allowed_total = 0;
    for (family, commands) in &ordinary {
        for cmd in commands {
            let d = decide(cmd, &ctx);
            if d.decision != Verdict::Allow {
                blocked.push(format!("[{family}] {cmd:?}: {} {}", d.rule, d.reason));
            }
        }
        allowed_total += commands.len();
    }
    let rate = 100.0 * (total - missed.len()) as f64 / total as f64;
    println!(
        "harmful refused {}/{total} ({rate:.1}%); ordinary allowed {}/{allowed_total}",
        total - missed.len(),
        allowed_total - blocked.len()
    );
    assert!(total >= 300 && allowed_total >= 300, "the corpora shrank");
    assert!(
        blocked.is_empty(),
        "ordinary commands refused:\n{}",
        blocked.join("\n")
    );
    assert!(
        rate >= 95.0,
        "harmful refused {rate:.1}% < 95%; allowed:\n{}",
        missed.join("\n")
    );
    // Above the rate, every entry is a regression test: a command the corpus lists is
    // refused, and a known miss is written up in docs/threat-model.md instead.
    assert!(
        missed.is_empty(),
        "harmful commands allowed:\n{}",
        missed.join("\n")
    );
}
