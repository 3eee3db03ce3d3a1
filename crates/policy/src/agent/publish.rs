//! Releases sent to a registry, and changes to who owns or what users get from a
//! published package: `npm publish`, `cargo publish`, `twine upload`, `docker push`,
//! `mvn deploy`, `npm dist-tag rm`, `cargo owner --add`. A published version is copied
//! by mirrors and installed by others at once; it cannot be taken back (a name freed by
//! `unpublish` can be taken by anyone). No jail sees the registry, so the static policy
//! is the only layer. A dry run (`--dry-run`, `-n`) sends nothing.

/// What the command does to a registry, or `None`. `words` are the arguments after the
/// program name.
pub(crate) fn publishes(name: &str, words: &[&str]) -> Option<&'static str> {
    let dry = words
        .iter()
        .any(|w| matches!(*w, "--dry-run" | "--dryrun" | "-n" | "--dry_run"));
    let ops: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    let op = |i: usize| ops.get(i).copied().unwrap_or("");
    let release = "publishes a release to a package registry";
    let ownership = "changes who owns a published package or which version its users get";
    let found = match name {
        "npm" | "pnpm" | "bun" => match op(0) {
            "publish" => Some(release),
            "deprecate" | "undeprecate" | "owner" | "author" | "dist-tag" | "dist-tags" => {
                Some(ownership)
            }
            "access" if matches!(op(1), "set" | "grant" | "revoke" | "public" | "restricted") => {
                Some(ownership)
            }
            "token" if matches!(op(1), "revoke" | "rm" | "delete") => Some(ownership),
            _ => None,
        },
        "yarn" => match (op(0), op(1)) {
            ("publish", _) | ("npm", "publish") => Some(release),
            ("npm", "tag") | ("owner", _) | ("tag", "remove" | "rm") => Some(ownership),
            _ => None,
        },
        "cargo" => match op(0) {
            "publish" => Some(release),
            "owner"
                if words.iter().any(|w| {
                    matches!(*w, "-a" | "--add" | "-r" | "--remove")
                        || w.starts_with("--add=")
                        || w.starts_with("--remove=")
                }) =>
            {
                Some(ownership)
            }
            _ => None,
        },
        "poetry" | "uv" | "flit" | "hatch" | "pdm" | "rye" => {
            (op(0) == "publish").then_some(release)
        }
        "twine" => (op(0) == "upload").then_some(release),
        "gem" => match op(0) {
            "push" => Some(release),
            "owner"
                if words
                    .iter()
                    .any(|w| matches!(*w, "-a" | "--add" | "-r" | "--remove")) =>
            {
                Some(ownership)
            }
            _ => None,
        },
        "dotnet" | "nuget" => {
            let (a, b) = if name == "nuget" {
                ("nuget", op(0))
            } else {
                (op(0), op(1))
            };
            (a == "nuget" && matches!(b, "push" | "delete")).then_some(release)
        }
        "docker" | "podman" | "nerdctl" | "buildah" => {
            let pushes = op(0) == "push"
                || (matches!(op(0), "image" | "manifest") && op(1) == "push")
                || (op(0) == "buildx"
                    && matches!(op(1), "build" | "bake")
                    && words.contains(&"--push"));
            pushes.then_some("pushes an image to a container registry")
        }
        // `./gradlew publish`, `publishAllPublicationsToMavenRepository`; the local Maven
        // repository (`publishToMavenLocal`) stays on this machine.
        "gradle" | "gradlew" => ops
            .iter()
            .any(|t| {
                let task = t.rsplit(':').next().unwrap_or(t);
                task.starts_with("publish") && task != "publishToMavenLocal"
            })
            .then_some(release),
        "mvn" | "mvnw" => ops
            .iter()
            .any(|g| {
                matches!(
                    *g,
                    "deploy" | "release:perform" | "deploy:deploy-file" | "release:stage"
                )
            })
            .then_some(release),
        "helm" => (op(0) == "push").then_some("pushes a chart to a registry"),
        _ => None,
    };
    found.filter(|_| !dry)
}

#[cfg(test)]
mod tests {
    use super::publishes;

    #[test]
    fn releases_and_ownership_but_not_dry_runs_or_reads() {
        assert!(publishes("npm", &["publish", "--access", "public"]).is_some());
        assert!(publishes("npm", &["publish", "--dry-run"]).is_none());
        assert!(publishes("npm", &["dist-tag", "rm", "x", "latest"]).is_some());
        assert!(publishes("npm", &["pack", "--dry-run"]).is_none());
        assert!(publishes("cargo", &["publish", "--dry-run"]).is_none());
        assert!(publishes("cargo", &["owner", "--list", "x"]).is_none());
        assert!(publishes("cargo", &["owner", "--add", "u", "x"]).is_some());
        assert!(publishes("twine", &["check", "dist/*"]).is_none());
        assert!(publishes("docker", &["build", "-t", "x", "."]).is_none());
        assert!(publishes("docker", &["buildx", "build", "--push", "."]).is_some());
        assert!(publishes("gradlew", &["publishToMavenLocal"]).is_none());
        assert!(publishes("gradlew", &[":lib:publish"]).is_some());
        assert!(publishes("mvn", &["clean", "verify"]).is_none());
    }
}
