//! The start of the process is most of a tool call's cost (docs/hooks-wiring.md, "Speed"),
//! so what keeps it small is checked on the binary the tests run, not only measured.

/// On Linux with glibc the executable is linked at a fixed address (`build.rs`): a
/// position-independent build makes the loader apply ~10,000 relocations at every start.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn the_executable_is_linked_at_a_fixed_address() {
    let path = assert_cmd::cargo::cargo_bin("loopgate");
    let bytes = std::fs::read(&path).expect("the built binary is readable");
    assert_eq!(&bytes[..4], b"\x7fELF", "{} is an ELF file", path.display());
    // e_type, little-endian at offset 16: 2 = ET_EXEC (fixed address), 3 = ET_DYN (PIE).
    let e_type = u16::from_le_bytes([bytes[16], bytes[17]]);
    assert_eq!(
        e_type,
        2,
        "{} is linked as PIE (e_type {e_type})",
        path.display()
    );
}
