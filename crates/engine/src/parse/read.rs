//! Reading a file into memory for the readers: text whole; an `.ncu-rep` report without the
//! bytes of its embedded cubins and source files, which the readers locate but never open.
//!
//! Files are copied rather than memory-mapped: a mapped file that shrinks while it is read (a
//! report still being copied or written) raises SIGBUS, while a copy just ends where the file
//! ends. The size the file system reports is only a hint for the first allocation.

use super::LoadError;
use super::detect::NCU_REP_MAGIC;
use super::ncu_rep::messages::BlockHeader;
use prost::Message;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

/// Reads a file into memory; a file of more than `limit` bytes is refused.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let too_large = |size| LoadError::TooLarge {
        path: path.to_path_buf(),
        size,
    };
    let mut file = File::open(path).map_err(io)?;
    let meta = file.metadata().ok();
    let size_hint = meta.as_ref().map_or(0, |m| m.len());
    // A regular file is read to the size it had when opened: one that grows meanwhile (a log
    // still being written) is read as it was, not followed; a pipe is read to the limit.
    let regular = meta.as_ref().is_some_and(|m| m.is_file()) && size_hint > 0;
    if size_hint > limit {
        return Err(too_large(size_hint));
    }
    let size = usize::try_from(size_hint).unwrap_or(0);
    if size >= 8 && starts_with_magic(&mut file).map_err(io)? {
        return read_report(&mut file, size).map_err(io);
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(size)
        .map_err(|_| io(io::ErrorKind::OutOfMemory.into()))?;
    let bound = if regular {
        size_hint
    } else {
        limit.saturating_add(1)
    };
    (&file).take(bound).read_to_end(&mut bytes).map_err(io)?;
    let read = bytes.len() as u64;
    if read > limit {
        // The file grew past the limit while it was read.
        let size = file.metadata().map_or(read, |m| m.len().max(read));
        return Err(too_large(size));
    }
    Ok(bytes)
}

/// The size and modification time of an open file: what tells a reader that reads it again
/// later (a result's body on demand) that it changed since it was opened.
pub(crate) fn stamp_of(file: &File) -> io::Result<(u64, Option<std::time::SystemTime>)> {
    let meta = file.metadata()?;
    Ok((meta.len(), meta.modified().ok()))
}

/// The first `limit` bytes of a file (fewer when it is shorter).
pub fn read_head(path: &Path, limit: usize) -> Result<Vec<u8>, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    let mut head = Vec::with_capacity(limit);
    file.take(limit as u64).read_to_end(&mut head).map_err(io)?;
    Ok(head)
}

/// Whether the file starts with the `.ncu-rep` magic; leaves the file at its start.
fn starts_with_magic(file: &mut File) -> io::Result<bool> {
    let mut head = [0u8; 4];
    let mut got = 0;
    while got < head.len() {
        match file.read(&mut head[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    file.seek(SeekFrom::Start(0))?;
    Ok(got == head.len() && &head == NCU_REP_MAGIC)
}

/// A buffer of the file's size, filled range by range; what is never filled stays zero.
struct Sparse<'f> {
    file: &'f mut File,
    bytes: Vec<u8>,
}

impl Sparse<'_> {
    /// Reads `bytes[from..to]` from the same place in the file. `Ok(false)` when the file ended
    /// first (it shrank since its size was taken): the buffer is then cut where it ended.
    fn fill(&mut self, from: usize, to: usize) -> io::Result<bool> {
        let to = to.min(self.bytes.len());
        if from >= to {
            return Ok(true);
        }
        self.file.seek(SeekFrom::Start(from as u64))?;
        let mut at = from;
        while at < to {
            match self.file.read(&mut self.bytes[at..to]) {
                Ok(0) => {
                    self.bytes.truncate(at);
                    return Ok(false);
                }
                Ok(n) => at += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    /// The little-endian u32 at `at`, as a length.
    fn len_at(&self, at: usize) -> Option<usize> {
        let b = self.bytes.get(at..at.checked_add(4)?)?;
        usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()
    }

    /// `at + 4 + the length stored at at`, if it stays within `end`.
    fn after_prefixed(&self, at: usize, end: usize) -> Option<usize> {
        at.checked_add(4)?
            .checked_add(self.len_at(at)?)
            .filter(|&next| next <= end)
    }
}

/// Reads a report, leaving the bytes of the source entries of each block (embedded cubins and
/// source files: most of a report's size) as zeros. The container walk needs only their
/// length prefixes; [`super::ncu_rep::modules`] and [`super::ncu_rep::source_files`] need the
/// file's full bytes. The zero pages are never touched, so they cost neither time nor memory.
/// Where the framing does not add up, the rest of the file is read as it is, for the reader to
/// report.
fn read_report(file: &mut File, size: usize) -> io::Result<Vec<u8>> {
    let mut s = Sparse {
        file,
        bytes: vec![0u8; size],
    };
    let len = size;
    // Magic and file header.
    if !s.fill(0, 8)? {
        return Ok(s.bytes);
    }
    let Some(mut pos) = s.after_prefixed(4, len) else {
        s.fill(8, len)?;
        return Ok(s.bytes);
    };
    if !s.fill(8, pos)? {
        return Ok(s.bytes);
    }
    while pos < len {
        if !s.fill(pos, pos.saturating_add(4))? {
            return Ok(s.bytes);
        }
        let Some(payload_start) = s.after_prefixed(pos, len) else {
            break;
        };
        if !s.fill(pos + 4, payload_start)? {
            return Ok(s.bytes);
        }
        let Ok(header) = BlockHeader::decode(&s.bytes[pos + 4..payload_start]) else {
            pos = payload_start;
            break;
        };
        let payload_size = usize::try_from(header.payload_size.unwrap_or(0)).unwrap_or(usize::MAX);
        let Some(payload_end) = payload_start
            .checked_add(payload_size)
            .filter(|&end| end <= len)
        else {
            pos = payload_start;
            break;
        };
        // Skip the source entries: read each length prefix, leave the message as zeros. Every
        // step moves on by at least 4 bytes, so a huge count ends at the payload's end.
        let mut at = payload_start;
        for _ in 0..header.num_sources.unwrap_or(0) {
            if !s.fill(at, at.saturating_add(4))? {
                return Ok(s.bytes);
            }
            match s.after_prefixed(at, payload_end) {
                Some(next) => at = next,
                None => break,
            }
        }
        if !s.fill(at, payload_end)? {
            return Ok(s.bytes);
        }
        pos = payload_end;
    }
    // Whatever follows a block that does not add up is read as it is.
    s.fill(pos, len)?;
    Ok(s.bytes)
}

#[cfg(test)]
mod tests {
    use super::{LoadError, read_file};
    use std::path::PathBuf;

    /// A file of its own in the temporary directory, removed when dropped.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(name: &str, bytes: &[u8]) -> TempFile {
            let path =
                std::env::temp_dir().join(format!("sightline-read-{}-{name}", std::process::id()));
            std::fs::write(&path, bytes).unwrap();
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn reads_up_to_the_limit() {
        let file = TempFile::new("limit", b"0123456789");
        assert_eq!(read_file(&file.0, 10).unwrap(), b"0123456789");
        assert_eq!(read_file(&file.0, 100).unwrap(), b"0123456789");
        match read_file(&file.0, 9) {
            Err(LoadError::TooLarge { path, size }) => {
                assert_eq!(path, file.0);
                assert_eq!(size, 10);
            }
            other => panic!("{other:?}"),
        }
        let empty = TempFile::new("empty", b"");
        assert_eq!(read_file(&empty.0, 0).unwrap(), b"");
    }

    /// Files under /proc report a size of 0 and yet have content, like a file that grows
    /// after its size was taken.
    #[cfg(target_os = "linux")]
    #[test]
    fn size_from_metadata_is_only_a_hint() {
        let path = std::path::Path::new("/proc/self/status");
        assert_eq!(std::fs::metadata(path).unwrap().len(), 0);
        let whole = read_file(path, 1 << 20).unwrap();
        assert!(whole.starts_with(b"Name:"), "{whole:?}");
        match read_file(path, 16) {
            Err(LoadError::TooLarge { size, .. }) => assert_eq!(size, 17),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn missing_file_is_an_io_error() {
        let path = std::env::temp_dir().join("sightline-read-no-such-file");
        match read_file(&path, 10) {
            Err(LoadError::Io { path: p, source }) => {
                assert_eq!(p, path);
                assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
            }
            other => panic!("{other:?}"),
        }
    }

    /// A native fixture, decompressed.
    fn report_fixture(rel: &str) -> Vec<u8> {
        use std::io::Read;
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("fixtures")
            .join(rel);
        let mut out = Vec::new();
        xz2::read::XzDecoder::new(&std::fs::read(path).unwrap()[..])
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn a_report_is_read_without_its_sources() {
        for rel in [
            "h100/kernels_basic.ncu-rep.xz",
            "tensor/tensor_full.ncu-rep.xz",
        ] {
            let whole = report_fixture(rel);
            let file = TempFile::new("sparse.ncu-rep", &whole);
            let read = read_file(&file.0, u64::MAX).unwrap();
            assert_eq!(read.len(), whole.len(), "{rel}");
            // Only the messages of source entries differ, and they are zeros.
            let c = crate::parse::ncu_rep::container(&whole).unwrap();
            let mut left_out = 0;
            for source in &c.sources {
                let range = source.offset..source.offset + source.bytes.len();
                assert!(read[range.clone()].iter().all(|&b| b == 0), "{rel}");
                left_out += range.len();
            }
            assert!(left_out > 0, "{rel}: the fixture has embedded cubins");
            let differ = whole.iter().zip(&read).filter(|(a, b)| a != b).count();
            assert!(differ <= left_out, "{rel}");
            // The readers give the same report (compared as text: NaN values are not equal).
            let from_file = crate::parse::ncu_rep::parse(&read).unwrap();
            let from_bytes = crate::parse::ncu_rep::parse(&whole).unwrap();
            assert_eq!(from_file.results.len(), from_bytes.results.len(), "{rel}");
            assert_eq!(format!("{from_file:?}"), format!("{from_bytes:?}"), "{rel}");
            // Cut inside a source entry: what the file has, then the reader's damage report.
            let cut = c.sources[0].offset + 10;
            let short = TempFile::new("sparse_cut.ncu-rep", &whole[..cut]);
            assert_eq!(read_file(&short.0, u64::MAX).unwrap().len(), cut, "{rel}");
        }
    }
}
