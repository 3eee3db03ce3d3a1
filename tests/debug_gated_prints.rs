//! A print guarded on its own line by a condition that names debugging (`if (debug)
//! console.log(..)`, `this.settings.debug && console.log(..)`) is a library's opt-in debug
//! mode, not a leftover, as one inside an `if (debug) {` block is. A print behind any
//! other condition, or in a statement after one that names debugging, still is. Real
//! repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, no_debug_artifacts, writing};

const LIB: &str = "src/validate.js";
const OLD: &str = "export function check(settings, element) {\n  try {\n    return rule(element);\n  } catch (e) {\n    throw e;\n  }\n}\n";

#[test]
fn a_print_behind_a_debug_setting_on_its_line_is_not_a_leftover() {
    let new = "export function check(settings, element) {\n  try {\n    return rule(element);\n  } catch (e) {\n    settings.debug && window.console && console.log(\"exception checking \" + element.id, e);\n    if (settings.debug) console.log(\"rethrowing\");\n    throw e;\n  }\n}\n";
    both_ways(&[(LIB, OLD)], &writing(&[(LIB, new)]), &no_debug_artifacts);
}

#[test]
fn a_print_behind_another_condition_or_after_a_debug_statement_is_a_leftover() {
    let new = "export function check(settings, element) {\n  try {\n    return rule(element);\n  } catch (e) {\n    settings.verbose && console.log(\"exception\", e);\n    const debugId = element.id; console.log(debugId);\n    throw e;\n  }\n}\n";
    both_ways(
        &[(LIB, OLD)],
        &writing(&[(LIB, new)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(LIB.to_string(), 5), (LIB.to_string(), 6)],
                "{mode}: {receipt}"
            );
        },
    );
}
