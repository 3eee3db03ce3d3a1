//! Modules whose job is to print: a command-line interface and a logger.
//!
//! A `console.log` in library code is usually a leftover, but a command-line interface
//! prints its usage, its version and its results, and a logger writes its records to the
//! console: there the print is what the module is for. Such a module is named for it, by
//! the project's own layout: a file called `cli` (`cli.js`, `Cli.java`), a file in a `cli`
//! directory (`lib/cli/run.js`), or a file called `logger`/`logging`/`log`.
//!
//! Test files keep their own rules (a value dumped in a test of the CLI is still a dump):
//! the caller applies this to product files only.

/// Directories that hold a command-line interface.
const CLI_DIRS: &[&str] = &["cli"];

/// File names (without extension, any case) of modules whose job is to print.
const OUTPUT_STEMS: &[&str] = &["cli", "logger", "logging", "log"];

/// Whether the file at `path` is a command-line interface's or a logger's module.
pub fn prints_for_a_living(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or("");
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    OUTPUT_STEMS.iter().any(|s| stem.eq_ignore_ascii_case(s))
        || parts.any(|dir| CLI_DIRS.iter().any(|d| dir.eq_ignore_ascii_case(d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cli_or_logger_module_is_named_for_it() {
        for path in [
            "lib/cli/cli.js",
            "lib/cli/run-helpers.cjs",
            "src/cli.ts",
            "packages/core/src/Cli.java",
            "src/utils/logger.ts",
            "lib/log.mjs",
            "src/Logging.kt",
        ] {
            assert!(prints_for_a_living(path), "{path}");
        }
        for path in [
            "lib/client.js",
            "src/clip.ts",
            "src/cli.test.ts",
            "lib/cli-helpers.js",
            "src/logic.js",
            "src/blog/post.js",
            "src/logger/format.js",
            "lib/clients/http.js",
        ] {
            assert!(!prints_for_a_living(path), "{path}");
        }
    }
}
