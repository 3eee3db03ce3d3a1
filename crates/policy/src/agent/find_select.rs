//! Which gate files a `find` expression may hand to its action (`-delete`, `-exec`).
//!
//! Only tests that can be read statically narrow the set: `-name`/`-iname` (the file's own
//! name) and `-path`/`-ipath`/`-wholename` (the path as find prints it, where `*` crosses
//! `/`). Anything else (`-type`, `-newer`, `-regex`, a negated test, grouping) cannot rule
//! a gate file out, so it leaves every gate file below the root selected; with `-o`, what
//! any branch selects is selected. `find . -type f -delete` and `find . ! -name src -exec rm -rf {} +`
//! therefore reach `loopgate.toml`; `find . -name '*.o' -delete` does not.

use super::args::Arg;
use globset::GlobBuilder;

#[derive(Debug)]
enum Test {
    Name { pattern: String, fold_case: bool },
    Path { pattern: String, fold_case: bool },
}

/// The narrowing tests of one expression, per `-o` branch (a branch selects a path when
/// all its narrowing tests do; the expression when any branch does).
#[derive(Debug)]
pub(crate) struct Selection {
    branches: Vec<Vec<Test>>,
}

impl Selection {
    pub(crate) fn of(expr: &[Arg]) -> Selection {
        let mut branches: Vec<Vec<Test>> = vec![Vec::new()];
        let mut negated = false;
        let mut i = 0;
        while i < expr.len() {
            let t = expr[i].text();
            i += 1;
            match t {
                Some("!" | "-not") => {
                    negated = !negated;
                    continue;
                }
                // Grouping could put a narrowing test under a negation: nothing narrows.
                Some("(" | ")") => {
                    return Selection {
                        branches: vec![Vec::new()],
                    }
                }
                Some("-o" | "-or") => branches.push(Vec::new()),
                Some(
                    op @ ("-name" | "-iname" | "-path" | "-ipath" | "-wholename" | "-iwholename"),
                ) => {
                    let value = expr.get(i).and_then(|a| a.text()).map(str::to_string);
                    i += 1;
                    // A negated test, or one whose value only the shell knows, rules
                    // nothing out.
                    if let Some(pattern) = value.filter(|_| !negated) {
                        let fold_case = op.starts_with("-i");
                        let test = if matches!(op, "-name" | "-iname") {
                            Test::Name { pattern, fold_case }
                        } else {
                            Test::Path { pattern, fold_case }
                        };
                        if let Some(b) = branches.last_mut() {
                            b.push(test);
                        }
                    }
                }
                _ => {}
            }
            negated = false;
        }
        Selection { branches }
    }

    /// Whether a path find prints as `printed` (its last component `name`) may be handed to
    /// the action, or be a directory above such a path.
    pub(crate) fn selects(&self, printed: &str, name: &str) -> bool {
        self.branches.iter().any(|tests| {
            tests.iter().all(|t| match t {
                Test::Name { pattern, fold_case } => glob_matches(pattern, name, *fold_case, true),
                Test::Path { pattern, fold_case } => path_may_select(pattern, printed, *fold_case),
            })
        })
    }
}

fn glob_matches(pattern: &str, text: &str, fold_case: bool, literal_separator: bool) -> bool {
    match GlobBuilder::new(pattern)
        .literal_separator(literal_separator)
        .case_insensitive(fold_case)
        .backslash_escape(true)
        .build()
    {
        Ok(g) => g.compile_matcher().is_match(text),
        // A pattern globset cannot read may select anything.
        Err(_) => true,
    }
}

/// `-path PATTERN` may select `printed` itself or something inside it (files in a gate
/// directory have names loopgate cannot know): the pattern matches the path, or its
/// literal beginning (before the first wildcard) lies on the path or inside it.
fn path_may_select(pattern: &str, printed: &str, fold_case: bool) -> bool {
    if glob_matches(pattern, printed, fold_case, false) {
        return true;
    }
    let literal: String = pattern
        .chars()
        .take_while(|c| !matches!(c, '*' | '?' | '[' | '\\'))
        .collect();
    let (literal, printed) = if fold_case {
        (literal.to_lowercase(), printed.to_lowercase())
    } else {
        (literal, printed.to_string())
    };
    let dir = format!("{printed}/");
    printed.starts_with(&literal) || dir.starts_with(&literal) || literal.starts_with(&dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sel(words: &[&str]) -> Selection {
        let args: Vec<Arg> = words.iter().map(|w| Arg::literal(w)).collect();
        Selection::of(&args)
    }

    #[test]
    fn only_name_and_path_tests_narrow() {
        assert!(!sel(&["-name", "*.o"]).selects("./loopgate.toml", "loopgate.toml"));
        assert!(sel(&["-name", "*.toml"]).selects("./loopgate.toml", "loopgate.toml"));
        assert!(sel(&["-type", "f"]).selects("./loopgate.toml", "loopgate.toml"));
        assert!(sel(&["!", "-name", "src"]).selects("./loopgate.toml", "loopgate.toml"));
        assert!(sel(&["-regex", ".*o"]).selects("./loopgate.toml", "loopgate.toml"));
        assert!(!sel(&["-path", "./build/*"]).selects("./loopgate.toml", "loopgate.toml"));
        assert!(sel(&["-path", "./.loopgate/*"]).selects("./.loopgate", ".loopgate"));
        assert!(sel(&["-path", "*/.claude/*"]).selects("./.claude", ".claude"));
        assert!(
            !sel(&["-name", "*.tmp", "-not", "-path", "./.git/*"]).selects("./.git/hooks", "hooks")
        );
        let pruned = sel(&["-path", "./target", "-prune", "-o", "-name", "*.rs"]);
        assert!(!pruned.selects("./loopgate.toml", "loopgate.toml"));
        assert!(sel(&["-path", "./src", "-prune", "-o", "-type", "f"])
            .selects("./loopgate.toml", "loopgate.toml"));
    }
}
