//! Following a folder: a background thread looks at the folder's report files every interval
//! and hands on each one once its write has settled: not empty, its size and modification time
//! unchanged for [`SETTLE`] (longer than the 1.4 s ncu takes between the results it appends),
//! and, for an `.ncu-rep`, ending where a block ends. A report cut short mid-block (a copy
//! that stalls, a slow share) is waited for, however long the pause, until it stays cut for
//! [`GIVE_UP`]; then it is handed on and its error names it. Files appear in name order; a
//! file written again later is handed on again (the app reads it again in place). A file
//! written under a temporary name and renamed is seen once renamed. The UI thread never waits
//! on the disk.

use crate::core::waker::Waker;
use crate::parse::ncu_rep::stream_check::ends_whole;
use crate::parse::report_files::report_files_in;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant, SystemTime};

/// How often the folder is looked at.
pub const FOLLOW_INTERVAL: Duration = Duration::from_millis(500);
/// How long a file's size and time stay unchanged before its write counts as settled.
pub const SETTLE: Duration = Duration::from_secs(3);
/// How long a report cut short mid-block stays unchanged before it is handed on as it is.
pub const GIVE_UP: Duration = Duration::from_secs(60);

/// A followed folder; following stops when it is dropped.
pub struct FolderFollower {
    dir: PathBuf,
    ready: Receiver<PathBuf>,
    stop: Arc<AtomicBool>,
}

/// What a look saw of a file: its size and modification time, since when they are unchanged,
/// and whether it was handed on.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Seen {
    len: u64,
    modified: Option<SystemTime>,
    since: Instant,
    handed_on: bool,
    /// Whether the file, as it is now, ends where a block ends (read once per size and time).
    whole: Option<bool>,
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
                    for path in look(&folder, &mut seen, Instant::now()) {
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

/// One look at the folder at `now`: the files whose writes settled since the last look, in
/// name order.
fn look(dir: &Path, seen: &mut HashMap<PathBuf, Seen>, now: Instant) -> Vec<PathBuf> {
    let Ok(files) = report_files_in(dir) else {
        return Vec::new();
    };
    // Files gone from the folder are forgotten: one written again under the name is new.
    seen.retain(|p, _| files.contains(p));
    let mut ready = Vec::new();
    for path in files {
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        let (len, modified) = (meta.len(), meta.modified().ok());
        match seen.get_mut(&path) {
            Some(before) if before.len == len && before.modified == modified => {
                let quiet = now.saturating_duration_since(before.since);
                if before.handed_on || len == 0 || quiet < SETTLE {
                    continue;
                }
                // A report cut short is waited for, unless it stays so for long. The file
                // is unchanged since, so it is read once, not at every look.
                let whole = *before
                    .whole
                    .get_or_insert_with(|| ends_whole(&path).ok().flatten() != Some(false));
                if whole || quiet >= GIVE_UP {
                    before.handed_on = true;
                    ready.push(path);
                }
            }
            // New, or still being written (or written again): timed from now.
            _ => {
                seen.insert(
                    path,
                    Seen {
                        len,
                        modified,
                        since: now,
                        handed_on: false,
                        whole: None,
                    },
                );
            }
        }
    }
    ready
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real report (`fixtures/series/v1.ncu-rep.xz`), decompressed.
    fn report_bytes() -> Vec<u8> {
        let xz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/series/v1.ncu-rep.xz");
        let raw = std::fs::read(&xz).expect("fixture");
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut xz2::read::XzDecoder::new(&raw[..]), &mut out).expect("xz");
        out
    }

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sightline-follow-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_is_handed_on_once_its_write_has_settled() {
        let dir = folder("settle");
        let mut seen = HashMap::new();
        let t0 = Instant::now();
        let a = dir.join("a.ncu-rep");
        let bytes = report_bytes();
        std::fs::write(&a, &bytes[..1000]).unwrap();
        std::fs::write(dir.join("notes.txt"), b"not a report").unwrap();
        // Seen once: not yet known to be complete.
        assert!(look(&dir, &mut seen, t0).is_empty());
        // It grows: still being written, timed again.
        std::fs::write(&a, &bytes).unwrap();
        assert!(look(&dir, &mut seen, t0 + Duration::from_secs(1)).is_empty());
        // Unchanged, but not for SETTLE yet.
        assert!(look(&dir, &mut seen, t0 + Duration::from_secs(2)).is_empty());
        // Settled: handed on once.
        assert_eq!(
            look(&dir, &mut seen, t0 + Duration::from_secs(5)),
            vec![a.clone()]
        );
        assert!(look(&dir, &mut seen, t0 + Duration::from_secs(9)).is_empty());
        // An empty file is never complete.
        let b = dir.join("b.ncu-rep");
        std::fs::write(&b, b"").unwrap();
        assert!(look(&dir, &mut seen, t0 + Duration::from_secs(10)).is_empty());
        assert!(look(&dir, &mut seen, t0 + Duration::from_secs(20)).is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_report_cut_short_is_waited_for_however_long_the_pause() {
        let dir = folder("torn");
        let mut seen = HashMap::new();
        let t0 = Instant::now();
        let a = dir.join("run.ncu-rep");
        let bytes = report_bytes();
        // A copy that stalls half-way, for far longer than the look interval and SETTLE.
        std::fs::write(&a, &bytes[..bytes.len() / 2]).unwrap();
        for s in [0, 1, 4, 10, 30] {
            assert!(
                look(&dir, &mut seen, t0 + Duration::from_secs(s)).is_empty(),
                "{s} s"
            );
        }
        // The copy completes: handed on once it settles, whole.
        std::fs::write(&a, &bytes).unwrap();
        assert!(look(&dir, &mut seen, t0 + Duration::from_secs(31)).is_empty());
        assert_eq!(
            look(&dir, &mut seen, t0 + Duration::from_secs(35)),
            vec![a.clone()]
        );
        // A report that stays cut is handed on after GIVE_UP (its error then names it).
        let b = dir.join("stuck.ncu-rep");
        std::fs::write(&b, &bytes[..bytes.len() / 3]).unwrap();
        let t1 = t0 + Duration::from_secs(40);
        assert!(look(&dir, &mut seen, t1).is_empty());
        assert!(look(&dir, &mut seen, t1 + Duration::from_secs(10)).is_empty());
        assert_eq!(look(&dir, &mut seen, t1 + GIVE_UP), vec![b.clone()]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_report_written_under_another_name_is_seen_once_renamed() {
        let dir = folder("rename");
        let mut seen = HashMap::new();
        let t0 = Instant::now();
        let bytes = report_bytes();
        // rsync's and browsers' way: a temporary name, then the real one.
        let tmp = dir.join(".run.ncu-rep.Xa81bz");
        std::fs::write(&tmp, &bytes[..bytes.len() / 2]).unwrap();
        assert!(look(&dir, &mut seen, t0).is_empty());
        std::fs::write(&tmp, &bytes).unwrap();
        assert!(look(&dir, &mut seen, t0 + Duration::from_secs(5)).is_empty());
        let real = dir.join("run.ncu-rep");
        std::fs::rename(&tmp, &real).unwrap();
        assert!(look(&dir, &mut seen, t0 + Duration::from_secs(6)).is_empty());
        assert_eq!(
            look(&dir, &mut seen, t0 + Duration::from_secs(10)),
            vec![real]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
