//! Watching the files of open reports: a background thread looks at each file's size and
//! modification time once per interval and reports when one changed or vanished since it was
//! loaded. The UI thread never waits on the disk. (A file that cannot be read any more says so
//! when it is reloaded.)

use super::waker::Waker;
use super::workspace::ReportId;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, SystemTime};

/// How often the files are looked at.
pub const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// What identifies a version of a file cheaply: its size and modification time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileSignature {
    pub len: u64,
    pub modified: Option<SystemTime>,
}

impl FileSignature {
    /// The signature of the file at `path` (its metadata only: looking never blocks, not even
    /// on a pipe).
    pub fn read(path: &Path) -> std::io::Result<FileSignature> {
        let meta = std::fs::metadata(path)?;
        Ok(FileSignature {
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

/// How a watched file differs from the version that was loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileState {
    /// Another size or modification time.
    Changed(FileSignature),
    /// Gone, or its metadata cannot be read any more; the text says why.
    Unreadable(String),
}

/// A message of the watching thread: the file of `report` is now in `state` (`None`: the same
/// as when it was loaded, again).
#[derive(Debug, Clone)]
pub struct FileEvent {
    pub report: ReportId,
    pub state: Option<FileState>,
}

/// One watched file.
#[derive(Debug, Clone)]
struct Watched {
    report: ReportId,
    path: PathBuf,
    /// The version loaded (or acknowledged).
    known: FileSignature,
    /// What was last sent for it.
    reported: Option<FileState>,
}

type WatchList = Arc<Mutex<Vec<Watched>>>;

fn lock(list: &Mutex<Vec<Watched>>) -> MutexGuard<'_, Vec<Watched>> {
    list.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The files of the open reports and the thread that looks at them. The thread starts with the
/// first watched file and ends soon after the watcher is dropped.
pub struct FileWatcher {
    list: WatchList,
    tx: Sender<FileEvent>,
    rx: Receiver<FileEvent>,
    waker: Waker,
    interval: Duration,
    started: bool,
}

impl Default for FileWatcher {
    fn default() -> Self {
        FileWatcher::with_interval(POLL_INTERVAL, Waker::default())
    }
}

impl FileWatcher {
    /// A watcher that looks at the files every `interval` and calls `waker` when one changed.
    pub fn with_interval(interval: Duration, waker: Waker) -> Self {
        let (tx, rx) = channel();
        FileWatcher {
            list: Arc::new(Mutex::new(Vec::new())),
            tx,
            rx,
            waker,
            interval,
            started: false,
        }
    }

    /// Watches the file of `report`, loaded at version `known` (replacing what was watched for
    /// it before).
    pub fn watch(&mut self, report: ReportId, path: &Path, known: FileSignature) {
        {
            let mut list = lock(&self.list);
            list.retain(|w| w.report != report);
            list.push(Watched {
                report,
                path: path.to_path_buf(),
                known,
                reported: None,
            });
        }
        self.start();
    }

    /// Stops watching the file of `report`.
    pub fn unwatch(&mut self, report: ReportId) {
        let mut list = lock(&self.list);
        list.retain(|w| w.report != report);
        if list.is_empty() {
            *list = Vec::new();
        }
    }

    /// Stops watching every file.
    pub fn unwatch_all(&mut self) {
        *lock(&self.list) = Vec::new();
    }

    /// Takes the file as it is now as the known version (the user dismissed the change); a
    /// later change is reported again.
    pub fn acknowledge(&mut self, report: ReportId) {
        let mut list = lock(&self.list);
        if let Some(w) = list.iter_mut().find(|w| w.report == report)
            && let Some(FileState::Changed(now)) = w.reported
        {
            w.known = now;
            w.reported = None;
        }
    }

    /// What the thread found since the last call.
    pub fn try_recv(&self) -> Option<FileEvent> {
        self.rx.try_recv().ok()
    }

    /// Starts the thread once.
    fn start(&mut self) {
        if self.started {
            return;
        }
        let list = Arc::downgrade(&self.list);
        let tx = self.tx.clone();
        let waker = self.waker.clone();
        let interval = self.interval;
        let spawned = std::thread::Builder::new()
            .name("watch report files".into())
            .spawn(move || watch_loop(&list, &tx, &waker, interval));
        self.started = spawned.is_ok();
    }
}

/// Looks at every watched file each `interval` until the watcher is gone.
fn watch_loop(
    list: &Weak<Mutex<Vec<Watched>>>,
    tx: &Sender<FileEvent>,
    waker: &Waker,
    interval: Duration,
) {
    loop {
        std::thread::sleep(interval);
        let Some(list) = list.upgrade() else {
            return;
        };
        // Look at the disk without holding the lock: the UI thread may need it meanwhile.
        let snapshot: Vec<(ReportId, PathBuf)> = lock(&list)
            .iter()
            .map(|w| (w.report, w.path.clone()))
            .collect();
        let seen: Vec<(ReportId, std::io::Result<FileSignature>)> = snapshot
            .into_iter()
            .map(|(report, path)| (report, FileSignature::read(&path)))
            .collect();
        let mut events = Vec::new();
        {
            let mut watched = lock(&list);
            for (report, now) in seen {
                let Some(w) = watched.iter_mut().find(|w| w.report == report) else {
                    continue;
                };
                let state = match now {
                    Ok(sig) if sig == w.known => None,
                    Ok(sig) => Some(FileState::Changed(sig)),
                    Err(e) => Some(FileState::Unreadable(unreadable_text(&e))),
                };
                if state != w.reported {
                    w.reported = state.clone();
                    events.push(FileEvent { report, state });
                }
            }
        }
        drop(list);
        if events.is_empty() {
            continue;
        }
        for event in events {
            if tx.send(event).is_err() {
                return;
            }
        }
        waker.wake();
    }
}

/// Why a file cannot be looked at, in words.
fn unreadable_text(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "is no longer on disk (removed or renamed)".into(),
        std::io::ErrorKind::PermissionDenied => "can no longer be read (permission denied)".into(),
        _ => format!("can no longer be read ({error})"),
    }
}
