//! A test that prints a banner: `console.error('***** reruns once (add) *****')`.
//!
//! The runner already announces every test it runs and reports what failed. A banner
//! printed from inside a test, a string framed by a run of the same punctuation, is there
//! to find that test's part of a long log while one follows a run by hand: a trace left
//! from debugging, whatever channel it writes to. Outside tests a banner is what scripts
//! print to head their report (`========== SUMMARY ==========`), so only test files count.

/// Characters a banner is framed with.
const FRAMES: &[char] = &['*', '=', '#', '-', '~', '+'];

/// Whether the print call opening on line `number` (1-based) of `lines` prints a banner:
/// its only argument, on this line or the next few (a call wrapped by a formatter), is one
/// string literal whose text, escapes for line breaks and spaces aside, begins and ends
/// with a run of at least three of the same framing character.
pub fn prints_a_banner(lines: &[&str], number: usize, print: &str) -> bool {
    let Some(first) = number.checked_sub(1).and_then(|i| lines.get(i)) else {
        return false;
    };
    let Some(at) = first.find(print) else {
        return false;
    };
    let mut call = first[at + print.len()..].to_string();
    let opened = call.trim_start().starts_with('(');
    for next in lines.iter().skip(number).take(3) {
        if !opened || call.trim_end().trim_end_matches(';').ends_with(')') {
            break;
        }
        call.push_str(next.trim());
    }
    let call = call.trim().trim_end_matches(';');
    // `puts "..."` needs no parentheses.
    let arg = match call.strip_prefix('(') {
        Some(args) => match args.strip_suffix(')') {
            Some(args) => args,
            None => return false,
        },
        None => call,
    };
    let arg = arg.trim().trim_end_matches(',').trim_end();
    let Some(quote) = arg.chars().next().filter(|c| matches!(c, '\'' | '"' | '`')) else {
        return false;
    };
    let Some(text) = arg[1..].strip_suffix(quote) else {
        return false;
    };
    if text.contains(quote) {
        return false;
    }
    let text = text.replace("\\n", " ").replace("\\r", " ");
    framed(text.trim())
}

fn framed(text: &str) -> bool {
    let Some(c) = text.chars().next().filter(|c| FRAMES.contains(c)) else {
        return false;
    };
    let run = |s: &mut dyn Iterator<Item = char>| s.take_while(|x| *x == c).count();
    run(&mut text.chars()) >= 3
        && run(&mut text.chars().rev()) >= 3
        && text.chars().any(|x| x.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_framed_by_punctuation_is_a_banner() {
        let wrapped = [
            "    console.error(",
            "      `\\n***** reruns once if file events occur (${event}) *****\\n`,",
            "    );",
        ];
        assert!(prints_a_banner(&wrapped, 1, "console.error"));
        assert!(prints_a_banner(
            &["console.log('=== parse ===');"],
            1,
            "console.log"
        ));
        assert!(prints_a_banner(&["  puts \"### step ###\""], 1, "puts"));
    }

    #[test]
    fn other_prints_are_not() {
        for line in [
            "console.log('*** warning', err);",
            "console.log('skipping on windows');",
            "console.log('=====');",
            "console.log(`*** ${a} ***`, b);",
            "console.log('a' + '=== b ===');",
            "console.log('--- a');",
        ] {
            assert!(!prints_a_banner(&[line], 1, "console.log"), "{line}");
        }
    }
}
