//! The start of the process is most of a tool call's cost (docs/hooks-wiring.md, "Speed"),
//! so what keeps it small is checked on the binary the tests run, not only measured.

/// The parts of an ELF64 little-endian executable that decide how it starts.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
struct Startup {
    e_type: u16,
    has_interpreter: bool,
    dynamic_tags: Vec<u64>,
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn startup_of_built_binary() -> (std::path::PathBuf, Startup) {
    let path = assert_cmd::cargo::cargo_bin("loopgate");
    let bytes = std::fs::read(&path).expect("the built binary is readable");
    assert_eq!(&bytes[..4], b"\x7fELF", "{} is an ELF file", path.display());
    let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let (phoff, phentsize, phnum) = (u64_at(32) as usize, u16_at(54) as usize, u16_at(56));
    let headers: Vec<usize> = (0..phnum as usize).map(|i| phoff + i * phentsize).collect();
    const PT_DYNAMIC: u32 = 2;
    const PT_INTERP: u32 = 3;
    let dynamic_tags = headers
        .iter()
        .find(|&&h| u32_at(h) == PT_DYNAMIC)
        .map(|&h| {
            let (offset, size) = (u64_at(h + 8) as usize, u64_at(h + 32) as usize);
            (offset..offset + size)
                .step_by(16)
                .map(u64_at)
                .take_while(|&tag| tag != 0)
                .collect()
        })
        .unwrap_or_default();
    let startup = Startup {
        e_type: u16_at(16),
        has_interpreter: headers.iter().any(|&h| u32_at(h) == PT_INTERP),
        dynamic_tags,
    };
    (path, startup)
}

/// On Linux with glibc, `.cargo/config.toml` links the executable statically: no dynamic
/// loader runs at each start, and no shared library is mapped and bound.
#[cfg(all(
    target_os = "linux",
    target_env = "gnu",
    target_pointer_width = "64",
    target_feature = "crt-static"
))]
#[test]
fn the_executable_starts_without_a_dynamic_loader() {
    let (path, startup) = startup_of_built_binary();
    assert!(
        !startup.has_interpreter,
        "{} asks for a program interpreter (dynamically linked)",
        path.display()
    );
}

/// The image stays randomised (PIE), and its ~10,000 relative relocations are packed
/// (`build.rs`): unpacked, start-up reads a 24-byte entry for each.
#[cfg(all(target_os = "linux", target_env = "gnu", target_pointer_width = "64"))]
#[test]
fn the_executable_is_position_independent_with_packed_relocations() {
    let (path, startup) = startup_of_built_binary();
    // e_type: 2 = ET_EXEC (fixed address), 3 = ET_DYN (PIE).
    assert_eq!(
        startup.e_type,
        3,
        "{} is not PIE (e_type {})",
        path.display(),
        startup.e_type
    );
    const DT_RELR: u64 = 36;
    assert!(
        startup.dynamic_tags.contains(&DT_RELR),
        "{} has no packed relative relocations (DT_RELR); tags: {:?}",
        path.display(),
        startup.dynamic_tags
    );
}
