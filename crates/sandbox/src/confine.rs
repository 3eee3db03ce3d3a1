//! Landlock confinement of a child process: read and execute everywhere, write only below
//! the paths the caller names.
//!
//! The ruleset is built in the parent (opening path fds allocates and can fail with a
//! useful message); the child, between fork and exec, only makes two syscalls
//! (`prctl(PR_SET_NO_NEW_PRIVS)` and `landlock_restrict_self`), both async-signal-safe.
//! Every descendant inherits the domain: Landlock cannot be dropped once applied.

use landlock::{
    Access, AccessFs, BitFlags, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr,
    Scope, ABI,
};
use serde::{Deserialize, Serialize};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// Set to `1` to make loopgate behave exactly as on a kernel without Landlock.
pub const NO_LANDLOCK_ENV: &str = "LOOPGATE_NO_LANDLOCK";

/// The Landlock ABI whose write rights we ask for. ABI 5 is the first that handles every
/// write-like right (`Refer` from 2, `Truncate` from 3, `IoctlDev` from 5); a kernel below
/// it still confines, but only partially.
const TARGET_ABI: ABI = ABI::V5;
const TARGET_ABI_NUMBER: u32 = 5;

/// Device files a terminal program needs to write to. A missing one is skipped.
const DEVICE_PATHS: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/ptmx",
    "/dev/pts",
];

/// Whether this kernel (or the simulation switch) offers Landlock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Availability {
    Available { abi: u32 },
    Missing { reason: String },
}

/// How much of the requested confinement the kernel enforces. Callers record this value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Enforcement {
    #[serde(rename = "fully_enforced")]
    Fully,
    #[serde(rename = "partially_enforced")]
    Partially,
    #[serde(rename = "not_enforced")]
    NotEnforced,
}

impl std::fmt::Display for Enforcement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Enforcement::Fully => "fully enforced",
            Enforcement::Partially => "partially enforced",
            Enforcement::NotEnforced => "not enforced",
        })
    }
}

/// What the child may write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfinePlan {
    /// Already resolved (see [`crate::resolve_roots`]).
    pub write_roots: Vec<PathBuf>,
    /// Extra writable paths (an agent's state dirs); files or directories.
    pub extra_writable: Vec<PathBuf>,
    /// Create a fresh 0700 temp dir for this run, writable, exported as `TMPDIR`.
    pub private_tmp: bool,
    /// Also keep the child from signalling processes outside its jail and from reaching
    /// abstract unix sockets made outside it (Landlock ABI 6; skipped on older kernels):
    /// a jailed agent command must not stop or kill the unconfined processes around it,
    /// such as the agent's next tool-gate hook, whose death the agent takes as "go ahead".
    pub scoped: bool,
}

/// The Landlock scopes a `scoped` plan asks for, as the kernel's bits (signals and
/// abstract unix sockets).
const SCOPES: u64 = 3;

/// A serializable account of one confinement, for stderr, `--json` and receipts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfineReport {
    pub enforcement: Enforcement,
    /// The kernel's Landlock ABI, when it has one.
    pub abi: Option<u32>,
    /// Why enforcement is partial or absent.
    pub reason: Option<String>,
    /// Paths that got a write rule.
    pub writable: Vec<PathBuf>,
    /// Paths asked for but left out (they could not be opened), with why.
    pub skipped: Vec<SkippedPath>,
    pub tmpdir: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedPath {
    pub path: PathBuf,
    pub reason: String,
}

/// A ruleset ready to be applied to one or more commands. Keep it alive until the child
/// exits: dropping it removes the private temp dir.
#[derive(Debug)]
pub struct Prepared {
    ruleset: Option<Arc<OwnedFd>>,
    tmp: Option<tempfile::TempDir>,
    report: ConfineReport,
}

impl Prepared {
    pub fn enforcement(&self) -> Enforcement {
        self.report.enforcement
    }

    pub fn report(&self) -> &ConfineReport {
        &self.report
    }

    pub fn tmp_dir(&self) -> Option<&Path> {
        self.tmp.as_ref().map(|t| t.path())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    #[error("cannot create the private temp dir: {0}")]
    TempDir(std::io::Error),
    #[error("Landlock is available but the ruleset could not be built: {0}")]
    Ruleset(String),
}

/// Landlock support of the running kernel, or `Missing` when [`NO_LANDLOCK_ENV`] is `1`.
pub fn landlock_available() -> Availability {
    if simulated_missing() {
        return Availability::Missing {
            reason: format!("{NO_LANDLOCK_ENV}=1 simulates a kernel without Landlock"),
        };
    }
    kernel_abi()
}

fn simulated_missing() -> bool {
    std::env::var_os(NO_LANDLOCK_ENV).is_some_and(|v| v == "1")
}

fn kernel_abi() -> Availability {
    // SAFETY: the version query takes no pointer the kernel writes to.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    if v >= 1 {
        return Availability::Available { abi: v as u32 };
    }
    let err = std::io::Error::last_os_error();
    let reason = match err.raw_os_error() {
        Some(libc::EOPNOTSUPP) => "Landlock is built into this kernel but disabled at boot (add `landlock` to the `lsm=` boot parameter)".to_string(),
        Some(libc::ENOSYS) => "this kernel has no Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK is needed)".to_string(),
        _ => format!("the Landlock version query failed: {err}"),
    };
    Availability::Missing { reason }
}

/// The level a kernel with `availability` gives to our write rules.
pub fn enforcement_for(availability: &Availability) -> Enforcement {
    match availability {
        Availability::Missing { .. } => Enforcement::NotEnforced,
        Availability::Available { abi } if *abi >= TARGET_ABI_NUMBER => Enforcement::Fully,
        Availability::Available { .. } => Enforcement::Partially,
    }
}

/// The system temp dirs (`$TMPDIR` and `/tmp`), for callers whose config makes them writable.
pub fn system_temp_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![std::env::temp_dir(), PathBuf::from("/tmp")];
    for d in &mut dirs {
        if let Ok(real) = std::fs::canonicalize(&*d) {
            *d = real;
        }
    }
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Build the ruleset for `plan` on the running kernel.
pub fn prepare(plan: &ConfinePlan) -> Result<Prepared, ConfineError> {
    prepare_with(plan, landlock_available())
}

fn prepare_with(plan: &ConfinePlan, availability: Availability) -> Result<Prepared, ConfineError> {
    let tmp = if plan.private_tmp {
        Some(private_tmp()?)
    } else {
        None
    };
    let wanted = writable_paths(plan, tmp.as_ref().map(|t| t.path()));
    let mut report = ConfineReport {
        enforcement: enforcement_for(&availability),
        abi: None,
        reason: None,
        writable: Vec::new(),
        skipped: Vec::new(),
        tmpdir: tmp.as_ref().map(|t| t.path().to_path_buf()),
    };
    let abi = match availability {
        Availability::Missing { reason } => {
            report.reason = Some(reason);
            return Ok(Prepared {
                ruleset: None,
                tmp,
                report,
            });
        }
        Availability::Available { abi } => abi,
    };
    report.abi = Some(abi);
    if report.enforcement == Enforcement::Partially {
        report.reason = Some(format!(
            "Landlock ABI {abi} on this kernel; ABI {TARGET_ABI_NUMBER} is needed to also restrict {}",
            missing_rights(abi)
        ));
    }
    let handled = AccessFs::from_write(TARGET_ABI);
    let ruleset_err = |e: landlock::RulesetError| ConfineError::Ruleset(e.to_string());
    let mut ruleset = Ruleset::default()
        .handle_access(handled)
        .map_err(ruleset_err)?;
    if plan.scoped && abi >= 6 {
        ruleset = ruleset
            .scope(Scope::from_all(ABI::V6))
            .map_err(ruleset_err)?;
    }
    let mut created = ruleset.create().map_err(ruleset_err)?;
    for path in wanted {
        let fd = match PathFd::new(&path) {
            Ok(fd) => fd,
            Err(e) => {
                report.skipped.push(SkippedPath {
                    path,
                    reason: open_reason(&e),
                });
                continue;
            }
        };
        let access = access_for(&path, handled, TARGET_ABI);
        created = created
            .add_rule(PathBeneath::new(fd, access))
            .map_err(ruleset_err)?;
        report.writable.push(path);
    }
    let fd: Option<OwnedFd> = created.into();
    match fd {
        Some(fd) => Ok(Prepared {
            ruleset: Some(Arc::new(fd)),
            tmp,
            report,
        }),
        None => {
            // The crate decided the kernel cannot enforce anything after all: say so.
            report.enforcement = Enforcement::NotEnforced;
            report.reason = Some("the Landlock ruleset could not be created on this kernel".into());
            Ok(Prepared {
                ruleset: None,
                tmp,
                report,
            })
        }
    }
}

/// Every path `plan` makes writable, with the private temp dir and the device files.
fn writable_paths(plan: &ConfinePlan, tmp: Option<&Path>) -> Vec<PathBuf> {
    let mut wanted: Vec<PathBuf> = plan
        .write_roots
        .iter()
        .chain(&plan.extra_writable)
        .cloned()
        .collect();
    wanted.extend(tmp.map(Path::to_path_buf));
    wanted.extend(DEVICE_PATHS.iter().map(PathBuf::from));
    dedup(wanted)
}

/// The rights a rule on `path` grants: all of `handled` beneath a directory, the file
/// rights alone on a file (the kernel refuses directory rights on a file).
fn access_for(path: &Path, handled: BitFlags<AccessFs>, abi: ABI) -> BitFlags<AccessFs> {
    if is_directory(path) {
        handled
    } else {
        handled & AccessFs::from_file(abi)
    }
}

/// `plan`'s Landlock rules as the numbers the kernel takes, for a jail set up by a process
/// other than loopgate (the bash builtin, `crate::builtin`): the write rights this kernel
/// (ABI `abi`) handles, and each existing writable path with the rights granted beneath it.
/// A path that does not exist is left out, as `prepare` skips it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRules {
    pub handled: u64,
    pub rules: Vec<(PathBuf, u64)>,
    /// The scopes (`ConfinePlan::scoped`), 0 when none or the kernel has none.
    pub scoped: u64,
}

pub fn raw_rules(plan: &ConfinePlan, abi: u32) -> RawRules {
    let scoped = if plan.scoped && abi >= 6 { SCOPES } else { 0 };
    let abi = ABI::from(abi.min(TARGET_ABI_NUMBER) as i32);
    let handled = AccessFs::from_write(abi);
    let rules = writable_paths(plan, None)
        .into_iter()
        .filter(|p| std::fs::metadata(p).is_ok())
        .map(|p| {
            let access = access_for(&p, handled, abi).bits();
            (p, access)
        })
        .collect();
    RawRules {
        handled: handled.bits(),
        rules,
        scoped,
    }
}

/// Make `cmd` start confined by `prepared` (a no-op on the write rules when nothing is
/// enforced; `TMPDIR` is exported either way when a private temp dir exists).
pub fn apply(cmd: &mut Command, prepared: &Prepared) {
    if let Some(tmp) = prepared.tmp_dir() {
        cmd.env("TMPDIR", tmp);
    }
    if let Some(fd) = &prepared.ruleset {
        let fd = Arc::clone(fd);
        // SAFETY: the closure runs between fork and exec and only makes raw syscalls and
        // builds io::Error from errno, which neither allocates nor takes locks.
        unsafe {
            cmd.pre_exec(move || restrict_self(fd.as_raw_fd()));
        }
    }
}

fn restrict_self(ruleset_fd: i32) -> std::io::Result<()> {
    // SAFETY: plain syscalls with integer arguments.
    unsafe {
        // Required by Landlock for unprivileged callers, and stops setuid programs from
        // regaining what the ruleset takes away.
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, ruleset_fd, 0u32) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

fn private_tmp() -> Result<tempfile::TempDir, ConfineError> {
    let dir = tempfile::Builder::new()
        .prefix("loopgate-jail-")
        .tempdir()
        .map_err(ConfineError::TempDir)?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .map_err(ConfineError::TempDir)?;
    Ok(dir)
}

fn is_directory(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_dir())
}

fn open_reason(e: &landlock::PathFdError) -> String {
    match e {
        landlock::PathFdError::OpenCall { source, .. }
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            "does not exist".into()
        }
        landlock::PathFdError::OpenCall { source, .. } => source.to_string(),
        other => other.to_string(),
    }
}

fn missing_rights(abi: u32) -> &'static str {
    match abi {
        1 => "renames across directories (ABI 2), truncation (ABI 3) and device ioctls (ABI 5)",
        2 => "truncation (ABI 3) and device ioctls (ABI 5)",
        _ => "device ioctls (ABI 5)",
    }
}

fn dedup(mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    paths.sort();
    paths.dedup();
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_the_kernel_abi() {
        let missing = Availability::Missing { reason: "x".into() };
        assert_eq!(enforcement_for(&missing), Enforcement::NotEnforced);
        assert_eq!(
            enforcement_for(&Availability::Available { abi: 1 }),
            Enforcement::Partially
        );
        assert_eq!(
            enforcement_for(&Availability::Available { abi: 4 }),
            Enforcement::Partially
        );
        assert_eq!(
            enforcement_for(&Availability::Available { abi: 5 }),
            Enforcement::Fully
        );
        assert_eq!(
            enforcement_for(&Availability::Available { abi: 7 }),
            Enforcement::Fully
        );
    }

    #[test]
    fn handled_rights_are_write_only() {
        let handled = AccessFs::from_write(TARGET_ABI);
        assert!((handled & AccessFs::from_read(TARGET_ABI)).is_empty());
        assert!(handled.contains(AccessFs::Truncate | AccessFs::Refer | AccessFs::WriteFile));
    }

    #[test]
    fn missing_landlock_prepares_an_unenforced_plan_with_the_reason() {
        let plan = ConfinePlan {
            private_tmp: true,
            ..Default::default()
        };
        let p = prepare_with(
            &plan,
            Availability::Missing {
                reason: "no landlock here".into(),
            },
        )
        .unwrap();
        assert_eq!(p.enforcement(), Enforcement::NotEnforced);
        assert_eq!(p.report().reason.as_deref(), Some("no landlock here"));
        assert!(p.report().writable.is_empty());
        let tmp = p.tmp_dir().unwrap().to_path_buf();
        assert_eq!(
            std::fs::metadata(&tmp).unwrap().permissions().mode() & 0o777,
            0o700
        );
        drop(p);
        assert!(
            !tmp.exists(),
            "the private temp dir goes away with the plan"
        );
    }

    #[test]
    fn a_missing_root_is_skipped_with_a_reason() {
        if !matches!(kernel_abi(), Availability::Available { .. }) {
            return;
        }
        let plan = ConfinePlan {
            write_roots: vec![PathBuf::from("/nonexistent/loopgate-root")],
            ..Default::default()
        };
        let p = prepare_with(&plan, kernel_abi()).unwrap();
        assert_eq!(p.report().skipped.len(), 1);
        assert_eq!(p.report().skipped[0].reason, "does not exist");
        assert!(p.report().writable.contains(&PathBuf::from("/dev/null")));
    }
}
