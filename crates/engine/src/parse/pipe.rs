//! Pipes read as the files they are: standard input (`-`), a named pipe, `/dev/stdin` or a
//! process substitution (`<(...)`) is copied as it streams into a temporary file without a name
//! (the kind a decompressed copy is), then read exactly as a file of that content would be: a
//! large text through the same bounded windows, its bodies parsed again from the copy when
//! asked for; a report with its results read on demand. Nothing of the pipe is held in memory
//! but the copy's buffer. The copy is bounded as the file would be (the text bound for text,
//! the decompression bound for a report or compressed content) and by the temporary folder's
//! free space; binary content that is no report is refused at its first bytes.

use super::compressed::{self, Decompressed};
use super::{HEAD_BYTES, LoadError, MAX_TEXT_BYTES, ParseError, detect, looks_binary};
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

/// The name that stands for standard input.
pub const STDIN: &str = "-";

/// Bytes copied at a time.
const BUFFER: usize = 1 << 20;

/// Whether `path` is read as a pipe: `-`, or a file that is neither a regular file nor a
/// folder (a named pipe, a character device such as `/dev/stdin` on a pipe).
pub fn is_pipe(path: &Path) -> bool {
    path == Path::new(STDIN) || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Copies the pipe `path` into a temporary file, telling `progress` the bytes copied so far.
pub fn copy(path: &Path, progress: &mut dyn FnMut(u64, u64)) -> Result<Decompressed, LoadError> {
    let io_error = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    if path == Path::new(STDIN) {
        copy_from(path, io::stdin().lock(), progress)
    } else {
        copy_from(path, File::open(path).map_err(io_error)?, progress)
    }
}

/// Copies `input` (the pipe `path`) into a temporary file.
fn copy_from(
    path: &Path,
    mut input: impl Read,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Decompressed, LoadError> {
    let io_error = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = std::env::temp_dir();
    let temp_error = |source: io::Error| {
        io_error(io::Error::new(
            source.kind(),
            format!("writing a copy into {}: {source}", dir.display()),
        ))
    };
    let room = compressed::free_space(&dir).map(|free| free - free / 20);
    let (writer, copy_path, keep) = compressed::temp_copy(&dir).map_err(temp_error)?;
    let mut out = io::BufWriter::with_capacity(BUFFER, writer);
    let mut buffer = vec![0u8; BUFFER];
    let mut head: Vec<u8> = Vec::new();
    let mut limit = None;
    let mut written = 0u64;
    loop {
        let n = match input.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(e)),
        };
        let chunk = &buffer[..n];
        if limit.is_none() {
            head.extend_from_slice(&chunk[..chunk.len().min(HEAD_BYTES - head.len())]);
            if head.len() >= HEAD_BYTES {
                limit = Some(bound(path, &head)?);
            }
        }
        written += n as u64;
        if written > limit.unwrap_or(MAX_TEXT_BYTES) {
            return Err(LoadError::TooLarge {
                path: path.to_path_buf(),
                size: written,
            });
        }
        if room.is_some_and(|room| written > room) {
            return Err(temp_error(io::Error::new(
                io::ErrorKind::StorageFull,
                "the pipe holds more than the temporary folder has free (set TMPDIR to a \
                 folder with more room)",
            )));
        }
        out.write_all(chunk).map_err(temp_error)?;
        progress(written, written);
    }
    if limit.is_none() {
        bound(path, &head)?;
    }
    out.flush().map_err(temp_error)?;
    drop(out);
    Ok(Decompressed {
        path: copy_path,
        keep,
        size: written,
        damage: None,
    })
}

/// The most bytes a pipe starting with `head` may hold: a report's or compressed content's
/// bound, the text bound for text; binary content that is no report is refused.
fn bound(path: &Path, head: &[u8]) -> Result<u64, LoadError> {
    if detect::is_ncu_rep(head) || compressed::detect(head).is_some() {
        Ok(compressed::MAX_DECOMPRESSED)
    } else if looks_binary(head) {
        Err(LoadError::Parse {
            path: path.to_path_buf(),
            source: ParseError::NotAResult("binary content that is not an .ncu-rep report".into()),
        })
    } else {
        Ok(MAX_TEXT_BYTES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_copied_whole_and_binary_refused_at_once() {
        let text = "==PROF== Connected to process 1\n".repeat(1000);
        let copied = copy_from(Path::new("in"), text.as_bytes(), &mut |_, _| {}).unwrap();
        assert_eq!(copied.size, text.len() as u64);
        assert_eq!(std::fs::read(&copied.path).unwrap(), text.as_bytes());
        // Zeros: refused after the first chunk, whatever follows.
        let zeros = io::repeat(0).take(1 << 30);
        let mut told = 0;
        let refused = copy_from(Path::new("zeros"), zeros, &mut |done, _| told = done);
        assert!(
            matches!(refused, Err(LoadError::Parse { .. })),
            "{refused:?}"
        );
        assert_eq!(told, 0);
    }
}
