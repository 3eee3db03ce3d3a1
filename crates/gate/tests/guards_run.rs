//! The guards through their public entry point, on deltas shaped as the done gate builds
//! them from a real tree.

mod guards {
    use gate::config::{GuardsConfig, Level};
    use gate::guards::{
        count_tests, is_test_path, run_guards, DeltaKind, FileDelta, GuardReport, GuardStatus,
        Line, TestCounts, DELTA_GUARDS,
    };

    fn lines(first: u32, text: &str) -> Vec<Line> {
        text.lines()
            .enumerate()
            .map(|(i, t)| Line {
                number: first + i as u32,
                text: t.to_string(),
            })
            .collect()
    }

    /// A new file: every line added.
    fn added(path: &str, text: &str) -> FileDelta {
        FileDelta {
            path: path.into(),
            kind: DeltaKind::Added,
            added_lines: lines(1, text),
            old_counts: None,
            removed_lines: Vec::new(),
            old_text: None,
            new_text: Some(text.into()),
        }
    }

    /// A changed file whose old version was `old` and new version `new`, with the given
    /// lines (1-based numbers in `new`) added.
    fn modified(path: &str, old: &str, new: &str, added_at: &[u32]) -> FileDelta {
        let new_lines: Vec<&str> = new.lines().collect();
        FileDelta {
            path: path.into(),
            kind: DeltaKind::Modified,
            added_lines: added_at
                .iter()
                .map(|&n| Line {
                    number: n,
                    text: new_lines[n as usize - 1].to_string(),
                })
                .collect(),
            old_counts: Some(count_tests(path, old)),
            removed_lines: Vec::new(),
            old_text: None,
            new_text: Some(new.into()),
        }
    }

    fn deleted(path: &str, old: &str) -> FileDelta {
        FileDelta {
            path: path.into(),
            kind: DeltaKind::Deleted,
            added_lines: Vec::new(),
            old_counts: Some(count_tests(path, old)),
            removed_lines: lines(1, old),
            old_text: Some(old.into()),
            new_text: None,
        }
    }

    fn renamed(from: &str, to: &str, old: &str, new: &str) -> FileDelta {
        FileDelta {
            path: to.into(),
            kind: DeltaKind::Renamed { from: from.into() },
            added_lines: Vec::new(),
            old_counts: Some(count_tests(from, old)),
            removed_lines: Vec::new(),
            old_text: None,
            new_text: Some(new.into()),
        }
    }

    fn report<'a>(reports: &'a [GuardReport], name: &str) -> &'a GuardReport {
        reports.iter().find(|r| r.name == name).expect(name)
    }

    fn run(deltas: &[FileDelta]) -> Vec<GuardReport> {
        run_guards(deltas, &GuardsConfig::default())
    }

    const JS_TESTS: &str =
        "import test from 'node:test';\ntest('a', () => {});\ntest('b', () => {});\n";

    #[test]
    fn guards_report_in_a_stable_order_and_pass_on_clean_work() {
        let reports = run(&[added("src/sum.js", "export const sum = (a, b) => a + b;\n")]);
        let names: Vec<&str> = reports.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, DELTA_GUARDS);
        assert!(
            reports.iter().all(|r| r.status == GuardStatus::Pass),
            "{reports:#?}"
        );
        assert!(run(&[]).iter().all(|r| r.status == GuardStatus::Pass));
    }

    #[test]
    fn guards_levels_decide_status() {
        let delta = added("src/a.js", "// TODO: later\nconsole.log(1)\n");
        let reports = run(std::slice::from_ref(&delta));
        assert_eq!(report(&reports, "new_todos").status, GuardStatus::Warn);
        assert_eq!(
            report(&reports, "debug_artifacts").status,
            GuardStatus::Warn
        );
        let cfg = GuardsConfig {
            new_todos: Level::Off,
            debug_artifacts: Level::Fail,
            ..GuardsConfig::default()
        };
        let reports = run_guards(&[delta], &cfg);
        let todos = report(&reports, "new_todos");
        assert_eq!(todos.status, GuardStatus::Off);
        assert!(todos.findings.is_empty());
        assert_eq!(
            report(&reports, "debug_artifacts").status,
            GuardStatus::Fail
        );
    }

    #[test]
    fn guards_config_edits_cover_gate_files_and_ignore_exclude() {
        let cfg = GuardsConfig {
            exclude: vec!["loopgate.toml".into(), ".claude/**".into()],
            ..GuardsConfig::default()
        };
        let deltas = [
            modified(
                "loopgate.toml",
                "version = 1\n",
                "version = 1\n[guards]\nnew_skips = \"off\"\n",
                &[2, 3],
            ),
            added(".claude/settings.local.json", "{}\n"),
            renamed(".codex/hooks.json", "old-hooks.json", "{}", "{}"),
            added("docs/loopgate.toml", "version = 1\n"),
        ];
        let reports = run_guards(&deltas, &cfg);
        let r = report(&reports, "config_edits");
        assert_eq!(r.status, GuardStatus::Fail);
        let paths: Vec<&str> = r.findings.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            vec![
                ".claude/settings.local.json",
                ".codex/hooks.json",
                "loopgate.toml"
            ]
        );
        assert!(r.findings[2]
            .message
            .contains("belongs to the gate itself and was changed"));
        assert!(r.findings[1]
            .message
            .contains("renamed to `old-hooks.json`"));
    }

    #[test]
    fn guards_protected_edits_changed_deleted_created_and_shadowed() {
        let cfg = GuardsConfig {
            protect: vec![
                "jest.config.js".into(),
                "/.cargo/config.toml".into(),
                "ci/*.yml".into(),
            ],
            ..GuardsConfig::default()
        };
        let deltas = [
            modified("jest.config.js", "a\n", "b\n", &[1]),
            deleted(".cargo/config.toml", "x\n"),
            added("ci/extra.yml", "x: 1\n"),
            added("web/jest.config.ts", "export default {}\n"),
            added(".cargo/config", "[build]\n"),
            added("jest.setup.js", "x\n"),
            added("Cargo.lock", "x\n"),
        ];
        let reports = run_guards(&deltas, &cfg);
        let r = report(&reports, "protected_edits");
        let got: Vec<(&str, &str)> = r
            .findings
            .iter()
            .map(|f| (f.path.as_str(), f.message.as_str()))
            .collect();
        assert_eq!(got.len(), 5, "{got:#?}");
        assert!(
            got[0].0 == ".cargo/config"
                && got[0]
                    .1
                    .contains("shadows the protected `.cargo/config.toml`")
        );
        assert!(got[1].0 == ".cargo/config.toml" && got[1].1.contains("was deleted"));
        assert!(
            got[2].0 == "ci/extra.yml"
                && got[2]
                    .1
                    .contains("protected (by `ci/*.yml`) and was created")
        );
        assert!(got[3].0 == "jest.config.js" && got[3].1.contains("was changed"));
        assert!(
            got[4].0 == "web/jest.config.ts"
                && got[4]
                    .1
                    .contains("shadows the protected `web/jest.config.js`")
        );
    }

    #[test]
    fn guards_invalid_protect_glob_fails_closed() {
        let cfg = GuardsConfig {
            protect: vec!["a/[".into()],
            ..GuardsConfig::default()
        };
        let reports = run_guards(&[], &cfg);
        let r = report(&reports, "protected_edits");
        assert_eq!(r.status, GuardStatus::Fail);
        assert!(r.findings[0].message.contains("not a valid glob"));
    }

    #[test]
    fn guards_deleted_tests_deletion_rename_and_count_drop() {
        let fewer =
            "import test from 'node:test';\ntest('a', () => {});\n// test('b', () => {});\n";
        let deltas = [
            deleted("test/a.test.js", JS_TESTS),
            renamed("test/b.test.js", "test/b2.test.js", JS_TESTS, JS_TESTS),
            renamed("test/c.test.js", "lib/c.js", JS_TESTS, JS_TESTS),
            modified("test/d.test.js", JS_TESTS, fewer, &[3]),
            deleted("test/helpers.js", "export const h = 1;\n"),
            deleted("docs/old.md", "# test('x')\n"),
        ];
        let r = run(&deltas);
        let r = report(&r, "deleted_tests");
        assert_eq!(r.status, GuardStatus::Fail);
        let msgs: Vec<(&str, &str)> = r
            .findings
            .iter()
            .map(|f| (f.path.as_str(), f.message.as_str()))
            .collect();
        assert_eq!(msgs.len(), 3, "{msgs:#?}");
        assert_eq!(msgs[0].0, "lib/c.js");
        assert!(msgs[0]
            .1
            .contains("renamed to `lib/c.js`, which no test file pattern matches"));
        assert_eq!(msgs[1].0, "test/a.test.js");
        assert!(msgs[1].1.contains("was deleted with 2 tests"));
        assert_eq!(msgs[2].0, "test/d.test.js");
        assert!(msgs[2].1.contains("dropped from 2 to 1"));
        assert_eq!(r.findings[2].snippet, "test/d.test.js: tests 2 -> 1");
    }

    #[test]
    fn guards_deleted_tests_follow_renames_and_inline_rust_tests() {
        let old = "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {}\n    #[test]\n    fn b() {}\n}\n";
        let new = "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() {}\n}\n";
        let reports = run(&[
            modified("src/lib.rs", old, new, &[]),
            renamed("src/old.rs", "src/new.rs", old, old),
        ]);
        let r = report(&reports, "deleted_tests");
        assert_eq!(r.findings.len(), 1, "{:#?}", r.findings);
        assert!(r.findings[0]
            .message
            .contains("tests in `src/lib.rs` dropped from 2 to 1"));
    }

    #[test]
    fn guards_unreadable_test_file_fails_closed() {
        let mut d = modified("test/a.test.js", JS_TESTS, JS_TESTS, &[]);
        d.new_text = None;
        let reports = run(&[d]);
        let r = report(&reports, "deleted_tests");
        assert_eq!(r.status, GuardStatus::Fail);
        assert!(r.findings[0]
            .message
            .contains("can no longer be read as text"));
    }

    #[test]
    fn guards_new_skips_on_added_lines_with_line_and_snippet() {
        let new =
            "import test from 'node:test';\ntest.skip('a', () => {});\ntest('b', () => {});\n";
        let reports = run(&[modified("test/a.test.js", JS_TESTS, new, &[2])]);
        let r = report(&reports, "new_skips");
        assert_eq!(r.status, GuardStatus::Fail);
        assert_eq!(r.findings.len(), 1, "{:#?}", r.findings);
        let f = &r.findings[0];
        assert_eq!(f.path, "test/a.test.js");
        assert_eq!(f.line, Some(2));
        assert_eq!(f.snippet, "test.skip('a', () => {});");
        assert!(f.message.contains("a test skip marker was added"));
        assert!(f.message.contains("`test.skip`"));
    }

    #[test]
    fn guards_focus_marker_is_a_skip_with_its_own_message() {
        let reports = run(&[added(
            "src/a.spec.ts",
            "describe('x', () => {\n  it.only('y', () => {});\n});\n",
        )]);
        let f = &report(&reports, "new_skips").findings[0];
        assert!(f.message.contains("focus marker"), "{}", f.message);
    }

    #[test]
    fn guards_skip_count_rise_without_added_line_is_caught() {
        // The line was already dirty at baseline time, so it is not an added line, but
        // the file's skip count still rose.
        let new =
            "import test from 'node:test';\ntest.skip('a', () => {});\ntest('b', () => {});\n";
        let reports = run(&[modified("test/a.test.js", JS_TESTS, new, &[])]);
        let r = report(&reports, "new_skips");
        assert_eq!(r.findings.len(), 1);
        assert_eq!(r.findings[0].line, None);
        assert!(r.findings[0].message.contains("rose from 0 to 1"));
    }

    #[test]
    fn guards_markers_ignore_other_languages_strings_and_comments() {
        let reports = run(&[
            added(
                "README.md",
                "Use `it.skip(` sparingly. TODO: docs\n// eslint-disable\n",
            ),
            added("notes.txt", "console.log(x) debugger;\n"),
            added(
                "src/a.test.js",
                "const s = 'it.skip(x)';\nconst skipWhitespace = 1;\n",
            ),
        ]);
        for r in &reports {
            assert!(r.findings.is_empty(), "{}: {:#?}", r.name, r.findings);
        }
    }

    #[test]
    fn guards_whole_file_context_hides_lines_inside_block_comments() {
        let text = "/*\nit.skip('x', () => {})\nconsole.log(1)\n*/\n";
        let mut d = added("src/a.test.js", text);
        d.added_lines.retain(|l| l.number == 2 || l.number == 3);
        let reports = run(&[d]);
        assert!(report(&reports, "new_skips").findings.is_empty());
        assert!(report(&reports, "debug_artifacts").findings.is_empty());
    }

    #[test]
    fn guards_disabled_lint_todos_and_debug_are_reported() {
        let text = "import os  # noqa: F401\n# TODO: remove\nbreakpoint()\nprint('ok')\n";
        let reports = run(&[added("tool/run.py", text)]);
        let lint = report(&reports, "disabled_lint");
        assert_eq!(lint.status, GuardStatus::Fail);
        assert_eq!(lint.findings[0].line, Some(1));
        assert!(lint.findings[0].message.contains("suppression was added"));
        let todo = report(&reports, "new_todos");
        assert_eq!(todo.findings[0].line, Some(2));
        assert!(todo.findings[0].message.contains("`TODO`"));
        let debug = report(&reports, "debug_artifacts");
        assert_eq!(debug.findings.len(), 1, "{:#?}", debug.findings);
        assert_eq!(debug.findings[0].line, Some(3));
        assert!(debug.findings[0].message.contains("`breakpoint()`"));
    }

    #[test]
    fn guards_exclude_hides_paths_and_renames_across_it() {
        let cfg = GuardsConfig {
            exclude: vec!["vendor/".into()],
            ..GuardsConfig::default()
        };
        let reports = run_guards(
            &[
                added("vendor/lib/a.test.js", "it.skip('x', () => {})\n"),
                renamed("test/a.test.js", "vendor/a.test.js", JS_TESTS, JS_TESTS),
            ],
            &cfg,
        );
        assert!(report(&reports, "new_skips").findings.is_empty());
        let r = report(&reports, "deleted_tests");
        assert_eq!(r.findings.len(), 1);
        assert_eq!(r.findings[0].path, "test/a.test.js");
        assert!(r.findings[0].message.contains("was deleted"));
    }

    /// A changed file with both sides of its diff, as the done gate builds it.
    fn changed(path: &str, old: &str, new: &str) -> FileDelta {
        let (added, removed) = gate::comparison::line_changes(old, new);
        let as_lines = |v: Vec<(u32, String)>| {
            v.into_iter()
                .map(|(number, text)| Line { number, text })
                .collect()
        };
        FileDelta {
            path: path.into(),
            kind: DeltaKind::Modified,
            added_lines: as_lines(added),
            removed_lines: as_lines(removed),
            old_counts: Some(count_tests(path, old)),
            old_text: Some(old.into()),
            new_text: Some(new.into()),
        }
    }

    #[test]
    fn guards_account_for_the_change_and_give_counts() {
        let old = "import os  # noqa: F401\nx = 1  # type: ignore[attr]\n";
        // The import moved to another file; the type: ignore lost its scope; a new noqa.
        let new = "x = 1  # type: ignore\ny = 2  # noqa\n";
        let reports = run(&[
            changed("app/a.py", old, new),
            added("app/b.py", "import os   # noqa: F401\n"),
        ]);
        let lint = &report(&reports, "disabled_lint").findings;
        assert_eq!(lint.len(), 2, "{lint:#?}");
        assert_eq!((lint[0].path.as_str(), lint[0].line), ("app/a.py", Some(1)));
        assert!(
            lint[0].message.contains("widened")
                && lint[0]
                    .message
                    .contains("it was `x = 1  # type: ignore[attr]`")
                && lint[0]
                    .message
                    .ends_with("suppressions in `app/a.py`: 2 -> 2"),
            "{lint:#?}"
        );
        assert_eq!((lint[1].path.as_str(), lint[1].line), ("app/a.py", Some(2)));
        assert!(lint[1].message.contains("(`noqa`)"), "{lint:#?}");
    }

    #[test]
    fn guards_a_file_hidden_by_exclude_covers_no_marker_elsewhere() {
        // The skipped test went into the excluded area, where it still exists: the same
        // skip written in a visible file is new, not the hidden one moved.
        let cfg = GuardsConfig {
            exclude: vec!["vendor/".into()],
            ..GuardsConfig::default()
        };
        let skipped = "it.skip('slow', () => {});\n";
        let mut gone = renamed("test/a.test.js", "vendor/a.test.js", skipped, skipped);
        gone.removed_lines = lines(1, skipped);
        gone.old_text = Some(skipped.into());
        let reports = run_guards(&[gone, added("test/b.test.js", skipped)], &cfg);
        assert_eq!(report(&reports, "new_skips").findings.len(), 1);
        // Plainly deleted, its skip did move.
        let mut deleted = deleted("test/a.test.js", skipped);
        deleted.removed_lines = lines(1, skipped);
        let reports = run(&[deleted, added("test/b.test.js", skipped)]);
        assert!(report(&reports, "new_skips").findings.is_empty());
    }

    #[test]
    fn guards_extra_test_globs_make_test_only_markers_count() {
        let text = "class T < Minitest::Test\n  def test_x\n    skip 'flaky'\n  end\nend\n";
        assert!(report(&run(&[added("checks/x.rb", text)]), "new_skips")
            .findings
            .is_empty());
        let cfg = GuardsConfig {
            test_globs: vec!["checks/**".into()],
            ..GuardsConfig::default()
        };
        let reports = run_guards(&[added("checks/x.rb", text)], &cfg);
        assert_eq!(report(&reports, "new_skips").findings[0].line, Some(3));
        assert!(is_test_path("checks/x.rb", &cfg.test_globs));
        assert!(!is_test_path("checks/x.rb", &[]));
    }

    #[test]
    fn guards_count_tests_by_language() {
        assert_eq!(
            count_tests("test/a.test.js", JS_TESTS),
            TestCounts { tests: 2, skips: 0 }
        );
        assert_eq!(count_tests("README.md", JS_TESTS), TestCounts::default());
        assert_eq!(
            count_tests("a_test.go", "func TestA(t *testing.T) {\n\tt.Skip()\n}\n"),
            TestCounts { tests: 1, skips: 1 }
        );
    }

    #[test]
    fn guards_bad_input_never_panics() {
        let weird = FileDelta {
            path: String::new(),
            kind: DeltaKind::Modified,
            added_lines: vec![
                Line {
                    number: 0,
                    text: "it.skip(".into(),
                },
                Line {
                    number: u32::MAX,
                    text: "x".repeat(100_000),
                },
                Line {
                    number: 2,
                    text: "not the real line 2".into(),
                },
            ],
            old_counts: Some(TestCounts {
                tests: u32::MAX,
                skips: u32::MAX,
            }),
            removed_lines: Vec::new(),
            old_text: None,
            new_text: Some("\u{0}\u{feff}'\"`/*\n\r\n".into()),
        };
        let mut js = weird.clone();
        js.path = "src/x.test.js".into();
        let reports = run(&[weird, js]);
        let skips = report(&reports, "new_skips");
        // Line 0 does not exist in the file, so it is lexed on its own and still caught.
        assert!(skips.findings.iter().any(|f| f.line == Some(0)));
        assert!(skips
            .findings
            .iter()
            .all(|f| f.snippet.chars().count() <= 201));
    }

    const JUNIT3: &str = "import junit.framework.TestCase;\npublic class MapTest extends TestCase {\n  public void testA() {}\n\n  public void disabled_testB() {}\n}\n";
    const JUNIT4: &str = "import org.junit.Ignore;\nimport org.junit.Test;\npublic class MapTest {\n  @Test\n  public void testA() {}\n\n  @Test\n  @Ignore\n  public void disabled_testB() {}\n}\n";

    #[test]
    fn a_junit3_to_4_port_of_a_renamed_off_test_is_not_a_new_skip() {
        let path = "src/test/java/MapTest.java";
        let port = modified(path, JUNIT3, JUNIT4, &[1, 2, 3, 4, 7, 8]);
        let reports = run(&[port]);
        assert_eq!(report(&reports, "new_skips").findings, vec![]);
        assert_eq!(report(&reports, "new_skips").status, GuardStatus::Pass);
    }

    #[test]
    fn skipping_a_test_that_ran_is_caught_even_in_a_port() {
        let path = "src/test/java/MapTest.java";
        // `testA` ran under JUnit 3: `@Ignore` on it is a new skip.
        let skip_a = JUNIT4.replace(
            "  @Test\n  public void testA",
            "  @Test\n  @Ignore\n  public void testA",
        );
        let reports = run(&[modified(path, JUNIT3, &skip_a, &[1, 2, 3, 4, 5, 8, 9])]);
        let skips = &report(&reports, "new_skips").findings;
        assert_eq!(skips.len(), 1, "{skips:?}");
        assert_eq!(skips[0].line, Some(5));
        // A renamed-off method that already ran under `@Test(timeout = 5)`: the port
        // shape, but the test count does not rise, so the skip is caught.
        let was_test = JUNIT4.replace("  @Test\n  @Ignore\n", "  @Test(timeout = 5)\n");
        let reports = run(&[modified(path, &was_test, JUNIT4, &[7, 8])]);
        let skips = &report(&reports, "new_skips").findings;
        assert_eq!(skips.len(), 1, "{skips:?}");
        assert_eq!(skips[0].line, Some(8));
    }

    #[test]
    fn console_log_in_scripts_is_output_and_in_library_code_a_leftover() {
        let text = "export function f() {\n  console.log(1)\n}\n";
        for (path, findings) in [
            ("benchmarks/fetch/bench.mts", 0),
            ("scripts/release.js", 0),
            ("src/index.ts", 1),
        ] {
            let reports = run(&[added(path, text)]);
            assert_eq!(
                report(&reports, "debug_artifacts").findings.len(),
                findings,
                "{path}"
            );
        }
        let cli = format!("#!/usr/bin/env node\n{text}");
        let reports = run(&[added("tool.js", &cli)]);
        assert_eq!(report(&reports, "debug_artifacts").findings, vec![]);
    }

    #[test]
    fn a_ruby_regex_holding_a_quote_does_not_hide_later_markers() {
        let old =
            "module U\n  def f(pair)\n    pair =~ /\\A(by|for)=\"?([^\"]+)\"?\\Z/i\n  end\nend\n";
        let new = "module U\n  def f(pair)\n    pair =~ /\\A(by|for)=\"?([^\"]+)\"?\\Z/i\n  end\n  # rubocop:disable Metrics\n  def g; end\nend\n";
        let reports = run(&[modified("lib/u.rb", old, new, &[5, 6])]);
        let lint = &report(&reports, "disabled_lint").findings;
        assert_eq!(lint.len(), 1, "{lint:?}");
        assert_eq!(lint[0].line, Some(5));
    }
}
