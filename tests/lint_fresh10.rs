//! Suppressions the fresh10 set showed `disabled_lint` not knowing, and their lookalikes:
//! coverage pragmas a Python repository defines for itself (a pattern of coverage.py's
//! `exclude_lines`, a rule of coverage-conditional-plugin), read from its configuration as
//! it is after the change; and functions errcheck is told not to check in a golangci-lint
//! configuration. Each change is judged uncommitted and committed. Real repositories, the
//! real binary.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const PYPROJECT: &str = "[project]\nname = \"app\"\n\n[tool.coverage.report]\nexclude_lines = [\n    \"pragma: no cover\",\n    \"pragma: full coverage\",\n    \"if TYPE_CHECKING:\",\n]\n\n[tool.coverage.coverage_conditional_plugin.rules]\npy-win32 = \"sys_platform == 'win32'\"\npy-darwin = \"sys_platform == 'darwin'\"\npy-not-linux = \"sys_platform != 'linux'\"\n";

const APP: &str = "import sys\n\n\ndef run(x):\n    if x:\n        return 1\n    return 2\n";

/// `# pragma: full coverage` where `exclude_lines` lists it, and a coverage-conditional-
/// plugin rule's `# pragma: py-win32`, leave lines out of coverage as `# pragma: no cover`
/// does; the configuration is not part of the change.
#[test]
fn a_pragma_the_repository_configures_is_a_coverage_suppression() {
    let new = "import sys\n\n\ndef run(x):\n    if x:  # pragma: full coverage\n        return 1\n    return 2  # pragma: py-win32\n";
    both_ways(
        &[("pyproject.toml", PYPROJECT), ("app/run.py", APP)],
        &writing(&[("app/run.py", new)]),
        &lint_lines(vec![("app/run.py", 5), ("app/run.py", 7)]),
    );
}

/// The pattern added to `exclude_lines` by the same change counts: the configuration is
/// read as it is after the change. In `setup.cfg` as well as `pyproject.toml`.
#[test]
fn a_pragma_the_change_configures_is_a_coverage_suppression() {
    let cfg = "[metadata]\nname = app\n";
    let new_cfg = "[metadata]\nname = app\n\n[coverage:report]\nexclude_lines =\n    pragma: no cover\n    pragma: slow path\n";
    let new = "import sys\n\n\ndef run(x):\n    if x:  # pragma: slow path\n        return 1\n    return 2\n";
    both_ways(
        &[("setup.cfg", cfg), ("app/run.py", APP)],
        &writing(&[("setup.cfg", new_cfg), ("app/run.py", new)]),
        &lint_lines(vec![("app/run.py", 5)]),
    );
}

/// A platform pragma replaced by a wider one (`py-darwin` to `py-not-linux`) excludes the
/// line on more platforms: new.
#[test]
fn a_platform_pragma_widened_is_new() {
    let old = "import sys\n\n\ndef run(x):\n    if x:  # pragma: py-darwin\n        return 1\n    return 2\n";
    let new = "import sys\n\n\ndef run(x):\n    if x:  # pragma: py-not-linux\n        return 1\n    return 2\n";
    both_ways(
        &[("pyproject.toml", PYPROJECT), ("app/run.py", old)],
        &writing(&[("app/run.py", new)]),
        &lint_lines(vec![("app/run.py", 5)]),
    );
}

/// Lookalikes: a pragma the repository does not configure (`py-linux` has no rule, `full
/// coverage` is no pattern without the configuration), a rule name as the prefix of a
/// longer one, code that an `exclude_lines` pattern matches (`if TYPE_CHECKING:`, which
/// nobody writes to silence anything), and a line carrying a configured pragma that the
/// change only edits.
#[test]
fn pragmas_the_repository_does_not_configure_are_not_suppressions() {
    let old = "import sys\n\n\ndef run(x):\n    if x:  # pragma: full coverage\n        return 1\n    return 2\n";
    let new = "import sys\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import os\n\n\ndef run(x, y=0):\n    if x or y:  # pragma: full coverage\n        return 1  # pragma: py-linux\n    return 2  # pragma: py-win32-arm\n";
    both_ways(
        &[("pyproject.toml", PYPROJECT), ("app/run.py", old)],
        &writing(&[("app/run.py", new)]),
        &lint_lines(vec![]),
    );
    let bare = "[project]\nname = \"app\"\n";
    let new = "import sys\n\n\ndef run(x):\n    if x:  # pragma: full coverage\n        return 1\n    return 2  # pragma: py-win32\n";
    both_ways(
        &[("pyproject.toml", bare), ("app/run.py", APP)],
        &writing(&[("app/run.py", new)]),
        &lint_lines(vec![]),
    );
}

/// A pattern coverage.py would read but Rust's regex engine cannot compile (a
/// look-behind) is skipped, never a crash, and never in silence: the receipt's
/// `skipped_files` names the file and the pattern. The other patterns still count.
#[test]
fn an_exclude_pattern_that_does_not_compile_is_skipped_with_a_note() {
    let cfg = "[tool.coverage.report]\nexclude_also = [\"(?<!def )pragma: odd\", \"pragma: full coverage\"]\n";
    let new = "import sys\n\n\ndef run(x):\n    if x:  # pragma: odd\n        return 1\n    return 2  # pragma: full coverage\n";
    let found = lint_lines(vec![("app/run.py", 7)]);
    both_ways(
        &[("pyproject.toml", cfg), ("app/run.py", APP)],
        &writing(&[("app/run.py", new)]),
        &|code, receipt, mode| {
            found(code, receipt, mode);
            let notes = receipt["skipped_files"].as_array().unwrap();
            assert_eq!(notes.len(), 1, "{mode}: {receipt}");
            assert_eq!(notes[0]["path"], "pyproject.toml", "{mode}");
            assert_eq!(notes[0]["why"], "unread_pattern", "{mode}");
            let note = notes[0]["note"].as_str().unwrap();
            assert!(note.contains("`(?<!def )pragma: odd`"), "{note}");
            assert!(note.contains("not read as suppressions"), "{note}");
        },
    );
}

const GOLANGCI: &str = "linters:\n  disable-all: true\n  enable:\n    - errcheck\n\nlinters-settings:\n  errcheck:\n    check-type-assertions: true\n";

/// Functions listed in errcheck's `exclude-functions` may drop their errors unchecked.
#[test]
fn errcheck_exclude_functions_added_are_suppressions() {
    let new = format!(
        "{GOLANGCI}    exclude-functions:\n      # These methods can not fail.\n      - (*example.com/a/buffer.Buffer).Write\n\n      - io.WriteString(fmt.State)\n"
    );
    both_ways(
        &[(".golangci.yml", GOLANGCI), ("main.go", "package main\n")],
        &writing(&[(".golangci.yml", &new)]),
        &lint_lines(vec![(".golangci.yml", 11), (".golangci.yml", 13)]),
    );
}

/// Lookalikes: the same list moved from v1's `linters-settings` to v2's
/// `linters.settings`, and `exclude-functions` of another linter's settings (forbidigo's
/// list names functions it forbids, not ones it lets through).
#[test]
fn errcheck_exclude_functions_moved_or_of_another_linter_are_not_new() {
    let v1 = format!("{GOLANGCI}    exclude-functions:\n      - io.WriteString(fmt.State)\n");
    let v2 = "version: \"2\"\nlinters:\n  default: none\n  enable:\n    - errcheck\n  settings:\n    errcheck:\n      check-type-assertions: true\n      exclude-functions:\n        - io.WriteString(fmt.State)\n    forbidigo:\n      exclude-functions:\n        - fmt.Println\n";
    both_ways(
        &[(".golangci.yml", &v1), ("main.go", "package main\n")],
        &writing(&[(".golangci.yml", v2)]),
        &lint_lines(vec![]),
    );
}
