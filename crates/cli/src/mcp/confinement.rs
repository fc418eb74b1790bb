//! Which files the MCP server may read: regular files under the roots it was started with.
//!
//! Confinement by construction, decided before anything is opened for reading. On Linux the
//! requested path is first resolved to a handle that opens nothing (`O_PATH`: no FIFO waits
//! for a writer, no device runs its open); the decision is made on that handle: the file it
//! names must be a regular file, and its real path (the kernel's name for the descriptor,
//! every symlink and `..` resolved) must lie under one of the canonical roots. Only then is
//! that very file opened for reading, through the handle (`/proc/self/fd`), non-blocking and
//! without taking a terminal, and read through that descriptor, never through the path again:
//! a directory swapped for a symlink, or a file for a FIFO, between a check and an open cannot
//! send the server outside or make it block. Without `/proc` the path is looked up without
//! opening it (`stat`), then opened non-blocking and checked again on the descriptor. Every
//! refusal, whatever its reason (absent, outside, not a regular file, unreadable), is the same
//! error, so the answers tell nothing of what lies outside; only the open-file limit is told
//! apart, in words, since it says nothing of the file.

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
    #[error("{path}: not opened: {}", limit_text())]
    TooManyOpen { path: String },
}

/// The open-file limit, in words, for an answer that met it.
pub fn limit_text() -> String {
    let limit = open_file_limit().map_or_else(|| "its limit".to_string(), |n| n.to_string());
    format!(
        "the server has as many files open as it may ({limit}, the open-file limit `ulimit -n`); \
         it keeps fewer reports open from now on: call again, or raise the limit"
    )
}

pub use crate::parse::open_files::{is_fd_limit, open_file_limit};

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
fn descriptor_path(file: &impl std::os::fd::AsRawFd) -> Option<PathBuf> {
    let path = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    path.exists().then_some(path)
}

#[cfg(not(unix))]
fn descriptor_path(_: &File) -> Option<PathBuf> {
    None
}

/// Why an open was refused: the path (one answer for every reason), or the open-file limit.
enum Refusal {
    Path,
    Limit,
}

impl From<std::io::Error> for Refusal {
    fn from(e: std::io::Error) -> Self {
        if is_fd_limit(&e) {
            Refusal::Limit
        } else {
            Refusal::Path
        }
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

    /// Opens a regular file the server may read, or says it is not readable here.
    pub fn open(&self, requested: &str) -> Result<Opened, ConfinementError> {
        if requested.trim().is_empty() {
            return Err(ConfinementError::Empty);
        }
        let refused = |why: Refusal| match why {
            Refusal::Path => ConfinementError::NotReadableHere {
                path: requested.to_string(),
                roots: self.roots_text(),
            },
            Refusal::Limit => ConfinementError::TooManyOpen {
                path: requested.to_string(),
            },
        };
        let path = Path::new(requested);
        let joined = if path.is_absolute() {
            path.to_path_buf()
        } else {
            // A relative path that climbs out of the root is refused before it is looked up.
            if escapes(path) {
                return Err(refused(Refusal::Path));
            }
            match self.roots.first() {
                Some(root) => root.join(path),
                None => return Err(refused(Refusal::Path)),
            }
        };
        self.open_checked(&joined).map_err(refused)
    }

    /// Whether a real path lies under a root.
    fn holds(&self, real_path: &Path) -> bool {
        self.roots.iter().any(|root| real_path.starts_with(root))
    }

    /// Decides on the file at `path` without opening it for reading, then opens that file.
    #[cfg(target_os = "linux")]
    fn open_checked(&self, path: &Path) -> Result<Opened, Refusal> {
        use rustix::fs::{Mode, OFlags};
        // A handle that only names the file: opening it runs no driver and waits for no writer.
        let handle = rustix::fs::open(path, OFlags::PATH | OFlags::CLOEXEC, Mode::empty())
            .map_err(std::io::Error::from)?;
        let named = rustix::fs::fstat(&handle).map_err(std::io::Error::from)?;
        if !is_regular(&named) {
            return Err(Refusal::Path);
        }
        let Some(link) = descriptor_path(&handle) else {
            drop(handle);
            return self.open_looked_up(path);
        };
        let real_path = std::fs::read_link(&link)?;
        // The file the handle names, whatever the path names by now.
        self.open_under_root(&link, real_path, &named)
    }

    #[cfg(all(unix, not(target_os = "linux")))]
    fn open_checked(&self, path: &Path) -> Result<Opened, Refusal> {
        self.open_looked_up(path)
    }

    /// Without a handle that opens nothing: the path is looked up (`stat`), a regular file
    /// under a root is opened non-blocking, and the descriptor must be the file looked up.
    #[cfg(unix)]
    fn open_looked_up(&self, path: &Path) -> Result<Opened, Refusal> {
        let named = rustix::fs::stat(path).map_err(std::io::Error::from)?;
        if !is_regular(&named) {
            return Err(Refusal::Path);
        }
        let real_path = std::fs::canonicalize(path)?;
        self.open_under_root(&real_path.clone(), real_path, &named)
    }

    /// Opens `at` (non-blocking) when `real_path`, where it lies, is under a root; the
    /// descriptor must be the regular file `named` was looked up as.
    #[cfg(unix)]
    fn open_under_root(
        &self,
        at: &Path,
        real_path: PathBuf,
        named: &rustix::fs::Stat,
    ) -> Result<Opened, Refusal> {
        use rustix::fs::{Mode, OFlags};
        if !self.holds(&real_path) {
            return Err(Refusal::Path);
        }
        let fd = rustix::fs::open(
            at,
            OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(std::io::Error::from)?;
        let file = File::from(fd);
        same_regular_file(&file, named)?;
        Ok(Opened { file, real_path })
    }

    #[cfg(not(unix))]
    fn open_checked(&self, path: &Path) -> Result<Opened, Refusal> {
        if !std::fs::metadata(path)?.is_file() {
            return Err(Refusal::Path);
        }
        let file = File::open(path)?;
        let real_path = std::fs::canonicalize(path)?;
        if !file.metadata()?.is_file() || !self.holds(&real_path) {
            return Err(Refusal::Path);
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

#[cfg(unix)]
fn is_regular(st: &rustix::fs::Stat) -> bool {
    rustix::fs::FileType::from_raw_mode(st.st_mode) == rustix::fs::FileType::RegularFile
}

/// The opened descriptor is the regular file decided on (same device and inode).
#[cfg(unix)]
fn same_regular_file(file: &File, named: &rustix::fs::Stat) -> Result<(), Refusal> {
    let opened = rustix::fs::fstat(file).map_err(std::io::Error::from)?;
    if is_regular(&opened) && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino {
        Ok(())
    } else {
        Err(Refusal::Path)
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
