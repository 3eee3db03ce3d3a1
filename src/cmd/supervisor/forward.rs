//! The hook's side under `loopgate run --confine`: the call is forwarded to the supervisor
//! and its answer replayed (stdout, stderr, exit code). Every failure exits 2, which blocks
//! a tool call and refuses a stop in every supported protocol.

use super::wire::{self, Answer, Head, Verdict};
use std::io::Write;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

/// After the supervisor's own limit, for the answer to travel back.
const ANSWER_MARGIN: Duration = Duration::from_secs(3);

/// Forward this hook call (`payload` is its stdin) to the supervisor at `socket`. Returns
/// the exit code to end with, after replaying the answer.
pub fn forward(agent: &'static str, dir: &Path, socket: &Path, payload: Vec<u8>) -> i32 {
    match exchange(agent, dir, socket, payload) {
        Ok((code, stdout, stderr)) => {
            let _ = std::io::stderr().write_all(&stderr);
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(&stdout);
            let _ = out.flush();
            code
        }
        Err(why) => {
            eprintln!("loopgate: hook {agent}: {why}: refusing");
            2
        }
    }
}

fn exchange(
    agent: &'static str,
    dir: &Path,
    socket: &Path,
    payload: Vec<u8>,
) -> Result<(i32, Vec<u8>, Vec<u8>), String> {
    let unreachable = |e: std::io::Error| {
        format!(
            "the supervisor of `loopgate run` cannot be reached at {} ({e})",
            socket.display()
        )
    };
    let mut stream = UnixStream::connect(socket).map_err(unreachable)?;
    let left = || {
        crate::cmd::hook::watchdog_remaining()
            .unwrap_or(crate::cmd::hook::TOOL_CALL_CAP)
            .max(Duration::from_millis(1))
    };
    let _ = stream.set_write_timeout(Some(left()));
    let _ = stream.set_read_timeout(Some(left()));
    let env = super::admit::FORWARDED
        .iter()
        .filter_map(|name| {
            let value = std::env::var(name).ok().filter(|v| !v.is_empty())?;
            Some((name.to_string(), value))
        })
        .collect();
    let head = Head {
        agent: agent.to_string(),
        cwd: absolute(dir),
        env,
    };
    let lost = |e: std::io::Error| format!("the supervisor of `loopgate run` did not answer ({e})");
    wire::write_json(&mut stream, &head)
        .and_then(|()| wire::write_frame(&mut stream, &payload))
        .map_err(lost)?;
    match wire::read_json::<Verdict>(&mut stream).map_err(lost)? {
        Verdict::Refused { reason } => {
            return Err(format!(
                "the supervisor of `loopgate run` refused the call: {reason}"
            ))
        }
        Verdict::Admitted { limit_ms } => {
            // The supervisor kills the hook at its limit; this process waits a little longer
            // for that answer, and its own watchdog still ends it with exit 2 after that.
            let limit = Duration::from_millis(limit_ms) + ANSWER_MARGIN;
            crate::cmd::hook::extend_watchdog(limit);
            let _ = stream.set_read_timeout(Some(left()));
        }
    }
    let answer = wire::read_json::<Answer>(&mut stream).map_err(lost)?;
    let stdout = wire::read_frame(&mut stream, wire::MAX_OUTPUT).map_err(lost)?;
    let stderr = wire::read_frame(&mut stream, wire::MAX_OUTPUT).map_err(lost)?;
    Ok((answer.code, stdout, stderr))
}

fn absolute(dir: &Path) -> std::path::PathBuf {
    if dir.is_absolute() {
        return dir.to_path_buf();
    }
    std::env::current_dir()
        .map(|cwd| cwd.join(dir))
        .unwrap_or_else(|_| dir.to_path_buf())
}
