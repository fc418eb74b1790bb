//! Compressed inputs: `.ncu-repz` (zstd) and `.gz`, `.xz` or `.zst` copies of any form
//! sightline reads. The compression is recognised by its magic bytes, never by the file name.
//! A file is decompressed once, into a temporary file, so memory stays as flat as for a plain
//! file; bytes already in memory (a drop, a paste) are decompressed in memory.
//!
//! Decompression stops early where the content says it should: its first bytes decide what it
//! is (binary content that is no report, or a second layer of compression, is refused at
//! once; text is bounded by [`crate::parse::MAX_TEXT_BYTES`]); a report's container is checked
//! block by block as it streams ([`crate::parse::ncu_rep::stream_check`]) and the copy ends at
//! its first damaged block; a run of one repeated byte longer than [`MAX_RUN`] (far beyond
//! what any report or text holds: the longest in the public corpus is 243 KB) is refused as
//! the bomb it is; and the copy may not grow past [`MAX_DECOMPRESSED`] nor past the free space
//! of the temporary folder. On Linux the copy never has a name (an unnamed
//! temporary file read through its descriptor), so no signal, crash or kill can leave it
//! behind; elsewhere it is removed when dropped.

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

/// The longest run of one repeated byte a decompressed stream may hold.
pub const MAX_RUN: u64 = 64 << 20;

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
    #[error(
        "writing the decompressed copy into {}: {}",
        dir.display(),
        crate::parse::open_files::io_error_text(source)
    )]
    TempFile { dir: PathBuf, source: io::Error },
    /// The copy would not fit the temporary folder's free space.
    #[error(
        "{format} stream decompresses to more than the {free} bytes free in {}; refused (set TMPDIR to a folder with more room)",
        dir.display()
    )]
    NoRoom {
        format: &'static str,
        free: u64,
        dir: PathBuf,
    },
    /// The first decompressed bytes are no content sightline reads.
    #[error("{format} stream holds {what}; refused after its first {seen} bytes")]
    NotAReport {
        format: &'static str,
        what: &'static str,
        seen: u64,
    },
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

/// Bytes decoded at a time.
const BUFFER: usize = 1 << 20;

/// A decompressed copy of a file in the temporary folder, read through [`Decompressed::path`]
/// while it is kept; nothing of it is left once it is dropped.
#[derive(Debug)]
pub struct Decompressed {
    /// Where the copy is read from: its descriptor's entry under `/proc/self/fd` (Linux: the
    /// copy has no name), else the temporary file's path.
    pub path: PathBuf,
    /// What keeps the copy: the unnamed file, or the named one removed when dropped.
    pub keep: TempCopy,
    /// Bytes of decompressed content.
    pub size: u64,
    /// Where a report's container was found damaged: the copy ends after that block's chunk,
    /// and the report opens with the results before it and a note of the damage.
    pub damage: Option<String>,
}

/// What keeps a decompressed copy alive.
#[derive(Debug)]
pub enum TempCopy {
    /// An open file without a name.
    Unnamed(File),
    /// A named file, removed when dropped.
    Named(TempPath),
}

/// Why decompressing a file stopped.
#[derive(Debug)]
pub enum FileError {
    /// The compressed file could not be read.
    Io(io::Error),
    Decompress(DecompressError),
}

/// What the first decompressed bytes say the content is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    Report,
    Text,
}

/// Decides from the first decompressed bytes what the content is, or refuses it.
fn sniff(head: &[u8], kind: Compression) -> Result<Content, DecompressError> {
    let refuse = |what| DecompressError::NotAReport {
        format: kind.name(),
        what,
        seen: head.len() as u64,
    };
    if crate::parse::detect::is_ncu_rep(head) {
        Ok(Content::Report)
    } else if detect(head).is_some() {
        Err(refuse(
            "another layer of compression (decompress the outer layer first)",
        ))
    } else if head.is_empty() {
        Ok(Content::Text)
    } else if crate::parse::looks_binary(head) {
        Err(refuse("binary content that is not an .ncu-rep report"))
    } else {
        Ok(Content::Text)
    }
}

/// Bytes free for an unprivileged writer in `dir`, where the platform says.
#[cfg(unix)]
pub(crate) fn free_space(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    Some(s.f_bavail.saturating_mul(s.f_frsize))
}

#[cfg(not(unix))]
pub(crate) fn free_space(_: &Path) -> Option<u64> {
    None
}

/// A new temporary file in `dir` for a decompressed copy, and the path it is read through.
pub(crate) fn temp_copy(dir: &Path) -> io::Result<(File, PathBuf, TempCopy)> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let file = tempfile::tempfile_in(dir)?;
        let path = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
        if path.exists() {
            let writer = file.try_clone()?;
            return Ok((writer, path, TempCopy::Unnamed(file)));
        }
    }
    let named = tempfile::Builder::new()
        .prefix(&format!("sightline-{}-", std::process::id()))
        .suffix(".decompressed")
        .tempfile_in(dir)?;
    let writer = named.reopen()?;
    let path = named.path().to_path_buf();
    Ok((writer, path, TempCopy::Named(named.into_temp_path())))
}

/// Decompresses the file at `path` into a temporary file, refusing more than `limit` bytes of
/// output (less where the content or the free space says so: see the module's notes).
/// `progress` is told the compressed bytes read so far and the compressed size.
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
    // Room for the copy: what the folder has free, less a margin for everyone else.
    let room = free_space(&dir).map(|free| (free, free - free / 20));
    let (writer, copy_path, keep) = temp_copy(&dir).map_err(temp_error)?;
    let mut out = io::BufWriter::with_capacity(BUFFER, writer);
    let mut decoder = decoder(kind, input);
    let mut buffer = vec![0u8; BUFFER];
    let mut written = 0u64;
    let mut limit = limit;
    let mut head: Vec<u8> = Vec::new();
    let mut content = None;
    let mut check = crate::parse::ncu_rep::stream_check::ContainerCheck::default();
    let mut damage = None;
    let mut run = Run::default();
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
        let chunk = &buffer[..n];
        // The first bytes decide what the content is before much is written.
        if content.is_none() {
            head.extend_from_slice(
                &chunk[..chunk.len().min(crate::parse::HEAD_BYTES - head.len())],
            );
            if head.len() >= crate::parse::HEAD_BYTES {
                content = Some(sniff(&head, kind).map_err(FileError::Decompress)?);
                if content == Some(Content::Text) {
                    limit = limit.min(crate::parse::MAX_TEXT_BYTES);
                }
            }
        }
        written += n as u64;
        if written > limit {
            return Err(FileError::Decompress(DecompressError::TooLarge {
                format: kind.name(),
                limit,
            }));
        }
        if let Some((free, usable)) = room
            && written > usable
        {
            return Err(FileError::Decompress(DecompressError::NoRoom {
                format: kind.name(),
                free,
                dir: dir.clone(),
            }));
        }
        // Text forms hold no NUL byte: text followed by binary content stops where it starts.
        if content == Some(Content::Text) && memchr::memchr(0, chunk).is_some() {
            return Err(FileError::Decompress(DecompressError::NotAReport {
                format: kind.name(),
                what: "binary content after text",
                seen: written,
            }));
        }
        if run.feed(chunk) > MAX_RUN {
            return Err(FileError::Decompress(DecompressError::NotAReport {
                format: kind.name(),
                what: "one byte repeated over 64 MiB, far beyond what any report holds",
                seen: written,
            }));
        }
        out.write_all(chunk).map_err(temp_error)?;
        progress(read.get().min(size), size);
        // A report is checked block by block: the copy ends at its first damaged block.
        if crate::parse::detect::is_ncu_rep(&head)
            && let Err(e) = check.feed(chunk)
        {
            damage = Some(e);
            break;
        }
    }
    if content.is_none() {
        sniff(&head, kind).map_err(FileError::Decompress)?;
    }
    if damage.is_none() && crate::parse::detect::is_ncu_rep(&head) {
        damage = check.finish().err();
    }
    out.flush().map_err(temp_error)?;
    drop(out);
    Ok(Decompressed {
        path: copy_path,
        keep,
        size: written,
        damage,
    })
}

/// The run of one repeated byte at the end of the bytes seen so far.
#[derive(Default)]
struct Run {
    byte: u8,
    len: u64,
}

impl Run {
    /// Takes the next bytes; returns the length of the run they end with.
    fn feed(&mut self, chunk: &[u8]) -> u64 {
        let Some(&last) = chunk.last() else {
            return self.len;
        };
        let tail = chunk.iter().rev().take_while(|&&b| b == last).count();
        if tail == chunk.len() && last == self.byte {
            self.len += tail as u64;
        } else {
            self.byte = last;
            self.len = tail as u64;
        }
        self.len
    }
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
    fn runs_of_one_byte_are_counted_across_chunks() {
        let mut run = Run::default();
        assert_eq!(run.feed(b"abcc"), 2);
        assert_eq!(run.feed(b"cccc"), 6);
        assert_eq!(run.feed(b""), 6);
        assert_eq!(run.feed(b"cd"), 1);
        assert_eq!(run.feed(b"dddd"), 5);
        assert_eq!(run.feed(b"\0\0"), 2);
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
