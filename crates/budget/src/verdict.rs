//! The budget decision, a pure function of the numbers.

use crate::Usage;
use serde::{Deserialize, Serialize};

/// Token limits; `None` means no limit. A limit is at least 1 token, whatever is asked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    pub session_tokens: Option<u64>,
    pub turn_tokens: Option<u64>,
}

impl Limits {
    pub fn new(session_tokens: Option<u64>, turn_tokens: Option<u64>) -> Limits {
        Limits {
            session_tokens: session_tokens.map(|n| n.max(1)),
            turn_tokens: turn_tokens.map(|n| n.max(1)),
        }
    }

    pub fn is_unlimited(&self) -> bool {
        self.session_tokens.is_none() && self.turn_tokens.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum BudgetVerdict {
    Within,
    /// Spending went past a limit (strictly more tokens than the limit).
    Exceeded {
        session: bool,
        turn: bool,
        /// Names both numbers and both limits; meant for the agent and the audit line.
        message: String,
    },
}

impl BudgetVerdict {
    pub fn exceeded(&self) -> bool {
        matches!(self, BudgetVerdict::Exceeded { .. })
    }
}

/// Over budget when either count is above its limit (limits clamped to at least 1).
pub fn check(spent: &Usage, limits: &Limits) -> BudgetVerdict {
    let limits = Limits::new(limits.session_tokens, limits.turn_tokens);
    let over = |used: u64, limit: Option<u64>| limit.is_some_and(|l| used > l);
    let session = over(spent.session_tokens, limits.session_tokens);
    let turn = over(spent.turn_tokens, limits.turn_tokens);
    if !session && !turn {
        return BudgetVerdict::Within;
    }
    let which = match (session, turn) {
        (true, true) => "session and turn",
        (true, false) => "session",
        _ => "turn",
    };
    let message = format!(
        "token budget exceeded ({which}): session {} (limit {}), turn {} (limit {}). \
         Stop here and report your progress to the user.",
        tokens(spent.session_tokens),
        limit_text(limits.session_tokens),
        tokens(spent.turn_tokens),
        limit_text(limits.turn_tokens),
    );
    BudgetVerdict::Exceeded {
        session,
        turn,
        message,
    }
}

fn limit_text(limit: Option<u64>) -> String {
    limit.map(tokens).unwrap_or_else(|| "none".into())
}

/// `1234567` -> `1,234,567 tokens`.
fn tokens(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out + " tokens"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spent(session: u64, turn: u64) -> Usage {
        Usage {
            session_tokens: session,
            turn_tokens: turn,
            ..Usage::default()
        }
    }

    #[test]
    fn at_the_limit_is_within_and_above_is_over() {
        let limits = Limits::new(Some(100), Some(10));
        assert_eq!(check(&spent(100, 10), &limits), BudgetVerdict::Within);
        assert!(check(&spent(101, 0), &limits).exceeded());
        assert!(check(&spent(0, 11), &limits).exceeded());
    }

    #[test]
    fn the_message_names_both_numbers_and_both_limits() {
        let v = check(
            &spent(2_100_000, 150_000),
            &Limits::new(Some(2_000_000), Some(200_000)),
        );
        let BudgetVerdict::Exceeded {
            session,
            turn,
            message,
        } = v
        else {
            panic!()
        };
        assert!(session && !turn);
        assert_eq!(
            message,
            "token budget exceeded (session): session 2,100,000 tokens (limit 2,000,000 tokens), \
             turn 150,000 tokens (limit 200,000 tokens). Stop here and report your progress to the user."
        );
    }

    #[test]
    fn zero_limits_are_clamped_to_one_and_none_is_unlimited() {
        let zero = Limits::new(Some(0), Some(0));
        assert_eq!(zero.session_tokens, Some(1));
        assert_eq!(check(&spent(1, 1), &zero), BudgetVerdict::Within);
        // Clamped even when built by hand.
        let raw = Limits {
            session_tokens: Some(0),
            turn_tokens: None,
        };
        assert_eq!(check(&spent(1, 0), &raw), BudgetVerdict::Within);
        assert!(check(&spent(2, 0), &raw).exceeded());
        assert_eq!(
            check(&spent(u64::MAX, u64::MAX), &Limits::default()),
            BudgetVerdict::Within
        );
        let BudgetVerdict::Exceeded { message, .. } =
            check(&spent(5, 0), &Limits::new(Some(1), None))
        else {
            panic!()
        };
        assert!(message.contains("turn 0 tokens (limit none)"), "{message}");
    }
}
