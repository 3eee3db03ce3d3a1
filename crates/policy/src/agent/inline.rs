//! Inline interpreter code (`python -c`, `node -e`, `perl -e`, a heredoc fed to `python -`).
//!
//! Another language cannot be vetted path by path, so this only asks whether the code
//! reaches for the calls that delete, write, move or spawn; such code is `exec.inline`
//! (ask in `standard`). Printing, parsing and computing stay allowed.

/// Calls that change the file system or start other programs, across the interpreters
/// agents use. Matched as plain substrings of the code: a false "ask" costs a prompt, a
/// missed call costs the tree.
const MUTATING: [&str; 62] = [
    // Python
    "rmtree",
    "os.remove",
    "os.unlink",
    "os.rmdir",
    "os.removedirs",
    "os.system",
    "os.popen",
    "subprocess",
    "os.exec",
    "os.spawn",
    "os.rename",
    "os.replace",
    "os.chmod",
    "os.chown",
    "shutil.move",
    "shutil.copy",
    ".unlink(",
    ".rmdir(",
    ".write_text(",
    ".write_bytes(",
    ".write(",
    ".writelines(",
    ".rename(",
    ".replace(",
    ".touch(",
    ".mkdir(",
    "pty.spawn",
    // Node, Deno, Bun
    "child_process",
    "execSync",
    "spawnSync",
    "execFile",
    "spawn(",
    "exec(",
    "rmSync",
    "rmdirSync",
    "unlinkSync",
    "writeFileSync",
    "writeFile(",
    "appendFile",
    "fs.rm(",
    "fs.unlink(",
    "renameSync",
    "copyFileSync",
    "Deno.remove",
    "Deno.write",
    "Deno.Command",
    "Bun.write",
    "Bun.spawn",
    "Bun.$",
    // Ruby, Perl, PHP, Lua
    "FileUtils",
    "File.delete",
    "File.write",
    "system(",
    "system ",
    "IO.popen",
    "%x",
    "`",
    "qx",
    "unlink",
    "remove_tree",
    "shell_exec",
    "passthru",
];

/// Write modes of `open()`, for languages where opening is writing.
const WRITE_MODES: [&str; 10] = [
    "'w'", "\"w\"", "'wb'", "\"wb\"", "'a'", "\"a\"", "'w+'", "\"w+\"", "mode=", "'>",
];

/// The first mutating call found in `code`, if any.
pub(crate) fn mutating_call(code: &str) -> Option<&'static str> {
    if let Some(m) = MUTATING.iter().find(|m| code.contains(**m)) {
        return Some(m);
    }
    if code.contains("open(") {
        if let Some(m) = WRITE_MODES.iter().find(|m| code.contains(**m)) {
            return Some(m);
        }
    }
    if code.contains("file_put_contents") {
        return Some("file_put_contents");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deleting_and_spawning_code_is_found() {
        assert_eq!(
            mutating_call("import shutil; shutil.rmtree('/x')"),
            Some("rmtree")
        );
        assert_eq!(
            mutating_call("require('child_process').execSync('ls')"),
            Some("child_process")
        );
        assert_eq!(mutating_call("open('f', 'w').close()"), Some("'w'"));
        assert_eq!(mutating_call("system('rm -rf /')"), Some("system("));
    }

    #[test]
    fn reading_and_printing_code_is_not() {
        assert_eq!(mutating_call("print('hello')"), None);
        assert_eq!(
            mutating_call("import json,sys; print(json.load(open('p.json'))['v'])"),
            None
        );
        assert_eq!(mutating_call("console.log(process.version)"), None);
    }
}
