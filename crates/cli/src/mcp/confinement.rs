//! Which files the MCP server may read: report files under the roots it was started with.
//!
//! Confinement by construction: a requested path is opened first, and the decision is made on
//! what was opened. The open file's real path (the kernel's name for the descriptor, every
//! symlink and `..` resolved) must lie under one of the canonical roots, and the file must be
//! a regular file; the report is then read through that descriptor, never through the path
//! again. A directory swapped for a symlink between a check and an open cannot send the server
//! outside, since there is no such gap. Every refusal, whatever its reason (absent, outside,
//! not a file, unreadable), is the same error, so the answers tell nothing of what lies outside.

use std::fs::File;
use std::path::{Component, Path, PathBuf};

/// Why a path was refused.
#[derive(Debug, thiserror::Error)]
pub enum ConfinementError {
    #[error("root {path}: {source}")]
    BadRoot {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("root {0} is not a directory")]
    RootNotDirectory(PathBuf),
    #[error("an empty path names no report")]
    Empty,
    #[error(
        "{path}: not readable here: give a report file under the directories this server may read ({roots})"
    )]
    NotReadableHere { path: String, roots: String },
}

/// A report file opened under the roots: the descriptor and the real path it was checked at.
#[derive(Debug)]
pub struct Opened {
    pub file: File,
    pub real_path: PathBuf,
}

impl Opened {
    /// A path that reads this very file again (not whatever the requested path names by
    /// then): the descriptor's entry in `/proc/self/fd` where there is one, else the real path.
    pub fn reading_path(&self) -> PathBuf {
        descriptor_path(&self.file).unwrap_or_else(|| self.real_path.clone())
    }
}

#[cfg(unix)]
fn descriptor_path(file: &File) -> Option<PathBuf> {
    use std::os::fd::AsRawFd;
    let path = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    path.exists().then_some(path)
}

#[cfg(not(unix))]
fn descriptor_path(_: &File) -> Option<PathBuf> {
    None
}

/// The real path of an open file: what the kernel names its descriptor.
fn real_path_of(file: &File, opened_as: &Path) -> std::io::Result<PathBuf> {
    match descriptor_path(file) {
        Some(link) => std::fs::read_link(link),
        // Without /proc the path is resolved again (a check after the open, not before it).
        None => std::fs::canonicalize(opened_as),
    }
}

/// The canonical directories the server may read report files under.
#[derive(Debug, Clone)]
pub struct Roots {
    roots: Vec<PathBuf>,
}

impl Roots {
    /// Canonicalizes the given directories; the current directory when none is given.
    pub fn new(dirs: &[PathBuf]) -> Result<Self, ConfinementError> {
        let dirs = if dirs.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            dirs.to_vec()
        };
        let mut roots = Vec::with_capacity(dirs.len());
        for dir in dirs {
            let canonical =
                std::fs::canonicalize(&dir).map_err(|source| ConfinementError::BadRoot {
                    path: dir.clone(),
                    source,
                })?;
            if !canonical.is_dir() {
                return Err(ConfinementError::RootNotDirectory(dir));
            }
            roots.push(canonical);
        }
        Ok(Roots { roots })
    }

    /// The canonical roots, the first being the one relative paths start from.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Opens a report file the server may read, or says it is not readable here.
    pub fn open(&self, requested: &str) -> Result<Opened, ConfinementError> {
        if requested.trim().is_empty() {
            return Err(ConfinementError::Empty);
        }
        let refused = || ConfinementError::NotReadableHere {
            path: requested.to_string(),
            roots: self.roots_text(),
        };
        let path = Path::new(requested);
        let joined = if path.is_absolute() {
            path.to_path_buf()
        } else {
            // A relative path that climbs out of the root is refused before it is looked up.
            if escapes(path) {
                return Err(refused());
            }
            match self.roots.first() {
                Some(root) => root.join(path),
                None => return Err(refused()),
            }
        };
        let file = File::open(&joined).map_err(|_| refused())?;
        let real_path = real_path_of(&file, &joined).map_err(|_| refused())?;
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        if !regular || !self.roots.iter().any(|root| real_path.starts_with(root)) {
            return Err(refused());
        }
        Ok(Opened { file, real_path })
    }

    fn roots_text(&self) -> String {
        self.roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Whether a relative path goes above where it starts (`a/../../b`).
fn escapes(path: &Path) -> bool {
    let mut depth: i64 = 0;
    for c in path.components() {
        match c {
            Component::ParentDir => {
                depth -= 1;
                if depth < 0 {
                    return true;
                }
            }
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return true,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::escapes;
    use std::path::Path;

    #[test]
    fn dot_dot_escapes() {
        assert!(escapes(Path::new("../x")));
        assert!(escapes(Path::new("a/../../x")));
        assert!(!escapes(Path::new("a/../x")));
        assert!(!escapes(Path::new("./a/b")));
    }
}
