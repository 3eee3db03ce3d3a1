//! The text a refused stop sends back to the model: what failed, where, and the budget.
//! Pure: receipt and ledger decision in, bounded text out.

use gate::ledger::StopDecision;
use gate::receipt::{CheckStatus, Receipt};

/// Lines of each failing check's output kept in the reason.
const TAIL_LINES: usize = 40;
/// The whole reason never exceeds this (the model reads it; the agent may cap it anyway).
const MAX_REASON: usize = 12 * 1024;
const MAX_FINDINGS: usize = 30;

pub fn block_text(receipt: &Receipt, decision: &StopDecision, subagent: bool) -> String {
    let who = if subagent {
        "this subagent's work"
    } else {
        "the work"
    };
    let mut out = format!(
        "loopgate: {who} is not done ({}).\n",
        decision.budget_line()
    );
    let failing: Vec<_> = receipt.failing_checks().collect();
    if !failing.is_empty() {
        out.push_str("\nFailing checks:\n");
        for check in failing {
            let status = match check.status {
                CheckStatus::Fail => match check.exit_code {
                    Some(code) => format!("failed with exit code {code}"),
                    None => "failed".into(),
                },
                CheckStatus::Timeout => "timed out (killed at the deadline)".into(),
                CheckStatus::Error => "could not run".into(),
                CheckStatus::Refused => "was refused by check-mode vetting".into(),
                CheckStatus::Pass => "passed".into(),
            };
            out.push_str(&format!("- `{}` ({}) {status}", check.name, check.run));
            if let Some(why) = &check.reason {
                out.push_str(&format!(": {why}"));
            }
            out.push('\n');
            let tail = last_lines(&check.output_tail, TAIL_LINES);
            if !tail.trim().is_empty() {
                out.push_str("  output (last lines):\n");
                for line in tail.lines() {
                    out.push_str("    ");
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    let mut findings = 0;
    let guards: Vec<_> = receipt.failing_guards().collect();
    if !guards.is_empty() {
        out.push_str(
            "\nGuard findings (the bar was lowered; undo these rather than work around them):\n",
        );
        for guard in guards {
            if guard.findings.is_empty() {
                out.push_str(&format!("- {}: failed\n", guard.name));
            }
            for f in &guard.findings {
                findings += 1;
                if findings > MAX_FINDINGS {
                    break;
                }
                let place = match f.line {
                    Some(line) => format!("{}:{line}", f.path),
                    None => f.path.clone(),
                };
                out.push_str(&format!("- {} {place}: {}", guard.name, f.message));
                if !f.snippet.trim().is_empty() {
                    out.push_str(&format!(" (`{}`)", f.snippet.trim()));
                }
                out.push('\n');
            }
        }
        if findings > MAX_FINDINGS {
            out.push_str(&format!("- ... and {} more\n", findings - MAX_FINDINGS));
        }
    }
    if let Some(q) = &receipt.quarantine {
        out.push_str(&format!(
            "\nA quarantine is open ({q}): a human must review and release it.\n"
        ));
    }
    out.push_str("\nFix the cause, then stop again. Do not edit loopgate.toml, .loopgate/ or the hook settings.");
    bound(out)
}

/// The reason for a stop the gate could not judge (config error, deadline): bounded too.
pub fn error_text(error: &str, decision: &StopDecision) -> String {
    bound(format!(
        "loopgate could not run the done gate, so the stop is refused ({}): {error}",
        decision.budget_line()
    ))
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

fn bound(mut text: String) -> String {
    if text.len() > MAX_REASON {
        let mut cut = MAX_REASON;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("\n[... cut by loopgate]");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use gate::config::Level;
    use gate::guards::{Finding, GuardReport, GuardStatus};
    use gate::receipt::*;

    fn receipt(checks: Vec<CheckResult>, guards: Vec<GuardReport>) -> Receipt {
        Receipt {
            version: 1,
            verdict: Verdict::Fail,
            exit_code: 1,
            via: "claude".into(),
            session: Some("s".into()),
            started_at: String::new(),
            duration_ms: 0,
            repo: RepoInfo {
                root: "/r".into(),
                head: None,
                branch: None,
                dirty: true,
            },
            config: ConfigInfo {
                source: "embedded".into(),
                hash: String::new(),
                why: String::new(),
            },
            baseline: BaselineInfo {
                kind: BaselineKind::Session,
                reference: None,
                session: None,
            },
            checks,
            guards,
            skipped_files: Vec::new(),
            confinement: vec![],
            quarantine: None,
            audit: None,
            environment: Environment {
                os: String::new(),
                arch: String::new(),
                loopgate_version: String::new(),
                host_hash: String::new(),
            },
            body_hash: String::new(),
        }
    }

    fn check(name: &str, status: CheckStatus, tail: &str) -> CheckResult {
        CheckResult {
            name: name.into(),
            run: "node --test".into(),
            argv: vec![],
            vetted: true,
            status,
            exit_code: Some(1),
            duration_ms: 1,
            output_tail: tail.into(),
            reason: None,
            containment: None,
        }
    }

    #[test]
    fn names_failing_checks_with_tails_findings_and_attempt() {
        let tail: String = (1..=100).map(|i| format!("line {i}\n")).collect();
        let guard = GuardReport {
            name: "new_skips".into(),
            level: Level::Fail,
            status: GuardStatus::Fail,
            findings: vec![Finding {
                path: "test/a.test.js".into(),
                line: Some(3),
                snippet: "it.skip('x')".into(),
                message: "a test was skipped".into(),
            }],
        };
        let r = receipt(
            vec![
                check("test", CheckStatus::Fail, &tail),
                check("lint", CheckStatus::Pass, ""),
            ],
            vec![guard],
        );
        let d = StopDecision::Bounce {
            attempt: 2,
            max: 3,
            progress: None,
        };
        let text = block_text(&r, &d, false);
        assert!(text.contains("attempt 2/3"), "{text}");
        assert!(
            text.contains("`test` (node --test) failed with exit code 1"),
            "{text}"
        );
        assert!(
            text.contains("line 100") && !text.contains("line 60\n"),
            "{text}"
        );
        assert!(
            text.contains("new_skips test/a.test.js:3: a test was skipped (`it.skip('x')`)"),
            "{text}"
        );
        assert!(
            !text.contains("`lint`"),
            "passing checks are not listed: {text}"
        );
    }

    #[test]
    fn huge_output_is_bounded() {
        let long = "x".repeat(100_000);
        let r = receipt(vec![check("test", CheckStatus::Timeout, &long)], vec![]);
        let text = block_text(
            &r,
            &StopDecision::Bounce {
                attempt: 1,
                max: 3,
                progress: None,
            },
            true,
        );
        assert!(text.len() <= MAX_REASON + 40);
        assert!(text.contains("timed out"));
        assert!(text.starts_with("loopgate: this subagent's work is not done"));
    }

    #[test]
    fn error_text_names_the_error_and_budget() {
        let d = StopDecision::Bounce {
            attempt: 1,
            max: 3,
            progress: None,
        };
        let t = error_text("loopgate.toml: bad", &d);
        assert!(
            t.contains("loopgate.toml: bad") && t.contains("attempt 1/3"),
            "{t}"
        );
    }
}
