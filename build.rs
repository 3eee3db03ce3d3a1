//! How the `loopgate` executable is linked on Linux with glibc.
//!
//! Every agent tool call starts this binary (`loopgate hook`, then `loopgate jail-shell`),
//! so its start-up is on the hot path. As a position-independent executable it carries
//! about 10,000 relative relocations, and the loader writes, and so copies, every page of
//! relocated data at each start. By default it is linked at a fixed address (`-no-pie`),
//! which has none; its heap, stack and libraries are still randomised, its own image is not.
//! The `pie` feature keeps it position-independent with the relocations packed (DT_RELR,
//! glibc 2.36 and binutils 2.38 or later) for builds that want the image randomised too.
//! Measured on a quiet machine with bench/hook.sh, alternating the two builds: PreToolUse
//! p50 1.92x `/bin/true` at a fixed address, 2.03x to 2.04x as packed PIE
//! (docs/hooks-wiring.md, "Speed").
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        if std::env::var_os("CARGO_FEATURE_PIE").is_some() {
            println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
        } else {
            println!("cargo:rustc-link-arg-bins=-no-pie");
        }
    }
}
