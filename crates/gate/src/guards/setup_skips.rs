//! A skip in a setup hook (`def setup`, `setUp`, `beforeEach`, `@BeforeEach`, RSpec's
//! `before`) runs before every test of its class or group and skips them all. The same skip
//! statement taken out of the hook and written into some of those tests skips fewer tests
//! than before: each test that carries it now was skipped already, and the others run
//! again. Such a skip disables nothing that ran.

use std::collections::HashSet;

/// The line as compared: trimmed, inner runs of whitespace as one space.
fn normal(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Whether a (trimmed) line opens a setup hook's body, or is the annotation that makes the
/// next declaration one.
fn opens_hook(t: &str) -> (bool, bool) {
    const HEADS: &[&str] = &[
        "def setup",
        "def setUp",
        "def setup_method",
        "before do",
        "before {",
        "before(:each)",
        "before(:all)",
        "beforeEach(",
        "beforeAll(",
        "before(",
    ];
    const ANNOTATIONS: &[&str] = &["@BeforeEach", "@Before", "@BeforeAll", "@BeforeClass"];
    let head = HEADS.iter().any(|h| {
        t.strip_prefix(h).is_some_and(|rest| {
            // A name must end where the head does (`def setup`, not `def setup_db`).
            let word = |c: char| c.is_alphanumeric() || c == '_';
            !(h.ends_with(word) && rest.starts_with(word))
        })
    });
    let annotation = ANNOTATIONS.iter().any(|a| {
        t.strip_prefix(a)
            .is_some_and(|r| r.is_empty() || r.starts_with([' ', '(']))
    });
    (head, annotation)
}

/// The lines (normalised) inside the bodies of the setup hooks of `text`: those after a
/// hook's opening line that are indented deeper than it, up to the first that is not.
fn in_hooks(text: &str) -> HashSet<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = HashSet::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        let (head, annotation) = opens_hook(t);
        if !head && !annotation {
            i += 1;
            continue;
        }
        let mut at = i;
        if annotation && !head {
            // The declaration the annotation is on.
            at = i + 1;
            while at < lines.len() && lines[at].trim().starts_with('@') {
                at += 1;
            }
            if at >= lines.len() {
                break;
            }
        }
        let base = indent(lines[at]);
        let mut j = at + 1;
        while j < lines.len() {
            let l = lines[j];
            if !l.trim().is_empty() {
                if indent(l) <= base {
                    break;
                }
                out.insert(normal(l));
            }
            j += 1;
        }
        i = j.max(i + 1);
    }
    out
}

/// Whether the skip on `line`, added to a file whose text was `old` and is `new`, was in a
/// setup hook of the old text, is in none of the new one, and now stands on fewer lines
/// than the old file held tests (`old_tests`): the skip was narrowed to some of them.
pub fn narrowed(line: &str, old: &str, new: &str, old_tests: u32) -> bool {
    let skip = normal(line);
    if skip.is_empty() || !in_hooks(old).contains(&skip) || in_hooks(new).contains(&skip) {
        return false;
    }
    let carried = new.split('\n').filter(|l| normal(l) == skip).count();
    carried > 0 && (carried as u64) < u64::from(old_tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "class T < Minitest::Test\n  def setup\n    skip(\"wip\")\n  end\n\n  def test_a\n    a\n  end\n\n  def test_b\n    b\n  end\n\n  def test_c\n    c\n  end\nend\n";

    #[test]
    fn a_setup_skip_written_into_fewer_tests_is_narrowed() {
        let new = "class T < Minitest::Test\n  def test_a\n    skip(\"wip\")\n    a\n  end\n\n  def test_b\n    b\n  end\n\n  def test_c\n    c\n  end\nend\n";
        assert!(narrowed("    skip(\"wip\")", OLD, new, 3));
    }

    #[test]
    fn a_skip_on_every_test_another_skip_or_one_still_in_setup_is_not() {
        let every = "class T\n  def test_a\n    skip(\"wip\")\n  end\n  def test_b\n    skip(\"wip\")\n  end\n  def test_c\n    skip(\"wip\")\n  end\nend\n";
        assert!(!narrowed("    skip(\"wip\")", OLD, every, 3));
        let other = "class T\n  def test_a\n    skip(\"other\")\n  end\nend\n";
        assert!(!narrowed("    skip(\"other\")", OLD, other, 3));
        let kept = "class T\n  def setup\n    skip(\"wip\")\n  end\n  def test_a\n    skip(\"wip\")\n  end\nend\n";
        assert!(!narrowed("    skip(\"wip\")", OLD, kept, 3));
    }

    #[test]
    fn hooks_of_other_languages_are_read() {
        let java = "class T {\n  @BeforeEach\n  void init() {\n    assumeTrue(ci);\n  }\n  @Test void a() {}\n}\n";
        assert!(in_hooks(java).contains("assumeTrue(ci);"));
        let js =
            "describe('x', () => {\n  beforeEach(function () {\n    this.skip();\n  });\n});\n";
        assert!(in_hooks(js).contains("this.skip();"));
        assert!(!in_hooks("def setup_thing\n  skip\nend\n").contains("skip"));
    }
}
