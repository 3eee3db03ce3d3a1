//! Link the `loopgate` executable at a fixed address (not PIE) on Linux.
//!
//! Every agent tool call starts this binary (`loopgate hook`, then `loopgate jail-shell`),
//! so its start-up is on the hot path. As a position-independent executable it carries
//! about 10,000 relative relocations that the dynamic loader applies at every start, writing
//! (and so copying) every page of its relocated read-only data; linked at a fixed address it
//! has none. Measured with bench/hook.sh, this is the largest single cost of starting the
//! process that loopgate controls (docs/hooks-wiring.md, "Speed"). The price is that the
//! executable's own image is not randomised; its heap, stack and libraries still are.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
