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
        "cargo" => cargo_writes(rest),
        // `dasel put -f FILE` and `dasel delete -f FILE` rewrite FILE in place, unless
        // `-o`/`--out` names another output.
        "dasel" if sub().is_some_and(|s| s.is("put") || s.is("delete")) => {
            let all = &[
                "-f",
                "--file",
                "-o",
                "--out",
                "-v",
                "--value",
                "-t",
                "--type",
                "-r",
                "--read",
                "-w",
                "--write",
                "-s",
                "--selector",
            ];
            let out = value_of(all, &["-o", "--out"]);
            if out.is_empty() {
                value_of(all, &["-f", "--file"])
            } else {
                out
            }
        }
        // Gradle writes its build and caches under the project it is pointed at.
        "gradle" | "gradlew" => value_of(
            &[
                "-p",
                "--project-dir",
                "--project-cache-dir",
                "-g",
                "--gradle-user-home",
            ],
            &[
                "-p",
                "--project-dir",
                "--project-cache-dir",
                "-g",
                "--gradle-user-home",
            ],
        ),
        // Maven writes `target/` beside the POM `-f` names, and the local repository
        // wherever `-Dmaven.repo.local` says.
        "mvn" | "mvnw" => {
            let mut out: Vec<Arg> = value_of(&["-f", "--file"], &["-f", "--file"])
                .iter()
                .filter_map(|a| a.text().map(|t| Arg::literal(parent_dir(t))))
                .collect();
            out.extend(
                rest.iter()
                    .filter_map(|a| a.text()?.strip_prefix("-Dmaven.repo.local="))
                    .map(Arg::literal),
            );
            out
        }
        "gem" if sub().is_some_and(|s| s.is("install") || s.is("update")) => value_of(
            &["-i", "--install-dir", "-n", "--bindir"],
            &["-i", "--install-dir", "-n", "--bindir"],
        ),
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
    targets.extend(global_install(name, rest));
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
        "aws" => matches!(first_two, (Some("configure"), Some("set" | "import")))
            .then_some("~/.aws/config"),
        // `poetry config --local` writes the project's own `poetry.toml`.
        "poetry" => (first_two.0 == Some("config")
            && first_two.1.is_some()
            && !has("--local")
            && !has("--list"))
        .then_some("~/.config/pypoetry/config.toml"),
        "bundle" => {
            (first_two.0 == Some("config") && has("--global")).then_some("~/.bundle/config")
        }
        "composer" => (first_two.0 == Some("config") && (has("--global") || has("-g")))
            .then_some("~/.config/composer/config.json"),
        "conda" => (first_two.0 == Some("config")
            && (has("--set")
                || has("--add")
                || has("--append")
                || has("--prepend")
                || has("--remove")))
        .then_some("~/.condarc"),
        "gh" => matches!(
            first_two,
            (Some("alias"), Some("set" | "delete" | "import")) | (Some("config"), Some("set"))
        )
        .then_some("~/.config/gh/config.yml"),
        _ => None,
    }?;
    Some(Arg::literal(file))
}

/// The directory part of a path as written (`../other/pom.xml` -> `../other`).
fn parent_dir(path: &str) -> &str {
    match path.rsplit_once('/') {
        Some(("", _)) => "/",
        Some((dir, _)) => dir,
        None => ".",
    }
}

/// A write target only known when the tool runs (its global prefix, `GOBIN`): judged
/// like a path that cannot be resolved statically.
fn unknown_place(what: &str) -> Arg {
    let mut a = Arg::literal(what);
    a.value = None;
    a.dynamic = Some(what.to_string());
    a
}

/// `cargo ... --target-dir DIR` (every subcommand builds, or for `clean` deletes, there),
/// `cargo install --root DIR`, `cargo vendor DIR`, `cargo new|init PATH`, and `cargo clean
/// --manifest-path M`, which deletes the target directory beside another project's
/// manifest.
fn cargo_writes(rest: &[Arg]) -> Vec<Arg> {
    let p = Parsed::new(
        rest,
        &[
            "--target-dir",
            "--root",
            "--manifest-path",
            "-p",
            "--package",
            "--bin",
            "--example",
            "--test",
            "--bench",
            "--features",
            "-F",
            "--target",
            "--profile",
            "--name",
            "--vcs",
            "--edition",
            "-j",
            "--jobs",
            "--message-format",
            "--color",
            "--config",
            "-Z",
            "--registry",
            "--index",
            "--version",
            "--git",
            "--branch",
            "--tag",
            "--rev",
            "--path",
            "--sync",
            "-s",
        ],
    );
    let sub = p.operands.first().and_then(|a| a.text()).unwrap_or("");
    let mut out = p.values(&["--target-dir"]);
    match sub {
        "install" => out.extend(p.values(&["--root"])),
        "vendor" => out.extend(p.operands.get(1).map(|a| (*a).clone())),
        "new" | "init" => out.extend(p.operands.get(1).map(|a| (*a).clone())),
        "clean" => out.extend(
            p.values(&["--manifest-path"])
                .iter()
                .filter_map(|a| a.text().map(|t| Arg::literal(parent_dir(t)))),
        ),
        _ => {}
    }
    out
}

/// Installs into a place every later shell of the user reads, outside any project: the
/// package managers' global or user installs (`npm i -g`, `yarn global add`, `pip install
/// --user`, `uv tool install`, `pipx install`, `dotnet tool install -g`, `composer global
/// require`, `go install PKG@VERSION`). Where the place has one fixed default it is
/// named; otherwise it is only known when the tool runs.
fn global_install(name: &str, rest: &[Arg]) -> Option<Arg> {
    let words: Vec<&str> = rest.iter().filter_map(|a| a.text()).collect();
    let ops: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    let op = |i: usize| ops.get(i).copied().unwrap_or("");
    let flag = |names: &[&str]| words.iter().any(|w| names.contains(w));
    let installs = |w: &str| {
        matches!(
            w,
            "install" | "i" | "add" | "update" | "up" | "upgrade" | "uninstall" | "remove" | "rm"
        )
    };
    match name {
        "npm" | "pnpm" | "bun" if installs(op(0)) && flag(&["-g", "--global"]) => {
            Some(unknown_place(&format!(
                "{name}'s global prefix (install into the project instead: drop -g)"
            )))
        }
        "yarn" if op(0) == "global" => Some(unknown_place(
            "yarn's global folder (add it to the project instead: yarn add)",
        )),
        "pip" | "pip3" if op(0) == "install" && flag(&["--user"]) => Some(Arg::literal("~/.local")),
        "pip" | "pip3" if op(0) == "install" && flag(&["--break-system-packages"]) => {
            Some(unknown_place("the system Python's packages"))
        }
        "uv" if op(0) == "pip" && flag(&["--system"]) => {
            Some(unknown_place("the system Python's packages"))
        }
        "uv" if op(0) == "tool" && matches!(op(1), "install" | "upgrade" | "uninstall") => {
            Some(Arg::literal("~/.local/bin"))
        }
        "uv" if op(0) == "python" && matches!(op(1), "install" | "uninstall") => {
            Some(Arg::literal("~/.local/share/uv/python"))
        }
        "pipx"
            if matches!(
                op(0),
                "install" | "uninstall" | "uninstall-all" | "reinstall-all" | "inject"
            ) =>
        {
            Some(Arg::literal("~/.local/bin"))
        }
        "dotnet" if op(0) == "tool" && installs(op(1)) && flag(&["-g", "--global"]) => {
            Some(Arg::literal("~/.dotnet/tools"))
        }
        "composer" if op(0) == "global" => Some(unknown_place(
            "composer's global home (require it in the project instead)",
        )),
        "rustup"
            if matches!(
                op(0),
                "self" | "toolchain" | "default" | "update" | "target" | "component"
            ) && op(1) != "list" =>
        {
            Some(Arg::literal("~/.rustup"))
        }
        "volta" if matches!(op(0), "install" | "uninstall" | "pin") && op(0) != "pin" => {
            Some(Arg::literal("~/.volta"))
        }
        "conda" | "mamba" | "micromamba"
            if (op(0) == "env" && op(1) == "remove") || (op(0) == "remove" && flag(&["--all"])) =>
        {
            Some(unknown_place("conda's environments"))
        }
        "gem" if op(0) == "uninstall" && !flag(&["-i", "--install-dir"]) => {
            Some(unknown_place("the gem home"))
        }
        "go" if op(0) == "install" && ops.iter().skip(1).any(|w| w.contains('@')) => Some(
            unknown_place("GOBIN or ~/go/bin (build into the repository instead: go build -o)"),
        ),
        _ => None,
    }
}
