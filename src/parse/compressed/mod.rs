//! Compressed inputs: `.ncu-repz` (zstd) and `.gz`, `.xz` or `.zst` copies of any form
//! sightline reads. The compression is recognised by its magic bytes, never by the file name.
//! A file is decompressed once, into a temporary file that is removed when the last user of it
//! is dropped, so memory stays as flat as for a plain file; bytes already in memory (a drop,
//! a paste) are decompressed in memory. Both are bounded: a stream that decompresses to more
//! than [`MAX_DECOMPRESSED`] bytes is refused.

pub mod zstd_frames;

use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use tempfile::TempPath;
use zstd_frames::ZstdFrames;

/// The most bytes a compressed input may decompress to (a decompression bomb is refused).
pub const MAX_DECOMPRESSED: u64 = 64 << 30;

/// How an input is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    Zstd,
    Gzip,
    Xz,
}

impl Compression {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Xz => "xz",
        }
    }
}

/// The compression of content starting with `head`, from its magic bytes. A zstd stream may
/// start with a skippable frame (magic `0x184D2A50..=0x184D2A5F`).
pub fn detect(head: &[u8]) -> Option<Compression> {
    if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
        return Some(Compression::Zstd);
    }
    if let Some(b) = head.get(..4) {
        let magic = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if (0x184D_2A50..=0x184D_2A5F).contains(&magic) {
            return Some(Compression::Zstd);
        }
    }
    if head.starts_with(&[0x1F, 0x8B]) {
        return Some(Compression::Gzip);
    }
    if head.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0x00]) {
        return Some(Compression::Xz);
    }
    None
}

/// Why a compressed input could not be decompressed.
#[derive(Debug, thiserror::Error)]
pub enum DecompressError {
    /// The stream is damaged or cut off.
    #[error("damaged {format} stream after {decompressed} decompressed bytes: {source}")]
    Damaged {
        format: &'static str,
        decompressed: u64,
        source: io::Error,
    },
    /// The stream decompresses to more than the limit.
    #[error("{format} stream decompresses to more than {limit} bytes; refused")]
    TooLarge { format: &'static str, limit: u64 },
    /// The temporary file could not be written (a full disk, no temporary folder).
    #[error("writing the decompressed copy into {}: {source}", dir.display())]
    TempFile { dir: PathBuf, source: io::Error },
}

/// A decoder reading every frame or member of a `kind` stream.
pub fn decoder<'a>(kind: Compression, input: impl BufRead + 'a) -> Box<dyn Read + 'a> {
    match kind {
        Compression::Zstd => Box::new(ZstdFrames::new(input)),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
        Compression::Xz => Box::new(xz2::bufread::XzDecoder::new_multi_decoder(input)),
    }
}

/// Decompresses bytes in memory, refusing more than `limit` bytes of output.
pub fn decompress_bytes(
    kind: Compression,
    bytes: &[u8],
    limit: u64,
) -> Result<Vec<u8>, DecompressError> {
    let mut out = Vec::new();
    let read = decoder(kind, bytes)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out);
    if let Err(source) = read {
        return Err(DecompressError::Damaged {
            format: kind.name(),
            decompressed: out.len() as u64,
            source,
        });
    }
    if out.len() as u64 > limit {
        return Err(DecompressError::TooLarge {
            format: kind.name(),
            limit,
        });
    }
    Ok(out)
}

/// A decompressed copy of a file in the temporary folder; removed when dropped.
#[derive(Debug)]
pub struct Decompressed {
    pub path: TempPath,
    /// Bytes of decompressed content.
    pub size: u64,
}

/// Why decompressing a file stopped.
#[derive(Debug)]
pub enum FileError {
    /// The compressed file could not be read.
    Io(io::Error),
    Decompress(DecompressError),
}

/// Bytes decoded at a time.
const BUFFER: usize = 1 << 20;

/// Decompresses the file at `path` into a temporary file, refusing more than `limit` bytes of
/// output. `progress` is told the compressed bytes read so far and the compressed size.
pub fn decompress_file(
    path: &Path,
    kind: Compression,
    limit: u64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Decompressed, FileError> {
    let file = File::open(path).map_err(FileError::Io)?;
    let size = file.metadata().map_err(FileError::Io)?.len();
    let read = Rc::new(Cell::new(0u64));
    let failed = Rc::new(Cell::new(false));
    let input = BufReader::with_capacity(
        BUFFER,
        Counting {
            inner: file,
            read: Rc::clone(&read),
            failed: Rc::clone(&failed),
        },
    );
    let dir = std::env::temp_dir();
    let temp_error = |source| {
        FileError::Decompress(DecompressError::TempFile {
            dir: dir.clone(),
            source,
        })
    };
    let mut out = tempfile::Builder::new()
        .prefix(&format!("sightline-{}-", std::process::id()))
        .suffix(".decompressed")
        .tempfile_in(&dir)
        .map_err(temp_error)?;
    let mut decoder = decoder(kind, input);
    let mut buffer = vec![0u8; BUFFER];
    let mut written = 0u64;
    loop {
        let n = match decoder.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // An error of the file itself, not of its content.
            Err(e) if failed.get() => return Err(FileError::Io(e)),
            Err(source) => {
                return Err(FileError::Decompress(DecompressError::Damaged {
                    format: kind.name(),
                    decompressed: written,
                    source,
                }));
            }
        };
        written += n as u64;
        if written > limit {
            return Err(FileError::Decompress(DecompressError::TooLarge {
                format: kind.name(),
                limit,
            }));
        }
        out.write_all(&buffer[..n]).map_err(temp_error)?;
        progress(read.get().min(size), size);
    }
    out.flush().map_err(temp_error)?;
    Ok(Decompressed {
        path: out.into_temp_path(),
        size: written,
    })
}

/// A reader that counts the bytes read and remembers whether reading failed.
struct Counting<R> {
    inner: R,
    read: Rc<Cell<u64>>,
    failed: Rc<Cell<bool>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.read.set(self.read.get() + n as u64);
                Ok(n)
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.failed.set(true);
                }
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_magic() {
        assert_eq!(
            detect(&[0x28, 0xB5, 0x2F, 0xFD, 0]),
            Some(Compression::Zstd)
        );
        assert_eq!(
            detect(&[0x5E, 0x2A, 0x4D, 0x18, 0]),
            Some(Compression::Zstd)
        );
        assert_eq!(detect(&[0x1F, 0x8B, 8]), Some(Compression::Gzip));
        assert_eq!(detect(b"\xFD7zXZ\0\0"), Some(Compression::Xz));
        assert_eq!(detect(b"NVR\0"), None);
        assert_eq!(detect(b"==PROF=="), None);
        assert_eq!(detect(&[0x28]), None);
    }

    #[test]
    fn bounded_in_memory() {
        let zeros = vec![0u8; 1 << 20];
        let packed = ruzstd::encoding::compress_to_vec(
            &zeros[..],
            ruzstd::encoding::CompressionLevel::Fastest,
        );
        assert_eq!(
            decompress_bytes(Compression::Zstd, &packed, 1 << 20).unwrap(),
            zeros
        );
        assert!(matches!(
            decompress_bytes(Compression::Zstd, &packed, 1000),
            Err(DecompressError::TooLarge { .. })
        ));
        assert!(matches!(
            decompress_bytes(Compression::Zstd, &packed[..packed.len() / 2], 1 << 20),
            Err(DecompressError::Damaged { .. })
        ));
    }
}
