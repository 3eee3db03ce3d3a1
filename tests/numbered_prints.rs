//! A print whose only argument is a number (`console.error(4)`, `print(2)`, `puts 1`) is
//! a probe marking how far a run got: a `debug_artifacts` finding in any file, tests
//! included, on any channel (stderr too). A print that says something, or a number printed
//! by a file whose role is to print (a script, a fixture a test runs), is not.
//! Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, no_debug_artifacts, writing};

const SPEC: &str = "test/integration/watch.spec.js";
const SPEC_OLD: &str = "describe('watch', function () {\n  it('reruns', async function () {\n    await Promise.all([\n      send('a'),\n      send('b'),\n    ]);\n  });\n});\n";

#[test]
fn numbered_prints_in_a_test_are_probes() {
    let probed = "describe('watch', function () {\n  it('reruns', async function () {\n    await Promise.all([\n      send('a').then(() =>\n        console.error(4),\n      ),\n      send('b').then(() => console.error(5)),\n    ]);\n  });\n});\n";
    let py = "src/app/sync.py";
    let py_old = "def sync(items):\n    for item in items:\n        push(item)\n";
    let py_new = "def sync(items):\n    print(1)\n    for item in items:\n        push(item)\n    print(2)\n";
    both_ways(
        &[(SPEC, SPEC_OLD), (py, py_old)],
        &writing(&[(SPEC, probed), (py, py_new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![
                    (py.to_string(), 2),
                    (py.to_string(), 5),
                    (SPEC.to_string(), 5),
                    (SPEC.to_string(), 7),
                ],
                "{mode}: {receipt}"
            );
            // A warning by default: reported, the exit code unchanged.
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn prints_that_say_something_and_numbers_a_script_prints_are_not() {
    let said = "describe('watch', function () {\n  it('reruns', async function () {\n    await Promise.all([\n      send('a').then(() => console.error('step 4', state)),\n      send('b').catch((err) => console.error(err)),\n    ]);\n    console.error(`${4} reruns`);\n  });\n});\n";
    let fixture = "test/fixtures/exit-code.fixture.js";
    let script = "scripts/count.py";
    let gated = "src/app/trace.py";
    let gated_old = "def trace(self):\n    return None\n";
    let gated_new = "def trace(self):\n    if self.debug:\n        print(1)\n    return None\n";
    both_ways(
        &[
            (SPEC, SPEC_OLD),
            (fixture, "process.exitCode = 0;\n"),
            (script, "import sys\n"),
            (gated, gated_old),
        ],
        &writing(&[
            (SPEC, said),
            (fixture, "process.exitCode = 0;\nconsole.log(1);\n"),
            (script, "import sys\nprint(0)\n"),
            (gated, gated_new),
        ]),
        &no_debug_artifacts,
    );
}
