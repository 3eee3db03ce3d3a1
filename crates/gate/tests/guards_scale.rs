//! Scale check: the guards stay linear on large inputs. Prints figures; asserts only the
//! results, never a time (run with `cargo test --release -p gate --test guards_scale --
//! --ignored --nocapture` to see the numbers).

mod guards {
    use gate::config::GuardsConfig;
    use gate::guards::{count_tests, is_test_path, run_guards, DeltaKind, FileDelta, Line};
    use std::time::Instant;

    const BODY: &[(&str, &str)] = &[
        (
            "test/m{i}.test.js",
            "test('a{n}', () => {{ assert.equal(sum({n}, 1), {n} + 1); }});",
        ),
        (
            "pkg/m{i}_test.py",
            "def test_{n}():\n    assert add({n}, 1) == {n} + 1  # checks {n}",
        ),
        (
            "src/m{i}.rs",
            "#[test]\nfn t{n}() {{ assert_eq!(f({n}), \"{n}\"); }}",
        ),
        (
            "internal/m{i}_test.go",
            "func Test{n}(t *testing.T) {{ if f({n}) != {n} {{ t.Fatal(\"x\") }} }}",
        ),
    ];

    fn file(i: usize, lines: usize) -> FileDelta {
        let (path, unit) = BODY[i % BODY.len()];
        let path = path.replace("{i}", &i.to_string());
        let text: String = (0..lines / 2)
            .map(|n| {
                unit.replace("{n}", &n.to_string())
                    .replace("{{", "{")
                    .replace("}}", "}")
                    + "\n"
            })
            .collect();
        let added_lines = text
            .lines()
            .enumerate()
            .filter(|(n, _)| n % 10 == 0)
            .map(|(n, t)| Line {
                number: n as u32 + 1,
                text: t.to_string(),
            })
            .collect();
        FileDelta {
            old_counts: Some(count_tests(&path, &text)),
            path,
            kind: DeltaKind::Modified,
            added_lines,
            removed_lines: Vec::new(),
            old_text: None,
            new_text: Some(text),
        }
    }

    #[test]
    #[ignore = "prints figures; run on demand"]
    fn guards_scale_figures() {
        let cfg = GuardsConfig::default();
        // Any one-time cost a fresh hook process pays before the first test-path query.
        let start = Instant::now();
        assert!(is_test_path("a.test.js", &[]));
        println!(
            "guards: first test-path query (one-time setup): {:.2} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
        for (files, lines) in [(20, 800), (2_000, 200), (200, 2_000), (1, 100_000)] {
            let deltas: Vec<FileDelta> = (0..files).map(|i| file(i, lines)).collect();
            let total_lines: usize = deltas
                .iter()
                .map(|d| d.new_text.as_ref().map_or(0, |t| t.lines().count()))
                .sum();
            let added: usize = deltas.iter().map(|d| d.added_lines.len()).sum();
            let start = Instant::now();
            let reports = run_guards(&deltas, &cfg);
            let took = start.elapsed();
            assert!(
                reports.iter().all(|r| r.findings.is_empty()),
                "{reports:#?}"
            );
            println!(
                "guards: {files} changed files, {total_lines} lines of text, {added} added lines: {:.1} ms",
                took.as_secs_f64() * 1e3
            );
        }
    }
}
