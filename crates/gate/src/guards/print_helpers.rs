//! A function whose whole work is the print: `RGraph.Timer = function (label) { var d =
//! new Date(); console.log(label + ': ' + d.getSeconds()) }`.
//!
//! A print left from debugging sits among the statements of code that does something else.
//! A function whose body is only the print, with at most local values prepared for it, and
//! that prints what its caller hands it (a parameter), exists to print: a logging or timing
//! helper of the library, where output is its job. Whoever calls it decides when to print;
//! the helper itself is no leftover. A function that does anything else (a call for its
//! effect, a branch, a `return`), or prints nothing it was given, keeps its print a finding.
//! Tests keep their own rules: there a callback printing what it receives
//! (`completions.forEach(c => { console.log(c) })`) is a value dumped to look at it, or the
//! test's idiom of printing for a captured console (see `debug::repeats_a_kept_line`).

/// Whether the print on line `number` (1-based) of `lines` is the whole body of its
/// function, read from the lines around it: above, up to the function's header, only blank
/// lines, comments, a lone `{` and local declarations (`var d = new Date();`, `x := f()`);
/// below, the block closes; and the print names one of the header's parameters.
pub fn prints_for_its_function(lines: &[&str], number: usize) -> bool {
    let Some(at) = number.checked_sub(1) else {
        return false;
    };
    let Some(print) = lines.get(at) else {
        return false;
    };
    let closes = lines
        .iter()
        .skip(number)
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && !is_comment(l))
        .is_some_and(|l| l.starts_with('}'));
    if !closes {
        return false;
    }
    for line in lines[..at].iter().rev() {
        let t = line.trim();
        if t.is_empty() || is_comment(t) || t == "{" || local_declaration(t) {
            continue;
        }
        return parameters(t)
            .is_some_and(|params| words(print).any(|w| params.iter().any(|p| p == w)));
    }
    false
}

fn is_comment(t: &str) -> bool {
    t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') || t.starts_with('#')
}

/// A declaration of a local value on one line: `var d = new Date();`, `const s = f(x)`,
/// Go's `d := time.Now()`.
fn local_declaration(t: &str) -> bool {
    let declared = ["var ", "let ", "const "].iter().any(|k| t.starts_with(k)) || t.contains(":=");
    declared && !t.ends_with('{') && !t.ends_with('(')
}

/// The parameter names of a function header (`function (label) {`, `function t(a, b)`,
/// `func trace(format string, a ...any) {`, `(label) => {`), or `None` when the line is
/// not one.
fn parameters(t: &str) -> Option<Vec<String>> {
    let header = t.trim_end_matches('{').trim_end();
    let list = if let Some(arrow) = header.strip_suffix("=>") {
        let arrow = arrow.trim_end();
        if !arrow.ends_with(')') {
            // One parameter needs no parentheses: `label => {`.
            let last = arrow
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .next()
                .filter(|w| !w.is_empty())?;
            return Some(vec![last.to_string()]);
        }
        arrow
    } else {
        let opens = words(header).any(|w| w == "function" || w == "func");
        if !opens || !header.ends_with(')') {
            return None;
        }
        header
    };
    let list = list.strip_suffix(')')?;
    let open = list.rfind('(')?;
    Some(
        list[open + 1..]
            .split(',')
            .filter_map(|p| words(p).next().map(str::to_string))
            .collect(),
    )
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper(text: &str, number: usize) -> bool {
        let lines: Vec<&str> = text.lines().collect();
        prints_for_its_function(&lines, number)
    }

    #[test]
    fn a_function_that_only_prints_what_it_is_given_is_a_helper() {
        let timer = "RGraph.Timer = function (label)\n{\n    var d = new Date();\n\n    // the console\n    console.log(label + ': ' + d.getSeconds());\n}";
        assert!(helper(timer, 6));
        assert!(helper(
            "function trace(msg) {\n  console.log('[trace] ' + msg);\n}",
            2
        ));
        assert!(helper("const show = (v) => {\n  console.log(v);\n};", 2));
        assert!(helper(
            "list.forEach(item => {\n  console.log(item);\n});",
            2
        ));
        assert!(helper(
            "func trace(format string, a ...any) {\n\tprintln(fmt.Sprintf(format, a...))\n}",
            2
        ));
    }

    #[test]
    fn a_print_among_other_work_is_not() {
        // Another statement before it.
        assert!(!helper(
            "function save(x) {\n  db.write(x);\n  console.log(x);\n}",
            3
        ));
        // More after it.
        assert!(!helper(
            "function f(x) {\n  console.log(x);\n  return x * 2;\n}",
            2
        ));
        // Prints nothing it was given.
        assert!(!helper("function f(x) {\n  console.log(state);\n}", 2));
        // Inside a branch, not a function.
        assert!(!helper("if (x) {\n  console.log(x);\n}", 2));
    }
}
