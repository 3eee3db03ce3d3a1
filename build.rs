//! How the `loopgate` executable is linked on Linux with glibc.
//!
//! Every agent tool call starts this binary (`loopgate hook`, then `loopgate jail-shell`),
//! so its start-up is on the hot path. `.cargo/config.toml` links it statically
//! (`crt-static`): the kernel maps one file and jumps in, with no dynamic loader, no
//! libc/libgcc_s/libm to map and no symbols to resolve. It stays position-independent, so
//! its image is randomised; its ~10,000 relative relocations are packed (DT_RELR, glibc 2.36
//! and binutils 2.38 or later), which the static start-up code applies in a few hundred
//! words instead of reading one 24-byte entry each. The same packing helps a dynamic build
//! made without the config. Measured on a quiet machine with bench/hook.sh, alternating
//! builds: PreToolUse p50 1.65x to 1.68x `/bin/true` static, 1.90x dynamic at a fixed
//! address, 2.03x dynamic PIE (docs/hooks-wiring.md, "Speed").
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
