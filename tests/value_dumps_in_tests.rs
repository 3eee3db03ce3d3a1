//! A `console.log` of bare values in a JS test (`console.log(ctx)`) is a test dumping what
//! it holds to look at it: a debugging leftover. A test that prints on purpose says what it
//! prints (`console.log('skipping on windows')`, a template with its values in it), and a
//! type test is only type-checked, so neither is one. Judged uncommitted and committed.
//! Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, guard, lines_of, writing};
use serde_json::Value;

const JS: &str = "__tests__/respond.test.js";
const BODY: &str = "const { respond } = require('../lib/respond');\n\ntest('responds', () => {\n  const ctx = respond();\n  expect(ctx.status).toBe(200);\n});\n";

#[test]
fn a_value_dumped_in_a_test_body_is_a_debugging_leftover() {
    let dumped = BODY.replace(
        "  const ctx = respond();\n",
        "  const ctx = respond();\n  console.log(ctx);\n  console.dir(ctx.body, { depth: null });\n",
    );
    both_ways(
        &[(JS, BODY)],
        &writing(&[(JS, &dumped)]),
        &|code, receipt: &Value, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(JS.to_string(), 5), (JS.to_string(), 6)],
                "{mode}: {receipt}"
            );
            // A warning by default: reported, the exit code unchanged.
            assert_eq!(
                guard(receipt, "debug_artifacts")["status"],
                "warn",
                "{mode}"
            );
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn a_message_a_type_test_and_error_output_are_not_but_a_dump_beside_them_is() {
    let said = BODY.replace(
        "  const ctx = respond();\n",
        "  const ctx = respond();\n  console.log('skipping the slow half on windows');\n  console.log(`status ${ctx.status}`);\n  console.error(ctx);\n  console.log(ctx.headers);\n",
    );
    let type_test = "test/types/respond.test-d.ts";
    let typed = "import { respond } from '../../lib/respond';\n\nconst ctx = respond();\n";
    let typed_after =
        format!("{typed}ctx.on('level', (lvl, val) => {{\n  console.log(lvl, val);\n}});\n");
    both_ways(
        &[(JS, BODY), (type_test, typed)],
        &writing(&[(JS, &said), (type_test, &typed_after)]),
        &|code, receipt: &Value, mode| {
            // Only the bare dump beside them (line 8) is reported.
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(JS.to_string(), 8)],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn a_dump_written_as_the_files_kept_tests_write_it_follows_the_file() {
    // The file's tests print through a helper that captures the console and checks it.
    let spec = "test/completion.mjs";
    let old = "it('zsh completes', () => {\n  const r = checkOutput(() => {\n    complete((err, completions) => {\n      completions.forEach(completion => {\n        console.log(completion);\n      });\n    });\n  });\n  r.logs.should.include('foo');\n});\n";
    let new = format!(
        "{old}\nit('fish completes', () => {{\n  const r = checkOutput(() => {{\n    complete((err, completions) => {{\n      completions.forEach(completion => {{\n        console.log(completion);\n        console.log(err);\n      }});\n    }});\n  }});\n  r.logs.should.include('foo');\n}});\n"
    );
    both_ways(
        &[(spec, old)],
        &writing(&[(spec, &new)]),
        &|_, receipt: &Value, mode| {
            // The repeated line follows the file; the dump of `err` is new (line 17).
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![(spec.to_string(), 17)],
                "{mode}: {receipt}"
            );
        },
    );
}
