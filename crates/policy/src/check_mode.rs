//! Check-mode vetting (to be built).
