//! The supervisor's side: a listener on a private socket, one thread per forwarded call,
//! each admitted call run as an unconfined `loopgate hook <agent>` under a deadline.

use super::admit::{self, Admitted, Bound, Resolved};
use super::wire::{self, Answer, Head, Verdict};
use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a caller has to send its request (a stalled peer cannot hold a slot).
const READ_REQUEST: Duration = Duration::from_secs(5);
/// After the hook's own deadline, before the supervisor kills it and answers exit 2.
const KILL_MARGIN: Duration = Duration::from_secs(3);
/// Calls served at once; more are refused (an agent runs a handful in parallel).
const MAX_ACTIVE: usize = 32;
/// `sockaddr_un.sun_path` holds 108 bytes with the NUL.
const MAX_SOCKET_PATH: usize = 107;

struct Shared {
    root: PathBuf,
    exe: PathBuf,
    hook_deadline: Duration,
    bound: Mutex<Option<Bound>>,
    active: AtomicUsize,
}

/// A running supervisor. Dropping it removes its socket and directory; a hook that calls
/// after that fails closed.
pub struct Supervisor {
    dir: PathBuf,
    socket: PathBuf,
}

impl Supervisor {
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Supervisor {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Start serving the hooks of the agent run in `root`, from a 0700 directory under
/// `state_dir` (the user state dir, which the jail cannot write).
pub fn start(state_dir: &Path, root: &Path, hook_deadline: Duration) -> anyhow::Result<Supervisor> {
    let dir = state_dir.join("run").join(std::process::id().to_string());
    // A directory left by a dead run with this pid is ours to replace.
    let _ = std::fs::remove_dir_all(&dir);
    state::ensure_dir(&dir).map_err(|e| {
        anyhow::anyhow!(
            "cannot create the supervisor's directory {}: {e}",
            dir.display()
        )
    })?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
    let socket = dir.join("hook.sock");
    if socket.as_os_str().len() > MAX_SOCKET_PATH {
        let _ = std::fs::remove_dir_all(&dir);
        anyhow::bail!(
            "the supervisor's socket path {} is longer than a Unix socket allows ({MAX_SOCKET_PATH} bytes); set LOOPGATE_STATE_HOME to a shorter directory",
            socket.display()
        );
    }
    let listener = UnixListener::bind(&socket).map_err(|e| {
        anyhow::anyhow!(
            "cannot listen on the supervisor's socket {}: {e}",
            socket.display()
        )
    })?;
    let supervisor = Supervisor { dir, socket };
    let shared = Arc::new(Shared {
        root: root.to_path_buf(),
        exe: std::env::current_exe()
            .map_err(|e| anyhow::anyhow!("the loopgate binary's own path cannot be read: {e}"))?,
        hook_deadline,
        bound: Mutex::new(None),
        active: AtomicUsize::new(0),
    });
    std::thread::Builder::new()
        .name("loopgate-supervisor".into())
        .spawn(move || accept(listener, shared))?;
    Ok(supervisor)
}

fn accept(listener: UnixListener, shared: Arc<Shared>) {
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let shared = shared.clone();
        if shared.active.fetch_add(1, Ordering::SeqCst) >= MAX_ACTIVE {
            shared.active.fetch_sub(1, Ordering::SeqCst);
            refuse(stream, "too many hook calls at once");
            continue;
        }
        let spawned = std::thread::Builder::new()
            .name("loopgate-supervised-hook".into())
            .spawn({
                let shared = shared.clone();
                move || {
                    serve(stream, &shared);
                    shared.active.fetch_sub(1, Ordering::SeqCst);
                }
            });
        if spawned.is_err() {
            shared.active.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

fn refuse(mut stream: UnixStream, reason: &str) {
    eprintln!("loopgate run: refused a hook call: {reason}");
    let _ = stream.set_write_timeout(Some(READ_REQUEST));
    let _ = wire::write_json(
        &mut stream,
        &Verdict::Refused {
            reason: reason.to_string(),
        },
    );
}

fn serve(mut stream: UnixStream, shared: &Shared) {
    let _ = stream.set_read_timeout(Some(READ_REQUEST));
    let _ = stream.set_write_timeout(Some(READ_REQUEST));
    let request = wire::read_json::<Head>(&mut stream).and_then(|head| {
        let payload = wire::read_frame(&mut stream, crate::cmd::hook::MAX_PAYLOAD as u32)?;
        Ok((head, payload))
    });
    let (head, payload) = match request {
        Ok(r) => r,
        Err(e) => return refuse(stream, &format!("unreadable request: {e}")),
    };
    let resolved = resolve(&head);
    let admitted = {
        let mut bound = shared.bound.lock().unwrap_or_else(|e| e.into_inner());
        let verdict = admit::admit(
            bound.as_ref(),
            &head,
            &resolved,
            &payload,
            &shared.root,
            shared.hook_deadline,
        );
        if let Ok(a) = &verdict {
            bound.get_or_insert_with(|| a.bound.clone());
        }
        verdict
    };
    let admitted = match admitted {
        Ok(a) => a,
        Err(reason) => return refuse(stream, &reason),
    };
    let limit = admitted.limit + KILL_MARGIN;
    let verdict = Verdict::Admitted {
        limit_ms: limit.as_millis() as u64,
    };
    if wire::write_json(&mut stream, &verdict).is_err() {
        return;
    }
    let (code, stdout, stderr) = run_hook(shared, &head, &resolved, &admitted, &payload);
    let _ = stream.set_write_timeout(Some(READ_REQUEST));
    let _ = wire::write_json(&mut stream, &Answer { code })
        .and_then(|()| wire::write_frame(&mut stream, &stdout))
        .and_then(|()| wire::write_frame(&mut stream, &stderr));
}

fn resolve(head: &Head) -> Resolved {
    let canon = |p: &Path| {
        p.is_absolute()
            .then(|| std::fs::canonicalize(p).ok())
            .flatten()
    };
    Resolved {
        cwd: canon(&head.cwd).filter(|p| p.is_dir()),
        env: head
            .env
            .iter()
            .map(|(k, v)| (k.clone(), canon(Path::new(v))))
            .collect(),
    }
}

/// `loopgate hook <agent>` outside the jail on the forwarded input: the supervisor's own
/// environment (the one the run started with), the forwarded variables, and the switch that
/// tells its tool gate the agent is already jailed. Killed past its deadline.
fn run_hook(
    shared: &Shared,
    head: &Head,
    resolved: &Resolved,
    admitted: &Admitted,
    payload: &[u8],
) -> (i32, Vec<u8>, Vec<u8>) {
    let mut cmd = Command::new(&shared.exe);
    cmd.args(["hook", admitted.bound.agent.name()])
        .current_dir(resolved.cwd.as_deref().unwrap_or(&shared.root))
        .env_remove(super::ENV)
        .env(crate::cmd::hook::rewrite::RUN_CONFINED_ENV, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for name in admit::FORWARDED {
        cmd.env_remove(name);
    }
    for (name, value) in &head.env {
        cmd.env(name, value);
    }
    let failed = |why: String| {
        (
            2,
            Vec::new(),
            format!(
                "loopgate: hook {}: supervisor: {why}: refusing\n",
                head.agent
            )
            .into_bytes(),
        )
    };
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return failed(format!("cannot start the hook: {e}")),
    };
    let mut stdin = child.stdin.take().expect("piped");
    let input = payload.to_vec();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = drain(child.stdout.take().expect("piped"));
    let err = drain(child.stderr.take().expect("piped"));
    let started = Instant::now();
    let limit = admitted.limit + KILL_MARGIN;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    match status.and_then(|s| s.code()) {
        Some(code) => (code, stdout, stderr),
        None => failed(format!(
            "the hook did not answer within {}s",
            limit.as_secs()
        )),
    }
}

/// Read a pipe to its end on a thread, keeping at most [`wire::MAX_OUTPUT`] bytes.
fn drain(pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe
            .take(u64::from(wire::MAX_OUTPUT))
            .read_to_end(&mut bytes);
        bytes
    })
}
