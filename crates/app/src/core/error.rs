//! Why opening something failed, as it travels from a loading thread to the window.

use crate::parse::LoadError;
use std::sync::Arc;

/// Why a file, a pasted text or the demo could not be opened.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OpenError {
    /// Reading or parsing failed. Shown without the file name (the window shows it next to the
    /// message); the error itself names the file.
    #[error("{}", without_path(.0))]
    Load(Arc<LoadError>),
    /// The window system could not give the bytes of a dropped file.
    #[error("could not read the dropped file: {0}")]
    Dropped(String),
    /// A reader panicked; the app keeps running.
    #[error("the reader failed unexpectedly: {0}")]
    ReaderFailed(String),
    /// No thread could be started for the load.
    #[error("could not start a loading thread: {0}")]
    Thread(Arc<std::io::Error>),
    /// The load was cancelled (never shown: its outcome is dropped).
    #[error("cancelled")]
    Cancelled,
    /// The file is ncu's Source page export, not a result: its SASS text is added to the
    /// Source page of its kernels instead (never shown as a failure).
    #[error(
        "ncu's Source page export: SASS text for {}",
        crate::model::format::count_text(.0.by_kernel.len(), "kernel", "kernels")
    )]
    SassExport(Arc<crate::core::sass_imports::SassImport>),
}

impl From<LoadError> for OpenError {
    fn from(error: LoadError) -> Self {
        OpenError::Load(Arc::new(error))
    }
}

impl OpenError {
    /// The reader's error, when reading or parsing failed.
    pub fn load_error(&self) -> Option<&LoadError> {
        match self {
            OpenError::Load(e) => Some(e),
            _ => None,
        }
    }
}

/// The error's text without the leading `path: `.
fn without_path(error: &LoadError) -> String {
    let text = error.to_string();
    let prefix = format!("{}: ", error.path().display());
    match text.strip_prefix(&prefix) {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::ParseError;
    use std::path::PathBuf;

    #[test]
    fn a_load_error_is_shown_without_its_file_name() {
        let error = OpenError::from(LoadError::Parse {
            path: PathBuf::from("/tmp/run 1.txt"),
            source: ParseError::Line {
                line: 7,
                message: "no value".into(),
            },
        });
        assert_eq!(error.to_string(), "line 7: no value");
        assert_eq!(
            error.load_error().map(|e| e.path().to_path_buf()),
            Some(PathBuf::from("/tmp/run 1.txt"))
        );
    }
}
