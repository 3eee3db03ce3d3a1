//! Pack the `loopgate` executable's relative relocations (DT_RELR) on Linux with glibc.
//!
//! Every agent tool call starts this binary (`loopgate hook`, then `loopgate jail-shell`),
//! so its start-up is on the hot path. As a position-independent executable it carries
//! about 10,000 relative relocations, which the dynamic loader reads one 24-byte entry at a
//! time at every start; packed, they take under 3 KB and are applied from a bitmap. The
//! executable stays position-independent, so its image is still randomised. Measured with
//! bench/hook.sh against a fixed-address (`-no-pie`) build in the same run: no difference
//! in p50 (docs/hooks-wiring.md, "Speed"). Needs glibc 2.36 and binutils 2.38 or later.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
