//! The user's `[policy]` allow / ask / deny rules (Claude Code rule syntax, matched by
//! `policy::rules`), applied to a normalized tool call.

use agents::ToolCall;
use gate::config::PolicyConfig;
use policy::rules::{RuleSet, ToolSubject};
use policy::{Decision, Verdict};
use std::path::Path;

#[derive(Debug, Clone)]
pub struct UserRules {
    /// A rule that does not parse refuses every call (fail closed) rather than vanishing.
    set: Result<RuleSet, String>,
}

impl Default for UserRules {
    fn default() -> Self {
        UserRules {
            set: Ok(RuleSet::default()),
        }
    }
}

impl UserRules {
    pub fn from_config(policy: &PolicyConfig) -> UserRules {
        UserRules {
            set: RuleSet::new(&policy.allow, &policy.ask, &policy.deny),
        }
    }

    /// The strongest user rule matching `call` (deny > ask > allow), as a decision whose
    /// rule id starts with `user.`; `None` when no rule names it. A file tool touching
    /// several paths is allowed only when every path is.
    pub fn decide(
        &self,
        call: &ToolCall,
        cwd: &Path,
        root: &Path,
        home: Option<&Path>,
    ) -> Option<Decision> {
        let set = match &self.set {
            Ok(set) if set.is_empty() => return None,
            Ok(set) => set,
            Err(e) => {
                return Some(decision(
                    Verdict::Deny,
                    "user.invalid",
                    format!("a [policy] rule does not parse: {e}"),
                ))
            }
        };
        let tool = call.tool_name();

        let verdicts: Vec<Option<(Verdict, String)>> = match call {
            ToolCall::Shell { command, .. } => {
                vec![set.evaluate(tool, ToolSubject::Command(command))]
            }
            ToolCall::FileWrite { paths, .. } => paths
                .iter()
                .map(|p| set.evaluate(tool, path_subject(p, cwd, root, home)))
                .collect(),
            ToolCall::FileRead { path, .. } => {
                vec![set.evaluate(tool, path_subject(path, cwd, root, home))]
            }
            ToolCall::Other { input, .. } => {
                // `WebFetch(domain:host)` rules read the host of the URL being fetched.
                let domain = input
                    .get("url")
                    .and_then(|u| u.as_str())
                    .and_then(policy::rules::fetch_subject);
                match domain {
                    Some(d) => vec![set.evaluate(tool, ToolSubject::Text(&d))],
                    None => vec![set.evaluate(tool, ToolSubject::None)],
                }
            }
        };
        strongest(verdicts).map(|(verdict, text)| {
            let (id, list) = match verdict {
                Verdict::Deny => ("user.deny", "deny"),
                Verdict::Ask => ("user.ask", "ask"),
                Verdict::Allow => ("user.allow", "allow"),
            };
            decision(verdict, id, format!("the rule `{text}` in [policy] {list}"))
        })
    }
}

fn path_subject<'a>(
    path: &'a Path,
    cwd: &'a Path,
    root: &'a Path,
    home: Option<&'a Path>,
) -> ToolSubject<'a> {
    ToolSubject::Path {
        path,
        cwd,
        root,
        home,
    }
}

/// Deny or ask from any part wins; allow only when every part is allowed.
fn strongest(verdicts: Vec<Option<(Verdict, String)>>) -> Option<(Verdict, String)> {
    let worst = verdicts.iter().flatten().max_by_key(|(v, _)| *v).cloned()?;
    if worst.0 == Verdict::Allow && verdicts.iter().any(Option::is_none) {
        return None;
    }
    Some(worst)
}

fn decision(verdict: Verdict, rule: &str, reason: String) -> Decision {
    Decision {
        decision: verdict,
        rule: rule.into(),
        reason,
        commands: Vec::new(),
        suggestion: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn rules(allow: &[&str], ask: &[&str], deny: &[&str]) -> UserRules {
        let s = |l: &[&str]| l.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        UserRules::from_config(&PolicyConfig {
            allow: s(allow),
            ask: s(ask),
            deny: s(deny),
            ..Default::default()
        })
    }

    fn read(path: &str) -> ToolCall {
        ToolCall::FileRead {
            tool: "Read".into(),
            path: PathBuf::from(path),
        }
    }

    #[test]
    fn a_denied_secret_read_names_the_rule() {
        let r = rules(&[], &[], &["Read(.env)"]);
        let root = Path::new("/repo");
        let d = r.decide(&read("/repo/.env"), root, root, None).unwrap();
        assert_eq!((d.decision, d.rule.as_str()), (Verdict::Deny, "user.deny"));
        assert_eq!(d.reason, "the rule `Read(.env)` in [policy] deny");
        assert!(r
            .decide(&read("/repo/src/a.rs"), root, root, None)
            .is_none());
    }

    #[test]
    fn an_edit_is_allowed_only_when_every_path_is() {
        let r = rules(&["Edit(src/**)"], &[], &[]);
        let root = Path::new("/repo");
        let call = |paths: &[&str]| ToolCall::FileWrite {
            tool: "Write".into(),
            paths: paths.iter().map(PathBuf::from).collect(),
        };
        let one = r
            .decide(&call(&["/repo/src/a.rs"]), root, root, None)
            .unwrap();
        assert_eq!(one.rule, "user.allow");
        assert!(r
            .decide(
                &call(&["/repo/src/a.rs", "/repo/README.md"]),
                root,
                root,
                None
            )
            .is_none());
    }

    #[test]
    fn a_bad_rule_fails_closed() {
        let r = rules(&["Bash(unclosed"], &[], &[]);
        let call = ToolCall::Shell {
            tool: "Bash".into(),
            command: "ls".into(),
            cwd: None,
        };
        let d = r
            .decide(&call, Path::new("/r"), Path::new("/r"), None)
            .unwrap();
        assert_eq!(
            (d.decision, d.rule.as_str()),
            (Verdict::Deny, "user.invalid")
        );
    }
}
