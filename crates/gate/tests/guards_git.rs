//! The guards on a real git repository, through the done gate (judge mode against HEAD,
//! guards only): real files, real diffs, real renames.

mod guards {
    use gate::done::{run, DoneRequest};
    use gate::guards::{GuardReport, GuardStatus};
    use std::path::Path;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn write(dir: &Path, path: &str, text: &str) {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn guards_of(dir: &Path) -> Vec<GuardReport> {
        let req = DoneRequest {
            via: "cli".into(),
            against: Some("HEAD".into()),
            run_guards: true,
            no_store: true,
            ..DoneRequest::default()
        };
        run(dir, &req).expect("done gate runs").guards
    }

    fn findings<'a>(reports: &'a [GuardReport], name: &str) -> Vec<(&'a str, Option<u32>)> {
        let r = reports.iter().find(|r| r.name == name).expect(name);
        r.findings
            .iter()
            .map(|f| (f.path.as_str(), f.line))
            .collect()
    }

    const TESTS: &str = "import test from 'node:test';\nimport assert from 'node:assert';\ntest('a', () => assert.ok(1));\ntest('b', () => assert.ok(2));\n";

    #[test]
    fn guards_catch_a_lowered_bar_in_a_real_repository() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        git(dir, &["init", "-q", "-b", "main"]);
        write(
            dir,
            "package.json",
            "{\"name\":\"x\",\"scripts\":{\"test\":\"node --test\"}}\n",
        );
        write(dir, "test/a.test.js", TESTS);
        write(dir, "test/b.test.js", TESTS);
        write(dir, "test/c.test.js", TESTS);
        write(dir, "src/sum.js", "export const sum = (a, b) => a + b;\n");
        write(dir, "README.md", "# x\n");
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", "init"]);

        // The agent's work: one skip, one test gone, one test file deleted, a debug
        // leftover, a suppression, and prose that only looks like markers.
        write(
            dir,
            "test/a.test.js",
            &TESTS.replace("test('b'", "test.skip('b'"),
        );
        write(
            dir,
            "test/b.test.js",
            "import test from 'node:test';\ntest('a', () => {});\n",
        );
        std::fs::remove_file(dir.join("test/c.test.js")).unwrap();
        write(
            dir,
            "src/sum.js",
            "// eslint-disable-next-line no-unused-vars\nexport const sum = (a, b) => {\n  console.log(a);\n  return a + b;\n};\n",
        );
        write(
            dir,
            "README.md",
            "# x\nNever use `it.skip(` or `console.log(`. TODO: docs\n",
        );

        let reports = guards_of(dir);
        assert_eq!(
            findings(&reports, "new_skips"),
            vec![("test/a.test.js", Some(4))]
        );
        assert_eq!(
            findings(&reports, "deleted_tests"),
            vec![("test/b.test.js", None), ("test/c.test.js", None)]
        );
        assert_eq!(
            findings(&reports, "disabled_lint"),
            vec![("src/sum.js", Some(1))]
        );
        assert_eq!(
            findings(&reports, "debug_artifacts"),
            vec![("src/sum.js", Some(3))]
        );
        assert!(findings(&reports, "new_todos").is_empty());
        let status = |name: &str| reports.iter().find(|r| r.name == name).unwrap().status;
        assert_eq!(status("new_skips"), GuardStatus::Fail);
        assert_eq!(status("debug_artifacts"), GuardStatus::Warn);
        assert_eq!(status("config_edits"), GuardStatus::Pass);
    }

    #[test]
    fn guards_follow_a_real_rename_that_keeps_the_tests() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        git(dir, &["init", "-q", "-b", "main"]);
        write(dir, "test/a.test.js", TESTS);
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", "init"]);
        git(dir, &["mv", "test/a.test.js", "test/renamed.test.js"]);
        let reports = guards_of(dir);
        assert!(
            findings(&reports, "deleted_tests").is_empty(),
            "{reports:#?}"
        );
        std::fs::create_dir_all(dir.join("lib")).unwrap();
        git(dir, &["mv", "test/renamed.test.js", "lib/renamed.js"]);
        let reports = guards_of(dir);
        assert_eq!(
            findings(&reports, "deleted_tests"),
            vec![("lib/renamed.js", None)]
        );
    }

    #[test]
    fn guards_see_gate_edits_and_shadowed_protected_files() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        git(dir, &["init", "-q", "-b", "main"]);
        write(
            dir,
            "loopgate.toml",
            "version = 1\n[guards]\nprotect = [\"jest.config.js\"]\n",
        );
        write(dir, "jest.config.js", "module.exports = {};\n");
        git(dir, &["add", "-A"]);
        git(dir, &["commit", "-q", "-m", "init"]);
        write(
            dir,
            "jest.config.ts",
            "export default { testPathIgnorePatterns: ['.'] };\n",
        );
        let reports = guards_of(dir);
        assert_eq!(
            findings(&reports, "protected_edits"),
            vec![("jest.config.ts", None)]
        );
        assert!(findings(&reports, "config_edits").is_empty());
        write(
            dir,
            "loopgate.toml",
            "version = 1\n[guards]\nprotect = []\n",
        );
        let reports = guards_of(dir);
        assert_eq!(
            findings(&reports, "config_edits"),
            vec![("loopgate.toml", None)]
        );
    }
}
