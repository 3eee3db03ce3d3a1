//! One `git cat-file --batch` per repository, asked as many questions as a run has: the
//! config at the comparison point, then the old side of every changed file. Starting a git
//! process costs milliseconds on a busy machine, more than reading the blobs, so a run
//! starts this one early (it overlaps the status walk) and never starts a second.

use anyhow::{anyhow, Context};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Requests up to this size are written before reading the answers: they fit the pipe,
/// so git never waits on us. Larger ones are written by a second thread.
const DIRECT_WRITE_BYTES: usize = 16 * 1024;

#[derive(Debug)]
pub struct Batch {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Batch {
    /// Start `cmd` (a hardened `git cat-file --batch`; without `--filters` it hands out the
    /// stored bytes, so no filter runs).
    pub fn start(mut cmd: Command) -> anyhow::Result<Batch> {
        let mut child = cmd
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot run git cat-file")?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Ok(Batch {
            child,
            stdin,
            stdout,
        })
    }

    /// The blob at each `commit:path`; a path missing there, or naming something else than
    /// a file, maps to `None`. An error leaves the process unusable (the caller drops it).
    pub fn read(&mut self, commit: &str, paths: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        // A newline would end the request early: such a path is never asked.
        let asked = paths.iter().filter(|p| !p.contains('\n')).count();
        let request: Vec<u8> = paths
            .iter()
            .filter(|p| !p.contains('\n'))
            .flat_map(|p| format!("{commit}:{p}\n").into_bytes())
            .collect();
        let answers = if request.len() <= DIRECT_WRITE_BYTES {
            self.stdin
                .write_all(&request)
                .and_then(|_| self.stdin.flush())
                .context("cannot write to git cat-file")?;
            read_answers(&mut self.stdout, asked)
        } else {
            let (stdin, stdout, child) = (&mut self.stdin, &mut self.stdout, &mut self.child);
            std::thread::scope(|s| {
                let writer = s.spawn(move || stdin.write_all(&request).and_then(|_| stdin.flush()));
                let answers = read_answers(stdout, asked);
                if answers.is_err() {
                    // git may be blocked writing answers nobody reads; the writer would
                    // wait on it forever.
                    let _ = child.kill();
                }
                let wrote = writer
                    .join()
                    .map_err(|_| anyhow!("git cat-file writer panicked"));
                let answers = answers?;
                wrote?.context("cannot write to git cat-file")?;
                Ok(answers)
            })
        }?;
        let mut answers = answers.into_iter();
        Ok(paths
            .iter()
            .map(|p| {
                if p.contains('\n') {
                    None
                } else {
                    answers.next().flatten()
                }
            })
            .collect())
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_answers(out: &mut impl BufRead, n: usize) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
    (0..n)
        .map(|_| read_answer(out).context("git cat-file answered badly"))
        .collect()
}

/// One answer: `<oid> <type> <size>\n<content>\n`, or `<name> missing\n` (or `ambiguous`).
fn read_answer(out: &mut impl BufRead) -> anyhow::Result<Option<Vec<u8>>> {
    let mut header = Vec::new();
    out.read_until(b'\n', &mut header)?;
    if header.pop() != Some(b'\n') {
        anyhow::bail!("the output ended early");
    }
    let Some((kind, size)) = object_header(&header) else {
        return Ok(None);
    };
    let mut content = vec![0u8; size];
    out.read_exact(&mut content)?;
    let mut end = [0u8; 1];
    out.read_exact(&mut end)?;
    if end != *b"\n" {
        anyhow::bail!("an object did not end where its size said");
    }
    Ok((kind == b"blob").then_some(content))
}

/// The type and size of an object header; `None` for any other line. A request that names
/// nothing is echoed back as `<commit>:<path> missing`, whose first word holds a `:` and
/// so never reads as an object id.
fn object_header(header: &[u8]) -> Option<(&[u8], usize)> {
    let mut words = header.split(|b| *b == b' ');
    let (oid, kind, size) = (words.next()?, words.next()?, words.next()?);
    if words.next().is_some() || oid.is_empty() || !oid.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let size = std::str::from_utf8(size).ok()?.parse().ok()?;
    Some((kind, size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_order_with_missing_trees_and_blobs() {
        let out: &[u8] = b"c0ffee blob 3\nab\n\n\
            abc:gone missing\n\
            beef tree 2\nxy\n\
            abc:a b missing\n\
            f00d blob 0\n\n";
        let mut reader = out;
        let got = read_answers(&mut reader, 5).unwrap();
        assert_eq!(
            got,
            vec![Some(b"ab\n".to_vec()), None, None, None, Some(Vec::new())]
        );
    }

    #[test]
    fn a_short_or_misframed_answer_is_an_error() {
        let mut short: &[u8] = b"c0ffee blob 10\nab\n";
        assert!(read_answers(&mut short, 1).is_err());
        let mut cut: &[u8] = b"c0ffee blob 2\nab\n";
        assert!(read_answers(&mut cut, 2).is_err());
        let mut misframed: &[u8] = b"c0ffee blob 1\nab\n";
        assert!(read_answers(&mut misframed, 1).is_err());
    }
}
