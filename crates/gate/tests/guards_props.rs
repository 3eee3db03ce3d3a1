//! Properties of the guards over arbitrary input: never panic, stay deterministic, keep
//! snippets bounded, and never find a marker that was only inside a string literal.

mod guards {
    use gate::config::GuardsConfig;
    use gate::guards::{count_tests, run_guards, DeltaKind, FileDelta, Line, TestCounts};
    use proptest::prelude::*;

    const PATHS: &[&str] = &[
        "src/a.test.js",
        "tests/test_a.py",
        "a_test.go",
        "src/lib.rs",
        "src/test/java/ATest.java",
        "A.kt",
        "spec/a_spec.rb",
        "test/a_test.exs",
        "ATests.cs",
        "tests/ATest.php",
        "ATests.swift",
        "a_test.cc",
        "run.sh",
        "README.md",
    ];

    fn delta(path: &str, text: &str) -> FileDelta {
        FileDelta {
            path: path.into(),
            kind: DeltaKind::Modified,
            added_lines: text
                .split('\n')
                .enumerate()
                .map(|(i, t)| Line {
                    number: i as u32 + 1,
                    text: t.into(),
                })
                .collect(),
            old_counts: Some(TestCounts { tests: 1, skips: 0 }),
            removed_lines: Vec::new(),
            old_text: None,
            new_text: Some(text.into()),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn guards_never_panic_and_are_deterministic(
            text in "(?s).{0,400}",
            noise in "[ -~\\n'\"`#/*\\\\]{0,200}",
            which in 0usize..14,
        ) {
            let path = PATHS[which];
            let body = format!("{text}{noise}");
            let _ = count_tests(path, &body);
            // The same file again with the noise as what the change removed: the change
            // accounting (moves, rewrites, widening) sees arbitrary text on both sides.
            let old = format!("{noise}{text}");
            let mut rewritten = delta(path, &body);
            rewritten.removed_lines = delta(path, &old).added_lines;
            rewritten.old_text = Some(old);
            let deltas = [delta(path, &body), rewritten];
            let a = run_guards(&deltas, &GuardsConfig::default());
            let b = run_guards(&deltas, &GuardsConfig::default());
            prop_assert_eq!(&a, &b);
            for r in &a {
                for f in &r.findings {
                    prop_assert!(f.snippet.chars().count() <= 201);
                    prop_assert!(!f.message.is_empty());
                }
            }
        }

        #[test]
        fn guards_markers_inside_strings_are_not_markers(
            marker in prop::sample::select(vec![
                "it.skip(x)", "test.only(x)", "console.log(x)", "debugger;", "xit(x)",
            ]),
        ) {
            let text = format!("const s = \"{marker}\";\nconst t = '{marker}';\n");
            let deltas = [delta("src/a.test.js", &text)];
            for r in run_guards(&deltas, &GuardsConfig::default()) {
                prop_assert!(r.findings.iter().all(|f| f.line.is_none()), "{}: {:?}", r.name, r.findings);
            }
        }
    }
}
