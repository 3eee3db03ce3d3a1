//! The shape rule: simple commands joined by `&&`, every word static.

use super::{Refusal, SimpleCommand};
use crate::shell::{self, ast, DynamicKind, Parsed, WordValue};
use brush_parser::Token;

const SCRIPT: &str =
    "move the logic into a script file in the repository and call it, e.g. `./scripts/check.sh`";

/// The simple commands of an accepted string, in order, or the first refusal.
pub(super) fn simple_commands(parsed: &Parsed) -> Result<Vec<SimpleCommand>, Refusal> {
    let program = &parsed.program;
    let items: Vec<&ast::CompoundListItem> = program
        .complete_commands
        .iter()
        .flat_map(|list| list.0.iter())
        .collect();
    if items.len() > 1
        || items
            .iter()
            .any(|i| matches!(i.1, ast::SeparatorOperator::Async))
    {
        return Err(separator_refusal(&parsed.tokens));
    }
    let Some(item) = items.first() else {
        return Err(Refusal::new(
            "check.empty",
            "",
            "the command has nothing to run (only blanks or a comment)",
            "write the command to run, e.g. `cargo test`",
        ));
    };
    let list = &item.0;
    let mut out = vec![pipeline(&list.first)?];
    for next in &list.additional {
        match next {
            ast::AndOr::And(p) => out.push(pipeline(p)?),
            ast::AndOr::Or(_) => return Err(Refusal::new(
                "check.or",
                "||",
                "`||` runs a second command when the first fails, which can hide a failing check",
                "join commands with `&&` only; put fallbacks in a script file in the repository",
            )),
        }
    }
    // bash accepts a newline after `&&`; a one-line reading of the string does not. A
    // trailing newline (a TOML multi-line string) hides nothing and is let through.
    let continues = |(i, t): (usize, &Token)| {
        matches!(t, Token::Operator(op, _) if op == "\n")
            && parsed.tokens[i..]
                .iter()
                .any(|t| matches!(t, Token::Word(..)))
    };
    if parsed.tokens.iter().enumerate().any(continues) {
        return Err(Refusal::new(
            "check.newline",
            "\\n",
            "a newline outside quotes splits the command over lines that a one-line reading misses",
            "write the commands on one line joined with `&&`",
        ));
    }
    Ok(out)
}

/// Name the operator that split the string into several lists: `;`, `&` or a newline.
fn separator_refusal(tokens: &[Token]) -> Refusal {
    let op = tokens.iter().find_map(|t| match t {
        Token::Operator(op, _) if matches!(op.as_str(), ";" | "&" | "\n" | "\r\n") => {
            Some(op.as_str())
        }
        _ => None,
    });
    match op {
        Some("&") => Refusal::new(
            "check.background",
            "&",
            "`&` runs a command in the background, outside the check's timeout and exit code",
            "run the commands one after the other with `&&`",
        ),
        Some(";") => Refusal::new(
            "check.separator",
            ";",
            "`;` runs the next command even when the previous one fails",
            "join commands with `&&` so a failure stops the check",
        ),
        _ => Refusal::new(
            "check.newline",
            "\\n",
            "a newline outside quotes starts a second command that a one-line reading misses",
            "write the commands on one line joined with `&&`, or use a script file in the repository",
        ),
    }
}

fn pipeline(p: &ast::Pipeline) -> Result<SimpleCommand, Refusal> {
    if p.bang {
        return Err(Refusal::new(
            "check.negation",
            "!",
            "`!` inverts the exit code, so a failing command would pass the check",
            "remove the `!`; write a script file in the repository if you need to invert a result",
        ));
    }
    if p.timed.is_some() {
        return Err(Refusal::new(
            "check.shape",
            "time",
            "`time` is a shell keyword; check commands run without a shell",
            "remove `time`: loopgate records each check's duration in the receipt",
        ));
    }
    if p.seq.len() > 1 {
        return Err(Refusal::new(
            "check.pipe",
            "|",
            "a pipe `|` needs a shell, and its exit code hides the failure of the first command",
            SCRIPT,
        ));
    }
    match p.seq.first() {
        Some(ast::Command::Simple(simple)) => simple_command(simple),
        Some(ast::Command::Compound(compound, _)) => Err(compound_refusal(compound)),
        Some(ast::Command::Function(f)) => Err(Refusal::new(
            "check.function",
            format!("{}()", f.fname.value),
            format!("defining the function `{}` needs a shell", f.fname.value),
            SCRIPT,
        )),
        Some(ast::Command::ExtendedTest(..)) => Err(Refusal::new(
            "check.control_flow",
            "[[",
            "`[[ ... ]]` is shell control flow; check commands run without a shell",
            SCRIPT,
        )),
        None => Err(Refusal::new(
            "check.empty",
            "",
            "the command has nothing to run",
            "write the command to run, e.g. `cargo test`",
        )),
    }
}

fn compound_refusal(compound: &ast::CompoundCommand) -> Refusal {
    let (rule, word, what) = match compound {
        ast::CompoundCommand::Subshell(_) => ("check.subshell", "(", "a subshell `( ... )`"),
        ast::CompoundCommand::BraceGroup(_) => {
            ("check.subshell", "{", "a command group `{ ...; }`")
        }
        ast::CompoundCommand::IfClause(_) => ("check.control_flow", "if", "`if`"),
        ast::CompoundCommand::ForClause(_) => ("check.control_flow", "for", "a `for` loop"),
        ast::CompoundCommand::ArithmeticForClause(_) => {
            ("check.control_flow", "for", "a `for ((...))` loop")
        }
        ast::CompoundCommand::WhileClause(_) => ("check.control_flow", "while", "a `while` loop"),
        ast::CompoundCommand::UntilClause(_) => ("check.control_flow", "until", "an `until` loop"),
        ast::CompoundCommand::CaseClause(_) => ("check.control_flow", "case", "`case`"),
        ast::CompoundCommand::Arithmetic(_) => {
            ("check.control_flow", "((", "an arithmetic command")
        }
        ast::CompoundCommand::Coprocess(_) => ("check.control_flow", "coproc", "`coproc`"),
    };
    Refusal::new(
        rule,
        word,
        format!("{what} needs a shell; check commands run as plain argv"),
        SCRIPT,
    )
}

fn simple_command(cmd: &ast::SimpleCommand) -> Result<SimpleCommand, Refusal> {
    let mut env = Vec::new();
    let mut argv = Vec::new();
    for item in cmd.prefix.iter().flat_map(|p| p.0.iter()) {
        match item {
            ast::CommandPrefixOrSuffixItem::AssignmentWord(assignment, word) => {
                env.push(assignment_pair(assignment, word)?)
            }
            other => item_refusal(other)?,
        }
    }
    if let Some(name) = &cmd.word_or_name {
        argv.push(static_word(&name.value)?);
    }
    for item in cmd.suffix.iter().flat_map(|s| s.0.iter()) {
        match item {
            // After the program name `X=1` is an ordinary argument (e.g. `make V=1`).
            ast::CommandPrefixOrSuffixItem::AssignmentWord(_, word)
            | ast::CommandPrefixOrSuffixItem::Word(word) => argv.push(static_word(&word.value)?),
            other => item_refusal(other)?,
        }
    }
    if argv.is_empty() {
        let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        return Err(Refusal::new(
            "check.shape",
            names.join(" "),
            "the command only assigns variables and runs no program",
            "put the assignment before a program, e.g. `RUST_BACKTRACE=1 cargo test`",
        ));
    }
    Ok(SimpleCommand { env, argv })
}

/// Redirections and process substitutions; a stray word in a prefix is not expected
/// from brush, and is refused rather than guessed at.
fn item_refusal(item: &ast::CommandPrefixOrSuffixItem) -> Result<(), Refusal> {
    match item {
        ast::CommandPrefixOrSuffixItem::IoRedirect(r) => Err(redirect_refusal(r)),
        ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, _) => {
            let op = match kind {
                ast::ProcessSubstitutionKind::Read => "<(",
                ast::ProcessSubstitutionKind::Write => ">(",
            };
            Err(Refusal::new(
                "check.substitution",
                op,
                format!("process substitution `{op} ... )` runs a hidden command"),
                SCRIPT,
            ))
        }
        other => Err(Refusal::new(
            "check.shape",
            other.to_string(),
            format!("`{other}` is not a plain word or assignment"),
            SCRIPT,
        )),
    }
}

fn assignment_pair(
    assignment: &ast::Assignment,
    word: &ast::Word,
) -> Result<(String, String), Refusal> {
    let name = match &assignment.name {
        ast::AssignmentName::VariableName(n) => n.clone(),
        ast::AssignmentName::ArrayElementName(n, i) => {
            return Err(Refusal::new(
                "check.env",
                format!("{n}[{i}]"),
                "array assignments need a shell",
                "assign plain variables only, e.g. `RUST_LOG=debug cargo test`",
            ))
        }
    };
    let value = match &assignment.value {
        ast::AssignmentValue::Scalar(v) => static_word(&v.value)?,
        ast::AssignmentValue::Array(_) => {
            return Err(Refusal::new(
                "check.env",
                word.value.clone(),
                "array assignments need a shell",
                "assign plain variables only, e.g. `RUST_LOG=debug cargo test`",
            ))
        }
    };
    if assignment.append {
        return Err(Refusal::new(
            "check.env",
            word.value.clone(),
            format!("`{name}+=` appends to the inherited value, which needs a shell"),
            format!("assign the full value, e.g. `{name}=value`"),
        ));
    }
    Ok((name, value))
}

fn redirect_refusal(r: &ast::IoRedirect) -> Refusal {
    Refusal::new(
        "check.redirect",
        r.to_string()
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string(),
        format!(
            "the redirection `{}` needs a shell and can write files outside the check",
            r.to_string().lines().next().unwrap_or("").trim()
        ),
        "drop the redirection: loopgate keeps each check's output (a bounded tail) in the receipt",
    )
}

/// The value a word passes to the program, or the refusal naming its dynamic part.
fn static_word(raw: &str) -> Result<String, Refusal> {
    match shell::decode(raw) {
        WordValue::Dynamic(part) => Err(dynamic_refusal(raw, &part.kind, &part.text)),
        WordValue::Static(s) => {
            if s.unquoted_line_break {
                return Err(Refusal::new(
                    "check.newline",
                    "\\r",
                    format!("the word `{}` holds a carriage return outside quotes, which hides what follows it on a terminal", raw.escape_debug()),
                    "remove the carriage return (save the file with Unix line endings)",
                ));
            }
            if let Some(pattern) = s.pattern {
                return Err(Refusal::new(
                    "check.glob",
                    raw.to_string(),
                    format!("`{raw}` holds the unquoted pattern `{pattern}`, which a shell expands to file names"),
                    format!("quote the word (`'{raw}'`) to pass it literally, or list the files explicitly"),
                ));
            }
            if s.tilde {
                return Err(Refusal::new(
                    "check.expansion",
                    raw.to_string(),
                    format!(
                        "`{raw}` starts with `~`, which only a shell expands to the home directory"
                    ),
                    "use a path inside the repository",
                ));
            }
            Ok(s.value)
        }
    }
}

fn dynamic_refusal(raw: &str, kind: &DynamicKind, part: &str) -> Refusal {
    match kind {
        DynamicKind::CommandSubstitution | DynamicKind::Backticks => Refusal::new(
            "check.substitution",
            part.to_string(),
            format!("the {} `{part}` in `{raw}` runs a hidden command", kind.describe()),
            SCRIPT,
        ),
        DynamicKind::Unparsable => Refusal::new(
            "check.syntax",
            raw.to_string(),
            format!("the word `{raw}` does not parse"),
            "fix the quoting",
        ),
        _ => Refusal::new(
            "check.expansion",
            part.to_string(),
            format!("the {} `{part}` in `{raw}` needs a shell; its value is not known when the check is vetted", kind.describe()),
            "write the value literally, or read it inside a script file in the repository",
        ),
    }
}
