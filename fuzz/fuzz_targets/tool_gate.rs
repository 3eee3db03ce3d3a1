//! The tool gate's pure decision on arbitrary input: every kind of tool request, every
//! profile, with user rules; never a panic, a deterministic answer, strict never looser
//! than standard for shell commands, and a refusal always names its rule.
#![no_main]

use libfuzzer_sys::fuzz_target;
use policy::tool_gate::{decide, GateContext, ToolRequest};
use policy::{Profile, Verdict};
use std::path::{Path, PathBuf};

fn ctx(profile: Profile, rules: &[String]) -> GateContext {
    GateContext {
        root: PathBuf::from("/home/dev/project"),
        cwd: PathBuf::from("/home/dev/project/src"),
        home: Some(PathBuf::from("/home/dev")),
        write_roots: vec![PathBuf::from("/home/dev/project"), PathBuf::from("/tmp")],
        protect: vec!["Cargo.toml".into(), "ci/*.yml".into()],
        deny_read: vec![],
        profile,
        rules: GateContext::rules_from(rules, &[], &["Read(.env)".to_string()]),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    // The first line may be a user allow rule, the rest the subject.
    let (rule, subject) = text.split_once('\n').unwrap_or(("", &text));
    let rules = if rule.is_empty() {
        Vec::new()
    } else {
        vec![rule.to_string()]
    };
    let paths = [PathBuf::from(subject)];
    let landings = [roots::Landing::Real(PathBuf::from(subject))];
    let request = match selector % 4 {
        0 => ToolRequest::Shell {
            command: subject,
            cwd: None,
        },
        1 => ToolRequest::Write {
            paths: &paths,
            resolved: &landings,
        },
        2 => ToolRequest::Read {
            path: Path::new(subject),
        },
        _ => ToolRequest::Other { url: Some(subject) },
    };
    let tool = ["Bash", "Write", "Read", "WebFetch"][usize::from(selector % 4)];
    let standard = decide(tool, &request, &ctx(Profile::Standard, &rules));
    assert_eq!(
        standard,
        decide(tool, &request, &ctx(Profile::Standard, &rules))
    );
    if standard.decision != Verdict::Allow {
        assert!(!standard.rule.is_empty() && !standard.reason.is_empty());
    }
    let strict = decide(tool, &request, &ctx(Profile::Strict, &rules));
    if selector % 4 == 0 && standard.decision == Verdict::Deny {
        assert_eq!(strict.decision, Verdict::Deny);
    }
    assert_eq!(
        decide(tool, &request, &ctx(Profile::Observer, &rules)).decision,
        Verdict::Deny
    );
});
