//! A skip condition rewritten to keep every case it skipped and add another (`{ skip:
//! !!process.env.A }` -> `{ skip }` over `const skip = process.env.A || process.env.B`,
//! `skipif(A)` -> `skipif(A or B)`) skips the test somewhere more than before: widened, a
//! finding. The same condition moved into a variable, reworded or narrowed is not. Judged
//! uncommitted and committed. Real repositories, the real binary.

mod gitrepo;

use gitrepo::{both_ways, lines_of, messages, writing};
use serde_json::Value;

const JS: &str = "test/pkg.test.js";
const JS_BODY: &str = "const { test } = require('node:test');\n\ntest('packaged', { skip: !!process.env.PNPM_CI }, async (t) => {\n  t.assert.ok(await pack());\n});\n";
const PY: &str = "tests/test_fork.py";
const PY_BODY: &str = "import sys\n\nimport pytest\n\n\n@pytest.mark.skipif(IS_PYPY, reason='no fork')\ndef test_fork():\n    assert fork() == 0\n";

fn shorthand(declaration: &str) -> String {
    JS_BODY
        .replace("{ skip: !!process.env.PNPM_CI }", "{ skip }")
        .replace("\ntest(", &format!("\n{declaration}\n\ntest("))
}

fn widened_at(path: &'static str, line: u64) -> impl Fn(Option<i32>, &Value, &str) {
    move |code, receipt, mode| {
        assert_eq!(
            lines_of(receipt, "new_skips"),
            vec![(path.to_string(), line)],
            "{mode}: {receipt}"
        );
        let message = &messages(receipt, "new_skips")[0];
        assert!(message.contains("widened"), "{mode}: {message}");
        assert_eq!(code, Some(3), "{mode}");
    }
}

#[test]
fn a_skip_condition_that_gained_an_alternative_widened() {
    let wider = shorthand("const skip = process.env.PNPM_CI || process.env.CITGM");
    both_ways(
        &[(JS, JS_BODY)],
        &writing(&[(JS, &wider)]),
        &widened_at(JS, 5),
    );
    let py = PY_BODY.replace(
        "skipif(IS_PYPY,",
        "skipif(IS_PYPY or sys.platform == 'win32',",
    );
    both_ways(&[(PY, PY_BODY)], &writing(&[(PY, &py)]), &widened_at(PY, 6));
}

#[test]
fn a_condition_moved_reworded_or_narrowed_is_not_widened() {
    // Each change also widens one condition in a second file: only that one is reported.
    const OTHER: &str = "tests/test_spawn.py";
    let other = PY_BODY.replace("test_fork", "test_spawn");
    let other_wider = other.replace("skipif(IS_PYPY,", "skipif(IS_PYPY or IS_WINDOWS,");
    for moved in [
        shorthand("const skip = !!process.env.PNPM_CI"),
        shorthand("const skip = isPackagingCi()"),
    ] {
        both_ways(
            &[(JS, JS_BODY), (OTHER, &other)],
            &writing(&[(JS, &moved), (OTHER, &other_wider)]),
            &widened_at(OTHER, 6),
        );
    }
    let wide = PY_BODY.replace("skipif(IS_PYPY,", "skipif(IS_PYPY or IS_WINDOWS,");
    both_ways(
        &[(PY, &wide), (OTHER, &other)],
        &writing(&[(PY, PY_BODY), (OTHER, &other_wider)]),
        &widened_at(OTHER, 6),
    );
}
