//! Windows programs an agent in WSL can start through interop (`reg.exe`, `schtasks.exe`,
//! `icacls.exe`, `wsl.exe`): they run on the Windows host, outside the Linux process tree,
//! so neither Landlock nor a mount namespace confines them. Those that change the host's
//! registry, scheduled tasks, permissions, firewall, boot settings or backups, or delete
//! a whole tree or distribution, are asked about; their reading forms (`reg query`,
//! `icacls FILE`, `netsh ... show`) are not.

/// What the command changes on the host, or `None`. `words` follow the program name;
/// Windows options are matched without regard to case and with `/` or `-`.
pub(crate) fn changes_windows_host(name: &str, words: &[&str]) -> Option<&'static str> {
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let opt = |names: &[&str]| {
        lower.iter().any(|w| {
            let bare = w
                .strip_prefix('/')
                .unwrap_or_else(|| w.trim_start_matches('-'));
            names
                .iter()
                .any(|n| bare == *n || bare.starts_with(&format!("{n}:")))
        })
    };
    let first = lower.first().map(String::as_str).unwrap_or("");
    match name {
        "reg" => matches!(
            first,
            "add" | "delete" | "import" | "restore" | "load" | "unload" | "copy"
        )
        .then_some("changes the Windows registry"),
        "schtasks" => opt(&["create", "delete", "change", "run"])
            .then_some("creates, changes or runs a Windows scheduled task"),
        "icacls" => opt(&[
            "grant",
            "deny",
            "remove",
            "reset",
            "setowner",
            "restore",
            "setintegritylevel",
        ])
        .then_some("changes Windows file permissions"),
        "takeown" => Some("takes ownership of Windows files"),
        "netsh" => lower
            .iter()
            .any(|w| matches!(w.as_str(), "set" | "add" | "delete" | "reset" | "import"))
            .then_some("changes the Windows network or firewall settings"),
        "vssadmin" | "wbadmin" => matches!(first, "delete" | "resize")
            .then_some("deletes Windows shadow copies or backups"),
        "bcdedit" => opt(&[
            "set",
            "delete",
            "deletevalue",
            "import",
            "create",
            "default",
        ])
        .then_some("changes the Windows boot configuration"),
        "cipher" => opt(&["w", "e", "d", "r", "k", "rekey"])
            .then_some("wipes free space or changes encryption on a Windows drive"),
        "robocopy" => opt(&["mir", "purge", "move", "mov"])
            .then_some("deletes files in a Windows directory it mirrors into"),
        "wsl" => opt(&["unregister"]).then_some("deletes a WSL distribution and all its files"),
        "sc" => matches!(first, "delete" | "config" | "stop" | "create" | "failure")
            .then_some("changes a Windows service"),
        // Not `format`: on Linux that name is other programs' (`format disk --help`).
        "diskpart" => Some("repartitions a Windows drive"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::changes_windows_host;

    #[test]
    fn changes_but_not_reads() {
        assert!(changes_windows_host("reg", &["delete", "HKCU\\x", "/f"]).is_some());
        assert!(changes_windows_host("reg", &["query", "HKCU\\x"]).is_none());
        assert!(changes_windows_host("icacls", &["C:\\x"]).is_none());
        assert!(changes_windows_host("icacls", &["C:\\", "/grant", "Everyone:F"]).is_some());
        assert!(changes_windows_host("netsh", &["advfirewall", "show", "allprofiles"]).is_none());
        assert!(changes_windows_host("robocopy", &["a", "b", "/E"]).is_none());
        assert!(changes_windows_host("robocopy", &["a", "b", "/MIR"]).is_some());
        assert!(changes_windows_host("wsl", &["-l", "-v"]).is_none());
        assert!(changes_windows_host("wsl", &["--unregister", "Ubuntu"]).is_some());
        assert!(changes_windows_host("schtasks", &["/query"]).is_none());
    }
}
