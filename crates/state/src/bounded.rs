//! Reading a file that someone else may have replaced with a trap: a FIFO (a read blocks
//! until a writer shows up, maybe never), a device (`/dev/zero` never ends), a socket, a
//! directory, or a regular file far larger than anything loopgate writes. Every state and
//! config read goes through [`open_regular`], so none of these can block a hook or eat its
//! memory: the open never waits, and only a regular file of a sane size is read.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Whether a symlink at the final path component may be followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// Yes (the user's own files, e.g. a `loopgate.toml` kept elsewhere and linked).
    Yes,
    /// No: loopgate's own state files are written by rename and never are symlinks.
    No,
}

/// Open `path` for reading without ever blocking, and refuse anything but a regular file.
///
/// `O_NONBLOCK` makes opening a FIFO return at once (a blocking open waits for a writer);
/// the `fstat` on the opened descriptor then tells what it really is, so there is no race
/// between looking and opening. std opens with `O_CLOEXEC` already.
pub fn open_regular(path: &Path, follow: Follow) -> io::Result<File> {
    let mut flags = libc::O_NONBLOCK;
    if follow == Follow::No {
        flags |= libc::O_NOFOLLOW;
    }
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
        .map_err(|e| refused_open(path, follow, e))?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(not_regular(path, kind_name(kind)))
}

fn kind_name(kind: std::fs::FileType) -> &'static str {
    if kind.is_fifo() {
        "FIFO (named pipe)"
    } else if kind.is_char_device() {
        "character device"
    } else if kind.is_block_device() {
        "block device"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_dir() {
        "directory"
    } else {
        "special file"
    }
}

/// Open (creating it 0600 if missing) the regular file `path` for reading and appending,
/// never blocking on a FIFO and never through a symlink (an append-only log such as the
/// audit log: an agent that plants a FIFO there must not stall the hook).
pub fn open_append(path: &Path) -> io::Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .mode(0o600)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(path)
        .map_err(|e| refused_open(path, Follow::No, e))?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(not_regular(path, kind_name(kind)));
    }
    Ok(file)
}

/// A clearer error for the opens refused by the flags.
fn refused_open(path: &Path, follow: Follow, e: io::Error) -> io::Error {
    match e.raw_os_error() {
        Some(libc::ELOOP) if follow == Follow::No => io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is a symbolic link; loopgate's state files never are, so it is not followed",
                path.display()
            ),
        ),
        Some(libc::ENXIO) => not_regular(path, "socket or FIFO without a reader"),
        _ => e,
    }
}

fn not_regular(path: &Path, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is a {what}, not a regular file; refusing to read it",
            path.display()
        ),
    )
}

/// The whole content of the regular file `path`, refused unread when it is larger than
/// `max_bytes`. `NotFound` is passed through unchanged so callers can tell "missing".
pub fn read_bounded(path: &Path, max_bytes: u64, follow: Follow) -> io::Result<Vec<u8>> {
    let file = open_regular(path, follow)?;
    let len = file.metadata()?.len();
    let too_big = |len: u64| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is {len} bytes, more than the {max_bytes} loopgate reads; refusing to read it",
                path.display()
            ),
        )
    };
    if len > max_bytes {
        return Err(too_big(len));
    }
    // The file may grow between the fstat and the read: never take more than the bound.
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn mkfifo(path: &Path) {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }

    #[test]
    fn a_fifo_is_refused_at_once_and_named() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("ledger.json");
        mkfifo(&fifo);
        let started = Instant::now();
        let err = read_bounded(&fifo, 1024, Follow::No).unwrap_err();
        // A generous bound: this catches a read that waits for a writer forever.
        assert!(started.elapsed() < Duration::from_secs(5));
        let text = err.to_string();
        assert!(
            text.contains("ledger.json") && text.contains("FIFO"),
            "{text}"
        );
    }

    #[test]
    fn devices_directories_and_sockets_are_refused() {
        let err = read_bounded(Path::new("/dev/zero"), 1024, Follow::Yes).unwrap_err();
        assert!(err.to_string().contains("character device"), "{err}");
        let tmp = tempfile::tempdir().unwrap();
        let err = read_bounded(tmp.path(), 1024, Follow::Yes).unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
        let sock = tmp.path().join("s.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let err = read_bounded(&sock, 1024, Follow::Yes).unwrap_err();
        assert!(err.to_string().contains("s.sock"), "{err}");
    }

    #[test]
    fn a_symlink_to_a_device_is_refused_when_followed_and_not_followed_otherwise() {
        let tmp = tempfile::tempdir().unwrap();
        let link = tmp.path().join("loopgate.toml");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let followed = read_bounded(&link, 1024, Follow::Yes).unwrap_err();
        assert!(
            followed.to_string().contains("character device"),
            "{followed}"
        );
        let refused = read_bounded(&link, 1024, Follow::No).unwrap_err();
        assert!(refused.to_string().contains("symbolic link"), "{refused}");
    }

    #[test]
    fn oversized_files_are_refused_and_small_ones_read() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("big");
        std::fs::write(&file, vec![b'x'; 2048]).unwrap();
        let err = read_bounded(&file, 1024, Follow::No).unwrap_err();
        assert!(
            err.to_string().contains("2048 bytes") && err.to_string().contains("big"),
            "{err}"
        );
        assert_eq!(read_bounded(&file, 4096, Follow::No).unwrap().len(), 2048);
        let fifo = tmp.path().join("audit.ndjson");
        mkfifo(&fifo);
        let err = open_append(&fifo).unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
        let missing = read_bounded(&tmp.path().join("none"), 1, Follow::No).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
    }
}
