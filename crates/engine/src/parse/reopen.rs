//! Report files read again on demand through a bounded number of open descriptors: a report
//! whose result bodies are decoded when a view asks for them does not keep its file open.
//! The files used last stay open (at most [`kept_files`], an eighth of the open-file limit);
//! one let go is opened again by its path when asked for, and refused unless it is the very
//! file opened first (device, inode, size and modification time unchanged). So a window or
//! a series of thousands of reports never takes the process to its open-file limit.
//! Readers share a descriptor and read at positions ([`read_exact_at`]), so threads reading
//! results of one report do not wait for each other.

use std::collections::HashMap;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::SystemTime;

/// Most files kept open, whatever the open-file limit.
const MOST_KEPT: usize = 64;
/// Least files kept open, whatever the open-file limit.
const LEAST_KEPT: usize = 4;

/// How many files are kept open: an eighth of the open-file limit (the rest is left for the
/// reports being read and the process), within bounds.
pub fn kept_files() -> usize {
    crate::parse::open_files::open_file_limit()
        .map_or(MOST_KEPT, |n| usize::try_from(n / 8).unwrap_or(MOST_KEPT))
        .clamp(LEAST_KEPT, MOST_KEPT)
}

/// What tells the file opened first from another one at the same path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    len: u64,
    modified: Option<SystemTime>,
    device: u64,
    inode: u64,
}

fn identity_of(file: &File) -> io::Result<Identity> {
    let meta = file.metadata()?;
    #[cfg(unix)]
    let (device, inode) = {
        use std::os::unix::fs::MetadataExt;
        (meta.dev(), meta.ino())
    };
    #[cfg(not(unix))]
    let (device, inode) = (0, 0);
    Ok(Identity {
        len: meta.len(),
        modified: meta.modified().ok(),
        device,
        inode,
    })
}

/// Reads exactly `buf.len()` bytes of `file` from `pos`, without moving a shared position;
/// `UnexpectedEof` where the file ends first.
#[cfg(unix)]
pub fn read_exact_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, pos)
}

/// Reads exactly `buf.len()` bytes of `file` from `pos`; `UnexpectedEof` where the file ends
/// first, said as Unix's says it.
#[cfg(windows)]
pub fn read_exact_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<()> {
    let mut done = 0;
    while done < buf.len() {
        match read_at(file, &mut buf[done..], pos + done as u64) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "failed to fill whole buffer",
                ));
            }
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Reads what is there of `file` from `pos` into `buf`, without moving a shared position.
#[cfg(unix)]
pub fn read_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, pos)
}

/// Reads what is there of `file` from `pos` into `buf`.
#[cfg(windows)]
pub fn read_at(file: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, pos)
}

/// Why a file could not be read again.
#[derive(Debug)]
pub enum ReopenError {
    /// The path names another file now, or the file changed since it was opened.
    Changed,
    Io(io::Error),
}

/// The descriptors kept open, by file (a descriptor let go while a reader uses it is closed
/// when the reader is done).
struct Pool {
    open: HashMap<u64, (Arc<File>, u64)>,
    clock: u64,
}

fn pool() -> MutexGuard<'static, Pool> {
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    POOL.get_or_init(|| {
        Mutex::new(Pool {
            open: HashMap::new(),
            clock: 0,
        })
    })
    .lock()
    .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Pool {
    /// Keeps `file` as the one of `id`, letting go of those used least lately beyond the
    /// bound.
    fn put(&mut self, id: u64, file: Arc<File>) {
        self.clock += 1;
        self.open.insert(id, (file, self.clock));
        let keep = kept_files();
        while self.open.len() > keep {
            let oldest = self
                .open
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(id, _)| *id);
            match oldest {
                Some(id) => self.open.remove(&id),
                None => break,
            };
        }
    }
}

/// A file that may be closed between reads and opened again by its path.
#[derive(Debug)]
pub struct Reopenable {
    id: u64,
    path: PathBuf,
    identity: Identity,
}

impl Reopenable {
    /// The file `file`, opened at `path`, as it is now; its descriptor is kept among the
    /// files used last.
    pub fn new(path: &Path, file: File) -> io::Result<Self> {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let identity = identity_of(&file)?;
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        pool().put(id, Arc::new(file));
        Ok(Reopenable {
            id,
            path: path.to_path_buf(),
            identity,
        })
    }

    /// Runs `read` on the file: the descriptor kept, else the path opened again, refused
    /// when it is no longer the file opened first. Several threads may read at once: `read`
    /// reads at positions, sharing the descriptor.
    pub fn with<R>(&self, read: impl FnOnce(&File) -> io::Result<R>) -> Result<R, ReopenError> {
        let kept = {
            let mut pool = pool();
            pool.clock += 1;
            let now = pool.clock;
            pool.open.get_mut(&self.id).map(|(file, used)| {
                *used = now;
                Arc::clone(file)
            })
        };
        let (file, opened) = match kept {
            Some(file) => (file, false),
            None => (
                Arc::new(File::open(&self.path).map_err(ReopenError::Io)?),
                true,
            ),
        };
        if identity_of(&file).map_err(ReopenError::Io)? != self.identity {
            return Err(ReopenError::Changed);
        }
        // A descriptor opened again is kept only when it is the file opened first.
        if opened {
            pool().put(self.id, Arc::clone(&file));
        }
        read(&file).map_err(ReopenError::Io)
    }

    /// Whether the descriptor is open now (tests).
    pub fn is_kept(&self) -> bool {
        pool().open.contains_key(&self.id)
    }
}

impl Drop for Reopenable {
    fn drop(&mut self) {
        pool().open.remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(r: &Reopenable) -> Result<Vec<u8>, ReopenError> {
        r.with(|f| {
            let mut out = vec![0; usize::try_from(f.metadata()?.len()).unwrap()];
            read_exact_at(f, &mut out, 0)?;
            Ok(out)
        })
    }

    /// More files than are kept open: those let go are opened again when read, each the
    /// same file; one replaced under its name (another inode), or changed in place, is
    /// refused.
    #[test]
    fn files_let_go_are_opened_again_and_must_be_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let count = kept_files() + 5;
        let files: Vec<Reopenable> = (0..count)
            .map(|i| {
                let path = dir.path().join(format!("{i}.bin"));
                std::fs::write(&path, format!("file {i}")).unwrap();
                Reopenable::new(&path, File::open(&path).unwrap()).unwrap()
            })
            .collect();
        assert!(files.iter().filter(|f| f.is_kept()).count() <= kept_files());
        assert!(!files[0].is_kept(), "the first let go");
        for (i, f) in files.iter().enumerate() {
            assert_eq!(read_all(f).unwrap(), format!("file {i}").into_bytes());
        }
        // Replaced by a rename: the path names another file.
        let first = dir.path().join("0.bin");
        let other = dir.path().join("new.bin");
        std::fs::write(&other, "file 0").unwrap();
        std::fs::rename(&other, &first).unwrap();
        for f in &files[1..] {
            read_all(f).unwrap();
        }
        assert!(matches!(read_all(&files[0]), Err(ReopenError::Changed)));
        assert!(
            !files[0].is_kept(),
            "the other file's descriptor is not kept"
        );
        // Changed in place (kept open, or opened again: refused either way).
        let last = files.last().unwrap();
        read_all(last).unwrap();
        std::fs::write(dir.path().join(format!("{}.bin", count - 1)), "longer now").unwrap();
        assert!(matches!(read_all(last), Err(ReopenError::Changed)));
        // Gone.
        std::fs::remove_file(dir.path().join("1.bin")).unwrap();
        for f in &files[2..] {
            let _ = read_all(f);
        }
        assert!(matches!(read_all(&files[1]), Err(ReopenError::Io(_))));
    }
}
