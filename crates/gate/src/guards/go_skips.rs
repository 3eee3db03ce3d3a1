//! Go calls spelt like a skip that skip no test.
//!
//! `t.Skip()` stops a test only when `t` is the test's `*testing.T` (or `B`, `F`). Two
//! shapes read the same and are something else:
//! - a package-qualified call, `zap.Skip()`: `zap` is a package the file imports, and its
//!   `Skip` is that package's function (here a no-op log field), not a test's method;
//! - a skip inside the function given to a fuzz target's `f.Fuzz(func(t *testing.T, ..) {..})`:
//!   the fuzzing engine calls it once per generated input, and a `t.Skip()` there rejects an
//!   input outside the property under test. The target and every input inside the
//!   property still run; the seed corpus is the same inputs either way.

use super::languages::Lang;
use super::lexer::lex;

/// Whether the Go skip `label` (`x.Skip(`) on line `line` (1-based) of `text` is no
/// skipped test: its receiver is a package the file imports, or it stands inside a fuzz
/// target's `f.Fuzz` callback.
pub fn skips_no_test(label: &str, line: u32, text: &str) -> bool {
    let Some((receiver, method)) = label.strip_suffix('(').and_then(|l| l.split_once('.')) else {
        return false;
    };
    if !["Skip", "Skipf", "SkipNow"].contains(&method) {
        return false;
    }
    imported_packages(text).iter().any(|p| p == receiver) || in_fuzz_callback(text, line)
}

/// The names a Go file's imports bind: an alias when given (`z "go.uber.org/zap"`), else
/// the last element of the path that is not a major version (`go.uber.org/zap` -> `zap`,
/// `github.com/a/b/v2` -> `b`, `gopkg.in/yaml.v3` -> `yaml`).
pub fn imported_packages(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for raw in text.lines() {
        let line = raw.trim();
        let spec = if in_block {
            if line.starts_with(')') {
                in_block = false;
                continue;
            }
            line
        } else if let Some(rest) = line.strip_prefix("import") {
            let rest = rest.trim_start();
            if let Some(inner) = rest.strip_prefix('(') {
                in_block = true;
                inner.trim()
            } else if rest.len() < line.len() - "import".len() || rest.starts_with('"') {
                rest
            } else {
                continue;
            }
        } else {
            continue;
        };
        if let Some(name) = bound_name(spec) {
            out.push(name);
        }
    }
    out
}

/// The name one import spec (`alias "path"` or `"path"`) binds; `_` and `.` bind none.
fn bound_name(spec: &str) -> Option<String> {
    let (alias, rest) = match spec.find('"') {
        Some(0) => (None, spec),
        Some(at) => (Some(spec[..at].trim()), &spec[at..]),
        None => return None,
    };
    let path = rest.strip_prefix('"')?.split('"').next()?;
    if let Some(a) = alias {
        let ident = !a.is_empty() && a.chars().all(|c| c.is_alphanumeric() || c == '_');
        return (ident && a != "_").then(|| a.to_string());
    }
    let is_version = |s: &str| {
        s.strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    let mut parts = path.rsplit('/');
    let mut last = parts.next()?;
    if is_version(last) {
        last = parts.next()?;
    }
    let last = match last.rsplit_once('.') {
        Some((stem, v)) if is_version(v) => stem,
        _ => last,
    };
    (!last.is_empty()).then(|| last.to_string())
}

/// Whether line `line` (1-based) of the Go source `text` lies in a function literal passed
/// to a `.Fuzz(` call: the innermost function around it opens on a line whose header
/// (the lines of an unclosed parameter list joined) reads `.Fuzz(func`.
pub fn in_fuzz_callback(text: &str, line: u32) -> bool {
    let views = lex(&Lang::Go.syntax(), text, usize::MAX);
    let Some(at) = (line as usize).checked_sub(1).filter(|&i| i < views.len()) else {
        return false;
    };
    let mut depth = 0usize;
    for i in (0..at).rev() {
        let code = &views[i].code;
        for c in code.chars().rev() {
            match c {
                '}' => depth += 1,
                '{' if depth > 0 => depth -= 1,
                '{' => {
                    let header = header_of(&views, i);
                    if has_word(&header, "func") {
                        return header.replace(' ', "").contains(".Fuzz(func");
                    }
                }
                _ => {}
            }
        }
    }
    false
}

/// The code of line `i` joined with the lines before it while its parentheses are not
/// balanced: a parameter list wrapped over several lines.
fn header_of(views: &[super::lexer::LineView], i: usize) -> String {
    let mut header = views[i].code.clone();
    let mut k = i;
    let open = |s: &str| {
        s.chars().filter(|&c| c == '(').count() as i64
            - s.chars().filter(|&c| c == ')').count() as i64
    };
    while open(&header) < 0 && k > 0 {
        k -= 1;
        header = format!("{} {}", views[k].code, header);
    }
    header
}

fn has_word(hay: &str, word: &str) -> bool {
    super::tokens::has_word(hay, word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_bind_their_alias_or_last_path_element() {
        let text = "package x\n\nimport \"testing\"\nimport (\n\t\"go.uber.org/zap\"\n\tz \"go.uber.org/zap/zapcore\"\n\t_ \"embed\"\n\t\"github.com/a/b/v2\"\n\t\"gopkg.in/yaml.v3\"\n)\n";
        assert_eq!(
            imported_packages(text),
            ["testing", "zap", "z", "b", "yaml"]
        );
    }

    #[test]
    fn a_package_call_is_no_skip_and_a_test_receiver_is() {
        let text = "package x\n\nimport \"go.uber.org/zap\"\n\nfunc TestA(t *testing.T) {\n\tt.Skip()\n\t_ = zap.Skip()\n}\n";
        assert!(skips_no_test("zap.Skip(", 7, text));
        assert!(!skips_no_test("t.Skip(", 6, text));
    }

    #[test]
    fn a_skip_in_a_fuzz_callback_filters_inputs_and_one_beside_it_does_not() {
        let text = "func FuzzX(f *testing.F) {\n\tif short {\n\t\tf.Skip()\n\t}\n\tf.Fuzz(func(t *testing.T,\n\t\tb []byte) {\n\t\tif !ok(b) {\n\t\t\tt.Skip()\n\t\t}\n\t\tcheck := func() {\n\t\t\tt.Skip()\n\t\t}\n\t})\n}\n";
        assert!(in_fuzz_callback(text, 8));
        assert!(!in_fuzz_callback(text, 3));
        // A function literal of its own inside the callback is some other function.
        assert!(!in_fuzz_callback(text, 11));
        let test = "func TestX(t *testing.T) {\n\tif short {\n\t\tt.Skip()\n\t}\n}\n";
        assert!(!in_fuzz_callback(test, 3));
    }
}
