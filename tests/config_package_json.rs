//! ESLint rules turned off inside `package.json` (ESLint's `eslintConfig` key, xo's `xo`
//! key) are suppressions, read as an `.eslintrc` is: a rule newly off is new, one moved or
//! re-sorted is not, and a `package.json` change that touches no lint setting (a
//! dependency bumped) is silent. Real repositories, the real binary, judged uncommitted
//! and committed.

mod gitrepo;

use gitrepo::{both_ways, lint_lines, writing};

fn package(dev_xo: &str, rules: &[&str]) -> String {
    let rules: Vec<String> = rules.iter().map(|r| format!("\t\t\t{r}")).collect();
    format!(
        "{{\n\t\"name\": \"demo\",\n\t\"devDependencies\": {{\n\t\t\"xo\": \"{dev_xo}\"\n\t}},\n\t\"xo\": {{\n\t\t\"rules\": {{\n{}\n\t\t}}\n\t}}\n}}\n",
        rules.join(",\n")
    )
}

const OLD_RULES: &[&str] = &[
    "\"unicorn/filename-case\": \"off\"",
    "\"n/no-unsupported-features/node-builtins\": \"off\"",
];

#[test]
fn rules_turned_off_in_the_xo_block_are_new() {
    // An xo upgrade: one rule dropped from the list, two others turned off (lines 9, 10)
    // and one only raised to a warning. Another key is another rule.
    let old = package("^0.58.0", OLD_RULES);
    let new = package(
        "^1.2.3",
        &[
            "\"unicorn/filename-case\": \"off\"",
            "\"promise/prefer-await-to-then\": [\"off\", {\"strict\": true}]",
            "\"n/prefer-global/buffer\": 0",
            "\"@stylistic/function-paren-newline\": \"warn\"",
        ],
    );
    both_ways(
        &[("package.json", &old)],
        &writing(&[("package.json", &new)]),
        &lint_lines(vec![("package.json", 9), ("package.json", 10)]),
    );
}

#[test]
fn an_eslint_config_rule_off_is_new_and_a_dependency_bump_is_silent() {
    let old = "{\n  \"name\": \"demo\",\n  \"dependencies\": {\"left-pad\": \"1.0.0\"},\n  \"eslintConfig\": {\"rules\": {\"no-console\": \"error\"}}\n}\n";
    let bumped = old.replace("1.0.0", "1.3.0");
    both_ways(
        &[("package.json", old)],
        &writing(&[("package.json", &bumped)]),
        &lint_lines(vec![]),
    );
    let off = bumped.replace(
        "\"eslintConfig\": {\"rules\": {\"no-console\": \"error\"}}",
        "\"eslintConfig\": {\n    \"rules\": {\n      \"no-console\": \"off\"\n    }\n  }",
    );
    both_ways(
        &[("package.json", old)],
        &writing(&[("package.json", &off)]),
        &lint_lines(vec![("package.json", 6)]),
    );
}

#[test]
fn rules_reordered_or_moved_from_an_eslintrc_are_not_new() {
    // The same rules re-sorted, and one moved in from a deleted `.eslintrc.json`.
    let old = package("^1.0.0", OLD_RULES);
    let eslintrc = "{\n  \"rules\": {\n    \"no-var\": \"off\"\n  }\n}\n";
    let new = package(
        "^1.0.0",
        &[
            "\"no-var\": \"off\"",
            "\"n/no-unsupported-features/node-builtins\": \"off\"",
            "\"unicorn/filename-case\": \"off\"",
        ],
    );
    both_ways(
        &[("package.json", &old), (".eslintrc.json", eslintrc)],
        &|r| {
            r.remove(".eslintrc.json");
            r.write("package.json", &new);
        },
        &lint_lines(vec![]),
    );
}
