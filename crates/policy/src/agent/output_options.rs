//! Files and directories a build or package tool writes through an option of its own
//! (`gcc -o FILE`, `pip install --target DIR`, `openssl genrsa -out FILE`), or through an
//! operand that names its output (`xxd -r IN OUT`, `zip ARCHIVE ...`, `7z a ARCHIVE`).
//! Each is an ordinary write target, judged like a redirect: outside the write roots it is
//! `fs.escape`, on a gate file `gate.tamper`.

use super::args::Arg;
use super::checks::Op;
use super::commands::Parsed;

/// The compilers whose `-o FILE` names the output.
const COMPILERS: &[&str] = &[
    "gcc", "cc", "c++", "g++", "clang", "clang++", "tcc", "rustc", "gfortran", "ld", "nasm",
    "javac", "kotlinc", "swiftc", "tsc",
];

/// What `name` with its words `rest` writes through its own output options.
pub(crate) fn output_writes(name: &str, rest: &[Arg]) -> Vec<(Vec<Arg>, Op)> {
    let sub = || rest.iter().find(|a| !a.raw.starts_with('-'));
    let value_of = |with_value: &[&str], names: &[&str]| -> Vec<Arg> {
        Parsed::new(rest, with_value).values(names)
    };
    let targets: Vec<Arg> = match name {
        _ if COMPILERS.contains(&name) => match name {
            // javac's `-d DIR`, tsc's `--outDir`/`--outFile`.
            "javac" | "kotlinc" => value_of(&["-d", "-o"], &["-d", "-o"]),
            "tsc" => value_of(&["--outDir", "--outFile"], &["--outDir", "--outFile"]),
            _ => value_of(&["-o"], &["-o"]),
        },
        "go" if sub().is_some_and(|s| s.is("build") || s.is("test")) => value_of(&["-o"], &["-o"]),
        // Every openssl subcommand spells its output `-out FILE` (`-keyout` for keys).
        "openssl" => value_of(&["-out", "-keyout"], &["-out", "-keyout"]),
        "pandoc" => value_of(&["-o", "--output"], &["-o", "--output"]),
        "xxd" => {
            let p = Parsed::new(rest, &["-c", "-g", "-l", "-s", "-o", "-n", "-C"]);
            p.operands
                .get(1)
                .map(|a| (*a).clone())
                .into_iter()
                .collect()
        }
        "zip" => {
            let p = Parsed::new(rest, &["-b", "-n", "-t", "-tt", "-x", "-i", "-P", "-O"]);
            let out = value_of(&["-O", "--output-file"], &["-O", "--output-file"]);
            match out.is_empty() {
                true => p
                    .operands
                    .first()
                    .map(|a| (*a).clone())
                    .into_iter()
                    .collect(),
                false => out,
            }
        }
        "7z" | "7za" | "7zr" if sub().is_some_and(|s| s.is("a") || s.is("u") || s.is("d")) => {
            let p = Parsed::new(rest, &[]);
            p.operands
                .get(1)
                .map(|a| (*a).clone())
                .into_iter()
                .collect()
        }
        "cargo" if sub().is_some_and(|s| s.is("install")) => value_of(&["--root"], &["--root"]),
        "npm" | "pnpm" => {
            let p = Parsed::new(rest, &["--prefix", "-C", "--dir", "--pack-destination"]);
            let installs = p.operands.first().is_some_and(|s| {
                [
                    "install",
                    "i",
                    "ci",
                    "add",
                    "update",
                    "up",
                    "uninstall",
                    "rm",
                    "link",
                ]
                .iter()
                .any(|w| s.is(w))
            });
            let mut out = p.values(&["--pack-destination"]);
            if installs {
                out.extend(p.values(&["--prefix"]));
            }
            out
        }
        "pip" | "pip3" => {
            let p = Parsed::new(
                rest,
                &[
                    "-t",
                    "--target",
                    "--prefix",
                    "--root",
                    "-d",
                    "--dest",
                    "-w",
                    "--wheel-dir",
                ],
            );
            match p.operands.first().and_then(|s| s.text()) {
                Some("install") => p.values(&["-t", "--target", "--prefix", "--root"]),
                Some("download") => p.values(&["-d", "--dest"]),
                Some("wheel") => p.values(&["-w", "--wheel-dir"]),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    let mut targets = targets;
    targets.extend(user_config_write(name, rest));
    if targets.is_empty() {
        Vec::new()
    } else {
        vec![(targets, Op::Write)]
    }
}

/// The user-level configuration file a `config set` of a package manager or CLI writes
/// (`npm config set`, `pip config set`, `gh alias set`): outside the repository, read by
/// every later run of that tool, as `git config --global` is.
fn user_config_write(name: &str, rest: &[Arg]) -> Option<Arg> {
    let words: Vec<&str> = rest
        .iter()
        .filter_map(|a| a.text())
        .filter(|t| !t.starts_with('-'))
        .collect();
    let has = |opt: &str| rest.iter().any(|a| a.text().is_some_and(|t| t == opt));
    if has("--help") || has("-h") {
        return None;
    }
    let first_two = (words.first().copied(), words.get(1).copied());
    let file = match name {
        "npm" | "pnpm" => {
            let sets = matches!(
                first_two,
                (Some("config" | "c"), Some("set" | "delete" | "edit"))
            ) || matches!(first_two.0, Some("set"));
            // `--location=project` (`-L project`) writes the repository's own `.npmrc`.
            let project = rest.iter().enumerate().any(|(i, a)| {
                a.text().is_some_and(|t| {
                    t == "--location=project"
                        || ((t == "--location" || t == "-L")
                            && rest.get(i + 1).and_then(|v| v.text()) == Some("project"))
                })
            });
            (sets && !project).then_some("~/.npmrc")
        }
        "yarn" => matches!(
            first_two,
            (Some("config"), Some("set" | "unset" | "delete"))
        )
        .then_some("~/.yarnrc"),
        "pip" | "pip3" => (matches!(first_two, (Some("config"), Some("set" | "unset" | "edit")))
            && !has("--site"))
        .then_some("~/.config/pip/pip.conf"),
        "gh" => matches!(
            first_two,
            (Some("alias"), Some("set" | "delete" | "import")) | (Some("config"), Some("set"))
        )
        .then_some("~/.config/gh/config.yml"),
        _ => None,
    }?;
    Some(Arg::literal(file))
}
