//! ktlint rules turned off in configuration. ktlint reads its rule switches from
//! `.editorconfig` (`ktlint_standard_no-wildcard-imports = disabled`), and the Gradle
//! plugins that run it pass the same properties in a map
//! (`editorConfigOverride(['ktlint_standard_function-expression-body': 'disabled'])`,
//! `mapOf("ktlint_standard_x" to "disabled")`). Both are read line by line; a property
//! keeps one id in either file, so a rule moved between them is moved.

use super::config_lint::Entry;

/// The files ktlint's switches are written in: `.editorconfig` and Gradle build scripts.
pub fn is_ktlint_config(name: &str) -> bool {
    name == ".editorconfig" || name.ends_with(".gradle") || name.ends_with(".gradle.kts")
}

const WHAT: &str = "ktlint disabled";

/// A ktlint switch that names a rule or a rule set (`standard_function-expression-body`,
/// `standard`), from a property name; `None` for ktlint's other properties
/// (`ktlint_code_style`, `ktlint_experimental`, which turns experimental rules on, not off).
fn rule_of(key: &str) -> Option<&str> {
    let rule = key.strip_prefix("ktlint_")?;
    let other = ["code_style", "experimental"];
    (!rule.is_empty() && !other.contains(&rule) && !rule.starts_with("ignore_")).then_some(rule)
}

/// The `ktlint_<rule> = disabled` properties of an `.editorconfig`, each scoped by its
/// section's glob. A glob without `/` matches files by name at any depth (`[*.{kt,kts}]`,
/// `[*]`): every Kotlin file, as a Gradle override reaches, so such a section has no scope.
pub fn editorconfig_rules_off(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut section = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(glob) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = if glob.contains('/') {
                glob.trim().to_string()
            } else {
                String::new()
            };
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.split([' ', '\t', '#', ';']).find(|w| !w.is_empty());
        let key = key.trim().to_ascii_lowercase();
        if let (Some(rule), Some(v)) = (rule_of(&key), value) {
            if v.eq_ignore_ascii_case("disabled") {
                out.push(Entry::new(WHAT, rule, &section, vec![i as u32 + 1]));
            }
        }
    }
    out
}

/// The `ktlint_<rule>` keys a Gradle script maps to `disabled`: a quoted key, then `:`
/// (Groovy), `to` (Kotlin) or `=`, then a quoted `disabled`. Commented-out lines are not
/// read.
pub fn gradle_rules_off(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with("//") || line.starts_with("/*") || line.starts_with('*') {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find(['\'', '"']) {
            let quote = rest[at..].chars().next().unwrap_or('"');
            let inside = &rest[at + 1..];
            let Some(end) = inside.find(quote) else {
                break;
            };
            let key = &inside[..end];
            let after = inside[end + 1..].trim_start();
            rest = after;
            let Some(rule) = rule_of(key) else {
                continue;
            };
            let value = after
                .strip_prefix(':')
                .or_else(|| after.strip_prefix('='))
                .or_else(|| after.strip_prefix("to "))
                .map(str::trim_start);
            let off = value.is_some_and(|v| {
                v.strip_prefix(['\'', '"'])
                    .and_then(|v| v.strip_prefix("disabled"))
                    .is_some_and(|v| v.starts_with(['\'', '"']))
            });
            if off {
                out.push(Entry::new(WHAT, rule, "", vec![i as u32 + 1]));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(entries: &[Entry]) -> Vec<(&str, &str, u32)> {
        entries
            .iter()
            .map(|e| (e.rule.as_str(), e.scope.as_str(), e.lines[0]))
            .collect()
    }

    #[test]
    fn editorconfig_properties_disabled_are_read_with_their_section() {
        let text = concat!(
            "root = true\n",
            "[*.{kt,kts}]\n",
            "ktlint_code_style = ktlint_official\n",
            "ktlint_standard_no-wildcard-imports = disabled\n",
            "# ktlint_standard_filename = disabled\n",
            "ktlint_standard_max-line-length = enabled\n",
            "ktlint_experimental = disabled\n",
            "[src/test/**.kt]\n",
            "KTLINT_STANDARD_FILENAME=Disabled # tests\n",
        );
        assert_eq!(
            rules(&editorconfig_rules_off(text)),
            vec![
                ("standard_no-wildcard-imports", "", 4),
                ("standard_filename", "src/test/**.kt", 9),
            ]
        );
    }

    #[test]
    fn gradle_maps_to_disabled_are_read_in_groovy_and_kotlin() {
        let text = concat!(
            "ktlint(libs.ktlint.get().version)\n",
            "  .editorConfigOverride([\n",
            "    'ktlint_standard_function-expression-body': 'disabled',\n",
            "    \"ktlint_standard_filename\" : \"enabled\",\n",
            "    // 'ktlint_standard_x': 'disabled',\n",
            "  ])\n",
            "editorConfigOverride(mapOf(\"ktlint_standard_a\" to \"disabled\", \"ktlint_b\" to \"disabled\"))\n",
            "val s = \"ktlint_standard_c: disabled\"\n",
        );
        assert_eq!(
            rules(&gradle_rules_off(text)),
            vec![
                ("standard_function-expression-body", "", 3),
                ("standard_a", "", 7),
                ("b", "", 7),
            ]
        );
    }
}
