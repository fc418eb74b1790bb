//! Which files the MCP server may read: report files under the roots it was started with.
//!
//! A requested path is resolved against the first root when relative, then canonicalized
//! (every symlink and `..` resolved) and must lie under one of the canonical roots. So a path
//! outside, a `..` escape and a symlink pointing out are all refused, and the server opens
//! nothing else.

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
    #[error("{path}: cannot be read: {source}")]
    Unreadable {
        path: String,
        source: std::io::Error,
    },
    #[error(
        "{path}: outside the directories this server may read ({roots}); give a report under one of them"
    )]
    Outside { path: String, roots: String },
    #[error("{0}: not a regular file")]
    NotAFile(String),
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

    /// The canonical path of a report file the server may read, or why it may not.
    pub fn resolve(&self, requested: &str) -> Result<PathBuf, ConfinementError> {
        if requested.trim().is_empty() {
            return Err(ConfinementError::Empty);
        }
        let path = Path::new(requested);
        let outside = || ConfinementError::Outside {
            path: requested.to_string(),
            roots: self.roots_text(),
        };
        let joined = if path.is_absolute() {
            path.to_path_buf()
        } else {
            // A relative path that climbs out of the root is refused before it is looked up.
            if escapes(path) {
                return Err(outside());
            }
            match self.roots.first() {
                Some(root) => root.join(path),
                None => return Err(outside()),
            }
        };
        let canonical =
            std::fs::canonicalize(&joined).map_err(|source| ConfinementError::Unreadable {
                path: requested.to_string(),
                source,
            })?;
        if !self.roots.iter().any(|root| canonical.starts_with(root)) {
            return Err(outside());
        }
        if !canonical.is_file() {
            return Err(ConfinementError::NotAFile(requested.to_string()));
        }
        Ok(canonical)
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
