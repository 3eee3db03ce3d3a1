//! `remote.destructive`: commands that destroy data on systems no local jail can protect
//! (cloud storage and accounts, clusters, databases, container volumes, hosted
//! repositories). The kernel cannot see these; the static policy is the only layer.
//!
//! Verdict per profile: `ask` in `standard` (a teardown a human meant to do is one click
//! away), `deny` in `strict` (every ask is), `observer` refuses every command anyway.

use super::args::Arg;
use super::commands::Parsed;
use super::walk::{Analyzer, ShellState, Stdin};
use super::{rule, Finding};

/// Words that mark a deleting subcommand across cloud CLIs (`gcloud ... delete`,
/// `az group delete`, `aws ec2 terminate-instances`, `doctl ... rm`).
fn deleting_verb(word: &str) -> bool {
    let w = word.to_ascii_lowercase();
    matches!(
        w.as_str(),
        "delete" | "destroy" | "purge" | "remove" | "rm" | "rb" | "terminate" | "wipe" | "nuke"
    ) || w.starts_with("delete-")
        || w.starts_with("terminate-")
        || w.starts_with("deregister-")
        || w.starts_with("purge-")
        || w.starts_with("remove-")
        || w.starts_with("destroy-")
        || w.ends_with(":destroy")
        || w.ends_with(":delete")
        || w.ends_with(":remove")
        || w.ends_with(":wipe")
        || w.ends_with(":reset")
        // `firebase hosting:disable`: the site goes offline.
        || w.ends_with(":disable")
        // `aws ecr batch-delete-image`, `aws kms schedule-key-deletion`.
        || (w.contains("delet")
            && w.contains('-')
            && !["list-", "describe-", "get-"].iter().any(|p| w.starts_with(p)))
}

/// SQL without its comments: `DROP/**/TABLE` is `DROP TABLE` to the server.
fn strip_sql_comments(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut rest = sql;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, r)| r);
            out.push(' ');
        } else if let Some(after) = rest.strip_prefix("--") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
            out.push('\n');
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// SQL that drops, truncates or deletes without a filter.
pub(crate) fn destructive_sql(sql: &str) -> Option<&'static str> {
    let upper = strip_sql_comments(sql).to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split(|c: char| c.is_whitespace() || c == ';' || c == '(')
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        match *w {
            "DROP"
                if matches!(
                    next,
                    "DATABASE"
                        | "TABLE"
                        | "SCHEMA"
                        | "USER"
                        | "ROLE"
                        | "INDEX"
                        | "VIEW"
                        | "COLLECTION"
                        | "KEYSPACE"
                        | "OWNED"
                        | "TABLESPACE"
                        | "COLUMN"
                        | "IF"
                ) =>
            {
                return Some("DROP")
            }
            "TRUNCATE" => return Some("TRUNCATE"),
            "DELETE" if next == "FROM" => {
                // DELETE FROM t; with no WHERE empties the table.
                let tail = &words[i..];
                let end = tail.iter().position(|w| *w == "WHERE");
                if end.is_none() {
                    return Some("DELETE without WHERE");
                }
            }
            "FLUSHALL" | "FLUSHDB" => return Some("FLUSHALL/FLUSHDB"),
            _ => {}
        }
    }
    let compact: String = upper.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.contains("DROPDATABASE(") || compact.contains(".DROP(") {
        return Some("drop()");
    }
    if compact.contains("DELETEMANY({})")
        || compact.contains(".REMOVE({})")
        || compact.contains("DELETEMANY()")
    {
        return Some("deleteMany({})");
    }
    None
}

/// Global options of the cloud and cluster CLIs that take a value (`--profile prod`,
/// `--context prod`): their values are not subcommands.
const GLOBAL_VALUES: &[&str] = &[
    "--kube-context",
    "--cwd",
    "-C",
    "--profile",
    "--region",
    "--output",
    "--endpoint-url",
    "--query",
    "--color",
    "--project",
    "--account",
    "--configuration",
    "--subscription",
    "--context",
    "-n",
    "--namespace",
    "--kubeconfig",
    "--cluster",
    "--user",
    "-l",
    "--selector",
    "-o",
    "-s",
    "--server",
    "--token",
    "-g",
    "--resource-group",
    "--name",
    "-c",
    "--chdir",
    "-h",
    "--host",
    "-U",
    "--username",
    "-p",
    "--port",
    "-d",
    "--dbname",
    "-u",
    "--app",
    "-a",
    "--stack",
    "--repo",
    "-R",
    "--var",
    "--var-file",
    "-var",
    "-var-file",
    "-target",
];

fn positionals(args: &[Arg]) -> Vec<String> {
    Parsed::new(args, GLOBAL_VALUES)
        .operands
        .iter()
        .filter_map(|a| a.text())
        .map(str::to_string)
        .collect()
}

fn flag(args: &[Arg], names: &[&str]) -> bool {
    // Single-dash long options (`-destroy`, `-auto-approve`) are matched whole first.
    if args.iter().filter_map(|a| a.text()).any(|t| {
        names
            .iter()
            .any(|n| t == *n || t.strip_prefix(n).is_some_and(|r| r.starts_with('=')))
    }) {
        return true;
    }
    let p = Parsed::new(args, &[]);
    names.iter().any(|n| {
        if n.starts_with("--") {
            p.has(n, None)
        } else {
            p.opts.iter().any(|(o, _)| o == n)
        }
    })
}

/// `host:path`, `user@host:path`, `rsync://host/path`.
fn is_remote_path(t: &str) -> bool {
    t.starts_with("rsync://")
        || (!t.starts_with('/')
            && !t.starts_with('.')
            && t.split('/').next().is_some_and(|h| h.contains(':')))
}

/// SQL files read when the command is decided, as patches are; a larger one is asked about.
const MAX_SQL_FILE_BYTES: u64 = 8 << 20;

impl Analyzer<'_> {
    /// `psql -f FILE`, `mysql ... < FILE` (`source FILE` inside): the file is read when
    /// the command is decided and judged like SQL on the command line. A file that does
    /// not exist yet runs nothing; one that cannot be read (a FIFO, too large) is asked.
    pub(crate) fn sql_files(
        &mut self,
        name: &str,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
        st: &ShellState,
    ) {
        if !matches!(
            name,
            "psql"
                | "mysql"
                | "mariadb"
                | "sqlite3"
                | "sqlcmd"
                | "cockroach"
                | "clickhouse-client"
                | "cqlsh"
                | "duckdb"
                | "mongosh"
                | "mongo"
        ) {
            return;
        }
        let mut files = Parsed::new(
            rest,
            &["-f", "--file", "-i", "--input-file", "-d", "-U", "-h", "-p"],
        )
        .values(&["-f", "--file", "-i", "--input-file"]);
        files.extend(stdin.files.iter().cloned());
        for f in files {
            let Some(paths) = f
                .text()
                .and_then(|t| st.cwd.resolve(t, self.ctx.home.as_deref()))
            else {
                self.remote_finding(
                    display,
                    &format!(
                        "runs SQL from `{}`, a file only known when the shell runs",
                        f.raw
                    ),
                    "name the file literally",
                );
                continue;
            };
            for path in paths {
                if self.written.contains(&path) {
                    self.remote_finding(
                        display,
                        &format!(
                            "runs SQL from `{}`, which this same command writes first",
                            path.display()
                        ),
                        "write the SQL file in one command, review it, then run it",
                    );
                    continue;
                }
                match state::read_bounded(&path, MAX_SQL_FILE_BYTES, state::Follow::Yes) {
                    Ok(bytes) => {
                        if let Some(what) = destructive_sql(&String::from_utf8_lossy(&bytes)) {
                            self.remote_finding(
                                display,
                                &format!("runs destructive SQL ({what}) from `{}`", path.display()),
                                "run a SELECT to see what would change, and ask a human to run the change",
                            );
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => self.remote_finding(
                        display,
                        &format!(
                            "runs SQL from `{}`, which cannot be read now ({e})",
                            path.display()
                        ),
                        "run a small regular SQL file that can be reviewed",
                    ),
                }
            }
        }
    }

    fn remote_finding(&mut self, display: &str, what: &str, instead: &str) {
        self.add(Finding::ask(
            rule::REMOTE_DESTRUCTIVE,
            format!("`{display}` {what}: remote data no local sandbox can bring back"),
            instead,
        ));
    }

    /// The `remote.destructive` rules for one program invocation.
    // One arm per program reads as a table; guards would scatter each rule in two.
    #[allow(clippy::collapsible_match)]
    pub(crate) fn remote_destructive(
        &mut self,
        name: &str,
        rest: &[Arg],
        stdin: &Stdin,
        display: &str,
    ) {
        let pos = positionals(rest);
        let has = |w: &str| pos.iter().any(|p| p.eq_ignore_ascii_case(w));
        let sql_in = |vals: Vec<Arg>| -> Option<&'static str> {
            vals.iter()
                .filter_map(|a| a.text())
                .find_map(destructive_sql)
        };
        match name {
            "aws" => {
                let svc = pos.first().map(String::as_str).unwrap_or("");
                let op = pos.get(1).map(String::as_str).unwrap_or("");
                let s3_deletes = svc == "s3"
                    && (matches!(op, "rm" | "rb")
                        || (matches!(op, "sync" | "mv") && flag(rest, &["--delete"])));
                // Credentials minted and rights granted outlive the session and reach
                // every system the account can.
                let grants = svc == "iam"
                    && (matches!(
                        op,
                        "create-access-key"
                            | "create-login-profile"
                            | "update-login-profile"
                            | "update-assume-role-policy"
                            | "add-user-to-group"
                    ) || op.starts_with("attach-")
                        || (op.starts_with("put-") && op.ends_with("-policy")));
                if grants {
                    self.remote_finding(
                        display,
                        &format!("mints credentials or grants rights in AWS IAM (`{op}`)"),
                        "ask a human to change IAM",
                    );
                }
                if s3_deletes || (svc != "s3" && deleting_verb(op)) {
                    self.remote_finding(
                        display,
                        &format!("deletes AWS resources (`{svc} {op}`)"),
                        "list what would go first (`aws s3 ls`, `--dryrun`), then ask a human to delete it",
                    );
                }
            }
            "gsutil" | "s3cmd" => {
                if pos
                    .first()
                    .is_some_and(|op| matches!(op.as_str(), "rm" | "rb" | "del" | "delete"))
                    || (has("rsync") && flag(rest, &["-d"]))
                {
                    self.remote_finding(
                        display,
                        "deletes cloud storage objects or buckets",
                        "list the objects first and ask a human to delete them",
                    );
                }
            }
            "gcloud" | "az" | "doctl" | "hcloud" | "linode-cli" | "oci" | "ibmcloud" | "scw" => {
                let grants = (has("keys") && has("create"))
                    || pos
                        .iter()
                        .any(|p| p == "add-iam-policy-binding" || p == "set-iam-policy")
                    || (has("credential") && has("reset"))
                    || (has("role") && has("assignment") && has("create"));
                if grants {
                    self.remote_finding(
                        display,
                        "mints credentials or grants rights in the cloud account",
                        "ask a human to change access",
                    );
                }
                if let Some(v) = pos.iter().find(|p| deleting_verb(p)) {
                    self.remote_finding(
                        display,
                        &format!("deletes cloud resources (`{v}`)"),
                        "describe the resource and ask a human to delete it",
                    );
                }
            }
            "terraform" | "tofu" | "terragrunt" | "pulumi" | "cdk" | "cdktf" | "sls"
            | "serverless" => {
                let sub = pos.first().map(String::as_str).unwrap_or("");
                // `terragrunt run-all destroy`, `terragrunt run --all destroy`.
                let (sub, pos) = match sub {
                    "run-all" | "run" => (
                        pos.get(1).map(String::as_str).unwrap_or(""),
                        pos.get(1..).unwrap_or_default(),
                    ),
                    _ => (sub, &pos[..]),
                };
                let destroys = matches!(sub, "destroy" | "down" | "remove" | "destroy-all")
                    || (sub == "apply" && flag(rest, &["-destroy", "--destroy"]))
                    // `-replace=ADDR` destroys ADDR (a database) before creating it anew.
                    || (sub == "apply" && flag(rest, &["-replace", "--replace"]))
                    || (sub == "stack" && pos.get(1).is_some_and(|s| s == "rm"))
                    || (sub == "workspace" && pos.get(1).is_some_and(|s| s == "delete"))
                    || (sub == "state" && pos.get(1).is_some_and(|s| s == "rm"))
                    // `state push` overwrites the remote state (`-force` even an older
                    // one); `force-unlock` lets two applies write it at once.
                    || (sub == "state" && pos.get(1).is_some_and(|s| s == "push"))
                    || sub == "force-unlock"
                    // `pulumi up --yes` changes the stack without showing the plan, as
                    // `terraform apply -auto-approve` does.
                    || (name == "pulumi"
                        && sub == "up"
                        && flag(rest, &["--yes", "-y", "--skip-preview", "-f"]));
                if destroys {
                    self.remote_finding(
                        display,
                        "destroys managed infrastructure",
                        "run `plan` (or `preview`) and show it to a human, who runs the destroy",
                    );
                }
            }
            "kubectl" | "oc" | "kubecolor" => {
                let sub = pos.first().map(String::as_str).unwrap_or("");
                let kinds = [
                    "namespace",
                    "namespaces",
                    "ns",
                    "node",
                    "nodes",
                    "no",
                    "pv",
                    "persistentvolume",
                    "persistentvolumes",
                    "pvc",
                    "persistentvolumeclaim",
                    "persistentvolumeclaims",
                    "crd",
                    "crds",
                    "customresourcedefinition",
                    "customresourcedefinitions",
                    "all",
                    "cluster",
                    "clusters",
                    "deployment",
                    "deployments",
                    "deploy",
                    "sts",
                    "ds",
                    "daemonset",
                    "daemonsets",
                    "statefulset",
                    "statefulsets",
                    "secret",
                    "secrets",
                ];
                let manifests_from_network = matches!(sub, "apply" | "create" | "replace")
                    && Parsed::new(rest, &["-f", "--filename"])
                        .values(&["-f", "--filename"])
                        .iter()
                        .any(|v| {
                            v.text().is_some_and(|t| {
                                t.starts_with("http://") || t.starts_with("https://")
                            })
                        });
                if manifests_from_network {
                    self.add(Finding::ask(
                        rule::REMOTE,
                        format!("`{display}` applies manifests downloaded when it runs: what they create in the cluster (privileged pods, daemonsets) is not known"),
                        "download the manifest into the repository, review it, then apply the file",
                    ));
                }
                if matches!(sub, "create")
                    && matches!(
                        pos.get(1).map(String::as_str),
                        Some("clusterrolebinding" | "rolebinding")
                    )
                    && Parsed::new(rest, &["--clusterrole", "--role"])
                        .value("--clusterrole", None)
                        .is_some_and(|r| r.is("cluster-admin") || r.is("admin"))
                {
                    self.remote_finding(
                        display,
                        "grants administrator rights in the cluster",
                        "ask a human to grant cluster roles",
                    );
                }
                let target = pos.get(1).map(|k| {
                    k.split(['/', '.'])
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase()
                });
                let wide = flag(rest, &["--all", "-A", "--all-namespaces"])
                    // `kubectl delete $(kubectl get ns -o name)`, `| xargs kubectl delete`.
                    || (sub == "delete" && rest.iter().any(|a| a.value.is_none()));
                // `delete -f DIR` / `-k DIR` deletes whatever the manifests name
                // (namespaces included); `apply --prune` deletes what they no longer name.
                let from_files = flag(rest, &["-f", "--filename", "-k", "--kustomize"]);
                if (sub == "delete"
                    && (wide
                        || from_files
                        || target
                            .as_deref()
                            .is_some_and(|k| kinds.contains(&k) || k.contains(','))))
                    || sub == "drain"
                    // `scale --replicas=0`: every pod of the workload goes away.
                    || (sub == "scale"
                        && Parsed::new(rest, &["--replicas"])
                            .value("--replicas", None)
                            .is_some_and(|r| r.is("0")))
                    || (sub == "apply" && flag(rest, &["--prune"]))
                    // `replace --force` deletes the objects and creates them anew.
                    || (sub == "replace" && flag(rest, &["--force"]))
                    // A `NoExecute` taint on every node evicts every pod of the cluster.
                    || (sub == "taint" && wide)
                    || (sub == "config" && pos.get(1).is_some_and(|s| s == "delete-cluster"))
                {
                    self.remote_finding(
                        display,
                        "deletes cluster-wide Kubernetes resources",
                        "delete the single workload you mean, or ask a human",
                    );
                }
            }
            "kind" | "k3d" | "eksctl" | "minikube" => {
                if pos.first().is_some_and(|s| s == "delete") {
                    self.remote_finding(
                        display,
                        "deletes a cluster",
                        "ask a human to delete clusters",
                    );
                }
            }
            "helmfile" => {
                if pos
                    .iter()
                    .any(|s| matches!(s.as_str(), "destroy" | "delete"))
                {
                    self.remote_finding(
                        display,
                        "uninstalls every release of the helmfile",
                        "`helmfile diff` or `helmfile list`; a human destroys",
                    );
                }
            }
            "mysqladmin" => {
                if has("drop") {
                    self.remote_finding(
                        display,
                        "drops a MySQL database",
                        "back it up with `mysqldump` and ask a human to drop it",
                    );
                }
            }
            "prisma" | "rails" | "rake" | "manage.py" | "artisan" | "flyway" | "liquibase"
            | "sequelize" | "sequelize-cli" | "dbmate" | "sqlx" | "diesel" | "alembic" | "mix"
            | "dotnet" | "knex" | "typeorm" => {
                let any = |ws: &[&str]| ws.iter().any(|w| has(w));
                let resets = match name {
                    "prisma" => (has("migrate") && has("reset")) || flag(rest, &["--force-reset"]),
                    "rails" | "rake" => any(&[
                        "db:drop",
                        "db:reset",
                        "db:purge",
                        "db:truncate_all",
                        "db:migrate:reset",
                        // Loads the schema over the database: every table is recreated empty.
                        "db:schema:load",
                        "db:structure:load",
                    ]),
                    "manage.py" => any(&["flush", "reset_db"]),
                    "artisan" => any(&[
                        "migrate:fresh",
                        "migrate:reset",
                        "migrate:refresh",
                        "db:wipe",
                    ]),
                    "flyway" => has("clean"),
                    "liquibase" => has("dropAll"),
                    "sequelize" | "sequelize-cli" => has("db:drop"),
                    // Rolling back every batch, or dropping the schema, empties the database.
                    "knex" => has("migrate:rollback") && flag(rest, &["--all"]),
                    "typeorm" => has("schema:drop"),
                    "dbmate" => has("drop"),
                    "sqlx" | "diesel" => has("database") && any(&["drop", "reset"]),
                    "alembic" => has("downgrade") && has("base"),
                    // Entity Framework: `dotnet ef database drop`.
                    // `database update 0` reverts every migration.
                    "dotnet" => {
                        has("ef") && has("database") && (has("drop") || (has("update") && has("0")))
                    }
                    _ => any(&["ecto.drop", "ecto.reset"]),
                };
                if resets {
                    self.remote_finding(
                        display,
                        "drops or empties the application's database",
                        "run the migrations forward, or ask a human to reset the database",
                    );
                }
            }
            "python" | "python3" | "php" => {
                // `python manage.py flush`, `php artisan migrate:fresh`: judged as the
                // framework command.
                if let Some(script) = rest.first().and_then(|a| a.text()) {
                    let base = script.rsplit('/').next().unwrap_or(script);
                    if matches!(base, "manage.py" | "artisan") {
                        self.remote_destructive(base, &rest[1..], stdin, display);
                    }
                }
            }
            "curl" | "http" | "https" | "xh" | "xhs" => {
                // An HTTP DELETE sent to another machine's API (`curl -X DELETE
                // https://api.github.com/repos/o/r`); local servers are the developer's own.
                let method = if name == "curl" {
                    Parsed::new(
                        rest,
                        &[
                            "-X",
                            "--request",
                            "-H",
                            "--header",
                            "-d",
                            "--data",
                            "-o",
                            "--output",
                            "-u",
                            "--user",
                        ],
                    )
                    .value("--request", Some("-X"))
                    .and_then(|m| m.value)
                } else {
                    pos.first().cloned()
                };
                let deletes = method.is_some_and(|m| m.eq_ignore_ascii_case("DELETE"));
                let remote_url = rest.iter().filter_map(|a| a.text()).any(|t| {
                    let host = t
                        .split_once("://")
                        .map_or(t, |(_, r)| r)
                        .split(['/', ':', '?'])
                        .next()
                        .unwrap_or("");
                    host.contains('.')
                        && !matches!(host, "127.0.0.1" | "0.0.0.0")
                        && !host.ends_with(".localhost")
                        && !host.ends_with(".local")
                        && (t.contains("://") || name != "curl")
                });
                if deletes && remote_url {
                    self.remote_finding(
                        display,
                        "sends an HTTP DELETE to a remote API",
                        "GET the resource first, and ask a human to delete it",
                    );
                }
            }
            "nomad" => {
                if has("stop") && flag(rest, &["-purge", "--purge"]) {
                    self.remote_finding(
                        display,
                        "stops and purges a Nomad job",
                        "`nomad job status`; a human purges jobs",
                    );
                }
            }
            "mc" | "azcopy" => {
                if pos
                    .first()
                    .is_some_and(|s| matches!(s.as_str(), "rm" | "rb" | "remove"))
                {
                    self.remote_finding(
                        display,
                        "deletes objects or buckets in cloud storage",
                        "list them first (`mc ls`, `azcopy list`) and ask a human",
                    );
                }
            }
            "helm" => {
                if pos.first().is_some_and(|s| s == "plugin")
                    && pos.get(1).is_some_and(|s| s == "install")
                    && pos.get(2).is_some_and(|s| s.contains("://"))
                {
                    self.add(Finding::ask(
                        rule::REMOTE,
                        format!("`{display}` installs a Helm plugin from the network: a plugin is a program helm runs"),
                        "ask a human to install plugins",
                    ));
                }
                if pos
                    .first()
                    .is_some_and(|s| matches!(s.as_str(), "uninstall" | "delete" | "del" | "un"))
                {
                    self.remote_finding(
                        display,
                        "uninstalls a Helm release",
                        "`helm status` or `helm list`; a human uninstalls",
                    );
                }
            }
            "mongorestore" => {
                if flag(rest, &["--drop"]) {
                    self.remote_finding(
                        display,
                        "drops every collection it restores before restoring it",
                        "restore into a new database, or ask a human",
                    );
                }
            }
            "dropdb" | "dropuser" => {
                self.remote_finding(
                    display,
                    "drops a PostgreSQL database or role",
                    "back it up with `pg_dump` and ask a human to drop it",
                );
            }
            "psql" | "mysql" | "mariadb" | "sqlite3" | "sqlcmd" | "cockroach"
            | "clickhouse-client" | "cqlsh" | "duckdb" => {
                // Each client's own grammar: `psql -e` is a flag and `-p PORT` takes a
                // value, `mysql -p` takes none (`-pSECRET` or a prompt) and `-e SQL` does.
                let (with_value, code): (&[&str], &[&str]) = match name {
                    "psql" => (
                        &[
                            "-c",
                            "--command",
                            "-f",
                            "--file",
                            "-d",
                            "--dbname",
                            "-U",
                            "--username",
                            "-h",
                            "--host",
                            "-p",
                            "--port",
                            "-v",
                            "--set",
                            "-o",
                            "--output",
                        ],
                        &["-c", "--command"],
                    ),
                    "mysql" | "mariadb" => (
                        &[
                            "-e",
                            "--execute",
                            "-h",
                            "--host",
                            "-u",
                            "--user",
                            "-P",
                            "--port",
                            "-D",
                            "--database",
                            "-S",
                            "--socket",
                        ],
                        &["-e", "--execute"],
                    ),
                    "sqlcmd" => (&["-Q", "-q", "-S", "-U", "-P", "-d", "-i"], &["-Q", "-q"]),
                    "clickhouse-client" => (
                        &[
                            "-q",
                            "--query",
                            "-h",
                            "--host",
                            "-u",
                            "--user",
                            "-d",
                            "--database",
                            "--port",
                        ],
                        &["-q", "--query"],
                    ),
                    _ => (
                        &[
                            "-e",
                            "--execute",
                            "-u",
                            "--username",
                            "-k",
                            "--keyspace",
                            "--host",
                            "--url",
                            "-d",
                            "--database",
                        ],
                        &["-e", "--execute"],
                    ),
                };
                let mut vals = Parsed::new(rest, with_value).values(code);
                if name == "sqlite3" || name == "duckdb" {
                    vals.extend(rest.iter().skip(1).cloned());
                }
                if let Some(v) = vals.iter().find(|v| v.value.is_none()) {
                    // `psql -c "$(cat drop.sql)"`: the statement is only known at run time.
                    self.remote_finding(
                        display,
                        &format!(
                            "runs SQL that is only known when the shell runs (`{}`)",
                            v.raw
                        ),
                        "spell the statement out, or run a reviewed file with `-f`",
                    );
                }
                if let Some(text) = &stdin.text {
                    vals.push(Arg::literal(text));
                }
                if let Some(what) = sql_in(vals) {
                    self.remote_finding(
                        display,
                        &format!("runs destructive SQL ({what})"),
                        "run a SELECT to see what would change, and ask a human to run the change",
                    );
                }
            }
            "mongosh" | "mongo" => {
                let mut vals =
                    Parsed::new(rest, &["--eval", "-u", "-p", "--host"]).values(&["--eval"]);
                if let Some(text) = &stdin.text {
                    vals.push(Arg::literal(text));
                }
                if let Some(what) = sql_in(vals) {
                    self.remote_finding(
                        display,
                        &format!("drops MongoDB data ({what})"),
                        "query first, and ask a human to drop data",
                    );
                }
            }
            "redis-cli" | "valkey-cli" | "keydb-cli" => {
                let mut words: Vec<String> = pos.clone();
                if let Some(text) = &stdin.text {
                    words.extend(text.split_whitespace().map(str::to_string));
                }
                let config_set = words.windows(3).any(|w| {
                    w[0].eq_ignore_ascii_case("config")
                        && w[1].eq_ignore_ascii_case("set")
                        && (w[2].eq_ignore_ascii_case("dir")
                            || w[2].eq_ignore_ascii_case("dbfilename"))
                });
                if config_set {
                    // The server then saves its dump wherever it was told: a file written
                    // as the server's user, the classic way into `authorized_keys`.
                    self.remote_finding(
                        display,
                        "points the Redis server's dump file at another directory or name",
                        "leave the server's `dir` and `dbfilename` alone; ask a human",
                    );
                }
                if words.iter().any(|w| {
                    w.eq_ignore_ascii_case("flushall") || w.eq_ignore_ascii_case("flushdb")
                }) {
                    self.remote_finding(
                        display,
                        "empties a Redis database (FLUSHALL/FLUSHDB)",
                        "delete the specific keys you mean, or ask a human",
                    );
                } else if words
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case("del") || w.eq_ignore_ascii_case("unlink"))
                    && rest.iter().any(|a| a.value.is_none())
                {
                    // `redis-cli --scan --pattern 'x*' | xargs redis-cli del`: the keys are
                    // whatever a listing returns when it runs, as `docker rm $(docker ps -aq)`.
                    self.remote_finding(
                        display,
                        "deletes Redis keys only known when it runs (a listing's output)",
                        "delete the specific keys you mean, or ask a human",
                    );
                }
            }
            "docker" | "podman" | "nerdctl" => {
                let sub: Vec<&str> = pos.iter().take(2).map(String::as_str).collect();
                let wipes = match sub.as_slice() {
                    ["system", "prune", ..] => flag(rest, &["-a", "--all", "--volumes"]),
                    // Every image, or the whole build cache, not only what nothing uses.
                    ["image" | "builder" | "buildx", "prune", ..] => flag(rest, &["-a", "--all"]),
                    // `docker rm -f $(docker ps -aq)`: the containers (or images) are
                    // whatever a listing returns when it runs, every one of them.
                    ["rm" | "rmi", ..] | ["container" | "image", "rm" | "remove", ..] => {
                        rest.iter().any(|a| a.value.is_none())
                    }
                    ["system", "reset", ..] => true,
                    ["volume", v, ..] => matches!(*v, "rm" | "remove" | "prune"),
                    // `compose -f FILE down -v`: the file is not a subcommand.
                    ["compose", ..] => {
                        pos.iter().any(|w| w == "down" || w == "rm")
                            && flag(rest, &["-v", "--volumes"])
                    }
                    // A swarm's services and stacks run on other machines; a manager that
                    // leaves with `--force` takes the swarm's state with it; a podman
                    // machine holds every container and volume inside it.
                    ["service" | "stack", "rm" | "remove"] => true,
                    ["swarm", "leave"] => flag(rest, &["-f", "--force"]),
                    ["machine", "rm" | "remove" | "reset"] => true,
                    _ => false,
                } || (name == "docker-compose"
                    && has("down")
                    && flag(rest, &["-v", "--volumes"]));
                if wipes {
                    self.remote_finding(
                        display,
                        "deletes container volumes or every unused image and volume",
                        "remove the one container or image you mean; volumes hold data",
                    );
                }
            }
            "docker-compose" => {
                if has("down") && flag(rest, &["-v", "--volumes"]) {
                    self.remote_finding(
                        display,
                        "deletes the project's volumes",
                        "`docker compose down` without `-v` keeps the data",
                    );
                }
            }
            "gh" | "glab" => {
                let sub: Vec<&str> = pos.iter().take(2).map(String::as_str).collect();
                let deletes = matches!(
                    sub.as_slice(),
                    [_, "delete" | "delete-asset"] | ["repo", "archive"]
                    // Switching a CI workflow off removes the checks every change is held to.
                    | ["workflow", "disable"]
                ) || (sub.first() == Some(&"api")
                    && Parsed::new(rest, &["-X", "--method"])
                        .value("--method", Some("-X"))
                        .is_some_and(|m| {
                            m.text().is_some_and(|t| t.eq_ignore_ascii_case("DELETE"))
                        }));
                let exposes = (matches!(sub.as_slice(), ["repo", "edit"])
                    && Parsed::new(rest, &["--visibility"])
                        .value("--visibility", None)
                        .is_some_and(|v| v.is("public")))
                    || matches!(sub.as_slice(), ["ssh-key" | "gpg-key", "add"]);
                if exposes {
                    self.remote_finding(
                        display,
                        "makes a repository public or adds a key to the account",
                        "ask a human to change who can see or push",
                    );
                }
                if deletes {
                    self.remote_finding(
                        display,
                        "deletes GitHub data (a repository, release, issue, secret, ...)",
                        "ask a human to delete it on GitHub",
                    );
                }
            }
            "rsync" => {
                let wipes = Parsed::new(rest, &[]).opts.iter().any(|(o, _)| {
                    o.starts_with("--delete")
                        || o.starts_with("--remove-source-files")
                        || o.starts_with("--del")
                });
                let p = Parsed::new(
                    rest,
                    &["-e", "--rsh", "--exclude", "--include", "--filter", "-f"],
                );
                if wipes
                    && p.operands
                        .iter()
                        .filter_map(|a| a.text())
                        .any(is_remote_path)
                {
                    self.remote_finding(
                        display,
                        "deletes files on a remote host (`--delete` or `--remove-source-files`)",
                        "run it with `--dry-run` and show a human the list",
                    );
                }
            }
            "rclone" => {
                if pos.first().is_some_and(|s| {
                    matches!(
                        s.as_str(),
                        "purge" | "delete" | "deletefile" | "rmdir" | "rmdirs" | "cleanup"
                    )
                }) || (has("sync") && !flag(rest, &["--dry-run", "-n"]))
                {
                    self.remote_finding(
                        display,
                        "deletes files on a remote",
                        "run it with `--dry-run` first, and ask a human",
                    );
                }
            }
            "heroku" | "fly" | "flyctl" | "vercel" | "netlify" | "firebase" | "supabase"
            | "railway" | "wrangler" | "sam" | "influx" | "render" => {
                // `railway down` removes the latest deployment.
                if name == "railway" && has("down") {
                    self.remote_finding(
                        display,
                        "removes a hosted deployment (`down`)",
                        "ask a human to take deployments down",
                    );
                }
                if name == "supabase" && has("db") && has("reset") {
                    self.remote_finding(
                        display,
                        "resets a Supabase database",
                        "`supabase db diff`; a human resets databases",
                    );
                }
                if let Some(v) = pos.iter().find(|p| deleting_verb(p)) {
                    self.remote_finding(
                        display,
                        &format!("deletes a hosted app or its data (`{v}`)"),
                        "ask a human to delete hosted apps",
                    );
                }
            }
            "vault" | "consul" | "etcdctl" => {
                if name == "vault" && has("token") && has("create") {
                    self.remote_finding(
                        display,
                        "mints a Vault token",
                        "ask a human to create tokens",
                    );
                }
                if pos
                    .iter()
                    .any(|p| matches!(p.as_str(), "delete" | "del" | "destroy" | "disable"))
                {
                    self.remote_finding(
                        display,
                        "deletes secrets or keys",
                        "ask a human to delete secrets",
                    );
                }
            }
            // A published package or crate taken back: every project that depends on it
            // breaks (`npm unpublish` also frees the name for anyone).
            "npm" | "pnpm" | "yarn" | "cargo" | "gem" => {
                let ops: Vec<&str> = pos.iter().take(2).map(String::as_str).collect();
                let retracts = match name {
                    "cargo" | "gem" => ops.first() == Some(&"yank") && !flag(rest, &["--undo"]),
                    _ => ops.contains(&"unpublish"),
                };
                if retracts {
                    self.remote_finding(
                        display,
                        "takes a published package back from its registry",
                        "ask a human to unpublish or yank releases",
                    );
                }
            }
            "rabbitmqctl" => {
                if pos.first().is_some_and(|op| {
                    matches!(
                        op.as_str(),
                        "purge_queue" | "delete_queue" | "delete_vhost" | "reset" | "force_reset"
                    )
                }) {
                    self.remote_finding(
                        display,
                        "deletes RabbitMQ messages, queues or the node's state",
                        "ask a human to purge or reset brokers",
                    );
                }
            }
            "kafka-topics" | "kafka-topics.sh" => {
                if flag(rest, &["--delete"]) {
                    self.remote_finding(
                        display,
                        "deletes Kafka topics",
                        "ask a human to delete topics",
                    );
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sql() {
        assert_eq!(destructive_sql("drop table users;"), Some("DROP"));
        assert_eq!(
            destructive_sql("DELETE FROM users"),
            Some("DELETE without WHERE")
        );
        assert_eq!(destructive_sql("delete from users where id = 3"), None);
        assert_eq!(destructive_sql("select * from drops"), None);
        assert_eq!(destructive_sql("db.dropDatabase()"), Some("drop()"));
        assert!(deleting_verb("delete-bucket"));
        assert!(!deleting_verb("describe-instances"));
    }
}
