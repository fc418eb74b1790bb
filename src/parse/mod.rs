//! The shared parser module: bytes of any form of an Nsight Compute result become a
//! [`Report`]. Feeds both the app and the command line.

pub mod cli_text;
pub mod csv_details;
pub mod csv_raw;
pub mod detect;
pub mod error;
pub mod gui_copy;
pub mod ncu_rep;
pub mod number;
pub mod session;
pub mod text_clean;

pub use detect::Detected;
pub use error::{LoadError, ParseError};

use crate::model::Report;
use std::io::Read;
use std::path::Path;

/// Largest file read (every form is parsed from memory).
pub const MAX_TEXT_BYTES: u64 = 4 << 30;

/// Loads a file of any supported form. Never writes to the file.
pub fn load_path(path: &Path) -> Result<Report, LoadError> {
    let bytes = read_file(path, MAX_TEXT_BYTES)?;
    parse_bytes(path, &bytes)
}

/// Reads a whole file into memory; a file of more than `limit` bytes is refused.
///
/// The file is copied rather than memory-mapped: a mapped file that shrinks while it is read (a
/// report still being copied or written) raises SIGBUS, while a copy just ends where the file
/// ends. The size the file system reports is only a hint for the first allocation.
fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let too_large = |size| LoadError::TooLarge {
        path: path.to_path_buf(),
        size,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let size_hint = file.metadata().map_or(0, |m| m.len());
    if size_hint > limit {
        return Err(too_large(size_hint));
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(size_hint).unwrap_or(0))
        .map_err(|_| io(std::io::ErrorKind::OutOfMemory.into()))?;
    (&file)
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let read = bytes.len() as u64;
    if read > limit {
        // The file grew past the limit while it was read.
        let size = file.metadata().map_or(read, |m| m.len().max(read));
        return Err(too_large(size));
    }
    Ok(bytes)
}

/// Parses bytes of any supported form; `source` names them in the report and in errors.
pub fn parse_bytes(source: &Path, bytes: &[u8]) -> Result<Report, LoadError> {
    let wrap = |e| LoadError::Parse {
        path: source.to_path_buf(),
        source: e,
    };
    let mut report = parse_any(bytes).map_err(wrap)?;
    report.source = source.to_path_buf();
    Ok(report)
}

/// Detects the form and parses.
pub fn parse_any(bytes: &[u8]) -> Result<Report, ParseError> {
    if detect::is_ncu_rep(bytes) {
        return ncu_rep::parse(bytes);
    }
    if bytes.is_empty() {
        return Err(ParseError::NotAResult("the file is empty".into()));
    }
    if looks_binary(bytes) {
        return Err(ParseError::NotAResult(
            "binary content that is not an .ncu-rep report".into(),
        ));
    }
    let text = text_clean::clean(bytes);
    let kind = detect::detect_text(&text).ok_or_else(|| {
        ParseError::NotAResult("no ncu output, CSV export, session page or GUI copy found".into())
    })?;
    let mut report = match kind {
        Detected::NcuRep => unreachable_binary(),
        Detected::CsvDetails => csv_details::parse(&text),
        Detected::CsvRaw => csv_raw::parse(&text),
        Detected::SessionCsv | Detected::SessionText => session::parse(&text),
        Detected::GuiCopy => gui_copy::parse(&text),
        Detected::Summary | Detected::CliText => cli_text::parse(&text),
    }?;
    report.format = kind.format();
    Ok(report)
}

fn unreachable_binary() -> Result<Report, ParseError> {
    Err(ParseError::NotAResult(
        "binary report detected as text".into(),
    ))
}

/// Text forms have no NUL bytes in their first kilobytes.
fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8192)].contains(&0)
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
}
