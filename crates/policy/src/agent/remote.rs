//! `remote.destructive`: commands that destroy data on systems no local jail can protect
//! (cloud storage and accounts, clusters, databases, container volumes, hosted
//! repositories). The kernel cannot see these; the static policy is the only layer.
//!
//! Verdict per profile: `ask` in `standard` (a teardown a human meant to do is one click
//! away), `deny` in `strict` (every ask is), `observer` refuses every command anyway.

use super::args::Arg;
use super::commands::Parsed;
use super::walk::{Analyzer, Stdin};
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
}

/// SQL that drops, truncates or deletes without a filter.
pub(crate) fn destructive_sql(sql: &str) -> Option<&'static str> {
    let upper = sql.to_ascii_uppercase();
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
    if upper.contains("DROPDATABASE(") || upper.contains(".DROP(") {
        return Some("drop()");
    }
    if upper.contains("DELETEMANY({})") || upper.contains(".REMOVE({})") {
        return Some("deleteMany({})");
    }
    None
}

/// Global options of the cloud and cluster CLIs that take a value (`--profile prod`,
/// `--context prod`): their values are not subcommands.
const GLOBAL_VALUES: &[&str] = &[
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

impl Analyzer<'_> {
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
                let destroys = matches!(sub, "destroy" | "down" | "remove")
                    || (sub == "apply" && flag(rest, &["-destroy", "--destroy"]))
                    || (sub == "stack" && pos.get(1).is_some_and(|s| s == "rm"))
                    || (sub == "workspace" && pos.get(1).is_some_and(|s| s == "delete"))
                    || (sub == "state" && pos.get(1).is_some_and(|s| s == "rm"));
                if destroys {
                    self.remote_finding(
                        display,
                        "destroys managed infrastructure",
                        "run `plan` (or `preview`) and show it to a human, who runs the destroy",
                    );
                }
            }
            "kubectl" | "oc" => {
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
                    "statefulset",
                    "statefulsets",
                    "secret",
                    "secrets",
                ];
                let target = pos.get(1).map(|k| {
                    k.split(['/', '.'])
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase()
                });
                let wide = flag(rest, &["--all", "-A", "--all-namespaces"]);
                if (sub == "delete"
                    && (wide
                        || target
                            .as_deref()
                            .is_some_and(|k| kinds.contains(&k) || k.contains(','))))
                    || sub == "drain"
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
            "helm" => {
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
            "dropdb" | "dropuser" => {
                self.remote_finding(
                    display,
                    "drops a PostgreSQL database or role",
                    "back it up with `pg_dump` and ask a human to drop it",
                );
            }
            "psql" | "mysql" | "mariadb" | "sqlite3" | "sqlcmd" | "cockroach"
            | "clickhouse-client" | "cqlsh" | "duckdb" => {
                let mut vals = Parsed::new(
                    rest,
                    &[
                        "-c",
                        "--command",
                        "-e",
                        "--execute",
                        "-Q",
                        "--query",
                        "-q",
                        "-f",
                        "-d",
                        "-U",
                        "-h",
                        "-p",
                    ],
                )
                .values(&[
                    "-c",
                    "--command",
                    "-e",
                    "--execute",
                    "-Q",
                    "--query",
                    "-q",
                ]);
                if name == "sqlite3" || name == "duckdb" {
                    vals.extend(rest.iter().skip(1).cloned());
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
                if words.iter().any(|w| {
                    w.eq_ignore_ascii_case("flushall") || w.eq_ignore_ascii_case("flushdb")
                }) {
                    self.remote_finding(
                        display,
                        "empties a Redis database (FLUSHALL/FLUSHDB)",
                        "delete the specific keys you mean, or ask a human",
                    );
                }
            }
            "docker" | "podman" | "nerdctl" => {
                let sub: Vec<&str> = pos.iter().take(2).map(String::as_str).collect();
                let wipes = match sub.as_slice() {
                    ["system", "prune", ..] => flag(rest, &["-a", "--all", "--volumes"]),
                    ["volume", v, ..] => matches!(*v, "rm" | "remove" | "prune"),
                    ["compose", "down"] | ["compose", "rm"] => flag(rest, &["-v", "--volumes"]),
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
            "gh" => {
                let sub: Vec<&str> = pos.iter().take(2).map(String::as_str).collect();
                let deletes = matches!(
                    sub.as_slice(),
                    [_, "delete" | "delete-asset"] | ["repo", "archive"]
                ) || (sub.first() == Some(&"api")
                    && Parsed::new(rest, &["-X", "--method"])
                        .value("--method", Some("-X"))
                        .is_some_and(|m| {
                            m.text().is_some_and(|t| t.eq_ignore_ascii_case("DELETE"))
                        }));
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
            | "railway" => {
                if let Some(v) = pos.iter().find(|p| deleting_verb(p)) {
                    self.remote_finding(
                        display,
                        &format!("deletes a hosted app or its data (`{v}`)"),
                        "ask a human to delete hosted apps",
                    );
                }
            }
            "vault" | "consul" | "etcdctl" => {
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
