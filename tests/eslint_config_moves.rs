//! ESLint suppressions that change form without silencing more: a plugin rule turned off
//! under the plugin's other spelling as an `.eslintrc` becomes a flat config (`@vitest/x`
//! registered as `vitest/x`), and a rule a configuration stopped turning off for every
//! file, written as an `eslint-disable-next-line` on the one line that needs it (or added
//! to the disable already there). Each lookalike that does silence more still fires. Each
//! change is judged uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lint_at, writing};

const ESLINTRC: &str = concat!(
    "{\n",
    "  \"rules\": {\n",
    "    \"eqeqeq\": \"error\",\n",
    "    \"@typescript-eslint/no-empty-interface\": \"off\"\n",
    "  },\n",
    "  \"overrides\": [\n",
    "    {\n",
    "      \"files\": [\"tests/**/*.ts\"],\n",
    "      \"rules\": {\n",
    "        \"@vitest/expect-expect\": \"off\"\n",
    "      }\n",
    "    }\n",
    "  ]\n",
    "}\n",
);

fn flat_config(test_rules: &str) -> String {
    format!(
        concat!(
            "import vitest from '@vitest/eslint-plugin'\n",
            "\n",
            "export default [\n",
            "  {{\n",
            "    rules: {{\n",
            "      eqeqeq: 'error',\n",
            "      '@typescript-eslint/no-empty-interface': 'off',\n",
            "    }},\n",
            "  }},\n",
            "  {{\n",
            "    files: ['tests/**/*.ts'],\n",
            "    plugins: {{ vitest }},\n",
            "    rules: {{\n",
            "{}",
            "    }},\n",
            "  }},\n",
            "]\n",
        ),
        test_rules
    )
}

const STORE: &str = concat!(
    "// eslint-disable-next-line @typescript-eslint/no-unused-vars\n",
    "export interface Mutators<S> {}\n",
    "export interface Empty {}\n",
);

/// `.eslintrc.json` gives way to `eslint.config.mjs`, which registers the vitest plugin as
/// `vitest`: `'vitest/expect-expect': 'off'` is the `"@vitest/expect-expect": "off"` the old
/// file held, for the same files.
#[test]
fn an_eslint_off_respelt_under_its_plugin_scope_is_not_new() {
    let flat = flat_config("      'vitest/expect-expect': 'off',\n");
    both_ways(
        &[(".eslintrc.json", ESLINTRC), ("src/store.ts", STORE)],
        &|r: &gitrepo::Repo| {
            r.remove(".eslintrc.json");
            r.write("eslint.config.mjs", &flat);
        },
        &lint_at(vec![]),
    );
}

/// Lookalikes: where `@vitest/expect-expect` went, the flat config turns off another rule
/// of the same plugin (`vitest/no-focused-tests`), or the rule of the same name of another
/// plugin (`jest/expect-expect`): each silences what nothing silenced before (line 14).
#[test]
fn an_eslint_off_of_another_rule_or_plugin_still_fires() {
    let more = flat_config("      'vitest/no-focused-tests': 'off',\n");
    both_ways(
        &[(".eslintrc.json", ESLINTRC), ("src/store.ts", STORE)],
        &|r: &gitrepo::Repo| {
            r.remove(".eslintrc.json");
            r.write("eslint.config.mjs", &more);
        },
        &lint_at(vec![("eslint.config.mjs", 14)]),
    );
    let other = flat_config("      'jest/expect-expect': 'off',\n");
    both_ways(
        &[(".eslintrc.json", ESLINTRC), ("src/store.ts", STORE)],
        &|r: &gitrepo::Repo| {
            r.remove(".eslintrc.json");
            r.write("eslint.config.mjs", &other);
        },
        &lint_at(vec![("eslint.config.mjs", 14)]),
    );
}

/// `"@typescript-eslint/no-empty-interface": "off"` leaves the project's configuration and
/// the one empty interface that needs it gets the rule on a line of its own, or added to
/// the disable already over it: the rule is back on for every other file.
#[test]
fn a_project_wide_eslint_off_narrowed_to_one_line_is_not_new() {
    let config = ESLINTRC.replace(
        "\"eqeqeq\": \"error\",\n    \"@typescript-eslint/no-empty-interface\": \"off\"\n",
        "\"eqeqeq\": \"error\"\n",
    );
    let own_line = STORE.replace(
        "export interface Empty",
        "// eslint-disable-next-line @typescript-eslint/no-empty-interface\nexport interface Empty",
    );
    let grown = STORE.replace(
        "no-unused-vars\n",
        "no-unused-vars, @typescript-eslint/no-empty-interface\n",
    );
    for store in [own_line, grown] {
        both_ways(
            &[(".eslintrc.json", ESLINTRC), ("src/store.ts", STORE)],
            &writing(&[(".eslintrc.json", &config), ("src/store.ts", &store)]),
            &lint_at(vec![]),
        );
    }
}

/// Lookalikes: the configuration keeps its `off` (the inline disable is one more line of
/// suppression, as ever); the disable names a rule the configuration never turned off
/// (`no-empty-function`); the configuration that lost the rule governs another directory
/// (`a/`), not the file's (`b/`).
#[test]
fn an_inline_eslint_disable_without_its_project_wide_off_removed_still_fires() {
    let config = ESLINTRC.replace(
        "\"eqeqeq\": \"error\",\n    \"@typescript-eslint/no-empty-interface\": \"off\"\n",
        "\"eqeqeq\": \"error\"\n",
    );
    let own_line = STORE.replace(
        "export interface Empty",
        "// eslint-disable-next-line @typescript-eslint/no-empty-interface\nexport interface Empty",
    );
    both_ways(
        &[(".eslintrc.json", ESLINTRC), ("src/store.ts", STORE)],
        &writing(&[("src/store.ts", &own_line)]),
        &lint_at(vec![("src/store.ts", 3)]),
    );
    let other_rule = STORE.replace(
        "no-unused-vars\n",
        "no-unused-vars, @typescript-eslint/no-empty-function\n",
    );
    both_ways(
        &[(".eslintrc.json", ESLINTRC), ("src/store.ts", STORE)],
        &writing(&[(".eslintrc.json", &config), ("src/store.ts", &other_rule)]),
        &lint_at(vec![("src/store.ts", 1)]),
    );
    both_ways(
        &[
            ("a/.eslintrc.json", ESLINTRC),
            ("b/.eslintrc.json", ESLINTRC),
            ("b/src/store.ts", STORE),
        ],
        &writing(&[("a/.eslintrc.json", &config), ("b/src/store.ts", &own_line)]),
        &lint_at(vec![("b/src/store.ts", 3)]),
    );
}
