//! Claude Code style tool rules (to be built).
