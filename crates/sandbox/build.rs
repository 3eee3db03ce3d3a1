//! Builds the bash loadable builtin `loopgate_jail` (builtin/loopgate_jail.rs) for the
//! target, for `sandbox::builtin` to embed. It is a shared library loaded into the agent's
//! bash, so it is built apart from this crate: without the standard library, linked against
//! the C library bash already has, and never with `crt-static` (which cannot make a shared
//! library). Only for Linux with glibc, where the jail exists and bash can load it.
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let source = "builtin/loopgate_jail.rs";
    println!("cargo:rerun-if-changed={source}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo::rustc-check-cfg=cfg(loopgate_builtin)");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    let out = PathBuf::from(var("OUT_DIR")).join("libloopgate_jail.so");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let mut cmd = Command::new(rustc);
    cmd.args([
        "--edition",
        "2021",
        "--crate-type",
        "cdylib",
        "--crate-name",
        "loopgate_jail",
    ])
    .args([
        "-C",
        "panic=abort",
        "-C",
        "opt-level=2",
        "-C",
        "strip=symbols",
    ])
    .args(["--target", &var("TARGET")])
    .arg("-o")
    .arg(&out)
    .arg(source)
    // The target's rustflags (crt-static) are meant for loopgate itself.
    .env_remove("CARGO_ENCODED_RUSTFLAGS")
    .env_remove("RUSTFLAGS");
    let linker_var = format!(
        "CARGO_TARGET_{}_LINKER",
        var("TARGET").to_uppercase().replace('-', "_")
    );
    if let Ok(linker) = std::env::var(&linker_var) {
        cmd.arg("-C").arg(format!("linker={linker}"));
    }
    let status = cmd.status().expect("rustc runs to build the bash builtin");
    assert!(
        status.success(),
        "building the bash builtin {source} failed ({status})"
    );
    println!("cargo:rustc-cfg=loopgate_builtin");
}
