//! A command-line interface's module (a file called `cli`, or in a `cli` directory) and a
//! logger's (`logger`, `logging`, `log`) print for a living: their `console.log` is the
//! program's output, not a `debug_artifacts` finding. The same print in a library module
//! stays one, and a test of the CLI keeps the rules of tests (a value dumped is a dump).
//! Real repositories, the real binary, judged uncommitted and committed.

mod gitrepo;

use gitrepo::{both_ways, lines_of, writing};

const CLI: &str = "lib/cli/cli.js";
const CLI_OLD: &str =
    "import { run } from './run.js';\n\nexport function main(argv) {\n  return run(argv);\n}\n";
const CLI_NEW: &str = "import { run } from './run.js';\nimport pkg from '../../package.json' with { type: 'json' };\n\nconst printVersion = () => {\n  console.log(pkg.version);\n};\n\nconst printHelp = () => {\n  console.log(`Usage: tool [spec..]`);\n};\n\nexport function main(argv) {\n  if (argv.includes('--help')) return printHelp();\n  if (argv.includes('--version')) return printVersion();\n  return run(argv);\n}\n";

#[test]
fn a_cli_module_prints_its_usage_and_version() {
    let logger = "src/logger.ts";
    let logger_new =
        "export function info(message: string): void {\n  console.log(`[info] ${message}`);\n}\n";
    both_ways(
        &[(CLI, CLI_OLD), (logger, "export {};\n")],
        &writing(&[(CLI, CLI_NEW), (logger, logger_new)]),
        &|code, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![],
                "{mode}: {receipt}"
            );
            assert_eq!(code, Some(0), "{mode}");
        },
    );
}

#[test]
fn the_same_print_in_a_library_module_or_a_dump_in_a_cli_test_is_a_leftover() {
    // A module whose name only starts like one (`client`, `cli-helpers`) is library code.
    let client = "lib/client.js";
    let helpers = "lib/cli-helpers.js";
    let spec = "test/cli/cli.spec.js";
    let spec_old = "import { main } from '../../lib/cli/cli.js';\n\nit('runs', () => {\n  const out = main([]);\n});\n";
    let spec_new = "import { main } from '../../lib/cli/cli.js';\n\nit('runs', () => {\n  const out = main([]);\n  console.log(out);\n});\n";
    both_ways(
        &[(client, CLI_OLD), (helpers, CLI_OLD), (spec, spec_old)],
        &writing(&[(client, CLI_NEW), (helpers, CLI_NEW), (spec, spec_new)]),
        &|_, receipt, mode| {
            assert_eq!(
                lines_of(receipt, "debug_artifacts"),
                vec![
                    (helpers.to_string(), 5),
                    (helpers.to_string(), 9),
                    (client.to_string(), 5),
                    (client.to_string(), 9),
                    (spec.to_string(), 5),
                ],
                "{mode}: {receipt}"
            );
        },
    );
}
