//! A test of the assumption API itself. A JVM test class is named after what it tests
//! (`AssumptionTest`, `Assumptions_assumeThat_with_various_types_Test`,
//! `RecursiveComparisonAssert_assumptions_Test`): in a class whose name says it tests
//! assumptions, `assumeThat(..)` and its kin are the calls under test, each checked for
//! throwing or not (`expectAssumptionNotMetException(() -> assumeThat(x)..)`), not a test
//! switched off where the environment lacks something. Other skips in such a class
//! (`@Disabled`) are skips as anywhere.

use super::skips::is_assumption;

/// Whether `label` is an assumption call in the file at `path` whose name (its stem, in
/// words split at `_` and at a capital letter) holds a word that starts with `assum`.
pub fn under_test(label: &str, path: &str) -> bool {
    if !is_assumption(label) {
        return false;
    }
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    words(stem)
        .iter()
        .any(|w| w.to_lowercase().starts_with("assum"))
}

/// `RecursiveComparisonAssert_assumptions_Test` -> `Recursive`, `Comparison`, `Assert`,
/// `assumptions`, `Test`.
fn words(stem: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in stem.split(|c: char| !c.is_alphanumeric()) {
        let mut current = String::new();
        for c in part.chars() {
            if c.is_uppercase() && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_named_for_assumptions_tests_them() {
        for path in [
            "src/test/java/org/x/AssumptionTest.java",
            "a/src/test/java/Assumptions_assumeThat_with_various_types_Test.java",
            "b/RecursiveComparisonAssert_assumptions_Test.java",
            "c/AssumeTest.kt",
        ] {
            assert!(under_test("assumeThat(", path), "{path}");
        }
    }

    #[test]
    fn other_classes_and_other_skips_are_skips() {
        assert!(!under_test(
            "assumeTrue(",
            "src/test/java/org/x/LinuxOnlyTest.java"
        ));
        assert!(!under_test(
            "assumeTrue(",
            "src/test/java/org/x/MeasurementTest.java"
        ));
        assert!(!under_test(
            "@Disabled",
            "src/test/java/org/x/AssumptionTest.java"
        ));
    }
}
