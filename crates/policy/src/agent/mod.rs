//! Agent-mode shell vetting (to be built).
