//! Suppressions that moved between configuration files or were only re-wrapped are not new:
//! flake8 and mypy settings of a deleted `setup.cfg` moved into `pyproject.toml`, files
//! ignored whole by ESLint now linted with a few rules off, a `noqa` line re-wrapped by a
//! formatter. Their lookalikes still fire: a rule the old configuration did not silence, a
//! block over files that were linted before, a new `noqa` on another statement. Real
//! repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

const SETUP_CFG: &str = concat!(
    "[metadata]\n",
    "license_files = LICENSE\n",
    "\n",
    "[flake8]\n",
    "max-line-length = 90\n",
    "extend-ignore = E203, E501, B903\n",
    "\n",
    "[mypy]\n",
    "ignore_missing_imports = true\n",
    "warn_unreachable = true\n",
);

const OLD_PYPROJECT: &str = "[project]\nname = \"demo\"\n";

const NEW_PYPROJECT: &str = concat!(
    "[project]\n",
    "name = \"demo\"\n",
    "\n",
    "[tool.ruff.lint]\n",
    "ignore = [\"E203\", \"E501\"]\n",
    "\n",
    "[tool.ruff.lint.per-file-ignores]\n",
    "\"tests/*\" = [\"E721\"]\n",
    "\n",
    "[tool.mypy]\n",
    "ignore_missing_imports = true\n",
    "warn_unreachable = true\n",
);

#[test]
fn flake8_and_mypy_settings_moved_from_setup_cfg_are_not_new() {
    // Only the per-file ignore of a rule flake8 checked is new (line 8).
    both_ways(
        &[("setup.cfg", SETUP_CFG), ("pyproject.toml", OLD_PYPROJECT)],
        &|r| {
            r.remove("setup.cfg");
            r.write("pyproject.toml", NEW_PYPROJECT);
        },
        &lint_lines(vec![("pyproject.toml", 8)]),
    );
}

#[test]
fn without_the_ini_settings_removed_the_same_pyproject_is_new() {
    // setup.cfg kept as it was: nothing moved, every suppression is new.
    both_ways(
        &[("setup.cfg", SETUP_CFG), ("pyproject.toml", OLD_PYPROJECT)],
        &|r| r.write("pyproject.toml", NEW_PYPROJECT),
        &lint_lines(vec![
            ("pyproject.toml", 5),
            ("pyproject.toml", 8),
            ("pyproject.toml", 11),
        ]),
    );
}

#[test]
fn a_new_flake8_section_is_never_reported_itself() {
    // An INI file only offers removals: a first `[flake8]` set-up is not read as new.
    let with_flake8 = format!("{SETUP_CFG}\n[flake8:local-plugins]\n");
    let first = "[metadata]\nlicense_files = LICENSE\n";
    both_ways(
        &[("setup.cfg", first)],
        &|r| r.write("setup.cfg", &with_flake8),
        &lint_lines(vec![]),
    );
}

const ESLINT: &str = "eslint.config.js";

const OLD_ESLINT: &str = concat!(
    "'use strict'\n",
    "const { defineConfig, globalIgnores } = require('eslint/config')\n",
    "const neostandard = require('neostandard')\n",
    "\n",
    "module.exports = defineConfig([\n",
    "  neostandard({ ts: true }),\n",
    "  globalIgnores([\n",
    "    'pino.d.ts',\n",
    "    'test/fixtures/syntax-error-esm.mjs'\n",
    "  ]),\n",
    "  {\n",
    "    rules: {\n",
    "      'no-var': 'off'\n",
    "    }\n",
    "  }\n",
    "])\n",
);

const LINTED_NOW: &str = concat!(
    "'use strict'\n",
    "const { defineConfig, globalIgnores } = require('eslint/config')\n",
    "const neostandard = require('neostandard')\n",
    "\n",
    "module.exports = defineConfig([\n",
    "  neostandard({ ts: true }),\n",
    "  globalIgnores([\n",
    "    'test/fixtures/syntax-error-esm.mjs'\n",
    "  ]),\n",
    "  {\n",
    "    rules: {\n",
    "      'no-var': 'off'\n",
    "    }\n",
    "  },\n",
    "  {\n",
    "    files: ['pino.d.ts'],\n",
    "    rules: {\n",
    "      '@typescript-eslint/no-use-before-define': 'off',\n",
    "      '@typescript-eslint/no-unused-vars': 'off'\n",
    "    }\n",
    "  }\n",
    "])\n",
);

#[test]
fn a_file_ignored_whole_and_now_linted_with_some_rules_off_is_narrowed() {
    both_ways(
        &[(ESLINT, OLD_ESLINT)],
        &writing(&[(ESLINT, LINTED_NOW)]),
        &lint_lines(vec![]),
    );
}

#[test]
fn rules_off_for_files_that_were_linted_before_are_new() {
    // The same block over a file that was never ignored: it was checked, now it is not.
    let other = LINTED_NOW.replace("files: ['pino.d.ts']", "files: ['index.js']");
    both_ways(
        &[(ESLINT, OLD_ESLINT)],
        &writing(&[(ESLINT, &other)]),
        &lint_lines(vec![(ESLINT, 18), (ESLINT, 19)]),
    );
    // Or over more files than were ignored (a directory holding the freed file).
    let wider = LINTED_NOW.replace("files: ['pino.d.ts']", "files: ['pino.d.ts', 'test/**/*']");
    both_ways(
        &[(ESLINT, OLD_ESLINT)],
        &writing(&[(ESLINT, &wider)]),
        &lint_lines(vec![(ESLINT, 18), (ESLINT, 19)]),
    );
}

const MYPY_CFG: &str = concat!(
    "[metadata]\n",
    "license_files = LICENSE\n",
    "\n",
    "[mypy]\n",
    "warn_unreachable = true\n",
    "\n",
    "[mypy-asgiref.*]\n",
    "ignore_missing_imports = True\n",
);

#[test]
fn a_mypy_module_section_added_where_mypy_was_set_up_is_new() {
    // mypy already ran over the project: a module now excused from its imports is new
    // (line 11), and a flake8 section added beside it is still not read.
    let new = format!(
        "{MYPY_CFG}\n[mypy-importlib_metadata]\nignore_missing_imports = True\n\n[flake8]\nextend-ignore = E203\n"
    );
    both_ways(
        &[("setup.cfg", MYPY_CFG)],
        &|r| r.write("setup.cfg", &new),
        &lint_lines(vec![("setup.cfg", 11)]),
    );
}

#[test]
fn a_first_mypy_set_up_or_a_module_section_moved_is_not() {
    // No `[mypy]` section before: the whole set-up is a first configuration.
    let first = "[metadata]\nlicense_files = LICENSE\n";
    both_ways(
        &[("setup.cfg", first)],
        &|r| r.write("setup.cfg", MYPY_CFG),
        &lint_lines(vec![]),
    );
    // A module section moved from mypy.ini into setup.cfg, which configured mypy.
    let ini = "[mypy]\n\n[mypy-dotenv.*]\nignore_missing_imports = True\n";
    let moved = format!("{MYPY_CFG}\n[mypy-dotenv.*]\nignore_missing_imports = True\n");
    both_ways(
        &[("setup.cfg", MYPY_CFG), ("mypy.ini", ini)],
        &|r| {
            r.remove("mypy.ini");
            r.write("setup.cfg", &moved);
        },
        &lint_lines(vec![]),
    );
}
