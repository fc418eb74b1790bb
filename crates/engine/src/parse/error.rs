//! Errors of the parsers and of loading a file.

use super::compressed::DecompressError;
use std::path::PathBuf;

/// Why bytes could not be read as a result.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The content is not any form of Nsight Compute result.
    #[error("not a Nsight Compute result: {0}")]
    NotAResult(String),
    /// A binary report is damaged at an offset.
    #[error("corrupt at byte offset {offset}: {message}")]
    Corrupt { offset: u64, message: String },
    /// A report container version this reader does not know.
    #[error("unsupported .ncu-rep version {0} (this reader knows version 7)")]
    UnsupportedVersion(u32),
    /// A text form is malformed at a line.
    #[error("line {line}: {message}")]
    Line { line: usize, message: String },
    /// Compressed content that could not be decompressed.
    #[error(transparent)]
    Decompress(#[from] DecompressError),
}

/// Why a file could not be loaded; always names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read; the open-file limit, when met, is said in words.
    #[error("{}: {}", path.display(), super::open_files::io_error_text(source))]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Parse { path: PathBuf, source: ParseError },
    #[error("{}: file is too large ({size} bytes)", path.display())]
    TooLarge { path: PathBuf, size: u64 },
    #[error("{}: {source}", path.display())]
    Decompress {
        path: PathBuf,
        source: DecompressError,
    },
}

impl LoadError {
    /// The file the error is about.
    pub fn path(&self) -> &std::path::Path {
        match self {
            LoadError::Io { path, .. }
            | LoadError::Parse { path, .. }
            | LoadError::TooLarge { path, .. }
            | LoadError::Decompress { path, .. } => path,
        }
    }

    /// The same error naming `path` instead (a decompressed copy's error names the file the
    /// user opened).
    pub fn naming(mut self, file: &std::path::Path) -> Self {
        match &mut self {
            LoadError::Io { path, .. }
            | LoadError::Parse { path, .. }
            | LoadError::TooLarge { path, .. }
            | LoadError::Decompress { path, .. } => *path = file.to_path_buf(),
        }
        self
    }
}
