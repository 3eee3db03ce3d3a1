//! The start of the process is most of a tool call's cost (docs/hooks-wiring.md, "Speed"),
//! so what keeps it small is checked on the binary the tests run, not only measured.

/// On Linux with glibc the executable is linked at a fixed address (`build.rs`): as a
/// position-independent executable the loader applies ~10,000 relocations at every start.
#[cfg(all(target_os = "linux", target_env = "gnu", not(feature = "pie")))]
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

/// With the `pie` feature the executable stays position-independent (its image is
/// randomised) with its relative relocations packed: unpacked, the loader reads ~10,000
/// relocation entries at every start.
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    target_pointer_width = "64",
    feature = "pie"
))]
#[test]
fn the_executable_is_position_independent_with_packed_relocations() {
    let path = assert_cmd::cargo::cargo_bin("loopgate");
    let bytes = std::fs::read(&path).expect("the built binary is readable");
    assert_eq!(&bytes[..4], b"\x7fELF", "{} is an ELF file", path.display());
    let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    // e_type at offset 16: 2 = ET_EXEC (fixed address), 3 = ET_DYN (PIE).
    let e_type = u16_at(16);
    assert_eq!(e_type, 3, "{} is not PIE (e_type {e_type})", path.display());
    // The dynamic section, found through the program headers (PT_DYNAMIC = 2).
    let (phoff, phentsize, phnum) = (u64_at(32) as usize, u16_at(54) as usize, u16_at(56));
    let dynamic = (0..phnum as usize)
        .map(|i| phoff + i * phentsize)
        .find(|&h| u32::from_le_bytes(bytes[h..h + 4].try_into().unwrap()) == 2)
        .map(|h| (u64_at(h + 8) as usize, u64_at(h + 32) as usize))
        .expect("a dynamically linked executable has PT_DYNAMIC");
    let (offset, size) = dynamic;
    const DT_RELR: u64 = 36;
    let tags: Vec<u64> = (offset..offset + size)
        .step_by(16)
        .map(u64_at)
        .take_while(|&tag| tag != 0)
        .collect();
    assert!(
        tags.contains(&DT_RELR),
        "{} has no packed relative relocations (DT_RELR); tags: {tags:?}",
        path.display()
    );
}
