//! Suppressions written in configuration files rather than code: ruff, mypy, pyright, ty
//! and pylint settings in `pyproject.toml`, Cargo `[lints]` at `allow`, animal-sniffer
//! `<ignore>` in `pom.xml`, ESLint rules turned off. Each fires at the line that adds it; a
//! re-sorted or moved entry, a removed or raised one and a malformed file add nothing. Each
//! change is judged uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, messages, writing};
use serde_json::Value;

const PY: &str = "pyproject.toml";

const PYPROJECT: &str = concat!(
    "[project]\n",
    "name = \"demo\"\n",
    "\n",
    "[tool.ruff.lint]\n",
    "select = [\"E\", \"F\"]\n",
    "ignore = [\n",
    "  \"E501\",\n",
    "  \"F401\",\n",
    "]\n",
    "\n",
    "[tool.mypy]\n",
    "strict = true\n",
);

fn expect(want: Vec<(&'static str, u64)>) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        let want: Vec<(String, u64)> = want.iter().map(|(p, l)| (p.to_string(), *l)).collect();
        assert_eq!(
            lines_of(receipt, "disabled_lint"),
            want,
            "{mode}: {receipt}"
        );
        if !want.is_empty() {
            assert_eq!(code, Some(3), "{mode}: {receipt}");
            for m in messages(receipt, "disabled_lint") {
                assert!(m.contains("in configuration"), "{mode}: {m}");
            }
        }
    }
}

fn change(from: &str, to: &str) -> String {
    assert!(PYPROJECT.contains(from), "{from}");
    PYPROJECT.replace(from, to)
}

#[test]
fn a_rule_added_to_the_ruff_ignore_list_fires_at_its_line() {
    let new = change("  \"F401\",\n", "  \"F401\",\n  \"B008\",\n");
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &new)]),
        &expect(vec![(PY, 9)]),
    );
}

#[test]
fn ruff_per_file_ignores_fire() {
    let new = format!("{PYPROJECT}\n[tool.ruff.lint.per-file-ignores]\n\"tests/*\" = [\"S101\"]\n");
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &new)]),
        &expect(vec![(PY, 15)]),
    );
}

#[test]
fn mypy_exclude_disable_error_code_and_overrides_fire() {
    let new = change(
        "strict = true\n",
        concat!(
            "strict = true\n",
            "exclude = [\"examples/new.py\"]\n",
            "disable_error_code = [\"no-any-return\"]\n",
            "\n",
            "[[tool.mypy.overrides]]\n",
            "module = \"vendored.*\"\n",
            "ignore_errors = true\n",
            "ignore_missing_imports = true\n",
        ),
    );
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &new)]),
        &expect(vec![(PY, 13), (PY, 14), (PY, 18), (PY, 19)]),
    );
}

#[test]
fn ty_overrides_ignoring_all_rules_and_pyright_reports_off_fire() {
    let new = format!(
        "{PYPROJECT}\n[[tool.ty.overrides]]\nrules.all = \"ignore\"\ninclude = [\"src\"]\n\n[tool.pyright]\nreportMissingImports = false\nreportPrivateUsage = \"none\"\nreportUnusedImport = \"error\"\n\n[tool.pylint.\"messages control\"]\ndisable = \"missing-docstring,too-many-locals\"\n"
    );
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &new)]),
        &expect(vec![(PY, 15), (PY, 19), (PY, 20), (PY, 24)]),
    );
}

// Each change below also adds one real suppression, so the test fails both when nothing
// is read and when a moved entry is taken for a new one.
#[test]
fn a_resorted_or_moved_ignore_list_adds_nothing_but_its_new_rule() {
    // Re-sorted in place, one rule added.
    let resorted = change(
        "  \"E501\",\n  \"F401\",\n",
        "  \"F401\",\n  \"E501\",\n  \"B008\",\n",
    );
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &resorted)]),
        &expect(vec![(PY, 9)]),
    );
    // Moved from `[tool.ruff.lint]` to the end of the file as the older `[tool.ruff]`
    // `extend-ignore` spelling, re-sorted, one rule added.
    let without = change("ignore = [\n  \"E501\",\n  \"F401\",\n]\n", "");
    let moved = format!(
        "{without}\n[tool.ruff]\nextend-ignore = [\n  \"F401\",\n  \"E501\",\n  \"B008\",\n]\n"
    );
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &moved)]),
        &expect(vec![(PY, 14)]),
    );
    // Moved into a `ruff.toml` of its own in the same change, beside a new per-file ignore.
    let ruff = "[lint]\nignore = [\n  \"E501\",\n  \"F401\",\n]\n[lint.per-file-ignores]\n\"tests/*\" = [\"S101\"]\n";
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &without), ("ruff.toml", ruff)]),
        &expect(vec![("ruff.toml", 7)]),
    );
}

#[test]
fn a_removed_or_raised_suppression_adds_nothing_but_the_new_one() {
    let fewer = change("  \"F401\",\n", "").replace(
        "strict = true\n",
        "strict = true\ndisable_error_code = [\"no-any-return\"]\n",
    );
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &fewer)]),
        &expect(vec![(PY, 12)]),
    );
    let cargo_old = "[package]\nname = \"x\"\n\n[lints.clippy]\nneedless_return = \"allow\"\n";
    let cargo_new = "[package]\nname = \"x\"\n\n[lints.clippy]\nneedless_return = \"warn\"\nlet_unit_value = \"allow\"\n";
    both_ways(
        &[("Cargo.toml", cargo_old)],
        &writing(&[("Cargo.toml", cargo_new)]),
        &expect(vec![("Cargo.toml", 6)]),
    );
}

#[test]
fn a_cargo_lint_set_to_allow_fires() {
    let old = "[package]\nname = \"x\"\n\n[lints.clippy]\nneedless_return = \"warn\"\n";
    let new = concat!(
        "[package]\nname = \"x\"\n\n[lints.clippy]\nneedless_return = \"allow\"\n",
        "\n[workspace.lints.rust]\nunsafe_code = { level = \"allow\", priority = 1 }\n",
        "dead_code = \"deny\"\n",
    );
    both_ways(
        &[("Cargo.toml", old)],
        &writing(&[("Cargo.toml", new)]),
        &expect(vec![("Cargo.toml", 5), ("Cargo.toml", 8)]),
    );
}

/// A clippy group turned on for the first time (`pedantic`, `restriction`: off by default)
/// with allows for the lints of it the project does not want: those lints never ran, so
/// their allows silence nothing. An allow of a lint clippy runs by default
/// (`type_complexity`) in the same table does, and so does one of a name loopgate does not
/// know (taken as on by default).
#[test]
fn allows_of_off_by_default_clippy_lints_with_their_group_turned_on_are_no_finding() {
    let old = "[package]\nname = \"x\"\n";
    let new = concat!(
        "[package]\nname = \"x\"\n\n[lints.clippy]\n",
        "pedantic = { level = \"warn\", priority = -1 }\n",
        "restriction = { level = \"warn\", priority = -1 }\n",
        "cast_lossless = \"allow\"\n",
        "indexing_slicing = \"allow\" # TODO: consider\n",
        "type_complexity = \"allow\"\n",
        "not_a_lint_of_any_list = \"allow\"\n",
        "missing-errors-doc = \"allow\"\n",
    );
    both_ways(
        &[("Cargo.toml", old)],
        &writing(&[("Cargo.toml", new)]),
        &expect(vec![("Cargo.toml", 9), ("Cargo.toml", 10)]),
    );
}

/// An off-by-default lint ran when the file turned it or its group on at the comparison
/// point: an allow of it now silences it. Where nothing turned it on, the allow silences
/// nothing.
#[test]
fn an_allow_of_a_pedantic_lint_fires_only_when_pedantic_or_the_lint_was_on() {
    let on = "[package]\nname = \"x\"\n\n[workspace.lints.clippy]\npedantic = \"warn\"\n";
    let allowed = format!("{on}cast_lossless = \"allow\"\n");
    both_ways(
        &[("Cargo.toml", on)],
        &writing(&[("Cargo.toml", &allowed)]),
        &expect(vec![("Cargo.toml", 6)]),
    );
    let lint_on = "[package]\nname = \"x\"\n\n[lints.clippy]\ncast_lossless = \"deny\"\n";
    let lint_allowed = lint_on.replace("\"deny\"", "\"allow\"");
    both_ways(
        &[("Cargo.toml", lint_on)],
        &writing(&[("Cargo.toml", &lint_allowed)]),
        &expect(vec![("Cargo.toml", 5)]),
    );
    let off = "[package]\nname = \"x\"\n\n[lints.clippy]\nneedless_return = \"warn\"\n";
    let off_allowed = format!("{off}cast_lossless = \"allow\"\n");
    both_ways(
        &[("Cargo.toml", off)],
        &writing(&[("Cargo.toml", &off_allowed)]),
        &expect(vec![]),
    );
}

#[test]
fn malformed_toml_is_no_finding_and_no_crash() {
    // The new text does not parse: nothing is guessed from it; the valid file of the same
    // change is still read.
    let broken = change("  \"F401\",\n", "  \"F401\",\n  \"B008\"\n  \"C901\",\n");
    let cargo_old = "[package]\nname = \"x\"\n";
    let cargo_new = "[package]\nname = \"x\"\n\n[lints.clippy]\nneedless_return = \"allow\"\n";
    both_ways(
        &[(PY, PYPROJECT), ("Cargo.toml", cargo_old)],
        &writing(&[(PY, &broken), ("Cargo.toml", cargo_new)]),
        &expect(vec![("Cargo.toml", 5)]),
    );
    // The old text did not parse: every entry would look new, so none is reported.
    let old = "[lints.clippy\nneedless_return = \"allow\"\n";
    let new = "[lints.clippy]\nneedless_return = \"allow\"\n";
    let added = change("  \"F401\",\n", "  \"F401\",\n  \"B008\",\n");
    both_ways(
        &[("Cargo.toml", old), (PY, PYPROJECT)],
        &writing(&[("Cargo.toml", new), (PY, &added)]),
        &expect(vec![(PY, 9)]),
    );
}

#[test]
fn an_animal_sniffer_ignore_fires_and_other_plugins_ignores_do_not() {
    let pom = concat!(
        "<project>\n",
        "  <build>\n",
        "    <plugins>\n",
        "      <plugin>\n",
        "        <artifactId>animal-sniffer-maven-plugin</artifactId>\n",
        "        <configuration>\n",
        "          <ignores>\n",
        "            <ignore>java.lang.invoke.*</ignore>\n",
        "          </ignores>\n",
        "        </configuration>\n",
        "      </plugin>\n",
        "      <plugin>\n",
        "        <artifactId>some-other-plugin</artifactId>\n",
        "        <configuration>\n",
        "          <ignore>skip-this</ignore>\n",
        "        </configuration>\n",
        "      </plugin>\n",
        "    </plugins>\n",
        "  </build>\n",
        "</project>\n",
    );
    let new = pom
        .replace(
            "            <ignore>java.lang.invoke.*</ignore>\n",
            "            <ignore>java.lang.invoke.*</ignore>\n            <ignore>java.net.http.*</ignore>\n",
        )
        .replace(
            "          <ignore>skip-this</ignore>\n",
            "          <ignore>skip-this</ignore>\n          <ignore>skip-that</ignore>\n",
        );
    both_ways(
        &[("pom.xml", pom)],
        &writing(&[("pom.xml", &new)]),
        &expect(vec![("pom.xml", 9)]),
    );
}

#[test]
fn an_eslint_rule_turned_off_in_its_config_fires_and_a_warn_does_not() {
    let path = "eslint.config.js";
    let old =
        "export default [\n  {\n    rules: {\n      'no-console': 'error',\n    },\n  },\n];\n";
    let new = "export default [\n  {\n    rules: {\n      'no-console': 'warn',\n      'no-undef': 'off',\n      '@typescript-eslint/no-explicit-any': 0,\n    },\n  },\n];\n";
    both_ways(
        &[(path, old)],
        &writing(&[(path, new)]),
        &expect(vec![(path, 5), (path, 6)]),
    );
}

#[test]
fn a_rule_renamed_in_its_list_is_no_finding_and_a_rule_added_beside_it_is() {
    let old = "[tool.ruff.lint]\nignore = [\n  \"E501\",\n  \"TCH\",\n]\n";
    let renamed = "[tool.ruff.lint]\nignore = [\n  \"E501\",\n  \"TC\",\n]\n";
    both_ways(&[(PY, old)], &writing(&[(PY, renamed)]), &expect(vec![]));
    let wider = "[tool.ruff.lint]\nignore = [\n  \"E501\",\n  \"TC\",\n  \"CPY\",\n]\n";
    both_ways(
        &[(PY, old)],
        &writing(&[(PY, wider)]),
        &expect(vec![(PY, 5)]),
    );
}

#[test]
fn a_scope_that_follows_its_renamed_directory_is_no_finding() {
    let body = "def f(l):\n    return l\n\n\ndef g(l):\n    return [l, l]\n";
    let old = "[tool.mypy]\nexclude = [\"typing-examples/pyrefly.py\"]\n\n[tool.ruff.lint.per-file-ignores]\n\"typing-examples/*\" = [\"E741\"]\n";
    let new = "[tool.mypy]\nexclude = [\"typing_tests/pyrefly.py\"]\n\n[tool.ruff.lint.per-file-ignores]\n\"typing_tests/*\" = [\"E741\"]\n";
    let files = [(PY, old), ("typing-examples/pyrefly.py", body)];
    let rename = |r: &gitrepo::Repo| {
        r.remove("typing-examples/pyrefly.py");
        r.write("typing_tests/pyrefly.py", body);
        r.write(PY, new);
    };
    both_ways(&files, &rename, &expect(vec![]));
    // The same text with no file moved there excludes files it did not before.
    let stay = |r: &gitrepo::Repo| r.write(PY, new);
    both_ways(&files, &stay, &expect(vec![(PY, 2), (PY, 5)]));
}

/// A configuration file that does not parse is not passed in silence: the receipt's
/// `skipped_files` names it, with the side that does not parse.
#[test]
fn a_config_file_that_does_not_parse_is_noted_in_the_receipt() {
    let broken = change("  \"F401\",\n", "  \"F401\",\n  \"B008\"\n  \"C901\",\n");
    both_ways(
        &[(PY, PYPROJECT)],
        &writing(&[(PY, &broken)]),
        &|code, receipt, mode| {
            let notes = receipt["skipped_files"].as_array().unwrap();
            assert_eq!(notes.len(), 1, "{mode}: {receipt}");
            assert_eq!(notes[0]["path"], PY, "{mode}");
            assert_eq!(notes[0]["why"], "unparsable", "{mode}");
            assert_eq!(notes[0]["side"], "now", "{mode}");
            let note = notes[0]["note"].as_str().unwrap();
            assert!(
                note.contains("suppressions in its settings were not read"),
                "{note}"
            );
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}
