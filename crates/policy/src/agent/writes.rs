//! What programs write: the file operands and output options of each writing program,
//! and what downloaders fetch into which files.

use super::args::Arg;
use super::checks::Op;
use super::commands::Parsed;
use super::walk::{Analyzer, ShellState};
use crate::programs::long_matches;

impl Analyzer<'_> {
    pub(crate) fn downloader(
        &mut self,
        name: &str,
        rest: &[Arg],
        display: &str,
        st: &mut ShellState,
    ) {
        let (outs, dirs): (Vec<Arg>, Vec<Arg>) = if name == "wget" {
            let p = Parsed::new(
                rest,
                &[
                    "-O",
                    "-P",
                    "-o",
                    "-a",
                    "--output-document",
                    "--directory-prefix",
                    "--output-file",
                    "--append-output",
                    "-t",
                    "-T",
                    "-w",
                    "-e",
                    "-i",
                    "-U",
                    "--user-agent",
                    "--header",
                ],
            );
            let mut outs = Vec::new();
            for (long, short) in [
                ("--output-document", "-O"),
                ("--output-file", "-o"),
                ("--append-output", "-a"),
            ] {
                if let Some(v) = p.value(long, Some(short)).or_else(|| {
                    cluster_value(rest, short.chars().nth(1).unwrap_or('O'), "qvncNSkKErpH46")
                }) {
                    if !v.is("-") {
                        outs.push(v);
                    }
                }
            }
            let dirs = p
                .value("--directory-prefix", Some("-P"))
                .into_iter()
                .collect();
            (outs, dirs)
        } else {
            let p = Parsed::new(
                rest,
                &[
                    "-o",
                    "--output",
                    "-D",
                    "--dump-header",
                    "-c",
                    "--cookie-jar",
                    "--output-dir",
                    "-d",
                    "--data",
                    "-H",
                    "--header",
                    "-u",
                    "--user",
                    "-X",
                    "--request",
                    "-A",
                    "-e",
                    "-F",
                    "-T",
                    "-x",
                    "-K",
                    "-b",
                    "-C",
                    "-E",
                    "-m",
                    "-r",
                    "-w",
                    "-y",
                    "-Y",
                    "-z",
                    "-U",
                    "--data-raw",
                    "--data-binary",
                    "--url",
                ],
            );
            let mut outs = Vec::new();
            for (long, short) in [
                ("--output", 'o'),
                ("--dump-header", 'D'),
                ("--cookie-jar", 'c'),
            ] {
                let flag = format!("-{short}");
                if let Some(v) = p
                    .value(long, Some(&flag))
                    .or_else(|| cluster_value(rest, short, "sSLfkvIiNgqGO#"))
                {
                    if !v.is("-") {
                        outs.push(v);
                    }
                }
            }
            let dirs = p.value("--output-dir", None).into_iter().collect();
            (outs, dirs)
        };
        for out in &outs {
            if let Some(t) = out.text() {
                if let Some(paths) = st.cwd.resolve(t, self.ctx.home.as_deref()) {
                    st.downloaded.extend(paths);
                }
            }
        }
        self.check_writes(&outs, Op::Write, display, st);
        self.check_writes(&dirs, Op::Write, display, st);
    }

    /// Programs whose operands or options name files they create, change or remove.
    pub(crate) fn file_writes(
        &mut self,
        name: &str,
        rest: &[Arg],
        xargs: bool,
        display: &str,
        st: &mut ShellState,
    ) {
        let stdin_operands = || {
            let mut a = Arg::literal("(arguments read by xargs)");
            a.value = None;
            a.dynamic = Some("arguments xargs reads from its input".into());
            a
        };
        let mut writes: Vec<(Vec<Arg>, Op)> = Vec::new();
        let mut new_links: Vec<std::path::PathBuf> = Vec::new();
        let cloned = |v: &[&Arg]| v.iter().map(|a| (*a).clone()).collect::<Vec<Arg>>();
        match name {
            "rm" | "unlink" | "rmdir" | "shred" => {
                let p = Parsed::new(
                    rest,
                    &["-n", "--iterations", "-s", "--size", "--random-source"],
                );
                let op = match name {
                    "rm" => Op::Delete {
                        recursive: p.has("--recursive", Some('r'))
                            || p.has("--recursive", Some('R')),
                    },
                    "shred" if !p.has("--remove", Some('u')) => Op::Write,
                    _ => Op::Delete { recursive: false },
                };
                let mut targets = cloned(&p.operands);
                if xargs {
                    targets.push(stdin_operands());
                }
                writes.push((targets, op));
            }
            "touch" | "mkdir" | "truncate" | "tee" | "mkfifo" | "mknod" | "chattr" | "setfacl" => {
                let p = Parsed::new(
                    rest,
                    &[
                        "-d",
                        "-t",
                        "-r",
                        "--date",
                        "--reference",
                        "-m",
                        "--mode",
                        "-s",
                        "--size",
                        "-o",
                        "-M",
                        "-x",
                        "-X",
                    ],
                );
                let mut targets = cloned(&p.operands);
                if name == "mknod" {
                    targets.truncate(1);
                }
                if xargs && name != "tee" {
                    targets.push(stdin_operands());
                }
                writes.push((targets, Op::Write));
            }
            "chmod" | "chown" | "chgrp" => {
                let p = Parsed::new(rest, &[]);
                let reference = p.has("--reference", None);
                // Operands after the mode or owner; `chmod -x f` puts the mode among options.
                let mode_among_options =
                    name == "chmod" && p.opts.iter().any(|(o, _)| is_chmod_mode(o));
                let skip = usize::from(!(reference || mode_among_options));
                let mut targets = cloned(p.operands.get(skip..).unwrap_or(&[]));
                if xargs {
                    targets.push(stdin_operands());
                }
                writes.push((targets, Op::Write));
            }
            "cp" | "mv" | "ln" | "install" | "rsync" | "scp" => {
                let with_value: &[&str] = match name {
                    "rsync" => &[
                        "-e",
                        "--rsh",
                        "--exclude",
                        "--include",
                        "--filter",
                        "-f",
                        "--exclude-from",
                        "--include-from",
                        "-T",
                        "--temp-dir",
                        "--log-file",
                        "--partial-dir",
                        "--backup-dir",
                        "--suffix",
                        "--chmod",
                        "--chown",
                        "-B",
                        "--port",
                        "--password-file",
                        "--files-from",
                        "--compare-dest",
                        "--copy-dest",
                        "--link-dest",
                    ],
                    "scp" => &["-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J"],
                    "install" => &[
                        "-m",
                        "-o",
                        "-g",
                        "-t",
                        "-S",
                        "--mode",
                        "--owner",
                        "--group",
                        "--target-directory",
                        "--suffix",
                    ],
                    _ => &["-t", "-S", "--target-directory", "--suffix"],
                };
                let p = Parsed::new(rest, with_value);
                let local: Vec<&Arg> = p
                    .operands
                    .iter()
                    .copied()
                    .filter(|a| !is_remote_spec(a))
                    .collect();
                let target_dir = p.value("--target-directory", Some("-t"));
                let (sources, dest): (Vec<&Arg>, Option<Arg>) = match (&target_dir, name) {
                    (Some(d), _) => (local.clone(), Some(d.clone())),
                    (None, "install") if p.has("--directory", Some('d')) => (Vec::new(), None),
                    (None, "ln") if local.len() == 1 => (local.clone(), Some(Arg::literal("."))),
                    (None, _) if local.len() >= 2 => (
                        local[..local.len() - 1].to_vec(),
                        Some(local[local.len() - 1].clone()),
                    ),
                    (None, _) => (Vec::new(), None),
                };
                if name == "install" && p.has("--directory", Some('d')) {
                    writes.push((cloned(&local), Op::Write));
                }
                // A hard link is a second name for the same file: whatever writes through
                // the new name writes the source, so the source is judged as written.
                let hard_link = (name == "ln" && !p.has("--symbolic", Some('s')))
                    || (name == "cp" && p.has("--link", Some('l')));
                if hard_link {
                    writes.push((sources.iter().map(|a| (*a).clone()).collect(), Op::Write));
                }
                if let Some(dest) = dest {
                    let op =
                        if name == "rsync" && p.opts.iter().any(|(o, _)| o.starts_with("--del")) {
                            Op::Delete { recursive: true }
                        } else {
                            Op::Write
                        };
                    // Into a directory, each source lands under its own name (`cp f .claude/`
                    // writes `.claude/f`); a directory copied in brings its whole tree
                    // (`cp -r x/.claude .` writes `./.claude/**`).
                    let recursive = name == "mv"
                        || p.has("--recursive", Some('r'))
                        || p.has("--recursive", Some('R'))
                        || p.has("--archive", Some('a'));
                    let inner: Vec<Arg> = sources
                        .iter()
                        .filter_map(|src| {
                            let base = src.text()?.trim_end_matches('/').rsplit('/').next()?;
                            let d = dest.text()?;
                            (!base.is_empty() && base != "." && base != "..").then(|| {
                                Arg::literal(&format!("{}/{base}", d.trim_end_matches('/')))
                            })
                        })
                        .collect();
                    if name == "ln" && p.has("--symbolic", Some('s')) {
                        let home = self.ctx.home.clone();
                        for link in std::iter::once(&dest).chain(inner.iter()) {
                            if let Some(paths) =
                                link.text().and_then(|t| st.cwd.resolve(t, home.as_deref()))
                            {
                                new_links.extend(paths);
                            }
                        }
                    }
                    let tree_op = if recursive && op == Op::Write {
                        Op::WriteTree
                    } else {
                        op
                    };
                    // `rsync -a src/ dest`, `cp -r src/. dest`: the contents land in dest itself.
                    // `cp -rT src dest` (no target directory) makes dest the copy itself.
                    let contents = recursive
                        && (sources.iter().any(|s| {
                            s.text().is_some_and(|t| {
                                (name == "rsync" && t.ends_with('/')) || t.ends_with("/.")
                            })
                        }) || (name != "rsync" && p.has("--no-target-directory", Some('T'))));
                    writes.push((inner, tree_op));
                    writes.push((vec![dest], if contents { tree_op } else { op }));
                }
                let moves =
                    name == "mv" || (name == "rsync" && p.has("--remove-source-files", None));
                if moves {
                    let mut srcs = cloned(&sources);
                    if xargs {
                        srcs.push(stdin_operands());
                    }
                    writes.push((srcs, Op::MoveSource));
                }
            }
            "dd" => {
                let outs: Vec<Arg> = rest
                    .iter()
                    .filter_map(|a| {
                        a.text()
                            .and_then(|t| t.strip_prefix("of="))
                            .map(Arg::literal)
                    })
                    .collect();
                writes.push((outs, Op::Write));
            }
            "sed" | "perl" | "ruby" => {
                let with_value: &[&str] = match name {
                    "sed" => &["-e", "-f", "--expression", "--file", "-l", "--line-length"],
                    "ruby" => &["-e", "-r", "-I", "-C", "-E", "-F", "-x"],
                    _ => &["-e", "-E", "-M", "-m", "-I", "-x"],
                };
                let p = Parsed::new(rest, with_value);
                let in_place = p
                    .opts
                    .iter()
                    .any(|(o, _)| o.starts_with("--in-place") || in_place_cluster(o, name));
                if in_place {
                    let has_script = p.opts.iter().any(|(o, _)| {
                        matches!(o.as_str(), "-e" | "-f" | "--expression" | "--file" | "-E")
                    }) || p
                        .opts
                        .iter()
                        .any(|(o, _)| !o.starts_with("--") && o.ends_with('e'));
                    let skip = usize::from(!has_script);
                    let mut targets = cloned(p.operands.get(skip..).unwrap_or(&[]));
                    if xargs {
                        targets.push(stdin_operands());
                    }
                    writes.push((targets, Op::Write));
                }
            }
            "sort" => {
                let p = Parsed::new(
                    rest,
                    &[
                        "-o",
                        "--output",
                        "-k",
                        "-t",
                        "-S",
                        "-T",
                        "--key",
                        "--field-separator",
                    ],
                );
                if let Some(out) = p.value("--output", Some("-o")) {
                    writes.push((vec![out], Op::Write));
                }
            }
            "tar" | "bsdtar" => writes.extend(tar_writes(rest)),
            "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "lzma" | "unlzma"
            | "lzip" | "compress" | "uncompress" | "zstd" | "unzstd" | "lz4" => {
                // Each file operand is replaced by its (de)compressed form: it is gone from
                // where it was, as by `mv`. Writing to standard output, keeping the input,
                // testing or listing leave it; zstd and lz4 keep it unless told `--rm`.
                let p = Parsed::new(
                    rest,
                    &[
                        "-S",
                        "--suffix",
                        "-T",
                        "--threads",
                        "-F",
                        "--format",
                        "-C",
                        "--check",
                        "-M",
                        "--memlimit",
                        "-o",
                        "-D",
                        "-b",
                        "-B",
                    ],
                );
                let keeps_by_default = matches!(name, "zstd" | "unzstd" | "lz4");
                let keeps = p.has("--stdout", Some('c'))
                    || p.has("--to-stdout", None)
                    || p.has("--keep", Some('k'))
                    || p.has("--test", Some('t'))
                    || p.has("--list", Some('l'))
                    || (keeps_by_default && !p.has("--rm", None));
                if !keeps {
                    let files: Vec<Arg> = p
                        .operands
                        .iter()
                        .filter(|a| !a.is("-"))
                        .map(|a| (*a).clone())
                        .collect();
                    writes.push((files, Op::MoveSource));
                }
            }
            "crontab" => {
                // Installing, editing or removing a crontab writes the system's cron spool,
                // outside every write root; only listing it (`-l`) writes nothing.
                let p = Parsed::new(rest, &["-u", "-s"]);
                if !p.has("-l", Some('l')) {
                    writes.push((vec![Arg::literal("/var/spool/cron")], Op::Write));
                }
            }
            "unzip" => {
                let p = Parsed::new(rest, &["-d", "-x", "-P"]);
                let dir = p
                    .value("-d", Some("-d"))
                    .unwrap_or_else(|| Arg::literal("."));
                // Members named after the archive land in the directory by that name.
                let members = p
                    .operands
                    .iter()
                    .skip(1)
                    .map(|m| member_in(&dir, m))
                    .collect();
                writes.push((members, Op::Write));
                writes.push((vec![dir], Op::Write));
            }
            "unrar" | "rar"
                if matches!(
                    rest.iter()
                        .find_map(|a| a.text().filter(|t| !t.starts_with('-'))),
                    Some("x" | "e")
                ) =>
            {
                // `unrar x ARCHIVE [FILES] [DIR/]`: the destination is the last operand
                // when it ends in a slash, the cwd otherwise.
                let operands: Vec<&Arg> = rest
                    .iter()
                    .filter(|a| !a.text().is_some_and(|t| t.starts_with('-')))
                    .collect();
                let dir = operands
                    .iter()
                    .skip(2)
                    .last()
                    .filter(|a| a.text().is_some_and(|t| t.ends_with('/')))
                    .map(|a| (*a).clone())
                    .unwrap_or_else(|| Arg::literal("."));
                writes.push((vec![dir], Op::Write));
            }
            "dpkg" | "dpkg-deb" => {
                // `dpkg -x DEB DIR` (and `--vextract`, `--raw-extract`) unpacks into DIR.
                let extract = rest.iter().position(|a| {
                    a.text().is_some_and(|t| {
                        matches!(
                            t,
                            "-x" | "-X" | "-R" | "--extract" | "--vextract" | "--raw-extract"
                        )
                    })
                });
                if let Some(dir) = extract.and_then(|i| rest.get(i + 2)) {
                    writes.push((vec![dir.clone()], Op::Write));
                }
            }
            "cmake" if rest.first().is_some_and(|a| a.is("-E")) => {
                let cmd = rest.get(1).and_then(|a| a.text()).unwrap_or("");
                let operands: Vec<Arg> = rest
                    .iter()
                    .skip(2)
                    .filter(|a| !a.text().is_some_and(|t| t.starts_with('-')))
                    .cloned()
                    .collect();
                let recursive_flag = rest.iter().skip(2).any(|a| {
                    a.text()
                        .is_some_and(|t| t.starts_with('-') && t.contains(['r', 'R']))
                });
                match cmd {
                    "rm" | "remove" | "remove_directory" => writes.push((
                        operands,
                        Op::Delete {
                            recursive: cmd == "remove_directory" || recursive_flag,
                        },
                    )),
                    "touch" | "touch_nocreate" | "make_directory" => {
                        writes.push((operands, Op::Write))
                    }
                    "copy" | "copy_directory" | "copy_if_different" | "rename"
                    | "create_symlink" | "create_hardlink" => {
                        writes.push((operands.last().cloned().into_iter().collect(), Op::Write))
                    }
                    _ => {}
                }
            }
            "rename" | "prename" | "file-rename" | "perl-rename" => {
                // `rename EXPR FILES` (Perl) or `rename FROM TO FILES` (util-linux): every
                // file after the expression is moved away.
                let p = Parsed::new(rest, &[]);
                writes.push((
                    cloned(&p.operands[p.operands.len().min(1)..]),
                    Op::MoveSource,
                ));
            }
            // Formatting, partitioning, erasing: the device or image file named is
            // rewritten whole. Their options' values (labels, sizes, types) are not
            // paths; a word holding a `/` is the device (`/dev/sda`, `/tmp/disk.img`).
            _ if is_device_writer(name) => {
                let targets: Vec<Arg> = rest
                    .iter()
                    .filter(|a| {
                        a.text()
                            .is_none_or(|t| !t.starts_with('-') && t.contains('/'))
                    })
                    .cloned()
                    .collect();
                writes.push((targets, Op::Write));
            }
            "del-cli" | "trash" | "trash-put" => writes.push((
                cloned(&Parsed::new(rest, &[]).operands),
                Op::Delete { recursive: true },
            )),
            "rimraf" => writes.push((
                cloned(&Parsed::new(rest, &[]).operands),
                Op::Delete { recursive: true },
            )),
            "python" | "python2" | "python3" | "pypy" | "pypy3" => {
                writes.extend(python_module_writes(rest))
            }
            "dos2unix" | "unix2dos" | "mac2unix" | "unix2mac" => {
                // Every file is converted in place, except with `-n IN OUT` (new file).
                let p = Parsed::new(rest, &["-c", "--convmode", "-e", "--add-eol"]);
                let new_file = p.has("-n", Some('n')) || p.has("--newfile", None);
                let files: Vec<Arg> = p
                    .operands
                    .iter()
                    .enumerate()
                    .filter(|(n, _)| !new_file || n % 2 == 1)
                    .map(|(_, a)| (*a).clone())
                    .collect();
                writes.push((files, Op::Write));
            }
            "yq" | "prettier" | "eslint" | "stylelint" | "clang-format" | "gofmt" | "goimports"
            | "shfmt" | "rustfmt" | "black" | "isort" | "autopep8" | "taplo" | "ruff" | "biome" => {
                if let Some(files) = formatter_writes(name, rest) {
                    writes.push((files, Op::Write));
                }
            }
            "cpio" => {
                // `-p DIR` copies the listed files into DIR; `-i` extracts into `-D DIR`.
                let p = Parsed::new(
                    rest,
                    &[
                        "-D",
                        "--directory",
                        "-F",
                        "--file",
                        "-H",
                        "--format",
                        "-R",
                        "-E",
                        "-M",
                    ],
                );
                let letters: String = p
                    .opts
                    .iter()
                    .filter(|(o, _)| !o.starts_with("--"))
                    .map(|(o, _)| o[1..].to_string())
                    .collect();
                if letters.contains('p') || p.has("--pass-through", None) {
                    writes.push((cloned(&p.operands), Op::Write));
                } else if letters.contains('i') || p.has("--extract", None) {
                    let dir = p
                        .value("--directory", Some("-D"))
                        .unwrap_or_else(|| Arg::literal("."));
                    writes.push((vec![dir], Op::Write));
                }
            }
            "7z" | "7za" | "7zr" => {
                // `7z x ARCHIVE -oDIR`: extraction lands in DIR, the cwd by default.
                if matches!(rest.first().and_then(|a| a.text()), Some("x" | "e")) {
                    let dir = rest
                        .iter()
                        .find_map(|a| {
                            a.text()
                                .and_then(|t| t.strip_prefix("-o"))
                                .map(Arg::literal)
                        })
                        .or_else(|| rest.iter().find(|a| a.raw.starts_with("-o")).cloned())
                        .unwrap_or_else(|| Arg::literal("."));
                    writes.push((vec![dir], Op::Write));
                }
            }
            "sponge" | "ed" => {
                writes.push((cloned(&Parsed::new(rest, &["-p"]).operands), Op::Write))
            }
            "awk" | "gawk" => {
                // `gawk -i inplace PROGRAM FILE...` rewrites every FILE.
                let p = Parsed::new(
                    rest,
                    &[
                        "-F",
                        "-v",
                        "-f",
                        "-e",
                        "-i",
                        "-l",
                        "--file",
                        "--source",
                        "--include",
                        "--load",
                        "--assign",
                        "--field-separator",
                    ],
                );
                let inplace = p.values(&["-i", "--include"]).iter().any(|v| {
                    v.text()
                        .is_some_and(|t| t.trim_end_matches(".awk") == "inplace")
                });
                if inplace {
                    let program_given = !p.values(&["-f", "--file", "-e", "--source"]).is_empty();
                    let files: Vec<Arg> = p
                        .operands
                        .iter()
                        .skip(usize::from(!program_given))
                        .filter(|a| !a.text().is_some_and(|t| t.contains('=')))
                        .map(|a| (*a).clone())
                        .collect();
                    writes.push((files, Op::Write));
                }
            }
            _ => {}
        }
        writes.extend(super::output_options::output_writes(name, rest));
        let tree_writer = matches!(
            name,
            "tar"
                | "bsdtar"
                | "unzip"
                | "unrar"
                | "rar"
                | "dpkg"
                | "dpkg-deb"
                | "cpio"
                | "7z"
                | "7za"
                | "7zr"
                | "python"
                | "python3"
        ) || formatter_writes(name, rest).is_some();
        if tree_writer {
            // Extracting into (or formatting) a named directory below the repository root
            // writes its whole tree (`tar -xf cfg.tar -C .codex`, `prettier --write
            // .claude`); the root itself stays a plain write, or every archive unpacked
            // there, and `prettier --write .`, would count as touching the gate files.
            let below_root: Vec<(Vec<Arg>, Op)> = writes
                .iter()
                .filter(|(_, op)| *op == Op::Write)
                .map(|(targets, _)| {
                    let inner: Vec<Arg> = targets
                        .iter()
                        .filter(|t| {
                            t.text()
                                .and_then(|v| st.cwd.resolve(v, self.ctx.home.as_deref()))
                                .is_some_and(|ps| {
                                    ps.iter().all(|p| {
                                        p.starts_with(&self.ctx.repo_root)
                                            && p != &self.ctx.repo_root
                                    })
                                })
                        })
                        .cloned()
                        .collect();
                    (inner, Op::WriteTree)
                })
                .collect();
            writes.extend(below_root);
        }
        for (targets, op) in writes {
            self.check_writes(&targets, op, display, st);
        }
        st.links.extend(new_links);
    }
}

/// What `python -m MODULE ARGS` writes, for the standard modules that write files:
/// `json.tool IN OUT`, `zipfile`/`tarfile` `-e ARCHIVE DIR` and `-c ARCHIVE FILES`, `venv DIR`.
fn python_module_writes(rest: &[Arg]) -> Vec<(Vec<Arg>, Op)> {
    let mut i = 0;
    let mut module: Option<String> = None;
    while i < rest.len() {
        let Some(t) = rest[i].text() else { break };
        i += 1;
        if t == "-m" {
            module = rest.get(i).and_then(|a| a.text()).map(str::to_string);
            i += 1;
            break;
        }
        if let Some(m) = t.strip_prefix("-m") {
            module = Some(m.to_string());
            break;
        }
        if matches!(t, "-c" | "-W" | "-X" | "-Q") {
            i += 1;
        } else if !t.starts_with('-') || t == "-c" {
            return Vec::new();
        }
    }
    let Some(module) = module else {
        return Vec::new();
    };
    let args = &rest[i.min(rest.len())..];
    let mut out = Vec::new();
    match module.as_str() {
        "json.tool" => {
            let p = Parsed::new(args, &["--indent"]);
            out.push((
                p.operands
                    .get(1)
                    .map(|a| (*a).clone())
                    .into_iter()
                    .collect(),
                Op::Write,
            ));
        }
        "zipfile" | "tarfile" => {
            let p = Parsed::new(args, &[]);
            let ops: Vec<Arg> = p.operands.iter().map(|a| (*a).clone()).collect();
            if p.has("-e", Some('e')) || p.has("--extract", None) {
                let dir = ops.get(1).cloned().unwrap_or_else(|| Arg::literal("."));
                out.push((vec![dir], Op::Write));
            } else if p.has("-c", Some('c')) || p.has("--create", None) {
                out.push((ops.into_iter().take(1).collect(), Op::Write));
            }
        }
        "venv" | "virtualenv" => {
            let p = Parsed::new(args, &["--prompt"]);
            out.push((p.operands.iter().map(|a| (*a).clone()).collect(), Op::Write));
        }
        _ => {}
    }
    out
}

/// The files a formatter rewrites in place, when this call does (`prettier --write`,
/// `yq -i`, `gofmt -w`, `clang-format -i`, `taplo fmt`, `ruff format`, `rustfmt` and
/// `black` always): every operand, the expression of `yq` excepted.
fn formatter_writes(name: &str, rest: &[Arg]) -> Option<Vec<Arg>> {
    let values: &[&str] = match name {
        "yq" => &[
            "-I",
            "--indent",
            "-p",
            "--input-format",
            "-o",
            "--output-format",
            "--from-file",
        ],
        "prettier" => &[
            "--config",
            "--ignore-path",
            "--parser",
            "--plugin",
            "--log-level",
        ],
        "eslint" | "stylelint" => &[
            "-c",
            "--config",
            "--ext",
            "--format",
            "-f",
            "-o",
            "--output-file",
        ],
        "clang-format" => &[
            "--style",
            "--assume-filename",
            "--lines",
            "--offset",
            "--length",
        ],
        "shfmt" => &["-i", "--indent", "-ln", "--language-dialect"],
        "rustfmt" => &["--edition", "--config-path", "--config", "--emit"],
        "black" | "isort" | "autopep8" => {
            &["-l", "--line-length", "--config", "-t", "--target-version"]
        }
        "ruff" | "biome" | "taplo" => &["--config", "--line-length"],
        _ => &[],
    };
    let p = Parsed::new(rest, values);
    let flag = |long: &str, short: Option<char>| p.has(long, short);
    let (rewrites, skip) = match name {
        "yq" => (flag("--inplace", Some('i')), 1),
        "prettier" => (flag("--write", Some('w')), 0),
        "eslint" | "stylelint" => (flag("--fix", None), 0),
        "clang-format" => (flag("-i", Some('i')), 0),
        "gofmt" | "goimports" | "shfmt" => (flag("-w", Some('w')) || flag("--write", None), 0),
        "autopep8" => (flag("--in-place", Some('i')), 0),
        "rustfmt" => (
            !flag("--check", None) && p.value("--emit", None).is_none(),
            0,
        ),
        "black" | "isort" => (!flag("--check", None) && !flag("--diff", None), 0),
        // Subcommand first: `taplo fmt FILE`, `ruff format FILE`, `ruff check --fix FILE`,
        // `biome format --write FILE`.
        "taplo" => (
            matches!(
                p.operands.first().and_then(|a| a.text()),
                Some("fmt" | "format")
            ) && !flag("--check", None),
            1,
        ),
        "ruff" => (
            match p.operands.first().and_then(|a| a.text()) {
                Some("format") => !flag("--check", None) && !flag("--diff", None),
                Some("check") => flag("--fix", None),
                _ => false,
            },
            1,
        ),
        "biome" => (flag("--write", None) || flag("--apply", None), 1),
        _ => (false, 0),
    };
    rewrites.then(|| p.operands.iter().skip(skip).map(|a| (*a).clone()).collect())
}

/// `-i`, `-i.bak`, `-Ei`, `-ni` (sed); `-pi`, `-i.orig` (perl, ruby).
fn in_place_cluster(opt: &str, name: &str) -> bool {
    if opt.starts_with("--") {
        return false;
    }
    let flags = &opt[1..];
    // The in-place flag is recognised up to the first option that takes a value.
    let stops: &[char] = match name {
        "sed" => &['e', 'f', 'l'],
        "ruby" => &['e', 'r', 'I', 'C', 'E', 'F', 'x'],
        _ => &['e', 'E', 'M', 'm', 'I', 'x'],
    };
    for c in flags.chars() {
        if c == 'i' {
            return true;
        }
        if stops.contains(&c) {
            return false;
        }
    }
    false
}

fn is_chmod_mode(opt: &str) -> bool {
    opt.len() > 1 && opt[1..].chars().all(|c| "rwxXst".contains(c))
}

/// `host:path`, `user@host:path`, `rsync://...`: not on this machine.
fn is_remote_spec(a: &Arg) -> bool {
    a.text().is_some_and(|t| {
        t.contains("://") || t.split('/').next().is_some_and(|first| first.contains(':'))
    })
}

/// The value of short option `opt` inside a cluster whose other letters take no value
/// (`-sSLo FILE`, `-qO-`).
fn cluster_value(args: &[Arg], opt: char, flag_letters: &str) -> Option<Arg> {
    for (i, a) in args.iter().enumerate() {
        let Some(t) = a.text() else { continue };
        if !t.starts_with('-') || t.starts_with("--") || t.len() < 3 {
            continue;
        }
        let body = &t[1..];
        if let Some(pos) = body.find(opt) {
            if body[..pos].chars().all(|c| flag_letters.contains(c)) {
                let after = &body[pos + opt.len_utf8()..];
                return if after.is_empty() {
                    args.get(i + 1).cloned()
                } else {
                    Some(Arg::literal(after))
                };
            }
        }
    }
    None
}

/// Member `m` of an archive extracted into `dir`.
fn member_in(dir: &Arg, m: &Arg) -> Arg {
    match (dir.text(), m.text()) {
        (Some(d), Some(t)) => Arg::literal(&format!("{}/{}", d.trim_end_matches('/'), t)),
        _ => (*m).clone(),
    }
}

/// What `tar` writes: the archive when creating, the target directory (and the members
/// named, `tar -xf a.tar loopgate.toml`) when extracting, and the members it archives
/// when `--remove-files` deletes them afterwards (they are gone, as by `mv`).
fn tar_writes(rest: &[Arg]) -> Vec<(Vec<Arg>, Op)> {
    let mut mode_create = false;
    let mut remove_files = false;
    let mut mode_extract = false;
    let mut absolute_names = false;
    let mut file: Option<Arg> = None;
    let mut dir: Option<Arg> = None;
    let mut members: Vec<Arg> = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let a = &rest[i];
        i += 1;
        let Some(t) = a.text() else { continue };
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(Arg::literal(v))),
                None => (long, None),
            };
            let take = |value: Option<Arg>, i: &mut usize| {
                value.or_else(|| {
                    *i += 1;
                    rest.get(*i - 1).cloned()
                })
            };
            match name {
                "create" | "append" | "update" => mode_create = true,
                "extract" | "get" => mode_extract = true,
                "file" => file = take(value, &mut i),
                "directory" => dir = take(value, &mut i),
                _ if long_matches(t, "--remove-files") => remove_files = true,
                _ if long_matches(t, "--absolute-names") => absolute_names = true,
                _ => {}
            }
            continue;
        }
        // Old style: the first argument's letters are options even without a dash.
        let (letters, old_style) = match t.strip_prefix('-') {
            Some(l) => (l, false),
            None if i == 1 => (t, true),
            None => {
                members.push(a.clone());
                continue;
            }
        };
        for (pos, c) in letters.char_indices() {
            match c {
                'c' | 'r' | 'u' => mode_create = true,
                'x' => mode_extract = true,
                'P' => absolute_names = true,
                'f' | 'C' => {
                    let attached = &letters[pos + 1..];
                    let value = if !attached.is_empty() && !old_style {
                        Some(Arg::literal(attached))
                    } else {
                        i += 1;
                        rest.get(i - 1).cloned()
                    };
                    if c == 'f' {
                        file = value;
                    } else {
                        dir = value;
                    }
                    if !old_style {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    if mode_create {
        if let Some(f) = file.filter(|f| !f.is("-")) {
            out.push((vec![f], Op::Write));
        }
        if remove_files {
            // Archived paths are read where they are: an absolute one as it is, a relative
            // one from the `-C` directory.
            let members = members
                .iter()
                .map(|m| match (&dir, m.text()) {
                    (Some(d), Some(t)) if !t.starts_with('/') => member_in(d, m),
                    _ => m.clone(),
                })
                .collect();
            out.push((members, Op::MoveSource));
        }
    }
    if mode_extract {
        let dir = dir.unwrap_or_else(|| Arg::literal("."));
        let members = members.iter().map(|m| member_in(&dir, m)).collect();
        out.push((vec![dir], Op::Write));
        out.push((members, Op::Write));
        if absolute_names {
            // `-P` keeps leading `/` and `..` in member names: they land where the
            // archive says, which only the archive knows.
            let mut anywhere = Arg::literal("(members with absolute names)");
            anywhere.value = None;
            anywhere.dynamic = Some("member paths the archive names (-P)".into());
            out.push((vec![anywhere], Op::Write));
        }
    }
    out
}

/// Programs that format, partition or erase the device they are given.
fn is_device_writer(name: &str) -> bool {
    name.starts_with("mkfs.")
        || matches!(
            name,
            "mkfs"
                | "mke2fs"
                | "mkdosfs"
                | "mkntfs"
                | "mkswap"
                | "wipefs"
                | "blkdiscard"
                | "parted"
                | "fdisk"
                | "sfdisk"
                | "gdisk"
                | "sgdisk"
                | "cfdisk"
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<Arg> {
        v.iter().map(|s| Arg::literal(s)).collect()
    }

    #[test]
    fn tar_modes_and_targets() {
        let w = tar_writes(&args(&["-xzf", "a.tgz", "-C", "/opt"]));
        assert_eq!(w[0].0[0].show(), "/opt");
        let w = tar_writes(&args(&["xzf", "a.tgz"]));
        assert_eq!(w[0].0[0].show(), ".");
        let w = tar_writes(&args(&["--extract", "--file=a.tar", "--directory=/x"]));
        assert_eq!(w[0].0[0].show(), "/x");
        let w = tar_writes(&args(&["-czf", "/out.tgz", "src"]));
        assert_eq!(w[0].0[0].show(), "/out.tgz");
        assert!(tar_writes(&args(&["-tzf", "a.tgz"])).is_empty());
        // The members archived with `--remove-files` (any abbreviation) are deleted.
        for flag in ["--remove-files", "--remove-f"] {
            let w = tar_writes(&args(&["-cf", "/tmp/a.tar", flag, "src", "doc"]));
            assert_eq!(w.len(), 2);
            assert_eq!(w[1].1, Op::MoveSource);
            let gone: Vec<&str> = w[1].0.iter().map(|a| a.show()).collect();
            assert_eq!(gone, ["src", "doc"]);
        }
        let w = tar_writes(&args(&[
            "-C",
            "/srv",
            "--remove-files",
            "-cf",
            "a.tar",
            "x",
            "/y",
        ]));
        assert_eq!(w[1].0[0].show(), "/srv/x");
        assert_eq!(w[1].0[1].show(), "/y");
    }

    #[test]
    fn cluster_values() {
        assert_eq!(
            cluster_value(&args(&["-sSLo", "f"]), 'o', "sSL")
                .unwrap()
                .show(),
            "f"
        );
        assert_eq!(
            cluster_value(&args(&["-qO-"]), 'O', "q").unwrap().show(),
            "-"
        );
        assert!(cluster_value(&args(&["-Xo", "f"]), 'o', "sSL").is_none());
    }
}
