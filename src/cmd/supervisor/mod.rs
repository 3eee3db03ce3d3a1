//! The supervisor of a whole-agent run (`loopgate run --confine`): the referee's state stays
//! outside the jail, and the agent's hooks reach it only through a private socket.
//!
//! Under `run --confine` the whole agent, and so every hook it calls, runs inside the jail,
//! where `.loopgate/` and the user state dir (session pins) are read-only. A hook that finds
//! [`ENV`] set forwards its call (agent, stdin, working directory, the agent's project-dir
//! variables) to the supervisor that `loopgate run` started outside the jail, which admits
//! only calls of the session it supervises (see `admit`), runs `loopgate hook` unconfined on
//! the forwarded input, and hands back its stdout, stderr and exit code. A hook that cannot
//! reach the supervisor, or is refused by it, exits 2: fail closed.

pub(crate) mod admit;
pub(crate) mod forward;
pub(crate) mod serve;
pub(crate) mod wire;

/// Set by `loopgate run --confine` for the agent it starts: the path of the socket its
/// hooks forward their calls to.
pub const ENV: &str = "LOOPGATE_SUPERVISOR";
