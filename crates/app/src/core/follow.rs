//! Following a folder: a background thread looks at the folder's report files every interval
//! and hands on each one once its write is complete (its size and modification time unchanged
//! over two looks, and not empty), in name order; a file written again later is handed on
//! again. The reports already there when following starts come first. The UI thread never
//! waits on the disk.

use crate::core::waker::Waker;
use crate::parse::report_files::report_files_in;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, SystemTime};

/// How often the folder is looked at.
pub const FOLLOW_INTERVAL: Duration = Duration::from_millis(500);

/// A followed folder; following stops when it is dropped.
pub struct FolderFollower {
    dir: PathBuf,
    ready: Receiver<PathBuf>,
    stop: Arc<AtomicBool>,
}

/// What a look saw of a file: its size and modification time, and whether it was handed on.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Seen {
    len: u64,
    modified: Option<SystemTime>,
    handed_on: bool,
}

impl FolderFollower {
    /// Starts following `dir`, looking every `interval`; `waker` wakes the front end when a
    /// report is ready.
    pub fn start(dir: &Path, interval: Duration, waker: Waker) -> std::io::Result<Self> {
        // The folder must be readable now: the error belongs to the one who asked.
        report_files_in(dir)?;
        let (tx, ready) = channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let folder = dir.to_path_buf();
        std::thread::Builder::new()
            .name("folder follower".into())
            .spawn(move || {
                let mut seen: HashMap<PathBuf, Seen> = HashMap::new();
                while !stopped.load(Ordering::Relaxed) {
                    for path in look(&folder, &mut seen) {
                        if tx.send(path).is_err() {
                            return;
                        }
                        waker.wake();
                    }
                    std::thread::sleep(interval);
                }
            })?;
        Ok(FolderFollower {
            dir: dir.to_path_buf(),
            ready,
            stop,
        })
    }

    /// The folder followed.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A report whose write completed, if one did.
    pub fn try_recv(&self) -> Option<PathBuf> {
        self.ready.try_recv().ok()
    }
}

impl Drop for FolderFollower {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// One look at the folder: the files complete since the last look, in name order.
fn look(dir: &Path, seen: &mut HashMap<PathBuf, Seen>) -> Vec<PathBuf> {
    let Ok(files) = report_files_in(dir) else {
        return Vec::new();
    };
    let mut ready = Vec::new();
    for path in files {
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        let now = Seen {
            len: meta.len(),
            modified: meta.modified().ok(),
            handed_on: false,
        };
        match seen.get_mut(&path) {
            // Unchanged since the last look: complete, unless empty or handed on already.
            Some(before) if before.len == now.len && before.modified == now.modified => {
                if !before.handed_on && now.len > 0 {
                    before.handed_on = true;
                    ready.push(path);
                }
            }
            // New, or still being written (or written again): looked at again next time.
            _ => {
                seen.insert(path, now);
            }
        }
    }
    ready
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_handed_on_once_its_write_is_complete() {
        let dir = std::env::temp_dir().join(format!("sightline-follow-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut seen = HashMap::new();
        let a = dir.join("a.ncu-rep");
        std::fs::write(&a, b"first part").unwrap();
        std::fs::write(dir.join("notes.txt"), b"not a report").unwrap();
        // Seen once: not yet known to be complete.
        assert!(look(&dir, &mut seen).is_empty());
        // It grows: still being written.
        std::fs::write(&a, b"first part, second part").unwrap();
        assert!(look(&dir, &mut seen).is_empty());
        // Unchanged over two looks: complete, handed on once.
        assert_eq!(look(&dir, &mut seen), vec![a.clone()]);
        assert!(look(&dir, &mut seen).is_empty());
        // An empty file is never complete.
        let b = dir.join("b.ncu-rep");
        std::fs::write(&b, b"").unwrap();
        assert!(look(&dir, &mut seen).is_empty());
        assert!(look(&dir, &mut seen).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
